// docs/replicaset-controller.md §4: the status a sync writes (calculateStatus, updateReplicaSetStatus,
// IsPodAvailable) and the scenarios of table 4.3.
import {describe, expect, it} from 'vitest'
import {isPodAvailable} from '../../../../src/reconcile/status.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {
  ago,
  condition,
  creates,
  FIXED_NOW,
  planFor,
  pod,
  replicaSet,
  replicationController,
  statusUpdate,
} from '../../../helpers/builders.js'

const NOW = parseRfc3339(FIXED_NOW)!
const inSyncStatus = {replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, terminatingReplicas: 0}

describe('§4.1 status fields, from the claimed active pods before this sync\'s actions', () => {
  it('§4.1.1 replicas = number of active claimed pods (adopted ones included, foreign/terminal/terminating not)', () => {
    const rs = replicaSet('web', {replicas: 5})
    const other = replicaSet('other')
    const plan = planFor(rs, [
      pod('a', {owner: rs}),
      pod('orphan'),
      pod('theirs', {owner: other}),
      pod('failed', {owner: rs, phase: 'Failed', ready: false}),
      pod('dying', {owner: rs, deleting: true}),
    ])
    expect(statusUpdate(plan)?.to.replicas).toBe(2)
  })

  it('§4.1.2 fullyLabeledReplicas = pods carrying all template labels (extra pod labels are fine)', () => {
    const rs = replicaSet('web', {replicas: 3, selector: {matchLabels: {app: 'web'}}, templateLabels: {app: 'web', tier: 'fe'}})
    const plan = planFor(rs, [
      pod('full', {owner: rs, labels: {app: 'web', tier: 'fe'}}),
      pod('extra', {owner: rs, labels: {app: 'web', tier: 'fe', debug: 'yes'}}),
      pod('partial', {owner: rs, labels: {app: 'web'}}),
      pod('wrong', {owner: rs, labels: {app: 'web', tier: 'be'}}),
    ])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 4, fullyLabeledReplicas: 2})
  })

  it('§4.1.3 readyReplicas = pods with condition Ready=True (phase not consulted)', () => {
    const rs = replicaSet('web', {replicas: 3})
    const plan = planFor(rs, [pod('r', {owner: rs}), pod('n', {owner: rs, ready: false}), pod('pending-ready', {owner: rs, phase: 'Pending'})])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 3, readyReplicas: 2})
  })

  it('§4.1.4 available: minReadySeconds 0, or a non-zero ready time + minReadySeconds strictly before now', () => {
    expect(isPodAvailable(pod('a', {readySince: ago(0)}), 0, NOW)).toBe(true)
    expect(isPodAvailable(pod('a', {ready: false}), 0, NOW)).toBe(false)
    expect(isPodAvailable(pod('a', {readySince: ago(10)}), 10, NOW)).toBe(false)
    expect(isPodAvailable(pod('a', {readySince: ago(11)}), 10, NOW)).toBe(true)
    expect(isPodAvailable(pod('a', {readySince: null}), 10, NOW)).toBe(false)
    // The controller's clock keeps full precision: 10.001 s after a whole-second ready time is available.
    expect(isPodAvailable(pod('a', {readySince: ago(10)}), 10, NOW + 1_000_000n)).toBe(true)
  })

  it('§4.1.4 availableReplicas counts only Ready pods that are available', () => {
    const rs = replicaSet('web', {replicas: 3, minReadySeconds: 30})
    const plan = planFor(rs, [pod('old', {owner: rs, readySince: ago(600)}), pod('fresh', {owner: rs, readySince: ago(5)}), pod('unready', {owner: rs, ready: false})])
    expect(statusUpdate(plan)?.to).toMatchObject({readyReplicas: 2, availableReplicas: 1})
  })

  it('§4.1.5 terminatingReplicas: ReplicaSet only, with the gate on; absent with the gate off', () => {
    const rs = replicaSet('web', {replicas: 1})
    const pods = [pod('a', {owner: rs}), pod('t1', {owner: rs, deleting: true}), pod('t2', {owner: rs, deleting: true})]
    expect(statusUpdate(planFor(rs, pods))?.to.terminatingReplicas).toBe(2)
    const off = planFor(rs, pods, {gates: {DeploymentReplicaSetTerminatingReplicas: false}})
    expect(off.status).not.toHaveProperty('terminatingReplicas')
    const rc = replicationController('web', {replicas: 1})
    expect(planFor(rc, [pod('a', {owner: rc}), pod('t', {owner: rc, deleting: true})]).status).not.toHaveProperty('terminatingReplicas')
  })

  it('§4.1.6 observedGeneration = metadata.generation of the RS, set when a write happens', () => {
    const rs = replicaSet('web', {replicas: 1, generation: 7, status: {observedGeneration: 6}})
    const plan = planFor(rs, [pod('a', {owner: rs})])
    expect(statusUpdate(plan)?.to.observedGeneration).toBe(7)
    expect(statusUpdate(plan)?.from.observedGeneration).toBe(6)
  })

  it('§4.1.7 ReplicaFailure is added when manageReplicas fails and none exists: reason by the sign of the diff, message = error, time = now (whole seconds)', () => {
    const rc = replicationController('bare', {templateLabels: {}, selector: {matchLabels: {app: 'x'}}, replicas: 2})
    const plan = planFor(rc, [], {now: '2026-11-22T10:00:00.750Z'})
    expect(statusUpdate(plan)?.to.conditions).toEqual([
      {type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'unable to create pods, no labels', lastTransitionTime: '2026-11-22T10:00:00Z'},
    ])
  })

  it('§4.1.7 an existing ReplicaFailure is not updated on a later error (message stays from the first failure)', () => {
    const first = condition('ReplicaFailure', {reason: 'FailedCreate', message: 'pods "web-x" is forbidden: exceeded quota'})
    const rc = replicationController('bare', {templateLabels: {}, selector: {matchLabels: {app: 'x'}}, replicas: 2, status: {conditions: [first]}})
    expect(planFor(rc, []).status.conditions).toEqual([first])
  })

  it('§4.1.7 no error in this sync and a ReplicaFailure exists: it is removed; other conditions are preserved', () => {
    const custom = condition('example.com/Custom', {reason: 'Mine'})
    const rs = replicaSet('web', {
      replicas: 2,
      status: {...inSyncStatus, conditions: [custom, condition('ReplicaFailure', {reason: 'FailedCreate', message: 'quota'})]},
    })
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('b', {owner: rs})])
    expect(statusUpdate(plan)?.to.conditions).toEqual([custom])
  })
})

