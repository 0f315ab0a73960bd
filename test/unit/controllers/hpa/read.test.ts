// HPAs and metrics fixtures read from files (src/controllers/hpa/read.ts): autoscaling/v2 defaulted
// as SetDefaults_HorizontalPodAutoscaler does, autoscaling/v1 converted, refusals at the field the
// API server names, and the three metrics APIs' lists as `kubectl get --raw` prints them.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {UserError} from '../../../../src/errors.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-read-hpa-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

let n = 0
function fixture(text: string): string {
  const file = join(tmp, `f${n++}.yaml`)
  writeFileSync(file, text)
  return file
}

async function errorLine(text: string): Promise<string> {
  try {
    await readFixtures({paths: [fixture(text)]})
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}

const HPA = (spec: string, apiVersion = 'autoscaling/v2') => `apiVersion: ${apiVersion}
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
${spec}`

/** An autoscaling/v1 HPA with these annotations (their text as stored), then `tail` (the rest of its spec, a status). */
const V1_HPA = (annotations: Record<string, string>, tail: string) => `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
  annotations:
${Object.entries(annotations).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`).join('\n')}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
${tail}`

describe('Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler (the v1 annotations)', () => {
  const v1 = (annotations: Record<string, unknown>, spec = '  maxReplicas: 6\n  targetCPUUtilizationPercentage: 60') =>
    V1_HPA(Object.fromEntries(Object.entries(annotations).map(([k, v]) => [k, JSON.stringify(v)])), spec)

  it('the metrics annotation: each v1 metric converted, before the CPU target; the target type follows the value set', async () => {
    const s = await readFixtures({
      paths: [
        fixture(
          v1({
            'autoscaling.alpha.kubernetes.io/metrics': [
              {type: 'External', external: {metricName: 'queue', metricSelector: {matchLabels: {q: 'a'}}, targetAverageValue: '5'}},
              {type: 'Object', object: {target: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metricName: 'rps', targetValue: '0', averageValue: '3'}},
              {type: 'Pods', pods: {metricName: 'packets', targetAverageValue: '10'}},
              {type: 'Resource', resource: {name: 'memory', targetAverageValue: '100Mi'}},
            ],
          }),
        ),
      ],
    })
    expect(s.hpas![0].spec.metrics).toEqual([
      {type: 'External', external: {metric: {name: 'queue', selector: {matchLabels: {q: 'a'}}}, target: {type: 'AverageValue', averageValue: '5'}}},
      {type: 'Object', object: {describedObject: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metric: {name: 'rps'}, target: {type: 'AverageValue', averageValue: '3'}}},
      {type: 'Pods', pods: {metric: {name: 'packets'}, target: {type: 'AverageValue', averageValue: '10'}}},
      {type: 'Resource', resource: {name: 'memory', target: {type: 'AverageValue', averageValue: '100Mi'}}},
      {type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 60}}},
    ])
  })

  it('the behavior annotation (field names matched without regard to case), defaulted as v2; one that does not decode is ignored', async () => {
    const s = await readFixtures({paths: [fixture(v1({'autoscaling.alpha.kubernetes.io/behavior': {ScaleDown: {StabilizationWindowSeconds: 0, selectPolicy: 'Min', Policies: [{Type: 'Pods', Value: 2, PeriodSeconds: 30}]}}}))]})
    expect(s.hpas![0].spec.behavior).toEqual({
      scaleUp: {stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{type: 'Pods', value: 4, periodSeconds: 15}, {type: 'Percent', value: 100, periodSeconds: 15}]},
      scaleDown: {stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{type: 'Pods', value: 2, periodSeconds: 30}]},
    })
    // Not defaulted before validation (as v2 is): a direction without policies is refused, as the API server refuses it.
    expect(await errorLine(v1({'autoscaling.alpha.kubernetes.io/behavior': {scaleUp: {selectPolicy: 'Disabled'}}}))).toMatch(/behavior.*scaleUp.*policies.*must specify at least one Policy/)
    const bad = await readFixtures({paths: [fixture(v1({}).replace('  annotations:\n', "  annotations:\n    autoscaling.alpha.kubernetes.io/behavior: '{not json'\n"))]})
    expect(bad.hpas![0].spec.behavior).toBeUndefined()
  })
})

describe('Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler (the status annotations)', () => {
  const v1 = (annotations: Record<string, string>) =>
    V1_HPA(annotations, '  maxReplicas: 6\n  targetCPUUtilizationPercentage: 60\nstatus:\n  currentReplicas: 3\n  desiredReplicas: 3\n  currentCPUUtilizationPercentage: 40')
  const CURRENT = 'autoscaling.alpha.kubernetes.io/current-metrics'
  const read = async (text: string) => (await readFixtures({paths: [fixture(text)]})).hpas![0].status

  it('Convert_v1_MetricStatus_To_autoscaling_MetricStatus: the current-metrics annotation replaces the CPU status, every type converted', async () => {
    const status = await read(
      v1({
        [CURRENT]: JSON.stringify([
          {type: 'Resource', resource: {name: 'cpu', currentAverageUtilization: 40, currentAverageValue: '200m'}},
          {type: 'ContainerResource', containerResource: {name: 'memory', container: 'main', currentAverageValue: '100Mi'}},
          {type: 'Pods', pods: {metricName: 'packets', currentAverageValue: '12', selector: {matchLabels: {port: '80'}}}},
          {type: 'Object', object: {target: {kind: 'Service', name: 'front', apiVersion: 'v1'}, metricName: 'rps', currentValue: '30'}},
          {type: 'Object', object: {target: {kind: 'Service', name: 'front', apiVersion: 'v1'}, metricName: 'rps', currentValue: '0', averageValue: '10'}},
          {type: 'External', external: {metricName: 'queue', metricSelector: {matchLabels: {q: 'a'}}, currentValue: '45'}},
          {type: 'External', external: {metricName: 'queue', currentValue: '0', currentAverageValue: '15'}},
          {type: ''},
        ]),
      }),
    )
    expect(status.currentMetrics).toEqual([
      {type: 'Resource', resource: {name: 'cpu', current: {averageValue: '200m', averageUtilization: 40}}},
      {type: 'ContainerResource', containerResource: {name: 'memory', container: 'main', current: {averageValue: '100Mi'}}},
      {type: 'Pods', pods: {metric: {name: 'packets', selector: {matchLabels: {port: '80'}}}, current: {averageValue: '12'}}},
      {type: 'Object', object: {describedObject: {kind: 'Service', name: 'front', apiVersion: 'v1'}, metric: {name: 'rps'}, current: {value: '30'}}},
      {type: 'Object', object: {describedObject: {kind: 'Service', name: 'front', apiVersion: 'v1'}, metric: {name: 'rps'}, current: {averageValue: '10'}}},
      {type: 'External', external: {metric: {name: 'queue', selector: {matchLabels: {q: 'a'}}}, current: {value: '45'}}},
      {type: 'External', external: {metric: {name: 'queue'}, current: {averageValue: '15'}}},
      {type: ''},
    ])
  })

  it('a value the v1 form omits is Go\'s zero quantity; an annotation that does not decode leaves the CPU status', async () => {
    const status = await read(v1({[CURRENT]: JSON.stringify([{type: 'Resource', resource: {name: 'cpu', currentAverageUtilization: 40}}])}))
    expect(status.currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageValue: '0', averageUtilization: 40}}}])
    expect((await read(v1({[CURRENT]: '{not json'}))).currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 40}}}])
    expect((await read(v1({[CURRENT]: '{"type":"Resource"}'}))).currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 40}}}])
  })

  it('the conditions annotation: read when it decodes to a list, ignored otherwise (no refusal: the conversion ignores it)', async () => {
    const conditions = [{type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size', lastTransitionTime: '2026-11-22T10:00:00Z'}]
    expect((await read(v1({'autoscaling.alpha.kubernetes.io/conditions': JSON.stringify(conditions)}))).conditions).toEqual(conditions)
    expect((await read(v1({'autoscaling.alpha.kubernetes.io/conditions': '[{"type": '}))).conditions).toEqual([])
  })

  it('a plan of the v1 form of a synced HPA writes no status where its v2 form writes none', async () => {
    const {hpaStatusWrite} = await import('../../../../src/controllers/hpa/apply.js')
    const stored = {
      currentReplicas: 3,
      desiredReplicas: 3,
      currentMetrics: [
        {type: 'Resource', resource: {name: 'cpu', current: {averageValue: '200m', averageUtilization: 40}}},
        {type: 'External', external: {metric: {name: 'queue'}, current: {averageValue: '15'}}},
        {type: 'Object', object: {describedObject: {kind: 'Service', name: 'front', apiVersion: 'v1'}, metric: {name: 'rps'}, current: {value: '30'}}},
      ],
      conditions: [{type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size', lastTransitionTime: '2026-11-22T10:00:00Z'}],
    }
    // The v1 view as written back (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler), read again.
    const view = hpaStatusWrite({apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: {name: 'web', namespace: 'shop'}, spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'}, maxReplicas: 6, targetCPUUtilizationPercentage: 60}}, '5', stored)
    const file = join(tmp, `view${n++}.json`)
    writeFileSync(file, JSON.stringify(view))
    const {statusEqual} = await import('../../../../src/controllers/hpa/sync.js')
    const back = (await readFixtures({paths: [file]})).hpas![0].status
    expect(back.currentMetrics).toEqual(stored.currentMetrics)
    expect(statusEqual(back, stored)).toBe(true)
  })
})

describe('resourcehelpers.PodRequests (the pods\' pod-level requests, as calculatePodLevelRequests reads them)', () => {
  // Beside an HPA: in a world without one, pods carry no HPA fields.
  const pod = (spec: string) => `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: shop}
