// Jobs and CronJobs in the simulation: the kubelet model of a Job's pod (it runs to completion),
// the instants the Job and CronJob controllers ask to be woken at, and the per-Job and per-CronJob
// timelines built from the steps.
//
// A Job's pod is bound at once and becomes Ready after --ready-after, as any pod (kubelet.ts); it
// then exits `runFor` after it became Ready — the pod's `stage.kctl.io/complete-after` annotation,
// else --run-for — with exit code 0 (Succeeded), or non-zero (Failed) when its
// `stage.kctl.io/exit-code` annotation says so or --fail matches it (an image, or for a Job's pods
// the Job's name). These are the timed kwok stages of the control plane (controlplane/stages).
import type {BackoffRecord, JobView} from './model.js'
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan, ReconcilePlan} from '../../model/plan.js'
import type {CronJobTimeline, JobTimeline, SimulationStep, WorldCounts} from '../../model/simulation.js'
import {formatRfc3339, objectTime, parseRfc3339} from '../../reconcile/time.js'
import {parseDuration} from '../../watch/duration.js'
import {cmp} from '../../simulate/collections.js'
import {type KubeletModel, isFailing, podAt, podWakeAt} from '../../simulate/kubelet.js'

type Obj = Record<string, any>

export const COMPLETE_AFTER_ANNOTATION = 'stage.kctl.io/complete-after'
export const EXIT_CODE_ANNOTATION = 'stage.kctl.io/exit-code'
/** How long a Job's pod runs once Ready when neither --run-for nor its annotation says. */
export const DEFAULT_RUN_FOR = '10s'

const jobOwner = (pod: Obj): Obj | undefined => (pod.metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true && r.kind === 'Job')

/** The kubelet model at `now` for any pod: a Job's pod also runs to its end. */
export function kubeletAt(pod: Obj, now: bigint, model: KubeletModel): Obj | null | undefined {
  const owner = jobOwner(pod)
  if (!owner) return podAt(pod, now, model)
  // A Job's failing pod does become Ready: it fails by exiting, not by never starting.
  const next = podAt(pod, now, {...model, fail: []})
  if (next === null) return null
  const current = next ?? pod
  const exit = exitAt(current, model)
  if (exit !== undefined && exit <= now) return exited(current, formatRfc3339(exit), exitCode(current, owner, model))
  return next
}

