// docs/replicaset-controller.md §1: one sync of a ReplicaSet / ReplicationController — the diff, the burst
// limit, slow start, the shape of created pods, a controller being deleted, RC specifics, and the
// tricky scenarios of table 1.8.
import {describe, expect, it} from 'vitest'
import {slowStart, slowStartBatches} from '../../../../src/reconcile/slow-start.js'
import {
  actionTypes,
  adopts,
  condition,
  controllerPlan,
  controllerRefTo,
  creates,
  deleted,
  deletes,
  planFor,
  planOf,
  pod,
  releases,
  replicaSet,
  replicationController,
  snapshotOf,
  statusUpdate,
} from '../../../helpers/builders.js'

const owned = (rs: ReturnType<typeof replicaSet>, n: number, prefix = 'p') =>
  Array.from({length: n}, (_, i) => pod(`${prefix}${String(i).padStart(3, '0')}`, {owner: rs}))

describe('§1.1 the sync loop', () => {
  // §1.1.2 (the staleness guard, KEP-5647) needs the informer cache's last synced resourceVersion, which no
  // snapshot holds: kctl does not model it (README, "What kctl cannot know").

  it('§1.1.3 a controller that is not in the snapshot gets no plan and its pods are left alone', () => {
    const gone = replicaSet('gone')
    const other = replicaSet('other', {templateLabels: {app: 'other'}, replicas: 0})
    const plan = planOf(snapshotOf({workloads: [other], pods: [pod('orphaned-by-gone', {owner: gone})]}))
    expect(plan.controllers.map((c) => c.name)).toEqual(['other'])
    expect(plan.summary).toMatchObject({create: 0, delete: 0, adopt: 0, release: 0})
  })

  // §1.1.4 (expectations not yet satisfied → no create/delete) depends on the controller's in-memory
  // expectations: not modelled (README, "What kctl cannot know").

  it('§1.1.5 an invalid selector: the sync returns without error and does nothing (no status write)', () => {
    const rs = replicaSet('web', {replicas: 2, selector: {matchExpressions: [{key: 'app', operator: 'Exists', values: ['x']}]}, generation: 2})
    const plan = planFor(rs, [pod('a', {owner: rs})])
    expect(plan.actions).toEqual([])
    expect(plan.inSync).toBe(true)
    expect(plan.status.observedGeneration).toBe(1)
  })

  it('§1.1.6 only pods of the controller\'s namespace are candidates', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [pod('elsewhere', {namespace: 'other'})])
    expect(adopts(plan)).toEqual([])
    expect(plan.active).toBe(0)
    expect(creates(plan)).toHaveLength(1)
  })

  it('§1.1.7/8 claiming sees active pods only, then counts the claimed ones', () => {
    const rs = replicaSet('web', {replicas: 3})
    const plan = planFor(rs, [
      pod('mine', {owner: rs}),
      pod('orphan'),
      pod('dying-orphan', {deleting: true}),
      pod('failed-orphan', {phase: 'Failed', ready: false}),
    ])
    expect(adopts(plan).map((a) => a.pod)).toEqual(['orphan'])
    expect(plan.active).toBe(2)
    expect(creates(plan)).toHaveLength(1)
  })

  it('§1.1.9 terminatingPods: controlled by us, matching, deletionTimestamp, not terminal — RS only', () => {
    const rs = replicaSet('web', {replicas: 0})
    const pods = [
      pod('t-mine', {owner: rs, deleting: true}),
      pod('t-mine-nomatch', {owner: rs, deleting: true, labels: {app: 'other'}}),
      pod('t-orphan', {deleting: true}),
      pod('t-mine-failed', {owner: rs, deleting: true, phase: 'Failed', ready: false}),
    ]
    expect(statusUpdate(planFor(rs, pods))?.to.terminatingReplicas).toBe(1)
    const rc = replicationController('web', {replicas: 0})
    const rcPods = [pod('t-mine', {owner: rc, deleting: true})]
    const rcStatus = planFor(rc, rcPods).status
    expect(rcStatus).not.toHaveProperty('terminatingReplicas')
  })

  it('§1.1.10 a controller with a deletionTimestamp creates and deletes nothing, and never will: nothing is pending', () => {
    const up = replicaSet('up', {replicas: 3, deleting: true})
    const upPlan = planFor(up, [pod('a', {owner: up})])
    expect(creates(upPlan)).toEqual([])
    expect(upPlan.diff).toBe(-2)
    expect(upPlan.pending).toBe(0)
    const down = replicaSet('down', {replicas: 0, deleting: true})
    const downPlan = planFor(down, [pod('a', {owner: down}), pod('b', {owner: down})])
    expect(deletes(downPlan)).toEqual([])
    expect(downPlan.diff).toBe(2)
    expect(downPlan.pending).toBe(0)
    expect(downPlan.warnings.some((w) => /delet/i.test(w))).toBe(true)
  })

  it('§1.1.11 the status is computed from the pre-action pod list', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, owned(rs, 3))
    expect(deletes(plan)).toHaveLength(2)
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 3, readyReplicas: 3, availableReplicas: 3})
  })

  // §1.1.12 (requeue after minReadySeconds): watch mode's availability check, tested in
  // test/unit/watch/incremental.test.ts ("the availability check is when the next Ready pod passes minReadySeconds").

  it('§1.1 actions come in the order the sync does them: claim (adopt/release), then create or delete, then status', () => {
    const rs = replicaSet('web', {replicas: 0})
    const plan = planFor(rs, [pod('orphan'), pod('stray', {owner: rs, labels: {app: 'x'}}), pod('mine', {owner: rs})])
    const types = actionTypes(plan)
    expect(types.slice(0, 2).sort()).toEqual(['adopt', 'release'])
    expect(types.slice(2)).toEqual(['delete', 'delete', 'updateStatus'])
  })
})

