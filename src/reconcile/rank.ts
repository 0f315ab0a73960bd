// Which pods a ReplicaSet deletes first on scale-down: ActivePodsWithRanks.Less
// (pkg/controller/controller_utils.go) and getPodsToDelete / getPodsRankedByRelatedPodsOnSameNode
// (pkg/controller/replicaset/replica_set.go).
//
// The ordering, in upstream's order — the first rule that tells two pods apart decides:
//   1. unassigned      a pod without a node before one with a node
//   2. phase           Pending < Unknown < Running (anything else counts as Pending)
//   3. not-ready       not Ready before Ready
//   4. deletion-cost   lower controller.kubernetes.io/pod-deletion-cost first (gate PodDeletionCost)
//   5. colocated       more related active pods on the same node first
//   6. ready-time      both Ready with different ready times: more recently ready first — by
//                      log2 buckets of the age, and inside one bucket the smaller UID (`uid`)
//   7. restarts        more container restarts first, then more sidecar restarts
//   8. created         different creation times: younger first, bucketed like 6 (`uid` inside a bucket)
// Otherwise the two are equal, and Go's unstable sort.Sort leaves their order to chance.
import type {PodView} from '../model/objects.js'
import type {DecidedBy, FeatureGates, RankFacts} from '../model/plan.js'
import {deletionCost, isPodActive, maxRestarts, phaseOrdinal} from './pods.js'
import {logBucket, objectTime} from './time.js'

/** A pod with everything the comparator reads, computed once. */
export interface RankedPod {
  pod: PodView
  facts: RankFacts
  phaseOrdinal: number
  readyTime?: bigint
  created?: bigint
}

export interface RankContext {
  now: bigint
  gates: Pick<FeatureGates, 'PodDeletionCost' | 'LogarithmicScaleDown'>
}

/** Outcome of comparing a with b: whether a is deleted before b, and which rule said so. */
export interface Comparison {
  less: boolean
  /** The rule that told the pods apart; undefined when they are equal. */
  rule?: DecidedBy
}

/**
 * getPodsRankedByRelatedPodsOnSameNode: rank = number of active related pods on the pod's node
 * (unassigned pods all share the node name ""). `related` is empty for a controller without an owner.
 */
export function rankPods(pods: readonly PodView[], related: readonly PodView[], ctx: RankContext): RankedPod[] {
  const perNode = new Map<string, number>()
  for (const pod of related) if (isPodActive(pod)) perNode.set(pod.nodeName, (perNode.get(pod.nodeName) ?? 0) + 1)
  return pods.map((pod) => {
    const {cost, invalid} = deletionCost(pod.annotations)
    const restarts = maxRestarts(pod)
    const readyTime = pod.ready ? objectTime(pod.readySince) : undefined
    const created = objectTime(pod.creationTimestamp)
    const facts: RankFacts = {
      nodeName: pod.nodeName,
      phase: pod.phase,
      ready: pod.ready,
      deletionCost: cost,
      colocationRank: perNode.get(pod.nodeName) ?? 0,
      restarts: restarts.regular,
      sidecarRestarts: restarts.sidecar,
    }
    if (invalid !== undefined) facts.invalidDeletionCost = invalid
    if (pod.ready && pod.readySince) {
      facts.readySince = pod.readySince
      if (readyTime !== undefined) facts.readyBucket = logBucket(readyTime, ctx.now)
    }
    if (pod.creationTimestamp) {
      facts.creationTimestamp = pod.creationTimestamp
      if (created !== undefined) facts.createdBucket = logBucket(created, ctx.now)
    }
    return {pod, facts, phaseOrdinal: phaseOrdinal(pod.phase), readyTime, created}
  })
}

/** ActivePodsWithRanks.Less(a, b), also naming the rule that decided. */
export function compareForDeletion(a: RankedPod, b: RankedPod, ctx: RankContext): Comparison {
  // 1. Unassigned < assigned: only when exactly one of the two has no node.
  const aNode = a.pod.nodeName
  const bNode = b.pod.nodeName
  if (aNode !== bNode && (aNode === '' || bNode === '')) return {less: aNode === '', rule: 'unassigned'}
  // 2. Pending < Unknown < Running.
  if (a.phaseOrdinal !== b.phaseOrdinal) return {less: a.phaseOrdinal < b.phaseOrdinal, rule: 'phase'}
  // 3. Not ready < ready.
  if (a.pod.ready !== b.pod.ready) return {less: !a.pod.ready, rule: 'not-ready'}
  // 4. Lower deletion cost first.
  if (ctx.gates.PodDeletionCost && a.facts.deletionCost !== b.facts.deletionCost) {
    return {less: a.facts.deletionCost < b.facts.deletionCost, rule: 'deletion-cost'}
  }
  // 5. More co-located related pods first.
  if (a.facts.colocationRank !== b.facts.colocationRank) {
    return {less: a.facts.colocationRank > b.facts.colocationRank, rule: 'colocated'}
  }
  // 6. Both ready: the more recently ready first (a zero time counts as most recent).
  if (a.pod.ready && b.pod.ready && a.readyTime !== b.readyTime) {
    return compareTimes(a.readyTime, b.readyTime, a, b, ctx, 'ready-time')
  }
  // 7. More restarts first: regular containers, then sidecars.
  if (a.facts.restarts !== b.facts.restarts) return {less: a.facts.restarts > b.facts.restarts, rule: 'restarts'}
  if (a.facts.sidecarRestarts !== b.facts.sidecarRestarts) {
    return {less: a.facts.sidecarRestarts > b.facts.sidecarRestarts, rule: 'restarts'}
  }
  // 8. Younger first (a zero creation time counts as youngest).
  if (a.created !== b.created) return compareTimes(a.created, b.created, a, b, ctx, 'created')
  return {less: false}
}