describe('§4.2 when the write is skipped', () => {
  const rs = (over: Parameters<typeof replicaSet>[1] = {}) => replicaSet('web', {replicas: 2, status: inSyncStatus, ...over})
  const pods = (w: ReturnType<typeof replicaSet>) => [pod('a', {owner: w}), pod('b', {owner: w})]

  it('§4.2 skipped when every count, terminatingReplicas, observedGeneration == generation and the conditions are unchanged', () => {
    const w = rs({status: {...inSyncStatus, conditions: [condition('example.com/Custom')]}})
    const plan = planFor(w, pods(w))
    expect(statusUpdate(plan)).toBeUndefined()
    expect(plan.inSync).toBe(true)
  })

  it('§4.2 written when any count differs', () => {
    for (const field of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'] as const) {
      const w = rs({status: {...inSyncStatus, [field]: 1}})
      expect(statusUpdate(planFor(w, pods(w)))?.to[field], field).toBe(field === 'terminatingReplicas' ? 0 : 2)
    }
  })

  it('§4.2 terminatingReplicas nil vs 0 is a difference (both nil or the same value)', () => {
    const {terminatingReplicas: _, ...withoutTerminating} = inSyncStatus
    const w = rs({status: withoutTerminating})
    expect(statusUpdate(planFor(w, pods(w)))?.to.terminatingReplicas).toBe(0)
    // Gate off: both nil → skipped.
    expect(statusUpdate(planFor(w, pods(w), {gates: {DeploymentReplicaSetTerminatingReplicas: false}}))).toBeUndefined()
  })

  it('§4.2 written when the condition list differs', () => {
    const w = rs({status: {...inSyncStatus, conditions: [condition('ReplicaFailure', {reason: 'FailedDelete'})]}})
    expect(statusUpdate(planFor(w, pods(w)))?.to.conditions).toEqual([])
  })
})

