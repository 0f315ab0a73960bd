// Deployments in the simulation: what the event loop (loop.ts) needs to know about them besides
// their planner and the executor — the instant their progress deadline is checked
// (requeueStuckDeployment), their ReplicaSets' pods counted as theirs after each round, the lowest
// availability and the most pods seen, and each Deployment's timeline at the end. Their pods are
// their ReplicaSets' (../replicaset/simulate.ts counts them); they run as the shared kubelet model
// runs any pod.
import type {DeploymentView, Snapshot, Workload} from '../../model/objects.js'
import type {ReconcilePlan} from '../../model/plan.js'
import type {Simulation, SimulationStep} from '../../model/simulation.js'
import type {DeploymentTimeline} from './timeline.js'
import {objectTime} from '../../reconcile/time.js'
import {cmp, push} from '../../simulate/collections.js'
import type {ControllerSimulation, Described, StepAction, SimulationRun, Unlisted} from '../../simulate/part.js'
import {CONDITIONS, OBJECT_META, TEMPLATE} from '../../simulate/patch-strategies.js'
import {availabilityKept, minAvailableLine, podsLine} from '../../simulate/report.js'
import {aboveBound, belowBound, RolloutWatch, type LoopEnd} from '../../simulate/verdict.js'
import {count} from '../../render/words.js'
import {formatDuration} from '../../watch/duration.js'
import {WorldView} from '../replicaset/simulate.js'
import {progressCheckAt} from './sync.js'
import {maxSurge, maxUnavailable, revisionOf} from './util.js'

/**
 * Whether a Deployment's rollout is complete as `kubectl rollout status` reads its status
 * (DeploymentStatusViewer.Status): its generation observed, every replica updated, no old one
 * pending termination, every updated one available (a deadline exceeded is never complete).
 */
function deploymentComplete(d: DeploymentView): boolean {
  const s = d.status
  return d.generation <= s.observedGeneration && !deadlineExceeded(d) && s.updatedReplicas >= d.replicas && s.replicas <= s.updatedReplicas && s.availableReplicas >= s.updatedReplicas
}

