// StatefulSets in the simulation: what the event loop (loop.ts) needs to know about them besides
// their planner and the executor, which are the same as `kctl plan` and `kctl reconcile` use —
// their pods counted per revision after each round (simulate/revision-sets.ts, shared with
// DaemonSets), the lowest availability and the most pods seen, and each set's timeline at the end.
import type {FeatureGates, ReconcilePlan} from '../../model/plan.js'
import type {Snapshot} from '../../model/objects.js'
import type {Simulation, SimulationStep} from '../../model/simulation.js'
import type {StatefulSetTimeline} from './timeline.js'
import type {DeleteStatefulPodAction, StatefulSetView} from './model.js'
import {WORKLOAD_SKIP} from './apply.js'
import type {ActionResult} from '../../model/apply.js'
import {parseOrdinal, statefulSetMaxUnavailable} from './sync.js'
import {cmp} from '../../simulate/collections.js'
import type {ControllerSimulation, Described, StepAction, SimulationRun} from '../../simulate/part.js'
import {WORKLOAD_STRATEGY} from '../../simulate/patch-strategies.js'
import {byNamespaceName, RevisionSetSampler, RevisionSetView, setTimelineParts} from '../../simulate/revision-sets.js'
import {minAvailableLine, podsLine, SET_TABLE_HEADER, setRow, upperBound} from '../../simulate/report.js'
import {aboveBound, type LoopEnd} from '../../simulate/verdict.js'
import {count} from '../../render/words.js'
import {formatDuration} from '../../watch/duration.js'

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

const statefulSets = (snapshot: Snapshot): readonly StatefulSetView[] => snapshot.statefulSets ?? []

/** One view of the world's StatefulSets (a StatefulSet pod's revision label is the revision's name). */
export const statefulSetView = (snapshot: Snapshot, now: bigint) => new RevisionSetView(snapshot, statefulSets(snapshot), now)

/** Per StatefulSet: the lowest availability and the most pods seen at any instant, and the timelines. */
export class StatefulSetRun implements SimulationRun {
  private readonly seen = new RevisionSetSampler<StatefulSetView>()
  /** The largest spec.replicas seen (an autoscaler resizes a StatefulSet during the run). */
  private readonly largest = new Map<string, number>()

  constructor(private readonly featureGates: FeatureGates) {}

  sample(snapshot: Snapshot, now: bigint): void {
    if (statefulSets(snapshot).length === 0) return
    for (const set of statefulSets(snapshot)) this.largest.set(set.uid, Math.max(this.largest.get(set.uid) ?? 0, set.replicas))
    this.seen.sample(statefulSets(snapshot), statefulSetView(snapshot, now), now, statefulSetComplete)
  }

  warnings = unsentRevisionWarnings

  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[], end: LoopEnd): {statefulSets: StatefulSetTimeline[]} {
    const view = statefulSetView(snapshot, 0n)
    const {timing, revisions, rollout} = setTimelineParts(view, plan, steps)
    const observed = (set: StatefulSetView) => this.seen.observed(set)

    const timelines = [...statefulSets(snapshot)].sort(byNamespaceName).map((set): StatefulSetTimeline => {
      const {maxPodsPerNode: _, ...seen} = observed(set)
      const s = set.status
      const pods = view
        .pods(set.uid)
        .filter((p) => p.deletionTimestamp === undefined)
        .sort((a, b) => parseOrdinal(a.name).ordinal - parseOrdinal(b.name).ordinal || cmp(a.name, b.name))
        .map((p) => ({name: p.name, revision: view.revisionOf(set, p), ready: p.ready}))
      const bounds = statefulSetBounds(set, this.featureGates, this.largest.get(set.uid))
      const inFlight = aboveBound('in flight', seen.maxInFlight, bounds.maxInFlight)
      const progress = `${s.updatedReplicas} of ${set.replicas} updated, ${s.readyReplicas} ready`
      return {
        namespace: set.namespace,
        name: set.name,
        replicas: set.replicas,
        podManagementPolicy: set.podManagementPolicy,
        strategy: set.updateStrategy.type,
        ...(set.updateStrategy.type === 'RollingUpdate' ? {partition: set.updateStrategy.rollingUpdate?.partition ?? 0} : {}),
        bounds,
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
        verdict: this.seen.verdict(set, bounds, end, progress, inFlight),
      }
    })

    return {statefulSets: timelines}
  }
}

/**
 * Whether a StatefulSet's rollout is complete as `kubectl rollout status` reads its status
 * (StatefulSetStatusViewer.Status): its generation observed, every replica ready, then with a
 * rollingUpdate block the pods from the partition up updated, else the current revision the update revision.
 */
function statefulSetComplete(set: StatefulSetView): boolean {
  const s = set.status
  if (s.observedGeneration === 0 || set.generation > s.observedGeneration || s.readyReplicas < set.replicas) return false
  const rolling = set.updateStrategy.rollingUpdate
  if (set.updateStrategy.type === 'RollingUpdate' && rolling) return s.updatedReplicas >= set.replicas - rolling.partition
  return s.updateRevision === s.currentRevision
}

/**
 * What the StatefulSet controller promises while it rolls out (see StatefulSetTimeline.bounds).
 * It makes pods for the ordinals below spec.replicas only, the others condemned
 * (StatefulSetControl's updateStatefulSet, replica and condemned slices): so never more pods than
 * the largest spec.replicas it had (`largest`: an autoscaler scaled it up and down again).
 */
