import {deleteReasons} from '../../../src/render/reasons.js'
// docs/replicaset-controller.md §2: which pods are deleted first on scale-down (getPodsToDelete,
// getPodsRankedByRelatedPodsOnSameNode, ActivePodsWithRanks.Less). Every criterion is tested as a
// pair differing only in that criterion, in both directions; then precedence between criteria,
// shuffled input, ties, the log2 buckets, and the scenarios of table 2.4.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {PodView} from '../../../src/model/objects.js'
import type {DecidedBy, FeatureGates} from '../../../src/model/plan.js'
import {deletionCost, phaseOrdinal} from '../../../src/reconcile/pods.js'
import {choosePodsToDelete, compareForDeletion, type RankContext, type RankedPod, rankPods} from '../../../src/reconcile/rank.js'
import {logBucket, parseRfc3339, seconds} from '../../../src/reconcile/time.js'
import {
  ago,
  deleted,
  deletes,
  deploymentOwner,
  FIXED_NOW,
  planFor,
  type PodOptions,
  pod,
  replicaSet,
  tieOfDelete,
} from '../../helpers/builders.js'

const NOW = parseRfc3339(FIXED_NOW)!
const ctx = (gates: Partial<FeatureGates> = {}, now: bigint = NOW): RankContext => ({
  now,
  gates: {PodDeletionCost: true, LogarithmicScaleDown: true, ...gates},
})

/** Ranks two pods (related pods default to the pair itself, as for a lone RS of a Deployment). */
function ranked(a: PodView, b: PodView, related: PodView[] = [], c: RankContext = ctx()): [RankedPod, RankedPod] {
  const [ra, rb] = rankPods([a, b], related, c)
  return [ra, rb]
}

/** a is deleted before b, and b is not before a, both decided by `rule`. */
function expectBefore(a: PodView, b: PodView, rule: DecidedBy, o: {related?: PodView[]; ctx?: RankContext} = {}): void {
  const c = o.ctx ?? ctx()
  const [ra, rb] = ranked(a, b, o.related, c)
  expect(compareForDeletion(ra, rb, c), `${a.name} < ${b.name}`).toEqual({less: true, rule})
  expect(compareForDeletion(rb, ra, c), `${b.name} < ${a.name}`).toEqual({less: false, rule})
}

/** Less is false both ways: upstream's unstable sort may order them either way. */
function expectEqual(a: PodView, b: PodView, o: {related?: PodView[]; ctx?: RankContext} = {}): void {
  const c = o.ctx ?? ctx()
  const [ra, rb] = ranked(a, b, o.related, c)
  expect(compareForDeletion(ra, rb, c).less).toBe(false)
  expect(compareForDeletion(rb, ra, c).less).toBe(false)
  expect(compareForDeletion(ra, rb, c).rule).toBeUndefined()
}

const names = (pods: readonly RankedPod[]) => pods.map((p) => p.pod.name)

