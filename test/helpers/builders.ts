// Concise builders for planner-core tests: pods, ReplicaSets / ReplicationControllers already in
// their API-defaulted shape (docs/replicaset-controller.md §0.7, §5.5, §5.7), snapshots and plans.
import type {
  LabelSelector,
  Labels,
  OwnerReference,
  PodView,
  ReplicaSetStatusView,
  Snapshot,
  Workload,
  WorkloadCondition,
  WorkloadKind,
} from '../../src/model/objects.js'
import {
  type Action,
  type AdoptAction,
  type ControllerPlan,
  type CreateAction,
  DEFAULT_FEATURE_GATES,
  type DeleteAction,
  type FeatureGates,
  type ReconcilePlan,
  type ReleaseAction,
  type UpdateStatusAction,
} from '../../src/model/plan.js'
import {planSnapshot} from '../../src/reconcile/planner.js'

/** The controller's clock in every test unless stated (docs/replicaset-controller.md §2.4). */
export const FIXED_NOW = '2026-11-22T10:00:00Z'
export const FIXED_NOW_MS = Date.parse(FIXED_NOW)

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'

/** RFC 3339 time `seconds` before FIXED_NOW (whole seconds print without a fraction). */
export function ago(seconds: number, from: string = FIXED_NOW): string {
  const iso = new Date(Date.parse(from) - seconds * 1000).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso
}

export interface PodOptions {
  namespace?: string
  uid?: string
  resourceVersion?: string
  labels?: Labels
  annotations?: Record<string, string>
  /** status.phase; '' for unset. Default Running. */
  phase?: string
  /** Condition Ready=True. Default true. */
  ready?: boolean
  /** Ready lastTransitionTime; `null` for a Ready condition with a zero time. Default ago(3600). */
  readySince?: string | null
  /** spec.nodeName; '' for unscheduled. Default n1. */
  node?: string
  /** creationTimestamp; `null` for none. Default ago(7200). */
  created?: string | null
  /** metadata.deletionTimestamp; `true` means ago(5). */
  deleting?: string | true
  /** The controller: a workload (its controller ref) or an explicit reference. */
  owner?: Workload | OwnerReference
  /** Extra (non-controller or explicit) ownerReferences, kept before the controller ref. */
  ownerReferences?: OwnerReference[]
  /** Max restartCount of regular containers. */
  restarts?: number
  /** Max restartCount of sidecar (restartPolicy Always) init containers. */
  sidecarRestarts?: number
  /** controller.kubernetes.io/pod-deletion-cost annotation value, as written. */
  cost?: string
}

export function pod(name: string, o: PodOptions = {}): PodView {
  const ready = o.ready ?? true
  const refs: OwnerReference[] = [...(o.ownerReferences ?? [])]
  if (o.owner) refs.push(isWorkload(o.owner) ? controllerRefTo(o.owner) : o.owner)
  const annotations: Record<string, string> = {...(o.annotations ?? {})}
  if (o.cost !== undefined) annotations[POD_DELETION_COST] = o.cost
  const view: PodView = {
    namespace: o.namespace ?? 'default',
    name,
    uid: o.uid ?? `uid-${name}`,
    resourceVersion: o.resourceVersion ?? '100',
    generation: 0,
    labels: {...(o.labels ?? {app: 'web'})},
    annotations,
    ownerReferences: refs,
    nodeName: o.node ?? 'n1',
    phase: o.phase ?? 'Running',
    ready,
    containerStatuses: [{name: 'app', restartCount: o.restarts ?? 0}],
    sidecarStatuses: o.sidecarRestarts === undefined ? [] : [{name: 'sidecar', restartCount: o.sidecarRestarts}],
  }
  if (o.created !== null) view.creationTimestamp = o.created ?? ago(7200)
  if (ready && o.readySince !== null) view.readySince = o.readySince ?? ago(3600)
  if (o.deleting !== undefined) view.deletionTimestamp = o.deleting === true ? ago(5) : o.deleting
  return view
}

export interface WorkloadOptions {
  namespace?: string
  uid?: string
  resourceVersion?: string
  /** spec.replicas after defaulting (nil → 1). */
  replicas?: number
  minReadySeconds?: number
  /** spec.selector; default matchLabels = template labels. `null` is the nil selector. */
  selector?: LabelSelector
  /** spec.template.metadata.labels; default {app: 'web'}. */
  templateLabels?: Labels
  templateAnnotations?: Labels
  finalizers?: string[]
  templateSpec?: unknown
  /** metadata.labels; default the template labels. */
  labels?: Labels
  /** The controller owner (normally a Deployment, see deploymentOwner). */
  owner?: OwnerReference
  /** metadata.deletionTimestamp; `true` means ago(10). */
  deleting?: string | true
  generation?: number
  status?: Partial<ReplicaSetStatusView>
}

