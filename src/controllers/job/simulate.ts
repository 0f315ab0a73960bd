// Jobs in the simulation: the kubelet model of a Job's pod (it runs to completion), the instants
// the Job controller asks to be woken at, its backoff memory, and the per-Job timelines built from
// the steps (CronJobs: ../cronjob/simulate.ts).
//
// A Job's pod is bound at once and becomes Ready after --ready-after, as any pod (kubelet.ts); it
// then exits `runFor` after it became Ready — the pod's `stage.kctl.io/complete-after` annotation,
// else --run-for — with exit code 0 (Succeeded), or non-zero (Failed) when its
// `stage.kctl.io/exit-code` annotation says so or --fail matches it (an image, or for a Job's pods
// the Job's name). These are the timed kwok stages of the control plane (controlplane/stages).
import type {BackoffRecord, JobView} from './model.js'
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan, ReconcilePlan} from '../../model/plan.js'
import type {Simulation, SimulationStep, WorldCounts} from '../../model/simulation.js'
import type {JobTimeline} from './timeline.js'
import {formatRfc3339, objectTime, parseRfc3339} from '../../reconcile/time.js'
import {parseDuration} from '../../watch/duration.js'
import {cmp, push} from '../../simulate/collections.js'
import type {KubeletModel} from '../../simulate/kubelet.js'
import type {ControllerSimulation, Described, StepAction, PodBehaviour, PodModel, SimulationRun} from '../../simulate/part.js'
import {WORKLOAD_STRATEGY} from '../../simulate/patch-strategies.js'
import {conditionsText, offset} from '../../simulate/report.js'
import {count} from '../../render/words.js'

type Obj = Record<string, any>

export const COMPLETE_AFTER_ANNOTATION = 'stage.kctl.io/complete-after'
export const EXIT_CODE_ANNOTATION = 'stage.kctl.io/exit-code'

const jobOwner = (pod: Obj): Obj | undefined => (pod.metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true && r.kind === 'Job')

/** A Job's pod: the shared model, then it runs to its end. */
export const jobPods: PodBehaviour = {
  owns: (pod) => jobOwner(pod) !== undefined,
  at(pod, now, model, base) {
    const owner = jobOwner(pod)
    if (!owner) return base.podAt(pod, now, model)
    // A Job's failing pod does become Ready: it fails by exiting, not by never starting.
    const next = base.podAt(pod, now, {...model, fail: []})
    if (next === null) return null
    const current = next ?? pod
    const exit = exitAt(current, model)
    if (exit !== undefined && exit <= now) return exited(current, formatRfc3339(exit), exitCode(current, owner, model, base))
    return next
  },
  wakeAt(pod, now, model, base) {
    const wake = base.podWakeAt(pod, now, {...model, fail: []}, 0)
    const exit = exitAt(pod, model)
    const later = exit !== undefined && exit > now ? exit : undefined
    return wake === undefined ? later : later === undefined || wake < later ? wake : later
  },
}

/** When a Running, Ready Job pod exits. */
function exitAt(pod: Obj, model: KubeletModel): bigint | undefined {
  if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) return undefined
  const ready = (pod.status?.conditions as Obj[] | undefined)?.find((c) => c.type === 'Ready' && c.status === 'True')
  if (!ready) return undefined
  const since = objectTime(ready.lastTransitionTime)
  if (since === undefined) return undefined
  const annotated = pod.metadata?.annotations?.[COMPLETE_AFTER_ANNOTATION]
  const ms = annotated === undefined ? undefined : parseDuration(String(annotated))
  return since + (ms === undefined ? (model.runFor ?? 10_000_000_000n) : BigInt(Math.round(ms * 1e6)))
}

function exitCode(pod: Obj, owner: Obj, model: KubeletModel, base: PodModel): number {
  const annotated = pod.metadata?.annotations?.[EXIT_CODE_ANNOTATION]
  if (annotated !== undefined && /^\d+$/.test(String(annotated))) return Number(annotated)
  return base.isFailing(pod, model.fail) || model.fail.includes(String(owner.name)) ? 1 : 0
}

/** What kwok's pod-complete stage writes: the terminal phase, Ready false, every container terminated with the code. */
function exited(pod: Obj, at: string, code: number): Obj {
  const conditions = ((pod.status?.conditions ?? []) as Obj[]).filter((c) => c.type !== 'Ready' && c.type !== 'ContainersReady')
  const containers: Obj[] = Array.isArray(pod.spec?.containers) ? pod.spec.containers : []
  return {
    ...pod,
    status: {
      ...pod.status,
      phase: code === 0 ? 'Succeeded' : 'Failed',
      conditions: [...conditions, {type: 'ContainersReady', status: 'False', reason: 'PodCompleted', lastTransitionTime: at}, {type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: at}],
      containerStatuses: containers.map((c) => {
        const before = ((pod.status?.containerStatuses ?? []) as Obj[]).find((s) => s.name === c.name)
        const startedAt = before?.state?.running?.startedAt ?? at
        return {name: c.name, image: c.image, ready: false, started: false, restartCount: before?.restartCount ?? 0, state: {terminated: {exitCode: code, reason: code === 0 ? 'Completed' : 'Error', startedAt, finishedAt: at}}}
      }),
    },
  }
}

