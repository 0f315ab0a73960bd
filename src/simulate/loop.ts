// The event loop of `kctl simulate`: the controllers kctl plans, run forward in virtual time on an
// in-memory world. Each sync is the planner's plan carried out by the executor on the memory world
// (the same code as `kctl plan` and `kctl reconcile`); between syncs only the kubelet model
// (kubelet.ts) changes pods.
//
// Order at one virtual instant (deterministic, so the same input gives the same timeline):
//   1. the kubelet model acts on every pod (bind, start, Ready, a Job's pod exits, gone), in the world's order;
//   2. the syncs a controller runs itself with its own memory (part.ts OwnSyncs: the HPA controller
//      under --load, every 15 s sync period) that are due: when they write, that is the round, and
//      the next round views the world again (the other controllers see the writes as from their
//      informers);
//   2'. otherwise a round: one view of the world, every controller with work planned from it, carried out as
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
//      requeue (backoff, active deadline, next schedule time; the Job controller's simulate part
//      also keeps its backoff memory), an own sync, or a change of a --load's demand.
// It stops when nothing is due, or at --until.
// What is particular to one controller — how its pods run, when it asks to be woken, what its
// steps count, what it remembers and its timelines — is its simulate part (part.ts), in
// src/controllers/<name>/simulate.ts; the loop asks the registry's descriptors for it.
import {executePlan} from '../apply/executor.js'
import type {MemoryWorld} from '../apply/memory-world.js'
import type {Snapshot} from '../model/objects.js'
import type {ControllerPlan, FeatureGates, ReconcilePlan} from '../model/plan.js'
import type {Simulation, SimulationStep} from '../model/simulation.js'
import {planSnapshot} from '../reconcile/planner.js'
import {actionToWire} from '../render/wire.js'
import {formatRfc3339} from '../reconcile/time.js'
import {BURST_REPLICAS} from '../services/options.js'
import {simulatedControllers, simulationOf} from './controllers.js'
import {push} from './collections.js'
import {kubeletAt, kubeletWakeAt, type KubeletModel} from './kubelet.js'
import type {OwnSyncs, PlacedLoad, StepFields, Timelines} from './part.js'

type Obj = Record<string, any>

/** Rounds at one instant before the loop gives up on it (a controller that writes on every sync). */
export const MAX_ROUNDS_PER_INSTANT = 50

export interface LoopOptions {
  kubelet: KubeletModel
  featureGates: FeatureGates
  /** Stop before any instant later than this. */
  until?: bigint
  /** The world's clock: the loop sets it, the memory world reads it for creation times. */
  clock: {now: bigint}
  /** --load: the demand on workloads over time (an autoscaler's part reads it). */
  loads?: readonly PlacedLoad[]
}

