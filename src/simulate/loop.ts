// The event loop of `kctl simulate`: the controllers kctl plans, run forward in virtual time on an
// in-memory world. Each sync is the planner's plan carried out by the executor on the memory world
// (the same code as `kctl plan` and `kctl reconcile`); between syncs only the kubelet model
// (kubelet.ts) changes pods.
//
// Order at one virtual instant (deterministic, so the same input gives the same timeline):
//   1. the kubelet model acts on every pod (bind, start, Ready, a Job's pod exits, gone), in the world's order;
//   2. a round: one view of the world, every controller with work planned from it, carried out as
//      the executor does — Deployments first (by namespace and name), then CronJobs, then
//      DaemonSets, ReplicaSets, ReplicationControllers, Jobs and StatefulSets (by kind, namespace
//      and name), each StatefulSet and DaemonSet by the executor's rules (where upstream picks
//      DaemonSet pods to replace at random, the first by node name); a ReplicaSet its
//      Deployment's sync wrote in this round waits for the next round, as the informer would hand
//      it over again (a Job its CronJob's sync deleted is not synced);
//   3. 1 and 2 again until a round writes nothing; a round's steps are counted in the next view
//      of the world (after the kubelet model at the same instant: pods bound, not yet Ready);
//   4. the clock moves to the earliest instant something is due: a pod Ready, available
//      (minReadySeconds of its ReplicaSet, StatefulSet or DaemonSet), exited or gone, a
//      Deployment's progress deadline check (requeueStuckDeployment), or a Job's or CronJob's
//      requeue (backoff, active deadline, next schedule time; batch.ts, which also keeps the Job
//      controller's backoff memory).
// It stops when nothing is due, or at --until.
import {executePlan} from '../apply/executor.js'
import type {MemoryWorld} from '../apply/memory-world.js'
import type {DeploymentView, PodView, Snapshot, Workload} from '../model/objects.js'
import type {ControllerPlan, FeatureGates, ReconcilePlan} from '../model/plan.js'
import type {DeploymentTimeline, Simulation, SimulationStep, WorldCounts} from '../model/simulation.js'
import {maxSurge, maxUnavailable, revisionOf} from '../controllers/deployment/util.js'
import {progressCheckAt} from '../controllers/deployment/sync.js'
import {planSnapshot} from '../reconcile/planner.js'
import {actionToWire} from '../render/wire.js'
import {formatRfc3339, objectTime, seconds} from '../reconcile/time.js'
import {BURST_REPLICAS} from '../services/options.js'
import {BatchTracker, batchCounts, kubeletAt, kubeletWakeAt, requeueTimes} from '../controllers/job/simulate.js'
import {cmp, push} from './collections.js'
import type {KubeletModel} from './kubelet.js'
import {isWorkloadKind, minReadyByController, unsentRevisionWarnings, WorkloadTracker, WorkloadView} from '../controllers/statefulset/simulate.js'

type Obj = Record<string, any>

/** The controllers simulated (registry names): those the executor carries out. */
export const SIMULATED_CONTROLLERS = ['deployment', 'replicaset', 'statefulset', 'daemonset', 'job', 'cronjob'] as const

/** Rounds at one instant before the loop gives up on it (a controller that writes on every sync). */
export const MAX_ROUNDS_PER_INSTANT = 50

export interface LoopOptions {
  kubelet: KubeletModel
  featureGates: FeatureGates
  /** Stop before any instant later than this. */
  until?: bigint
  /** The world's clock: the loop sets it, the memory world reads it for creation times. */
  clock: {now: bigint}
}

/** The Simulation document's steps and timelines, and how the loop ended. */
export interface LoopResult extends Pick<Simulation, 'steps' | 'deployments' | 'statefulSets' | 'daemonSets' | 'jobs' | 'cronJobs'> {
  rounds: number
  syncs: number
  end: bigint
  endedBy: 'quiet' | 'until'
  warnings: string[]
}

