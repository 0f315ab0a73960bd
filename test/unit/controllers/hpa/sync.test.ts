// H1, H6 and H7 through the whole sync (reconcileAutoscaler): the error paths, the status write
// and its conditions, and scale-to-zero behind its gate.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {DEFAULT_HPA_GATES, type HpaCondition, type MetricSpec} from '../../../../src/controllers/hpa/model.js'
import {statusEqual, syncHpa} from '../../../../src/controllers/hpa/sync.js'
import {defaultHpaSpec} from '../../../../src/controllers/hpa/defaults.js'
import {EMPTY_STATUS as EMPTY, HPA_NOW, HPA_NOW_TEXT, STALE_HISTORY, conditionsOf, hpaView, pods, runHpa, sameSamples} from '../../../helpers/hpa.js'

const T0 = '2025-12-31T00:00:00Z'
const GATE_ON = {...DEFAULT_HPA_GATES, HPAScaleToZero: true}
const QUEUE: MetricSpec = {type: 'External', external: {metric: {name: 'queue'}, target: {type: 'Value', value: '10'}}}
const queue = (v: string) => ({kind: 'externalValues' as const, items: [{value: v}]})
const scaledToZero = (status: 'True' | 'False'): HpaCondition => ({type: 'ScaledToZero', status, reason: 'ScaledToZero', message: 'x', lastTransitionTime: T0})