/** The next instant after `now` the model changes this pod. */
export function kubeletWakeAt(pod: Obj, now: bigint, model: KubeletModel, minReadySeconds: number): bigint | undefined {
  const owner = jobOwner(pod)
  if (!owner) return podWakeAt(pod, now, model, minReadySeconds)
  const wake = podWakeAt(pod, now, {...model, fail: []}, 0)
  const exit = exitAt(pod, model)
  const later = exit !== undefined && exit > now ? exit : undefined
  return wake === undefined ? later : later === undefined || wake < later ? wake : later
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

function exitCode(pod: Obj, owner: Obj, model: KubeletModel): number {
  const annotated = pod.metadata?.annotations?.[EXIT_CODE_ANNOTATION]
  if (annotated !== undefined && /^\d+$/.test(String(annotated))) return Number(annotated)
  return isFailing(pod, model.fail) || model.fail.includes(String(owner.name)) ? 1 : 0
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

/** The instants the Job and CronJob controllers asked to sync again at (backoff, active deadline, next schedule). */
export function requeueTimes(plan: ReconcilePlan): bigint[] {
  const out: bigint[] = []
  for (const cp of plan.controllers) {
    if ((cp.kind !== 'Job' && cp.kind !== 'CronJob') || !cp.requeue) continue
    const at = parseRfc3339(cp.requeue.at)
    if (at !== undefined) out.push(at)
  }
  return out
}

/** A Job's or CronJob's step fields: its pods' counts, the Job's counters, and the CronJob it belongs to. */
export function batchCounts(snapshot: Snapshot, cp: ControllerPlan): {counts: WorldCounts; cronJob?: string; job?: {active: number; succeeded: number; failed: number}} {
  const pods = {total: 0, ready: 0, available: 0, terminating: 0}
  if (cp.kind === 'CronJob') return {counts: {replicaSets: [], pods}, cronJob: cp.name}
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

/** What the Job and CronJob timelines need beyond the steps: every Job ever seen, and the runs Forbid skipped. */
export class BatchTracker {
  private readonly jobs = new Map<string, {job: JobView; lastSeen: bigint}>()
  private readonly skipped = new Map<string, CronJobTimeline['skipped']>()
  /** The Job controller's backoff records, kept as its memory would keep them across syncs. */
  readonly backoff = new Map<string, BackoffRecord>()

  constructor(private readonly start: bigint) {}

  observe(snapshot: Snapshot, plan: ReconcilePlan, now: bigint): void {
    for (const j of snapshot.jobs ?? []) this.jobs.set(j.uid, {job: j, lastSeen: now})
    for (const cp of plan.controllers) {
      if (cp.kind !== 'CronJob' || !cp.scheduledTime || !cp.rolloutStep?.includes('Forbid')) continue
      const list = this.skipped.get(cp.uid) ?? []
      if (list.some((s) => s.scheduledTime === cp.scheduledTime)) continue
      list.push({time: formatRfc3339(now), offsetSeconds: this.offset(now), scheduledTime: cp.scheduledTime, reason: 'concurrencyPolicy Forbid: a Job is running'})
      this.skipped.set(cp.uid, list)
    }
  }

  /** A Job's sync stores its new backoff record with its first status write (flushUncountedAndRemoveFinalizers). */
  remember(acting: readonly ControllerPlan[], results: ReadonlyArray<{controller: {uid: string}; action: string; outcome: string}>): void {
    for (const cp of acting) {
      if (cp.kind !== 'Job' || !cp.backoffRecord) continue
      if (results.some((r) => r.controller.uid === cp.uid && r.action === 'updateStatus' && r.outcome === 'ok')) this.backoff.set(cp.uid, cp.backoffRecord)
    }
  }

  private offset(t: bigint): number {
    return Number(t - this.start) / 1e9
  }

  timelines(snapshot: Snapshot, steps: readonly SimulationStep[]): {jobs: JobTimeline[]; cronJobs: CronJobTimeline[]} {
    const present = new Set((snapshot.jobs ?? []).map((j) => j.uid))
    const jobs = [...this.jobs.values()]
      .sort((a, b) => cmp(a.job.namespace, b.job.namespace) || cmp(a.job.name, b.job.name))
      .map(({job, lastSeen}) => jobTimeline(job, steps.filter((s) => s.controller.kind === 'Job' && s.controller.namespace === job.namespace && s.controller.name === job.name), present.has(job.uid) ? undefined : lastSeen))
    const cronJobs = [...(snapshot.cronJobs ?? [])]
      .sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name))
      .map((cj): CronJobTimeline => {
        const mine = steps.filter((s) => s.controller.kind === 'CronJob' && s.controller.namespace === cj.namespace && s.controller.name === cj.name)
        const runs: CronJobTimeline['runs'] = []
        const deleted: CronJobTimeline['deleted'] = []
        for (const s of mine) {
          for (const a of s.actions) {
            if (a.type === 'createJob') runs.push({time: s.time, offsetSeconds: s.offsetSeconds, scheduledTime: a.scheduledTime, job: a.name})
            if (a.type === 'deleteJob') deleted.push({time: s.time, offsetSeconds: s.offsetSeconds, job: a.name, reason: a.reason})
          }
        }
        return {
          namespace: cj.namespace,
          name: cj.name,
          schedule: cj.schedule,
          ...(cj.timeZone ? {timeZone: cj.timeZone} : {}),
          concurrencyPolicy: cj.concurrencyPolicy,
          runs,
          // A run held back in one round and started in a later round of the same instant was not held back.
          skipped: (this.skipped.get(cj.uid) ?? []).flatMap((x) => {
            const late = runs.find((run) => run.scheduledTime === x.scheduledTime)
            if (late?.offsetSeconds === x.offsetSeconds) return []
            return [late ? {...x, startedAs: {job: late.job, offsetSeconds: late.offsetSeconds}} : x]
          }),
          deleted,
          final: {
            active: cj.status.active.map((r) => r.name),
            ...(cj.status.lastScheduleTime ? {lastScheduleTime: cj.status.lastScheduleTime} : {}),
            ...(cj.status.lastSuccessfulTime ? {lastSuccessfulTime: cj.status.lastSuccessfulTime} : {}),
          },
        }
      })
    return {jobs, cronJobs}
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