describe('§2.2 ActivePodsWithRanks.Less, criterion by criterion (pairs, both directions)', () => {
  it('§2.2.1 exactly one unassigned: the unassigned pod goes first', () => {
    expectBefore(pod('a', {node: ''}), pod('b', {node: 'n1'}), 'unassigned')
  })

  it('§2.2.1 two pods on different nodes are not told apart by node', () => {
    expectEqual(pod('a', {node: 'n1'}), pod('b', {node: 'n2'}))
    expectEqual(pod('a', {node: ''}), pod('b', {node: ''}))
  })

  it('§2.2.2 phase ordinal Pending 0 < Unknown 1 < Running 2; any other value (empty included) is 0', () => {
    expectBefore(pod('a', {phase: 'Pending'}), pod('b', {phase: 'Unknown'}), 'phase')
    expectBefore(pod('a', {phase: 'Unknown'}), pod('b', {phase: 'Running'}), 'phase')
    expectBefore(pod('a', {phase: 'Pending'}), pod('b', {phase: 'Running'}), 'phase')
    expectBefore(pod('a', {phase: ''}), pod('b', {phase: 'Unknown'}), 'phase')
    expectEqual(pod('a', {phase: ''}), pod('b', {phase: 'Pending'}))
    expectEqual(pod('a', {phase: 'Bogus'}), pod('b', {phase: 'Pending'}))
    expect([phaseOrdinal('Pending'), phaseOrdinal('Unknown'), phaseOrdinal('Running'), phaseOrdinal(''), phaseOrdinal('Succeeded')]).toEqual([0, 1, 2, 0, 0])
  })

  it('§2.2.3 exactly one Ready: the not-ready pod goes first', () => {
    expectBefore(pod('a', {ready: false}), pod('b', {ready: true}), 'not-ready')
  })

  it('§2.2.4 lower pod-deletion-cost goes first; invalid values count as 0', () => {
    expectBefore(pod('a', {cost: '-1'}), pod('b'), 'deletion-cost')
    expectBefore(pod('a'), pod('b', {cost: '1'}), 'deletion-cost')
    expectBefore(pod('a', {cost: '-2147483648'}), pod('b', {cost: '2147483647'}), 'deletion-cost')
    expectBefore(pod('a', {cost: '+5'}), pod('b', {cost: '1'}), 'deletion-cost') // "+5" is 0
    expectBefore(pod('a', {cost: '007'}), pod('b', {cost: '1'}), 'deletion-cost') // "007" is 0
    expectEqual(pod('a', {cost: '+5'}), pod('b', {cost: '0'}))
    expectEqual(pod('a', {cost: ''}), pod('b'))
    expectEqual(pod('a', {cost: '2147483648'}), pod('b'))
  })

  it('§2.2.4 GetDeletionCostFromPodAnnotations: what parses and what counts as 0', () => {
    const cost = (v: string) => deletionCost({'controller.kubernetes.io/pod-deletion-cost': v})
    expect(deletionCost({})).toEqual({cost: 0})
    expect(cost('0')).toEqual({cost: 0})
    expect(cost('-10')).toEqual({cost: -10})
    expect(cost('2147483647')).toEqual({cost: 2147483647})
    expect(cost('-2147483648')).toEqual({cost: -2147483648})
    // A leading "-" passes upstream's first-character check; ParseInt then accepts leading zeros.
    expect(cost('-007')).toEqual({cost: -7})
    for (const bad of ['', '+5', '007', '00', 'abc', '1.5', ' 1', '1 ', '-', '2147483648', '-2147483649', '1e3', '0x10', '١']) {
      expect(cost(bad), JSON.stringify(bad)).toEqual({cost: 0, invalid: bad})
    }
  })

  it('§2.2.4 with the PodDeletionCost gate off the cost is not consulted', () => {
    expectEqual(pod('a', {cost: '-100'}), pod('b', {cost: '100'}), {ctx: ctx({PodDeletionCost: false})})
  })

  it('§2.2.5 higher co-location rank (more related active pods on the node) goes first', () => {
    const a = pod('a', {node: 'crowded'})
    const b = pod('b', {node: 'quiet'})
    expectBefore(a, b, 'colocated', {related: [a, b, pod('sibling', {node: 'crowded'})]})
  })

  it('§2.2.6 both Ready, ready times in different log2 buckets: the more recently ready goes first', () => {
    expectBefore(pod('a', {readySince: ago(60)}), pod('b', {readySince: ago(3600)}), 'ready-time')
  })

  it('§2.2.6 both Ready, same bucket, different times: the smaller UID goes first, nothing after is consulted', () => {
    // 100 s and 70 s are both in bucket 36; b has more restarts but restarts come later.
    expectBefore(pod('a', {uid: 'uid-1', readySince: ago(70)}), pod('b', {uid: 'uid-2', readySince: ago(100), restarts: 9}), 'uid')
    expectBefore(pod('a', {uid: 'uid-1', readySince: ago(100)}), pod('b', {uid: 'uid-2', readySince: ago(70), restarts: 9}), 'uid')
  })

  it('§2.2.6 a zero ready time counts as most recent and goes first', () => {
    expectBefore(pod('a', {readySince: null}), pod('b', {readySince: ago(1)}), 'ready-time')
  })

  it('§2.2.6 identical ready times fall through to the next criteria', () => {
    expectEqual(pod('a', {readySince: ago(100)}), pod('b', {readySince: ago(100)}))
    expectBefore(pod('a', {readySince: ago(100), restarts: 1}), pod('b', {readySince: ago(100)}), 'restarts')
  })

  it('§2.2.6 with LogarithmicScaleDown off: the later transition goes first, no bucket, no UID', () => {
    const off = {ctx: ctx({LogarithmicScaleDown: false})}
    expectBefore(pod('a', {uid: 'uid-9', readySince: ago(70)}), pod('b', {uid: 'uid-1', readySince: ago(100)}), 'ready-time', off)
  })

  it('§2.2.6 only applies when both are Ready (two not-ready pods go on to restarts)', () => {
    expectBefore(pod('a', {ready: false, restarts: 1}), pod('b', {ready: false}), 'restarts')
  })

  it('§2.2.7 more container restarts go first; then more sidecar restarts', () => {
    expectBefore(pod('a', {restarts: 2}), pod('b', {restarts: 1}), 'restarts')
    expectBefore(pod('a', {sidecarRestarts: 1}), pod('b'), 'restarts')
    expectBefore(pod('a', {restarts: 1, sidecarRestarts: 0}), pod('b', {restarts: 0, sidecarRestarts: 5}), 'restarts')
  })

  it('§2.2.8 different creation times in different buckets: the younger pod goes first', () => {
    expectBefore(pod('a', {created: ago(600)}), pod('b', {created: ago(7200)}), 'created')
  })

  it('§2.2.8 same creation bucket, different times: the smaller UID goes first', () => {
    expectBefore(pod('a', {uid: 'uid-1', created: ago(100)}), pod('b', {uid: 'uid-2', created: ago(70)}), 'uid')
    expectBefore(pod('a', {uid: 'uid-1', created: ago(70)}), pod('b', {uid: 'uid-2', created: ago(100)}), 'uid')
  })

  it('§2.2.8 a zero creation time goes first; with LogarithmicScaleDown off the newer pod goes first', () => {
    expectBefore(pod('a', {created: null}), pod('b', {created: ago(1)}), 'created')
    expectBefore(pod('a', {uid: 'uid-9', created: ago(70)}), pod('b', {uid: 'uid-1', created: ago(100)}), 'created', {ctx: ctx({LogarithmicScaleDown: false})})
  })

  it('§2.2.9 equal on every criterion: Less is false both ways (UIDs differ but are not consulted)', () => {
    expectEqual(pod('a', {uid: 'uid-1'}), pod('b', {uid: 'uid-2'}))
  })
})

