// Tests that kill the plausible bugs a mutation run of src/reconcile/ left alive: each names the
// mutant (M..) it fails for, and the rule it pins.
import {describe, expect, it} from 'vitest'

import {choosePodsToDelete, rankPods, type RankContext} from '../../../src/reconcile/rank.js'
import {parseRfc3339} from '../../../src/reconcile/time.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {
  controllerPlan,
  controllerRefTo,
  creates,
  deleted,
  deletes,
  deploymentOwner,
  FIXED_NOW,
  planFor,
  planOf,
  pod,
  replicaSet,
  replicationController,
  snapshotOf,
} from '../../helpers/builders.js'

const ctx: RankContext = {now: parseRfc3339(FIXED_NOW)!, gates: {...DEFAULT_FEATURE_GATES}}

describe('killing the surviving mutants', () => {
  // M04 shrank the window of pods examined around the cut; ties are now counted whole (no window),
  // and a bound of any kind on how far from the cut a tie may reach fails here.
  it('M04 (tie window): a tie of 2,500 equal pods cut at 1,000 lists all 2,500, however far from the cut', () => {
    const pods = Array.from({length: 2500}, (_, i) => pod(`p${i}`))
    const choice = choosePodsToDelete(rankPods(pods, [], ctx), 1000, ctx)
    expect(choice.victims).toHaveLength(1000)
    for (const v of choice.victims) expect(choice.tie).toContain(v)
    expect(new Set(choice.tie.map((p) => p.pod.name))).toEqual(new Set(pods.map((p) => p.name)))
  })

  it('M05 (§2.1.4 co-location counts only active related pods): the node crowded with Failed pods is not the one emptied', () => {
    const owner = deploymentOwner('web')
    const web = replicaSet('web-new', {replicas: 1, owner, templateLabels: {app: 'web', v: 'new'}})
    const old = replicaSet('web-old', {replicas: 1, owner, templateLabels: {app: 'web', v: 'old'}})
    const pods = [
      pod('x', {owner: web, node: 'n1', labels: {app: 'web', v: 'new'}}),
      pod('y', {owner: web, node: 'n2', labels: {app: 'web', v: 'new'}}),
      pod('old-failed-1', {owner: old, node: 'n1', phase: 'Failed', ready: false, labels: {app: 'web', v: 'old'}}),
      pod('old-failed-2', {owner: old, node: 'n1', phase: 'Failed', ready: false, labels: {app: 'web', v: 'old'}}),
      pod('old-running', {owner: old, node: 'n2', labels: {app: 'web', v: 'old'}}),
    ]
    // Active related pods: n1 has x only (rank 1), n2 has y and old-running (rank 2): y goes.
    expect(deleted(planFor([web, old], pods))).toEqual(['y'])
  })

  it('M15 (1.8.1 slow start): a create refused before the API leaves the rest of the diff pending', () => {
    const rs = replicaSet('web', {replicas: 3, selector: {matchLabels: {app: 'web'}}, templateLabels: {}})
    const plan = planFor(rs, [])
    expect(creates(plan)).toHaveLength(1)
    expect(creates(plan)[0].error).toBe('unable to create pods, no labels')
    expect(plan.pending).toBe(2)
  })

  it('M17 (overlap warnings): a Failed pod of another controller is not an overlap', () => {
    const other = replicaSet('other', {replicas: 1, templateLabels: {app: 'web', tier: 'x'}, selector: {matchLabels: {tier: 'x'}}})
    const web = replicaSet('web', {replicas: 1, templateLabels: {app: 'web'}})
    const pods = [pod('mine', {owner: web, labels: {app: 'web'}}), pod('theirs-failed', {owner: other, phase: 'Failed', ready: false, labels: {app: 'web', tier: 'x'}})]
    expect(controllerPlan(planOf(snapshotOf({workloads: [web, other], pods})), 'web').warnings).toEqual([])
    const running = [pods[0], pod('theirs', {owner: other, labels: {app: 'web', tier: 'x'}})]
    expect(controllerPlan(planOf(snapshotOf({workloads: [web, other], pods: running})), 'web').warnings).toHaveLength(1)
  })

  it('M20 (getIndirectlyRelatedPods lists ReplicaSets only): an RC under the same owner is no sibling', () => {
    const owner = deploymentOwner('web')
    const web = replicaSet('web', {replicas: 1, owner, templateLabels: {app: 'web'}})
    const sibling = replicaSet('web-old', {replicas: 1, owner, templateLabels: {app: 'old'}})
    const rc = replicationController('legacy', {replicas: 2, owner, templateLabels: {app: 'legacy'}})
    const pods = [
      pod('x', {owner: web, node: 'n1', labels: {app: 'web'}}),
      pod('y', {owner: web, node: 'n2', labels: {app: 'web'}}),
      pod('rc-1', {owner: rc, node: 'n1', labels: {app: 'legacy'}}),
      pod('rc-2', {owner: rc, node: 'n1', labels: {app: 'legacy'}}),
      pod('old-1', {owner: sibling, node: 'n2', labels: {app: 'old'}}),
    ]
    const plan = planOf(snapshotOf({workloads: [web, sibling, rc], pods, replicaSets: [web, sibling, rc]}))
    expect(deleted(controllerPlan(plan, 'web'))).toEqual(['y'])
  })

  it('M23 (selector/template mismatch): a template its selector does not match is warned of', () => {
    const rs = replicaSet('web', {replicas: 1, selector: {matchLabels: {app: 'web'}}, templateLabels: {app: 'api'}})
    expect(planFor(rs, []).warnings).toEqual(["the selector does not match the template's labels: pods it creates are never counted, so it keeps creating"])
  })

  it('M27 (contested adoption): an orphan two controllers match is warned of on both', () => {
    const a = replicaSet('a', {replicas: 1, templateLabels: {app: 'web', track: 'a'}, selector: {matchLabels: {app: 'web'}}})
    const b = replicaSet('b', {replicas: 1, templateLabels: {app: 'web', track: 'b'}, selector: {matchLabels: {app: 'web'}}})
    const plan = planOf(snapshotOf({workloads: [a, b], pods: [pod('orphan', {labels: {app: 'web'}})]}))
    for (const [name, other] of [['a', 'b'], ['b', 'a']]) {
      expect(controllerPlan(plan, name).warnings).toContain(`orphan pod orphan also matches ReplicaSet/${other}: whichever controller syncs first adopts it, and the other's plan changes`)
    }
    expect(controllerRefTo(a).uid).not.toBe(controllerRefTo(b).uid)
  })

  // Survivors of `npm run test:mutation` (ids of test/mutation/mutants.mjs).

  it('P05 (§2.2.7 restarts): the highest restart count of one container counts, not their sum', () => {
    const rs = replicaSet('web', {replicas: 1})
    const spread = {...pod('spread', {owner: rs}), containerStatuses: [{name: 'a', restartCount: 3}, {name: 'b', restartCount: 3}]}
    const single = pod('single', {owner: rs, restarts: 5})
    // max(3, 3) = 3 < 5: the pod with one container restarted 5 times goes (a sum, 6, would pick the other).
    expect(deleted(planFor(rs, [spread, single]))).toEqual(['single'])
    expect(deletes(planFor(rs, [spread, single]))[0].decidedBy).toBe('restarts')
  })

  it('N06 (§3.1.3 no release while being deleted): a pod whose owner is being deleted is an overlap, not a coming release', () => {
    const owner = replicaSet('old', {replicas: 1, templateLabels: {app: 'old'}, deleting: true})
    const web = replicaSet('web', {replicas: 1, templateLabels: {app: 'web'}})
    const pods = [pod('mine', {owner: web, labels: {app: 'web'}}), pod('moved', {owner, labels: {app: 'web'}})]
    const warnings = controllerPlan(planOf(snapshotOf({workloads: [web, owner], pods})), 'web').warnings
    expect(warnings).toEqual(['1 active pod matching the selector is controlled by ReplicaSet/old (moved): overlapping controllers; they are ignored here'])
    // Not being deleted, the owner releases it in its next sync, and the warning says so.
    const live = replicaSet('old', {replicas: 1, templateLabels: {app: 'old'}})
    const pods2 = [pods[0], pod('moved', {owner: live, labels: {app: 'web'}})]
    expect(controllerPlan(planOf(snapshotOf({workloads: [web, live], pods: pods2})), 'web').warnings[0]).toMatch(/which releases it in its next sync/)
  })
})