spec:
${spec}
---
${HPA('  maxReplicas: 5')}`
  const requestsOf = async (spec: string) => (await readFixtures({paths: [fixture(pod(spec))]})).pods[0].autoscaling?.podRequests

  it('none without a cpu, memory or hugepages request at the pod level', async () => {
    expect(await requestsOf('  containers: [{name: a, resources: {requests: {cpu: 100m}}}]')).toBeUndefined()
    expect(await requestsOf('  resources: {requests: {example.com/gpu: "1"}}\n  containers: [{name: a, resources: {requests: {cpu: 100m}}}]')).toBeUndefined()
  })
  it('the pod-level values over the containers\' aggregate, plus the overhead', async () => {
    const spec = `  overhead: {cpu: 250m, memory: 10Mi}
  resources: {requests: {cpu: "1"}}
  initContainers:
    - {name: side, restartPolicy: Always, resources: {requests: {cpu: 100m, memory: 64Mi}}}
    - {name: setup, resources: {requests: {cpu: 50m, memory: 1Gi}}}
  containers:
    - {name: a, resources: {requests: {cpu: 300m, memory: 128Mi}}}
    - {name: b, resources: {requests: {cpu: 200m, memory: 128Mi}}}`
    // cpu: 1 (pod level) + 250m overhead. memory: max(128Mi + 128Mi + 64Mi, 1Gi + 64Mi) + 10Mi.
    expect(await requestsOf(spec)).toEqual({cpu: '1250m', memory: `${(1024 + 64 + 10) * 1024 * 1024 * 1000}m`})
  })
})

describe('HorizontalPodAutoscalers read from files', () => {
  it('validateScalingRules: an empty policy list is refused even with selectPolicy Disabled', async () => {
    expect(await errorLine(HPA('  maxReplicas: 5\n  behavior:\n    scaleUp:\n      selectPolicy: Disabled\n      policies: []\n'))).toMatch(/scaleUp.*policies.*must specify at least one Policy/)
  })

  it('SetDefaults_HorizontalPodAutoscaler: minReplicas 1, CPU at 80% without metrics, no behavior unless written', async () => {
    const s = await readFixtures({paths: [fixture(HPA('  maxReplicas: 5'))]})
    expect(s.hpas).toHaveLength(1)
    expect(s.hpas![0].spec).toEqual({
      scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'},
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 80}}}],
    })
  })

  it('a behavior block gets the default rules of each direction, the fields written winning', async () => {
    const s = await readFixtures({paths: [fixture(HPA('  maxReplicas: 5\n  behavior:\n    scaleDown:\n      stabilizationWindowSeconds: 60\n'))]})
    expect(s.hpas![0].spec.behavior).toEqual({
      scaleUp: {stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{type: 'Pods', value: 4, periodSeconds: 15}, {type: 'Percent', value: 100, periodSeconds: 15}]},
      scaleDown: {stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{type: 'Percent', value: 100, periodSeconds: 15}]},
    })
  })

  it('autoscaling/v1: targetCPUUtilizationPercentage becomes a Resource metric, the current value a metric status', async () => {
    const s = await readFixtures({
      paths: [fixture(HPA('  maxReplicas: 4\n  targetCPUUtilizationPercentage: 70\nstatus:\n  currentReplicas: 2\n  desiredReplicas: 2\n  currentCPUUtilizationPercentage: 35\n', 'autoscaling/v1'))],
    })
    const hpa = s.hpas![0]
    expect(hpa.apiVersion).toBe('autoscaling/v1')
    expect(hpa.spec.metrics).toEqual([{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 70}}}])
    expect(hpa.status.currentMetrics).toEqual([{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: 35}}}])
  })

  it('refuses what the API server refuses, at the field, in one line', async () => {
    expect(await errorLine(HPA('  minReplicas: 2\n'))).toMatch(/spec\.maxReplicas.*required/)
    expect(await errorLine(HPA('  minReplicas: 6\n  maxReplicas: 5\n'))).toMatch(/:6:\d+.*must be less than or equal to maxReplicas \(5\)/)
    expect(await errorLine(HPA('  maxReplicas: 5\n  metrics:\n    - type: Pod\n'))).toMatch(/:8:13: spec\.metrics\[0\]\.type: must be one of Resource, ContainerResource, Pods, Object, External/)
    expect(await errorLine(HPA('  maxReplicas: 5\n  metrics:\n    - type: Resource\n      resource: {name: cpu, target: {type: Utilization}}\n'))).toMatch(/must be set when type is Utilization/)
    expect(await errorLine(HPA('  maxReplicas: 5\n', 'autoscaling/v2beta2'))).toMatch(/not served as autoscaling\/v2beta2/)
  })
})

describe('metrics fixtures', () => {
  it('PodMetricsList, MetricValueList and ExternalMetricValueList items, as kubectl get --raw prints them', async () => {
    const s = await readFixtures({
      paths: [
        fixture(`kind: PodMetricsList
