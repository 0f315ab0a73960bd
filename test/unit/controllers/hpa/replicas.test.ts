// H1.8 and H2: pod classes, tolerance, requests and the per-metric proposals (replica_calculator.go,
// metrics/client.go, and the computeStatusFor* wrappers of horizontal.go).
import {describe, expect, it} from 'vitest'
import {approximateFloat, formatMilli, milliValue} from '../../../../src/controllers/hpa/defaults.js'
import {DEFAULT_HPA_CONFIG, DEFAULT_HPA_GATES, type HpaPod, type MetricAnswer, type MetricSpec} from '../../../../src/controllers/hpa/model.js'
import {calculateRequests, computeProposal, goSelector, groupPods, isWithin, labelSelectorAsSelectorError, resourceSamples, tolerancesFor, type ProposalContext} from '../../../../src/controllers/hpa/replicas.js'
import {HPA_NOW, CPU_50, ago, cpuSamples, hpaPod, hpaView, pods, sameSamples} from '../../../helpers/hpa.js'

const ctx = (o: Partial<ProposalContext> = {}): ProposalContext => ({
  namespace: 'ns',
  specReplicas: 3,
  statusReplicas: 3,
  pods: pods(3),
  now: HPA_NOW,
  config: DEFAULT_HPA_CONFIG,
  gates: DEFAULT_HPA_GATES,
  tolerances: {down: 0.1, up: 0.1},
  ...o,
})

const samplesOf = (answer: MetricAnswer, resource = 'cpu') => resourceSamples(answer as Extract<MetricAnswer, {kind: 'podMetrics'}>, resource, '')

describe('H1.8 groupPods', () => {
  it('classifies the reference case: ready, unready, missing, ignored (5m/30s, 60 s window, samples 5 s old)', () => {
    const ps: HpaPod[] = [
      hpaPod('r-young', {startedAgo: 200, readySinceAgo: 100}),
      hpaPod('r-old-unready', {startedAgo: 3600, readySinceAgo: 60, ready: 'False'}),
      hpaPod('r-succeeded', {phase: 'Succeeded'}),
      hpaPod('u-young', {startedAgo: 60, readySinceAgo: 50}),
      hpaPod('u-never-ready', {startedAgo: 3600, readySinceAgo: 3590, ready: 'False'}),
      hpaPod('u-pending', {phase: 'Pending'}),
      hpaPod('u-no-condition', {readyCondition: undefined}),
      hpaPod('u-no-start', {startTime: undefined}),
      hpaPod('m-missing'),
      hpaPod('i-failed', {phase: 'Failed'}),
      hpaPod('i-deleted', {deletionTimestamp: ago(1)}),
    ]
    const names = ps.filter((p) => p.name !== 'm-missing').map((p) => [p.name, '100m'])
    const g = groupPods(ps, samplesOf(cpuSamples(Object.fromEntries(names))), 'cpu', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG})
    expect(g.readyCount).toBe(3)
    expect([...g.unready].sort()).toEqual(['u-never-ready', 'u-no-condition', 'u-no-start', 'u-pending', 'u-young'])
    expect([...g.missing]).toEqual(['m-missing'])
    expect([...g.ignored].sort()).toEqual(['i-deleted', 'i-failed'])
  })

  it('within the initialization period: the sample must be a full window after the transition (strict)', () => {
    const p = [hpaPod('a', {startedAgo: 100, readySinceAgo: 65})]
    // sample at now−5: transition + 60 = now−5 → not before → ready; one second later transition → unready.
    expect(groupPods(p, samplesOf(cpuSamples({a: '1'})), 'cpu', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG}).readyCount).toBe(1)
    const q = [hpaPod('a', {startedAgo: 100, readySinceAgo: 64})]
    expect(groupPods(q, samplesOf(cpuSamples({a: '1'})), 'cpu', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG}).unready.size).toBe(1)
    // Ready=Unknown is not False.
    const u = [hpaPod('a', {startedAgo: 200, readySinceAgo: 100, ready: 'Unknown'})]
    expect(groupPods(u, samplesOf(cpuSamples({a: '1'})), 'cpu', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG}).readyCount).toBe(1)
  })

  it('past the period: unready only if it went unready before start + delay (both sides of the edge)', () => {
    const at = (readySinceAgo: number) => groupPods([hpaPod('a', {startedAgo: 1000, readySinceAgo, ready: 'False'})], samplesOf(cpuSamples({a: '1'})), 'cpu', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG})
    expect(at(971).unready.size).toBe(1) // start + 30 > transition
    expect(at(970).readyCount).toBe(1) // start + 30 == transition: not After
  })

  it('non-CPU metrics never read the Ready condition', () => {
    const g = groupPods([hpaPod('a', {startedAgo: 10, readySinceAgo: 10, ready: 'False'})], samplesOf(cpuSamples({a: '1Mi'}, 'memory'), 'memory'), 'memory', {now: HPA_NOW, config: DEFAULT_HPA_CONFIG})
    expect(g.readyCount).toBe(1)
  })
})

