// Guards a person puts on an apply: how many pods it may delete in all, and whether a controller
// may lose every pod it has. Checked before anything is sent, on the dry run as on the apply.
import type {ReconcilePlan} from '../model/plan.js'

export interface GuardOptions {
  /** --max-delete: at most this many deletes over the whole run. */
  maxDelete?: number
  /** --allow-scale-to-zero: a plan may delete every pod of a controller. */
  allowScaleToZero?: boolean
  /** Deletes already done by earlier rounds of this run (--until-converged). */
  deletedBefore?: number
}

/** Why the plan may not be applied, one line each (empty: it may). */
export function guardViolations(plan: ReconcilePlan, opts: GuardOptions): string[] {
  const out: string[] = []
  const deletes = plan.controllers.reduce((n, c) => n + c.actions.filter((a) => a.type === 'delete').length, 0)
  const before = opts.deletedBefore ?? 0
  if (opts.maxDelete !== undefined && deletes + before > opts.maxDelete) {
    out.push(
      before > 0
        ? `this round deletes ${deletes} pods after ${before} already deleted, more than --max-delete ${opts.maxDelete}`
        : `the plan deletes ${deletes} pod${deletes === 1 ? '' : 's'}, more than --max-delete ${opts.maxDelete}`,
    )
  }
  if (!opts.allowScaleToZero) {
    for (const c of plan.controllers) {
      const n = c.actions.filter((a) => a.type === 'delete').length
      if (n === 0) continue
      if (n >= c.active || c.desired === 0) {
        out.push(`${c.kind} ${c.namespace}/${c.name}: the plan deletes ${n === c.active ? `all ${n}` : `${n} of its ${c.active}`} active pods (desired ${c.desired}); pass --allow-scale-to-zero to allow it`)
      }
    }
  }
  return out
}