function workload(kind: WorkloadKind, name: string, o: WorkloadOptions): Workload {
  const templateLabels = {...(o.templateLabels ?? {app: 'web'})}
  const w: Workload = {
    kind,
    apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
    namespace: o.namespace ?? 'default',
    name,
    uid: o.uid ?? `uid-${kind === 'ReplicaSet' ? 'rs' : 'rc'}-${name}`,
    resourceVersion: o.resourceVersion ?? '10',
    generation: o.generation ?? 1,
    labels: {...(o.labels ?? templateLabels)},
    annotations: {},
    ownerReferences: o.owner ? [o.owner] : [],
    creationTimestamp: ago(86400),
    replicas: o.replicas ?? 1,
    minReadySeconds: o.minReadySeconds ?? 0,
    selector: o.selector === undefined ? {matchLabels: {...templateLabels}} : o.selector,
    template: {
      labels: templateLabels,
      annotations: {...(o.templateAnnotations ?? {})},
      finalizers: [...(o.finalizers ?? [])],
      spec: o.templateSpec ?? {containers: [{name: 'app', image: 'nginx:1.27'}], restartPolicy: 'Always'},
    },
    status: {
      replicas: 0,
      fullyLabeledReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      observedGeneration: 1,
      conditions: [],
      ...o.status,
    },
  }
  if (o.deleting !== undefined) w.deletionTimestamp = o.deleting === true ? ago(10) : o.deleting
  return w
}

export function replicaSet(name: string, o: WorkloadOptions = {}): Workload {
  return workload('ReplicaSet', name, o)
}

/**
 * An RC after SetDefaults_ReplicationController and the RS-shape conversion: with no selector
 * given, the selector (and empty metadata.labels) default to the template labels.
 */
export function replicationController(name: string, o: WorkloadOptions = {}): Workload {
  const w = workload('ReplicationController', name, o)
  if (o.selector === undefined) w.selectorDefaulted = true
  return w
}

/** The controller ownerReference of a Deployment, as the Deployment controller sets it on its RSs. */
export function deploymentOwner(name = 'web', uid = `uid-deploy-${name}`): OwnerReference {
  return {apiVersion: 'apps/v1', kind: 'Deployment', name, uid, controller: true, blockOwnerDeletion: true}
}

/** metav1.NewControllerRef for a workload. */
export function controllerRefTo(w: Workload): OwnerReference {
  return {apiVersion: w.apiVersion, kind: w.kind, name: w.name, uid: w.uid, controller: true, blockOwnerDeletion: true}
}

function isWorkload(x: Workload | OwnerReference): x is Workload {
  return 'template' in x
}

export function condition(type: string, over: Partial<WorkloadCondition> = {}): WorkloadCondition {
  return {type, status: 'True', lastTransitionTime: ago(600), ...over}
}

export interface SnapshotParts {
  workloads: Workload[]
  pods?: PodView[]
  /** Every ReplicaSet/RC the controller's cache holds; default: the workloads. */
  replicaSets?: Workload[]
}

export function snapshotOf(parts: SnapshotParts): Snapshot {
  return {
    workloads: parts.workloads,
    pods: parts.pods ?? [],
    replicaSets: parts.replicaSets ?? parts.workloads,
    ignored: {},
    source: {type: 'fixtures', paths: ['test']},
  }
}

export interface PlanOptions {
  now?: string
  gates?: Partial<FeatureGates>
  burst?: number
}

export function planOf(snapshot: Snapshot, o: PlanOptions = {}): ReconcilePlan {
  return planSnapshot(snapshot, {
    now: o.now ?? FIXED_NOW,
    featureGates: {...DEFAULT_FEATURE_GATES, ...o.gates},
    burstReplicas: o.burst ?? 500,
  })
}

/** The plan of the controller called `name` (of `kind` when two kinds share a name). */
export function controllerPlan(plan: ReconcilePlan, name: string, kind?: WorkloadKind): ControllerPlan {
  const found = plan.controllers.filter((c) => c.name === name && (kind === undefined || c.kind === kind))
  if (found.length !== 1) throw new Error(`expected one controller plan named ${name}, found ${found.length}`)
  return found[0]
}

/** Plans a snapshot made of `workloads` and `pods` and returns the plan of the first workload. */
export function planFor(workloads: Workload | Workload[], pods: PodView[] = [], o: PlanOptions & {replicaSets?: Workload[]} = {}): ControllerPlan {
  const list = Array.isArray(workloads) ? workloads : [workloads]
  const plan = planOf(snapshotOf({workloads: list, pods, replicaSets: o.replicaSets}), o)
  return controllerPlan(plan, list[0].name, list[0].kind)
}

export const creates = (c: ControllerPlan): CreateAction[] => c.actions.filter((a): a is CreateAction => a.type === 'create')
export const deletes = (c: ControllerPlan): DeleteAction[] => c.actions.filter((a): a is DeleteAction => a.type === 'delete')

/** The pods of the tie a delete points at (`tieGroup`), from the plan's `ties`; none when it is in no tie. */
export const tieOfDelete = (c: ControllerPlan, d: DeleteAction): string[] => c.ties?.find((t) => t.id === d.tieGroup)?.pods ?? []
export const adopts = (c: ControllerPlan): AdoptAction[] => c.actions.filter((a): a is AdoptAction => a.type === 'adopt')
export const releases = (c: ControllerPlan): ReleaseAction[] => c.actions.filter((a): a is ReleaseAction => a.type === 'release')
export const statusUpdate = (c: ControllerPlan): UpdateStatusAction | undefined =>
  c.actions.find((a): a is UpdateStatusAction => a.type === 'updateStatus')
/** Names of the pods deleted, in the plan's (deletion) order. */
export const deleted = (c: ControllerPlan): string[] => deletes(c).map((a) => a.pod)
export const actionTypes = (c: ControllerPlan): Action['type'][] => c.actions.map((a) => a.type)