describe('§2.2 precedence: the first criterion that distinguishes decides', () => {
  // For each criterion: what makes a pod go first and what makes it go later; `node` criteria share
  // the node field, so they are not combined.
  const criteria: {rule: DecidedBy; first: PodOptions; second: PodOptions}[] = [
    {rule: 'unassigned', first: {node: ''}, second: {node: 'n1'}},
    {rule: 'phase', first: {phase: 'Pending'}, second: {phase: 'Running'}},
    {rule: 'not-ready', first: {ready: false}, second: {ready: true}},
    {rule: 'deletion-cost', first: {cost: '-5'}, second: {cost: '5'}},
    {rule: 'colocated', first: {node: 'crowded'}, second: {node: 'quiet'}},
    {rule: 'ready-time', first: {readySince: ago(60)}, second: {readySince: ago(3600)}},
    {rule: 'restarts', first: {restarts: 3}, second: {restarts: 0}},
    {rule: 'created', first: {created: ago(600)}, second: {created: ago(7200)}},
  ]
  for (let i = 0; i < criteria.length; i++) {
    for (let j = i + 1; j < criteria.length; j++) {
      const hi = criteria[i]
      const lo = criteria[j]
      const clash = Object.keys(hi.first).some((k) => k in lo.first)
      if (clash) continue
      it(`${hi.rule} outranks ${lo.rule}`, () => {
        const a = pod('a', {...hi.first, ...lo.second})
        const b = pod('b', {...hi.second, ...lo.first})
        expectBefore(a, b, hi.rule, {related: [a, b, pod('sibling', {node: 'crowded'})]})
      })
    }
  }

  it('§2.3.1 cost is consulted after readiness: a not-ready pod with a huge cost still goes before a Ready pod with a negative cost', () => {
    expectBefore(pod('a', {ready: false, cost: '2147483647'}), pod('b', {cost: '-2147483648'}), 'not-ready')
  })
})