export async function runLoop(world: MemoryWorld, opts: LoopOptions): Promise<LoopResult> {
  const {clock, kubelet} = opts
  const start = kubelet.start
  clock.now = start
  const steps: SimulationStep[] = []
  const warnings: string[] = []
  const tracker = new Tracker()
  const workloads = new WorkloadTracker(opts.featureGates)
  const batch = new BatchTracker(start)
  let rounds = 0
  let syncs = 0
  let last: {snapshot: Snapshot; plan: ReconcilePlan} | undefined
  for (;;) {
    const now = clock.now
    // The last round's steps wait for the next view of the world for their counts.
    let done: {acting: ControllerPlan[]; results: ExecResults; round: number} | undefined
    const settle = (snapshot: Snapshot) => {
      if (done) steps.push(...stepsOf(done.acting, done.results, now, start, done.round, countsOf(snapshot, now)))
      done = undefined
    }
    for (let i = 0; ; i++) {
      actKubelet(world, now, kubelet)
      const snapshot = world.snapshot()
      settle(snapshot)
      tracker.sample(snapshot, now)
      workloads.sample(snapshot, now)
      const plan = planSnapshot(snapshot, {now: formatRfc3339(now), featureGates: opts.featureGates, burstReplicas: BURST_REPLICAS, jobBackoff: batch.backoff}, SIMULATED_CONTROLLERS)
      last = {snapshot, plan}
      batch.observe(snapshot, plan, now)
      const acting = plan.controllers.filter((c) => c.actions.length > 0)
      if (acting.length === 0) break
      if (i >= MAX_ROUNDS_PER_INSTANT) {
        warnings.push(`at ${formatRfc3339(now)} the controllers still had work after ${MAX_ROUNDS_PER_INSTANT} rounds; the clock moved on`)
        break
      }
      const writes = world.writes
      rounds++
      syncs += acting.length
      const exec = await executePlan({...plan, controllers: acting}, {control: world.control(false), now: () => formatRfc3339(now), round: rounds})
      done = {acting, results: exec.results, round: rounds}
      for (const w of unsentRevisionWarnings(exec.results)) if (!warnings.includes(w)) warnings.push(w)
      batch.remember(acting, exec.results)
      if (world.writes === writes) {
        settle((last = {snapshot: world.snapshot(), plan}).snapshot)
        break
      }
    }
    const next = nextInstant(world, last!, now, kubelet)
    if (next === undefined) return finish('quiet')
    if (opts.until !== undefined && next > opts.until) return finish('until')
    clock.now = next
  }

  function finish(endedBy: 'quiet' | 'until'): LoopResult {
    const end = endedBy === 'until' ? opts.until! : clock.now
    const {snapshot, plan} = last!
    return {steps, deployments: tracker.timelines(snapshot, plan, steps), ...workloads.timelines(snapshot, plan, steps), ...batch.timelines(snapshot, steps), rounds, syncs, end, endedBy, warnings}
  }
}

/** The kubelet model's changes at `now`, written into the world (each a new resourceVersion). */
function actKubelet(world: MemoryWorld, now: bigint, model: KubeletModel): void {
  for (const pod of world.objects()) {
    if (pod.kind !== 'Pod') continue
    const o = pod as Obj
    const next = kubeletAt(o, now, model)
    if (next === undefined) continue
    const at = world.find('Pod', world.namespaceOf(o), String(o.metadata?.name))
    if (!at) continue
    world.replace(at, next === null ? undefined : {...next, metadata: {...next.metadata, resourceVersion: world.nextResourceVersion()}})
  }
}

/** The earliest instant after `now` when a pod changes, a Deployment's progress is checked, or a Job or CronJob asked to sync again. */
function nextInstant(world: MemoryWorld, {snapshot, plan}: {snapshot: Snapshot; plan: ReconcilePlan}, now: bigint, model: KubeletModel): bigint | undefined {
  const minReady = minReadyByController(snapshot)
  let next: bigint | undefined
  const consider = (t: bigint | undefined) => {
    if (t !== undefined && t > now && (next === undefined || t < next)) next = t
  }
  for (const o of world.objects()) {
    if (o.kind !== 'Pod') continue
    const owner = ((o as Obj).metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true)
    consider(kubeletWakeAt(o as Obj, now, model, owner ? (minReady.get(owner.uid) ?? 0) : 0))
  }
  for (const t of requeueTimes(plan)) consider(t)
  for (const d of snapshot.deployments ?? []) {
    if (d.paused) continue
    const at = progressCheckAt(d, d.status)
    consider(at === undefined ? undefined : objectTime(at))
  }
  return next
}

