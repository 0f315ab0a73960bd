// StatefulSets and DaemonSets in the simulation: what the event loop (loop.ts) needs to know about
// them besides their planners and the executor, which are the same as `kctl plan` and
// `kctl reconcile` use — their pods counted per revision after each round, the lowest availability
// and the most pods seen, and each set's timeline at the end.
import type {FeatureGates, ReconcilePlan} from '../../model/plan.js'
import type {ControllerRevisionView, PodView, Snapshot} from '../../model/objects.js'
import type {DaemonSetTimeline, SimulationStep, StatefulSetTimeline, WorkloadObserved, WorldCounts} from '../../model/simulation.js'
import type {DaemonSetView} from '../daemonset/model.js'
import type {StatefulSetView} from './model.js'
import {WORKLOAD_SKIP} from './apply.js'
import type {ActionResult} from '../../model/apply.js'
import {daemonUpdateBudget} from '../daemonset/sync.js'
import {REVISION_HASH_LABEL} from '../../reconcile/revisions.js'
import {isPodAvailable} from '../../reconcile/status.js'
import {parseOrdinal, statefulSetMaxUnavailable} from './sync.js'
import {cmp, push} from '../../simulate/collections.js'

type SetView = StatefulSetView | DaemonSetView

/** The kinds whose steps are counted here (the controller is the set itself). */
export function isWorkloadKind(kind: string): kind is SetView['kind'] {
  return kind === 'StatefulSet' || kind === 'DaemonSet'
}

/** minReadySeconds of every controller that counts pods as available, by uid. */
export function minReadyByController(snapshot: Snapshot): Map<string, number> {
  const owners = [...snapshot.replicaSets, ...(snapshot.statefulSets ?? []), ...(snapshot.daemonSets ?? [])]
  return new Map(owners.map((o) => [o.uid, o.minReadySeconds]))
}

/**
 * A set whose new revision's name cannot be computed here (a StatefulSet's template read from a
 * file that is not in the API server's shape) goes no further: the executor sends nothing past
 * that write, and the simulation says so once.
 */
export function unsentRevisionWarnings(results: readonly ActionResult[]): string[] {
  return results
    .filter((r) => r.skipReason === WORKLOAD_SKIP.revisionUnknown)
    .map((r) => `${r.controller.kind} ${r.controller.namespace}/${r.controller.name} is not simulated past its new revision: its name is unknown here (read the set from a cluster, or from its kubectl get -o yaml)`)
}

/** One view of the world, grouped for counting: each set, its pods and its revisions. */
export class WorkloadView {
  private readonly sets = new Map<string, SetView>()
  private readonly podsBySet = new Map<string, PodView[]>()
  private readonly revisionsBySet = new Map<string, ControllerRevisionView[]>()