export function statefulSetBounds(set: StatefulSetView, gates: FeatureGates, largest = set.replicas): StatefulSetTimeline['bounds'] {
  const rolling = set.updateStrategy.type === 'RollingUpdate'
  // Without MaxUnavailableStatefulSet the rolling update replaces one pod at a time.
  const maxUnavailable = !rolling ? 0 : gates.MaxUnavailableStatefulSet ? statefulSetMaxUnavailable(set) : 1
  const most = Math.max(set.replicas, largest)
  return {
    minAvailable: Math.max(0, set.replicas - maxUnavailable),
    maxPods: most,
    maxUnavailable,
    maxInFlight: set.podManagementPolicy === 'OrderedReady' ? Math.max(1, maxUnavailable) : most,
  }
}

/** The claims named after the set's claim templates and one of its ordinals, by name. */
function claimsOf(set: StatefulSetView, snapshot: Snapshot): string[] {
  const prefixes = set.volumeClaimTemplates.map((t) => `${t.name}-${set.name}-`)
  return (snapshot.claims ?? [])
    .filter((c) => c.namespace === set.namespace && prefixes.some((p) => c.name.startsWith(p) && /^[0-9]+$/.test(c.name.slice(p.length))))
    .map((c) => c.name)
    .sort(cmp)
}

function statefulSetSummary(s: StatefulSetTimeline): string[] {
  const f = s.final
  const strategy = s.partition ? `${s.strategy} (partition ${s.partition})` : s.strategy
  const short = (rev: string) => (rev.startsWith(`${s.name}-`) ? rev.slice(s.name.length + 1) : rev)
  return [
    `StatefulSet ${s.namespace}/${s.name}  ${s.podManagementPolicy}, ${strategy}, ${s.replicas} replicas: ${count(s.steps, 'step')} over ${formatDuration(s.durationSeconds * 1000)}`,
    minAvailableLine(s, 'replicas'),
    podsLine(s, s.bounds.maxPods === s.replicas ? 'replicas' : 'largest replicas'),
    `  in flight (not available, or terminating) at most ${upperBound(s.observed.maxInFlight, s.bounds.maxInFlight)}: ${s.podManagementPolicy === 'OrderedReady' ? 'OrderedReady, one at a time' : 'Parallel'}`,
    `  final: ${f.pods.map((p) => `${p.name}=${short(p.revision)}`).join(' ') || 'no pods'}; revision ${f.updateRevision}${f.currentRevision !== f.updateRevision ? ` (current ${f.currentRevision})` : ''}; ${f.replicasStatus.available} of ${s.replicas} available, ${f.replicasStatus.updated} updated${f.rollout ? ` (${f.rollout})` : ''}`,
    ...(f.claims.length > 0 ? [`  claims: ${f.claims.join(' ')}`] : []),
  ]
}

const STATEFUL_DELETE: Record<DeleteStatefulPodAction['reason'], string> = {
  failed: 'failed, to be re-created',
  succeeded: 'succeeded, to be re-created',
  condemned: 'its ordinal is beyond replicas',
  update: 'not at the update revision',
}

/** Its own actions' lines in the simulation's timeline. */
function describeAction(a: StepAction): Described | undefined {
  switch (a.type) {
    case 'createStatefulPod':
      return {sign: '+', text: `create pod ${a.pod} (revision ${a.revision ?? 'unknown'})`}
    case 'deleteStatefulPod':
      return {sign: '-', text: `delete pod ${a.pod} (${STATEFUL_DELETE[a.reason]})`}
    case 'updatePod':
      return {sign: '~', text: `update pod ${a.pod} (${a.fixes.join(', ')})`}
    case 'createClaim':
      return {sign: '+', text: `create PersistentVolumeClaim ${a.claim} (for pod ${a.pod})`}
    case 'updateClaim':
      return {sign: '~', text: `update PersistentVolumeClaim ${a.claim} owners (retention policy)`}
    default:
      return undefined
  }
}

/** The StatefulSet controller in `kctl simulate`. */
export const statefulSetSimulation: ControllerSimulation = {
  manifests: {StatefulSet: {group: '/apis/apps/v1', plural: 'statefulsets', patchStrategy: WORKLOAD_STRATEGY}},
  minReady: (snapshot) => statefulSets(snapshot).map((s) => [s.uid, s.minReadySeconds] as const),
  counter(snapshot, now) {
    const view = statefulSetView(snapshot, now)
    return (cp) => ({counts: view.counts(cp.uid)})
  },
  start: ({featureGates}) => new StatefulSetRun(featureGates),
  report: {
    order: 20,
    summaries: (sim: Simulation) => (sim.statefulSets ?? []).map(statefulSetSummary),
    verdicts: (sim) => (sim.statefulSets ?? []).map((t) => ({workload: `StatefulSet ${t.namespace}/${t.name}`, verdict: t.verdict})),
    markdown: {
      header: SET_TABLE_HEADER,
      rows: (sim) => (sim.statefulSets ?? []).map((t) => setRow('StatefulSet', t, t.final.pods.map((p) => `\`${p.name}\`=${p.revision}`).join(' '))),
    },
  },
  targets: {statefulset: 'StatefulSet', statefulsets: 'StatefulSet', sts: 'StatefulSet'},
  describe: describeAction,
}
