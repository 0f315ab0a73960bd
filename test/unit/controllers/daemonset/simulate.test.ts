// DaemonSets in the event loop: their planner and the executor run forward with the kubelet model,
// as for Deployments. Rollouts start as an operator starts them: a settled set, then a change.
import {describe, expect, it} from 'vitest'
import {applySetImage} from '../../../../src/simulate/changes.js'
import {actionsOf, daemonSet, ONE_AT_A_TIME, revisionEnds, settled} from '../../simulate/sets.js'

describe('DaemonSets in the event loop', () => {
  it('creates one pod per node, bound to that node', async () => {
    const {first} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}'))
    expect(actionsOf(first, 'createDaemonPod').map((a) => [a.t, a.node])).toEqual([
      [0, 'node-a'],
      [0, 'node-b'],
      [0, 'node-c'],
    ])
    const t = first.daemonSets[0]
    expect(t.desiredNodes).toBe(3)
    expect(t.final.nodes.map((n) => n.node)).toEqual(['node-a', 'node-b', 'node-c'])
    expect(t.final.replicasStatus).toEqual({desired: 3, current: 3, updated: 3, ready: 3, available: 3, misscheduled: 0})
  })

  it('maxUnavailable 1: one node at a time, the first by name; never more than one unavailable', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}'))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    expect(revisionEnds(r)).toEqual(ONE_AT_A_TIME)
    // A choice among several old pods takes the first by name; the last one left is simply deleted.
    const replaced = [...actionsOf(r, 'chooseDaemonPods').flatMap((a) => [a.t, ...(a.chosen as string[])]), ...actionsOf(r, 'deleteDaemonPod').flatMap((a) => [a.t, a.pod])]
    expect(replaced).toHaveLength(6)
    const t = r.daemonSets[0]
    expect(t.bounds).toMatchObject({minAvailable: 2, maxPods: 3, maxPodsPerNode: 1})
    expect(t.observed.minAvailable).toBe(2)
    expect(t.observed.maxPodsPerNode).toBe(1)
    expect(t.final.nodes.every((n) => n.revisions.length === 1 && n.revisions[0] === t.final.updateRevision)).toBe(true)
  })

  it('maxSurge 1: a new pod beside the old one, which goes once the new one is available', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}'))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    expect(revisionEnds(r)).toEqual([
      {t: 0, pods: {r1: 3, r2: 1}},
      {t: 10, pods: {r1: 2, r2: 2}},
      {t: 20, pods: {r1: 1, r2: 3}},
      {t: 30, pods: {r2: 3}},
    ])
    const t = r.daemonSets[0]
    expect(t.bounds).toMatchObject({minAvailable: 3, maxPods: 4, maxPodsPerNode: 2})
    expect(t.observed).toMatchObject({minAvailable: 3, maxPods: 4, maxPodsPerNode: 2})
  })

  it('minReadySeconds: the next node waits until the new pod is available, and the loop wakes for it', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}', {minReadySeconds: 5}))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    // Gone at 5, re-created, Ready at 15, available just after 20: the next delete then.
    const deletes = [...actionsOf(r, 'chooseDaemonPods'), ...actionsOf(r, 'deleteDaemonPod')]
    expect(deletes.map((a) => Math.floor(a.t as number))).toEqual([0, 20, 40])
  })
})
