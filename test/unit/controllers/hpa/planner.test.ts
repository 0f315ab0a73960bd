// The HPA planned from files (src/controllers/hpa/planner.ts): the scale target read as its scale
// subresource shows it (scaleForResourceMappings), the metrics fixtures' answers, one sync
// (reconcileAutoscaler) as a freshly started controller runs it, and the target's next sync.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {CustomMetricFixture, HpaObject, PodMetricsFixture} from '../../../../src/controllers/hpa/model.js'
import {metricAnswers} from '../../../../src/controllers/hpa/planner.js'
import {CARRIED_OUT} from '../../../../src/controllers/registry.js'
import type {PodView, Snapshot} from '../../../../src/model/objects.js'
import {DEFAULT_FEATURE_GATES, type ControllerPlan} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'

const ROOT = join(import.meta.dirname, '../../../..')
const WEB = readFileSync(join(ROOT, 'examples/hpa/web.yaml'), 'utf8')
const METRICS = readFileSync(join(ROOT, 'examples/hpa/metrics.yaml'), 'utf8')
const NOW = '2026-11-22T10:00:00Z'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-plan-hpa-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))
let n = 0

async function planOf(...texts: string[]): Promise<{hpa: ControllerPlan; all: ControllerPlan[]}> {
  const paths = texts.map((t) => {
    const file = join(tmp, `f${n++}.yaml`)
    writeFileSync(file, t)
    return file
  })
  const plan = planSnapshot(await readFixtures({paths}), {now: NOW, featureGates: DEFAULT_FEATURE_GATES, burstReplicas: 500})
  const hpa = plan.controllers.find((c) => c.kind === 'HorizontalPodAutoscaler')
  if (!hpa) throw new Error('no HPA plan')
  return {hpa, all: plan.controllers}
}

/** The example's HPA alone, its spec edited. */
const hpaOnly = (edit: (s: string) => string = (s) => s) => edit(WEB.slice(WEB.indexOf('apiVersion: autoscaling/v2')))
const withoutHpa = WEB.slice(0, WEB.indexOf('---\napiVersion: autoscaling/v2'))

