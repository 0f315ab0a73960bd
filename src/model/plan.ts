// The plan value: one type flows from the planner to every renderer and to the executor.
// Its JSON form is the wire contract `kctl/v1alpha1` ReconcilePlan (docs/output.md).
import type {DeploymentStatusView, LabelSelector, Labels, OwnerReference, PlanSource, ReplicaSetStatusView, WorkloadKind} from './objects.js'
import type {ChooseDaemonPodsAction, CreateDaemonPodAction, DaemonNode, DaemonSetStatusView, DeleteDaemonPodAction} from '../controllers/daemonset/model.js'
import type {CreateClaimAction, CreateStatefulPodAction, DeleteStatefulPodAction, StatefulSetStatusView, UpdateClaimAction, UpdateStatefulPodAction} from '../controllers/statefulset/model.js'
import type {BackoffRecord, CreateJobPodAction, DeleteJobAction, DeleteJobPodAction, JobStatusView, JobTtl, RemoveFinalizerAction, UpdateJobStatusAction} from '../controllers/job/model.js'
import type {CreateJobAction, CronJobStatusView, UpdateCronJobStatusAction} from '../controllers/cronjob/model.js'
import type {ServiceAction, ServicePlanDetail, ServiceStatusView} from '../controllers/service/model.js'
import type {HpaAction, HpaPlanView, HpaStatus} from '../controllers/hpa/model.js'
import type {AdoptControllerRevisionAction, CreateControllerRevisionAction, DeleteControllerRevisionAction, UpdateControllerRevisionAction} from './revisions.js'

export const PLAN_API_VERSION = 'kctl/v1alpha1'

/**
 * The ranking rule that put a deleted pod ahead of the first pod kept, in upstream's order
 * (ActivePodsWithRanks.Less); `all` when every active pod goes and nothing is ranked.
 */
export type DecidedBy =
  | 'unassigned'
  | 'phase'
  | 'not-ready'
  | 'deletion-cost'
  | 'colocated'
  | 'ready-time'
  | 'restarts'
  | 'created'
  | 'uid'
  | 'all'

/** Why a pod ranks where it does: a code plus the values compared; prose is made by renderers. */
export interface RankFacts {
  nodeName: string
  phase: string
  ready: boolean
  deletionCost: number
  /** Set when the annotation is present but not a valid int32 (it then counts as 0). */
  invalidDeletionCost?: string
  colocationRank: number
  readySince?: string
  readyBucket?: number
  restarts: number
  sidecarRestarts: number
  creationTimestamp?: string
  createdBucket?: number
}

export interface CreateAction {
  type: 'create'
  generateName: string
  /** What the API server keeps of generateName (58 characters) before its 5 random ones. */
  nameBase: string
  labels: Labels
  annotations: Labels
  finalizers: string[]
  ownerReference: OwnerReference
  /** Present when the create would fail client-side before reaching the API server. */
  error?: string
}

export interface DeleteAction {
  type: 'delete'
  pod: string
  uid: string
  resourceVersion: string
  decidedBy: DecidedBy
  /** The kept pod whose comparison `decidedBy` names (absent when every pod goes). */
  decidedAgainst?: string
  /** This pod's values for every ranking rule; the wire form's `reasons` are worded from them. */
  facts: RankFacts
  /**
   * Only in plans saved before ties were grouped (read, never written): the whole tie repeated on
   * every delete in it, which made the JSON grow with tie size × deletes. `tieGroup` replaced it.
   */
  tie?: string[]
  /** The `id` of this pod's tie in the controller plan's `ties`, when it is in one. */
  tieGroup?: number
}

/** A tie's sentence names its pods one by one up to this many. */
export const TIE_LISTED_MAX = 10

/**
 * Pods the controller cannot tell apart where its deletes stop: it may delete any `delete` of
 * them. Listed once per controller plan, however large; each delete in it points here.
 */
