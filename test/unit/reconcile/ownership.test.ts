// docs/replicaset-controller.md §3: claiming pods (ClaimObject / ClaimPods), adoption and release, and the
// scenarios of table 3.5.
import {describe, expect, it} from 'vitest'
import type {OwnerReference} from '../../../src/model/objects.js'
import {claimPods} from '../../../src/reconcile/ownership.js'
import {compileLabelSelector} from '../../../src/reconcile/selector.js'
import {
  adopts,
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
  snapshotOf,
  statusUpdate,
} from '../../helpers/builders.js'

const claim = (rs: ReturnType<typeof replicaSet>, pods: ReturnType<typeof pod>[]) => {
  const r = claimPods(rs, compileLabelSelector(rs.selector), pods)
  return {claimed: r.claimed.map((p) => p.name), adopted: r.adopted.map((p) => p.name), released: r.released.map((p) => p.name)}
}

const configMapRef: OwnerReference = {apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', uid: 'uid-cm'}

describe('§3.1 ClaimObject rules', () => {
  const rs = replicaSet('web')
  const other = replicaSet('other-rs')
  const deleting = replicaSet('web', {deleting: true})

  it('§3.1.1 owned by someone else (controller ref UID differs): ignored — not claimed, not released, not counted', () => {
    expect(claim(rs, [pod('theirs', {owner: other}), pod('theirs-nomatch', {owner: other, labels: {app: 'x'}})])).toEqual({claimed: [], adopted: [], released: []})
    // Same name and kind but another UID (a re-created RS) is someone else too.
    const stale = {...controllerRefTo(rs), uid: 'uid-of-an-earlier-web'}
    expect(claim(rs, [pod('stale', {owner: stale})])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.2 owned by us and matching: claimed, even while we are being deleted', () => {
    expect(claim(rs, [pod('mine', {owner: rs})])).toEqual({claimed: ['mine'], adopted: [], released: []})
    expect(claim(deleting, [pod('mine', {owner: deleting})])).toEqual({claimed: ['mine'], adopted: [], released: []})
  })

  it('§3.1.2 owned by us and matching: claimed even if the pod itself is being deleted', () => {
    expect(claim(rs, [pod('dying', {owner: rs, deleting: true})]).claimed).toEqual(['dying'])
  })

  it('§3.1.3 owned by us, not matching: released (not claimed); left alone while we are being deleted', () => {
    expect(claim(rs, [pod('edited', {owner: rs, labels: {app: 'x'}})])).toEqual({claimed: [], adopted: [], released: ['edited']})
    expect(claim(deleting, [pod('edited', {owner: deleting, labels: {app: 'x'}})])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.4.1 an orphan is ignored while we are being deleted', () => {
    expect(claim(deleting, [pod('orphan')])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.4.2 an orphan whose labels do not match is ignored', () => {
    expect(claim(rs, [pod('orphan', {labels: {app: 'x'}})])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.4.3 an orphan with a deletionTimestamp is never adopted', () => {
    expect(claim(rs, [pod('orphan', {deleting: true})])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.4.4 an orphan in another namespace is ignored', () => {
    expect(claim(rs, [pod('orphan', {namespace: 'other'})])).toEqual({claimed: [], adopted: [], released: []})
  })

  it('§3.1.4.5 otherwise the orphan is adopted and claimed', () => {
    expect(claim(rs, [pod('orphan')])).toEqual({claimed: ['orphan'], adopted: ['orphan'], released: []})
  })

  it('§3.1 "controller ref" is the reference with controller: true; other ownerReferences are irrelevant', () => {
    const notController: OwnerReference = {...controllerRefTo(other), controller: false}
    expect(claim(rs, [pod('a', {ownerReferences: [notController]})]).adopted).toEqual(['a'])
    const mineNotController: OwnerReference = {...controllerRefTo(rs), controller: undefined}
    expect(claim(rs, [pod('b', {ownerReferences: [mineNotController]})]).adopted).toEqual(['b'])
  })

  it('§3.1.5 the claimed list keeps input order', () => {
    const pods = [pod('c', {owner: rs}), pod('a'), pod('b', {owner: rs}), pod('x', {owner: rs, labels: {app: 'x'}}), pod('d')]
    expect(claim(rs, pods)).toEqual({claimed: ['c', 'a', 'b', 'd'], adopted: ['a', 'd'], released: ['x']})
  })

  it('§3.1 adopt and release actions carry the pod name, UID and resourceVersion', () => {
    const plan = planFor(replicaSet('web', {replicas: 1}), [pod('orphan', {resourceVersion: '42'}), pod('edited', {owner: rs, labels: {app: 'x'}, resourceVersion: '43'})])
    expect(adopts(plan)).toEqual([{type: 'adopt', pod: 'orphan', uid: 'uid-orphan', resourceVersion: '42'}])
    expect(releases(plan)).toEqual([{type: 'release', pod: 'edited', uid: 'uid-edited', resourceVersion: '43'}])
  })
})

describe('§3.4 which lists are claimed', () => {
  it('§3.4.1 only active pods are passed to claiming: terminating or terminal pods are never adopted nor released', () => {
    const rs = replicaSet('web', {replicas: 3})
    const plan = planFor(rs, [
      pod('orphan-dying', {deleting: true}),
      pod('orphan-failed', {phase: 'Failed', ready: false}),
      pod('orphan-succeeded', {phase: 'Succeeded', ready: false}),
      pod('mine-dying-edited', {owner: rs, labels: {app: 'x'}, deleting: true}),
      pod('mine-failed-edited', {owner: rs, labels: {app: 'x'}, phase: 'Failed', ready: false}),
    ])
    expect(adopts(plan)).toEqual([])
    expect(releases(plan)).toEqual([])
    expect(plan.active).toBe(0)
    expect(creates(plan)).toHaveLength(3)
  })
})

describe('§3.5 tricky scenarios (ownership)', () => {
  it('3.5.1 2 owned pods + a matching orphan, replicas 2: orphan adopted, counted → 1 delete chosen among all 3 (the adopted one may go)', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('b', {owner: rs}), pod('orphan', {ready: false})])
    expect(adopts(plan).map((a) => a.pod)).toEqual(['orphan'])
    expect(plan.active).toBe(3)
    expect(plan.diff).toBe(1)
    expect(deleted(plan)).toEqual(['orphan'])
    expect(deletes(plan)[0].decidedBy).toBe('not-ready')
    expect(statusUpdate(plan)?.to.replicas).toBe(3)
  })

  it('3.5.2 an orphan matching pod with a deletionTimestamp: not adopted, not counted', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('b', {owner: rs}), pod('orphan', {deleting: true})])
    expect(adopts(plan)).toEqual([])
    expect(plan.active).toBe(2)
    expect(plan.actions.filter((a) => a.type !== 'updateStatus')).toEqual([])
  })

  it('3.5.3 a matching pod controlled by another RS: ignored entirely, and the overlap is warned about', () => {
    const rs = replicaSet('web', {replicas: 1})
    const other = replicaSet('web-2', {replicas: 1})
    const plan = planOf(snapshotOf({workloads: [rs, other], pods: [pod('mine', {owner: rs}), pod('theirs', {owner: other})]}))
    for (const c of plan.controllers) {
      expect(c.active).toBe(1)
      expect(c.actions.filter((a) => a.type !== 'updateStatus')).toEqual([])
      expect(c.warnings.some((w) => /overlap/i.test(w))).toBe(true)
    }
  })

  it('3.5.4 an owned pod whose app label was edited: released, not counted → a replacement is created in the same sync', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('edited', {owner: rs, labels: {app: 'debug'}})])
    expect(releases(plan).map((a) => a.pod)).toEqual(['edited'])
    expect(plan.active).toBe(1)
    expect(creates(plan)).toHaveLength(1)
  })

  it('3.5.5 same as 3.5.4 but the RS has a deletionTimestamp: not released, not counted, nothing created', () => {
    const rs = replicaSet('web', {replicas: 2, deleting: true})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('edited', {owner: rs, labels: {app: 'debug'}})])
    expect(releases(plan)).toEqual([])
    expect(plan.active).toBe(1)
    expect(creates(plan)).toEqual([])
  })

  it('3.5.6 an orphan with a non-controller ownerReference to a ConfigMap, labels match: adopted', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [pod('orphan', {ownerReferences: [configMapRef]})])
    expect(adopts(plan).map((a) => a.pod)).toEqual(['orphan'])
    expect(plan.active).toBe(1)
    expect(creates(plan)).toEqual([])
  })

  // 3.5.7 (the fresh GET before adopting finds the RS deleted → the sync aborts) is a live read at sync time,
  // which no plan can make: the executor re-reads the controller before acting (test/unit/controllers/replicaset/apply.test.ts).

  it('3.5.8 an owned Failed pod whose labels no longer match: untouched (not active, never passed to claiming)', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [pod('a', {owner: rs}), pod('failed', {owner: rs, phase: 'Failed', ready: false, labels: {app: 'x'}})])
    expect(releases(plan)).toEqual([])
    expect(deletes(plan)).toEqual([])
    expect(plan.active).toBe(1)
  })
})