/** Rules 6 and 8: afterOrZero, or log2 buckets with the UID tie-break (logarithmicRankDiff). */
function compareTimes(
  ta: bigint | undefined,
  tb: bigint | undefined,
  a: RankedPod,
  b: RankedPod,
  ctx: RankContext,
  rule: 'ready-time' | 'created',
): Comparison {
  if (ta === undefined || tb === undefined) return {less: ta === undefined, rule} // zero time first
  if (!ctx.gates.LogarithmicScaleDown || ctx.now === 0n) return {less: ta > tb, rule}
  const diff = logBucket(ta, ctx.now) - logBucket(tb, ctx.now)
  if (diff === 0) return {less: a.pod.uid < b.pod.uid, rule: 'uid'}
  return {less: diff < 0, rule}
}

export interface DeletionChoice {
  /** The pods to delete, most-deletable first. */
  victims: RankedPod[]
  /** Every candidate, in deletion order (victims first). */
  ordered: RankedPod[]
  /** For each victim (by uid): the rule that put it ahead of the first pod kept. */
  decidedBy: Map<string, DecidedBy>
  /**
   * The pods among which upstream's order does not decide where the cut falls, in deletion order
   * (its victims first, then its kept pods); empty when the cut falls between decided pods. There
   * is at most one: the cut falls in one place.
   */
  tie: RankedPod[]
  /** The kept pod each `decidedBy` compares with: the first kept outside any tie, else the first kept. */
  decidedAgainst?: RankedPod
}

/**
 * getPodsToDelete: with n ≥ the number of candidates all go unranked; otherwise sort by the
 * comparator and take the first n.
 *
 * Go's sort.Sort is unstable and Less is not even a consistent order (the UID tie-break applies
 * only inside one age bucket, so three pods can beat each other in a circle), so which pods go can
 * depend on the informer's list order. We find what is decided: let "x may precede y" be "not
 * Less(y, x)". Every pair is related one way or both, so the strongly connected components of this
 * relation are totally ordered, and sorting by how many pods Less puts ahead of each lists them
 * contiguously. If the cut falls inside a component, every pod of it is in the `tie`: the
 * controller may delete any of them. Counting (lessCounts) takes O(m log m), so ties of any size
 * are found whole.
 */
export function choosePodsToDelete(candidates: readonly RankedPod[], n: number, ctx: RankContext): DeletionChoice {
  if (n >= candidates.length) {
    const decidedBy = new Map(candidates.map((c) => [c.pod.uid, 'all' as DecidedBy]))
    return {victims: [...candidates], ordered: [...candidates], decidedBy, tie: []}
  }
  const m = candidates.length
  const {ahead, behind} = lessCounts(candidates, ctx)
  const order = Array.from({length: m}, (_, i) => i).sort((i, j) => ahead[i] - ahead[j] || byName(candidates[i], candidates[j]))
  const ordered = order.map((i) => candidates[i])
  // A prefix of k pods is a union of whole components when Less puts each of its pods ahead of
  // each pod after it, i.e. when Σ (behind − ahead) over the prefix is k·(m − k): Less edges out of
  // the prefix minus edges into it, each at most k·(m − k) and at least 0.
  const closed = new Uint8Array(m + 1)
  closed[0] = 1
  let balance = 0
  for (let k = 1; k <= m; k++) {
    balance += behind[order[k - 1]] - ahead[order[k - 1]]
    closed[k] = balance === k * (m - k) ? 1 : 0
  }
  let tieStart = n
  while (!closed[tieStart]) tieStart--
  let tieEnd = n
  while (!closed[tieEnd]) tieEnd++
  const victims = ordered.slice(0, n)
  const tie = tieStart < n ? ordered.slice(tieStart, tieEnd) : []
  // Victims are decided against the first kept pod outside the tie (or, if none, the first kept).
  const against = ordered[tieEnd] ?? ordered[n]
  const decidedBy = new Map<string, DecidedBy>()
  // Equal on every rule: name the last rule upstream consulted (creation time); `tie` says the rest.
  for (const victim of victims) decidedBy.set(victim.pod.uid, compareForDeletion(victim, against, ctx).rule ?? 'created')
  return {victims, ordered, decidedBy, tie, decidedAgainst: against}
}