describe('§2.1 building the ranks', () => {
  const deploy = deploymentOwner('web')
  const rsNew = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 1})
  const rsOld = replicaSet('web-old', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'old'}, replicas: 1})
  const newPod = (name: string, o: PodOptions = {}) => pod(name, {owner: rsNew, labels: {app: 'web', 'pod-template-hash': 'new'}, ...o})
  const oldPod = (name: string, o: PodOptions = {}) => pod(name, {owner: rsOld, labels: {app: 'web', 'pod-template-hash': 'old'}, ...o})
  const ranksOf = (c: ReturnType<typeof planFor>) => Object.fromEntries(deletes(c).map((d) => [d.pod, d.facts.colocationRank]))

  it('§2.1.1 n ≥ len(activePods): all go, no ranking (decidedBy all)', () => {
    const rs = replicaSet('web', {replicas: 0})
    const plan = planFor(rs, [pod('a', {owner: rs, ready: false}), pod('b', {owner: rs, node: ''})])
    expect(deletes(plan).map((d) => d.decidedBy)).toEqual(['all', 'all'])
  })

  it('§2.1.2 related pods: every RS with the same controller UID, its selector over the namespace\'s pods (not ownership)', () => {
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 0})
    const pods = [
      newPod('x', {owner: rs, node: 'n1'}),
      newPod('y', {owner: rs, node: 'n2'}),
      oldPod('old-1', {node: 'n1'}),
      // An orphan matching the old RS's selector is related too (selector, not ownership).
      pod('orphan-old', {labels: {app: 'web', 'pod-template-hash': 'old'}, node: 'n1'}),
      // Not related: matches no sibling selector.
      pod('stranger', {labels: {app: 'other'}, node: 'n2'}),
    ]
    const plan = planFor([rs], pods, {replicaSets: [rs, rsOld], burst: 1})
    expect(deletes(plan).map((d) => [d.pod, d.facts.colocationRank])).toEqual([['x', 3]])
  })

  it('§2.1.2 a related pod matched by two siblings is counted once; a sibling with an invalid selector is skipped', () => {
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 1})
    const broad = replicaSet('web-broad', {owner: deploy, selector: {matchLabels: {app: 'web'}}, replicas: 0})
    const broken = replicaSet('web-broken', {owner: deploy, selector: {matchExpressions: [{key: 'app', operator: 'In', values: []}]}, replicas: 0})
    const pods = [newPod('x', {owner: rs, node: 'n1'}), newPod('y', {owner: rs, node: 'n2'}), oldPod('old-1', {node: 'n1'})]
    const plan = planFor([rs], pods, {replicaSets: [rs, broad, broken]})
    // x: itself + old-1 (through web-broad) = 2, not 3 for x matched by both web-new and web-broad.
    expect(deletes(plan).map((d) => [d.pod, d.facts.colocationRank])).toEqual([['x', 2]])
  })

  it('§2.1.2 ReplicaSets of another controller (another UID) are not siblings, even under the same owner name', () => {
    const otherDeploy = replicaSet('web-other', {owner: deploymentOwner('web', 'uid-some-other-deploy'), templateLabels: {app: 'web', 'pod-template-hash': 'old'}, replicas: 0})
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 1})
    const pods = [newPod('x', {owner: rs, node: 'n1'}), newPod('y', {owner: rs, node: 'n2'}), oldPod('old-1', {node: 'n1'})]
    const plan = planFor([rs], pods, {replicaSets: [rs, otherDeploy]})
    expect(Object.values(ranksOf(plan))).toEqual([1])
  })

  it('§2.1.3 an RS without a controller owner has no related pods: every rank is 0', () => {
    const rs = replicaSet('web', {replicas: 1})
    const pods = [pod('x', {owner: rs, node: 'n1'}), pod('y', {owner: rs, node: 'n1'}), pod('z', {owner: rs, node: 'n2'})]
    const plan = planFor(rs, pods, {burst: 2})
    expect(deletes(plan).every((d) => d.facts.colocationRank === 0)).toBe(true)
  })

  it('§2.1.4 only active related pods count, and unassigned pods all count under the node name ""', () => {
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 1})
    const pods = [
      newPod('u1', {owner: rs, node: '', phase: 'Pending', ready: false}),
      newPod('u2', {owner: rs, node: '', phase: 'Pending', ready: false}),
      newPod('x', {owner: rs, node: 'n1'}),
      oldPod('old-dying', {node: 'n1', deleting: true}),
      oldPod('old-failed', {node: 'n1', phase: 'Failed', ready: false}),
    ]
    const plan = planFor([rs], pods, {replicaSets: [rs, rsOld]})
    expect(ranksOf(plan)).toEqual({u1: 2, u2: 2})
    const kept = planFor([rs], pods, {replicaSets: [rs, rsOld], burst: 3})
    expect(deletes(kept).find((d) => d.pod === 'x')).toBeUndefined()
  })

  it('§2.1.5 the rank includes the pod itself and pods of sibling ReplicaSets on the same node', () => {
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 0})
    const pods = [newPod('x', {owner: rs, node: 'n1'}), oldPod('o1', {node: 'n1'}), oldPod('o2', {node: 'n1'})]
    // replicas 0 → all go unranked; rank facts are still reported.
    const plan = planFor([rs], pods, {replicaSets: [rs, rsOld]})
    expect(ranksOf(plan)).toEqual({x: 3})
  })

  it('§2.1.2 siblings are looked up among every ReplicaSet read, not only the planned ones', () => {
    const rs = replicaSet('web-new', {owner: deploy, templateLabels: {app: 'web', 'pod-template-hash': 'new'}, replicas: 1})
    const pods = [newPod('x', {owner: rs, node: 'n1'}), newPod('y', {owner: rs, node: 'n2'}), oldPod('o1', {node: 'n2'}), oldPod('o2', {node: 'n2'})]
    const plan = planFor([rs], pods, {replicaSets: [rs, rsOld]})
    expect(deleted(plan)).toEqual(['y'])
    expect(deletes(plan)[0]).toMatchObject({decidedBy: 'colocated', facts: {colocationRank: 3}})
  })
})

