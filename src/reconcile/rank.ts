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
  /** For each victim in a tie with a kept pod (by uid): every pod of that tie. */
  ties: Map<string, RankedPod[]>
  /** The kept pod each `decidedBy` compares with: the first kept outside any tie, else the first kept. */
  decidedAgainst?: RankedPod
}

/** Pods analysed around the cut for ties; beyond it the sorted order is taken as decided. */
const TIE_WINDOW = 1000

/**
 * getPodsToDelete: with n ≥ the number of candidates all go unranked; otherwise sort by the
 * comparator and take the first n.
 *
 * Go's sort.Sort is unstable and Less is not even a consistent order (the UID tie-break applies
 * only inside one age bucket, so three pods can beat each other in a circle), so which pods go can
 * depend on the informer's list order. We find what is decided: let "x may precede y" be
 * Less(x, y) or x, y equal. Its strongly connected components are totally ordered (every pair is
 * compared), and sorting by how many pods each may precede lists them contiguously. If the cut falls
 * inside a component, every pod of it is in the `tie`: the controller may delete any of them.
 */
export function choosePodsToDelete(candidates: readonly RankedPod[], n: number, ctx: RankContext): DeletionChoice {
  if (n >= candidates.length) {
    const decidedBy = new Map(candidates.map((c) => [c.pod.uid, 'all' as DecidedBy]))
    return {victims: [...candidates], ordered: [...candidates], decidedBy, ties: new Map()}
  }
  const sorted = [...candidates].sort((a, b) => {
    if (compareForDeletion(a, b, ctx).less) return -1
    if (compareForDeletion(b, a, ctx).less) return 1
    return a.pod.name < b.pod.name ? -1 : a.pod.name > b.pod.name ? 1 : 0
  })
  const from = Math.max(0, n - TIE_WINDOW)
  const window = sorted.slice(from, n + TIE_WINDOW)
  const {order, tieStart, tieEnd} = components(window, n - from, ctx)
  const ordered = [...sorted.slice(0, from), ...order, ...sorted.slice(from + window.length)]
  const victims = ordered.slice(0, n)
  const tie = from + tieStart < n ? ordered.slice(from + tieStart, from + tieEnd) : []
  const decidedBy = new Map<string, DecidedBy>()
  const ties = new Map<string, RankedPod[]>()
  // Victims are decided against the first kept pod outside the tie (or, if none, the first kept).
  const against = ordered[from + tieEnd] ?? ordered[n]
  for (const victim of victims) {
    if (tie.includes(victim)) ties.set(victim.pod.uid, tie)
    // Equal on every rule: name the last rule upstream consulted (creation time); `tie` says the rest.
    decidedBy.set(victim.pod.uid, compareForDeletion(victim, against, ctx).rule ?? 'created')
  }
  return {victims, ordered, decidedBy, ties, decidedAgainst: against}
}

/**
 * Orders `pods` by strongly connected component of "may precede" and returns the component
 * around position `cut` as [tieStart, tieEnd) — empty (tieStart = tieEnd = cut) when the cut falls
 * between components.
 */
function components(pods: readonly RankedPod[], cut: number, ctx: RankContext): {order: RankedPod[]; tieStart: number; tieEnd: number} {
  const m = pods.length
  const less = new Uint8Array(m * m)
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j && compareForDeletion(pods[i], pods[j], ctx).less) less[i * m + j] = 1
  const mayPrecede = (i: number, j: number) => i !== j && (less[i * m + j] === 1 || less[j * m + i] === 0)
  const score = Array.from({length: m}, (_, i) => {
    let s = 0
    for (let j = 0; j < m; j++) if (mayPrecede(i, j)) s++
    return s
  })
  const idx = Array.from({length: m}, (_, i) => i).sort((a, b) => score[b] - score[a] || a - b)
  // A prefix is closed (a union of whole components) when no pod outside may precede one inside.
  const closed = [true]
  let inward = 0
  const inside = new Uint8Array(m)
  for (let k = 0; k < m; k++) {
    const v = idx[k]
    for (let j = 0; j < m; j++) {
      if (j === v) continue
      if (inside[j] && mayPrecede(v, j)) inward--
      if (!inside[j] && mayPrecede(j, v)) inward++
    }
    inside[v] = 1
    closed.push(inward === 0)
  }
  let tieStart = cut
  while (!closed[tieStart]) tieStart--
  let tieEnd = cut
  while (!closed[tieEnd]) tieEnd++
  return {order: idx.map((i) => pods[i]), tieStart, tieEnd}
}
