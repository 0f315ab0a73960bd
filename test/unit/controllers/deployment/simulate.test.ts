// Deployments in the event loop: the Deployment controller's syncs (and its ReplicaSets') run
// forward with the kubelet model. Rollouts are started as an operator would: a settled
// Deployment, then a change.
import {describe, expect, it} from 'vitest'

import {applyScale, applySetImage} from '../../../../src/simulate/changes.js'
import {burstEnds, deployment, NEW_IMAGE, settled} from '../../simulate/helpers.js'

const newImage = NEW_IMAGE

describe('Deployments in the event loop', () => {
  it('rolls out 10 replicas with the default 25%/25% as the real controllers do at burst ends: (8,5) → (3,10) → (0,10)', async () => {
    const sim = await settled(deployment('web', 10))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run()
    expect(burstEnds(r)).toEqual([
      {t: 0, sizes: [8, 5]},
      {t: 10, sizes: [3, 10]},
      {t: 20, sizes: [0, 10]},
    ])
    const d = r.deployments[0]
    expect(d.final.conditions).toContainEqual({type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable'})
    expect(d.final.revision).toBe('2')
    expect(d.observed.minAvailable).toBeGreaterThanOrEqual(d.bounds.minAvailable)
    expect(d.observed.maxPods).toBeLessThanOrEqual(d.bounds.maxPods)
  })

  it('Recreate: the new ReplicaSet is created only after every old pod is gone (terminate-after)', async () => {
    const sim = await settled(deployment('web', 3, {strategy: '{type: Recreate}'}))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run({terminateAfter: 5})
    const created = r.steps.find((s) => s.actions.some((a) => a.type === 'createReplicaSet'))!
    expect(created.offsetSeconds).toBe(5)
    expect(burstEnds(r).map((e) => e.sizes)).toEqual([[0], [0, 3]])
    expect(r.deployments[0].observed.maxPodsWithTerminating).toBe(3)
  })

  it('a failing version never becomes Ready: old pods stay, ProgressDeadlineExceeded one second after the deadline', async () => {
    const sim = await settled(deployment('web', 4, {progressDeadlineSeconds: 30}))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run({fail: ['nginx:1.28']})
    const exceeded = r.steps.find((s) => s.actions.some((a) => a.type === 'updateStatus' && 'conditions' in a.to && a.to.conditions.some((c) => c.reason === 'ProgressDeadlineExceeded')))!
    expect(exceeded.offsetSeconds).toBe(31)
    expect(r.endedBy).toBe('quiet')
    const d = r.deployments[0]
    expect(d.final.replicaSets.map((x) => x.replicas)).toEqual([3, 2])
    expect(d.final.conditions).toContainEqual({type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded'})
    expect(d.observed.minAvailable).toBe(3)
  })

  it('minReadySeconds delays availability, and so the next wave', async () => {
    const sim = await settled(deployment('web', 4, {minReadySeconds: 5}))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run()
    // 1 surge and 1 unavailable: each wave waits 10 s to be Ready and 5 s more (and a moment: strictly more) to be available.
    expect(burstEnds(r).map((e) => Math.floor(e.t))).toEqual([0, 15, 30])
  })

  it('a scale during a rollout is shared in proportion', async () => {
    const sim = await settled(deployment('web', 10))
    applySetImage(sim.world, 'default', newImage)
    await sim.run({untilSeconds: 5})
    applyScale(sim.world, 'default', {kind: 'Deployment', name: 'web', replicas: 20})
    const r = await sim.run()
    const scaled = r.steps.find((s) => s.actions.some((a) => a.type === 'scaleReplicaSet' && a.rule === 'proportional'))
    expect(scaled?.offsetSeconds).toBe(0)
    expect(r.deployments[0].final.replicaSets.map((x) => x.replicas)).toEqual([0, 20])
  })
})