  constructor(
    readonly snapshot: Snapshot,
    private readonly now: bigint,
  ) {
    for (const s of [...(snapshot.statefulSets ?? []), ...(snapshot.daemonSets ?? [])]) this.sets.set(s.uid, s)
    // A world of Deployments only: nothing to group (this view is built after every round).
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

  set(uid: string): SetView | undefined {
    return this.sets.get(uid)
  }

  pods(uid: string): readonly PodView[] {
    return this.podsBySet.get(uid) ?? []
  }

  revisions(uid: string): readonly ControllerRevisionView[] {
    return this.revisionsBySet.get(uid) ?? []
  }

  /** The ControllerRevision a pod was made from, by name: a StatefulSet pod's label is the name, a DaemonSet pod's the hash. */
  revisionOf(set: SetView, pod: PodView): string {
    const label = pod.labels[REVISION_HASH_LABEL] ?? ''
    const rev = this.revisions(set.uid).find((r) => r.name === label || r.labels[REVISION_HASH_LABEL] === label)
    if (rev) return rev.name
    return set.kind === 'DaemonSet' && label !== '' ? `${set.name}-${label}` : label
  }

  available(set: SetView, pod: PodView): boolean {
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

type Seen = WorkloadObserved & {maxInFlight: number; maxPodsPerNode: number}

/** Per StatefulSet and DaemonSet: the lowest availability and the most pods seen at any instant. */
export class WorkloadTracker {
  private readonly seen = new Map<string, Seen>()

  constructor(private readonly featureGates: FeatureGates) {}

  sample(snapshot: Snapshot, now: bigint): void {
    if ((snapshot.statefulSets?.length ?? 0) === 0 && (snapshot.daemonSets?.length ?? 0) === 0) return
    const view = new WorkloadView(snapshot, now)
    for (const set of [...(snapshot.statefulSets ?? []), ...(snapshot.daemonSets ?? [])]) {
      const {pods} = view.counts(set.uid)
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

  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[]): {statefulSets: StatefulSetTimeline[]; daemonSets: DaemonSetTimeline[]} {
    const view = new WorkloadView(snapshot, 0n)
    const planned = new Map(plan.controllers.map((c) => [`${c.kind}/${c.uid}`, c]))
    const mine = (set: SetView) => steps.filter((s) => s.controller.kind === set.kind && s.controller.namespace === set.namespace && s.controller.name === set.name)
    const timing = (set: SetView) => {
      const own = mine(set)
      return {steps: own.length, durationSeconds: own.length === 0 ? 0 : own[own.length - 1].offsetSeconds}
    }
    const revisions = (set: SetView) => view.revisions(set.uid).map((r) => ({name: r.name, revision: r.revision}))
    const rollout = (set: SetView) => {
      const step = planned.get(`${set.kind}/${set.uid}`)?.rolloutStep
      return step ? {rollout: step} : {}
    }
    const observed = (set: SetView): Seen => this.seen.get(set.uid) ?? {startAvailable: 0, startPods: 0, minAvailable: 0, maxPods: 0, maxPodsWithTerminating: 0, maxInFlight: 0, maxPodsPerNode: 0}

    const statefulSets = [...(snapshot.statefulSets ?? [])].sort(byNamespaceName).map((set): StatefulSetTimeline => {
      const {maxPodsPerNode: _, ...seen} = observed(set)
      const s = set.status
      const pods = view
        .pods(set.uid)
        .filter((p) => p.deletionTimestamp === undefined)
        .sort((a, b) => parseOrdinal(a.name).ordinal - parseOrdinal(b.name).ordinal || cmp(a.name, b.name))
        .map((p) => ({name: p.name, revision: view.revisionOf(set, p), ready: p.ready}))
      return {
        namespace: set.namespace,
        name: set.name,
        replicas: set.replicas,
        podManagementPolicy: set.podManagementPolicy,
        strategy: set.updateStrategy.type,
        ...(set.updateStrategy.type === 'RollingUpdate' ? {partition: set.updateStrategy.rollingUpdate?.partition ?? 0} : {}),
        bounds: statefulSetBounds(set, this.featureGates),
        observed: seen,
        ...timing(set),
        final: {
          currentRevision: s.currentRevision,
          updateRevision: s.updateRevision,
          revisions: revisions(set),
          pods,
          claims: claimsOf(set, snapshot),
          replicasStatus: {replicas: s.replicas, ready: s.readyReplicas, current: s.currentReplicas, updated: s.updatedReplicas, available: s.availableReplicas},
          ...rollout(set),
        },
      }
    })

    const daemonSets = [...(snapshot.daemonSets ?? [])].sort(byNamespaceName).map((ds): DaemonSetTimeline => {
      const {maxInFlight: _, ...seen} = observed(ds)
      const cp = planned.get(`DaemonSet/${ds.uid}`)
      const desired = cp?.desired ?? ds.status.desiredNumberScheduled
      const byNode = new Map<string, string[]>()
      for (const p of view.pods(ds.uid)) {
        const node = p.nodeName || p.affinityNode
        if (p.deletionTimestamp === undefined && node) push(byNode, node, view.revisionOf(ds, p))
      }
      return {
        namespace: ds.namespace,
        name: ds.name,
        desiredNodes: desired,
        strategy: ds.updateStrategy.type,
        bounds: daemonSetBounds(ds, desired),
        observed: seen,
        ...timing(ds),
        final: {
          ...(cp?.updateRevision?.name ? {updateRevision: cp.updateRevision.name} : {}),
          revisions: revisions(ds),
          nodes: [...byNode].sort(([a], [b]) => cmp(a, b)).map(([node, revs]) => ({node, revisions: revs.sort(cmp)})),
          replicasStatus: {
            desired: ds.status.desiredNumberScheduled,
            current: ds.status.currentNumberScheduled,
            updated: ds.status.updatedNumberScheduled,
            ready: ds.status.numberReady,
            available: ds.status.numberAvailable,
            misscheduled: ds.status.numberMisscheduled,
          },
          ...rollout(ds),
        },
      }
    })
    return {statefulSets, daemonSets}
  }
}

/** What the StatefulSet controller promises while it rolls out (see StatefulSetTimeline.bounds). */
export function statefulSetBounds(set: StatefulSetView, gates: FeatureGates): StatefulSetTimeline['bounds'] {
  const rolling = set.updateStrategy.type === 'RollingUpdate'
  // Without MaxUnavailableStatefulSet the rolling update replaces one pod at a time.
  const maxUnavailable = !rolling ? 0 : gates.MaxUnavailableStatefulSet ? statefulSetMaxUnavailable(set) : 1
  return {
    minAvailable: Math.max(0, set.replicas - maxUnavailable),
    maxPods: set.replicas,
    maxUnavailable,
    maxInFlight: set.podManagementPolicy === 'OrderedReady' ? Math.max(1, maxUnavailable) : set.replicas,
  }
}

/** What the DaemonSet controller's rolling update promises over `desired` nodes (see DaemonSetTimeline.bounds). */
export function daemonSetBounds(ds: DaemonSetView, desired: number): DaemonSetTimeline['bounds'] {
  const {maxSurge, maxUnavailable} = ds.updateStrategy.type === 'RollingUpdate' ? daemonUpdateBudget(ds, desired) : {maxSurge: 0, maxUnavailable: 0}
  return {minAvailable: Math.max(0, desired - maxUnavailable), maxPods: desired + maxSurge, maxSurge, maxUnavailable, maxPodsPerNode: maxSurge > 0 ? 2 : 1}
}

/** The claims named after the set's claim templates and one of its ordinals, by name. */
function claimsOf(set: StatefulSetView, snapshot: Snapshot): string[] {
  const prefixes = set.volumeClaimTemplates.map((t) => `${t.name}-${set.name}-`)
  return (snapshot.claims ?? [])
    .filter((c) => c.namespace === set.namespace && prefixes.some((p) => c.name.startsWith(p) && /^[0-9]+$/.test(c.name.slice(p.length))))
    .map((c) => c.name)
    .sort(cmp)
}

function byNamespaceName(a: {namespace: string; name: string}, b: {namespace: string; name: string}): number {
  return cmp(a.namespace, b.namespace) || cmp(a.name, b.name)
}
