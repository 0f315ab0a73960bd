// Counting the pods of controllers that roll out by ControllerRevision (StatefulSets and DaemonSets
// share it): their pods counted per revision after each round, the lowest availability and the most
// pods seen, and the timeline fields they have in common. Each controller's simulate.ts builds its
// view of its own sets with this, and its own timeline from it.
import type {ReconcilePlan} from '../model/plan.js'
import type {ControllerRevisionView, PodView, Snapshot} from '../model/objects.js'
import type {RolloutVerdict, SimulationStep, WorkloadObserved, WorldCounts} from '../model/simulation.js'
import {REVISION_HASH_LABEL} from '../reconcile/revisions.js'
import {isPodAvailable} from '../reconcile/status.js'
import {cmp, push} from './collections.js'
import {availabilityKept} from './report.js'
import {aboveBound, belowBound, RolloutWatch, type LoopEnd} from './verdict.js'

/** A set as this module reads it. */
export interface RevisionSet {
  kind: string
  uid: string
  namespace: string
  name: string
  minReadySeconds: number
}

/** The revision a pod whose controller-revision-hash label is `label` was made from, when no ControllerRevision of the set has that name or hash. */
export type RevisionNamer = (set: RevisionSet, label: string) => string

/** One view of the world, grouped for counting: each set, its pods and its revisions. */
export class RevisionSetView<S extends RevisionSet> {
  private readonly sets = new Map<string, S>()
  private readonly podsBySet = new Map<string, PodView[]>()
  private readonly revisionsBySet = new Map<string, ControllerRevisionView[]>()

  constructor(
    readonly snapshot: Snapshot,
    sets: readonly S[],
    private readonly now: bigint,
    private readonly unknownRevision: RevisionNamer = (_set, label) => label,
  ) {
    for (const s of sets) this.sets.set(s.uid, s)
    // A world without such sets: nothing to group (this view is built after every round).
    if (this.sets.size === 0) return
    for (const pod of snapshot.pods) {
      const owner = pod.ownerReferences.find((r) => r.controller)
      if (owner && this.sets.has(owner.uid)) push(this.podsBySet, owner.uid, pod)
    }
    for (const rev of snapshot.controllerRevisions ?? []) {
      const owner = rev.ownerReferences.find((r) => r.controller)
      if (owner && this.sets.has(owner.uid)) push(this.revisionsBySet, owner.uid, rev)
    }
    for (const list of this.revisionsBySet.values()) list.sort((a, b) => a.revision - b.revision || cmp(a.name, b.name))
  }

  has(uid: string): boolean {
    return this.sets.has(uid)
  }

  set(uid: string): S | undefined {
    return this.sets.get(uid)
  }

  pods(uid: string): readonly PodView[] {
    return this.podsBySet.get(uid) ?? []
  }

  revisions(uid: string): readonly ControllerRevisionView[] {
    return this.revisionsBySet.get(uid) ?? []
  }

  /** The ControllerRevision a pod was made from, by name: its label is the name or the hash. */
  revisionOf(set: S, pod: PodView): string {
    const label = pod.labels[REVISION_HASH_LABEL] ?? ''
    const rev = this.revisions(set.uid).find((r) => r.name === label || r.labels[REVISION_HASH_LABEL] === label)
    if (rev) return rev.name
    return label !== '' ? this.unknownRevision(set, label) : label
  }

  available(set: S, pod: PodView): boolean {
    return pod.deletionTimestamp === undefined && isPodAvailable(pod, set.minReadySeconds, this.now)
  }

  /** The set's pods after a round: totals, and the pods (not terminating) by revision, oldest revision first. */
  counts(uid: string): WorldCounts {
    const set = this.sets.get(uid)
    const pods = {total: 0, ready: 0, available: 0, terminating: 0}
    if (!set) return {replicaSets: [], pods, revisions: []}
    const byRevision = new Map<string, number>()
    for (const pod of this.pods(uid)) {
      if (pod.deletionTimestamp) {
        pods.terminating++
        continue
      }
      if (pod.phase === 'Succeeded' || pod.phase === 'Failed') continue
      pods.total++
      if (pod.ready) pods.ready++
      if (this.available(set, pod)) pods.available++
      const rev = this.revisionOf(set, pod)
      byRevision.set(rev, (byRevision.get(rev) ?? 0) + 1)
    }
    const order = this.revisions(uid).map((r) => r.name)
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length)
    const revisions = [...byRevision].sort(([a], [b]) => rank(a) - rank(b) || cmp(a, b)).map(([name, n]) => ({name, pods: n}))
    return {replicaSets: [], pods, revisions}
  }
}