describe('shuffled input and ties (choosePodsToDelete)', () => {
  // Nine pods with a unique deletion order: every pair is told apart by some criterion.
  const uniquePods = [
    pod('c-old', {created: ago(7200)}),
    pod('b-young', {created: ago(600)}),
    pod('a-restarty', {restarts: 5}),
    pod('z-recent', {readySince: ago(60)}),
    pod('y-cheap', {cost: '-5'}),
    pod('x-notready', {ready: false}),
    pod('w-unknown', {phase: 'Unknown', ready: false}),
    pod('v-pending', {phase: 'Pending', ready: false}),
    pod('u-unassigned', {phase: 'Pending', ready: false, node: ''}),
  ]
  const expectedOrder = ['u-unassigned', 'v-pending', 'w-unknown', 'x-notready', 'y-cheap', 'z-recent', 'a-restarty', 'b-young', 'c-old']

  it('the order is total: every pair is decided one way', () => {
    const all = rankPods(uniquePods, [], ctx())
    for (const a of all) {
      for (const b of all) {
        if (a === b) continue
        const ab = compareForDeletion(a, b, ctx()).less
        const ba = compareForDeletion(b, a, ctx()).less
        expect(ab !== ba, `${a.pod.name} vs ${b.pod.name}`).toBe(true)
      }
    }
  })

  it('random permutations always give the same victims in the same order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(uniquePods, {minLength: uniquePods.length, maxLength: uniquePods.length}), fc.integer({min: 1, max: 8}), (shuffled, n) => {
        const choice = choosePodsToDelete(rankPods(shuffled, [], ctx()), n, ctx())
        expect(names(choice.ordered)).toEqual(expectedOrder)
        expect(names(choice.victims)).toEqual(expectedOrder.slice(0, n))
        expect(choice.tie).toEqual([])
      }),
      {numRuns: 300},
    )
  })

  it('random permutations through the planner give the same deletes', () => {
    const rs = replicaSet('web', {replicas: 6})
    const owned = uniquePods.map((p) => ({...p, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.uid, controller: true, blockOwnerDeletion: true}]}))
    fc.assert(
      fc.property(fc.shuffledSubarray(owned, {minLength: owned.length, maxLength: owned.length}), (shuffled) => {
        const plan = planFor(rs, shuffled)
        expect(deleted(plan)).toEqual(['u-unassigned', 'v-pending', 'w-unknown'])
        expect(deletes(plan).map((d) => d.decidedBy)).toEqual(['unassigned', 'phase', 'phase'])
      }),
      {numRuns: 100},
    )
  })

  it('decidedBy names the rule against the first pod kept', () => {
    const choice = choosePodsToDelete(rankPods(uniquePods, [], ctx()), 4, ctx())
    expect(names(choice.victims)).toEqual(['u-unassigned', 'v-pending', 'w-unknown', 'x-notready'])
    expect(choice.victims.map((v) => choice.decidedBy.get(v.pod.uid))).toEqual(['unassigned', 'phase', 'phase', 'not-ready'])
  })

  it('no tie when every victim is strictly ahead of every kept pod, even if victims are equal among themselves', () => {
    const pods = [pod('a1', {ready: false}), pod('a2', {ready: false}), pod('b1'), pod('b2')]
    const choice = choosePodsToDelete(rankPods(pods, [], ctx()), 2, ctx())
    expect(names(choice.victims).sort()).toEqual(['a1', 'a2'])
    expect(choice.tie).toEqual([])
  })

  it('no tie when the equal pods are all kept', () => {
    const pods = [pod('a', {ready: false}), pod('b1'), pod('b2'), pod('b3')]
    const choice = choosePodsToDelete(rankPods(pods, [], ctx()), 1, ctx())
    expect(names(choice.victims)).toEqual(['a'])
    expect(choice.tie).toEqual([])
    expect(choice.decidedBy.get('uid-a')).toBe('not-ready')
  })

  it('a tie is reported when equal pods straddle the cut: the tie lists all of them, the victim included', () => {
    const pods = [pod('a', {ready: false}), pod('b1'), pod('b2'), pod('b3')]
    const choice = choosePodsToDelete(rankPods(pods, [], ctx()), 2, ctx())
    expect(names(choice.victims)[0]).toBe('a')
    expect(choice.tie).not.toContain(choice.victims[0])
    const second = choice.victims[1]
    expect(['b1', 'b2', 'b3']).toContain(second.pod.name)
    expect(choice.tie).toContain(second)
    expect(names(choice.tie).sort()).toEqual(['b1', 'b2', 'b3'])
  })

  it('a tie among all candidates: every victim carries the whole tie', () => {
    const pods = [pod('p1'), pod('p2'), pod('p3')]
    const choice = choosePodsToDelete(rankPods(pods, [], ctx()), 2, ctx())
    for (const v of choice.victims) expect(choice.tie).toContain(v)
    expect(names(choice.tie).sort()).toEqual(['p1', 'p2', 'p3'])
  })

  it('a UID decision is not a tie (decidedBy uid instead)', () => {
    const pods = [pod('p1', {uid: 'uid-2', readySince: ago(100)}), pod('p2', {uid: 'uid-1', readySince: ago(70)})]
    const choice = choosePodsToDelete(rankPods(pods, [], ctx()), 1, ctx())
    expect(names(choice.victims)).toEqual(['p2'])
    expect(choice.tie).toEqual([])
    expect(choice.decidedBy.get('uid-1')).toBe('uid')
  })

  // Less is not transitive here: a<b (restarts; same ready second), b<c and c<a (different ready
  // seconds in one bucket → UID). Go's insertion sort returns a, b or c depending on the informer
  // order (checked with sort.Sort on all six input orders), so all three belong in the tie.
  it('a cycle under Less (restarts for one pair, UID for the others) is a three-way tie', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [
      pod('a', {owner: rs, uid: 'uid-3', readySince: ago(100), restarts: 2}),
      pod('b', {owner: rs, uid: 'uid-1', readySince: ago(100)}),
      pod('c', {owner: rs, uid: 'uid-2', readySince: ago(70)}),
    ])
    expect([...tieOfDelete(plan, deletes(plan)[0])].sort()).toEqual(['a', 'b', 'c'])
  })

  it('the input list is not mutated', () => {
    const input = rankPods([...uniquePods], [], ctx())
    const before = names(input)
    choosePodsToDelete(input, 3, ctx())
    expect(names(input)).toEqual(before)
  })
})