export interface TieGroup {
  id: number
  /** Every pod of the tie, in the plan's order: those this plan deletes first, then those it keeps. */
  pods: string[]
  /** How many of them this sync deletes. */
  delete: number
}

export interface AdoptAction {
  type: 'adopt'
  pod: string
  uid: string
  resourceVersion: string
  /** Jobs: the finalizer the same patch adds (batch.kubernetes.io/job-tracking). */
  finalizer?: string
}

export interface ReleaseAction {
  type: 'release'
  pod: string
  uid: string
  resourceVersion: string
  /** Jobs: the finalizer the same patch removes (batch.kubernetes.io/job-tracking). */
  finalizer?: string
}

/** A ReplicaSet status as the controller computes and writes it. */
export type StatusView = ReplicaSetStatusView

export interface UpdateStatusAction {
  type: 'updateStatus'
  from: StatusView
  to: StatusView
}

/** A StatefulSet's or DaemonSet's status write. */
export interface UpdateWorkloadStatusAction {
  type: 'updateStatus'
  from: StatefulSetStatusView | DaemonSetStatusView
  to: StatefulSetStatusView | DaemonSetStatusView
}

export type PodAction = CreateAction | DeleteAction | AdoptAction | ReleaseAction | UpdateStatusAction

// ---- The Deployment controller's writes (to ReplicaSets and to the Deployment itself). ----

/**
 * Set on a write the API server refuses with 409 Conflict: the sync sent it with a
 * resourceVersion an earlier write of the same sync already replaced. The sync ends there and the
 * next one (requeued at once) does the rest — unless the controller swallows that error and goes
 * on (reconcileOldReplicaSets does, for its scale-downs): then later writes follow it.
 */
export interface MayConflict {
  conflict?: true
}

export interface ReplicaSetRef extends MayConflict {
  replicaSet: string
  uid: string
  resourceVersion: string
}

export interface AdoptReplicaSetAction extends ReplicaSetRef {
  type: 'adoptReplicaSet'
}

export interface ReleaseReplicaSetAction extends ReplicaSetRef {
  type: 'releaseReplicaSet'
}

/** The new ReplicaSet's annotations (and minReadySeconds) brought in line with the Deployment (D4.4). */
export interface UpdateReplicaSetAction extends ReplicaSetRef {
  type: 'updateReplicaSet'
  annotations: Labels
  minReadySeconds: number
}

export interface CreateReplicaSetAction extends MayConflict {
  type: 'createReplicaSet'
  /** Deployment name + '-' + pod-template-hash; null when the hash cannot be computed here. */
  name: string | null
  podTemplateHash: string | null
  labels: Labels
  selector: LabelSelector
  annotations: Labels
  replicas: number
  minReadySeconds: number
  ownerReference: OwnerReference
  /**
   * `collision`: a ReplicaSet of that name exists and is not this template's (the create fails
   * AlreadyExists; collisionCount goes up and the next sync tries another name).
   * `exists`: it is this Deployment's, with this template (a slow cache: the create is a no-op).
   */
  outcome: 'created' | 'collision' | 'exists'
  /** The event the controller records (ScalingReplicaSet), when it records one. */
  event?: string
}

/** Which rule set a ReplicaSet's new size. */
export type ScaleRule =
  | 'new-replica-set' // reconcileNewReplicaSet: grow within maxSurge, or cap at replicas
  | 'unhealthy' // cleanupUnhealthyReplicas: drop replicas that are not available
  | 'availability' // scaleDownOldReplicaSetsForRollingUpdate: shrink old ones within maxUnavailable
  | 'proportional' // scale(): a replicas change shared among active ReplicaSets
  | 'active-or-latest' // scale(): the one active (or newest) ReplicaSet takes replicas
  | 'saturated' // scale(): the new ReplicaSet is full and available, old ones go to 0
  | 'recreate' // rolloutRecreate: old ones to 0, then the new one to replicas

