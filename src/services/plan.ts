// `plan` (and `list`): read the world once, plan one sync of every controller in it.
import type {ReconcilePlan} from '../model/plan.js'
import {planSnapshot} from '../reconcile/planner.js'
import {gateWarnings, parseFeatureGates, plannerOptions, resolveNow} from './options.js'
import {readSnapshot, type SourceRequest} from './snapshot.js'

export interface PlanRequest extends SourceRequest {
  /** --now, RFC 3339; absent: the real clock, read after the objects are. */
  now?: string
  /** --feature-gates, `A=true,B=false`. */
  featureGates?: string
  /** The real clock unless a test injects one. */
  clock?: () => Date
  /** Where warnings about the request itself go (stderr in the CLI). */
  onWarning?: (message: string) => void
}

export async function computePlan(req: PlanRequest): Promise<ReconcilePlan> {
  // Bad flags fail before any file or cluster is read.
  const featureGates = parseFeatureGates(req.featureGates)
  const fixedNow = req.now === undefined ? undefined : resolveNow(req.now)
  for (const w of gateWarnings(featureGates)) req.onWarning?.(w)
  const snapshot = await readSnapshot(req)
  // Like the controller, take "now" once per sync, after the informer caches are read.
  const now = fixedNow ?? resolveNow(undefined, req.clock)
  return planSnapshot(snapshot, plannerOptions(now, featureGates))
}