describe('H2.2 tolerance (tolerancesForHpa, Tolerances.isWithin)', () => {
  it('inclusive bounds on both sides', () => {
    const t = {down: 0.1, up: 0.1}
    expect([isWithin(0.9, t), isWithin(0.8999, t), isWithin(1.1, t), isWithin(55 / 50, t), isWithin(1.1001, t)]).toEqual([true, false, true, true, false])
  })
  it('per-direction tolerances from behavior only with HPAConfigurableTolerance', () => {
    const spec = hpaView({behavior: {scaleUp: {tolerance: '50m'}, scaleDown: {tolerance: '300m'}}}).spec
    expect(tolerancesFor(spec, 0.1, DEFAULT_HPA_GATES)).toEqual({down: 0.3, up: 0.05})
    expect(tolerancesFor(spec, 0.1, {...DEFAULT_HPA_GATES, HPAConfigurableTolerance: false})).toEqual({down: 0.1, up: 0.1})
    expect(tolerancesFor(hpaView().spec, 0.2, DEFAULT_HPA_GATES)).toEqual({down: 0.2, up: 0.2})
  })
  it('AsApproximateFloat64 of stored tolerances', () => {
    expect([approximateFloat('50m'), approximateFloat('0.3'), approximateFloat('1'), approximateFloat('1500m')]).toEqual([0.05, 0.3, 1, 1.5])
  })
})

describe('quantities (MilliValue, NewMilliQuantity)', () => {
  it('milli values round up; canonical strings', () => {
    expect([milliValue('1.0005'), milliValue('500m'), milliValue('10Mi'), milliValue('1')]).toEqual([1001n, 500n, 10485760000n, 1000n])
    expect([formatMilli(450n), formatMilli(1000n), formatMilli(10485760000n, 'BinarySI'), formatMilli(1500n, 'BinarySI')]).toEqual(['450m', '1', '10Mi', '1500m'])
  })
})

describe('H2.3 requests (calculateRequests)', () => {
  const base = hpaPod('a')
  it('sums regular containers and restartable init containers', () => {
    const p = {...base, sidecars: [{name: 'side', requests: {cpu: '250m'}}]}
    expect(calculateRequests([p], '', 'cpu', true).get('a')).toBe(1250n)
    expect(calculateRequests([p], 'side', 'cpu', true).get('a')).toBe(250n)
  })
  it('errors: missing request, container not found, missing pod-level request', () => {
    expect(() => calculateRequests([{...base, containers: [{name: 'app', requests: {}}]}], '', 'cpu', true)).toThrow('missing request for cpu in container app of Pod a')
    expect(() => calculateRequests([base], 'nope', 'cpu', true)).toThrow('container nope not found in Pod a')
    expect(() => calculateRequests([{...base, podRequests: {memory: '1Gi'}}], '', 'cpu', true)).toThrow('missing pod-level request for cpu in Pod a')
  })
  it('pod-level requests only with the gate and without a container name', () => {
    const p = {...base, podRequests: {cpu: '3'}}
    expect(calculateRequests([p], '', 'cpu', true).get('a')).toBe(3000n)
    expect(calculateRequests([p], '', 'cpu', false).get('a')).toBe(1000n)
    expect(calculateRequests([p], 'app', 'cpu', true).get('a')).toBe(1000n)
  })
})

