// The executor's only door to the world: a narrow interface in the spirit of upstream's
// PodControlInterface (pkg/controller/controller_utils.go), with a cluster implementation
// (cluster-control.ts), an in-memory one for fixtures (memory-world.ts) and a recording one for
// tests (test/helpers/recording-control.ts). The request bodies the controller sends are built here, once.
import type {OwnerReference} from '../model/objects.js'
import type {ActionError} from '../model/apply.js'
import type {ControllerKind, CreateAction, StatusView} from '../model/plan.js'

/** Which controller, and the version the plan saw. */
export interface ControllerKey {
  kind: ControllerKind
  apiVersion: string
  namespace: string
  name: string
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
  resourceVersion: string
}

export interface CreatedPod {
  name: string
  uid?: string
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
}

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
export type OwnerPatch = {metadata: {ownerReferences: Array<Record<string, unknown>>; uid: string}}

/**
 * ownerRefControllerPatch (controller_ref_manager.go): add our controller reference; the pod's uid
 * makes a re-created pod of the same name fail (422) instead of being adopted. The server refuses
 * the patch if another controller reference exists.
 */
export function adoptPatch(podUid: string, owner: {apiVersion: string; kind: string; name: string; uid: string}): OwnerPatch {
  return {
    metadata: {
      ownerReferences: [{apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true}],
      uid: podUid,
    },
  }
}

/** GenerateDeleteOwnerRefStrategicMergeBytes: delete our reference (merge key uid), pod uid as precondition. */
export function releasePatch(podUid: string, ownerUid: string): OwnerPatch {
  return {metadata: {uid: podUid, ownerReferences: [{$patch: 'delete', uid: ownerUid}]}}
}

/** The status as the API stores it (RC has no terminatingReplicas; unset stays unset). */
export function statusObject(view: StatusView): Record<string, unknown> {
  const status: Record<string, unknown> = {
    replicas: view.replicas,
    fullyLabeledReplicas: view.fullyLabeledReplicas,
    readyReplicas: view.readyReplicas,
    availableReplicas: view.availableReplicas,
  }
  if (view.terminatingReplicas !== undefined) status.terminatingReplicas = view.terminatingReplicas
  status.observedGeneration = view.observedGeneration
  if (view.conditions && view.conditions.length > 0) status.conditions = view.conditions.map((c) => ({...c}))
  return status
}

/** REST path of a controller (or, with `sub`, one of its subresources). */
export function controllerPath(key: ControllerKey, sub?: string): string {
  const base = key.kind === 'ReplicaSet' ? '/apis/apps/v1' : '/api/v1'
  const plural = key.kind === 'ReplicaSet' ? 'replicasets' : 'replicationcontrollers'
  return `${base}/namespaces/${encodeURIComponent(key.namespace)}/${plural}/${encodeURIComponent(key.name)}${sub ? `/${sub}` : ''}`
}

export function podsPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods${name === undefined ? '' : `/${encodeURIComponent(name)}`}`
}