export interface ScaleReplicaSetAction extends ReplicaSetRef {
  type: 'scaleReplicaSet'
  from: number
  to: number
  rule: ScaleRule
  /** desired-replicas and max-replicas as written with the new size. */
  annotations: Labels
  event?: string
}

export interface DeleteReplicaSetAction extends ReplicaSetRef {
  type: 'deleteReplicaSet'
  revision: string
  /** Why: beyond revisionHistoryLimit (cleanupDeployment). */
  reason: 'history-limit'
}

/** A write of the Deployment's status subresource (which also carries its revision annotation). */
export interface UpdateDeploymentStatusAction extends MayConflict {
  type: 'updateStatus'
  from: DeploymentStatusView
  to: DeploymentStatusView
  /** The Deployment's revision annotation, when this write changes it. */
  revision?: {from?: string; to: string}
  /**
   * It carries what is stored already: the API server stores nothing and keeps the
   * resourceVersion, so a later write of the same sync does not conflict.
   */
  unchanged?: true
}

/** The legacy rollback annotation handled (D8): an Update of the Deployment itself. */
export interface RollbackAction extends MayConflict {
  type: 'rollback'
  toRevision: string
  outcome: 'rolled-back' | 'revision-not-found' | 'template-unchanged'
  event: string
}

export type DeploymentAction =
  | AdoptReplicaSetAction
  | ReleaseReplicaSetAction
  | UpdateReplicaSetAction
  | CreateReplicaSetAction
  | ScaleReplicaSetAction
  | DeleteReplicaSetAction
  | UpdateDeploymentStatusAction
  | RollbackAction

export type Action = PodAction | DeploymentAction | WorkloadAction | UpdateWorkloadStatusAction | BatchAction | ServiceAction | HpaAction
export type ActionType = Action['type']

/** Every kind kctl plans a controller's sync for. */
export type ControllerKind = WorkloadKind | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob' | 'Service' | 'HorizontalPodAutoscaler'

/** A Deployment's ReplicaSet as its sync leaves it (the plan's chain view). */
export interface ReplicaSetStep {
  name: string
  uid: string
  revision: string
  /** spec.replicas before and after this sync. */
  from: number
  replicas: number
  available: number
  /** The ReplicaSet whose template is the Deployment's. */
  isNew: boolean
  /** Created by this sync. */
  created: boolean
}

