// Watch mode's Service side: an event of a Service, a slice, an Endpoints object or a pod a Service
// selects (before or after) marks its namespace (a Node: every one), and the next plan re-plans
// only what was marked, equal to `kctl plan` of the same objects.
import {describe, expect, it} from 'vitest'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readAllDocuments, readFixtures} from '../../../../src/sources/fixtures.js'
import {serviceWatch} from '../../../../src/controllers/service/watch.js'
import {Interner, NODES} from '../../../../src/watch/objects.js'
import {normalizePods} from '../../../../src/watch/pods.js'
import {NamespaceWatch} from '../../../../src/watch/namespace-watch.js'
import {plainPod} from '../../../../src/sources/pods.js'
import {members, snapshotCaches} from '../../../helpers/watch-caches.js'

const NOW = '2026-11-22T10:00:00Z'
const gates = {...DEFAULT_FEATURE_GATES}

const services = () => members('endpointslice')

describe('the Service namespace watch', () => {
  it('plans every Service as kctl plan does; a pod turning Ready re-plans its Service\'s endpoints', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    const watch = new NamespaceWatch(services(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const first = watch.plan(NOW, NOW)
    expect(first.map((c) => c.next)).toEqual(planSnapshot(world.snapshot, {now: NOW, featureGates: gates, burstReplicas: 500}, ['endpointslice']).controllers)
    expect(watch.controllerCount).toBe(world.snapshot.services!.length)

    const notReady = world.snapshot.pods.find((p) => p.name === 'web-notready')!
    const ready = {...plainPod(notReady), ready: true, resourceVersion: '99'}
    world.snapshot = {...world.snapshot, pods: world.snapshot.pods.map((p) => (p === notReady ? ready : p))}
    const why = {type: 'MODIFIED' as const, kind: 'Pod', namespace: 'shop', name: 'web-notready'}
    watch.touchPod(ready, why, notReady)
    const changes = watch.plan(NOW, NOW)
    // Only web selects the pod: api and the others plan the same and are not reported.
    expect(changes.map((c) => c.key)).toEqual(['Service/shop/web'])
    expect(changes[0].event).toEqual(why)
    const verdict = (c: (typeof changes)[0]['next']) => c!.service!.pods.find((p) => p.pod === 'web-notready')!.slice
    expect(verdict(changes[0].previous)).toMatchObject({in: true, ready: false})
    expect(verdict(changes[0].next)).toMatchObject({in: true, ready: true})
    expect(changes[0].next!.status).toMatchObject({readyEndpoints: (changes[0].previous!.status as {readyEndpoints: number}).readyEndpoints + 1})
  })

  it('a pod no Service selects, before or after, marks nothing; a label change out of a selector does', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    const watch = new NamespaceWatch(services(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    const pod = world.snapshot.pods.find((p) => p.name === 'web-ready')!
    const stray = {...plainPod(pod), labels: {app: 'nobody'}}
    watch.touchPod(stray, undefined, stray)
    expect(watch.pendingCount).toBe(0)
    watch.touchPod(stray, {type: 'MODIFIED', kind: 'Pod', namespace: 'shop', name: 'web-ready'}, pod)
    expect(watch.pendingCount).toBe(1)
  })

  it('a Node event re-plans the load balancer\'s hosts', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    const watch = new NamespaceWatch(services(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    watch.plan(NOW, NOW)
    world.snapshot = {...world.snapshot, nodes: world.snapshot.nodes!.map((n) => (n.name === 'edge-1' ? {...n, labels: {}} : n))}
    watch.touch(undefined, {type: 'MODIFIED', kind: 'Node', name: 'edge-1'})
    const changes = watch.plan(NOW, NOW)
    expect(changes.map((c) => c.key)).toEqual(['Service/shop/api'])
    expect(changes[0].next!.service!.loadBalancer!.hosts).toContain('edge-1')
    expect(changes[0].previous!.service!.loadBalancer!.hosts).not.toContain('edge-1')
  })
  it('a sync that fails on a missing node names its retry, but the watch sets no clock for it (only an event changes that sync)', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    world.snapshot = {...world.snapshot, pods: world.snapshot.pods.map((p) => (p.name === 'web-ready' ? {...plainPod(p), nodeName: 'node-gone'} : p))}
    const watch = new NamespaceWatch(services(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const web = watch.plan(NOW, NOW).find((c) => c.key === 'Service/shop/web')!.next!
    expect(web.requeue).toMatchObject({reason: 'sync-error', seconds: 1})
    expect(watch.requeues()).toEqual(new Map())
  })
})

describe('the Service watch cache', () => {
  const OPTIONS = {now: NOW, featureGates: gates, burstReplicas: 500}

  it('Services are planned from the cache as from the whole objects: pods keep their IPs, hostname, subdomain and named ports', async () => {
    const full = await readFixtures({paths: ['examples/services'], allNamespaces: true})
    const byKind: Record<string, any[]> = {}
    for (const o of await readAllDocuments(['examples/services'])) {
      const {kind, apiVersion: _a, ...rest} = structuredClone(o.raw) as any
      ;(byKind[kind] ??= []).push(rest)
    }
    const interner = new Interner()
    const pods = normalizePods(byKind.Pod, interner)
    const kinds = ['Service', 'EndpointSlice', 'Endpoints', 'Node'] as const
    const parts = [serviceWatch.resources[0], ...serviceWatch.by === 'namespace' ? serviceWatch.reads.slice(0, 2) : [], NODES]
    const [services, slices, endpoints, nodes] = kinds.map((k, i) => parts[i].normalize(byKind[k] ?? [], interner) as {objects: any[]; problems: unknown[]})
    expect([pods, services, slices, endpoints, nodes].flatMap((r) => r.problems)).toEqual([])
    expect(pods.objects.filter((p) => p.network !== undefined).length).toBeGreaterThan(0)
    expect(Object.isFrozen(pods.objects[0].network)).toBe(true)
    const cached = {...full, pods: pods.objects, services: services.objects, endpointSlices: slices.objects, endpoints: endpoints.objects, nodes: nodes.objects}
    const plans = planSnapshot(cached, OPTIONS, ['endpointslice']).controllers
    expect(plans.length).toBe(full.services!.length)
    expect(plans).toEqual(planSnapshot(full, OPTIONS, ['endpointslice']).controllers)
  })
})
