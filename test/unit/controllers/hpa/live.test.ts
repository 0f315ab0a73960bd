// The metrics APIs read live (src/controllers/hpa/live.ts): the requests the controller's REST
// metrics client makes (metrics/client.go, k8s.io/metrics' custom and external clients), and their
// answers kept whole for the sync.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {readLiveMetrics} from '../../../../src/controllers/hpa/live.js'
import type {LiveGet} from '../../../../src/sources/part.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'

const ROOT = join(import.meta.dirname, '../../../..')
const WEB = readFileSync(join(ROOT, 'examples/hpa/web.yaml'), 'utf8')
const tmp = mkdtempSync(join(tmpdir(), 'kctl-live-hpa-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const METRICS = `  metrics:
    - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}
    - {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 100Mi}}}
    - type: Pods
      pods: {metric: {name: packets, selector: {matchExpressions: [{key: port, operator: In, values: ["8080", "80"]}]}}, target: {type: AverageValue, averageValue: "5"}}
    - type: Object
      object: {describedObject: {apiVersion: apps/v1, kind: Deployment, name: other}, metric: {name: queue}, target: {type: Value, value: "3"}}
    - type: Object
      object: {describedObject: {apiVersion: v1, kind: Namespace, name: ignored}, metric: {name: load}, target: {type: Value, value: "3"}}
    - type: External
      external: {metric: {name: jobs, selector: {matchLabels: {q: a}}}, target: {type: AverageValue, averageValue: "2"}}
    - type: Object
      object: {describedObject: {apiVersion: example.com/v1, kind: Widget, name: w}, metric: {name: size}, target: {type: Value, value: "3"}}
`

async function snapshotWith(metrics: string, edit = (s: string) => s) {
  const file = join(tmp, 'web.yaml')
  writeFileSync(file, edit(WEB.replace(/  metrics:\n[\s\S]*?averageUtilization: 50\n/, metrics)))
  return readFixtures({paths: [file]})
}

describe('the metrics client requests (GetResourceMetric, GetRawMetric, GetObjectMetric, GetExternalMetric)', () => {
  it('asks each API as the controller does, once per distinct request, and keeps each answer whole', async () => {
    const calls: string[] = []
    const get: LiveGet = async (path, query) => {
      calls.push(`${path}?${new URLSearchParams(query as Record<string, string>).toString()}`)
      if (path === '/apis/apps/v1') return {ok: true, body: {resources: [{name: 'deployments', kind: 'Deployment'}, {name: 'deployments/scale', kind: 'Scale'}]}}
      if (path === '/apis/example.com/v1') return {ok: false, code: 404, message: 'the server could not find the requested resource'}
      if (path.startsWith('/apis/metrics.k8s.io')) {
        return {ok: true, body: {items: [{metadata: {name: 'web-1'}, timestamp: '2026-11-22T09:59:50Z', window: '1m', containers: [{name: 'web', usage: {cpu: '180m', memory: '120Mi'}}]}]}}
      }
      if (path.startsWith('/apis/external.metrics.k8s.io')) return {ok: false, code: 503, message: 'the adapter is down'}
      return {ok: true, body: {items: []}}
    }
    const live = await readLiveMetrics(get, await snapshotWith(METRICS))
    expect(calls).toEqual([
      '/apis/metrics.k8s.io/v1beta1/namespaces/autoscale/pods?labelSelector=app%3Dweb',
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/autoscale/pods/*/packets?labelSelector=app%3Dweb&metricLabelSelector=port+in+%2880%2C8080%29',
      '/apis/apps/v1?',
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/autoscale/deployments.apps/other/queue?',
      '/apis/custom.metrics.k8s.io/v1beta2/namespaces/autoscale/metrics/load?',
      '/apis/external.metrics.k8s.io/v1beta1/namespaces/autoscale/jobs?labelSelector=q%3Da',
      '/apis/example.com/v1?',
    ])
    const [cpu, memory, pods, object, namespace, external, widget] = live.hpaMetrics![0].answers
    expect(cpu).toEqual({kind: 'podMetrics', items: [{name: 'web-1', timestamp: '2026-11-22T09:59:50Z', windowSeconds: 60, containers: [{name: 'web', usage: {cpu: '180m', memory: '120Mi'}}]}]})
    expect(memory).toEqual(cpu)
    expect([pods, object, namespace]).toEqual([{kind: 'podValues', items: []}, {kind: 'objectValues', items: []}, {kind: 'objectValues', items: []}])
    expect(external).toEqual({kind: 'error', message: 'the adapter is down'})
    expect(widget).toEqual({kind: 'error', message: 'unable to map kind Widget.example.com to resource: no matches for kind "Widget" in group "example.com"'})
  })

  it('asks nothing when the sync reads no metric: replicas outside minReplicas..maxReplicas', async () => {
    const calls: string[] = []
    const get: LiveGet = async (path) => (calls.push(path), {ok: true, body: {items: []}})
    const live = await readLiveMetrics(get, await snapshotWith(METRICS, (t) => t.replace('  maxReplicas: 10\n', '  maxReplicas: 2\n')))
    expect(calls).toEqual([])
    expect(live.hpaMetrics).toEqual([])
  })
})