describe('§1.3 the diff (manageReplicas)', () => {
  it('§1.3 diff = len(activePods) − spec.replicas, signed', () => {
    const rs = replicaSet('web', {replicas: 5})
    const plan = planFor(rs, owned(rs, 2))
    expect(plan.desired).toBe(5)
    expect(plan.active).toBe(2)
    expect(plan.diff).toBe(-3)
  })

  it('§1.3 too few, rule 1: n = min(−diff, burstReplicas = 500)', () => {
    const rs = replicaSet('web', {replicas: 3})
    const small = planFor(rs, [])
    expect(creates(small)).toHaveLength(3)
    expect(small.pending).toBe(0)
    const big = planFor(replicaSet('web', {replicas: 501}), [])
    expect(creates(big)).toHaveLength(500)
    expect(big.pending).toBe(1)
    const burst = planFor(rs, [], {burst: 2})
    expect(creates(burst)).toHaveLength(2)
    expect(burst.pending).toBe(1)
  })

  it('§1.3 too few, rule 3: slow start — batches 1, 2, 4, … each capped by what remains', () => {
    expect(slowStartBatches(0)).toEqual([])
    expect(slowStartBatches(1)).toEqual([1])
    expect(slowStartBatches(3)).toEqual([1, 2])
    expect(slowStartBatches(5)).toEqual([1, 2, 2])
    expect(slowStartBatches(7)).toEqual([1, 2, 4])
    expect(slowStartBatches(8)).toEqual([1, 2, 4, 1])
    expect(slowStartBatches(500)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 245])
  })

  it('§1.3 too few, rules 3 and 5: after a batch with a failure no further batch; skipped = n − successes', async () => {
    let call = 0
    const outcome = await slowStart(10, async () => ++call !== 4) // the 4th call (in batch 3) fails
    expect(outcome.batches).toEqual([1, 2, 4])
    expect(outcome.successes).toBe(6)
    expect(outcome.skipped).toBe(4)
    expect(call).toBe(7)
  })

  // §1.3 rule 4 (a create refused with NamespaceTerminating counts as success): the executor's, tested in
  // test/unit/controllers/replicaset/apply.test.ts and, on the real API server, test/e2e/reconcile.e2e.test.ts.

  it('§1.3 too many, rule 1: n = min(diff, 500)', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, owned(rs, 4))
    expect(deletes(plan)).toHaveLength(3)
    expect(plan.pending).toBe(0)
    const burst = planFor(rs, owned(rs, 4), {burst: 2})
    expect(deletes(burst)).toHaveLength(2)
    expect(burst.pending).toBe(1)
  })

  it('§1.3 too many: 502 pods scaled to 0 → 500 ranked deletes, 2 pending', () => {
    const rs = replicaSet('web', {replicas: 0})
    const pods = owned(rs, 502)
    // Two pods stand out as the most deletable; they must be among the 500 (ranked, not "all").
    pods[100] = pod('p100', {owner: rs, ready: false})
    pods[200] = pod('p200', {owner: rs, node: '', phase: 'Pending', ready: false})
    const plan = planFor(rs, pods)
    expect(deletes(plan)).toHaveLength(500)
    expect(plan.pending).toBe(2)
    expect(deleted(plan).slice(0, 2)).toEqual(['p200', 'p100'])
    expect(deletes(plan)[0].decidedBy).toBe('unassigned')
  })

  it('§1.3 too many, rule 2: n ≥ len(activePods) → all deleted unranked, decidedBy "all"', () => {
    const rs = replicaSet('web', {replicas: 0})
    const plan = planFor(rs, owned(rs, 3))
    expect(deleted(plan).sort()).toEqual(['p000', 'p001', 'p002'])
    for (const d of deletes(plan)) {
      expect(d.decidedBy).toBe('all')
      expect(d.tie).toBeUndefined()
    }
  })

  it('§1.3 diff == 0: nothing to create or delete; an up-to-date status means the controller is in sync', () => {
    const rs = replicaSet('web', {
      replicas: 2,
      status: {replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, terminatingReplicas: 0},
    })
    const plan = planFor(rs, owned(rs, 2))
    expect(plan.actions).toEqual([])
    expect(plan.inSync).toBe(true)
    expect(plan.pending).toBe(0)
  })
})