/** The instants the controller's syncs of `kind` asked to sync again at (backoff, active deadline, next schedule). */
export function requeueTimes(plan: ReconcilePlan, kind: string): bigint[] {
  const out: bigint[] = []
  for (const cp of plan.controllers) {
    if (cp.kind !== kind || !cp.requeue) continue
    const at = parseRfc3339(cp.requeue.at)
    if (at !== undefined) out.push(at)
  }
  return out
}

/** A Job's step fields: its pods' counts, the Job's counters, and the CronJob it belongs to. */
export function jobCounts(snapshot: Snapshot, cp: ControllerPlan): {counts: WorldCounts; cronJob?: string; job?: {active: number; succeeded: number; failed: number}} {
  const pods = {total: 0, ready: 0, available: 0, terminating: 0}
  for (const p of snapshot.pods) {
    if (!p.ownerReferences.some((r) => r.controller && r.uid === cp.uid)) continue
    if (p.deletionTimestamp) pods.terminating++
    else if (p.phase !== 'Succeeded' && p.phase !== 'Failed') {
      pods.total++
      if (p.ready) {
        pods.ready++
        pods.available++
      }
    }
  }
  const job = (snapshot.jobs ?? []).find((j) => j.uid === cp.uid)
  const cronJob = job ? cronJobOf(job) : undefined
  return {
    counts: {replicaSets: [], pods},
    ...(cronJob ? {cronJob} : {}),
    ...(job ? {job: {active: job.status.active, succeeded: job.status.succeeded, failed: job.status.failed}} : {}),
  }
}

function cronJobOf(job: {ownerReferences: readonly {kind: string; name: string; controller?: boolean}[]}): string | undefined {
  return job.ownerReferences.find((r) => r.controller && r.kind === 'CronJob')?.name
}

/** What the Job timelines need beyond the steps: every Job ever seen; and the Job controller's backoff memory. */
export class JobRun implements SimulationRun {
  private readonly jobs = new Map<string, {job: JobView; lastSeen: bigint}>()
  /** The Job controller's backoff records, kept as its memory would keep them across syncs. */
  readonly backoff = new Map<string, BackoffRecord>()
  readonly plannerOptions = {jobBackoff: this.backoff}

  observe(snapshot: Snapshot, _plan: ReconcilePlan, now: bigint): void {
    for (const j of snapshot.jobs ?? []) this.jobs.set(j.uid, {job: j, lastSeen: now})
  }

  /** A Job's sync stores its new backoff record with its first status write (flushUncountedAndRemoveFinalizers). */
  remember(acting: readonly ControllerPlan[], results: ReadonlyArray<{controller: {uid: string}; action: string; outcome: string}>): void {
    for (const cp of acting) {
      if (cp.kind !== 'Job' || !cp.backoffRecord) continue
      if (results.some((r) => r.controller.uid === cp.uid && r.action === 'updateStatus' && r.outcome === 'ok')) this.backoff.set(cp.uid, cp.backoffRecord)
    }
  }

  timelines(snapshot: Snapshot, _plan: ReconcilePlan, steps: readonly SimulationStep[]): {jobs: JobTimeline[]} {
    const present = new Set((snapshot.jobs ?? []).map((j) => j.uid))
    // Each Job's steps, in order, gathered in one pass (a day of CronJob runs is thousands of Jobs).
    const byJob = new Map<string, SimulationStep[]>()
    for (const s of steps) if (s.controller.kind === 'Job') push(byJob, `${s.controller.namespace}/${s.controller.name}`, s)
    const jobs = [...this.jobs.values()]
      .sort((a, b) => cmp(a.job.namespace, b.job.namespace) || cmp(a.job.name, b.job.name))
      .map(({job, lastSeen}) => jobTimeline(job, byJob.get(`${job.namespace}/${job.name}`) ?? [], present.has(job.uid) ? undefined : lastSeen))
    return {jobs}
  }
}

