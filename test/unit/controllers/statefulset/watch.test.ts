// Watch mode's StatefulSet and DaemonSet side: an event marks a namespace (a Node: every one), and
// the next plan re-plans only what was marked, equal to `kctl plan` of the same objects.
import {describe, expect, it} from 'vitest'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {NamespaceWatch} from '../../../../src/watch/namespace-watch.js'
import {plainPod} from '../../../../src/sources/pods.js'
import {members, snapshotCaches} from '../../../helpers/watch-caches.js'

const NOW = '2026-11-22T10:00:00Z'
const gates = {...DEFAULT_FEATURE_GATES}

/** StatefulSets and DaemonSets, planned together (they share the revision and Node informers). */
const workloads = () => members('statefulset', 'daemonset')

describe('the StatefulSet and DaemonSet namespace watch', () => {
  it('plans every marked namespace as kctl plan does, then only what an event marks', async () => {
    const world = {snapshot: await readFixtures({paths: ['examples/statefulset', 'examples/daemonset'], allNamespaces: true})}
    const watch = new NamespaceWatch(workloads(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
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
    const watch = new NamespaceWatch(workloads(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    const pod = world.snapshot.pods.find((p) => p.name === 'db-0')!
    watch.touchPod({...plainPod(pod), ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u', controller: true}]}, undefined)
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