export interface ControllerPlan {
  kind: ControllerKind
  apiVersion: string
  namespace: string
  name: string
  uid: string
  resourceVersion: string
  desired: number
  active: number
  /** active − desired, signed (positive: too many), as manageReplicas computes it. */
  diff: number
  actions: Action[]
  /** The part of |diff| this sync leaves for later (burst limit; a controller being deleted). */
  pending: number
  status: StatusView | DeploymentStatusView | StatefulSetStatusView | DaemonSetStatusView | JobStatusView | CronJobStatusView | ServiceStatusView | HpaStatus
  warnings: string[]
  /** True when this sync would neither create, delete, adopt, release nor write status. */
  inSync: boolean
  /** The apply set (a kustomize root) it was read in, when the input held several (fixtures only). */
  applySet?: string
  /** The ties among its deletes (present when there is one), each listed once with all its pods. */
  ties?: TieGroup[]
  // ---- Deployments only ----
  /** The ReplicaSet that matches the template: its name (null when it cannot be computed here) and whether this sync creates it. */
  newReplicaSet?: {name: string | null; podTemplateHash: string | null; created: boolean}
  /** Its ReplicaSets as this sync leaves them, oldest first. */
  replicaSets?: ReplicaSetStep[]
  /** The rollout's state in a few words (e.g. `rolling: 5 of 10 updated`, `complete`, `paused`). */
  rolloutStep?: string
  /** What syncDeployment does on this sync: rolling, recreate, scaling, paused, rollback, deleting. */
  syncPath?: string
  /** Why this sync stops before its end (a write that conflicts, a hash collision). */
  endedBy?: string
  /** Events the controller records. */
  events?: string[]
  /**
   * The following step, not this sync: the next sync of each ReplicaSet this sync creates or
   * resizes, as the ReplicaSet controller would run it on the result.
   */
  then?: ControllerPlan[]
  /** A Job's backoff record after this sync, when the controller's record was given (PlannerOptions.jobBackoff); not in the wire form. */
  backoffRecord?: BackoffRecord
  // ---- StatefulSets and DaemonSets ----
  /** The ControllerRevision of the current template: its name (null when it cannot be computed here), hash, and whether this sync creates it. */
  updateRevision?: {name: string | null; hash: string | null; created: boolean}
  /** StatefulSets: the pod whose state stops this sync before the rest of its work (OrderedReady), and why. */
  blockedBy?: {pod: string; reason: BlockReason}
  /** DaemonSets: every node, whether it should run the daemon pod, and why not. */
  nodes?: DaemonNode[]
  // ---- Jobs and CronJobs ----
  /** When the controller syncs it again by itself (a backoff, the active deadline, the next schedule, a finished Job's TTL). */
  requeue?: Requeue
  /** Jobs with ttlSecondsAfterFinished, once finished: when the ttl-after-finished controller deletes them. */
  ttl?: JobTtl
  /** What the plan takes for granted that only the controller's memory knows (expectations, backoff record). */
  assumes?: string[]
  /** CronJobs: the Jobs its sync reads (its children), by name and uid. */
  jobs?: {name: string; uid: string}[]
  /** CronJobs: the schedule time this sync acts on, if one is due. */
  scheduledTime?: string
  // ---- Services ----
  /** Which pods get endpoints and why the others do not, the slices' totals, the load balancer. */
  service?: ServicePlanDetail
  // ---- HorizontalPodAutoscalers ----
  /** Each metric's proposal, the stabilization and limits, the conditions, what was assumed. */
  hpa?: HpaPlanView
}

/** Why a StatefulSet sync waits on a pod (processReplica, processCondemned, the rolling update). */
export type BlockReason = 'not-running-and-ready' | 'not-available' | 'terminating' | 'failed' | 'created' | 'stale-claim' | 'claim-deleting'

export interface PlanSummary {
  controllers: number
  inSync: number
  create: number
  delete: number
  adopt: number
  release: number
  updateStatus: number
  pending: number
  createReplicaSet: number
  scaleReplicaSet: number
  deleteReplicaSet: number
  adoptReplicaSet: number
  releaseReplicaSet: number
  updateReplicaSet: number
  rollback: number
  updatePod: number
  createClaim: number
  updateClaim: number
  chooseDaemonPods: number
  createControllerRevision: number
  updateControllerRevision: number
  deleteControllerRevision: number
  adoptControllerRevision: number
  releaseControllerRevision: number
  removeFinalizer: number
  createJob: number
  deleteJob: number
  createEndpointSlice: number
  updateEndpointSlice: number
  deleteEndpointSlice: number
  writeEndpoints: number
  deleteEndpoints: number
  addLoadBalancerFinalizer: number
  removeLoadBalancerFinalizer: number
  ensureLoadBalancer: number
  updateLoadBalancerHosts: number
  ensureLoadBalancerDeleted: number
  writeLoadBalancerStatus: number
  /** HPA writes: present only when a plan has one (older plans' summaries are unchanged). */
  scaleTarget?: number
  updateHpaStatus?: number
}

export interface ReconcilePlan {
  apiVersion: typeof PLAN_API_VERSION
  kind: 'ReconcilePlan'
  now: string
  source: PlanSource
  controllers: ControllerPlan[]
  summary: PlanSummary
  ignored: Record<string, number>
  options: PlannerOptions
}