/** The Simulation document's steps and timelines, and how the loop ended. */
export interface LoopResult extends Pick<Simulation, 'steps' | 'deployments' | 'statefulSets' | 'daemonSets' | 'jobs' | 'cronJobs' | 'autoscalers'> {
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
  const simulated = simulatedControllers()
  const only = simulated.filter((c) => !c.simulation.ownSyncs).map((c) => c.name)
  const runs = simulated.flatMap((c) => (c.simulation.start ? [c.simulation.start({start, featureGates: opts.featureGates, loads: opts.loads ?? []})] : []))
  const own = runs.flatMap((r) => (r.syncs ? [r.syncs] : []))
  const plannerOptions = Object.assign({}, ...runs.map((r) => r.plannerOptions ?? {}))
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
      for (const r of runs) r.sample?.(snapshot, now)
      const mine = ownRound(snapshot)
      if (mine) {
        done = mine
        continue
      }
      const plan = planSnapshot(snapshot, {now: formatRfc3339(now), featureGates: opts.featureGates, burstReplicas: BURST_REPLICAS, ...plannerOptions}, only)
      last = {snapshot, plan}
      for (const r of runs) r.observe?.(snapshot, plan, now)
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
      for (const r of runs) for (const w of r.warnings?.(exec.results) ?? []) if (!warnings.includes(w)) warnings.push(w)
      for (const r of runs) r.remember?.(acting, exec.results)
      if (world.writes === writes) {
        settle((last = {snapshot: world.snapshot(), plan}).snapshot)
        break
      }
    }
    const next = nextInstant(world, last!, now, kubelet, own)
    if (next === undefined) return finish('quiet')
    if (opts.until !== undefined && next > opts.until) return finish('until')
    clock.now = next
  }

  /** The syncs controllers run themselves, due at this instant, as a round of their own: whether they wrote. */
  function ownRound(snapshot: Snapshot): {acting: ControllerPlan[]; results: ExecResults; round: number} | undefined {
    const now = clock.now
    const writes = world.writes
    const acting: ControllerPlan[] = []
    for (const o of own) {
      const {plans, warnings: said} = o.sync(world, snapshot, now)
      acting.push(...plans.filter((p) => p.actions.length > 0))
      for (const w of said) if (!warnings.includes(w)) warnings.push(w)
    }
    if (acting.length === 0 || world.writes === writes) return undefined
    rounds++
    syncs += acting.length
    // As the executor reports what it carried out: every action done.
    const results = acting.flatMap((cp) =>
      cp.actions.map((a) => ({round: rounds, controller: {kind: cp.kind, namespace: cp.namespace, name: cp.name, uid: cp.uid}, action: a.type, predicted: a, outcome: 'ok' as const})),
    ) as unknown as ExecResults
    return {acting, results, round: rounds}
  }

  function finish(endedBy: 'quiet' | 'until'): LoopResult {
    const end = endedBy === 'until' ? opts.until! : clock.now
    const {snapshot, plan} = last!
    const timelines: Timelines & Required<Omit<Timelines, 'autoscalers'>> = {deployments: [], statefulSets: [], daemonSets: [], jobs: [], cronJobs: []}
    for (const r of runs) Object.assign(timelines, r.timelines(snapshot, plan, steps, {start, end, endedBy}))
    return {steps, ...timelines, rounds, syncs, end, endedBy, warnings}
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
function nextInstant(
  world: MemoryWorld,
  {snapshot, plan}: {snapshot: Snapshot; plan: ReconcilePlan},
  now: bigint,
  model: KubeletModel,
  own: readonly OwnSyncs[],
): bigint | undefined {
  const simulated = simulatedControllers()
  const minReady = new Map(simulated.flatMap((c) => [...(c.simulation.minReady?.(snapshot) ?? [])]))
  let next: bigint | undefined
  const consider = (t: bigint | undefined) => {
    if (t !== undefined && t > now && (next === undefined || t < next)) next = t
  }
  for (const o of world.objects()) {
    if (o.kind !== 'Pod') continue
    const owner = ((o as Obj).metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true)
    consider(kubeletWakeAt(o as Obj, now, model, owner ? (minReady.get(owner.uid) ?? 0) : 0))
  }
  for (const c of simulated) for (const t of c.simulation.wakeTimes?.(snapshot, plan) ?? []) consider(t)
  for (const o of own) consider(o.wakeAt(now))
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
  // What each controller carried out, in the results' order, gathered in one pass.
  const byController = new Map<string, ExecResults>()
  for (const r of results) if (r.outcome === 'ok' && r.predicted) push(byController, `${r.controller.kind}|${r.controller.uid}`, r)
  for (const cp of acting) {
    const done = byController.get(`${cp.kind}|${cp.uid}`) ?? []
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

/** A step's counts, by the controller's simulate part, from one view of the world (each part's counting built once, when first asked). */
function countsOf(snapshot: Snapshot, now: bigint): (cp: ControllerPlan) => StepFields {
  const counters = new Map<string, (cp: ControllerPlan) => StepFields>()
  return (cp) => {
    let counter = counters.get(cp.kind)
    if (!counter) {
      const part = simulationOf(cp.kind)
      if (!part) throw new Error(`${cp.kind} ${cp.namespace}/${cp.name}: its controller is not simulated`)
      counter = part.counter(snapshot, now)
      counters.set(cp.kind, counter)
    }
    return counter(cp)
  }
}
