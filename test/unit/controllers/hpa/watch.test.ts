// Watch mode's HPA side: an event of an HPA, a target or a pod a target may own marks the
// namespace; the metrics, which have no watch, are read by the namespace watch (what the HPA's
// sync asks of the metrics APIs) and kept until read again; an event of an HPA or a target (not a
// pod) asks for them to be read again.
import {readFileSync} from 'node:fs'
import {parse} from 'yaml'
import {describe, expect, it} from 'vitest'
// The registry first, as the CLI loads it (the HPA's watch part reads the pod normalizer, which reads the registry).
import {CONTROLLERS} from '../../../../src/controllers/registry.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import type {LiveGet} from '../../../../src/sources/part.js'
import {NamespaceWatch} from '../../../../src/watch/namespace-watch.js'
import type {NamespaceWatchPart} from '../../../../src/watch/part.js'
import {plainPod} from '../../../../src/sources/pods.js'
import {members, snapshotCaches} from '../../../helpers/watch-caches.js'

const NOW = '2026-11-22T10:00:00Z'
const gates = {...DEFAULT_FEATURE_GATES}
const NS = 'autoscale'
const hpaWatch = CONTROLLERS.find((c) => c.name === 'horizontalpodautoscaling')!.watch as NamespaceWatchPart

/** The metrics.k8s.io answer of examples/hpa, every sample `cpu`, and the requests asked. */
function metricsApi(cpu?: string): {get: LiveGet; asked: string[]} {
  const list = parse(readFileSync('examples/hpa/metrics.yaml', 'utf8'))
  if (cpu) for (const item of list.items) item.containers[0].usage.cpu = cpu
  const asked: string[] = []
  const get: LiveGet = async (path, query) => {
    asked.push(`${path}?${new URLSearchParams(query as Record<string, string>).toString()}`)
    return {ok: true, body: list}
  }
  return {get, asked}
}

describe('the HPA namespace watch', () => {
  it('plans with the metrics it read live, kept until read again; without them the metric is missing', async () => {
    // The files without the metrics: what the informers hold.
    const world = {snapshot: await readFixtures({paths: ['examples/hpa/web.yaml']})}
    const watch = new NamespaceWatch(members('horizontalpodautoscaling'), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    expect(watch.liveEveryMs).toBe(15_000)
    expect(watch.liveNamespaces()).toEqual([NS])
    watch.touchAll(() => ({type: 'INITIAL'}))
    const [unread] = watch.plan(NOW, NOW)
    expect(unread.next!.hpa!.missing).toEqual([{index: 0, type: 'Resource', name: 'cpu'}])

    const api = metricsApi()
    expect(await watch.readLive(NS, api.get)).toBe(true)
    expect(api.asked).toEqual(['/apis/metrics.k8s.io/v1beta1/namespaces/autoscale/pods?labelSelector=app%3Dweb'])
    watch.touch(NS, {type: 'CLOCK'})
    const [read] = watch.plan(NOW, NOW)
    // The same plan as kctl plan of the files with the metrics.
    const files = await readFixtures({paths: ['examples/hpa']})
    const expected = planSnapshot(files, {now: NOW, featureGates: gates, burstReplicas: 500}, ['horizontalpodautoscaling']).controllers
    expect(read.next).toEqual(expected[0])
    expect(read.next!.actions.find((a) => a.type === 'scaleTarget')).toMatchObject({from: 3, to: 6})

    // Read again, the same answers: nothing changed.
    expect(await watch.readLive(NS, api.get)).toBe(false)
    // Lower usage: 90m of 200m is 45%, within the tolerance of 50%: no scale write.
    expect(await watch.readLive(NS, metricsApi('90m').get)).toBe(true)
    watch.touch(NS, {type: 'CLOCK'})
    const [lower] = watch.plan(NOW, NOW)
    expect(lower.next!.actions.some((a) => a.type === 'scaleTarget')).toBe(false)
  })

  it('an event of an HPA or a target asks for the metrics again; a pod\'s, the clock\'s, or another namespace\'s does not', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/hpa/web.yaml']})}
    const watch = new NamespaceWatch(members('horizontalpodautoscaling'), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    watch.touch(NS, {type: 'MODIFIED', kind: 'Pod', namespace: NS, name: 'p', resourceVersion: '1'})
    watch.touch(NS, {type: 'CLOCK'})
    expect(watch.takeLiveStale()).toEqual([])
    watch.touch(NS, {type: 'MODIFIED', kind: 'Deployment', namespace: NS, name: 'web', resourceVersion: '2'})
    watch.touch(NS, {type: 'ADDED', kind: 'HorizontalPodAutoscaler', namespace: NS, name: 'web', resourceVersion: '3'})
    expect(watch.takeLiveStale()).toEqual([NS])
    expect(watch.takeLiveStale()).toEqual([])
  })

  it('a pod a target may own, or an orphan, matters; a Job\'s does not; such pods keep their requests and start time in the cache', async () => {
    const files = await readFixtures({paths: ['examples/hpa/web.yaml']})
    const pod = files.pods[0]
    const caches = snapshotCaches({snapshot: files})
    expect(hpaWatch.podMatters(caches, pod, undefined)).toBe(true)
    expect(hpaWatch.podMatters(caches, {...plainPod(pod), ownerReferences: []}, undefined)).toBe(true)
    expect(hpaWatch.podMatters(caches, {...plainPod(pod), ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u', controller: true}]}, undefined)).toBe(false)
    const raw = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'p', namespace: NS, uid: 'u', resourceVersion: '1', ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-u', controller: true}]},
      spec: {containers: [{name: 'c', image: 'i', resources: {requests: {cpu: '200m'}}}]},
      status: {phase: 'Running', startTime: '2026-11-22T09:00:00Z', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T09:00:10Z'}]},
    }
    const {normalizePods} = await import('../../../../src/watch/pods.js')
    const {Interner} = await import('../../../../src/watch/objects.js')
    const [cached] = normalizePods([raw], new Interner()).objects
    expect(cached.autoscaling).toEqual({
      containers: [{name: 'c', requests: {cpu: '200m'}}],
      sidecars: [],
      startTime: '2026-11-22T09:00:00Z',
      readyCondition: {status: 'True', lastTransitionTime: '2026-11-22T09:00:10Z'},
    })
  })
})
