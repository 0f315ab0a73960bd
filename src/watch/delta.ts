// The difference between two plans of one controller, and between two sets of plans: what watch
// mode reports. Plans are compared as values (the model, not the worded wire form, whose ages
// move with the clock).
import {readyAndAvailable, type ControllerPlan} from '../model/plan.js'
import type {ChangedField} from '../model/watch.js'
import {deepEqual} from '../reconcile/deep-equal.js'
import {controllerKey} from '../reconcile/incremental.js'

export {deepEqual}

/** Whether the controller's plan is different (appeared, went, or changed in any way). */
export function planChanged(previous: ControllerPlan | undefined, next: ControllerPlan | undefined): boolean {
  if (previous === undefined || next === undefined) return previous !== next
  return !deepEqual(previous, next)
}

/** Which parts of a controller's row changed; everything for one that appeared or went. */
export function changedFields(previous: ControllerPlan | undefined, next: ControllerPlan | undefined): ChangedField[] {
  if (!previous || !next) return ['desired', 'active', 'ready', 'diff', 'actions', 'pending', 'status', 'warnings']
  const out: ChangedField[] = []
  if (previous.desired !== next.desired) out.push('desired')
  if (previous.active !== next.active) out.push('active')
  if (readyAndAvailable(previous.status).ready !== readyAndAvailable(next.status).ready) out.push('ready')
  if (previous.diff !== next.diff) out.push('diff')
  if (!deepEqual(previous.actions, next.actions)) out.push('actions')
  if (previous.pending !== next.pending) out.push('pending')
  if (!deepEqual(previous.status, next.status)) out.push('status')
  if (!deepEqual(previous.warnings, next.warnings)) out.push('warnings')
  if (out.length === 0 && planChanged(previous, next)) out.push('other')
  return out
}

export interface PlanDelta {
  key: string
  previous?: ControllerPlan
  next?: ControllerPlan
  changed: ChangedField[]
}

/** The controllers whose plan differs between two complete sets of plans, in `next`'s order (then the removed). */
export function planDelta(previous: ReadonlyMap<string, ControllerPlan>, next: readonly ControllerPlan[]): PlanDelta[] {
  const out: PlanDelta[] = []
  const seen = new Set<string>()
  for (const plan of next) {
    const key = controllerKey(plan)
    seen.add(key)
    const before = previous.get(key)
    if (planChanged(before, plan)) out.push({key, previous: before, next: plan, changed: changedFields(before, plan)})
  }
  for (const [key, before] of previous) if (!seen.has(key)) out.push({key, previous: before, next: undefined, changed: changedFields(before, undefined)})
  return out
}
