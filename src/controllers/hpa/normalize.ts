// From the largest proposal to the replica count the controller writes (H3–H6): the stabilization
// windows over the recommendation history, the rate limits over the scale events, min/max, and the
// history updates that go with them (horizontal.go). Pure: the history comes in and a new one goes out.
import {seconds} from '../../reconcile/time.js'
import type {Behavior, LimitReason, MetricProposal, ScalingRules, TimestampedRecommendation, TimestampedScaleEvent} from './model.js'

/** The condition one step sets (setCondition): type, status, reason, message. */
export interface ConditionUpdate {
  type: string
  status: string
  reason: string
  message: string
}

/** scaleUpLimitFactor and scaleUpLimitMinimum (package constants, not flags). */
export const SCALE_UP_LIMIT_FACTOR = 2.0
export const SCALE_UP_LIMIT_MINIMUM = 4.0

const LIMIT_MESSAGES: Record<LimitReason, string> = {
  DesiredWithinRange: 'the desired count is within the acceptable range',
  ScaleUpLimit: 'the desired replica count is increasing faster than the maximum scale rate',
  TooManyReplicas: 'the desired replica count is more than the maximum replica count',
  TooFewReplicas: 'the desired replica count is less than the minimum replica count',
  ScaleDownLimit: 'the desired replica count is decreasing faster than the maximum scale rate',
}

export const STABILIZED_DOWN_MESSAGE = 'recent recommendations were higher than current one, applying the highest recent recommendation'
export const STABILIZED_UP_MESSAGE = 'recent recommendations were lower than current one, applying the lowest recent recommendation'
export const READY_FOR_NEW_SCALE_MESSAGE = 'recommended size matches current size'

// ---- H3: several metrics ----

export interface CombinedProposals {
  /** The largest proposal (0 when none succeeded), the name of the metric that made it. */
  best: number
  metric: string
  invalid: number
  /** The first failure, when any. */
  firstError?: MetricProposal['error']
  /** Abort: every metric failed, or some failed and the rest would scale down. */
  abort: boolean
  /** `invalid metrics (K invalid out of N), first error is: <wrapped>`, when any failed. */
  error?: string
}

/** computeReplicasForMetrics: the running best replaced when it is 0 or strictly exceeded. */
export function combineProposals(proposals: readonly MetricProposal[], specReplicas: number): CombinedProposals {
  let best = 0
  let metric = ''
  let invalid = 0
  let firstError: MetricProposal['error']
  for (const p of proposals) {
    if (p.error || p.replicas === undefined) {
      if (invalid === 0) firstError = p.error
      invalid++
      continue
    }
    if (best === 0 || p.replicas > best) {
      best = p.replicas
      metric = p.name
    }
  }
  const error = firstError ? `invalid metrics (${invalid} invalid out of ${proposals.length}), first error is: ${firstError.wrapped}` : undefined
  const abort = invalid >= proposals.length || (invalid > 0 && best < specReplicas)
  return {best, metric, invalid, firstError, abort, error}
}

/** The rescale reason (events only), from the best proposal before normalization (reconcileAutoscaler). */
export function rescaleReason(best: number, metric: string, specReplicas: number): string {
  // The metric name is kept only when its proposal raised the desired count above 0.
  const named = best > 0 ? metric : ''
  if (best > specReplicas) return `${named} above target`
  if (best < specReplicas) return 'All metrics below target'
  return ''
}

// ---- H4: no behavior ----

export interface Normalized {
  stabilized: number
  desired: number
  limit: LimitReason
  /** AbleToScale (stabilization) then ScalingLimited, in the order they are set. */
  conditions: ConditionUpdate[]
  recommendations: TimestampedRecommendation[]
}

/** stabilizeRecommendation: the highest recommendation not older than the window; the last stale entry is reused. */
export function stabilizeLegacy(history: readonly TimestampedRecommendation[], best: number, now: bigint, windowSeconds: number) {
  const cutoff = now - seconds(windowSeconds)
  let stabilized = best
  let oldIndex = -1
  history.forEach((rec, i) => {
    if (rec.at < cutoff) oldIndex = i
    else if (rec.replicas > stabilized) stabilized = rec.replicas
  })
  const recommendations = [...history]
  if (oldIndex >= 0) recommendations[oldIndex] = {replicas: best, at: now}
  else recommendations.push({replicas: best, at: now})
  return {stabilized, recommendations}
}

/** calculateScaleUpLimit: int32(max(2·current, 4)). */
export function legacyScaleUpLimit(current: number): number {
  return Math.trunc(Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM))
}

/** convertDesiredReplicasWithRules. */
export function convertWithRules(current: number, desired: number, min: number, max: number): {desired: number; limit: LimitReason} {
  const upLimit = legacyScaleUpLimit(current)
  const [cap, capReason]: [number, LimitReason] = max > upLimit ? [upLimit, 'ScaleUpLimit'] : [max, 'TooManyReplicas']
  if (desired < min) return {desired: min, limit: 'TooFewReplicas'}
  if (desired > cap) return {desired: cap, limit: capReason}
  return {desired, limit: 'DesiredWithinRange'}
}