function jobTimeline(job: JobView, steps: readonly SimulationStep[], deletedAt: bigint | undefined): JobTimeline {
  const waves: JobTimeline['waves'] = []
  const pods = {created: 0, succeeded: 0, failed: 0, deleted: 0}
  for (const s of steps) {
    const made = s.actions.filter((a) => a.type === 'createJobPod').map((a) => a.pod ?? '')
    if (made.length > 0) waves.push({time: s.time, offsetSeconds: s.offsetSeconds, created: made.length, pods: made})
    pods.created += made.length
    for (const a of s.actions) {
      if (a.type === 'deleteJobPod') pods.deleted++
      if (a.type === 'removeFinalizer' && a.counts === 'succeeded') pods.succeeded++
      if (a.type === 'removeFinalizer' && a.counts === 'failed') pods.failed++
    }
  }
  // Indexed Jobs count successes by index, not by finalizer: the counters say it.
  pods.succeeded = Math.max(pods.succeeded, job.status.succeeded)
  pods.failed = Math.max(pods.failed, job.status.failed)
  const s = job.status
  const cronJob = cronJobOf(job)
  return {
    namespace: job.namespace,
    name: job.name,
    ...(cronJob ? {cronJob} : {}),
    ...(job.completions === undefined ? {} : {completions: job.completions}),
    parallelism: job.parallelism,
    completionMode: job.completionMode,
    waves,
    pods,
    durationSeconds: steps.length === 0 ? 0 : steps[steps.length - 1].offsetSeconds - steps[0].offsetSeconds,
    ...(deletedAt === undefined ? {} : {deletedAt: formatRfc3339(deletedAt)}),
    final: {
      active: s.active,
      succeeded: s.succeeded,
      failed: s.failed,
      ...(s.completedIndexes ? {completedIndexes: s.completedIndexes} : {}),
      conditions: s.conditions.map((c) => ({type: c.type, status: c.status, ...(c.reason ? {reason: c.reason} : {})})),
      ...(s.startTime ? {startTime: s.startTime} : {}),
      ...(s.completionTime ? {completionTime: s.completionTime} : {}),
    },
  }
}

function jobSummary(j: JobTimeline): string[] {
  const want = j.completions === undefined ? 'work queue' : `${count(j.completions, 'completion')}`
  const waves = j.waves.map((w) => `${offset(w.offsetSeconds)}: ${w.created}`).join(', ')
  const f = j.final
  return [
    `Job ${j.namespace}/${j.name}${j.cronJob ? ` (CronJob ${j.cronJob})` : ''}  ${j.completionMode}, ${want}, parallelism ${j.parallelism}: ${count(j.pods.created, 'pod')} created${waves ? ` in waves ${waves}` : ''}${j.deletedAt ? `; deleted at ${j.deletedAt}` : ''}`,
    `  final: ${f.active} active, ${f.succeeded} succeeded, ${f.failed} failed${f.completedIndexes ? `, indexes ${f.completedIndexes}` : ''}; conditions: ${conditionsText(f.conditions) || 'none'}`,
  ]
}

const JOB_DELETE_WORDS = {finished: 'the Job finished', suspended: 'the Job is suspended', excess: 'more active than wanted', 'duplicate-index': 'a second pod of its index', 'invalid-index': 'no valid index'} as const

/** Its own actions' lines in the simulation's timeline. */
function describeAction(a: StepAction): Described | undefined {
  switch (a.type) {
    case 'createJobPod':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`}${a.index === undefined ? '' : ` (index ${a.index})`}`}
    case 'deleteJobPod':
      return {sign: '-', text: `delete pod ${a.pod} (${JOB_DELETE_WORDS[a.reason]})`}
    default:
      return undefined
  }
}

/** The Job controller in `kctl simulate`. */
export const jobSimulation: ControllerSimulation = {
  manifests: {Job: {group: '/apis/batch/v1', plural: 'jobs', patchStrategy: WORKLOAD_STRATEGY}},
  pods: jobPods,
  wakeTimes: (_snapshot, plan) => requeueTimes(plan, 'Job'),
  counter: (snapshot) => (cp) => jobCounts(snapshot, cp),
  start: () => new JobRun(),
  report: {
    // After the CronJobs: a CronJob's lines, then its Jobs'.
    order: 50,
    summaries: (sim: Simulation) => (sim.jobs ?? []).map(jobSummary),
    markdown: {
      header: ['| Job | pods per wave | final | conditions |', '| --- | --- | --- | --- |'],
      rows: (sim) => (sim.jobs ?? []).map((j) => `| ${j.namespace}/${j.name} | ${j.waves.map((w) => `${offset(w.offsetSeconds)}: ${w.created}`).join(', ')} | ${j.final.succeeded} succeeded, ${j.final.failed} failed | ${conditionsText(j.final.conditions)} |`),
    },
  },
  listsConditions: true,
  // The controller column: a CronJob's Job is shown under it (CronJob → Job → its pods' lines).
  label: (step) => (step.cronJob ? `CronJob ${step.controller.namespace}/${step.cronJob} → ${step.controller.kind} ${step.controller.name}` : undefined),
  describe: describeAction,
}