apiVersion: metrics.k8s.io/v1beta1
metadata: {}
items:
  - metadata: {name: web-1, namespace: shop, labels: {app: web}}
    timestamp: "2026-11-22T09:59:45Z"
    window: 1m0s
    containers: [{name: web, usage: {cpu: 250m, memory: 64Mi}}]
---
kind: MetricValueList
apiVersion: custom.metrics.k8s.io/v1beta2
metadata: {}
items:
  - describedObject: {kind: Pod, namespace: shop, name: web-1, apiVersion: /v1}
    metric: {name: requests_per_second}
    timestamp: "2026-11-22T09:59:50Z"
    value: 12500m
---
kind: ExternalMetricValueList
apiVersion: external.metrics.k8s.io/v1beta1
metadata: {}
items:
  - metricName: queue_depth
    metricLabels: {queue: orders}
    timestamp: "2026-11-22T09:59:50Z"
    value: "42"
`),
      ],
    })
    expect(s.podMetrics).toEqual([{namespace: 'shop', name: 'web-1', labels: {app: 'web'}, timestamp: '2026-11-22T09:59:45Z', windowSeconds: 60, containers: [{name: 'web', usage: {cpu: '250m', memory: '64Mi'}}]}])
    expect(s.customMetrics).toEqual([{describedObject: {kind: 'Pod', namespace: 'shop', name: 'web-1'}, metric: 'requests_per_second', value: '12500m', timestamp: '2026-11-22T09:59:50Z'}])
    expect(s.externalMetrics).toEqual([{namespace: '', metricName: 'queue_depth', metricLabels: {queue: 'orders'}, value: '42', timestamp: '2026-11-22T09:59:50Z'}])
  })

  it('a sample that is not a quantity is refused at its field', async () => {
    expect(
      await errorLine(`kind: PodMetrics
apiVersion: metrics.k8s.io/v1beta1
metadata: {name: web-1}
timestamp: "2026-11-22T09:59:45Z"
window: 30s
containers: [{name: web, usage: {cpu: lots}}]
`),
    ).toMatch(/:6:\d+.*"lots" is not a quantity/)
  })
})
