// docs/replicaset-controller.md §1.2: which pods are active (IsPodActive, FilterActivePods, IsPodTerminating).
import {describe, expect, it} from 'vitest'
import {isPodActive, isPodTerminating} from '../../../src/reconcile/pods.js'
import {creates, deleted, planFor, pod, replicaSet, statusUpdate} from '../../helpers/builders.js'

describe('§1.2 active pods', () => {
  it('§1.2.1 active ⇔ phase not Succeeded/Failed and no deletionTimestamp', () => {
    expect(isPodActive(pod('a', {phase: 'Running'}))).toBe(true)
    expect(isPodActive(pod('a', {phase: 'Pending'}))).toBe(true)
    expect(isPodActive(pod('a', {phase: 'Unknown'}))).toBe(true)
    expect(isPodActive(pod('a', {phase: 'Succeeded'}))).toBe(false)
    expect(isPodActive(pod('a', {phase: 'Failed'}))).toBe(false)
    expect(isPodActive(pod('a', {phase: 'Running', deleting: true}))).toBe(false)
    expect(isPodActive(pod('a', {phase: 'Pending', deleting: true}))).toBe(false)
  })

  it('§1.2.2 a Pending, unscheduled pod is active and counts toward replicas', () => {
    const rs = replicaSet('web', {replicas: 1})
    const p = pod('pending', {owner: rs, phase: 'Pending', node: '', ready: false})
    expect(isPodActive(p)).toBe(true)
    const plan = planFor(rs, [p])
    expect(plan.active).toBe(1)
    expect(plan.diff).toBe(0)
    expect(creates(plan)).toEqual([])
  })

  it('§1.2.3 a terminating pod is not active: it is replaced at once and only feeds terminatingReplicas', () => {
    const rs = replicaSet('web', {replicas: 2})
    const dying = pod('dying', {owner: rs, deleting: true})
    expect(isPodActive(dying)).toBe(false)
    expect(isPodTerminating(dying)).toBe(true)
    const plan = planFor(rs, [pod('a', {owner: rs}), dying])
    expect(plan.active).toBe(1)
    expect(creates(plan)).toHaveLength(1)
    expect(deleted(plan)).toEqual([])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 1, terminatingReplicas: 1})
  })

  it('§1.2.3 a terminal pod with a deletionTimestamp is not terminating', () => {
    expect(isPodTerminating(pod('a', {phase: 'Failed', deleting: true}))).toBe(false)
    expect(isPodTerminating(pod('a', {phase: 'Succeeded', deleting: true}))).toBe(false)
    expect(isPodTerminating(pod('a', {phase: 'Running'}))).toBe(false)
  })

  it('§1.2.4 Succeeded/Failed pods are neither counted nor deleted, even when there are too many', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [
      pod('running', {owner: rs}),
      pod('evicted', {owner: rs, phase: 'Failed', ready: false}),
      pod('done', {owner: rs, phase: 'Succeeded', ready: false}),
    ])
    expect(plan.active).toBe(1)
    expect(plan.diff).toBe(0)
    expect(deleted(plan)).toEqual([])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 1, terminatingReplicas: 0})
  })

  it('§1.2.5 a pod with an empty phase is active', () => {
    const rs = replicaSet('web', {replicas: 1})
    const p = pod('nophase', {owner: rs, phase: '', ready: false})
    expect(isPodActive(p)).toBe(true)
    expect(planFor(rs, [p]).active).toBe(1)
  })
})