// §1.4 (expectations: add/del counts, 5-minute expiry, UID tracking) is the controller's in-memory state: not modelled.
// §1.6 (the event handlers: what enqueues a sync) is watch mode's, tested in test/unit/watch/incremental.test.ts
// ("a pod event names its owner and every controller matching its old or new labels").

describe('§1.5 building a pod from the template', () => {
  const rs = replicaSet('web', {
    replicas: 1,
    templateLabels: {app: 'web', tier: 'fe'},
    templateAnnotations: {'example.com/a': '1'},
    finalizers: ['example.com/keep'],
  })

  it('§1.5.1–3 labels, annotations and finalizers are copies of the template\'s', () => {
    const [c] = creates(planFor(rs, []))
    expect(c.labels).toEqual({app: 'web', tier: 'fe'})
    expect(c.annotations).toEqual({'example.com/a': '1'})
    expect(c.finalizers).toEqual(['example.com/keep'])
  })

  it('§1.5.4 generateName is "<controller name>-"', () => {
    const [c] = creates(planFor(rs, []))
    expect(c.generateName).toBe('web-')
    expect(c.nameBase).toBe('web-')
  })

  it('§1.5.4 a 253-character name is not a valid prefix with the dash: generateName is the bare name', () => {
    const name = `${'a'.repeat(252)}b`
    const [c] = creates(planFor(replicaSet(name, {replicas: 1}), []))
    expect(c.generateName).toBe(name)
    expect(c.nameBase).toBe(name.slice(0, 58))
    const [d] = creates(planFor(replicaSet('a'.repeat(252), {replicas: 1}), []))
    expect(d.generateName).toBe(`${'a'.repeat(252)}-`)
  })

  it('§1.5.5 exactly one ownerReference: the controller ref, controller and blockOwnerDeletion true', () => {
    const [c] = creates(planFor(rs, []))
    expect(c.ownerReference).toEqual({apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.uid, controller: true, blockOwnerDeletion: true})
    const rc = replicationController('legacy', {replicas: 1})
    const [r] = creates(planFor(rc, []))
    expect(r.ownerReference).toEqual({apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.uid, controller: true, blockOwnerDeletion: true})
  })

  // §1.5.6 (the spec deep-copied from the template, the controller's namespace): podFromTemplate, tested in
  // test/unit/controllers/replicaset/apply.test.ts.

  // §1.5.8 (events: SuccessfulCreate, FailedCreate, …) are not part of a plan, and kctl writes none.

  it('§1.5.7 empty template labels: the create fails client-side with "unable to create pods, no labels"', () => {
    const bare = replicationController('bare', {templateLabels: {}, selector: {matchLabels: {app: 'x'}}, replicas: 1})
    const [c] = creates(planFor(bare, []))
    expect(c.error).toBe('unable to create pods, no labels')
  })
})

