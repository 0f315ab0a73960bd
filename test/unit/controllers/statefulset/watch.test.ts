// Watch mode's StatefulSet and DaemonSet side: an event marks a namespace (a Node: every one), and
// the next plan re-plans only what was marked, equal to `kctl plan` of the same objects.
import {describe, expect, it} from 'vitest'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import type {Snapshot} from '../../../../src/model/objects.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {type ServiceSources, ServiceWatch} from '../../../../src/controllers/service/watch.js'
import {type WorkloadSources, WorkloadWatch} from '../../../../src/controllers/statefulset/watch.js'

const NOW = '2026-11-22T10:00:00Z'
const gates = {...DEFAULT_FEATURE_GATES}

/** Sources over a mutable snapshot, as the informers' caches would hold it. */
function sourcesOf(world: {snapshot: Snapshot}): WorkloadSources {
  const inNs = <T extends {namespace: string}>(list: readonly T[] | undefined, ns: string) => (list ?? []).filter((o) => o.namespace === ns)
  return {
    statefulSets: (ns) => inNs(world.snapshot.statefulSets, ns),
    daemonSets: (ns) => inNs(world.snapshot.daemonSets, ns),
    revisions: (ns) => inNs(world.snapshot.controllerRevisions, ns),
    claims: (ns) => inNs(world.snapshot.claims, ns),
    pods: (ns) => inNs(world.snapshot.pods, ns),
    nodes: () => world.snapshot.nodes ?? [],
    namespaces: () => new Set([...(world.snapshot.statefulSets ?? []), ...(world.snapshot.daemonSets ?? [])].map((o) => o.namespace)),
  }
}

describe('WorkloadWatch', () => {
  it('plans every marked namespace as kctl plan does, then only what an event marks', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/statefulset', 'examples/daemonset'], allNamespaces: true})}
    const watch = new WorkloadWatch(sourcesOf(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const first = watch.plan(NOW, NOW)
    const expected = planSnapshot(world.snapshot, {now: NOW, featureGates: gates, burstReplicas: 500}, ['statefulset', 'daemonset']).controllers
    expect(first.map((c) => c.next)).toEqual(expected)
    expect(watch.controllerCount).toBe(2)
    expect(watch.notSynced().map((p) => p.name).sort()).toEqual(['db', 'node-agent'])

    // Nothing marked: nothing planned.
    expect(watch.plan(NOW, NOW)).toEqual([])

    // A Node's event re-plans the DaemonSet (every namespace is marked; the StatefulSet's plan is unchanged, so not reported).
    const tainted = world.snapshot.nodes!.find((n) => n.name === 'node-c')!
    world.snapshot = {...world.snapshot, nodes: world.snapshot.nodes!.map((n) => (n === tainted ? {...n, taints: []} : n))}
    watch.touch(undefined, {type: 'MODIFIED', kind: 'Node', name: 'node-c'})
    const changes = watch.plan(NOW, NOW)
    expect(changes.map((c) => c.key)).toEqual(['DaemonSet/monitoring/node-agent'])
    expect(changes[0].event).toEqual({type: 'MODIFIED', kind: 'Node', name: 'node-c'})
    expect(changes[0].next!.nodes!.find((n) => n.node === 'node-c')!.shouldRun).toBe(true)
  })

  it('a pod owned by another kind marks nothing; a StatefulSet\'s pod marks its namespace', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/statefulset'], allNamespaces: true})}
    const watch = new WorkloadWatch(sourcesOf(world), {featureGates: gates, burstReplicas: 500})
    const pod = world.snapshot.pods.find((p) => p.name === 'db-0')!
    watch.touchPod({...pod, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u', controller: true}]}, undefined)
    expect(watch.pendingCount).toBe(0)
    watch.touchPod(pod, {type: 'MODIFIED', kind: 'Pod', namespace: 'data', name: 'db-0'})
    expect(watch.pendingCount).toBe(1)
    // The set is deleted: its plan goes, reported with no next plan.
    watch.plan(NOW, NOW)
    world.snapshot = {...world.snapshot, statefulSets: []}
    watch.touch('data', {type: 'DELETED', kind: 'StatefulSet', namespace: 'data', name: 'db'})
    const [gone] = watch.plan(NOW, NOW)
    expect(gone.key).toBe('StatefulSet/data/db')
    expect(gone.next).toBeUndefined()
    expect(watch.controllerCount).toBe(0)
  })
})

/** Service sources over a mutable snapshot, as the informers' caches would hold it. */
function serviceSourcesOf(world: {snapshot: Snapshot}): ServiceSources {
  const inNs = <T extends {namespace: string}>(list: readonly T[] | undefined, ns: string) => (list ?? []).filter((o) => o.namespace === ns)
  return {
    services: (ns) => inNs(world.snapshot.services, ns),
    endpointSlices: (ns) => inNs(world.snapshot.endpointSlices, ns),
    endpoints: (ns) => inNs(world.snapshot.endpoints, ns),
    pods: (ns) => inNs(world.snapshot.pods, ns),
    nodes: () => world.snapshot.nodes ?? [],
    namespaces: () => new Set((world.snapshot.services ?? []).map((o) => o.namespace)),
  }
}

describe('ServiceWatch', () => {
  it('plans every Service as kctl plan does; a pod turning Ready re-plans its Service\'s endpoints', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    const watch = new ServiceWatch(serviceSourcesOf(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const first = watch.plan(NOW, NOW)
    expect(first.map((c) => c.next)).toEqual(planSnapshot(world.snapshot, {now: NOW, featureGates: gates, burstReplicas: 500}, ['endpointslice']).controllers)
    expect(watch.controllerCount).toBe(world.snapshot.services!.length)

    const notReady = world.snapshot.pods.find((p) => p.name === 'web-notready')!
    const ready = {...notReady, ready: true, resourceVersion: '99'}
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
    const watch = new ServiceWatch(serviceSourcesOf(world), {featureGates: gates, burstReplicas: 500})
    const pod = world.snapshot.pods.find((p) => p.name === 'web-ready')!
    const stray = {...pod, labels: {app: 'nobody'}}
    watch.touchPod(stray, undefined, stray)
    expect(watch.pendingCount).toBe(0)
    watch.touchPod(stray, {type: 'MODIFIED', kind: 'Pod', namespace: 'shop', name: 'web-ready'}, pod)
    expect(watch.pendingCount).toBe(1)
  })

  it('a Node event re-plans the load balancer\'s hosts', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/services'], allNamespaces: true})}
    const watch = new ServiceWatch(serviceSourcesOf(world), {featureGates: gates, burstReplicas: 500})
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
    world.snapshot = {...world.snapshot, pods: world.snapshot.pods.map((p) => (p.name === 'web-ready' ? {...p, nodeName: 'node-gone'} : p))}
    const watch = new ServiceWatch(serviceSourcesOf(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const web = watch.plan(NOW, NOW).find((c) => c.key === 'Service/shop/web')!.next!
    expect(web.requeue).toMatchObject({reason: 'sync-error', seconds: 1})
    expect(watch.requeues()).toEqual(new Map())
  })
})
