// The event loop: the planners' syncs one after another in virtual time, with the kubelet model
// between them — its order, its determinism, --until. Rollouts are started as an operator would: a
// settled Deployment, then a change. (The Deployment controller's own simulation:
// test/unit/controllers/deployment/simulate.test.ts.)
import {describe, expect, it} from 'vitest'

import {applySetImage} from '../../../src/simulate/changes.js'
import {deployment, NEW_IMAGE, openSim, settled} from './helpers.js'

const newImage = NEW_IMAGE

describe('the event loop', () => {
  it('orders syncs at one instant: within a round, the Deployment before its ReplicaSets; time never goes back', async () => {
    const sim = await settled(deployment('web', 4))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run()
    for (let i = 1; i < r.steps.length; i++) {
      const [a, b] = [r.steps[i - 1], r.steps[i]]
      expect(b.offsetSeconds).toBeGreaterThanOrEqual(a.offsetSeconds)
      if (a.round === b.round) expect(a.controller.kind === 'ReplicaSet' && b.controller.kind === 'Deployment').toBe(false)
      expect(b.round).toBeGreaterThanOrEqual(a.round)
    }
    // A ReplicaSet its Deployment scaled in a round acts in the next round, not the same one.
    const scaled = r.steps.find((s) => s.actions.some((a) => a.type === 'scaleReplicaSet'))!
    const follow = r.steps.find((s) => s.controller.kind === 'ReplicaSet' && s.actions.some((a) => a.type === 'create' || a.type === 'delete'))!
    expect(follow.round).toBeGreaterThan(scaled.round)
  })

  it('gives the same timeline, pod names included, for the same input and seed, and other names for another seed', async () => {
    const run = async (seed?: string) => {
      const sim = await openSim(deployment('web', 3), seed)
      return JSON.stringify((await sim.run()).steps)
    }
    expect(await run()).toBe(await run())
    expect(await run('a')).toBe(await run('a'))
    expect(await run('a')).not.toBe(await run('b'))
  })

  it('stops at --until', async () => {
    const sim = await settled(deployment('web', 10))
    applySetImage(sim.world, 'default', newImage)
    const r = await sim.run({untilSeconds: 15})
    expect(r.endedBy).toBe('until')
    expect(r.steps.every((s) => s.offsetSeconds <= 15)).toBe(true)
    expect(r.deployments[0].final.replicaSets.map((x) => x.replicas)).toEqual([3, 10])
  })
})