export type Seen = WorkloadObserved & {maxInFlight: number; maxPodsPerNode: number}

const NOTHING_SEEN: Seen = {startAvailable: 0, startPods: 0, minAvailable: 0, maxPods: 0, maxPodsWithTerminating: 0, maxInFlight: 0, maxPodsPerNode: 0}

/** Per set: the lowest availability and the most pods seen at any instant, and whether and when its rollout completed. */
export class RevisionSetSampler<S extends RevisionSet> {
  private readonly seen = new Map<string, Seen>()
  private readonly rollouts = new RolloutWatch()

  /** One instant: each of `sets` as `view` sees it; `complete`: its rollout is complete as its status says. */
  sample(sets: readonly S[], view: RevisionSetView<S>, at: bigint, complete: (set: S) => boolean): void {
    for (const set of sets) {
      const {pods} = view.counts(set.uid)
      this.rollouts.sample(set.uid, at, {complete: complete(set), terminating: pods.terminating})
      // In flight: pods the controller waits on (not yet available, or terminating).
      const inFlight = view.pods(set.uid).filter((p) => p.phase !== 'Succeeded' && p.phase !== 'Failed' && !view.available(set, p)).length
      const perNode = new Map<string, number>()
      for (const p of view.pods(set.uid)) {
        const node = p.nodeName || p.affinityNode
        if (!p.deletionTimestamp && node) perNode.set(node, (perNode.get(node) ?? 0) + 1)
      }
      const now: Seen = {
        startAvailable: pods.available,
        startPods: pods.total,
        minAvailable: pods.available,
        maxPods: pods.total,
        maxPodsWithTerminating: pods.total + pods.terminating,
        maxInFlight: inFlight,
        maxPodsPerNode: Math.max(0, ...perNode.values()),
      }
      const s = this.seen.get(set.uid)
      if (!s) {
        this.seen.set(set.uid, now)
        continue
      }
      s.minAvailable = Math.min(s.minAvailable, now.minAvailable)
      s.maxPods = Math.max(s.maxPods, now.maxPods)
      s.maxPodsWithTerminating = Math.max(s.maxPodsWithTerminating, now.maxPodsWithTerminating)
      s.maxInFlight = Math.max(s.maxInFlight, now.maxInFlight)
      s.maxPodsPerNode = Math.max(s.maxPodsPerNode, now.maxPodsPerNode)
    }
  }

  observed(set: S): Seen {
    return this.seen.get(set.uid) ?? {...NOTHING_SEEN}
  }

  /** Its rollout's verdict: `progress` where it stands, `extraBroken` the bounds of its own kind it broke. */
  verdict(set: S, bounds: {minAvailable: number; maxPods: number}, end: LoopEnd, progress: string, extraBroken: string[]): RolloutVerdict {
    const observed = this.observed(set)
    const broken = [
      ...belowBound('min available', observed.minAvailable, bounds.minAvailable, availabilityKept({observed, bounds})),
      ...aboveBound('max pods', observed.maxPods, Math.max(bounds.maxPods, observed.startPods)),
      ...extraBroken,
    ]
    return this.rollouts.verdict(set.uid, end, progress, broken)
  }
}

/** The fields every set's timeline has: its steps and their span, its revisions, the plan's rollout words. */
export function setTimelineParts<S extends RevisionSet>(view: RevisionSetView<S>, plan: ReconcilePlan, steps: readonly SimulationStep[]) {
  const planned = new Map(plan.controllers.map((c) => [`${c.kind}/${c.uid}`, c]))
  const mine = (set: S) => steps.filter((s) => s.controller.kind === set.kind && s.controller.namespace === set.namespace && s.controller.name === set.name)
  return {
    planned: (set: S) => planned.get(`${set.kind}/${set.uid}`),
    timing(set: S) {
      const own = mine(set)
      return {steps: own.length, durationSeconds: own.length === 0 ? 0 : own[own.length - 1].offsetSeconds}
    },
    revisions: (set: S) => view.revisions(set.uid).map((r) => ({name: r.name, revision: r.revision})),
    rollout(set: S) {
      const step = planned.get(`${set.kind}/${set.uid}`)?.rolloutStep
      return step ? {rollout: step} : {}
    },
  }
}

export function byNamespaceName(a: {namespace: string; name: string}, b: {namespace: string; name: string}): number {
  return cmp(a.namespace, b.namespace) || cmp(a.name, b.name)
}