describe('§4.3 tricky scenarios (status)', () => {
  it('4.3.1 minReadySeconds=10, Ready since exactly now−10 s → ready 1, available 0 (strict); at now−11 s → available 1', () => {
    const rs = replicaSet('web', {replicas: 1, minReadySeconds: 10})
    expect(statusUpdate(planFor(rs, [pod('a', {owner: rs, readySince: ago(10)})]))?.to).toMatchObject({readyReplicas: 1, availableReplicas: 0})
    expect(statusUpdate(planFor(rs, [pod('a', {owner: rs, readySince: ago(11)})]))?.to).toMatchObject({readyReplicas: 1, availableReplicas: 1})
  })

  it('4.3.2 minReadySeconds=0, Ready condition True but phase Pending → ready 1, available 1', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [pod('a', {owner: rs, phase: 'Pending', readySince: ago(1)})])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 1, readyReplicas: 1, availableReplicas: 1})
  })

  it('4.3.3 template {app: a, tier: web}, selector {app: a}, pods {app: a} ×2 → replicas 2, fullyLabeledReplicas 0', () => {
    const rs = replicaSet('web', {replicas: 2, selector: {matchLabels: {app: 'a'}}, templateLabels: {app: 'a', tier: 'web'}})
    const plan = planFor(rs, [pod('p1', {owner: rs, labels: {app: 'a'}}), pod('p2', {owner: rs, labels: {app: 'a'}})])
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 2, fullyLabeledReplicas: 0})
  })

  it('4.3.4 counts unchanged, template edited (generation 3, observedGeneration 2) → written with observedGeneration 3', () => {
    const rs = replicaSet('web', {replicas: 2, generation: 3, status: {...inSyncStatus, observedGeneration: 2}})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('b', {owner: rs})])
    expect(statusUpdate(plan)?.to).toEqual({...inSyncStatus, observedGeneration: 3, conditions: []})
    expect(plan.status.observedGeneration).toBe(3)
  })

  // 4.3.5 (ReplicaFailure removed when the sync is skipped for pending expectations) depends on expectations: not modelled.

  it('4.3.5 (stateless form) manageReplicas not called because the RS is being deleted → its ReplicaFailure is removed', () => {
    const rs = replicaSet('web', {replicas: 3, deleting: true, status: {...inSyncStatus, conditions: [condition('ReplicaFailure', {reason: 'FailedCreate'})]}})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('b', {owner: rs})])
    expect(creates(plan)).toEqual([])
    expect(statusUpdate(plan)?.to.conditions).toEqual([])
  })

  it('4.3.6 scale 3 → 5 with 3 Ready pods: this sync creates 2 and writes replicas 3; the next sync writes 5', () => {
    const rs = replicaSet('web', {replicas: 5, generation: 2, status: {replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, terminatingReplicas: 0}})
    const pods = ['a', 'b', 'c'].map((n) => pod(n, {owner: rs}))
    const plan = planFor(rs, pods)
    expect(creates(plan)).toHaveLength(2)
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 3, observedGeneration: 2})
    const next = replicaSet('web', {replicas: 5, generation: 2, status: {...statusUpdate(plan)!.to, conditions: []}})
    const more = [...pods, pod('d', {owner: next, readySince: ago(1)}), pod('e', {owner: next, readySince: ago(1)})]
    expect(statusUpdate(planFor(next, more))?.to).toMatchObject({replicas: 5, readyReplicas: 5})
  })
})