describe('§1.7 ReplicationController specifics', () => {
  it('§1.7.1 the RC map selector works as matchLabels; owner refs say v1 / ReplicationController', () => {
    const rc = replicationController('rc', {templateLabels: {app: 'x'}, replicas: 2})
    const plan = planFor(rc, [pod('orphan', {labels: {app: 'x'}})])
    expect(plan.kind).toBe('ReplicationController')
    expect(plan.apiVersion).toBe('v1')
    expect(adopts(plan).map((a) => a.pod)).toEqual(['orphan'])
    expect(creates(plan)).toHaveLength(1)
    expect(creates(plan)[0].ownerReference).toMatchObject({apiVersion: 'v1', kind: 'ReplicationController', controller: true, blockOwnerDeletion: true})
  })

  it('§1.7.2 RC status never has terminatingReplicas', () => {
    const rc = replicationController('rc', {replicas: 1})
    const plan = planFor(rc, [pod('a', {owner: rc}), pod('b', {owner: rc, deleting: true})])
    expect(statusUpdate(plan)?.to).not.toHaveProperty('terminatingReplicas')
    expect(plan.status).not.toHaveProperty('terminatingReplicas')
  })

  it('§1.7.3 burst limit and ranking are the RS\'s', () => {
    const rc = replicationController('rc', {replicas: 1})
    const plan = planFor(rc, [pod('ready', {owner: rc}), pod('unready', {owner: rc, ready: false}), pod('third', {owner: rc, readySince: '2026-11-22T09:59:00Z'})], {burst: 1})
    expect(deleted(plan)).toEqual(['unready'])
    expect(deletes(plan)[0].decidedBy).toBe('not-ready')
    expect(plan.pending).toBe(1)
    expect(creates(planFor(replicationController('rc', {replicas: 600}), []))).toHaveLength(500)
  })

  it('§1.7 an RC and an RS of the same name are planned separately, RS sorted after RC by kind', () => {
    const rs = replicaSet('same', {replicas: 1})
    const rc = replicationController('same', {replicas: 1, templateLabels: {app: 'legacy'}})
    const plan = planOf(snapshotOf({workloads: [rs, rc]}))
    expect(plan.controllers.map((c) => c.kind)).toEqual(['ReplicaSet', 'ReplicationController'])
    expect(creates(controllerPlan(plan, 'same', 'ReplicationController'))[0].labels).toEqual({app: 'legacy'})
  })
})