const deadlineExceeded = (d: DeploymentView) => d.status.conditions.some((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded')

/** Per Deployment: the lowest availability and the most pods seen at any instant, and its rollout's verdict. */
export class DeploymentRun implements SimulationRun {
  private readonly seen = new Map<string, DeploymentTimeline['observed']>()
  private readonly rollouts = new RolloutWatch()
  /** The largest spec.replicas seen (an autoscaler resizes a Deployment during the run). */
  private readonly largest = new Map<string, number>()

  sample(snapshot: Snapshot, now: bigint): void {
    const view = new WorldView(snapshot, now)
    for (const d of snapshot.deployments ?? []) {
      const {pods} = view.deploymentCounts(d.uid)
      this.largest.set(d.uid, Math.max(this.largest.get(d.uid) ?? 0, d.replicas))
      this.rollouts.sample(d.uid, now, {complete: deploymentComplete(d), terminating: pods.terminating, deadlineExceeded: deadlineExceeded(d)})
      const s = this.seen.get(d.uid)
      const all = pods.total + pods.terminating
      if (!s) this.seen.set(d.uid, {startAvailable: pods.available, minAvailable: pods.available, maxPods: pods.total, maxPodsWithTerminating: all, startPods: pods.total})
      else {
        s.minAvailable = Math.min(s.minAvailable, pods.available)
        s.maxPods = Math.max(s.maxPods, pods.total)
        s.maxPodsWithTerminating = Math.max(s.maxPodsWithTerminating, all)
      }
    }
  }

  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[], end: LoopEnd): {deployments: DeploymentTimeline[]} {
    const view = new WorldView(snapshot, 0n)
    const rollout = new Map(plan.controllers.filter((c) => c.kind === 'Deployment').map((c) => [c.uid, c.rolloutStep]))
    // Each Deployment's steps (its own and its ReplicaSets'), and the ReplicaSets by name, gathered once.
    const byDeployment = new Map<string, SimulationStep[]>()
    for (const s of steps) if (s.deployment !== undefined) push(byDeployment, `${s.controller.namespace}/${s.deployment}`, s)
    const replicaSets = new Map<string, Workload>()
    for (const x of snapshot.replicaSets) if (!replicaSets.has(`${x.namespace}/${x.name}`)) replicaSets.set(`${x.namespace}/${x.name}`, x)
    const deployments = [...(snapshot.deployments ?? [])]
      .sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name))
      .map((d) => {
        const mine = byDeployment.get(`${d.namespace}/${d.name}`) ?? []
        const rss = view.deploymentCounts(d.uid).replicaSets
        const bounds = boundsOf(d, this.largest.get(d.uid) ?? d.replicas)
        const observed = this.seen.get(d.uid) ?? {startAvailable: 0, minAvailable: 0, maxPods: 0, maxPodsWithTerminating: 0, startPods: 0}
        const s = d.status
        const broken = [
          ...belowBound('min available', observed.minAvailable, bounds.minAvailable, availabilityKept({observed, bounds})),
          ...aboveBound('max pods', observed.maxPods, Math.max(bounds.maxPods, observed.startPods)),
        ]
        return {
          namespace: d.namespace,
          name: d.name,
          replicas: d.replicas,
          strategy: d.strategy.type,
          bounds,
          observed,
          steps: mine.length,
          durationSeconds: mine.length === 0 ? 0 : mine[mine.length - 1].offsetSeconds,
          final: {
            replicaSets: rss.map((r) => {
              const rev = revisionText(replicaSets.get(`${d.namespace}/${r.name}`))
              return rev === undefined ? r : {...r, revision: rev}
            }),
            ...(d.annotations['deployment.kubernetes.io/revision'] ? {revision: d.annotations['deployment.kubernetes.io/revision']} : {}),
            replicasStatus: {replicas: d.status.replicas, updated: d.status.updatedReplicas, ready: d.status.readyReplicas, available: d.status.availableReplicas},
            conditions: d.status.conditions.map((c) => ({type: c.type, status: c.status, ...(c.reason ? {reason: c.reason} : {})})),
            ...(rollout.get(d.uid) ? {rollout: rollout.get(d.uid)} : {}),
          },
          verdict: this.rollouts.verdict(d.uid, end, `${s.updatedReplicas} of ${d.replicas} updated, ${s.availableReplicas} available${d.paused ? ' (paused)' : ''}`, broken),
        }
      })
    return {deployments}
  }
}

/** The bounds at the end; max pods from the largest size it had (`largest`: an autoscaler scaled it up and down again). */
function boundsOf(d: DeploymentView, largest: number): DeploymentTimeline['bounds'] {
  const surge = maxSurge(d)
  const unavailable = d.strategy.type === 'Recreate' ? d.replicas : maxUnavailable(d)
  return {minAvailable: Math.max(0, d.replicas - unavailable), maxPods: Math.max(d.replicas, largest) + surge, maxSurge: surge, maxUnavailable: unavailable}
}

function revisionText(rs: Workload | undefined): string | undefined {
  if (!rs) return undefined
  return revisionOf(rs.annotations) === undefined ? undefined : rs.annotations['deployment.kubernetes.io/revision']
}

function deploymentSummary(d: DeploymentTimeline): string[] {
  const f = d.final
  const conditions = f.conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')
  return [
    `Deployment ${d.namespace}/${d.name}  ${d.strategy}, ${d.replicas} replicas: ${count(d.steps, 'step')} over ${formatDuration(d.durationSeconds * 1000)}`,
    minAvailableLine(d, 'replicas'),
    podsLine(d, d.bounds.maxPods === d.replicas + d.bounds.maxSurge ? `replicas + maxSurge ${d.bounds.maxSurge}` : `largest replicas ${d.bounds.maxPods - d.bounds.maxSurge} + maxSurge ${d.bounds.maxSurge}`),
    `  final: ${f.replicaSets.map((r) => `${r.name}=${r.replicas}`).join(' ')}${f.revision ? `, revision ${f.revision}` : ''}; ${f.replicasStatus.available} of ${d.replicas} available, ${f.replicasStatus.updated} updated${f.rollout ? ` (${f.rollout})` : ''}`,
    `  conditions: ${conditions || 'none'}`,
  ]
}