describe('H2.3 / H2.4 resource proposals (GetResourceReplicas, GetRawResourceReplicas)', () => {
  it('a missing request fails the metric, even on an ignored pod', () => {
    const ps = [...pods(2), hpaPod('f', {phase: 'Failed', containers: [{name: 'app', requests: {}}]})]
    const p = computeProposal(CPU_50, 0, sameSamples(2, '1'), ctx({pods: ps, specReplicas: 2}))
    expect(p.error).toEqual({
      reason: 'FailedGetResourceMetric',
      message: 'failed to get cpu utilization: missing request for cpu in container app of Pod f',
      wrapped: 'failed to get cpu resource metric value: failed to get cpu utilization: missing request for cpu in container app of Pod f',
    })
    expect(p.status).toEqual({type: ''})
  })
  it('no pods, no samples left, empty answer, fetch error', () => {
    const err = (o: Partial<ProposalContext>, a: MetricAnswer) => computeProposal(CPU_50, 0, a, ctx(o)).error?.message
    expect(err({pods: []}, sameSamples(1, '1'))).toBe('failed to get cpu utilization: no pods returned by selector while calculating replica count')
    expect(err({pods: pods(1, {phase: 'Pending'})}, sameSamples(1, '1'))).toBe('failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)')
    expect(err({}, {kind: 'podMetrics', items: []})).toBe('failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API')
    expect(err({}, {kind: 'error', message: 'boom'})).toBe('failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: boom')
  })
  it('ignored pods drop their samples; the proposal counts ready pods only', () => {
    const ps = [...pods(2), hpaPod('x', {deletionTimestamp: ago(1)})]
    const p = computeProposal(CPU_50, 0, cpuSamples({p0: '1', p1: '1', x: '5'}), ctx({pods: ps, specReplicas: 3}))
    expect(p.numbers).toMatchObject({utilization: 100, readyCount: 2, ignored: 1, path: 'fast'})
    expect(p.replicas).toBe(4)
  })
  it('unready pods on scale-down stay excluded (fast path when nothing is missing)', () => {
    const ps = [...pods(2), hpaPod('u', {phase: 'Pending'})]
    const p = computeProposal(CPU_50, 0, cpuSamples({p0: '100m', p1: '100m'}), ctx({pods: ps}))
    expect(p.numbers).toMatchObject({path: 'fast', ratio: 0.2})
    expect(p.replicas).toBe(1) // ceil(0.2 × 2)
  })
  it('missing fill on scale-down uses max(100, target) percent of the request', () => {
    const m: MetricSpec = {type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 150}}}
    const p = computeProposal(m, 0, cpuSamples({p0: '100m', p1: '100m'}), ctx())
    // 10% → 0.0666; missing p2 = 1500m → 1700/3000 = 56% → 0.3733 → ceil(1.12) = 2
    expect(p.numbers).toMatchObject({utilization: 10, newRatio: 56 / 150})
    expect(p.replicas).toBe(2)
  })
  it('ratio exactly 1 with missing pods: no fill, kept at spec', () => {
    const p = computeProposal(CPU_50, 0, cpuSamples({p0: '500m', p1: '500m'}), ctx())
    expect(p.numbers).toMatchObject({ratio: 1, newRatio: 1, keptCurrent: true})
    expect(p.replicas).toBe(3)
  })
  it('ContainerResource reads one container, names itself, and a pod without that container is missing', () => {
    const m: MetricSpec = {type: 'ContainerResource', containerResource: {name: 'cpu', container: 'app', target: {type: 'Utilization', averageUtilization: 50}}}
    const answer: MetricAnswer = {
      kind: 'podMetrics',
      items: ['p0', 'p1', 'p2'].map((name) => ({name, timestamp: ago(5), windowSeconds: 60, containers: [{name: name === 'p2' ? 'other' : 'app', usage: {cpu: '1'}}]})),
    }
    const p = computeProposal(m, 0, answer, ctx())
    expect(p.name).toBe('cpu container resource utilization (percentage of request)')
    expect(p.numbers).toMatchObject({missing: 1, path: 'corrected'})
    expect(p.status).toEqual({type: 'ContainerResource', containerResource: {name: 'cpu', container: 'app', current: {averageUtilization: 100, averageValue: '1'}}})
    expect(computeProposal(m, 0, {kind: 'error', message: 'x'}, ctx()).error?.wrapped).toMatch(/^failed to get app container metric value: /)
  })
  it('a pod whose sample lacks the resource in any container is missing (getPodMetrics)', () => {
    const answer: MetricAnswer = {kind: 'podMetrics', items: [{name: 'a', timestamp: ago(5), windowSeconds: 60, containers: [{name: 'app', usage: {cpu: '1'}}, {name: 's', usage: {}}]}]}
    expect(samplesOf(answer).size).toBe(0)
  })
  it('AverageValue memory: plain average, BinarySI status, name "<res> resource"', () => {
    const m: MetricSpec = {type: 'Resource', resource: {name: 'memory', target: {type: 'AverageValue', averageValue: '20Mi'}}}
    const p = computeProposal(m, 0, cpuSamples({p0: '10Mi', p1: '10Mi', p2: '10Mi'}, 'memory'), ctx({specReplicas: 4, pods: pods(3)}))
    expect(p.name).toBe('memory resource')
    expect(p.status).toEqual({type: 'Resource', resource: {name: 'memory', current: {averageValue: '10Mi'}}})
    expect(p.replicas).toBe(2) // 0.5 × 3 ready
  })
  it('neither target set', () => {
    const m: MetricSpec = {type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization'}}}
    expect(computeProposal(m, 0, sameSamples(3, '1'), ctx()).error?.message).toBe(
      'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
    )
  })
})