describe('log2 age buckets (logarithmicRankDiff)', () => {
  // int64(math.Log2(float64(ns))) printed by Go 1.26 on linux/amd64 for these ages in nanoseconds.
  const goTable: [bigint, number][] = [
    [1n, 0], [2n, 1], [3n, 1], [4n, 2], [7n, 2], [8n, 3], [1023n, 9], [1024n, 10], [1025n, 10],
    [34359738367n, 34], [34359738368n, 35], [34359738369n, 35],
    [68719476735n, 35], [68719476736n, 36], [68719476737n, 36],
    [34000000000n, 34], [35000000000n, 35], [60000000000n, 35], [68000000000n, 35], [69000000000n, 36],
    [70000000000n, 36], [100000000000n, 36], [137438953471n, 36], [137438953472n, 37],
    [140737488355327n, 46], [281474976710655n, 47], [562949953421311n, 49], [1125899906842623n, 50],
    [2251799813685247n, 51], [4503599627370495n, 52], [9007199254740991n, 53], [9007199254740993n, 53],
    [18014398509481983n, 54], [36028797018963967n, 55], [1152921504606846975n, 60],
    [4611686018427387903n, 62], [4611686018427387904n, 62],
    [35184372088831n, 44], [70368744177663n, 45], [7200000000000n, 42], [3600000000000n, 41], [86400000000000n, 46],
  ]

  it('logBucket matches Go\'s int64(math.Log2(float64(ns))), including where float rounding lifts 2^k − 1 to k', () => {
    for (const [age, bucket] of goTable) expect(logBucket(NOW - age, NOW), `${age} ns`).toBe(bucket)
  })

  it('a non-positive age is bucket −1', () => {
    expect(logBucket(NOW, NOW)).toBe(-1)
    expect(logBucket(NOW + seconds(5), NOW)).toBe(-1)
  })

  it('the boundaries of §2.2: 35 = [34.4 s, 68.7 s), 36 = [68.7 s, 137.4 s), … 46 ≈ [19.5 h, 39.1 h)', () => {
    const at = (s: number) => logBucket(NOW - seconds(s), NOW)
    expect([at(34), at(35), at(68), at(69)]).toEqual([34, 35, 35, 36])
    expect([at(137), at(138), at(274), at(275), at(549), at(550)]).toEqual([36, 37, 37, 38, 38, 39])
    expect([at(1099), at(1100), at(2199), at(2200), at(4398), at(4399)]).toEqual([39, 40, 40, 41, 41, 42])
    expect([at(70368), at(70369), at(140737), at(140738)]).toEqual([45, 46, 46, 47])
  })

  it('§0.1 object times keep whole seconds: a ready time of now − 34.1 s counts as now − 35 s (bucket 35)', () => {
    const [r] = rankPods([pod('a', {readySince: '2026-11-22T09:59:25.900Z'})], [], ctx())
    expect(r.facts.readyBucket).toBe(35)
  })

  it('§2.3.6 the controller clock keeps full precision: now moves a pod across a boundary', () => {
    const p = pod('a', {readySince: '2026-11-22T09:59:26Z'})
    expect(rankPods([p], [], ctx())[0].facts.readyBucket).toBe(34) // 34 s
    expect(rankPods([p], [], ctx({}, parseRfc3339('2026-11-22T10:00:00.5Z')!))[0].facts.readyBucket).toBe(35) // 34.5 s
  })

  it('§2.3.6 moving now by ten seconds flips which of two pods goes', () => {
    // P1 (uid-b) ready 40 s, P2 (uid-a) ready 60 s: both bucket 35 → the smaller UID (P2) goes.
    const p1 = pod('p1', {uid: 'uid-b', readySince: ago(40)})
    const p2 = pod('p2', {uid: 'uid-a', readySince: ago(60)})
    expectBefore(p2, p1, 'uid')
    // Ten seconds earlier: 30 s (bucket 34) vs 50 s (bucket 35) → P1, more recently ready, goes.
    expectBefore(p1, p2, 'ready-time', {ctx: ctx({}, NOW - seconds(10))})
  })
})