describe('H1.4 scale target (reconcileAutoscaler, scaleForResourceMappings)', () => {
  it('a failed scale GET: event, AbleToScale=False, only that change in the status, no seed', () => {
    const hpa = hpaView({}, {currentReplicas: 3, desiredReplicas: 3})
    const r = syncHpa({hpa, scale: {error: 'deployments.apps "web" not found'}, pods: [], metrics: [], now: HPA_NOW})
    expect(r.path).toBe('failed-get-scale')
    expect(r.events).toEqual([{type: 'Warning', reason: 'FailedGetScale', message: 'deployments.apps "web" not found'}])
    expect(r.status).toEqual({...hpa.status, conditions: [{type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" not found', lastTransitionTime: HPA_NOW_TEXT}]})
    expect(r.history.recommendations).toBeUndefined()
    expect(r.requeue).toEqual({at: '2026-01-01T12:00:15Z', seconds: 15})
  })
  it('an apiVersion that does not parse fails the same way', () => {
    const hpa = hpaView({scaleTargetRef: {apiVersion: 'a/b/c', kind: 'Deployment', name: 'web'}})
    const r = syncHpa({hpa, scale: {scale: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', specReplicas: 1, statusReplicas: 1, selector: 'app=web'}}, pods: [], metrics: [], now: HPA_NOW_TEXT})
    expect(r.events[0]).toEqual({type: 'Warning', reason: 'FailedGetScale', message: 'unexpected GroupVersion string: a/b/c'})
  })
})

describe('H1.7 selector (validateAndParseSelector)', () => {
  it('an empty selector: SelectorRequired, InvalidSelector, handled as all metrics failed', () => {
    const r = runHpa({hpa: hpaView({}, {desiredReplicas: 7}), spec: 3, selector: '', metrics: [sameSamples(3, '1')]})
    expect(r.path).toBe('metrics-failed')
    expect(r.events).toEqual([
      {type: 'Warning', reason: 'SelectorRequired', message: 'selector is required'},
      {type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: 'selector is required'},
    ])
    expect(conditionsOf(r.status)).toEqual(['AbleToScale=True SucceededGetScale', 'ScalingActive=False InvalidSelector'])
    expect(r.status).toMatchObject({currentReplicas: 3, desiredReplicas: 7, currentMetrics: null})
  })
  it('a selector that does not parse', () => {
    const r = runHpa({spec: 3, selector: 'app in (', metrics: [sameSamples(3, '1')]})
    expect(r.events[0].reason).toBe('InvalidSelector')
    expect(r.status.conditions[1].message).toMatch(/^couldn't convert selector into a corresponding internal selector object: /)
  })
  it('pods of other namespaces or labels are not read; another HPA whose selector matches none of them is no ambiguity', () => {
    const ps = [...pods(3), {...pods(1)[0], name: 'other', labels: {app: 'db'}}]
    const r = runHpa({spec: 3, pods: ps, otherHpaSelectors: [{key: 'ns/db', selector: 'app=db'}], metrics: [sameSamples(3, '500m')]})
    expect(r.proposals[0].numbers).toMatchObject({readyCount: 3})
    expect(conditionsOf(r.status)[1]).toBe('ScalingActive=True ValidMetricFound')
  })
})

describe('H1.6 pre-checks and H7 writes (reconcileAutoscaler, setStatus, setConditionInList, updateStatusIfNeeded, storeScaleEvent)', () => {
  it('out of range keeps old ScalingActive/ScalingLimited and sets currentMetrics null', () => {
    const old: HpaCondition[] = [
      {type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'm', lastTransitionTime: T0},
      {type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'm', lastTransitionTime: T0},
    ]
    const r = runHpa({hpa: hpaView({maxReplicas: 4}, {conditions: old, currentMetrics: [{type: ''}]}), spec: 6, metrics: []})
    expect(r.scaleWrite?.to).toBe(4)
    expect(r.status.conditions).toEqual([{...old[0], reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 4'}, old[1]])
    expect(r.status.currentMetrics).toBeNull()
  })
  it('a failed scale write: FailedRescale, AbleToScale=False FailedUpdateScale, old desired, no scale event stored', () => {
    const hpa = hpaView({behavior: {}}, {desiredReplicas: 3, currentReplicas: 3, lastScaleTime: T0})
    const r = runHpa({hpa, spec: 3, scaleWriteError: 'conflict', metrics: [sameSamples(3, '1')]})
    expect(r.scaleWrite).toEqual({from: 3, to: 6, outcome: 'failed'})
    expect(r.events).toEqual([{type: 'Warning', reason: 'FailedRescale', message: 'New size: 6; reason: cpu resource utilization (percentage of request) above target; error: conflict'}])
    expect(r.status).toMatchObject({desiredReplicas: 3, currentReplicas: 3, lastScaleTime: T0})
    expect(conditionsOf(r.status)[0]).toBe('AbleToScale=False FailedUpdateScale')
    expect(r.history.scaleUpEvents).toEqual([])
    expect(r.history.recommendations).toHaveLength(1) // the recommendation was recorded before the write
  })
  it('lastTransitionTime is kept when a condition keeps its status, set when it changes; observedGeneration is dropped', () => {
    const old: HpaCondition[] = [
      {type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'm', lastTransitionTime: T0},
      {type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: 'm', lastTransitionTime: T0},
    ]
    const r = runHpa({hpa: hpaView({}, {conditions: old, observedGeneration: 2, currentReplicas: 3, desiredReplicas: 3}), spec: 3, metrics: [sameSamples(3, '500m')]})
    expect(r.status.conditions.map((c) => [c.type, c.reason, c.lastTransitionTime])).toEqual([
      ['AbleToScale', 'ReadyForNewScale', T0],
      ['ScalingActive', 'ValidMetricFound', HPA_NOW_TEXT],
      ['ScalingLimited', 'DesiredWithinRange', HPA_NOW_TEXT],
    ])
    expect(r.status.observedGeneration).toBeUndefined()
  })
  it('steady state: the status it wrote is not written again (updateStatusIfNeeded); quantities compare by value', () => {
    const first = runHpa({spec: 3, metrics: [sameSamples(3, '500m')]})
    expect(first.statusChanged).toBe(true)
    const second = runHpa({hpa: hpaView({}, first.status), spec: 3, history: first.history, now: HPA_NOW + 15_000_000_000n, metrics: [sameSamples(3, '500m')]})
    expect(second.statusChanged).toBe(false)
    const respelled = {...first.status, currentMetrics: [{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 50, averageValue: '0.5'}}}]}
    expect(statusEqual(first.status, respelled)).toBe(true)
    expect(statusEqual(first.status, {...first.status, desiredReplicas: 4})).toBe(false)
    // Field order as read and omitted empty strings do not count.
    const reordered = {...first.status, conditions: first.status.conditions.map(({lastTransitionTime, message, reason, status, type}) => ({lastTransitionTime, message, reason, status, type}))}
    expect(statusEqual(first.status, reordered)).toBe(true)
    expect(statusEqual({...EMPTY, conditions: [{type: 'A', status: 'True', message: ''}]}, {...EMPTY, conditions: [{type: 'A', status: 'True'}]})).toBe(true)
  })
})

describe('H1.5 initial recommendation (recordInitialRecommendation) and H5.1 defaults (SetDefaults_HorizontalPodAutoscaler)', () => {
  it('with a scale-up window the seed also holds a scale-up for that window', () => {
    const hpa = hpaView({behavior: {scaleUp: {stabilizationWindowSeconds: 60}}})
    const r = runHpa({hpa, spec: 3, history: undefined, metrics: [sameSamples(3, '2')]})
    expect([r.best, r.stabilized, r.scaleWrite]).toEqual([12, 3, undefined])
    expect(conditionsOf(r.status)[0]).toBe('AbleToScale=True ScaleUpStabilized')
    expect(r.assumes[0]).toMatch(/first sync since the controller started/)
    // Without the up window it scales up at once (limited to max(3+4, 6) = 7).
    expect(runHpa({hpa: hpaView({behavior: {}}), spec: 3, history: undefined, metrics: [sameSamples(3, '2')]}).scaleWrite?.to).toBe(7)
  })
  it('minReplicas defaults to 1 and no metrics become CPU at 80%', () => {
    const spec = defaultHpaSpec({scaleTargetRef: {kind: 'Deployment', name: 'web', apiVersion: 'apps/v1'}, maxReplicas: 5})
    expect(spec).toEqual({
      scaleTargetRef: {kind: 'Deployment', name: 'web', apiVersion: 'apps/v1'},
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 80}}}],
    })
  })
})

describe('H3 with no metric at all (computeReplicasForMetrics; unreachable after defaulting)', () => {
  it('an empty condition is added and the sync goes on with a proposal of 0', () => {
    const hpa = hpaView()
    const r = runHpa({hpa: {...hpa, spec: {...hpa.spec, metrics: []}}, spec: 3, metrics: []})
    expect(r.status.conditions.map((c) => c.type)).toEqual(['AbleToScale', '', 'ScalingLimited'])
    expect(r.scaleWrite?.to).toBe(1)
    expect(r.rescaleReason).toBe('All metrics below target')
  })
})

describe('H6 HPAScaleToZero (shouldComputeMetricsForZeroReplicas, getScaledToZeroConditionStatus, hasObjectOrExternalMetrics)', () => {
  it('2 → 0 on an External value of 0 sets ScaledToZero=True', () => {
    const r = runHpa({hpa: hpaView({minReplicas: 0, metrics: [QUEUE]}), gates: GATE_ON, spec: 2, metrics: [queue('0')]})
    expect(r.scaleWrite?.to).toBe(0)
    expect(conditionsOf(r.status)).toContain('ScaledToZero=True ScaledToZero')
  })
  it('0 → 3 on 25 against 10 when ScaledToZero=True; without the condition, ScalingDisabled', () => {
    const hpa = hpaView({minReplicas: 0, metrics: [QUEUE]}, {conditions: [scaledToZero('True')]})
    const r = runHpa({hpa, gates: GATE_ON, spec: 0, pods: [], metrics: [queue('25')]})
    expect(r.scaleWrite?.to).toBe(3)
    expect(conditionsOf(r.status)).toContain('ScaledToZero=False NotScaledToZero')
    const off = runHpa({hpa: hpaView({minReplicas: 0, metrics: [QUEUE]}), gates: GATE_ON, spec: 0, pods: [], metrics: [queue('25')]})
    expect(off.path).toBe('scaling-disabled')
  })
  it('the gate off: the condition is never read and is removed', () => {
    const hpa = hpaView({minReplicas: 1, metrics: [QUEUE]}, {conditions: [scaledToZero('True')]})
    const r = runHpa({hpa, spec: 0, pods: [], metrics: [queue('25')]})
    expect(r.path).toBe('scaling-disabled')
    expect(r.status.conditions.map((c) => c.type)).toEqual(['AbleToScale', 'ScalingActive'])
  })
  it('from zero with min > 0 the floor raises a behavior-limited proposal to min', () => {
    const hpa = hpaView({minReplicas: 2, metrics: [QUEUE], behavior: {}}, {conditions: [scaledToZero('True')]})
    const r = runHpa({hpa, gates: GATE_ON, spec: 0, pods: [], history: STALE_HISTORY, metrics: [queue('5')]})
    expect([r.best, r.scaleWrite?.to]).toEqual([1, 2])
    expect(r.rescaleReason).toBe('external metric queue(nil) above target')
  })
})

describe('property: the whole sync (reconcileAutoscaler)', () => {
  it('with a nonzero target, any scale write and the desired count lie within [min, max]; a zero target is never written', () => {
    const behaviors = fc.option(
      fc.record({
        scaleUp: fc.record({selectPolicy: fc.constantFrom('Max' as const, 'Min' as const, 'Disabled' as const), stabilizationWindowSeconds: fc.integer({min: 0, max: 120})}, {requiredKeys: []}),
        scaleDown: fc.record({selectPolicy: fc.constantFrom('Max' as const, 'Min' as const, 'Disabled' as const), stabilizationWindowSeconds: fc.integer({min: 0, max: 120})}, {requiredKeys: []}),
      }),
      {nil: undefined},
    )
    fc.assert(
      fc.property(fc.integer({min: 1, max: 8}), fc.integer({min: 0, max: 12}), fc.integer({min: 0, max: 25}), fc.array(fc.integer({min: 0, max: 5000}), {minLength: 25, maxLength: 25}), behaviors, (min, extra, spec, usage, behavior) => {
        const max = min + extra
        const samples = Object.fromEntries(usage.slice(0, spec).map((u, i) => [`p${i}`, `${u}m`]))
        const r = runHpa({hpa: hpaView({minReplicas: min, maxReplicas: max, behavior}), spec, pods: pods(spec), metrics: [{kind: 'podMetrics', items: Object.entries(samples).map(([name, value]) => ({name, timestamp: '2026-01-01T11:59:55Z', windowSeconds: 60, containers: [{name: 'app', usage: {cpu: value}}]}))}]})
        if (spec === 0) {
          expect(r.scaleWrite).toBeUndefined()
          return
        }
        if (r.scaleWrite) {
          expect(r.scaleWrite.to).toBeGreaterThanOrEqual(min)
          expect(r.scaleWrite.to).toBeLessThanOrEqual(max)
        }
        if (r.path === 'normalized' || r.path === 'out-of-range') {
          expect(r.status.desiredReplicas).toBeGreaterThanOrEqual(min)
          expect(r.status.desiredReplicas).toBeLessThanOrEqual(max)
        }
      }),
    )
  })
})