describe('H2.5 Pods metrics (GetMetricReplicas, calcPlainMetricReplicas)', () => {
  const RPS: MetricSpec = {type: 'Pods', pods: {metric: {name: 'rps'}, target: {type: 'AverageValue', averageValue: '10'}}}
  const values = (v: Record<string, string>): MetricAnswer => ({kind: 'podValues', items: Object.entries(v).map(([pod, value]) => ({pod, value}))})
  it('missing pods count as the target on scale-down', () => {
    const p = computeProposal(RPS, 0, values({p0: '2', p1: '2', p2: '2'}), ctx({specReplicas: 4, pods: pods(4)}))
    expect(p.numbers).toMatchObject({ratio: 0.2, newRatio: 0.4})
    expect(p.replicas).toBe(2)
  })
  it('no readiness test: a young Ready=False pod counts', () => {
    const p = computeProposal(RPS, 0, values({a: '20'}), ctx({specReplicas: 1, pods: [hpaPod('a', {startedAgo: 5, readySinceAgo: 5, ready: 'False'})]}))
    expect(p.replicas).toBe(2)
  })
  it('extraneous samples count: a corrected proposal above spec on a scale-down keeps spec', () => {
    const p = computeProposal(RPS, 0, values({p0: '5', x0: '5', x1: '5', x2: '5'}), ctx({specReplicas: 2, pods: pods(2)}))
    expect(p.numbers).toMatchObject({ratio: 0.5, newRatio: 0.6, samples: 5, keptCurrent: true})
    expect(p.replicas).toBe(2)
  })
  it('errors: empty answer', () => {
    expect(computeProposal(RPS, 0, values({}), ctx()).error).toEqual({
      reason: 'FailedGetPodsMetric',
      message: 'unable to get metric rps: no metrics returned from custom metrics API',
      wrapped: 'failed to get pods metric value: unable to get metric rps: no metrics returned from custom metrics API',
    })
  })
})

