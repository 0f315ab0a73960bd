// H3–H5: combining proposals, the stabilization windows, the rate limits and the scale-event history
// (computeReplicasForMetrics, stabilizeRecommendation*, convertDesiredReplicas*, calculateScale*Limit*,
// storeScaleEvent), with the edges of every window and period, and properties.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {defaultBehavior} from '../../../../src/controllers/hpa/defaults.js'
import type {Behavior, MetricProposal, TimestampedScaleEvent} from '../../../../src/controllers/hpa/model.js'
import {
  changeInPeriod,
  combineProposals,
  convertWithBehaviorRate,
  convertWithRules,
  legacyScaleUpLimit,
  normalizeLegacy,
  normalizeWithBehavior,
  rescaleReason,
  scaleDownLimit,
  scaleDownWindow,
  scaleUpLimit,
  stabilizeLegacy,
  stabilizeWithBehavior,
  storeScaleEvent,
  type ScaleEvents,
} from '../../../../src/controllers/hpa/normalize.js'
import {HPA_NOW, agoNs} from '../../../helpers/hpa.js'

const ok = (replicas: number, name: string): MetricProposal => ({index: 0, type: 'Resource', name, replicas, status: {type: 'Resource'}, numbers: {}})
const bad = (reason: string): MetricProposal => ({index: 0, type: 'Pods', name: '', status: {type: ''}, error: {reason, message: reason, wrapped: `w ${reason}`}, numbers: {}})
const ev = (change: number, secondsAgo: number, outdated = false): TimestampedScaleEvent => ({change, at: agoNs(secondsAgo), outdated})
const NONE: ScaleEvents = {up: [], down: []}

describe('H3 computeReplicasForMetrics', () => {
  it('largest wins; a tie keeps the first name', () => {
    expect(combineProposals([ok(3, 'a'), ok(5, 'b'), ok(5, 'c')], 4)).toMatchObject({best: 5, metric: 'b', abort: false})
    expect(combineProposals([ok(1, 'a'), ok(1, 'b')], 4)).toMatchObject({best: 1, metric: 'a'})
  })
  it('abort when all fail, or some fail and the rest are below spec; not when the rest reach spec', () => {
    expect(combineProposals([bad('X'), bad('Y')], 4)).toMatchObject({abort: true, invalid: 2, error: 'invalid metrics (2 invalid out of 2), first error is: w X'})
    expect(combineProposals([ok(3, 'a'), bad('X')], 4).abort).toBe(true)
    expect(combineProposals([ok(4, 'a'), bad('X')], 4)).toMatchObject({abort: false, best: 4, error: 'invalid metrics (1 invalid out of 2), first error is: w X'})
    expect(combineProposals([ok(5, 'a'), bad('X')], 4).abort).toBe(false)
  })
  it('H3.4 rescale reason (reconcileAutoscaler) in both directions and none', () => {
    expect([rescaleReason(6, 'm', 4), rescaleReason(2, 'm', 4), rescaleReason(4, 'm', 4)]).toEqual(['m above target', 'All metrics below target', ''])
  })
})

