// DaemonSets in the simulation: what the event loop (loop.ts) needs to know about them besides
// their planner and the executor — their pods counted per revision after each round
// (simulate/revision-sets.ts, shared with StatefulSets), the lowest availability, the most pods
// seen in all and on one node, and each set's timeline at the end.
import type {ReconcilePlan} from '../../model/plan.js'
import type {Snapshot} from '../../model/objects.js'
import type {Simulation, SimulationStep} from '../../model/simulation.js'
import type {DaemonSetTimeline} from './timeline.js'
import type {DaemonDeleteReason, DaemonSetView} from './model.js'
import {daemonUpdateBudget} from './sync.js'
import {cmp, push} from '../../simulate/collections.js'
import type {ControllerSimulation, Described, StepAction, SimulationRun} from '../../simulate/part.js'
import {WORKLOAD_STRATEGY} from '../../simulate/patch-strategies.js'
import {byNamespaceName, RevisionSetSampler, RevisionSetView, setTimelineParts} from '../../simulate/revision-sets.js'
import {minAvailableLine, podsLine, SET_TABLE_HEADER, setRow, upperBound} from '../../simulate/report.js'
import {aboveBound, type LoopEnd} from '../../simulate/verdict.js'
import {count} from '../../render/words.js'
import {formatDuration} from '../../watch/duration.js'

const daemonSets = (snapshot: Snapshot): readonly DaemonSetView[] => snapshot.daemonSets ?? []

/** A DaemonSet's revision is named <set>-<hash>; its pods carry only the hash. */
const revisionName = (set: {name: string}, hash: string): string => `${set.name}-${hash}`

/** One view of the world's DaemonSets. */
export const daemonSetView = (snapshot: Snapshot, now: bigint) => new RevisionSetView(snapshot, daemonSets(snapshot), now, revisionName)

/** Per DaemonSet: the lowest availability and the most pods seen at any instant, and the timelines. */
export class DaemonSetRun implements SimulationRun {
  private readonly seen = new RevisionSetSampler<DaemonSetView>()

  sample(snapshot: Snapshot, now: bigint): void {
    if (daemonSets(snapshot).length === 0) return
    this.seen.sample(daemonSets(snapshot), daemonSetView(snapshot, now), now, daemonSetComplete)
  }

  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[], end: LoopEnd): {daemonSets: DaemonSetTimeline[]} {
    const view = daemonSetView(snapshot, 0n)
    const {planned, timing, revisions, rollout} = setTimelineParts(view, plan, steps)
    const observed = (set: DaemonSetView) => this.seen.observed(set)

    const timelines = [...daemonSets(snapshot)].sort(byNamespaceName).map((ds): DaemonSetTimeline => {
      const {maxInFlight: _, ...seen} = observed(ds)
      const cp = planned(ds)
      const desired = cp?.desired ?? ds.status.desiredNumberScheduled
      const byNode = new Map<string, string[]>()
      for (const p of view.pods(ds.uid)) {
        const node = p.nodeName || p.affinityNode
        if (p.deletionTimestamp === undefined && node) push(byNode, node, view.revisionOf(ds, p))
      }
      const bounds = daemonSetBounds(ds, desired)
      const perNode = aboveBound('pods on one node', seen.maxPodsPerNode, bounds.maxPodsPerNode)
      const st = ds.status
      return {
        namespace: ds.namespace,
        name: ds.name,
        desiredNodes: desired,
        strategy: ds.updateStrategy.type,
        bounds,
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
        verdict: this.seen.verdict(ds, bounds, end, `${st.updatedNumberScheduled} of ${st.desiredNumberScheduled} updated, ${st.numberAvailable} available`, perNode),
      }
    })
    return {daemonSets: timelines}
  }
}

/**
 * Whether a DaemonSet's rollout is complete as `kubectl rollout status` reads its status
 * (DaemonSetStatusViewer.Status): its generation observed, a pod of the current template on every
 * node that should run one, each available.
 */
function daemonSetComplete(ds: DaemonSetView): boolean {
  const s = ds.status
  return ds.generation <= s.observedGeneration && s.updatedNumberScheduled >= s.desiredNumberScheduled && s.numberAvailable >= s.desiredNumberScheduled
}

/** What the DaemonSet controller's rolling update promises over `desired` nodes (see DaemonSetTimeline.bounds). */
export function daemonSetBounds(ds: DaemonSetView, desired: number): DaemonSetTimeline['bounds'] {
  const {maxSurge, maxUnavailable} = ds.updateStrategy.type === 'RollingUpdate' ? daemonUpdateBudget(ds, desired) : {maxSurge: 0, maxUnavailable: 0}
  return {minAvailable: Math.max(0, desired - maxUnavailable), maxPods: desired + maxSurge, maxSurge, maxUnavailable, maxPodsPerNode: maxSurge > 0 ? 2 : 1}
}