describe('the HPA planned from files', () => {
  it('examples/hpa: 100% of the CPU requested against 50% scales the Deployment 3 → 6, then the Deployment grows its ReplicaSet', async () => {
    const {hpa} = await planOf(WEB, METRICS)
    expect(hpa.actions.map((a) => (a.type === 'scaleTarget' ? `${a.type} ${a.target.kind}/${a.target.name} ${a.from}->${a.to}` : a.type))).toEqual([
      'scaleTarget Deployment/web 3->6',
      'updateHpaStatus',
    ])
    expect({desired: hpa.desired, active: hpa.active, inSync: hpa.inSync}).toEqual({desired: 6, active: 3, inSync: false})
    expect(hpa.hpa!.proposals.map((p) => [p.replicas, p.numbers.utilization, p.numbers.readyCount])).toEqual([[6, 100, 3]])
    expect(hpa.assumes!.join(' ')).toMatch(/no recommendations for this HPA/)
    // The following step: the Deployment controller's sync at replicas 6, and its ReplicaSet's.
    const next = hpa.then!
    expect(next.map((p) => `${p.kind}/${p.name} ${p.desired}`)).toEqual(['Deployment/web 6'])
    expect(next[0].actions.filter((a) => a.type === 'scaleReplicaSet').map((a) => a.type === 'scaleReplicaSet' && `${a.replicaSet} ${a.from}->${a.to}`)).toEqual(['web-5794467bd5 3->6'])
    expect(next[0].then?.[0].actions.filter((a) => a.type === 'create')).toHaveLength(3)
  })

  it('the Deployment of the snapshot itself is untouched by the chain: its own plan stays in sync at 3', async () => {
    const {all} = await planOf(WEB, METRICS)
    const d = all.find((c) => c.kind === 'Deployment')!
    expect({desired: d.desired, inSync: d.inSync}).toEqual({desired: 3, inSync: true})
  })

  it('a metric kctl cannot find is named, and no proposal is guessed: nothing is scaled', async () => {
    const {hpa} = await planOf(WEB)
    expect(hpa.actions.some((a) => a.type === 'scaleTarget')).toBe(false)
    expect(hpa.hpa!.missing).toEqual([{index: 0, type: 'Resource', name: 'cpu'}])
    expect(hpa.warnings.join('\n')).toMatch(/FailedGetResourceMetric/)
    expect(hpa.assumes!.join('\n')).toMatch(/metric 0 \(Resource\) was not read/)
    expect(hpa.desired).toBe(3)
  })

  it('a scale target not in the input: FailedGetScale, named in the warnings, no write to any target', async () => {
    const {hpa} = await planOf(hpaOnly(), METRICS)
    expect(hpa.warnings[0]).toBe('the scale target Deployment/web is not in the input')
    expect(hpa.warnings).toContain('FailedGetScale: deployments.apps "web" not found')
    expect(hpa.actions.map((a) => a.type)).toEqual(['updateHpaStatus'])
    expect(hpa.hpa!.path).toBe('failed-get-scale')
  })

  it('only the group of scaleTargetRef.apiVersion is read: none is the core group, where no Deployment is served', async () => {
    const {hpa} = await planOf(withoutHpa, hpaOnly((s) => s.replace('    apiVersion: apps/v1\n    kind: Deployment', '    kind: Deployment')), METRICS)
    expect(hpa.warnings).toContain('FailedGetScale: no matches for kind "Deployment" in group ""')
    expect(hpa.actions.some((a) => a.type === 'scaleTarget')).toBe(false)
  })

  it('a target below minReplicas is scaled to it without metrics (reconcileAutoscaler pre-check)', async () => {
    const {hpa} = await planOf(withoutHpa, hpaOnly((s) => s.replace('minReplicas: 2', 'minReplicas: 4')))
    const scale = hpa.actions.find((a) => a.type === 'scaleTarget')
    expect(scale).toMatchObject({from: 3, to: 4, reason: 'Current number of replicas below Spec.MinReplicas'})
    expect(hpa.hpa!.path).toBe('out-of-range')
    expect(hpa.hpa!.missing).toEqual([])
  })

  it('an External metric answered by an ExternalMetricValueList whose labels match the metric selector', async () => {
    const external = (selector: string) =>
      hpaOnly((s) =>
        s.replace(
          /  metrics:\n[\s\S]*?averageUtilization: 50\n/,
          `  metrics:\n    - type: External\n      external:\n        metric:\n          name: queue_depth\n          selector: {matchLabels: {queue: ${selector}}}\n        target:\n          type: AverageValue\n          averageValue: "10"\n`,
        ),
      )
    const values = `kind: ExternalMetricValueList
apiVersion: external.metrics.k8s.io/v1beta1
metadata: {}
items:
  - {metricName: queue_depth, metricLabels: {queue: orders}, timestamp: "2026-11-22T09:59:50Z", value: "42"}
`
    const found = (await planOf(withoutHpa, external('orders'), values)).hpa
    // GetExternalPerPodMetricReplicas: ceil(42 / 10) = 5.
    expect(found.actions.find((a) => a.type === 'scaleTarget')).toMatchObject({from: 3, to: 5})
    const other = (await planOf(withoutHpa, external('billing'), values)).hpa
    expect(other.hpa!.missing).toEqual([{index: 0, type: 'External', name: 'queue_depth'}])
    expect(other.actions.some((a) => a.type === 'scaleTarget')).toBe(false)
  })

  it('metricAnswers: a custom metric value answers an Object metric only if asked with the same metric selector', async () => {
    const object = (selector: string) =>
      hpaOnly((s) =>
        s.replace(
          /  metrics:\n[\s\S]*?averageUtilization: 50\n/,
          `  metrics:\n    - type: Object\n      object:\n        describedObject: {apiVersion: v1, kind: Service, name: front}\n        metric:\n          name: rps\n${selector}        target: {type: Value, value: "10"}\n`,
        ),
      )
    const values = `kind: MetricValueList
apiVersion: custom.metrics.k8s.io/v1beta2
metadata: {}
items:
  - {describedObject: {kind: Service, namespace: autoscale, name: front, apiVersion: v1}, metric: {name: rps, selector: {matchLabels: {path: a}}}, timestamp: "2026-11-22T09:59:50Z", value: "50"}
  - {describedObject: {kind: Service, namespace: autoscale, name: front, apiVersion: v1}, metric: {name: rps}, timestamp: "2026-11-22T09:59:50Z", value: "20"}
`
    const scaleOf = (p: ControllerPlan) => p.actions.find((a) => a.type === 'scaleTarget')
    // With the selector: 50 / 10 = 5 × 3 ready pods = 15, limited to max(2 × 3, 4) = 6; without: 20 / 10 × 3 = 6.
    const selected = (await planOf(withoutHpa, object('          selector: {matchLabels: {path: a}}\n'), values)).hpa
    expect(scaleOf(selected)?.to).toBe(6)
    expect(selected.status).toMatchObject({currentMetrics: [{type: 'Object', object: {current: {value: '50'}}}]})
    const plain = (await planOf(withoutHpa, object(''), values)).hpa
    expect(plain.hpa!.proposals[0]).toMatchObject({replicas: 6})
    expect(plain.status).toMatchObject({currentMetrics: [{type: 'Object', object: {current: {value: '20'}}}]})
    const other = (await planOf(withoutHpa, object('          selector: {matchLabels: {path: b}}\n'), values)).hpa
    expect(other.hpa!.missing).toEqual([{index: 0, type: 'Object', name: 'rps'}])
  })

  it('is carried out by kctl reconcile, with the other controllers', () => {
    expect(CARRIED_OUT).toContain('horizontalpodautoscaling')
    expect(CARRIED_OUT).toContain('deployment')
  })
})

