// The plan value: one type flows from the planner to every renderer and to the executor.
// Its JSON form is the wire contract `kctl/v1alpha1` ReconcilePlan (shared output contract).
import type {Labels, OwnerReference, PlanSource, ReplicaSetStatusView, WorkloadKind} from './objects.js'

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
  /** Pods among which upstream's order does not decide (this one included), or absent. */
  tie?: string[]
}

export interface AdoptAction {
  type: 'adopt'
  pod: string
  uid: string
  resourceVersion: string
}

export interface ReleaseAction {
  type: 'release'
  pod: string
  uid: string
  resourceVersion: string
}

/** A ReplicaSet status as the controller computes and writes it. */
export type StatusView = ReplicaSetStatusView

export interface UpdateStatusAction {
  type: 'updateStatus'
  from: StatusView
  to: StatusView
}

export type Action = CreateAction | DeleteAction | AdoptAction | ReleaseAction | UpdateStatusAction
export type ActionType = Action['type']

export interface ControllerPlan {
  kind: WorkloadKind
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
  status: StatusView
  warnings: string[]
  /** True when this sync would neither create, delete, adopt, release nor write status. */
  inSync: boolean
  /** The apply set (a kustomize root) it was read in, when the input held several (fixtures only). */
  applySet?: string
}

export interface PlanSummary {
  controllers: number
  inSync: number
  create: number
  delete: number
  adopt: number
  release: number
  updateStatus: number
  pending: number
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
}

export const DEFAULT_FEATURE_GATES: Readonly<FeatureGates> = Object.freeze({
  PodDeletionCost: true,
  LogarithmicScaleDown: true,
  DeploymentReplicaSetTerminatingReplicas: true,
})

export interface PlannerOptions {
  /** RFC 3339, full precision: the controller's clock. */
  now: string
  featureGates: FeatureGates
  /** BurstReplicas (replica_set.go): at most this many creates or deletes per sync. */
  burstReplicas: number
}