describe('§2.4 tricky scenarios (deletion order)', () => {
  const deploy = deploymentOwner('web')
  const rs = (replicas: number, o: {standalone?: boolean} = {}) =>
    replicaSet('web-new', {owner: o.standalone ? undefined : deploy, replicas, templateLabels: {app: 'web', 'pod-template-hash': 'new'}})
  const mine = (owner: ReturnType<typeof rs>, name: string, o: PodOptions = {}) =>
    pod(name, {owner, labels: {app: 'web', 'pod-template-hash': 'new'}, ...o})

  it('2.4.1 A Pending unscheduled, B Running not Ready on n1, C Ready on n2 with cost 100; replicas 2 → A (unassigned beats everything)', () => {
    const w = rs(2)
    const plan = planFor(w, [
      mine(w, 'a', {phase: 'Pending', node: '', ready: false}),
      mine(w, 'b', {ready: false, node: 'n1'}),
      mine(w, 'c', {node: 'n2', cost: '100'}),
    ])
    expect(deleted(plan)).toEqual(['a'])
    expect(deletes(plan)[0].decidedBy).toBe('unassigned')
    expect(deletes(plan)[0].tieGroup).toBeUndefined()
  })

  it('2.4.2 B Running not Ready cost 1000, C Ready cost −100; replicas 1 → B (readiness before cost)', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'b', {ready: false, cost: '1000'}), mine(w, 'c', {cost: '-100', node: 'n2'})])
    expect(deleted(plan)).toEqual(['b'])
    expect(deletes(plan)[0].decidedBy).toBe('not-ready')
  })

  it('2.4.3 P1 cost −10, P2 no annotation; replicas 1 → P1', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p1', {cost: '-10'}), mine(w, 'p2', {node: 'n2'})])
    expect(deleted(plan)).toEqual(['p1'])
    expect(deletes(plan)[0].decidedBy).toBe('deletion-cost')
    expect(deletes(plan)[0].facts.deletionCost).toBe(-10)
  })

  it('2.4.4 P1 cost "+5", P2 cost "−1"; replicas 1 → P2 ("+5" is invalid → 0, and −1 < 0)', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p1', {cost: '+5'}), mine(w, 'p2', {cost: '-1', node: 'n2'})])
    expect(deleted(plan)).toEqual(['p2'])
    expect(deletes(plan)[0].decidedBy).toBe('deletion-cost')
    const [p1] = rankPods([mine(w, 'p1', {cost: '+5'})], [], ctx())
    expect(p1.facts).toMatchObject({deletionCost: 0, invalidDeletionCost: '+5'})
  })

  const scenario245 = (standalone: boolean, o: {zReadySince?: string} = {}) => {
    const w = rs(2, {standalone})
    const old = replicaSet('web-old', {owner: standalone ? undefined : deploy, replicas: 1, templateLabels: {app: 'web', 'pod-template-hash': 'old'}})
    const pods = [
      mine(w, 'x', {node: 'n1'}),
      mine(w, 'y', {node: 'n1'}),
      mine(w, 'z', {node: 'n2', readySince: o.zReadySince}),
      pod('old-1', {owner: old, labels: {app: 'web', 'pod-template-hash': 'old'}, node: 'n1'}),
    ]
    return planFor([w], pods, {replicaSets: [w, old]})
  }

  it('2.4.5 X, Y on n1 (plus an old-RS pod), Z on n2, all Ready and same age; replicas 2 → X or Y (ranks 3, 3, 1), reported as a tie', () => {
    const plan = scenario245(false)
    expect(deletes(plan)).toHaveLength(1)
    const [d] = deletes(plan)
    expect(['x', 'y']).toContain(d.pod)
    expect(d.facts.colocationRank).toBe(3)
    expect(d.decidedBy).toBe('colocated')
    expect([...tieOfDelete(plan, d)].sort()).toEqual(['x', 'y'])
  })

  it('2.4.5 (variant) even a more recently ready Z is kept: co-location comes before ready time', () => {
    const plan = scenario245(false, {zReadySince: ago(60)})
    expect(['x', 'y']).toContain(deleted(plan)[0])
    expect(deletes(plan)[0].decidedBy).toBe('colocated')
  })

  it('2.4.6 same as 2.4.5 but a standalone RS: all ranks 0, co-location ignored — a three-way tie when everything else is equal', () => {
    const plan = scenario245(true)
    const [d] = deletes(plan)
    expect(d.facts.colocationRank).toBe(0)
    expect([...tieOfDelete(plan, d)].sort()).toEqual(['x', 'y', 'z'])
  })

  it('2.4.6 (variant) standalone, Z more recently ready → Z, decided by ready time', () => {
    const plan = scenario245(true, {zReadySince: ago(60)})
    expect(deleted(plan)).toEqual(['z'])
    expect(deletes(plan)[0].decidedBy).toBe('ready-time')
    expect(deletes(plan)[0].tieGroup).toBeUndefined()
  })

  it('2.4.7 P1 Ready since now−100 s, P2 since now−70 s, restarts P1=3, P2=0 → same bucket 36: the smaller UID goes, restarts not consulted', () => {
    const w = rs(1)
    // P1 has the smaller UID: if restarts were consulted P1 would go anyway, so check both UID assignments.
    for (const [u1, u2, expected] of [['uid-a', 'uid-b', 'p1'], ['uid-b', 'uid-a', 'p2']] as const) {
      const plan = planFor(w, [mine(w, 'p1', {uid: u1, readySince: ago(100), restarts: 3}), mine(w, 'p2', {uid: u2, readySince: ago(70), node: 'n2'})])
      expect(deleted(plan)).toEqual([expected])
      expect(deletes(plan)[0].decidedBy).toBe('uid')
      expect(deletes(plan)[0].facts.readyBucket).toBe(36)
      expect(deletes(plan)[0].tieGroup).toBeUndefined()
    }
  })

  it('2.4.8 P1 Ready since now−100 s, P2 since now−60 s → buckets 36 vs 35: P2 (more recently ready)', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p1', {uid: 'uid-a', readySince: ago(100)}), mine(w, 'p2', {uid: 'uid-z', readySince: ago(60), node: 'n2'})])
    expect(deleted(plan)).toEqual(['p2'])
    expect(deletes(plan)[0]).toMatchObject({decidedBy: 'ready-time', facts: {readyBucket: 35}})
  })

  it('2.4.9 same ready second, P1 restarts 4, P2 restarts 0 → P1 (criterion 7)', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p2', {uid: 'uid-a', node: 'n2'}), mine(w, 'p1', {uid: 'uid-z', restarts: 4})])
    expect(deleted(plan)).toEqual(['p1'])
    expect(deletes(plan)[0].decidedBy).toBe('restarts')
  })

  it('2.4.10 same ready second, same restarts, created in the same second → unspecified: reported as a tie', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p1'), mine(w, 'p2', {node: 'n2'})])
    expect(deletes(plan)).toHaveLength(1)
    expect([...tieOfDelete(plan, deletes(plan)[0])].sort()).toEqual(['p1', 'p2'])
    expect(deleteReasons(deletes(plan)[0], plan, FIXED_NOW).some((r) => /does not decide between p1 and p2/.test(r))).toBe(true)
  })

  it('2.4.11 P1 phase Unknown (node lost), P2 Running, both Ready=False, both scheduled → P1', () => {
    const w = rs(1)
    const plan = planFor(w, [mine(w, 'p2', {ready: false, uid: 'uid-a'}), mine(w, 'p1', {phase: 'Unknown', ready: false, uid: 'uid-z'})])
    expect(deleted(plan)).toEqual(['p1'])
    expect(deletes(plan)[0].decidedBy).toBe('phase')
  })
})