describe('§1.1 step 6: a controller finds its pods by namespace, kind, name and uid (FilterPodsByOwner)', () => {
  const rs = replicaSet('web', {replicas: 1})
  const asRc: OwnerReference = {...controllerRefTo(rs), apiVersion: 'v1', kind: 'ReplicationController'}
  const oldName: OwnerReference = {...controllerRefTo(rs), name: 'web-old'}

  it('a pod naming its uid under another kind is not counted, deleted nor released, and is named in a warning', () => {
    const pods = [pod('web-a', {owner: rs}), pod('web-b', {owner: asRc}), pod('web-c', {owner: asRc, labels: {app: 'other'}})]
    const plan = planFor(rs, pods)
    expect(plan.active).toBe(1)
    expect(plan.diff).toBe(0)
    expect(deletes(plan)).toEqual([])
    expect(releases(plan)).toEqual([])
    expect(plan.warnings).toEqual([
      "pod web-b names this controller's uid with kind/name ReplicationController/web: the controller will not see it (it finds its pods by kind, name and uid), so it neither counts, releases nor deletes it",
      "pod web-c names this controller's uid with kind/name ReplicationController/web: the controller will not see it (it finds its pods by kind, name and uid), so it neither counts, releases nor deletes it",
    ])
  })

  it('a pod naming its uid under an old name: scaling down deletes only the pods it sees', () => {
    const two = replicaSet('web', {replicas: 0})
    const ref = {...controllerRefTo(two), name: 'web-old'}
    const plan = planFor(two, [pod('web-a', {owner: two}), pod('web-b', {owner: ref})])
    expect(deleted(plan)).toEqual(['web-a'])
    expect(plan.status.replicas).toBe(1) // web-a only, before its deletion is observed
    expect(plan.warnings[0]).toContain('kind/name ReplicaSet/web-old')
  })

  it('nor is such a pod adopted: it has a controller', () => {
    const plan = planFor(rs, [pod('web-b', {owner: oldName})])
    expect(adopts(plan)).toEqual([])
    expect(creates(plan)).toHaveLength(1)
  })

  it('the terminating count leaves it out too', () => {
    const plan = planFor(rs, [pod('web-a', {owner: rs}), pod('web-t', {owner: asRc, deleting: true})])
    expect(statusUpdate(plan)?.to.terminatingReplicas ?? plan.status.terminatingReplicas).toBe(0)
  })
})

