// What `kctl reconcile` did with a plan: one result per planned action (none goes missing), per
// controller totals, and the run's outcome. Its JSON form is the wire contract `kctl/v1alpha1`
// ApplyReport (render/apply-wire.ts).
import type {CronJobStatusView} from '../controllers/cronjob/model.js'
import type {HpaStatus} from '../controllers/hpa/model.js'
import type {JobStatusView} from '../controllers/job/model.js'
import type {DeploymentStatusView, PlanSource} from './objects.js'
import type {LoadBalancerIngress} from '../controllers/service/model.js'
import type {Action, ActionType, ControllerKind, PlanSummary, ReconcilePlan, StatusView} from './plan.js'

export const APPLY_REPORT_KIND = 'ApplyReport'

/** `dry-run`: every write sent with `dryRun=All` (nothing persists); `apply`: for real. */
export type ApplyMode = 'dry-run' | 'apply'

/** ok: the call succeeded (or, dry run, would have); failed: the server (or a local check) said no; skipped: never sent. */
export type ActionOutcome = 'ok' | 'failed' | 'skipped'

/** An API server's answer to a failed call (its Status), or a local failure without a code. */
export interface ActionError {
  /** HTTP status code: 403, 409, 422 …; absent when no answer came (unreachable, timeout). */
  code?: number
  /** Status reason: Forbidden, Conflict, Invalid, NotFound, AlreadyExists … */
  reason?: string
  message: string
  /** The types of the Status's details.causes (`reason` in JSON, e.g. NamespaceTerminating). */
  causes?: string[]
}

export interface ControllerId {
  kind: ControllerKind
  apiVersion: string
  namespace: string
  name: string
  uid: string
}

export interface ActionResult {
  /** 1 for the first sync; later ones with --until-converged. */
  round: number
  controller: ControllerId
  action: ActionType
  /** The planned action; absent for a status write the plan did not predict (a create or delete failed). */
  predicted?: Action
  /** The pod acted on: the planned one (delete, adopt, release) or the name the server gave (create). */
  pod?: string
  /** A Deployment's write: the ReplicaSet acted on (created, scaled, updated, deleted, adopted, released). */
  replicaSet?: string
  outcome: ActionOutcome
  error?: ActionError
  /** Why a skipped action was not sent. */
  skipReason?: string
  /** True when the call failed because the object changed since planning (a precondition). */
  conflict?: boolean
  /** Creates: the 1-based slow-start batch the call belonged to. */
  batch?: number
  /** What was done, when there is more to say than the outcome. */
  done?: {
    /** Create: the pod's name and uid as the server returned them (a dry run's name is not reserved). */
    name?: string
    uid?: string
    /** Delete or release of a pod that no longer existed (404): nothing left to do, as upstream treats it. */
    alreadyGone?: boolean
    /** Create refused because the namespace is being deleted: nothing created, and upstream counts it as done. */
    namespaceTerminating?: boolean
    /** createReplicaSet: the name was taken (409 AlreadyExists), which the plan predicted (a collision, or the ReplicaSet exists already). */
    alreadyExists?: boolean
    /** updateStatus: the status sent (with a ReplicaFailure condition when a create or delete failed); updateHpaStatus: the HPA's status sent. */
    status?: StatusView | DeploymentStatusView | JobStatusView | CronJobStatusView | HpaStatus
    /** scaleTarget: the spec.replicas written to the target's scale. */
    replicas?: number
    resourceVersion?: string
    /** chooseDaemonPods: the candidates reconcile picked (the first `count` in the plan's order; the controller picks at random). */
    chosen?: string[]
    /** chooseDaemonPods that creates: the names the server gave the pods. */
    names?: string[]
    /** ensureLoadBalancer: the status the cloud provider returned. */
    loadBalancer?: {ingress: LoadBalancerIngress[]}
    /** A provider call answered ImplementedElsewhere: another component owns the load balancer, nothing more is written. */
    implementedElsewhere?: boolean
    /** ensureLoadBalancerDeleted: whether GetLoadBalancer said it existed (EnsureLoadBalancerDeleted is called only then). */
    existed?: boolean
    /** writeLoadBalancerStatus: the provider's status was already the Service's, so nothing was written. */
    unchanged?: boolean
  }
}

/** One controller's sync in one round. */
export interface ControllerOutcome {
  round: number
  controller: ControllerId
  actions: number
  ok: number
  failed: number
  skipped: number
  /** Slow-start batch sizes actually sent (creates only). */
  batches?: number[]
  /** Why the sync stopped before its end (a failed claim, a changed controller, an interruption). */
  stopped?: string
  /** A failure that concerns the controller as a whole (reading it, or finding it changed). */
  error?: ActionError
  /** The plan's warnings for it (overlaps, pods it cannot see, a release another controller may adopt). */
  warnings?: string[]
}

export interface ActionTally {
  planned: number
  ok: number
  failed: number
  skipped: number
}

export interface ApplySummary {
  actions: number
  ok: number
  failed: number
  skipped: number
  byAction: Record<ActionType, ActionTally>
  rounds: number
}

export interface RoundReport {
  round: number
  /** The plan's clock. */
  now: string
  summary: PlanSummary
  /** Every controller in sync when the round was planned (nothing done in it). */
  inSync: boolean
  /** Against a cluster: wall-clock time of the round's calls (from the first call to the last answer). */
  durationMs?: number
  /** The round's plan itself (renderers word the predicted actions from it; the wire form keeps the summary). */
  plan?: ReconcilePlan
}

export type ApplyOutcomeKind =
  /** Every action of every round succeeded (or nothing was to be done). */
  | 'succeeded'
  /** At least one action failed. */
  | 'failed'
  /** Nothing was done: a stale saved plan, a guard, or the user declined. */
  | 'refused'
  /** SIGINT: calls in flight finished, nothing new was started. */
  | 'interrupted'
  /** --until-converged hit --timeout with work left. */
  | 'not-converged'

export interface Refusal {
  reason: 'stale' | 'guard' | 'declined' | 'conflict'
  message: string
  details: string[]
}

export interface ApplyReport {
  apiVersion: 'kctl/v1alpha1'
  kind: typeof APPLY_REPORT_KIND
  mode: ApplyMode
  source: PlanSource
  plan: {
    /** `computed` by this run, or `saved` (--plan FILE). */
    origin: 'computed' | 'saved'
    file?: string
    /** A stale saved plan was replaced by a fresh one (--replan). */
    replanned?: boolean
    now: string
    summary: PlanSummary
  }
  rounds: RoundReport[]
  results: ActionResult[]
  controllers: ControllerOutcome[]
  summary: ApplySummary
  outcome: ApplyOutcomeKind
  /** --until-converged: whether the last plan was empty. */
  converged?: boolean
  /** Some controller is not in sync in the (last) plan: what --detailed-exitcode reports. */
  changesPending: boolean
  refusal?: Refusal
  /** --out: where the resulting world was written. */
  out?: string
  notes: string[]
}

/** Progress of one controller's sync, for the live display. */
export interface ProgressEvent {
  round: number
  controller: ControllerId
  done: number
  total: number
  failed: number
  finished: boolean
}
