// `plan` (and `list`): read the world once, plan one sync of every controller in it.
import {checkCloudFlags, type CloudRequest, cloudOf, wantsCloud, withLoadBalancers} from '../cloud/index.js'
import type {Cloud} from '../cloud/provider.js'
import type {UserError} from '../errors.js'
import type {ReadError, ReconcilePlan} from '../model/plan.js'
import type {LeftOut} from '../sources/fixtures.js'
import {byKindNamespaceName, planSnapshot, summarize} from '../reconcile/planner.js'
import {gateWarnings, parseFeatureGates, plannerOptions, resolveNow} from './options.js'
import {clusterRequest, fromFixtures, readSnapshots, type SourceRequest} from './snapshot.js'

export interface PlanRequest extends SourceRequest, CloudRequest {
  /** --now, RFC 3339; absent: the real clock, read after the objects are. */
  now?: string
  /** --feature-gates, `A=true,B=false`. */
  featureGates?: string
  /** --max-endpoints-per-slice, as kube-controller-manager takes it. */
  maxEndpointsPerSlice?: number
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
  checkCloudFlags(req, fromFixtures(req))
  const cloud = await requestCloud(req)
  // Fixtures: an input that cannot be read is reported, and everything else is still planned.
  const errors: UserError[] = []
  let leftOut: LeftOut | undefined
  const read = await readSnapshots({...req, onNote: req.onNote ?? req.onWarning, onUnreadable: (e) => errors.push(e), onLeftOut: (l) => (leftOut = l)})
  const sets = await Promise.all(read.map(async (s) => ({...s, snapshot: await withLoadBalancers(s.snapshot, cloud)})))
  // Like the controller, take "now" once per sync, after the informer caches are read.
  const now = fixedNow ?? resolveNow(undefined, req.clock)
  const options = plannerOptions(now, featureGates, req.maxEndpointsPerSlice)
  const plan = sets.length === 1 ? planSnapshot(sets[0].snapshot, options) : mergeApplySets(sets.map(({applySet, snapshot}) => ({applySet, plan: planSnapshot(snapshot, options)})))
  const found = leftOut as LeftOut | undefined
  if (found && found.count > 0) plan.ignoredByFilter = {controllers: found.count, namespaces: found.namespaces}
  if (errors.length > 0) plan.errors = errors.map(readError)
  return plan
}

/** An unreadable input as the plan document lists it. */
export function readError(e: UserError): ReadError {
  const o = e.origin
  return {file: o?.file ?? '', line: o?.line ?? 0, column: o?.column ?? 0, message: `${e.message}${e.hint ? ` (${e.hint})` : ''}`}
}

/**
 * Apply sets are planned apart (what is never applied together never meets) and reported in one
 * plan, each controller tagged with its set.
 */
function mergeApplySets(parts: Array<{applySet: string; plan: ReconcilePlan}>): ReconcilePlan {
  const controllers = parts
    .flatMap(({applySet, plan}) => plan.controllers.map((c) => ({...c, applySet})))
    .sort((a, b) => byKindNamespaceName(a, b) || (a.applySet < b.applySet ? -1 : a.applySet > b.applySet ? 1 : 0))
  const ignored: Record<string, number> = {}
  for (const {plan} of parts) for (const [k, n] of Object.entries(plan.ignored)) ignored[k] = (ignored[k] ?? 0) + n
  return {...parts[0].plan, controllers, summary: summarize(controllers), ignored}
}

/** The cloud provider the request names (the local one talks to the cluster), or undefined. */
export async function requestCloud(req: PlanRequest): Promise<Cloud | undefined> {
  if (!wantsCloud(req)) return undefined
  if (fromFixtures(req) || req.lbPool === undefined) return cloudOf(req, undefined)
  const {connect} = await import('../sources/cluster.js')
  return cloudOf(req, await connect(clusterRequest(req)))
}
