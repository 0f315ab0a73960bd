// The executor's only door to the world: a narrow interface in the spirit of upstream's
// PodControlInterface and RSControlInterface (pkg/controller/controller_utils.go), with a cluster implementation
// (cluster-control.ts), an in-memory one for fixtures (memory-world.ts) and a recording one for
// tests (test/helpers/recording-control.ts). The request bodies the controller sends are built here, once.
import type {LabelSelector, OwnerReference} from '../model/objects.js'
import type {ActionError} from '../model/apply.js'
import type {ControllerKind, CreateAction} from '../model/plan.js'

/** Which controller, and the version the plan saw. */
export interface ControllerKey {
  kind: ControllerKind
  apiVersion: string
  namespace: string
  name: string
  /** A custom resource's scale subresource (an HPA's target): its resource (`plural.group`) and the field its spec.replicas is. */
  customScale?: {resource: string; specReplicasPath?: string}
}

/** The controller as read now: the whole object (for the status write) and what is checked. */
export interface ControllerObject {
  uid: string
  resourceVersion: string
  deletionTimestamp?: string
  /** spec.template.spec, copied into every created pod. */
  templateSpec: unknown
  /** The object as read, never modified (copies are). */
  raw: Record<string, unknown>
}

/** A pod as the controller posts it (GetPodFromTemplate). */
export interface PodManifest {
  apiVersion: 'v1'
  kind: 'Pod'
  metadata: {
    generateName: string
    /** An exact name (a StatefulSet's pod); without it the server generates one from generateName. */
    name?: string
    namespace: string
    labels: Record<string, string>
    annotations?: Record<string, string>
    finalizers?: string[]
    ownerReferences: OwnerReference[]
  }
  spec: unknown
}

export interface DeletePreconditions {
  uid: string
  /** Absent: the uid alone is the precondition (a CronJob's delete of a Job, whose status moves on its own). */
  resourceVersion?: string
  /** DeleteOptions.propagationPolicy; absent: the resource's default. */
  propagationPolicy?: 'Background' | 'Foreground'
}

export interface CreatedPod {
  name: string
  uid?: string
}

/** A ReplicaSet as the Deployment controller posts it (getNewReplicaSet's newRS). */
export interface ReplicaSetManifest {
  apiVersion: 'apps/v1'
  kind: 'ReplicaSet'
  metadata: {
    name: string
    namespace: string
    labels: Record<string, string>
    annotations: Record<string, string>
    ownerReferences: OwnerReference[]
  }
  spec: {replicas: number; minReadySeconds: number; selector: LabelSelector; template: Record<string, unknown>}
}

/**
 * The Deployment controller's Update of a ReplicaSet (its size, its annotations, minReadySeconds)
 * as a patch whose uid and resourceVersion are the preconditions: the API server answers 409 when
 * the ReplicaSet is not the version the write was planned against, as the controller's Update does.
 */
export type ReplicaSetPatch = {
  metadata: {uid: string; resourceVersion: string; annotations: Record<string, string>}
  spec: {replicas?: number; minReadySeconds?: number}
}

/**
 * Every call either resolves or throws a PodControlError. `dryRun` implementations send
 * `dryRun=All` (or change nothing) and answer as the real call would.
 */
