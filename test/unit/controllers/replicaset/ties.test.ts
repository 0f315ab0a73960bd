// Ties of any size (§2.4.10): choosePodsToDelete counts, for every pod, how many pods Less puts
// ahead of and behind it instead of comparing every pair. Here those counts, the order and the tie
// are checked against compareForDeletion on every pair of small random pod sets, built from few
// values so that equal pods, same-bucket uid decisions and cycles under Less are common.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {PodView} from '../../../../src/model/objects.js'
import {TIE_LISTED_MAX} from '../../../../src/model/plan.js'
import {choosePodsToDelete, compareForDeletion, lessCounts, type RankContext, type RankedPod, rankPods} from '../../../../src/reconcile/rank.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {ago, deletes, FIXED_NOW, planFor, pod, replicaSet} from '../../../helpers/builders.js'

const NOW = parseRfc3339(FIXED_NOW)!

const podArb = fc.record({
  node: fc.constantFrom('', 'n1', 'n2'),
  phase: fc.constantFrom('Running', 'Running', 'Pending'),
  ready: fc.boolean(),
  cost: fc.constantFrom(undefined, undefined, '-1', '3'),
  // 70 s and 100 s ago share a log2 bucket; 5000 s does not; null: Ready without a ready time.
  readySince: fc.constantFrom<string | null>(ago(100), ago(100), ago(70), ago(5000), null),
  restarts: fc.constantFrom(0, 0, 2),
  sidecarRestarts: fc.constantFrom(undefined, undefined, 1),
  created: fc.constantFrom<string | null>(ago(7200), ago(7200), ago(7000), ago(100), null),
  uid: fc.constantFrom('u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u1'),
})

const worldArb = fc.record({
  pods: fc.array(podArb, {minLength: 2, maxLength: 9}),
  related: fc.boolean(),
  cut: fc.nat(),
  PodDeletionCost: fc.boolean(),
  LogarithmicScaleDown: fc.boolean(),
  zeroNow: fc.boolean(),
})

function build(w: fc.RecordValue<typeof worldArb> extends infer T ? T : never): {ranked: RankedPod[]; ctx: RankContext; n: number} {
  const pods: PodView[] = w.pods.map((o, i) => pod(`p${i}`, o))
  const ctx: RankContext = {now: w.zeroNow ? 0n : NOW, gates: {PodDeletionCost: w.PodDeletionCost, LogarithmicScaleDown: w.LogarithmicScaleDown}}
  return {ranked: rankPods(pods, w.related ? pods : [], ctx), ctx, n: 1 + (w.cut % (pods.length - 1))}
}

/** Less on every pair, and which pods reach which under "may precede" (not Less(y, x)). */
function pairwise(pods: readonly RankedPod[], ctx: RankContext) {
  const m = pods.length
  const less = pods.map((a) => pods.map((b) => a !== b && compareForDeletion(a, b, ctx).less))
  const reach = pods.map((_, i) => pods.map((_, j) => i === j || !less[j][i]))
  for (let k = 0; k < m; k++) for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (reach[i][k] && reach[k][j]) reach[i][j] = true
  return {less, sameComponent: (i: number, j: number) => reach[i][j] && reach[j][i]}
}