describe('H2.6–H2.9 Object and External metrics (GetObjectMetricReplicas, getUsageRatioReplicaCount, getReadyPodsCount, GetObjectPerPodMetricReplicas, GetExternalMetricReplicas, GetExternalPerPodMetricReplicas)', () => {
  const obj = (target: MetricSpec extends never ? never : {type: string; value?: string; averageValue?: string}): MetricSpec => ({
    type: 'Object',
    object: {describedObject: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metric: {name: 'rps'}, target},
  })
  const one = (value: string): MetricAnswer => ({kind: 'objectValues', items: [{value}]})
  it('Value: within tolerance keeps spec without listing pods; otherwise ceil(ratio × Running-and-Ready pods)', () => {
    expect(computeProposal(obj({type: 'Value', value: '100'}), 0, one('105'), ctx({pods: []})).replicas).toBe(3)
    const p = computeProposal(obj({type: 'Value', value: '100'}), 0, one('200'), ctx({pods: [...pods(2), hpaPod('u', {ready: 'False'})]}))
    expect([p.replicas, p.name, p.status.object?.current]).toEqual([4, 'Service metric rps', {value: '200'}])
  })
  it('Value: no Ready pods proposes 0; no pods at all is an error', () => {
    expect(computeProposal(obj({type: 'Value', value: '100'}), 0, one('200'), ctx({pods: pods(2, {ready: 'False'})})).replicas).toBe(0)
    expect(computeProposal(obj({type: 'Value', value: '100'}), 0, one('200'), ctx({pods: []})).error?.message).toBe(
      'unable to calculate ready pods: no pods returned by selector while calculating replica count',
    )
  })
  it('Value from zero (H6): ceil(ratio), no tolerance', () => {
    expect(computeProposal(obj({type: 'Value', value: '10'}), 0, one('25'), ctx({specReplicas: 0, pods: []})).replicas).toBe(3)
  })
  it('target type and field must agree; exactly one item', () => {
    expect(computeProposal(obj({type: 'AverageValue', value: '10'}), 0, one('1'), ctx()).error?.message).toBe(
      'invalid object metric source: neither a value target nor an average value target was set',
    )
    const two: MetricAnswer = {kind: 'objectValues', items: [{value: '1'}, {value: '2'}]}
    expect(computeProposal(obj({type: 'Value', value: '10'}), 0, two, ctx()).error?.message).toBe(
      'unable to get metric rps: Service on ns front/unable to fetch metrics from custom metrics API: the custom metrics API server returned 2 results when we asked for exactly one',
    )
    expect(computeProposal(obj({type: 'AverageValue', averageValue: '10'}), 0, {kind: 'error', message: 'x'}, ctx()).error?.wrapped).toBe(
      'failed to get object metric value: failed to get rps object metric: unable to get metric rps: Service on ns front/unable to fetch metrics from custom metrics API: x',
    )
  })
  it('AverageValue within tolerance keeps status.replicas', () => {
    expect(computeProposal(obj({type: 'AverageValue', averageValue: '100'}), 0, one('310'), ctx({specReplicas: 5, statusReplicas: 3})).replicas).toBe(3)
  })
  const ext = (target: {type: string; value?: string; averageValue?: string}, selector?: {matchLabels: Record<string, string>}): MetricSpec => ({
    type: 'External',
    external: {metric: {name: 'queue', selector}, target},
  })
  const vals = (...v: string[]): MetricAnswer => ({kind: 'externalValues', items: v.map((value) => ({value}))})
  it('External AverageValue: sum over status.replicas, ceil average', () => {
    const p = computeProposal(ext({type: 'AverageValue', averageValue: '10'}), 0, vals('40', '35'), ctx({statusReplicas: 2}))
    expect([p.replicas, p.status.external?.current]).toEqual([8, {averageValue: '37500m'}])
  })
  it('External errors and the Go form of the selector', () => {
    const sel = {matchLabels: {queue: 'a'}}
    expect(goSelector(sel)).toBe('&LabelSelector{MatchLabels:map[string]string{queue: a,},MatchExpressions:[]LabelSelectorRequirement{},}')
    const p = computeProposal(ext({type: 'Value', value: '10'}, sel), 0, vals(), ctx())
    expect(p.error?.message).toBe(`unable to get external metric ns/queue/${goSelector(sel)}: no metrics returned from external metrics API`)
    expect(p.error?.wrapped).toBe(`failed to get queue external metric value: failed to get external metric queue: ${p.error?.message}`)
    expect(computeProposal(ext({type: 'Value'}), 0, vals('1'), ctx()).error?.message).toBe('invalid external metric source: neither a value target nor an average value target was set')
  })
  it('a value that is not a quantity is an answer the client cannot decode; status.replicas 0 does not throw', () => {
    expect(computeProposal(CPU_50, 0, cpuSamples({p0: 'lots'}), ctx()).error?.message).toMatch(/^failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: quantities must match/)
    const p = computeProposal(ext({type: 'AverageValue', averageValue: '10'}), 0, vals('40'), ctx({statusReplicas: 0}))
    expect(p.replicas).toBe(4)
  })
  it('an invalid metric selector fails the metric before any fetch (LabelSelectorAsSelector)', () => {
    const badSel = {matchExpressions: [{key: 'q', operator: 'In' as const, values: []}]}
    const pods: MetricSpec = {type: 'Pods', pods: {metric: {name: 'rps', selector: badSel}, target: {type: 'AverageValue', averageValue: '1'}}}
    const p = computeProposal(pods, 0, {kind: 'podValues', items: [{pod: 'p0', value: '1'}]}, ctx())
    expect(p.error?.reason).toBe('FailedGetPodsMetric')
    expect(p.error?.wrapped).toBe(`failed to get pods metric value: ${p.error?.message}`)
    const e = computeProposal(ext({type: 'Value', value: '1'}, badSel as never), 0, vals('1'), ctx())
    expect(e.error?.wrapped).toBe(`failed to get queue external metric value: failed to get external metric queue: ${e.error?.message}`)
    expect(e.error?.message).not.toMatch(/^unable to get external metric/)
  })
  it('an unknown type and a metric the planner did not read', () => {
    expect(computeProposal({type: 'Foo'}, 0, {kind: 'missing'}, ctx()).error).toEqual({reason: 'InvalidMetricSourceType', message: 'unknown metric source type "Foo"', wrapped: 'unknown metric source type "Foo"'})
    expect(computeProposal(CPU_50, 0, {kind: 'missing'}, ctx()).error?.reason).toBe('FailedGetResourceMetric')
  })
})