/** The steps of one round: each controller that carried out something, with what it did. */
type ExecResults = Awaited<ReturnType<typeof executePlan>>['results']

function stepsOf(
  acting: readonly ControllerPlan[],
  results: ExecResults,
  now: bigint,
  start: bigint,
  round: number,
  counts: ReturnType<typeof countsOf>,
): SimulationStep[] {
  const steps: SimulationStep[] = []
  for (const cp of acting) {
    const done = results.filter((r) => r.outcome === 'ok' && r.predicted && r.controller.uid === cp.uid && r.controller.kind === cp.kind)
    if (done.length === 0) continue
    steps.push({
      time: formatRfc3339(now),
      offsetSeconds: Number(now - start) / 1e9,
      round,
      controller: {kind: cp.kind, namespace: cp.namespace, name: cp.name},
      // As `kctl plan -o json` prints them (a delete with its reasons); a create also names its pod,
      // a choice among DaemonSet candidates names the ones taken.
      actions: done.map((r) => {
        const wire = actionToWire(r.predicted!, cp, formatRfc3339(now)) as unknown as SimulationStep['actions'][number]
        const type = r.predicted!.type
        if ((type === 'create' || type === 'createDaemonPod' || type === 'createJobPod') && r.done?.name) return {...wire, pod: r.done.name}
        return type === 'chooseDaemonPods' && r.done?.chosen ? {...wire, chosen: r.done.chosen, ...(r.done.names ? {pods: r.done.names} : {})} : wire
      }),
      ...counts(cp),
    })
  }
  return steps
}

/** Counts for a controller's Deployment (a ReplicaSet's owner), or for the ReplicaSet itself. */
function countsOf(snapshot: Snapshot, now: bigint): (cp: ControllerPlan) => Omit<SimulationStep, 'time' | 'offsetSeconds' | 'round' | 'controller' | 'actions'> {
  const view = new WorldView(snapshot, now)
  const sets = new WorkloadView(snapshot, now)
  return (cp) => {
    if (cp.kind === 'Job' || cp.kind === 'CronJob') return batchCounts(snapshot, cp)
    if (isWorkloadKind(cp.kind)) return {counts: sets.counts(cp.uid)}
    if (cp.kind === 'Deployment') return {deployment: cp.name, counts: view.deploymentCounts(cp.uid)}
    const rs = view.replicaSet(cp.uid)
    const owner = rs?.ownerReferences.find((r) => r.controller && r.kind === 'Deployment')
    if (owner && view.hasDeployment(owner.uid)) return {deployment: owner.name, counts: view.deploymentCounts(owner.uid)}
    return {counts: view.counts(rs ? [rs] : [])}
  }
}

/** A snapshot grouped for counting: ReplicaSets by owner, pods by controller. */
class WorldView {
  private readonly rsByOwner = new Map<string, Workload[]>()
  private readonly rsByUid = new Map<string, Workload>()
  private readonly podsByOwner = new Map<string, PodView[]>()
  private readonly deploymentUids: Set<string>

  constructor(
    snapshot: Snapshot,
    private readonly now: bigint,
  ) {
    this.deploymentUids = new Set((snapshot.deployments ?? []).map((d) => d.uid))
    for (const rs of snapshot.replicaSets) {
      this.rsByUid.set(rs.uid, rs)
      const owner = rs.ownerReferences.find((r) => r.controller)
      if (owner) push(this.rsByOwner, owner.uid, rs)
    }
    for (const pod of snapshot.pods) {
      const owner = pod.ownerReferences.find((r) => r.controller)
      if (owner) push(this.podsByOwner, owner.uid, pod)
    }
  }

  replicaSet(uid: string): Workload | undefined {
    return this.rsByUid.get(uid)
  }

  hasDeployment(uid: string): boolean {
    return this.deploymentUids.has(uid)
  }

  deploymentCounts(uid: string): WorldCounts {
    return this.counts(this.rsByOwner.get(uid) ?? [])
  }

