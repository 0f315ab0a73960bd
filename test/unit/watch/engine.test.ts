// The watch engine: informer events in, plan changes out — nothing planned before every cache
// synced, only the affected controllers planned again, resync updates of pods skipped, causes
// named, the clock's requeue for minReadySeconds, and a planning failure retried with backoff.
import {describe, expect, it} from 'vitest'

import type {PodView} from '../../../src/model/objects.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import type {PlanChange, WatchUpdate} from '../../../src/model/watch.js'
import {ManualClock} from '../../helpers/manual-clock.js'
import {WatchEngine} from '../../../src/watch/engine.js'
import {deepFreeze} from '../../../src/watch/objects.js'
import {ago, pod, replicaSet} from '../../helpers/builders.js'

function engine(o: {fixedNow?: string} = {}) {
  const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'))
  const updates: WatchUpdate[] = []
  let deferred: (() => void) | undefined
  const e = new WatchEngine({featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500, clock, fixedNow: o.fixedNow, emit: (u) => updates.push(u), defer: (fn) => (deferred = fn)})
  const flush = () => {
    const fn = deferred
    deferred = undefined
    fn?.()
  }
  const changes = () => updates.filter((u): u is PlanChange => u.kind === 'PlanChange')
  return {e, clock, updates, flush, changes}
}

const web = deepFreeze(replicaSet('web', {replicas: 2, status: {replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, terminatingReplicas: 0}}))
const api = deepFreeze(replicaSet('api', {replicas: 1, templateLabels: {app: 'api'}, status: {replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0}}))
const p = (name: string, o: Parameters<typeof pod>[1] = {}) => deepFreeze(pod(name, {owner: web, ...o}))