describe('§2.3 notes', () => {
  it('§2.3.2 only the first n are deleted, listed most-deletable first', () => {
    const rs = replicaSet('web', {replicas: 2})
    const plan = planFor(rs, [
      pod('ready-old', {owner: rs}),
      pod('notready', {owner: rs, ready: false}),
      pod('unassigned', {owner: rs, node: '', phase: 'Pending', ready: false}),
      pod('ready-new', {owner: rs, readySince: ago(30)}),
    ])
    expect(deleted(plan)).toEqual(['unassigned', 'notready'])
  })

  it('§2.3.5 a bucket tie broken by UID is reported as decidedBy "uid", against the pod kept, with a reason saying so', () => {
    const rs = replicaSet('web', {replicas: 1})
    const plan = planFor(rs, [pod('p1', {owner: rs, uid: 'uid-a', created: ago(100)}), pod('p2', {owner: rs, uid: 'uid-b', created: ago(70)})])
    expect(deleted(plan)).toEqual(['p1'])
    expect(deletes(plan)[0].decidedBy).toBe('uid')
    expect(deletes(plan)[0].decidedAgainst).toBe('p2')
    expect(deleteReasons(deletes(plan)[0], plan, FIXED_NOW)[0]).toMatch(/uid tie-break against kept pod p2/)
  })
})