describe('metricAnswers on a namespace of many samples', () => {
  const ns = (i: number) => (i % 5 === 4 ? 'other' : 'autoscale')
  const labels = (i: number) => (i % 3 === 0 ? {app: 'web'} : i % 3 === 1 ? {app: 'api'} : undefined)
  const podMetrics: PodMetricsFixture[] = Array.from({length: 40}, (_, i) => ({
    name: `pod-${i}`,
    namespace: ns(i),
    ...(labels(i) ? {labels: labels(i)} : {}),
    timestamp: '2026-11-22T09:59:50Z',
    windowSeconds: 30,
    containers: [{name: 'main', usage: {cpu: `${i}m`}}],
  }))
  const customMetrics: CustomMetricFixture[] = Array.from({length: 40}, (_, i) => ({
    describedObject: {kind: 'Pod', namespace: ns(i), name: `pod-${i % 20}`},
    metric: i % 7 === 6 ? 'other_metric' : 'packets',
    value: String(i),
  }))
  const hpa = {
    namespace: 'autoscale',
    name: 'web',
    spec: {
      metrics: [
        {type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 50}}},
        {type: 'Pods', pods: {metric: {name: 'packets'}, target: {type: 'AverageValue', averageValue: '10'}}},
      ],
    },
  } as unknown as HpaObject
  // The target's pods, listed out of the input's order.
  const pods = [17, 3, 8, 0, 12].map((i) => ({name: `pod-${i}`, namespace: 'autoscale'}) as PodView)
  const snapshot = {podMetrics, customMetrics} as unknown as Snapshot

  it('answers with the samples of the selected pods of the HPA namespace, in the input order', () => {
    const [resource, perPod] = metricAnswers(hpa, snapshot, 'app in (web,db)', pods)
    // Labelled samples by the selector; unlabelled ones by the target's pod names.
    const selected = podMetrics.filter((m) => m.namespace === 'autoscale' && (m.labels ? m.labels.app === 'web' : pods.some((p) => p.name === m.name)))
    expect(selected.length).toBeGreaterThan(5)
    expect(resource).toEqual({kind: 'podMetrics', items: selected.map(({name, timestamp, windowSeconds, containers}) => ({name, timestamp, windowSeconds, containers}))})
    const values = customMetrics.filter((v) => v.describedObject.namespace === 'autoscale' && v.metric === 'packets' && pods.some((p) => p.name === v.describedObject.name))
    expect(values.map((v) => v.value)).toEqual(['0', '3', '8', '12', '17', '23', '28', '32', '37'])
    expect(perPod).toEqual({kind: 'podValues', items: values.map((v) => ({pod: v.describedObject.name, value: v.value}))})
  })

  it('a selector without an equality requirement reads every sample of the namespace', () => {
    const [resource] = metricAnswers(hpa, snapshot, 'app notin (api)', pods)
    const selected = podMetrics.filter((m) => m.namespace === 'autoscale' && (m.labels ? m.labels.app !== 'api' : pods.some((p) => p.name === m.name)))
    expect(resource.kind === 'podMetrics' && resource.items.map((i) => i.name)).toEqual(selected.map((m) => m.name))
  })
})

describe("the following step among other ReplicaSets of the target's namespace", () => {
  const docs = WEB.split('\n---\n')
  const rs = docs.find((d) => d.includes('kind: ReplicaSet'))!
  const owners = rs.slice(rs.indexOf('  ownerReferences:'), rs.indexOf('spec:'))
  // An orphan the Deployment's selector matches (adopted), one another Deployment controls, one of another app.
  const orphan = rs.replace('name: web-5794467bd5', 'name: web-old').replace(/9d02/g, '9e01').replace(owners, '').replace(/"5794467bd5"/g, '"old"').replace('  replicas: 3\n  selector', '  replicas: 0\n  selector')
  const foreign = rs.replace('name: web-5794467bd5', 'name: web-5794467bd5-x').replace(/9d02/g, '9e02').replace(/9d01/g, '9e03').replace('name: web\n', 'name: web-x\n')
  const other = rs.replace(/web-5794467bd5/g, 'api-1').replace(/9d02/g, '9e04').replace(/app: web/g, 'app: api').replace(/9d01/g, '9e05')
  const world = [docs.join('\n---\n'), orphan, foreign, other].join('\n---\n')

  it("is the Deployment controller's own plan of the target at the HPA's size", async () => {
    const {hpa} = await planOf(world, METRICS)
    expect(hpa.then?.map((p) => `${p.kind}/${p.name} ${p.desired}`)).toEqual(['Deployment/web 6'])
    // The same Deployment read at replicas 6, without the HPA.
    const resized = world.slice(0, world.indexOf('---\napiVersion: autoscaling/v2')).replace('spec:\n  replicas: 3', 'spec:\n  replicas: 6') + world.slice(world.indexOf('---', world.indexOf('kind: HorizontalPodAutoscaler')))
    const plan = planSnapshot(await readFixtures({paths: [writeInput(resized)]}), {now: NOW, featureGates: DEFAULT_FEATURE_GATES, burstReplicas: 500})
    const own = plan.controllers.find((c) => c.kind === 'Deployment' && c.name === 'web')!
    expect(own.actions.some((a) => a.type === 'adoptReplicaSet')).toBe(true)
    expect(hpa.then![0]).toEqual(own)
  })
})

function writeInput(text: string): string {
  const file = join(tmp, `f${n++}.yaml`)
  writeFileSync(file, text)
  return file
}