function markdownRow(d: DeploymentTimeline): string {
  const f = d.final
  return `| ${d.namespace}/${d.name} | ${d.strategy} | ${d.steps} | ${formatDuration(d.durationSeconds * 1000)} | ${d.observed.minAvailable} (≥ ${d.bounds.minAvailable}) | ${d.observed.maxPods} (≤ ${d.bounds.maxPods}) | ${f.replicaSets.map((r) => `\`${r.name}\`=${r.replicas}`).join(' ')} | ${f.conditions.map((x) => `${x.type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`).join(', ')} |`
}

/** Its own actions' lines in the simulation's timeline (a scale that keeps the size only rewrites the size annotations: counted, not listed). */
function describeAction(a: StepAction): Described | Unlisted | undefined {
  switch (a.type) {
    case 'createReplicaSet':
      return {sign: '+', text: `create ReplicaSet ${a.name ?? '(name unknown)'} (${a.replicas})`}
    case 'scaleReplicaSet':
      if (a.from === a.to) return {unlisted: 'same-size ReplicaSet scale'}
      return {sign: '~', text: `scale ReplicaSet ${a.replicaSet} ${a.from}→${a.to} (${a.rule})`}
    case 'deleteReplicaSet':
      return {sign: '-', text: `delete ReplicaSet ${a.replicaSet} (revision ${a.revision}, beyond revisionHistoryLimit)`}
    case 'updateReplicaSet':
      return {sign: '~', text: `update ReplicaSet ${a.replicaSet} (annotations, minReadySeconds ${a.minReadySeconds})`}
    case 'adoptReplicaSet':
      return {sign: '~', text: `adopt ReplicaSet ${a.replicaSet}`}
    case 'releaseReplicaSet':
      return {sign: '~', text: `release ReplicaSet ${a.replicaSet}`}
    case 'rollback':
      return {sign: '~', text: `rollback to revision ${a.toRevision} (${a.outcome})`}
    default:
      return undefined
  }
}

/** The Deployment controller in `kctl simulate`. */
export const deploymentSimulation: ControllerSimulation = {
  manifests: {
    Deployment: {
      group: '/apis/apps/v1',
      plural: 'deployments',
      // Its strategy has the retainKeys strategy: switching to Recreate drops its rollingUpdate.
      patchStrategy: {fields: {metadata: {fields: OBJECT_META}, spec: {fields: {template: TEMPLATE, strategy: {retainKeys: true}}}, status: CONDITIONS}},
    },
  },
  // Its progress deadline check (requeueStuckDeployment).
  *wakeTimes(snapshot) {
    for (const d of snapshot.deployments ?? []) {
      if (d.paused) continue
      const at = progressCheckAt(d, d.status)
      yield at === undefined ? undefined : objectTime(at)
    }
  },
  counter(snapshot, now) {
    const view = new WorldView(snapshot, now)
    return (cp) => ({deployment: cp.name, counts: view.deploymentCounts(cp.uid)})
  },
  start: () => new DeploymentRun(),
  report: {
    order: 10,
    summaries: (sim: Simulation) => sim.deployments.map(deploymentSummary),
    verdicts: (sim) => sim.deployments.map((d) => ({workload: `Deployment ${d.namespace}/${d.name}`, verdict: d.verdict})),
    markdown: {
      header: ['| Deployment | strategy | steps | duration | min available (bound) | max pods (bound) | final | conditions |', '| --- | --- | --- | --- | --- | --- | --- | --- |'],
      rows: (sim) => sim.deployments.map(markdownRow),
    },
  },
  listsConditions: true,
  targets: {deployment: 'Deployment', deployments: 'Deployment', deploy: 'Deployment'},
  annotationsRaiseGeneration: true,
  describe: describeAction,
}