describe('WatchEngine', () => {
  it('plans nothing before every cache synced; then reports synced and one INITIAL change per controller', () => {
    const {e, updates, flush} = engine()
    e.workloadHandler.onAdd!(web, true)
    e.workloadHandler.onAdd!(api, true)
    for (const x of [p('web-1'), p('web-2'), deepFreeze(pod('api-1', {owner: api, labels: {app: 'api'}}))]) e.podHandler.onAdd!(x, true)
    flush()
    expect(updates).toEqual([])
    e.markSynced({message: 'listed'})
    expect(updates.map((u) => (u.kind === 'WatchStatus' ? u.status : `${u.event.type} ${u.key}`))).toEqual(['synced', 'INITIAL ReplicaSet/default/api', 'INITIAL ReplicaSet/default/web'])
    expect(e.converged).toBe(true)
  })

  it('a pod event re-plans its controller only, and names the event', () => {
    const {e, flush, changes} = engine()
    e.workloadHandler.onAdd!(web, true)
    e.workloadHandler.onAdd!(api, true)
    const one = p('web-1')
    e.podHandler.onAdd!(one, true)
    e.podHandler.onAdd!(p('web-2'), true)
    e.podHandler.onAdd!(deepFreeze(pod('api-1', {owner: api, labels: {app: 'api'}})), true)
    e.markSynced()
    const before = changes().length
    const notReady = p('web-1', {ready: false, resourceVersion: '101'})
    e.podHandler.onUpdate!(one, notReady, 'watch')
    flush()
    const after = changes().slice(before)
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({key: 'ReplicaSet/default/web', event: {type: 'MODIFIED', kind: 'Pod', namespace: 'default', name: 'web-1', resourceVersion: '101'}})
    expect(after[0].changed).toEqual(['ready', 'actions', 'status'])
    expect(e.converged).toBe(false)
    expect(e.pending().map((x) => x.name)).toEqual(['web'])
  })

  it('a resync (same resourceVersion) of a pod is skipped; of a controller it plans again', () => {
    const {e, flush, changes} = engine()
    e.workloadHandler.onAdd!(web, true)
    const one = p('web-1')
    e.podHandler.onAdd!(one, true)
    e.markSynced()
    e.podHandler.onUpdate!(one, one, 'resync')
    expect(e.queue.length).toBe(0)
    e.workloadHandler.onUpdate!(web, web, 'resync')
    expect(e.queue.length).toBe(1)
    flush()
    // Nothing changed, so nothing is reported.
    expect(changes()).toHaveLength(1)
  })

  it('a deleted controller is reported gone; a deleted pod names its DELETED event (relist: a tombstone)', () => {
    const {e, flush, changes} = engine()
    e.workloadHandler.onAdd!(web, true)
    const one = p('web-1')
    e.podHandler.onAdd!(one, true)
    e.markSynced()
    e.podHandler.onDelete!(one, 'relist')
    flush()
    expect(changes().at(-1)).toMatchObject({event: {type: 'DELETED', kind: 'Pod', name: 'web-1', relist: true}, next: {active: 0}})
    e.workloadHandler.onDelete!(web, 'watch')
    flush()
    expect(changes().at(-1)).toMatchObject({key: 'ReplicaSet/default/web', next: undefined, event: {type: 'DELETED', kind: 'ReplicaSet'}})
    expect(e.controllers).toBe(0)
  })

  it('many events for one controller before the batch runs: one plan, named after the last event', () => {
    const {e, flush, changes} = engine()
    e.workloadHandler.onAdd!(web, true)
    e.markSynced()
    for (let i = 0; i < 5; i++) e.podHandler.onAdd!(p(`web-${i}`), false)
    flush()
    const after = changes().slice(1)
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({event: {type: 'ADDED', name: 'web-4'}, next: {active: 5, diff: 3}})
  })

  it('minReadySeconds: plans again when a Ready pod becomes available, on the clock alone (CLOCK)', async () => {
    const {e, clock, flush, changes} = engine()
    const slow = deepFreeze(replicaSet('slow', {replicas: 1, minReadySeconds: 30, templateLabels: {app: 'slow'}, status: {replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 0, terminatingReplicas: 0}}))
    e.workloadHandler.onAdd!(slow, true)
    e.podHandler.onAdd!(deepFreeze(pod('slow-1', {owner: slow, labels: {app: 'slow'}, readySince: ago(10)})), true)
    e.markSynced()
    expect(changes()[0].next).toMatchObject({inSync: true, status: {availableReplicas: 0}})
    await clock.advance(19_000)
    flush()
    expect(changes()).toHaveLength(1)
    await clock.advance(2_000)
    flush()
    expect(changes()).toHaveLength(2)
    expect(changes()[1]).toMatchObject({event: {type: 'CLOCK'}, next: {inSync: false}})
    expect(changes()[1].next!.actions).toEqual([expect.objectContaining({type: 'updateStatus', to: expect.objectContaining({availableReplicas: 1})})])
  })

  it('a planning failure is reported once and retried with backoff', async () => {
    const {e, clock, flush, updates} = engine()
    e.workloadHandler.onAdd!(web, true)
    const planner = e.planner as unknown as {plan: (...a: unknown[]) => unknown}
    const real = planner.plan.bind(e.planner)
    let fail = 2
    planner.plan = (keys: unknown, now: unknown) => {
      if (fail-- > 0) return {replanned: [], failed: new Map([['ReplicaSet/default/web', new Error('boom')]])}
      return real(keys, now)
    }
    e.markSynced()
    expect(updates.filter((u) => u.kind === 'WatchStatus' && u.status === 'error')).toHaveLength(1)
    expect(e.queue.numRequeues('ReplicaSet/default/web')).toBe(1)
    await clock.advance(5)
    flush()
    expect(e.queue.numRequeues('ReplicaSet/default/web')).toBe(2)
    await clock.advance(10)
    flush()
    expect(e.queue.numRequeues('ReplicaSet/default/web')).toBe(0)
    expect(updates.filter((u) => u.kind === 'WatchStatus' && u.status === 'error')).toHaveLength(1)
    expect(updates.at(-1)).toMatchObject({kind: 'PlanChange', key: 'ReplicaSet/default/web'})
  })

  it('never changes the objects it is given (they are frozen)', () => {
    const {e, flush} = engine()
    const pods: PodView[] = [p('web-1'), p('web-2'), p('web-3'), deepFreeze(pod('orphan', {labels: {app: 'web'}}))]
    e.workloadHandler.onAdd!(web, true)
    for (const x of pods) e.podHandler.onAdd!(x, true)
    expect(() => e.markSynced()).not.toThrow()
    flush()
    expect(e.plans()[0].actions.map((a) => a.type)).toEqual(['adopt', 'delete', 'delete', 'updateStatus'])
  })
})