export interface PodControl {
  readonly dryRun: boolean
  getController(key: ControllerKey): Promise<ControllerObject>
  createPod(pod: PodManifest): Promise<CreatedPod>
  /** DELETE with DeleteOptions.preconditions: a pod that changed or was replaced is left alone (409). */
  deletePod(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void>
  /**
   * A strategic-merge patch (adoption, release); `metadata.uid` in it is the precondition. Resolves
   * to the pod's new resourceVersion (a later delete of the same pod must name it).
   */
  patchPod(namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}>
  /** PUT on the /status subresource of `object` (whose metadata.resourceVersion is the precondition). */
  updateStatus(key: ControllerKey, object: Record<string, unknown>): Promise<{resourceVersion?: string}>
  /**
   * PUT on the /scale subresource of `key` (the HPA controller's scaleNamespacer.Update): an
   * autoscaling/v1 Scale whose metadata.resourceVersion, the target's, is the precondition.
   */
  updateScale(key: ControllerKey, scale: ScaleObject): Promise<{resourceVersion?: string}>

  // ---- The Deployment controller's writes to ReplicaSets.
  /** POST of a new ReplicaSet by its exact name (409 AlreadyExists when the name is taken). */
  createReplicaSet(rs: ReplicaSetManifest): Promise<{name: string; uid?: string; resourceVersion?: string}>
  /** A patch of a ReplicaSet: an owner patch (adopt, release) or an update (scale, annotations). */
  patchReplicaSet(namespace: string, name: string, patch: OwnerPatch | ReplicaSetPatch): Promise<{resourceVersion?: string}>
  /** DELETE with DeleteOptions.preconditions (uid and resourceVersion). */
  deleteReplicaSet(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void>

  // ---- The StatefulSet and DaemonSet controllers' writes to their ControllerRevisions and claims.
  getObject(kind: SideKind, namespace: string, name: string): Promise<Record<string, unknown>>
  /** POST by the object's exact name (409 AlreadyExists when it is taken); `json`: the body's exact bytes, when they matter. */
  createObject(object: SideObject, json?: string): Promise<{name: string; uid?: string; resourceVersion?: string}>
  /**
   * A JSON merge patch (lists replaced whole) or a strategic-merge owner patch; `metadata.uid`
   * and, when present, `metadata.resourceVersion` in it are preconditions.
   */
  patchObject(kind: SideKind | 'Pod', namespace: string, name: string, patch: ObjectPatch | OwnerPatch, type: 'merge' | 'strategic'): Promise<{resourceVersion?: string}>
  deleteObject(kind: SideKind, namespace: string, name: string, preconditions: DeletePreconditions): Promise<void>
}

/** An autoscaling/v1 Scale as the HPA controller PUTs it: the target's identity and version, the new spec.replicas. */
export interface ScaleObject {
  apiVersion: 'autoscaling/v1'
  kind: 'Scale'
  metadata: {name: string; namespace: string; uid?: string; resourceVersion?: string}
  spec: {replicas: number}
}

/** The objects besides pods a StatefulSet, DaemonSet or CronJob sync writes. */
export type SideKind = 'ControllerRevision' | 'PersistentVolumeClaim' | 'Job'

export interface SideObject {
  apiVersion: string
  kind: SideKind
  metadata: {name: string; namespace: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: OwnerReference[]}
  [field: string]: unknown
}

/** A merge patch whose metadata names the object's uid (and resourceVersion) as preconditions. */
export type ObjectPatch = {metadata: {uid: string; resourceVersion?: string; [field: string]: unknown}; [field: string]: unknown}

/** A failed call: the server's Status (code, reason, message) or a local failure. */
export class PodControlError extends Error implements ActionError {
  readonly code?: number
  readonly reason?: string
  readonly causes?: string[]
  constructor(error: ActionError) {
    super(error.message)
    this.name = 'PodControlError'
    this.code = error.code
    this.reason = error.reason
    this.causes = error.causes
  }

  toJSON(): ActionError {
    return {
      ...(this.code === undefined ? {} : {code: this.code}),
      ...(this.reason ? {reason: this.reason} : {}),
      message: this.message,
      ...(this.causes ? {causes: [...this.causes]} : {}),
    }
  }
}

/** Anything thrown by a PodControl, as report data. */
export function actionError(error: unknown): ActionError {
  if (error instanceof PodControlError) return error.toJSON()
  const status = (error as {status?: {code?: unknown; reason?: unknown; message?: unknown; details?: unknown}} | undefined)?.status
  if (status && typeof status.code === 'number') {
    // StatusCause.Type is written as `reason` in JSON.
    const causes = (status.details as {causes?: Array<{reason?: unknown}>} | undefined)?.causes?.map((c) => c?.reason).filter((t): t is string => typeof t === 'string')
    return {
      code: status.code,
      ...(typeof status.reason === 'string' && status.reason ? {reason: status.reason} : {}),
      message: typeof status.message === 'string' && status.message ? status.message : String((error as Error).message),
      ...(causes && causes.length > 0 ? {causes} : {}),
    }
  }
  return {message: error instanceof Error ? error.message.split('\n')[0] : String(error)}
}

/**
 * GetPodFromTemplate (controller_utils.go): labels, annotations and finalizers of the template (as
 * the plan recorded them), generateName, the controller reference, and a copy of the template's
 * spec; the namespace is the controller's. Nothing else of the template's metadata is kept.
 */
export function podFromTemplate(action: CreateAction, namespace: string, templateSpec: unknown): PodManifest {
  const metadata: PodManifest['metadata'] = {
    generateName: action.generateName,
    namespace,
    labels: {...action.labels},
    ownerReferences: [
      {
        apiVersion: action.ownerReference.apiVersion,
        kind: action.ownerReference.kind,
        name: action.ownerReference.name,
        uid: action.ownerReference.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  }
  if (Object.keys(action.annotations).length > 0) metadata.annotations = {...action.annotations}
  if (action.finalizers.length > 0) metadata.finalizers = [...action.finalizers]
  return {apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(templateSpec ?? {})}
}

/** The two patches a ReplicaSet controller sends to pods. */
export type OwnerPatch = {
  metadata: {
    ownerReferences: Array<Record<string, unknown>>
    uid: string
    /** A Job's adoption adds its tracking finalizer in the same patch (strategic merge: a union). */
    finalizers?: string[]
    /** A Job's release removes it in the same patch. */
    '$deleteFromPrimitiveList/finalizers'?: string[]
  }
}

/**
 * ownerRefControllerPatch (controller_ref_manager.go): add our controller reference; the pod's uid
 * makes a re-created pod of the same name fail (422) instead of being adopted. The server refuses
 * the patch if another controller reference exists.
 */
export function adoptPatch(podUid: string, owner: {apiVersion: string; kind: string; name: string; uid: string}, finalizer?: string): OwnerPatch {
  return {
    metadata: {
      ownerReferences: [{apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true}],
      uid: podUid,
      ...(finalizer ? {finalizers: [finalizer]} : {}),
    },
  }
}

/** GenerateDeleteOwnerRefStrategicMergeBytes: delete our reference (merge key uid), pod uid as precondition. */
export function releasePatch(podUid: string, ownerUid: string, finalizer?: string): OwnerPatch {
  return {metadata: {uid: podUid, ownerReferences: [{$patch: 'delete', uid: ownerUid}], ...(finalizer ? {'$deleteFromPrimitiveList/finalizers': [finalizer]} : {})}}
}

export function replicaSetsPath(namespace: string, name?: string): string {
  return `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/replicasets${name === undefined ? '' : `/${encodeURIComponent(name)}`}`
}

export function podsPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods${name === undefined ? '' : `/${encodeURIComponent(name)}`}`
}
