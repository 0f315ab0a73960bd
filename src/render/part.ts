// What a controller gives the renderers: its block of `kctl plan`'s table, its lines of
// `kctl reconcile`'s report, its columns of `kctl list`, and its kinds' short names in `kctl watch`.
// The renderers (plan-table.ts, apply-table.ts, list-table.ts, list-wire.ts, watch-table.ts) look
// the part up in the registry by a plan's kind (dispatch.ts); src/controllers/<name>/render.ts fills it in.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../model/apply.js'
import type {ControllerKind, ControllerPlan, ReconcilePlan} from '../model/plan.js'
import type {ControllerListItem} from './wire.js'

/** What a plan-table block is drawn with besides the plan itself. */
export interface PlanBlockContext {
  /** The whole plan (its clock and options: ages, the burst limit). */
  plan: ReconcilePlan
  c: ChalkInstance
  /** Other controllers' plans shown under this one instead of on their own (see `showsUnder`), in order. */
  under: readonly ControllerPlan[]
}

/** What a reconcile-report line is drawn with. */
export interface ApplyLineContext {
  c: ChalkInstance
  /** The words for a result's outcome (ok, FAILED: why, not sent), coloured. */
  outcome(r: ActionResult): string
  /** Every result of this controller in this round (for column widths). */
  results: readonly ActionResult[]
}

/** How a controller's plans are drawn in the tables of plan, list, reconcile and watch. */
export interface ControllerRender {
  /** Its block of `kctl plan`'s table for one plan of its kinds. */
  planBlock(cp: ControllerPlan, ctx: PlanBlockContext): string
  /**
   * The plans of another controller it shows under its own (a Deployment's ReplicaSets, a
   * CronJob's Jobs): their kind, and the uids this plan names, in order.
   */
  showsUnder?: {kind: ControllerKind; uids(cp: ControllerPlan): readonly string[]}
  /**
   * Its lines of `kctl reconcile`'s report for one result (every result but a pod's delete,
   * adoption or release, which are worded alike for all); undefined leaves the result to the
   * shared lines (a status write's field changes).
   */
  applyLines?(r: ActionResult, ctx: ApplyLineContext): string[] | undefined
  /**
   * `kctl list`: the UPDATED and ROLLOUT columns apply (a rollout to a template); otherwise the
   * controller has no updated count.
   */
  listRollout?: true
  /** `kctl list -o json|yaml`: fields of its own in each item (a Service's endpoints and load balancer). */
  listFields?(cp: ControllerPlan): Partial<ControllerListItem>
  /** `kctl list`: its own table, printed after the shared one, instead of rows in it. */
  listTable?(plans: readonly ControllerPlan[]): string
  /** `kctl watch`: kubectl's short names of its kinds, where the table uses them. */
  shortNames?: Readonly<Partial<Record<ControllerKind, string>>>
}

export interface RenderPart {
  render: ControllerRender
}