function limitedCondition(desired: number, stabilized: number, limit: LimitReason): ConditionUpdate {
  return {type: 'ScalingLimited', status: desired === stabilized ? 'False' : 'True', reason: limit, message: LIMIT_MESSAGES[limit]}
}

/** normalizeDesiredReplicas: the downscale window of the flag, then the legacy limits. */
export function normalizeLegacy(args: {history: readonly TimestampedRecommendation[]; best: number; current: number; min: number; max: number; now: bigint; windowSeconds: number}): Normalized {
  const {stabilized, recommendations} = stabilizeLegacy(args.history, args.best, args.now, args.windowSeconds)
  const conditions: ConditionUpdate[] = [
    stabilized !== args.best
      ? {type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: STABILIZED_DOWN_MESSAGE}
      : {type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: READY_FOR_NEW_SCALE_MESSAGE},
  ]
  const {desired, limit} = convertWithRules(args.current, stabilized, args.min, args.max)
  conditions.push(limitedCondition(desired, stabilized, limit))
  return {stabilized, desired, limit, conditions, recommendations}
}

// ---- H5: behavior ----

/** maybeInitScaleDownStabilizationWindow: a nil scaleDown window is the flag, in whole seconds. */
export function scaleDownWindow(behavior: Behavior, flagSeconds: number): number {
  return behavior.scaleDown.stabilizationWindowSeconds ?? Math.trunc(flagSeconds)
}

/**
 * stabilizeRecommendationWithBehaviors: the current count raised to the lowest recommendation of
 * the up window and lowered to the highest of the down window (both strictly newer than their
 * cutoff); the last entry strictly older than both cutoffs is reused.
 */
export function stabilizeWithBehavior(history: readonly TimestampedRecommendation[], best: number, current: number, now: bigint, upWindowSeconds: number, downWindowSeconds: number) {
  const upCutoff = now - seconds(upWindowSeconds)
  const downCutoff = now - seconds(downWindowSeconds)
  let upFloor = best
  let downCeil = best
  let oldIndex = -1
  history.forEach((rec, i) => {
    if (rec.at > upCutoff) upFloor = Math.min(rec.replicas, upFloor)
    if (rec.at > downCutoff) downCeil = Math.max(rec.replicas, downCeil)
    if (rec.at < upCutoff && rec.at < downCutoff) oldIndex = i
  })
  let stabilized = current
  if (stabilized < upFloor) stabilized = upFloor
  if (stabilized > downCeil) stabilized = downCeil
  const recommendations = [...history]
  if (oldIndex >= 0) recommendations[oldIndex] = {replicas: best, at: now}
  else recommendations.push({replicas: best, at: now})
  const reason = best >= current ? 'ScaleUpStabilized' : 'ScaleDownStabilized'
  return {stabilized, upFloor, downCeil, recommendations, reason}
}

/** getReplicasChangePerPeriod: the changes of events strictly newer than now − period. */
export function changeInPeriod(periodSeconds: number, events: readonly TimestampedScaleEvent[], now: bigint): number {
  const cutoff = now - seconds(periodSeconds)
  let sum = 0
  for (const e of events) if (e.at > cutoff) sum += e.change
  return sum
}

export interface ScaleEvents {
  up: readonly TimestampedScaleEvent[]
  down: readonly TimestampedScaleEvent[]
}

const periodStart = (current: number, periodSeconds: number, events: ScaleEvents, now: bigint) =>
  current - changeInPeriod(periodSeconds, events.up, now) + changeInPeriod(periodSeconds, events.down, now)

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

/** calculateScaleUpLimitWithScalingRules. */
export function scaleUpLimit(current: number, events: ScaleEvents, rules: ScalingRules, now: bigint): number {
  if (rules.selectPolicy === 'Disabled') return current
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max
  let result = rules.selectPolicy === 'Min' ? INT32_MAX : INT32_MIN
  for (const policy of rules.policies) {
    const base = periodStart(current, policy.periodSeconds, events, now)
    let proposed = 0
    if (policy.type === 'Pods') proposed = base + policy.value
    else if (policy.type === 'Percent') proposed = Math.ceil(base * (1 + policy.value / 100))
    result = pick(result, proposed)
  }
  return result
}

