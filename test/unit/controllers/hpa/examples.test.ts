// The worked examples E1–E20 of the HPA semantics (H9), each through the whole sync (reconcileAutoscaler),
// asserting the exact numbers, conditions, events and history.
import {describe, expect, it} from 'vitest'
import type {MetricSpec} from '../../../../src/controllers/hpa/model.js'
import {CPU_50, HPA_NOW, STALE_HISTORY, agoNs, conditionsOf, cpuSamples, hpaPod, hpaView, pods, runHpa, sameSamples, secondsNs} from '../../../helpers/hpa.js'

const RPS: MetricSpec = {type: 'Pods', pods: {metric: {name: 'rps'}, target: {type: 'AverageValue', averageValue: '10'}}}

describe('H9 worked examples (reconcileAutoscaler, computeReplicasForMetrics, normalizeDesiredReplicas*)', () => {
  it('E1 CPU up: util trunc(135000/1500)=90, ratio 1.8, ceil(5.4)=6', () => {
    const r = runHpa({spec: 3, pods: pods(3, {cpu: '500m'}), metrics: [cpuSamples({p0: '500m', p1: '450m', p2: '400m'})]})
    expect(r.proposals[0].numbers).toMatchObject({utilization: 90, ratio: 1.8, readyCount: 3, path: 'fast'})
    expect(r.proposals[0].replicas).toBe(6)
    expect(r.scaleWrite).toEqual({from: 3, to: 6, outcome: 'written'})
    expect(r.status.currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 90, averageValue: '450m'}}}])
    expect(conditionsOf(r.status)).toEqual(['AbleToScale=True SucceededRescale', 'ScalingActive=True ValidMetricFound', 'ScalingLimited=False DesiredWithinRange'])
    expect(r.events).toEqual([{type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 6; reason: cpu resource utilization (percentage of request) above target'}])
    expect(r.status).toMatchObject({currentReplicas: 3, desiredReplicas: 6, lastScaleTime: '2026-01-01T12:00:00Z'})
    expect(r.status.conditions.find((c) => c.type === 'ScalingActive')!.message).toBe(
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    )
    expect(r.statusChanged).toBe(true)
  })

  it('E2 tolerance edge: util 55, ratio 1.1 == 1+0.1 is within; 56 is not', () => {
    const r = runHpa({spec: 4, metrics: [cpuSamples({p0: '560m', p1: '540m', p2: '520m', p3: '580m'})]})
    expect(r.proposals[0].numbers).toMatchObject({utilization: 55, ratio: 1.1, withinTolerance: true})
    expect(r.scaleWrite).toBeUndefined()
    expect(r.status.desiredReplicas).toBe(4)
    expect(conditionsOf(r.status)[0]).toBe('AbleToScale=True ReadyForNewScale')
    const above = runHpa({spec: 4, metrics: [cpuSamples({p0: '560m', p1: '560m', p2: '560m', p3: '560m'})]})
    expect(above.proposals[0].replicas).toBe(5) // 1.12 × 4 = 4.48 → 5
  })

  it('E3 fresh controller: the seed {5} holds the scale-down for the window, then →1', () => {
    const first = runHpa({spec: 5, history: undefined, metrics: [sameSamples(5, '100m')]})
    expect(first.proposals[0].replicas).toBe(1)
    expect(first.stabilized).toBe(5)
    expect(first.scaleWrite).toBeUndefined()
    expect(first.status.desiredReplicas).toBe(5)
    expect(conditionsOf(first.status)[0]).toBe('AbleToScale=True ScaleDownStabilized')
    expect(first.history.recommendations).toEqual([{replicas: 5, at: HPA_NOW}, {replicas: 1, at: HPA_NOW}])
    // At exactly now + window the seed is not older than the cutoff: still held.
    const atEdge = runHpa({spec: 5, history: first.history, now: HPA_NOW + secondsNs(300), metrics: [sameSamples(5, '100m')]})
    expect(atEdge.scaleWrite).toBeUndefined()
    const after = runHpa({spec: 5, history: first.history, now: HPA_NOW + secondsNs(301), metrics: [sameSamples(5, '100m')]})
    expect(after.scaleWrite).toEqual({from: 5, to: 1, outcome: 'written'})
    expect(after.rescaleReason).toBe('All metrics below target')
  })

  it('E4 missing pods on scale-up count 0%: 90% → 67% → ceil(5.36)=6', () => {
    const r = runHpa({spec: 4, metrics: [cpuSamples({p0: '900m', p1: '900m', p2: '900m'})]})
    expect(r.proposals[0].numbers).toMatchObject({utilization: 90, ratio: 1.8, newRatio: 1.34, missing: 1, path: 'corrected'})
    expect(r.scaleWrite?.to).toBe(6)
    expect(r.status.currentMetrics![0].resource!.current.averageUtilization).toBe(90)
  })

  it('E5 missing pods on scale-down count 100%: 10% → 32% → ceil(2.56)=3', () => {
    const r = runHpa({spec: 4, metrics: [cpuSamples({p0: '100m', p1: '100m', p2: '100m'})]})
    expect(r.proposals[0].numbers).toMatchObject({utilization: 10, newRatio: 0.64})
    expect(r.scaleWrite?.to).toBe(3)
  })

  it('E6 direction flip: 1.2, then 0.6 with missing pods at 0 → keep 4', () => {
    const r = runHpa({spec: 4, metrics: [cpuSamples({p0: '600m', p1: '600m'})]})
    expect(r.proposals[0].numbers).toMatchObject({ratio: 1.2, newRatio: 0.6, keptCurrent: true})
    expect(r.proposals[0].replicas).toBe(4)
    expect(r.scaleWrite).toBeUndefined()
  })

  it('E7 unready pods on scale-up count 0: 2.0 → 1.2 → ceil(6.0)=6', () => {
    const young = {startedAgo: 20, readySinceAgo: 20, ready: 'False'}
    const ps = [...pods(3), hpaPod('u0', young), hpaPod('u1', young)]
    const r = runHpa({spec: 5, pods: ps, metrics: [cpuSamples({p0: '1', p1: '1', p2: '1', u0: '50m', u1: '50m'})]})
    expect(r.proposals[0].numbers).toMatchObject({ratio: 2, unready: 2, newRatio: 1.2})
    expect(r.scaleWrite?.to).toBe(6)
  })

  it('E8 two metrics: CPU proposes 5, rps 6; the larger wins and names the reason', () => {
    const hpa = hpaView({metrics: [CPU_50, RPS]})
    const rps = {kind: 'podValues' as const, items: ['p0', 'p1', 'p2', 'p3'].map((pod) => ({pod, value: '15'}))}
    const r = runHpa({hpa, spec: 4, metrics: [sameSamples(4, '600m'), rps]})
    expect(r.proposals.map((p) => p.replicas)).toEqual([5, 6])
    expect(r.scaleWrite?.to).toBe(6)
    expect(r.rescaleReason).toBe('pods metric rps above target')
    expect(r.status.currentMetrics).toEqual([
      {type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 60, averageValue: '600m'}}},
      {type: 'Pods', pods: {metric: {name: 'rps'}, current: {averageValue: '15'}}},
    ])
  })

  it('E9 one metric fails: (a) blocks the scale-down, (b) does not block the scale-up', () => {
    const hpa = hpaView({metrics: [CPU_50, RPS]}, {desiredReplicas: 4, currentReplicas: 4})
    const broken = {kind: 'error' as const, message: 'the server is currently unable to handle the request'}
    const a = runHpa({hpa, spec: 4, metrics: [sameSamples(4, '100m'), broken]})
    expect(a.path).toBe('metrics-failed')
    expect(a.scaleWrite).toBeUndefined()
    expect(a.status.desiredReplicas).toBe(4)
    expect(a.status.currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 10, averageValue: '100m'}}}, {type: ''}])
    expect(conditionsOf(a.status)).toEqual(['AbleToScale=True SucceededGetScale', 'ScalingActive=False FailedGetPodsMetric'])
    const inner = 'unable to get metric rps: unable to fetch metrics from custom metrics API: the server is currently unable to handle the request'
    expect(a.status.conditions[1].message).toBe(`the HPA was unable to compute the replica count: ${inner}`)
    expect(a.events).toEqual([
      {type: 'Warning', reason: 'FailedGetPodsMetric', message: inner},
      {type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: `invalid metrics (1 invalid out of 2), first error is: failed to get pods metric value: ${inner}`},
    ])
    expect(a.history).toEqual(STALE_HISTORY) // no recommendation recorded
    const b = runHpa({hpa, spec: 4, metrics: [sameSamples(4, '800m'), broken]})
    expect(b.scaleWrite?.to).toBe(7)
    expect(conditionsOf(b.status)[1]).toBe('ScalingActive=True ValidMetricFound')
    expect(b.events.map((e) => e.reason)).toEqual(['FailedGetPodsMetric', 'SuccessfulRescale'])
  })

  it('E10 behavior Min: limit min(14, 15)=14; next sync at 14 the base is 10 → stays 14, still ScaleUpLimit', () => {
    const hpa = hpaView({
      maxReplicas: 50,
      behavior: {scaleUp: {selectPolicy: 'Min', policies: [{type: 'Pods', value: 4, periodSeconds: 60}, {type: 'Percent', value: 50, periodSeconds: 60}]}},
    })
    const first = runHpa({hpa, spec: 10, pods: pods(10), metrics: [sameSamples(10, '1500m')]})
    expect(first.best).toBe(30)
    expect(first.scaleWrite?.to).toBe(14)
    expect(conditionsOf(first.status)[2]).toBe('ScalingLimited=True ScaleUpLimit')
    expect(first.history.scaleUpEvents).toEqual([{change: 4, at: HPA_NOW, outdated: false}])
    const next = runHpa({hpa: {...hpa, status: first.status}, spec: 14, pods: pods(14), history: first.history, now: HPA_NOW + secondsNs(15), metrics: [sameSamples(14, '1500m')]})
    expect(next.scaleWrite).toBeUndefined()
    expect(next.desired).toBe(14)
    expect(conditionsOf(next.status)).toEqual(['AbleToScale=True ReadyForNewScale', 'ScalingActive=True ValidMetricFound', 'ScalingLimited=True ScaleUpLimit'])
  })

  it('E11 scale-down window 60 s: downCeil max(4,7,6)=7; the −10m entry becomes {4, now}', () => {
    const hpa = hpaView({behavior: {scaleDown: {stabilizationWindowSeconds: 60}}})
    const history = {
      recommendations: [{replicas: 8, at: agoNs(600)}, {replicas: 7, at: agoNs(50)}, {replicas: 6, at: agoNs(20)}],
      scaleUpEvents: [],
      scaleDownEvents: [],
    }
    const r = runHpa({hpa, spec: 8, pods: pods(8), history, metrics: [sameSamples(8, '200m')]})
    expect(r.best).toBe(4)
    expect(r.stabilized).toBe(7)
    expect(r.scaleWrite?.to).toBe(7)
    expect(conditionsOf(r.status)).toEqual(['AbleToScale=True SucceededRescale', 'ScalingActive=True ValidMetricFound', 'ScalingLimited=False DesiredWithinRange'])
    expect(r.history.recommendations).toEqual([{replicas: 4, at: HPA_NOW}, {replicas: 7, at: agoNs(50)}, {replicas: 6, at: agoNs(20)}])
    expect(r.history.scaleDownEvents).toEqual([{change: 1, at: HPA_NOW, outdated: false}])
  })

  it('E12 (a) max clamp TooManyReplicas, (b) legacy limit ScaleUpLimit', () => {
    const a = runHpa({hpa: hpaView({maxReplicas: 6}), spec: 4, metrics: [sameSamples(4, '1')]})
    expect([a.best, a.scaleWrite?.to, a.limit]).toEqual([8, 6, 'TooManyReplicas'])
    const b = runHpa({hpa: hpaView({maxReplicas: 20}), spec: 2, metrics: [sameSamples(2, '2')]})
    expect([b.best, b.scaleWrite?.to, b.limit]).toEqual([8, 4, 'ScaleUpLimit'])
    expect(b.status.conditions[2].message).toBe('the desired replica count is increasing faster than the maximum scale rate')
  })

  it('E13 min clamp TooFewReplicas', () => {
    const r = runHpa({hpa: hpaView({minReplicas: 3}), spec: 5, metrics: [sameSamples(5, '50m')]})
    expect([r.best, r.scaleWrite?.to, r.limit]).toEqual([1, 3, 'TooFewReplicas'])
  })

  it('E14 out of range: (a) below min, no metrics, only AbleToScale; (b) above max with behavior stores a scale-down event', () => {
    const a = runHpa({hpa: hpaView({minReplicas: 2}), spec: 1, metrics: [sameSamples(1, '1')]})
    expect(a.scaleWrite?.to).toBe(2)
    expect(a.rescaleReason).toBe('Current number of replicas below Spec.MinReplicas')
    expect(conditionsOf(a.status)).toEqual(['AbleToScale=True SucceededRescale'])
    expect(a.status.currentMetrics).toBeNull()
    expect(a.proposals).toEqual([])
    const b = runHpa({hpa: hpaView({behavior: {}}), spec: 12, history: undefined, metrics: []})
    expect(b.scaleWrite?.to).toBe(10)
    expect(b.events[0].message).toBe('New size: 10; reason: Current number of replicas above Spec.MaxReplicas')
    expect(b.history).toEqual({recommendations: [{replicas: 12, at: HPA_NOW}], scaleUpEvents: [], scaleDownEvents: [{change: 2, at: HPA_NOW, outdated: false}]})
  })

  it('E15 target at 0 (default gates): ScalingDisabled, desired 0, no write', () => {
    const r = runHpa({hpa: hpaView({}, {currentReplicas: 2, desiredReplicas: 2}), spec: 0, pods: [], metrics: []})
    expect(r.path).toBe('scaling-disabled')
    expect(r.scaleWrite).toBeUndefined()
    expect(r.status).toMatchObject({currentReplicas: 0, desiredReplicas: 0})
    expect(conditionsOf(r.status)).toEqual(['AbleToScale=True SucceededGetScale', 'ScalingActive=False ScalingDisabled'])
    expect(r.status.conditions[1].message).toBe('scaling is disabled since the replica count of the target is zero')
  })

  it('E16 External Value: 75/25 = 3.0 × 3 ready = 9, legacy cap 6; variant with one unready pod → 6 within range', () => {
    const ext: MetricSpec = {type: 'External', external: {metric: {name: 'queue'}, target: {type: 'Value', value: '25'}}}
    const answer = {kind: 'externalValues' as const, items: [{value: '40'}, {value: '35'}]}
    const r = runHpa({hpa: hpaView({metrics: [ext]}), spec: 3, metrics: [answer]})
    expect(r.proposals[0]).toMatchObject({replicas: 9, name: 'external metric queue(nil)', numbers: {ratio: 3, readyCount: 3}})
    expect([r.scaleWrite?.to, r.limit]).toEqual([6, 'ScaleUpLimit'])
    expect(r.status.currentMetrics).toEqual([{type: 'External', external: {metric: {name: 'queue'}, current: {value: '75'}}}])
    const v = runHpa({hpa: hpaView({metrics: [ext]}), spec: 3, pods: [...pods(2), hpaPod('u', {ready: 'False'})], metrics: [answer]})
    expect([v.scaleWrite?.to, v.limit]).toEqual([6, 'DesiredWithinRange'])
  })

  it('E17 Object AverageValue: 1800/(300·3)=2.0 → ceil(1800/300)=6, status 600, named like an external metric', () => {
    const obj: MetricSpec = {
      type: 'Object',
      object: {describedObject: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metric: {name: 'requests-per-second'}, target: {type: 'AverageValue', averageValue: '300'}},
    }
    const r = runHpa({hpa: hpaView({metrics: [obj]}), spec: 4, statusReplicas: 3, metrics: [{kind: 'objectValues', items: [{value: '1800'}]}]})
    expect(r.proposals[0].numbers).toMatchObject({ratio: 2, statusReplicas: 3})
    expect(r.scaleWrite?.to).toBe(6)
    expect(r.status.currentMetrics![0].object!.current).toEqual({averageValue: '600'})
    expect(r.rescaleReason).toBe('external metric requests-per-second(nil) above target')
  })

  it('E18 per-HPA tolerance 50m: 1.06 > 1.05 → 11; with the default 0.1 no write', () => {
    const hpa = hpaView({maxReplicas: 20, behavior: {scaleUp: {tolerance: '50m'}}})
    const r = runHpa({hpa, spec: 10, pods: pods(10), metrics: [sameSamples(10, '530m')]})
    expect(r.scaleWrite?.to).toBe(11)
    const d = runHpa({hpa: hpaView({maxReplicas: 20}), spec: 10, pods: pods(10), metrics: [sameSamples(10, '530m')]})
    expect(d.scaleWrite).toBeUndefined()
    // The gate off: the field is not read.
    const off = runHpa({hpa, spec: 10, pods: pods(10), gates: {HPAConfigurableTolerance: false, HPAScaleToZero: false, PodLevelResources: true}, metrics: [sameSamples(10, '530m')]})
    expect(off.scaleWrite).toBeUndefined()
  })

  it('E19 scale-down Disabled: limit = spec, ReadyForNewScale, ScalingLimited=True ScaleDownLimit', () => {
    const hpa = hpaView({behavior: {scaleDown: {selectPolicy: 'Disabled', stabilizationWindowSeconds: 0}}})
    const r = runHpa({hpa, spec: 6, pods: pods(6), metrics: [sameSamples(6, '100m')]})
    expect([r.best, r.stabilized, r.desired]).toEqual([2, 2, 6])
    expect(r.scaleWrite).toBeUndefined()
    expect(conditionsOf(r.status)).toEqual(['AbleToScale=True ReadyForNewScale', 'ScalingActive=True ValidMetricFound', 'ScalingLimited=True ScaleDownLimit'])
  })

  it('E20 default behavior from 1: limit max(1+4, ceil(2.0))=5; an up event {4} is stored', () => {
    const r = runHpa({hpa: hpaView({behavior: {}}), spec: 1, pods: pods(1), metrics: [sameSamples(1, '5')]})
    expect([r.best, r.scaleWrite?.to, r.limit]).toEqual([10, 5, 'ScaleUpLimit'])
    expect(r.history.scaleUpEvents).toEqual([{change: 4, at: HPA_NOW, outdated: false}])
  })

  it('another HPA registered app=web: AmbiguousSelector, no write', () => {
    const r = runHpa({spec: 3, otherHpaSelectors: [{key: 'ns/other', selector: 'app=web'}], metrics: [sameSamples(3, '1')]})
    expect(r.scaleWrite).toBeUndefined()
    expect(conditionsOf(r.status)[1]).toBe('ScalingActive=False AmbiguousSelector')
    expect(r.status.conditions[1].message).toMatch(/^pods by selector app=web are controlled by multiple HPAs: \[/)
    expect(r.events.map((e) => e.reason)).toEqual(['AmbiguousSelector', 'FailedComputeMetricsReplicas'])
    // validateAndParseSelector registers the selector before the check: the others see it from now on.
    expect(r.selector).toBe('app=web')
  })

  it('validateAndParseSelector: the selector registered only by a sync that parses it (not out of range, not an invalid selector)', () => {
    expect(runHpa({spec: 3, metrics: [sameSamples(3, '500m')]}).selector).toBe('app=web')
    expect(runHpa({spec: 3, selector: 'app in (web', metrics: [sameSamples(3, '500m')]}).selector).toBeUndefined()
    expect(runHpa({spec: 30, metrics: [sameSamples(3, '500m')]}).selector).toBeUndefined()
    expect(runHpa({spec: 0, metrics: []}).selector).toBeUndefined()
  })
})