function daemonSetSummary(d: DaemonSetTimeline): string[] {
  const f = d.final
  const short = (rev: string) => (rev.startsWith(`${d.name}-`) ? rev.slice(d.name.length + 1) : rev)
  return [
    `DaemonSet ${d.namespace}/${d.name}  ${d.strategy}, ${count(d.desiredNodes, 'node')}: ${count(d.steps, 'step')} over ${formatDuration(d.durationSeconds * 1000)}`,
    minAvailableLine(d, 'nodes'),
    podsLine(d, `nodes + maxSurge ${d.bounds.maxSurge}`),
    `  pods on one node at most ${upperBound(d.observed.maxPodsPerNode, d.bounds.maxPodsPerNode)}`,
    `  final: ${f.nodes.map((n) => `${n.node}=${n.revisions.map(short).join('+')}`).join(' ') || 'no pods'}${f.updateRevision ? `; revision ${f.updateRevision}` : ''}; ${f.replicasStatus.available} of ${d.desiredNodes} available, ${f.replicasStatus.updated} updated`,
  ]
}

/** A DaemonSet's template generation, which the API server raises with each change of its template. */
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation'

const DAEMON_DELETE: Record<DaemonDeleteReason, string> = {
  failed: 'failed',
  succeeded: 'succeeded',
  duplicate: 'a second pod on the node',
  'not-eligible': 'the node no longer runs it',
  'no-node': 'its node is gone',
  update: 'an old revision',
  'surge-replaced': 'its replacement is available',
}

/** Its own actions' lines in the simulation's timeline. */
function describeAction(a: StepAction): Described | undefined {
  switch (a.type) {
    case 'createDaemonPod':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`} on node ${a.node}${a.reason === 'surge' ? ' (surge)' : ''}`}
    case 'deleteDaemonPod':
      return {sign: '-', text: `delete pod ${a.pod} on node ${a.node} (${DAEMON_DELETE[a.reason]})`}
    case 'chooseDaemonPods': {
      // Upstream picks at random among the candidates; the simulation takes the first by node name.
      const of = `${a.count} of ${count(a.candidates.length, 'candidate')}: the controller picks at random, the simulation the first by name`
      if (a.operation === 'delete') return {sign: '-', text: `delete pod ${(a.chosen ?? []).join(', ')} (an old revision; ${of})`}
      return {sign: '+', text: `create pod ${(a.pods ?? []).join(', ')} on node ${(a.chosen ?? []).join(', ')} (surge; ${of})`}
    }
    default:
      return undefined
  }
}

/** The DaemonSet controller in `kctl simulate`. */
export const daemonSetSimulation: ControllerSimulation = {
  manifests: {DaemonSet: {group: '/apis/apps/v1', plural: 'daemonsets', patchStrategy: WORKLOAD_STRATEGY}},
  minReady: (snapshot) => daemonSets(snapshot).map((s) => [s.uid, s.minReadySeconds] as const),
  counter(snapshot, now) {
    const view = daemonSetView(snapshot, now)
    return (cp) => ({counts: view.counts(cp.uid)})
  },
  start: () => new DaemonSetRun(),
  report: {
    order: 30,
    summaries: (sim: Simulation) => (sim.daemonSets ?? []).map(daemonSetSummary),
    verdicts: (sim) => (sim.daemonSets ?? []).map((t) => ({workload: `DaemonSet ${t.namespace}/${t.name}`, verdict: t.verdict})),
    markdown: {
      header: SET_TABLE_HEADER,
      rows: (sim) => (sim.daemonSets ?? []).map((t) => setRow('DaemonSet', t, t.final.nodes.map((n) => `\`${n.node}\`=${n.revisions.join('+')}`).join(' '))),
    },
  },
  targets: {daemonset: 'DaemonSet', daemonsets: 'DaemonSet', ds: 'DaemonSet'},
  unscalable: 'a DaemonSet has no replicas (it runs one pod per matching node)',
  podRevisionName: revisionName,
  /**
   * A template change also raises its template generation (the DaemonSet strategy's
   * PrepareForUpdate), which is how the controller tells old pods from new.
   */
  storedSpec(before, spec, metadata) {
    const templateGeneration = before.metadata?.annotations?.[TEMPLATE_GENERATION]
    if (templateGeneration !== undefined && JSON.stringify(spec.template) !== JSON.stringify(before.spec?.template)) {
      return {...metadata, annotations: {...metadata.annotations, [TEMPLATE_GENERATION]: String(Number(templateGeneration) + 1)}}
    }
    return metadata
  },
  describe: describeAction,
}