/** calculateScaleDownLimitWithBehaviors: Max picks the smallest (the biggest change), Min the largest. */
export function scaleDownLimit(current: number, events: ScaleEvents, rules: ScalingRules, now: bigint): number {
  if (rules.selectPolicy === 'Disabled') return current
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min
  let result = rules.selectPolicy === 'Min' ? INT32_MIN : INT32_MAX
  for (const policy of rules.policies) {
    const base = periodStart(current, policy.periodSeconds, events, now)
    let proposed = 0
    if (policy.type === 'Pods') proposed = base - policy.value
    else if (policy.type === 'Percent') proposed = Math.trunc(base * (1 - policy.value / 100))
    result = pick(result, proposed)
  }
  return result
}

/** convertDesiredReplicasWithBehaviorRate: the rate limits, with max on the way up and min on the way down only. */
export function convertWithBehaviorRate(args: {current: number; stabilized: number; min: number; max: number; behavior: Behavior; events: ScaleEvents; now: bigint}): {
  desired: number
  limit: LimitReason
  rateLimit?: number
} {
  const {current, stabilized, min, max, behavior, events, now} = args
  if (stabilized > current) {
    const lim = Math.max(scaleUpLimit(current, events, behavior.scaleUp, now), current)
    const [cap, reason]: [number, LimitReason] = max > lim ? [lim, 'ScaleUpLimit'] : [max, 'TooManyReplicas']
    if (stabilized > cap) return {desired: cap, limit: reason, rateLimit: lim}
    return {desired: stabilized, limit: 'DesiredWithinRange', rateLimit: lim}
  }
  if (stabilized < current) {
    const lim = Math.min(scaleDownLimit(current, events, behavior.scaleDown, now), current)
    const [floor, reason]: [number, LimitReason] = min < lim ? [lim, 'ScaleDownLimit'] : [min, 'TooFewReplicas']
    if (stabilized < floor) return {desired: floor, limit: reason, rateLimit: lim}
    return {desired: stabilized, limit: 'DesiredWithinRange', rateLimit: lim}
  }
  return {desired: stabilized, limit: 'DesiredWithinRange'}
}

/** normalizeDesiredReplicasWithBehaviors. */
export function normalizeWithBehavior(args: {
  history: readonly TimestampedRecommendation[]
  events: ScaleEvents
  behavior: Behavior
  best: number
  current: number
  min: number
  max: number
  now: bigint
  flagDownWindowSeconds: number
}): Normalized & {rateLimit?: number} {
  const upWindow = args.behavior.scaleUp.stabilizationWindowSeconds ?? 0
  const downWindow = scaleDownWindow(args.behavior, args.flagDownWindowSeconds)
  const s = stabilizeWithBehavior(args.history, args.best, args.current, args.now, upWindow, downWindow)
  const conditions: ConditionUpdate[] = [
    s.stabilized !== args.best
      ? {type: 'AbleToScale', status: 'True', reason: s.reason, message: s.reason === 'ScaleUpStabilized' ? STABILIZED_UP_MESSAGE : STABILIZED_DOWN_MESSAGE}
      : {type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: READY_FOR_NEW_SCALE_MESSAGE},
  ]
  const r = convertWithBehaviorRate({current: args.current, stabilized: s.stabilized, min: args.min, max: args.max, behavior: args.behavior, events: args.events, now: args.now})
  conditions.push(limitedCondition(r.desired, s.stabilized, r.limit))
  return {stabilized: s.stabilized, desired: r.desired, limit: r.limit, conditions, recommendations: s.recommendations, rateLimit: r.rateLimit}
}

// ---- H5.8: the scale events kept after a write ----

/** getLongestPolicyPeriod. */
export function longestPolicyPeriod(rules: ScalingRules): number {
  let longest = 0
  for (const p of rules.policies) if (p.periodSeconds > longest) longest = p.periodSeconds
  return longest
}

/**
 * storeScaleEvent: only with behavior. Events of the direction older than its longest policy
 * period are marked outdated (for good); the last outdated one is overwritten, else one is appended.
 */
export function storeScaleEvent(behavior: Behavior | undefined, events: ScaleEvents, previous: number, next: number, now: bigint): ScaleEvents {
  if (!behavior) return events
  const up = next > previous
  const rules = up ? behavior.scaleUp : behavior.scaleDown
  const cutoff = now - seconds(longestPolicyPeriod(rules))
  const list = (up ? events.up : events.down).map((e) => (e.at < cutoff ? {...e, outdated: true} : e))
  const event: TimestampedScaleEvent = {change: up ? next - previous : previous - next, at: now, outdated: false}
  let oldIndex = -1
  list.forEach((e, i) => {
    if (e.outdated) oldIndex = i
  })
  if (oldIndex >= 0) list[oldIndex] = event
  else list.push(event)
  return up ? {up: list, down: events.down} : {up: events.up, down: list}
}

/** The HPAScaleToZero floor: from zero with ScaledToZero=True and min ≠ 0, at least min (reconcileAutoscaler). */
export function scaleFromZeroFloor(current: number, desired: number, min: number, scaledToZero: boolean): number {
  return current === 0 && min !== 0 && scaledToZero && desired < min ? min : desired
}