  counts(replicaSets: readonly Workload[]): WorldCounts {
    const ordered = [...replicaSets].sort((a, b) => cmp(a.creationTimestamp ?? '', b.creationTimestamp ?? '') || cmp(a.name, b.name))
    const pods = {total: 0, ready: 0, available: 0, terminating: 0}
    for (const rs of ordered) {
      for (const pod of this.podsByOwner.get(rs.uid) ?? []) {
        if (pod.deletionTimestamp) {
          pods.terminating++
          continue
        }
        if (pod.phase === 'Succeeded' || pod.phase === 'Failed') continue
        pods.total++
        if (!pod.ready) continue
        pods.ready++
        const since = objectTime(pod.readySince) ?? 0n
        if (rs.minReadySeconds === 0 || since + seconds(rs.minReadySeconds) <= this.now) pods.available++
      }
    }
    return {replicaSets: ordered.map((rs) => ({name: rs.name, replicas: rs.replicas})), pods}
  }
}

/** Per Deployment: the lowest availability and the most pods seen at any instant. */
class Tracker {
  private readonly seen = new Map<string, DeploymentTimeline['observed']>()

  sample(snapshot: Snapshot, now: bigint): void {
    const view = new WorldView(snapshot, now)
    for (const d of snapshot.deployments ?? []) {
      const {pods} = view.deploymentCounts(d.uid)
      const s = this.seen.get(d.uid)
      const all = pods.total + pods.terminating
      if (!s) this.seen.set(d.uid, {startAvailable: pods.available, minAvailable: pods.available, maxPods: pods.total, maxPodsWithTerminating: all})
      else {
        s.minAvailable = Math.min(s.minAvailable, pods.available)
        s.maxPods = Math.max(s.maxPods, pods.total)
        s.maxPodsWithTerminating = Math.max(s.maxPodsWithTerminating, all)
      }
    }
  }

  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[]): DeploymentTimeline[] {
    const view = new WorldView(snapshot, 0n)
    const rollout = new Map(plan.controllers.filter((c) => c.kind === 'Deployment').map((c) => [c.uid, c.rolloutStep]))
    return [...(snapshot.deployments ?? [])]
      .sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name))
      .map((d) => {
        const mine = steps.filter((s) => s.controller.namespace === d.namespace && s.deployment === d.name)
        const rss = view.deploymentCounts(d.uid).replicaSets
        return {
          namespace: d.namespace,
          name: d.name,
          replicas: d.replicas,
          strategy: d.strategy.type,
          bounds: boundsOf(d),
          observed: this.seen.get(d.uid) ?? {startAvailable: 0, minAvailable: 0, maxPods: 0, maxPodsWithTerminating: 0},
          steps: mine.length,
          durationSeconds: mine.length === 0 ? 0 : mine[mine.length - 1].offsetSeconds,
          final: {
            replicaSets: rss.map((r) => {
              const rev = revisionText(snapshot.replicaSets.find((x) => x.namespace === d.namespace && x.name === r.name))
              return rev === undefined ? r : {...r, revision: rev}
            }),
            ...(d.annotations['deployment.kubernetes.io/revision'] ? {revision: d.annotations['deployment.kubernetes.io/revision']} : {}),
            replicasStatus: {replicas: d.status.replicas, updated: d.status.updatedReplicas, ready: d.status.readyReplicas, available: d.status.availableReplicas},
            conditions: d.status.conditions.map((c) => ({type: c.type, status: c.status, ...(c.reason ? {reason: c.reason} : {})})),
            ...(rollout.get(d.uid) ? {rollout: rollout.get(d.uid)} : {}),
          },
        }
      })
  }
}

function boundsOf(d: DeploymentView): DeploymentTimeline['bounds'] {
  const surge = maxSurge(d)
  const unavailable = d.strategy.type === 'Recreate' ? d.replicas : maxUnavailable(d)
  return {minAvailable: Math.max(0, d.replicas - unavailable), maxPods: d.replicas + surge, maxSurge: surge, maxUnavailable: unavailable}
}

function revisionText(rs: Workload | undefined): string | undefined {
  if (!rs) return undefined
  return revisionOf(rs.annotations) === undefined ? undefined : rs.annotations['deployment.kubernetes.io/revision']
}
