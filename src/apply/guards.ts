// Guards a person puts on an apply: how many pods it may take away in all, and whether a workload
// may lose every pod it has. Checked before anything is sent, on the dry run as on the apply.
//
// A Deployment removes pods through its ReplicaSets: scaling one down by n is n pods the
// ReplicaSet controller then deletes, so it counts n against --max-delete (and those deletes, when
// a later round of the same run sends them, are not counted again). Deleting an old ReplicaSet
// (history cleanup) removes no pod: the controller deletes only ReplicaSets already at 0.
// An HPA's scale-down of its target counts there, once: the target's own scale-downs and deletes
// that follow in later rounds draw on it.
// What each action takes away, and which deletes replace a pod, each controller's part says (guard).
import type {ActionResult} from '../model/apply.js'
import type {Action, ReconcilePlan} from '../model/plan.js'
import {CONTROLLERS, type ControllerDescriptor} from '../controllers/registry.js'

export interface GuardOptions {
  /** --max-delete: at most this many pods taken away over the whole run. */
  maxDelete?: number
  /** --allow-scale-to-zero: a plan may take every pod of a workload away. */
  allowScaleToZero?: boolean
  /** What earlier rounds of this run took away (--until-converged). */
  ledger?: RemovalLedger
}

/** Pods taken away so far in a run, and the scale-downs whose pod deletes are already counted. */
export class RemovalLedger {
  counted = 0
  /** `Kind/namespace/name` of a scaled object → replicas taken away by a scale-down whose pods are not deleted yet. */
  private readonly credit = new Map<string, number>()

  /** How many pods `plan` takes away beyond what was counted. */
  wouldRemove(plan: ReconcilePlan): number {
    let n = 0
    for (const c of plan.controllers) {
      let scaleDowns = 0
      for (const a of c.actions) {
        if (a.type === 'scaleReplicaSet' && !a.conflict && a.to < a.from) scaleDowns += a.from - a.to
        n += guardOf(c.kind)?.resizes?.(a)?.by ?? 0
      }
      // A Deployment an HPA scaled down earlier in the run: its ReplicaSets' scale-downs were counted then.
      n += Math.max(0, scaleDowns - (this.credit.get(`${c.kind}/${c.namespace}/${c.name}`) ?? 0))
      const deletes = c.actions.reduce((n, a) => n + podDeletes(c.kind, a), 0)
      n += Math.max(0, deletes - (this.credit.get(`${c.kind}/${c.namespace}/${c.name}`) ?? 0))
    }
    return n
  }

  /** Adds what a round did. */
  record(results: readonly ActionResult[]): void {
    for (const r of results) {
      if (r.outcome !== 'ok') continue
      const a = r.predicted
      const resized = a ? guardOf(r.controller.kind)?.resizes?.(a) : undefined
      if (resized) {
        // Counted now; the target's controller's scale-downs and deletes that follow draw on the credit.
        const key = `${resized.kind}/${r.controller.namespace}/${resized.name}`
        this.credit.set(key, (this.credit.get(key) ?? 0) + resized.by)
        this.counted += resized.by
      } else if (a?.type === 'scaleReplicaSet' && a.to < a.from) {
        const key = `${guardOf(r.controller.kind)?.scales}/${r.controller.namespace}/${a.replicaSet}`
        this.credit.set(key, (this.credit.get(key) ?? 0) + a.from - a.to)
        const ownerKey = `${r.controller.kind}/${r.controller.namespace}/${r.controller.name}`
        const owner = Math.min(this.credit.get(ownerKey) ?? 0, a.from - a.to)
        if (owner > 0) this.credit.set(ownerKey, (this.credit.get(ownerKey) ?? 0) - owner)
        this.counted += a.from - a.to - owner
      } else if (a && podDeletes(r.controller.kind, a) > 0 && r.done?.alreadyGone !== true) {
        const key = `${r.controller.kind}/${r.controller.namespace}/${r.controller.name}`
        const credit = this.credit.get(key) ?? 0
        if (credit > 0) this.credit.set(key, credit - 1)
        else this.counted += podDeletes(r.controller.kind, a)
      }
    }
  }
}

/** Why the plan may not be applied, one line each (empty: it may). */
export function guardViolations(plan: ReconcilePlan, opts: GuardOptions): string[] {
  const out: string[] = []
  const ledger = opts.ledger ?? new RemovalLedger()
  const removes = ledger.wouldRemove(plan)
  const before = ledger.counted
  if (opts.maxDelete !== undefined && removes + before > opts.maxDelete) {
    out.push(
      before > 0
        ? `this round deletes ${removes} pods after ${before} already deleted, more than --max-delete ${opts.maxDelete}`
        : `the plan deletes ${removes} pod${removes === 1 ? '' : 's'}, more than --max-delete ${opts.maxDelete}`,
    )
  }
  if (!opts.allowScaleToZero) {
    const kept = new Set(plan.controllers.flatMap((c) => [...(guardOf(c.kind)?.keptByRollout?.(c) ?? [])]))
    for (const c of plan.controllers) {
      const own = guardOf(c.kind)?.scaleToZero
      if (own) {
        const violation = own(c)
        if (violation !== undefined) out.push(violation)
        continue
      }
      const guard = guardOf(c.kind)
      const n = c.actions.reduce((k, a) => k + (guard?.replaces?.(a) ? 0 : podDeletes(c.kind, a)), 0)
      if (n === 0 || kept.has(`${c.namespace}/${c.name}`)) continue
      // A Job's plan counts its active pods after the sync; the others', before it.
      const active = guardOf(c.kind)?.activeAfterSync ? c.active + n : c.active
      if (n >= active || c.desired === 0) {
        out.push(`${c.kind} ${c.namespace}/${c.name}: the plan deletes ${n === active ? `all ${n}` : `${n} of its ${active}`} active pods (desired ${c.desired}); pass --allow-scale-to-zero to allow it`)
      }
    }
  }
  return out
}

/** The guard part of the controller of `kind`. */
function guardOf(kind: string): NonNullable<ControllerDescriptor['apply']>['guard'] {
  return CONTROLLERS.find((c) => (c.kinds as readonly string[]).includes(kind))?.apply?.guard
}

/** Pods an action of a controller of `kind` deletes (its part's podDeletes). */
function podDeletes(kind: string, a: Action): number {
  return guardOf(kind)?.podDeletes?.(a) ?? 0
}
