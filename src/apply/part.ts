// What a controller provides to the apply layer (`kctl reconcile`, and the in-memory world `simulate`
// runs on): how one sync of it is carried out, when in a round, what its writes overtake, what the
// guards count, how its saved actions are checked, and its status writes as --out settles them.
// src/controllers/descriptor.ts joins this part into the descriptor; the apply layer never names a
// controller kind: it asks the descriptor of the plan's kind.
import type {ActionResult} from '../model/apply.js'
import type {Snapshot} from '../model/objects.js'
import type {Action, ControllerKind, ControllerPlan} from '../model/plan.js'
import type {ExecuteOptions, Run, SyncBase} from './sync.js'
import type {Fail} from './saved-actions.js'

/** How a controller's plans are carried out. */
export interface ControllerApply {
  /** Where the API server serves each of its kinds: the group-version path (`/apis/apps/v1`) and the resource as its errors name it (`replicasets.apps`). */
  resources: Partial<Record<ControllerKind, {apiPath: string; resource: string}>>
  /**
   * The executor's order: every controller of a lower phase is synced (concurrently) before any of
   * a higher one (default 2: the deployment controller's syncs go first, then the CronJob
   * controller's, then the others').
   */
  phase?: number
  /**
   * The objects this controller's writes of a round wrote over or removed, as `Kind/namespace/name`:
   * their own plans describe them before that write, so they are not carried out in that round
   * (the next round plans them again).
   */
  overtakes?(results: readonly ActionResult[]): Iterable<string>
  /** One sync of `cp`; `overtaken(kind, namespace, name)` says whether an earlier phase's writes overtook that object. */
  sync(run: Run, cp: ControllerPlan, opts: ExecuteOptions, overtaken: (kind: string, namespace: string, name: string) => boolean): SyncBase
  /** One planned action of a saved plan (`reconcile --plan`), checked: what the executor sends is required. */
  parseAction(a: unknown, at: string, fail: Fail): Action
  /** The guards (apply/guards.ts). */
  guard?: {
    /** Pods one of its actions takes away (its pod deletes, or the deletes a choice picks); absent: none. */
    podDeletes?(a: Action): number
    /** A delete that replaces the pod (a rolling update, a failed pod) or ends a finished one's: not a workload losing it. */
    replaces?(a: Action): boolean
    /** The kind of the objects its scale-downs resize: their controller deletes the pods, which are counted once, at the scale-down. */
    scales?: ControllerKind
    /**
     * A scale-down it writes to another controller's object (the HPA's write to its target's scale):
     * that object and how many replicas it loses. Its controller then takes the pods away; they are
     * counted once, at this write.
     */
    resizes?(a: Action): {kind: ControllerKind; name: string; by: number} | undefined
    /** Its own scale-to-zero check, instead of the pod-count one: the violation, or undefined. */
    scaleToZero?(cp: ControllerPlan): string | undefined
    /** Objects its rollout empties while others of it still want pods (`namespace/name`): emptying one is not a workload losing all its pods. */
    keptByRollout?(cp: ControllerPlan): Iterable<string>
    /** Its plan counts its active pods after the sync (the others', before it). */
    activeAfterSync?: true
  }
  /**
   * A planned write of a fresh plan of the same world must be the same (its writes follow objects
   * that carry no precondition, as a Service's follow its pods and nodes); otherwise only the
   * `active` counts are compared.
   */
  replannedWritesMustMatch?: true
  /** Its status write also writes the object's annotations (the in-memory world keeps them). */
  statusWritesAnnotations?: true
  /**
   * The objects it owns now that its plan lists, as `Kind/namespace/name` (a Deployment's
   * ReplicaSets, created by an earlier round): a saved plan's scope takes them in.
   */
  owned?(cp: ControllerPlan): Iterable<string>
  /** Carried out against a cluster only: on fixtures it is planned (kctl plan -f), not carried out. */
  clusterOnly?: true
  /** Its writes that go through a cloud provider: without one they are never sent. */
  needsCloud?(a: Action): boolean
  /** In sync, what is left of its plan sends nothing (a fresh controller's re-ensure of what is as wanted). */
  idleInSync?: true
  /** What its plan says before anything is sent, given whether a cloud provider was given. */
  planWarnings?(cp: ControllerPlan, cloud: boolean): string[]
  /** The report's notes its results call for (`results`: those of its kinds; `fixtures`: the in-memory world's snapshot, on fixtures). */
  notes?(results: readonly ActionResult[], fixtures: Snapshot | undefined): string[]
  /**
   * --out on fixtures: the object the controller's next status write PUTs once it has seen this
   * sync's writes (`write`: the planned updateStatus, `raw`: the object as read). Absent: its own
   * sync already counts its writes in its status.
   */
  settledStatus?: {
    /** Written after the other controllers' (it counts their statuses). */
    last?: true
    object(write: Action, raw: Record<string, unknown>): Record<string, unknown>
  }
}

export interface ApplyPart {
  apply: ControllerApply
}
