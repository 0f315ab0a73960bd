// StatefulSets in the event loop: their planner and the executor run forward with the kubelet
// model, as for Deployments. Rollouts start as an operator starts them: a settled set, then a
// change. (DaemonSets: ../daemonset/simulate.test.ts; the worlds: test/unit/simulate/sets.ts.)
import {describe, expect, it} from 'vitest'
import {applyScale, applySetImage, parseScale, parseSetImage} from '../../../../src/simulate/changes.js'
import {openSim} from '../../simulate/helpers.js'
import {actionsOf, daemonSet, ONE_AT_A_TIME, revisionEnds, settled, statefulSet} from '../../simulate/sets.js'

describe('StatefulSets in the event loop', () => {
  it('OrderedReady: creates one pod at a time, each after the one before is Ready, with its claim', async () => {
    const {first} = await settled(statefulSet(3, {claims: true}))
    const created = actionsOf(first, 'createStatefulPod').map((a) => [a.t, a.pod])
    expect(created).toEqual([
      [0, 'web-0'],
      [10, 'web-1'],
      [20, 'web-2'],
    ])
    expect(actionsOf(first, 'createClaim').map((a) => [a.t, a.claim])).toEqual([
      [0, 'data-web-0'],
      [10, 'data-web-1'],
      [20, 'data-web-2'],
    ])
    const t = first.statefulSets[0]
    expect(t.final.claims).toEqual(['data-web-0', 'data-web-1', 'data-web-2'])
    expect(t.final.pods.map((p) => p.name)).toEqual(['web-0', 'web-1', 'web-2'])
    expect(t.final.replicasStatus).toEqual({replicas: 3, ready: 3, current: 3, updated: 3, available: 3})
    expect(t.observed.maxInFlight).toBe(1)
    expect(t.bounds.maxInFlight).toBe(1)
    // The set's own steps carry its pods per revision; the last one is written after web-2 is Ready.
    expect(t.durationSeconds).toBe(30)
  })

  it('Parallel: creates every pod at once', async () => {
    const {first} = await settled(statefulSet(3, {podManagementPolicy: 'Parallel'}))
    expect(actionsOf(first, 'createStatefulPod').map((a) => a.t)).toEqual([0, 0, 0])
    expect(first.statefulSets[0].observed.maxInFlight).toBe(3)
  })

  it('RollingUpdate: replaces pods from the highest ordinal down, each after the one before is gone and its replacement Ready', async () => {
    const {sim} = await settled(statefulSet(3))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const r = await sim.run()
    // Delete at t, gone 5 s later (terminationGracePeriodSeconds), re-created then, Ready 10 s after that.
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => [a.t, a.pod, a.reason])).toEqual([
      [0, 'web-2', 'update'],
      [15, 'web-1', 'update'],
      [30, 'web-0', 'update'],
    ])
    expect(revisionEnds(r)).toEqual(ONE_AT_A_TIME)
    const t = r.statefulSets[0]
    expect(t.final.currentRevision).toBe(t.final.updateRevision)
    expect(t.final.revisions.map((x) => x.revision)).toEqual([1, 2])
    expect(t.observed.minAvailable).toBe(t.bounds.minAvailable)
    expect(t.observed.maxPods).toBe(3)
  })

  it('RollingUpdate with a partition: only the ordinals at or above it are replaced', async () => {
    const {sim} = await settled(statefulSet(3, {partition: 2}))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const r = await sim.run()
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => a.pod)).toEqual(['web-2'])
    const t = r.statefulSets[0]
    expect(t.partition).toBe(2)
    const [old, updated] = t.final.revisions.map((x) => x.name)
    expect(t.final.pods.map((p) => p.revision)).toEqual([old, old, updated])
    expect(t.final.currentRevision).toBe(old)
    expect(t.final.updateRevision).toBe(updated)
    expect(t.final.replicasStatus).toMatchObject({current: 2, updated: 1})
  })

  it('a failing revision (--fail by its name) stalls the update at its first pod', async () => {
    const {sim} = await settled(statefulSet(3))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const probe = await openSim(statefulSet(3))
    applySetImage(probe.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const revision = (await probe.run({untilSeconds: 0})).statefulSets[0].final.updateRevision
    const r = await sim.run({fail: [revision]})
    expect(r.endedBy).toBe('quiet')
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => a.pod)).toEqual(['web-2'])
    expect(r.statefulSets[0].final.replicasStatus).toMatchObject({ready: 2, updated: 1})
  })

  it('a scale-down removes the highest ordinal first, one at a time', async () => {
    const {sim} = await settled(statefulSet(3))
    applyScale(sim.world, 'default', {kind: 'StatefulSet', name: 'web', replicas: 1})
    const r = await sim.run()
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => [a.t, a.pod, a.reason])).toEqual([
      [0, 'web-2', 'condemned'],
      [5, 'web-1', 'condemned'],
    ])
    expect(r.statefulSets[0].observed.startPods).toBe(3)
  })
})

describe('what-ifs on sets', () => {
  it('a new DaemonSet template raises its template generation, as the API server does; a StatefulSet scale does not touch its template', async () => {
    const sim = await openSim(`${daemonSet('{type: OnDelete}')}---\n${statefulSet(3)}`)
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const ds = sim.world.find('DaemonSet', 'default', 'agent')!.object as {metadata: {generation: number; annotations: Record<string, string>}}
    expect(ds.metadata.generation).toBe(2)
    expect(ds.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2')
    applyScale(sim.world, 'default', {kind: 'StatefulSet', name: 'web', replicas: 5})
    const set = sim.world.find('StatefulSet', 'default', 'web')!.object as {metadata: {generation: number}; spec: {replicas: number}}
    expect([set.metadata.generation, set.spec.replicas]).toEqual([2, 5])
  })

  it('parses statefulset/, sts/ and daemonset/ targets; a DaemonSet cannot be scaled', () => {
    expect(parseScale('sts/db=5')).toEqual({kind: 'StatefulSet', name: 'db', replicas: 5})
    expect(parseSetImage('daemonset/agent=c=agent:2')).toEqual({kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    expect(() => parseScale('ds/agent=3')).toThrow('a DaemonSet has no replicas')
  })
})

describe('a set the simulation cannot take further', () => {
  it('a StatefulSet template from a file not in the API server\'s shape: its revision name is unknown, so nothing is sent and a warning says why', async () => {
    const sim = await openSim(statefulSet(3).replace(/containers:\n.*\n/, 'containers: [{name: c, image: "nginx:1.27"}]\n'))
    const r = await sim.run()
    expect(r.steps).toEqual([])
    expect(r.warnings).toEqual([expect.stringContaining('StatefulSet default/web is not simulated past its new revision')])
  })
})