describe('§3.5: a pod one controller releases, another matches', () => {
  it('the matching controller is told it may adopt the pod once it is released, not that it is ignored', () => {
    const other = replicaSet('other', {replicas: 0, selector: {matchLabels: {app: 'other'}}, templateLabels: {app: 'other'}})
    const api = replicaSet('api', {replicas: 1, selector: {matchLabels: {app: 'api'}}, templateLabels: {app: 'api'}})
    const moved = pod('moved', {owner: other, labels: {app: 'api'}})
    const plan = planOf(snapshotOf({workloads: [api, other], pods: [moved]}))
    const [apiPlan, otherPlan] = plan.controllers
    expect(releases(otherPlan).map((r) => r.pod)).toEqual(['moved'])
    expect(apiPlan.warnings).toEqual([
      'pod moved matches the selector but is controlled by ReplicaSet/other, which releases it in its next sync: this controller may adopt it once it is released (which of the two syncs first decides)',
    ])
    expect(creates(apiPlan)).toHaveLength(1)
  })

  it('a pod its controller keeps is still reported as an overlap', () => {
    const other = replicaSet('other', {replicas: 1, selector: {matchLabels: {tier: 'web'}}, templateLabels: {tier: 'web'}})
    const api = replicaSet('api', {replicas: 1, selector: {matchLabels: {app: 'api'}}, templateLabels: {app: 'api'}})
    const shared = pod('shared', {owner: other, labels: {app: 'api', tier: 'web'}})
    const apiPlan = controllerPlan(planOf(snapshotOf({workloads: [api, other], pods: [shared]})), 'api')
    expect(apiPlan.warnings[0]).toContain('controlled by ReplicaSet/other (shared): overlapping controllers; they are ignored here')
  })
})