describe('LabelSelectorAsSelector (a metric selector, as labels.NewRequirement words its errors)', () => {
  it('a valid selector has no error', () => {
    expect(labelSelectorAsSelectorError({matchLabels: {path: 'a'}})).toBeUndefined()
    expect(labelSelectorAsSelectorError(undefined)).toBeUndefined()
  })
  it('an invalid label value, as the controller reported it live', () => {
    expect(labelSelectorAsSelectorError({matchLabels: {path: '/a'}})).toBe(
      `values[0][path]: Invalid value: "/a": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    )
  })
  it('an invalid key name, an empty In list, several errors as a list, an unknown operator', () => {
    expect(labelSelectorAsSelectorError({matchExpressions: [{key: 'a b', operator: 'Exists'}]})).toBe(
      `key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    )
    expect(labelSelectorAsSelectorError({matchExpressions: [{key: 'q', operator: 'In', values: []}]})).toBe(`values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`)
    expect(labelSelectorAsSelectorError({matchExpressions: [{key: 'q', operator: 'In', values: ['-x', 'ok', 'y-']}]})).toMatch(/^\[values\[0\]\[q\]: Invalid value: "-x": .*, values\[2\]\[q\]: Invalid value: "y-": .*\]$/)
    expect(labelSelectorAsSelectorError({matchExpressions: [{key: 'q', operator: 'in' as 'In', values: ['a']}]})).toBe('"in" is not a valid label selector operator')
  })
})