/** Feature gates that change the RS/RC rules, with upstream 1.36 defaults (Appendix B). */
export interface FeatureGates {
  PodDeletionCost: boolean
  LogarithmicScaleDown: boolean
  DeploymentReplicaSetTerminatingReplicas: boolean
  /** StatefulSet rolling updates honour rollingUpdate.maxUnavailable (beta, off in 1.36). */
  MaxUnavailableStatefulSet: boolean
  /** Suspending a Job clears status.startTime (beta, on in 1.36). */
  MutableSchedulingDirectivesForSuspendedJobs: boolean
}

export const DEFAULT_FEATURE_GATES: Readonly<FeatureGates> = Object.freeze({
  PodDeletionCost: true,
  LogarithmicScaleDown: true,
  DeploymentReplicaSetTerminatingReplicas: true,
  MaxUnavailableStatefulSet: false,
  MutableSchedulingDirectivesForSuspendedJobs: true,
})

export interface PlannerOptions {
  /** RFC 3339, full precision: the controller's clock. */
  now: string
  featureGates: FeatureGates
  /** BurstReplicas (replica_set.go): at most this many creates or deletes per sync. */
  burstReplicas: number
  /** kube-controller-manager's --max-endpoints-per-slice (1..1000); absent: its default, 100. */
  maxEndpointsPerSlice?: number
  /**
   * The Job controller's in-memory backoff records by Job uid, when something kept them (`kctl
   * simulate` does); absent: only the failures the pods still show are known.
   */
  jobBackoff?: ReadonlyMap<string, BackoffRecord>
}

/** Ready and available pods as a controller's status reports them (a DaemonSet counts them per node). */
export function readyAndAvailable(status: ControllerPlan['status']): {ready: number; available: number} {
  if ('readyEndpoints' in status) return {ready: status.readyEndpoints, available: status.readyEndpoints}
  if ('numberReady' in status) return {ready: status.numberReady, available: status.numberAvailable}
  // A Job's pods have no minReadySeconds: ready is available.
  if ('succeeded' in status) return {ready: status.ready ?? 0, available: status.ready ?? 0}
  if (!('readyReplicas' in status)) return {ready: 0, available: 0} // a CronJob: its Jobs have the pods
  return {ready: status.readyReplicas, available: status.availableReplicas}
}

/** Whether an action creates or deletes a pod, whichever controller's (the summary counts them as one). */
export function podChange(a: Action): 'create' | 'delete' | undefined {
  if (a.type === 'create' || a.type === 'createStatefulPod' || a.type === 'createDaemonPod' || a.type === 'createJobPod') return 'create'
  if (a.type === 'delete' || a.type === 'deleteStatefulPod' || a.type === 'deleteDaemonPod' || a.type === 'deleteJobPod') return 'delete'
  return undefined
}

export type BatchAction = CreateJobPodAction | DeleteJobPodAction | RemoveFinalizerAction | UpdateJobStatusAction | CreateJobAction | DeleteJobAction | UpdateCronJobStatusAction

/** When the controller syncs the object again by itself, and why (a delay relative to now). */
export interface Requeue {
  /** RFC 3339, full precision. */
  at: string
  seconds: number
  /**
   * `sync-error`: a Service's sync that ends in an error is retried after the queue's backoff.
   * `retries-until-next-schedule`: a CronJob's sync ends in an error; the first of the queue's retries after the next schedule time.
   * `sync-period`: an HPA is synced again one --horizontal-pod-autoscaler-sync-period later.
   */
  reason: 'backoff' | 'active-deadline' | 'next-schedule' | 'backoff-per-index' | 'ttl-after-finished' | 'sync-error' | 'retries-until-next-schedule' | 'sync-period'
}

export type WorkloadAction =
  | CreateControllerRevisionAction
  | UpdateControllerRevisionAction
  | DeleteControllerRevisionAction
  | AdoptControllerRevisionAction
  | CreateStatefulPodAction
  | DeleteStatefulPodAction
  | UpdateStatefulPodAction
  | CreateClaimAction
  | UpdateClaimAction
  | CreateDaemonPodAction
  | DeleteDaemonPodAction
  | ChooseDaemonPodsAction