describe('H4 without behavior (stabilizeRecommendation, convertDesiredReplicasWithRules)', () => {
  it('an entry exactly at the cutoff counts; one nanosecond older is replaced (the last such)', () => {
    const atCutoff = [{replicas: 9, at: agoNs(300)}]
    expect(stabilizeLegacy(atCutoff, 2, HPA_NOW, 300)).toEqual({stabilized: 9, recommendations: [...atCutoff, {replicas: 2, at: HPA_NOW}]})
    const older = [{replicas: 9, at: agoNs(300) - 1n}, {replicas: 8, at: agoNs(400)}]
    expect(stabilizeLegacy(older, 2, HPA_NOW, 300)).toEqual({stabilized: 2, recommendations: [older[0], {replicas: 2, at: HPA_NOW}]})
  })
  it('legacy scale-up limit max(2·spec, 4) and its reasons on both sides of max', () => {
    expect([legacyScaleUpLimit(1), legacyScaleUpLimit(2), legacyScaleUpLimit(3)]).toEqual([4, 4, 6])
    expect(convertWithRules(3, 7, 1, 7)).toEqual({desired: 6, limit: 'ScaleUpLimit'})
    expect(convertWithRules(3, 7, 1, 6)).toEqual({desired: 6, limit: 'TooManyReplicas'})
    expect(convertWithRules(3, 6, 1, 10)).toEqual({desired: 6, limit: 'DesiredWithinRange'})
    expect(convertWithRules(3, 1, 2, 10)).toEqual({desired: 2, limit: 'TooFewReplicas'})
  })
  it('normalizeDesiredReplicas conditions: ScaleDownStabilized vs ReadyForNewScale, ScalingLimited False when unclamped', () => {
    const n = normalizeLegacy({history: [{replicas: 5, at: agoNs(10)}], best: 2, current: 5, min: 1, max: 10, now: HPA_NOW, windowSeconds: 300})
    expect(n.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`)).toEqual(['AbleToScale=True ScaleDownStabilized', 'ScalingLimited=False DesiredWithinRange'])
  })
})

describe('H5 with behavior (normalizeDesiredReplicasWithBehaviors)', () => {
  const behavior = (b: Parameters<typeof defaultBehavior>[0]) => defaultBehavior(b)!
  it('H5.1 defaults field by field (GenerateHPAScaleUpRules, copyHPAScalingRules); H5.3 a nil scale-down window is the flag (maybeInitScaleDownStabilizationWindow)', () => {
    const b = behavior({scaleUp: {selectPolicy: 'Min'}, scaleDown: {policies: [{type: 'Pods', value: 1, periodSeconds: 60}]}})
    expect(b.scaleUp).toEqual({stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{type: 'Pods', value: 4, periodSeconds: 15}, {type: 'Percent', value: 100, periodSeconds: 15}]})
    expect(b.scaleDown).toEqual({selectPolicy: 'Max', policies: [{type: 'Pods', value: 1, periodSeconds: 60}]})
    expect(scaleDownWindow(b, 300)).toBe(300)
    expect(scaleDownWindow(behavior({scaleDown: {stabilizationWindowSeconds: 0}}), 300)).toBe(0)
  })
  it('H5.4 (stabilizeRecommendationWithBehaviors) windows count entries strictly newer than the cutoff; the entry older than both is reused', () => {
    const hist = [{replicas: 3, at: agoNs(60)}, {replicas: 9, at: agoNs(60) + 1n}, {replicas: 1, at: agoNs(200)}]
    const s = stabilizeWithBehavior(hist, 5, 5, HPA_NOW, 60, 60)
    expect([s.upFloor, s.downCeil, s.stabilized]).toEqual([5, 9, 5])
    expect(s.recommendations).toEqual([hist[0], hist[1], {replicas: 5, at: HPA_NOW}])
    // A scale-up held by the up window: best 8, a 4 within it, current 3 → raised to 4 only.
    const up = stabilizeWithBehavior([{replicas: 4, at: agoNs(10)}], 8, 3, HPA_NOW, 60, 0)
    expect([up.stabilized, up.reason]).toEqual([4, 'ScaleUpStabilized'])
  })
  it('H5.6 (getReplicasChangePerPeriod, calculateScaleUpLimitWithScalingRules) periods: an event exactly at now − period is out, one nanosecond newer is in', () => {
    const events = [{change: 4, at: agoNs(60), outdated: false}]
    expect(changeInPeriod(60, events, HPA_NOW)).toBe(0)
    expect(changeInPeriod(60, [{...events[0], at: agoNs(60) + 1n}], HPA_NOW)).toBe(4)
    const rules = behavior({scaleUp: {policies: [{type: 'Pods', value: 4, periodSeconds: 60}]}}).scaleUp
    expect(scaleUpLimit(14, {up: events, down: []}, rules, HPA_NOW)).toBe(18)
    expect(scaleUpLimit(14, {up: [{...events[0], at: agoNs(60) + 1n}], down: []}, rules, HPA_NOW)).toBe(14)
  })
  it('H5.6 (calculateScaleUpLimitWithScalingRules) Percent in float64: 3 at 10% → 4, 10 at 10% → 11; Max and Min; scale-down events raise the base', () => {
    const pct = (v: number, sel: 'Max' | 'Min' = 'Max') => behavior({scaleUp: {selectPolicy: sel, policies: [{type: 'Percent', value: v, periodSeconds: 15}, {type: 'Pods', value: 2, periodSeconds: 15}]}}).scaleUp
    expect(scaleUpLimit(3, NONE, pct(10), HPA_NOW)).toBe(5)
    expect(scaleUpLimit(3, NONE, pct(10, 'Min'), HPA_NOW)).toBe(4)
    expect(scaleUpLimit(10, NONE, pct(10, 'Min'), HPA_NOW)).toBe(11)
    expect(scaleUpLimit(10, {up: [], down: [ev(3, 5)]}, pct(10, 'Min'), HPA_NOW)).toBe(15)
    expect(scaleUpLimit(10, NONE, behavior({scaleUp: {selectPolicy: 'Disabled'}}).scaleUp, HPA_NOW)).toBe(10)
  })
  it('H5.7 (calculateScaleDownLimitWithBehaviors) scale-down: Max takes the smallest, Min the largest, Percent truncates and goes negative above 100', () => {
    const rules = (sel: 'Max' | 'Min') => behavior({scaleDown: {selectPolicy: sel, policies: [{type: 'Percent', value: 30, periodSeconds: 15}, {type: 'Pods', value: 1, periodSeconds: 15}]}}).scaleDown
    expect(scaleDownLimit(10, NONE, rules('Max'), HPA_NOW)).toBe(7)
    expect(scaleDownLimit(10, NONE, rules('Min'), HPA_NOW)).toBe(9)
    expect(scaleDownLimit(10, {up: [ev(2, 5)], down: []}, rules('Min'), HPA_NOW)).toBe(7)
    expect(scaleDownLimit(10, NONE, behavior({scaleDown: {policies: [{type: 'Percent', value: 150, periodSeconds: 15}]}}).scaleDown, HPA_NOW)).toBe(-5)
  })
  it('H5.5 (convertDesiredReplicasWithBehaviorRate) bounds: ScaleUpLimit vs TooManyReplicas, ScaleDownLimit vs TooFewReplicas, lim never past spec', () => {
    const b: Behavior = behavior({scaleDown: {policies: [{type: 'Pods', value: 2, periodSeconds: 15}]}})
    const run = (current: number, stabilized: number, min: number, max: number, events = NONE) => convertWithBehaviorRate({current, stabilized, min, max, behavior: b, events, now: HPA_NOW})
    expect(run(4, 20, 1, 30)).toMatchObject({desired: 8, limit: 'ScaleUpLimit'})
    expect(run(4, 20, 1, 8)).toMatchObject({desired: 8, limit: 'TooManyReplicas'})
    expect(run(10, 3, 1, 20)).toMatchObject({desired: 8, limit: 'ScaleDownLimit'})
    expect(run(10, 3, 9, 20)).toMatchObject({desired: 9, limit: 'TooFewReplicas'})
    // Already added 9 in the period: base 1, limit max(1+4, ceil(1·2)) = 5 falls below spec and is raised to it.
    expect(run(10, 20, 1, 30, {up: [ev(9, 5)], down: []})).toMatchObject({desired: 10, limit: 'ScaleUpLimit', rateLimit: 10})
    expect(run(5, 5, 1, 30)).toMatchObject({desired: 5, limit: 'DesiredWithinRange'})
  })
  it('H5.8 (storeScaleEvent, markScaleEventsOutdated, getLongestPolicyPeriod): outdated events are reused (the last one), per direction; nothing without behavior', () => {
    const b = behavior({})
    const events = {up: [ev(1, 100), ev(2, 50), ev(3, 10)], down: [ev(5, 1)]}
    const s = storeScaleEvent(b, events, 4, 6, HPA_NOW)
    expect(s.up).toEqual([{...events.up[0], outdated: true}, {change: 2, at: HPA_NOW, outdated: false}, events.up[2]])
    expect(s.down).toBe(events.down)
    expect(storeScaleEvent(b, NONE, 6, 4, HPA_NOW)).toEqual({up: [], down: [{change: 2, at: HPA_NOW, outdated: false}]})
    expect(storeScaleEvent(undefined, NONE, 6, 4, HPA_NOW)).toBe(NONE)
  })
})

describe('properties (normalizeDesiredReplicas, normalizeDesiredReplicasWithBehaviors, stabilizeRecommendation*)', () => {
  const recs = fc.array(fc.record({replicas: fc.integer({min: 0, max: 60}), at: fc.integer({min: 0, max: 900}).map((s) => agoNs(s))}), {maxLength: 8})
  const evs = fc.array(fc.record({change: fc.integer({min: 1, max: 20}), at: fc.integer({min: 0, max: 120}).map((s) => agoNs(s)), outdated: fc.boolean()}), {maxLength: 5})
  const rules = fc.record({
    stabilizationWindowSeconds: fc.integer({min: 0, max: 600}),
    selectPolicy: fc.constantFrom('Max' as const, 'Min' as const, 'Disabled' as const),
    policies: fc.array(fc.record({type: fc.constantFrom('Pods' as const, 'Percent' as const), value: fc.integer({min: 1, max: 200}), periodSeconds: fc.integer({min: 1, max: 120})}), {minLength: 1, maxLength: 3}),
  })
  const bounds = fc.tuple(fc.integer({min: 1, max: 30}), fc.integer({min: 0, max: 30})).map(([min, extra]) => ({min, max: min + extra}))

  it('the normalized count lies within [min, max] whenever the current count does (both normalizers)', () => {
    fc.assert(
      fc.property(bounds, fc.integer({min: 0, max: 100}), fc.integer({min: 0, max: 100}), recs, evs, evs, rules, rules, (b, c, best, history, up, down, su, sd) => {
        const current = b.min + (c % (b.max - b.min + 1))
        const legacy = normalizeLegacy({history, best, current, min: b.min, max: b.max, now: HPA_NOW, windowSeconds: 300})
        expect(legacy.desired).toBeGreaterThanOrEqual(b.min)
        expect(legacy.desired).toBeLessThanOrEqual(b.max)
        const w = normalizeWithBehavior({history, events: {up, down}, behavior: {scaleUp: su, scaleDown: sd}, best, current, min: b.min, max: b.max, now: HPA_NOW, flagDownWindowSeconds: 300})
        expect(w.desired).toBeGreaterThanOrEqual(b.min)
        expect(w.desired).toBeLessThanOrEqual(b.max)
      }),
    )
  })

  it('the stabilized recommendation is monotone in the history: raising any entry never lowers it', () => {
    fc.assert(
      fc.property(recs, fc.nat(), fc.integer({min: 1, max: 20}), fc.integer({min: 0, max: 60}), fc.integer({min: 0, max: 60}), fc.integer({min: 0, max: 600}), fc.integer({min: 0, max: 600}), (history, i, bump, best, current, upW, downW) => {
        fc.pre(history.length > 0)
        const k = i % history.length
        const raised = history.map((r, j) => (j === k ? {...r, replicas: r.replicas + bump} : r))
        expect(stabilizeLegacy(raised, best, HPA_NOW, downW).stabilized).toBeGreaterThanOrEqual(stabilizeLegacy(history, best, HPA_NOW, downW).stabilized)
        expect(stabilizeWithBehavior(raised, best, current, HPA_NOW, upW, downW).stabilized).toBeGreaterThanOrEqual(stabilizeWithBehavior(history, best, current, HPA_NOW, upW, downW).stabilized)
      }),
    )
  })

  it('the stabilized recommendation lies between the best proposal and the current count (behavior)', () => {
    fc.assert(
      fc.property(recs, fc.integer({min: 0, max: 60}), fc.integer({min: 0, max: 60}), fc.integer({min: 0, max: 600}), fc.integer({min: 0, max: 600}), (history, best, current, upW, downW) => {
        const s = stabilizeWithBehavior(history, best, current, HPA_NOW, upW, downW).stabilized
        expect(s).toBeGreaterThanOrEqual(Math.min(best, current))
        expect(s).toBeLessThanOrEqual(Math.max(best, current))
      }),
    )
  })
})