describe('ties found by counting agree with every pair compared', () => {
  it('ahead and behind are the number of pods Less puts before and after each pod', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        const {ranked, ctx} = build(w)
        const {less} = pairwise(ranked, ctx)
        const {ahead, behind} = lessCounts(ranked, ctx)
        ranked.forEach((_, i) => {
          expect(ahead[i]).toBe(less.filter((row) => row[i]).length)
          expect(behind[i]).toBe(less[i].filter(Boolean).length)
        })
      }),
      {numRuns: 2000},
    )
  })

  it('the tie is exactly the pods of the component the cut falls in, and the victims are otherwise decided', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        const {ranked, ctx, n} = build(w)
        const {less, sameComponent} = pairwise(ranked, ctx)
        const choice = choosePodsToDelete(ranked, n, ctx)
        const at = (p: RankedPod) => ranked.indexOf(p)
        const victims = new Set(choice.victims.map(at))
        const kept = ranked.map((_, i) => i).filter((i) => !victims.has(i))
        // A component holding both a victim and a kept pod is the tie; there is at most one.
        const straddling = ranked.map((_, i) => i).filter((i) => kept.some((k) => sameComponent(i, k)) && [...victims].some((v) => sameComponent(i, v)))
        expect(choice.tie.map(at).sort((a, b) => a - b)).toEqual(straddling)
        // Every victim outside the tie is ahead of every kept pod outside it under Less.
        for (const v of victims) for (const k of kept) if (!sameComponent(v, k)) expect(less[v][k]).toBe(true)
        // The tie's victims come first in it.
        expect(choice.tie.slice(0, choice.tie.filter((p) => victims.has(at(p))).length).every((p) => victims.has(at(p)))).toBe(true)
      }),
      {numRuns: 2000},
    )
  })
})

describe('large ties', () => {
  const rs = replicaSet('big', {replicas: 1500})
  const identical = Array.from({length: 2500}, (_, i) => pod(`big-${String(i).padStart(4, '0')}`, {owner: rs}))

  it('2,500 identical pods scaled to 1,500: one tie of all 2,500, the 500 deletes of this sync (burst limit) in it', () => {
    const plan = planFor(rs, identical)
    expect(plan.ties).toHaveLength(1)
    const [tie] = plan.ties!
    expect(tie.pods).toHaveLength(2500)
    expect(new Set(tie.pods).size).toBe(2500)
    expect(tie.delete).toBe(500)
    const ds = deletes(plan)
    expect(ds).toHaveLength(500)
    expect(tie.pods.slice(0, 500)).toEqual(ds.map((d) => d.pod))
    for (const d of ds) {
      expect(d.tieGroup).toBe(tie.id)
      // The output contract: a delete points at its tie and never repeats its pods.
      expect(d.tie).toBeUndefined()
    }
  })

  it(`the plan's ties list a tie whole, below and above ${TIE_LISTED_MAX} pods, and its deletes point at it`, () => {
    const smallPlan = planFor(replicaSet('big', {replicas: TIE_LISTED_MAX - 2}), identical.slice(0, TIE_LISTED_MAX))
    expect(smallPlan.ties?.[0].pods).toHaveLength(TIE_LISTED_MAX)
    const small = deletes(smallPlan)
    expect(small).toHaveLength(2)
    for (const d of small) expect(d.tieGroup).toBe(smallPlan.ties?.[0].id)
    const largePlan = planFor(replicaSet('big', {replicas: TIE_LISTED_MAX - 1}), identical.slice(0, TIE_LISTED_MAX + 1))
    expect(largePlan.ties?.[0].pods).toHaveLength(TIE_LISTED_MAX + 1)
    const large = deletes(largePlan)
    expect(large).toHaveLength(2)
    for (const d of large) expect(d.tieGroup).toBe(largePlan.ties?.[0].id)
  })

  it('a tie beside decided pods: only the equal pods are in it', () => {
    const notReady = [pod('sick-1', {owner: rs, ready: false}), pod('sick-2', {owner: rs, ready: false})]
    const young = Array.from({length: 30}, (_, i) => pod(`young-${i}`, {owner: rs, created: ago(60), readySince: ago(30)}))
    const plan = planFor(replicaSet('big', {replicas: 20}), [...notReady, ...young, ...identical.slice(0, 100)])
    const [tie] = plan.ties!
    // 112 go: the two not ready, the 30 recently ready, then 80 of the 100 equal old pods.
    expect(tie.pods).toHaveLength(100)
    expect(tie.delete).toBe(80)
    expect(deletes(plan).filter((d) => d.tieGroup === undefined).map((d) => d.pod).sort()).toEqual([...notReady, ...young].map((p) => p.name).sort())
  })
})