function byName(a: RankedPod, b: RankedPod): number {
  return a.pod.name < b.pod.name ? -1 : a.pod.name > b.pod.name ? 1 : a.pod.uid < b.pod.uid ? -1 : a.pod.uid > b.pod.uid ? 1 : 0
}

/**
 * For every pod, how many pods Less(x, ·) puts ahead of it (`ahead`: Less(y, x)) and behind it
 * (`behind`: Less(x, y)), without comparing every pair. compareForDeletion is a cascade of four
 * levels, and this walks the same cascade:
 *   1. rules 1–5 and the ready-time class (zero, or the log2 bucket, or the time itself): a
 *      consistent order, so pods in an earlier class are all ahead;
 *   2. inside one class, pods of different exact ready times are ordered by uid;
 *   3. pods of one exact ready time: restarts, sidecar restarts and the creation class, consistent;
 *   4. inside one, pods of different exact creation times are ordered by uid; equal otherwise.
 * A property test checks the counts against compareForDeletion on every pair.
 */
export function lessCounts(pods: readonly RankedPod[], ctx: RankContext): {ahead: Float64Array; behind: Float64Array} {
  const ahead = new Float64Array(pods.length)
  const behind = new Float64Array(pods.length)
  const logScale = ctx.gates.LogarithmicScaleDown && ctx.now !== 0n
  // A time's class under rules 6 and 8: the zero time first, then the log2 bucket (or the time,
  // more recent first, without logarithmic scale-down).
  const timeClass = (t: bigint | undefined): number | bigint => (t === undefined ? -Infinity : logScale ? logBucket(t, ctx.now) : -t)
  // The exact time that splits a class into parts told apart by uid (none without logarithmic scale-down).
  const exact = (t: bigint | undefined): bigint | undefined => (logScale ? t : undefined)
  const levels: Level[] = [
    {
      kind: 'order',
      key: (p) => [
        p.pod.nodeName === '' ? 0 : 1,
        p.phaseOrdinal,
        p.pod.ready ? 1 : 0,
        ctx.gates.PodDeletionCost ? p.facts.deletionCost : 0,
        -p.facts.colocationRank,
        p.pod.ready ? timeClass(p.readyTime) : 0,
      ],
    },
    {kind: 'uid', part: (p) => (p.pod.ready ? exact(p.readyTime) : undefined)},
    {kind: 'order', key: (p) => [-p.facts.restarts, -p.facts.sidecarRestarts, timeClass(p.created)]},
    {kind: 'uid', part: (p) => exact(p.created)},
  ]
  const walk = (group: number[], level: number): void => {
    const spec = levels[level]
    if (!spec || group.length < 2) return
    if (spec.kind === 'order') {
      const keys = group.map((i) => spec.key(pods[i]))
      const sorted = group.map((_, k) => k).sort((x, y) => compareKeys(keys[x], keys[y]))
      for (let s = 0; s < sorted.length; ) {
        let e = s + 1
        while (e < sorted.length && compareKeys(keys[sorted[s]], keys[sorted[e]]) === 0) e++
        const block = sorted.slice(s, e).map((k) => group[k])
        for (const i of block) {
          ahead[i] += s
          behind[i] += sorted.length - e
        }
        walk(block, level + 1)
        s = e
      }
      return
    }
    // Pods of different parts are ordered by uid: count the smaller and larger uids in the whole
    // group, less those in the pod's own part (which the next level orders).
    const parts = new Map<bigint | undefined, number[]>()
    for (const i of group) {
      const key = spec.part(pods[i])
      const part = parts.get(key)
      if (part) part.push(i)
      else parts.set(key, [i])
    }
    if (parts.size > 1) {
      const all = uidsSorted(group, pods)
      for (const part of parts.values()) {
        const own = uidsSorted(part, pods)
        for (const i of part) {
          const uid = pods[i].pod.uid
          ahead[i] += lowerBound(all, uid) - lowerBound(own, uid)
          behind[i] += all.length - upperBound(all, uid) - (own.length - upperBound(own, uid))
        }
      }
    }
    for (const part of parts.values()) walk(part, level + 1)
  }
  walk(
    pods.map((_, i) => i),
    0,
  )
  return {ahead, behind}
}

type Level =
  | {kind: 'order'; key: (p: RankedPod) => (number | bigint)[]}
  | {kind: 'uid'; part: (p: RankedPod) => bigint | undefined}

function compareKeys(a: readonly (number | bigint)[], b: readonly (number | bigint)[]): number {
  // < and > compare a number with a bigint by value (=== would not).
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1
    if (a[i] > b[i]) return 1
  }
  return 0
}

function uidsSorted(group: readonly number[], pods: readonly RankedPod[]): string[] {
  return group.map((i) => pods[i].pod.uid).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The number of entries of `sorted` below `x`. */
function lowerBound(sorted: readonly string[], x: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The number of entries of `sorted` at or below `x`. */
function upperBound(sorted: readonly string[], x: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid] <= x) lo = mid + 1
    else hi = mid
  }
  return lo
}