describe('§1.8 tricky scenarios (RS)', () => {
  it('1.8.1 replicas=5, 0 pods: 5 creates planned; slow start would send 1, 2 and stop after a failing batch 2', async () => {
    const rs = replicaSet('web', {replicas: 5})
    const plan = planFor(rs, [])
    expect(creates(plan)).toHaveLength(5)
    expect(plan.pending).toBe(0)
    // Status from the pre-action list: replicas 0 (written because terminatingReplicas goes nil → 0, §4.2).
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 0, terminatingReplicas: 0})
    expect(slowStartBatches(5)).toEqual([1, 2, 2])
    let call = 0
    const outcome = await slowStart(5, async () => ++call !== 2) // first call of batch 2 fails
    expect(outcome).toEqual({successes: 2, batches: [1, 2], skipped: 3})
  })

  // 1.8.1 (rest: ReplicaFailure=True FailedCreate with the quota message after a mid-batch failure): the
  // executor's, tested in test/unit/controllers/replicaset/apply.test.ts and test/e2e/reconcile.e2e.test.ts.

  it('1.8.2 replicas=600, 0 pods: 500 creates in batches 1…128, 245; pending 100', () => {
    const rs = replicaSet('web', {replicas: 600})
    const plan = planFor(rs, [])
    expect(creates(plan)).toHaveLength(500)
    expect(plan.pending).toBe(100)
    expect(slowStartBatches(500)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 245])
    // The next sync, once the 500 are observed, creates the remaining 100.
    const next = planFor(rs, owned(rs, 500))
    expect(creates(next)).toHaveLength(100)
    expect(next.pending).toBe(0)
  })

  it('1.8.3 replicas=3; 2 Ready + 1 Ready with deletionTimestamp: 1 create; status replicas 2, terminatingReplicas 1', () => {
    const rs = replicaSet('web', {replicas: 3})
    const pods = [pod('a', {owner: rs}), pod('b', {owner: rs}), pod('c', {owner: rs, deleting: true})]
    const plan = planFor(rs, pods)
    expect(plan.active).toBe(2)
    expect(creates(plan)).toHaveLength(1)
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 2, readyReplicas: 2, terminatingReplicas: 1})
    const gateOff = planFor(rs, pods, {gates: {DeploymentReplicaSetTerminatingReplicas: false}})
    expect(creates(gateOff)).toHaveLength(1)
    expect(statusUpdate(gateOff)?.to).not.toHaveProperty('terminatingReplicas')
    const rc = replicationController('web', {replicas: 3})
    const rcPlan = planFor(rc, [pod('a', {owner: rc}), pod('b', {owner: rc}), pod('c', {owner: rc, deleting: true})])
    expect(creates(rcPlan)).toHaveLength(1)
    expect(statusUpdate(rcPlan)?.to).not.toHaveProperty('terminatingReplicas')
  })

  it('1.8.4 replicas=2; 1 Running + 1 Failed (evicted), both owned: 1 create; the Failed pod is neither counted nor deleted', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [pod('running', {owner: rs}), pod('evicted', {owner: rs, phase: 'Failed', ready: false})])
    expect(plan.active).toBe(1)
    expect(creates(plan)).toHaveLength(1)
    expect(deleted(plan)).toEqual([])
    expect(statusUpdate(plan)?.to.replicas).toBe(1)
  })

  // 1.8.5 (creates not yet observed → no create/delete, status still written) depends on expectations: not modelled.

  it('1.8.6 RS with deletionTimestamp, replicas=3, 1 pod: nothing created, no adopt/release, status still written', () => {
    const rs = replicaSet('web', {replicas: 3, deleting: true})
    const plan = planFor(rs, [pod('mine', {owner: rs}), pod('orphan'), pod('edited', {owner: rs, labels: {app: 'other'}})])
    expect(creates(plan)).toEqual([])
    expect(adopts(plan)).toEqual([])
    expect(releases(plan)).toEqual([])
    expect(plan.active).toBe(1)
    expect(plan.pending).toBe(0)
    expect(statusUpdate(plan)?.to).toMatchObject({replicas: 1, readyReplicas: 1})
  })

  it('1.8.7 a 60-character RS name: generateName "<60 chars>-"; the API server keeps 58 characters (no dash)', () => {
    const name = `web-${'x'.repeat(56)}`
    expect(name).toHaveLength(60)
    const [c] = creates(planFor(replicaSet(name, {replicas: 1}), []))
    expect(c.generateName).toBe(`${name}-`)
    expect(c.nameBase).toBe(name.slice(0, 58))
    expect(c.nameBase.endsWith('-')).toBe(false)
  })

  it('1.8.8 template without labels: the create fails client-side "unable to create pods, no labels"; ReplicaFailure/FailedCreate', () => {
    const rc = replicationController('bare', {templateLabels: {}, selector: {matchLabels: {app: 'x'}}, replicas: 3})
    const plan = planFor(rc, [])
    const made = creates(plan)
    // Slow start: the first batch (one call) fails, so no further call is made.
    expect(made).toHaveLength(1)
    expect(made[0].error).toBe('unable to create pods, no labels')
    const to = statusUpdate(plan)?.to
    expect(to?.conditions).toEqual([
      {type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'unable to create pods, no labels', lastTransitionTime: '2026-11-22T10:00:00Z'},
    ])
    expect(to?.replicas).toBe(0)
  })

  it('1.8.8 an existing ReplicaFailure condition is kept as it was on a later failure', () => {
    const old = condition('ReplicaFailure', {reason: 'FailedCreate', message: 'exceeded quota'})
    const rc = replicationController('bare', {templateLabels: {}, selector: {matchLabels: {app: 'x'}}, replicas: 1, status: {conditions: [old]}})
    const plan = planFor(rc, [])
    expect(plan.status.conditions).toEqual([old])
  })

  it('the created pods carry the controller ref that would make the next sync count them', () => {
    const rs = replicaSet('web', {replicas: 1})
    const [c] = creates(planFor(rs, []))
    expect(c.ownerReference).toEqual(controllerRefTo(rs))
  })
})
