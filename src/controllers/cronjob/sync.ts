// One sync of the CronJob controller (v2) for one CronJob: ControllerV2.sync, cleanupFinishedJobs
// and syncCronJob (pkg/controller/cronjob/cronjob_controllerv2.go, utils.go), in their order.
// Pure: the clock comes in as an option; the controller's own zone is UTC.
import {CRONJOB_SCHEDULED_TIMESTAMP, type CronJobStatusView, type CronJobView} from './model.js'
import type {DeleteJobAction} from '../job/model.js'
import {type JobView} from '../job/model.js'
import {type Requeue} from '../../model/plan.js'
import type {OwnerReference} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import {controllerOf} from '../../reconcile/pods.js'
import {formatRfc3339, objectTime, seconds} from '../../reconcile/time.js'
import {planJob} from '../job/sync.js'
import {CronError, checkZone, formatInZone, parseSchedule, type Schedule} from './cron.js'

/** nextScheduleDelta: the requeue lands 100 ms after the schedule time. */
const NEXT_SCHEDULE_DELTA = 100_000_000n

export interface CronJobSyncInput {
  /** Jobs of the namespace whose controller reference names this CronJob (by name only, as the controller lists them). */
  jobs: readonly JobView[]
  /** Every Job of the namespace: a Job of the due name that is not this CronJob's stops the create (AlreadyExists). */
  namespaceJobs?: readonly JobView[]
  now: bigint
  clearStartTimeOnSuspend: boolean
}

type Ref = CronJobStatusView['active'][number]

const finishedType = (j: JobView): 'Complete' | 'Failed' | undefined =>
  j.status.conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type as 'Complete' | 'Failed' | undefined

export function planCronJob(cj: CronJobView, input: CronJobSyncInput): ControllerPlan {
  const {now} = input
  const plan: ControllerPlan = {
    kind: 'CronJob',
    apiVersion: cj.apiVersion,
    namespace: cj.namespace,
    name: cj.name,
    uid: cj.uid,
    resourceVersion: cj.resourceVersion,
    desired: 0,
    active: cj.status.active.length,
    diff: 0,
    actions: [],
    pending: 0,
    status: cj.status,
    warnings: [],
    inSync: true,
  }
  // Attached when there is one (a property deleted later would slow every read of the plan).
  const events: string[] = []
  const from = cj.status
  let active: Ref[] = [...from.active]
  let lastSuccessfulTime = from.lastSuccessfulTime
  let lastScheduleTime = from.lastScheduleTime
  let changed = false
  const children = input.jobs
  const deletes: DeleteJobAction[] = []
  if (children.length > 0) plan.jobs = children.map((j) => ({name: j.name, uid: j.uid}))

  // ---- CJ6: history limits, before anything else ----
  for (const [type, limit] of [['Complete', cj.successfulJobsHistoryLimit], ['Failed', cj.failedJobsHistoryLimit]] as const) {
    if (limit === undefined) continue
    const group = children.filter((j) => finishedType(j) === type).sort(byStartTime)
    for (const j of group.slice(0, Math.max(0, group.length - limit))) {
      deletes.push({type: 'deleteJob', name: j.name, uid: j.uid, reason: 'history-limit', propagationPolicy: 'Background'})
      events.push(`Normal SuccessfulDelete: Deleted job ${j.name}`)
      active = active.filter((r) => r.uid !== j.uid)
      changed = true
    }
  }

  // ---- CJ3 step 1–2: the children against status.active ----
  const childUids = new Set(children.map((j) => j.uid))
  for (const j of children) {
    const inActive = active.some((r) => r.uid === j.uid)
    const done = finishedType(j)
    if (!done && !inActive) plan.warnings.push(`Job ${j.name} is controlled by this CronJob but not in status.active: the controller records UnexpectedJob and leaves it out`)
    else if (done && inActive) {
      active = active.filter((r) => r.uid !== j.uid)
      events.push(`Normal SawCompletedJob: Saw completed job: ${j.name}, condition: ${done}`)
      changed = true
    }
    if (done === 'Complete' && j.status.completionTime && (!lastSuccessfulTime || objectTime(j.status.completionTime)! > objectTime(lastSuccessfulTime)!)) {
      lastSuccessfulTime = j.status.completionTime
      changed = true
    }
  }
  for (const r of [...active]) {
    if (!childUids.has(r.uid)) {
      active = active.filter((x) => x !== r)
      events.push(`Normal MissingJob: Active job went missing: ${r.name}`)
      changed = true
    }
  }

  const finish = (requeue?: Requeue) => {
    plan.actions.push(...deletes)
    if (changed) {
      const to: CronJobStatusView = {active}
      if (lastScheduleTime) to.lastScheduleTime = lastScheduleTime
      if (lastSuccessfulTime) to.lastSuccessfulTime = lastSuccessfulTime
      plan.actions.push({type: 'updateStatus', from, to})
      plan.status = to
    }
    if (requeue) plan.requeue = requeue
    plan.active = active.length
    if (events.length > 0) plan.events = events
    plan.inSync = plan.actions.length === 0
    return plan
  }

  // ---- CJ3 steps 3–6 ----
  if (cj.deletionTimestamp) {
    plan.rolloutStep = 'being deleted'
    return finish()
  }
  if (cj.timeZone !== undefined) {
    try {
      checkZone(cj.timeZone)
    } catch {
      plan.warnings.push(`unknown timeZone ${JSON.stringify(cj.timeZone)}: the controller records UnknownTimeZone and does not schedule it`)
      return finish()
    }
  }
  if (cj.suspend) {
    plan.rolloutStep = 'suspended'
    return finish()
  }
  let schedule: Schedule
  try {
    if (/TZ/.test(cj.schedule)) plan.warnings.push('the schedule names its own zone (TZ=/CRON_TZ=): the controller records UnsupportedSchedule; use spec.timeZone')
    schedule = parseSchedule(cj.timeZone !== undefined && !/TZ/.test(cj.schedule) ? `TZ=${cj.timeZone} ${cj.schedule}` : cj.schedule)
  } catch (error) {
    if (!(error instanceof CronError)) throw error
    plan.warnings.push(`unparseable schedule ${JSON.stringify(cj.schedule)} (${error.message}): the controller records UnparseableSchedule and does not schedule it`)
    return finish()
  }

  // ---- CJ4–CJ5: the schedule time due, and the requeue ----
  const due = mostRecentScheduleTime(cj, lastScheduleTime, now, schedule, true)
  if (due.error) {
    plan.warnings.push(`invalid schedule ${JSON.stringify(cj.schedule)}: ${due.error} (the controller records InvalidSchedule)`)
    return finish()
  }
  const requeue = nextRequeue(cj, lastScheduleTime, now, schedule)
  // An event the controller records (the table shows Warning events), not a warning of kctl's.
  if (due.tooMany) events.push('Warning TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew')
  if (due.time === undefined) {
    plan.rolloutStep = `next run ${formatInZone(schedule.next(lastScheduleTimeOr(cj, lastScheduleTime)) ?? 0n, schedule.zone)}`
    return finish(requeue)
  }
  const scheduled = due.time
  const scheduledText = formatRfc3339(scheduled)
  plan.scheduledTime = scheduledText
  const name = `${cj.name}-${scheduled / (60n * 1_000_000_000n)}`
  if (active.some((r) => r.name === name) || (lastScheduleTime !== undefined && objectTime(lastScheduleTime) === scheduled)) {
    plan.rolloutStep = `${scheduledText} already started`
    return finish(requeue)
  }
  if (cj.concurrencyPolicy === 'Forbid' && active.length > 0) {
    events.push('Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid')
    plan.rolloutStep = `${scheduledText} skipped (Forbid: a Job is running)`
    return finish(requeue)
  }
  if (cj.concurrencyPolicy === 'Replace') {
    for (const r of active) {
      deletes.push({type: 'deleteJob', name: r.name, uid: r.uid, reason: 'replace', propagationPolicy: 'Background'})
      events.push(`Normal SuccessfulDelete: Deleted job ${r.name}`)
      changed = true
    }
    active = []
  }
  // CJ3.12 AlreadyExists (syncCronJob): the controller reads the existing Job back with the
  // namespace of the Job it built (getJobFromTemplate2 leaves it empty), so the read goes to the
  // cluster-wide path, fails NotFound, and the sync ends in that error before it looks at the Job's
  // owner. Whoever holds the name, nothing is taken in or adopted: only what cleanup and pruning
  // changed is written, and the queue retries with backoff, each retry refused the same way.
  // A Job this sync's cleanup or Replace deleted is gone before the create (Background; a Job's own
  // finalizers, which would keep it, are not read).
  const deleted = new Set(deletes.map((d) => d.uid))
  const existing = (input.namespaceJobs ?? children).find((j) => j.name === name && !deleted.has(j.uid))
  if (existing) {
    const owner = controllerOf(existing)
    const whose = owner?.uid === cj.uid ? (active.some((r) => r.uid === existing.uid) ? "this CronJob's, in status.active" : "this CronJob's, not in status.active") : owner ? `controlled by ${owner.kind} ${owner.name}` : 'an orphan, never adopted'
    const retry = retryRequeue(now, scheduled, schedule)
    plan.warnings.push(
      `Job ${name} exists (${whose}): the create fails with AlreadyExists, the controller's read of that Job goes without its namespace and fails NotFound, and the sync ends in that error — the Job is not taken in, status.active and lastScheduleTime stay; the queue retries with backoff (5 ms, doubling to 1000 s), each retry refused the same way${retry ? `, until the first retry after the next schedule time (${retry.at}, counting the backoff from now)` : ''}`,
    )
    plan.rolloutStep = `${scheduledText}: create of Job ${name} refused (AlreadyExists), retried with backoff`
    if (retry) plan.assumes = ["the queue's backoff for this CronJob starts at this sync (its failure count is the controller's memory)"]
    return finish(retry)
  }
  const annotations = {...cj.jobTemplate.annotations, [CRONJOB_SCHEDULED_TIMESTAMP]: formatInZone(scheduled, cj.timeZone ?? 'UTC')}
  const ownerReference: OwnerReference = {apiVersion: 'batch/v1', kind: 'CronJob', name: cj.name, uid: cj.uid, controller: true, blockOwnerDeletion: true}
  plan.actions.push(...deletes)
  deletes.length = 0
  plan.actions.push({type: 'createJob', name, scheduledTime: scheduledText, labels: {...cj.jobTemplate.labels}, annotations, ownerReference})
  events.push(`Normal SuccessfulCreate: Created job ${name}`)
  active = [...active, {apiVersion: 'batch/v1', kind: 'Job', name, namespace: cj.namespace, uid: '', resourceVersion: ''}]
  lastScheduleTime = scheduledText
  changed = true
  plan.rolloutStep = `${scheduledText}: Job ${name} created`
  if (cj.jobTemplate.job) {
    // The chained view: the new Job's first sync, with no pods yet.
    const job = createdJob(cj.jobTemplate.job, name, cj, annotations, ownerReference)
    plan.then = [planJob(job, {pods: [], now, clearStartTimeOnSuspend: input.clearStartTimeOnSuspend})]
  }
  return finish(requeue)
}

const UID_ON_CREATE = '<uid assigned on create>'

function createdJob(template: JobView, name: string, cj: CronJobView, annotations: Record<string, string>, owner: OwnerReference): JobView {
  const labels: Record<string, string> = {...template.template.labels}
  // The Job strategy's labels name the created Job (its uid is the API server's to assign).
  for (const [k, v] of Object.entries({'batch.kubernetes.io/controller-uid': UID_ON_CREATE, 'batch.kubernetes.io/job-name': name, 'controller-uid': UID_ON_CREATE, 'job-name': name})) {
    if (k in labels) labels[k] = v
  }
  return {
    ...template,
    name,
    namespace: cj.namespace,
    uid: UID_ON_CREATE,
    labels: {...cj.jobTemplate.labels},
    annotations,
    ownerReferences: [owner],
    template: {...template.template, labels},
    status: {conditions: [], active: 0, succeeded: 0, failed: 0},
  }
}

/** byJobStartTime: by status.startTime (Jobs without one last), then by name. */
function byStartTime(a: JobView, b: JobView): number {
  const ta = objectTime(a.status.startTime)
  const tb = objectTime(b.status.startTime)
  if (ta === undefined && tb !== undefined) return 1
  if (ta !== undefined && tb === undefined) return -1
  if (ta === tb) return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  return ta! < tb! ? -1 : 1
}

function lastScheduleTimeOr(cj: CronJobView, last: string | undefined): bigint {
  return objectTime(last) ?? objectTime(cj.creationTimestamp) ?? 0n
}

/** mostRecentScheduleTime (CJ4): the latest schedule time at or before now that is not older than the earliest time. */
export function mostRecentScheduleTime(
  cj: CronJobView,
  last: string | undefined,
  now: bigint,
  schedule: Schedule,
  withDeadline: boolean,
): {earliest: bigint; time?: bigint; missed: 'none' | 'few' | 'many'; tooMany?: boolean; error?: string} {
  let earliest = lastScheduleTimeOr(cj, last)
  if (withDeadline && cj.startingDeadlineSeconds !== undefined) {
    const deadline = now - seconds(cj.startingDeadlineSeconds)
    if (deadline > earliest) earliest = deadline
  }
  const t1 = schedule.next(earliest)
  const t2 = t1 === undefined ? undefined : schedule.next(t1)
  if (t1 !== undefined && now < t1) return {earliest, missed: 'none'}
  if (t1 !== undefined && t2 !== undefined && now < t2) return {earliest, time: t1, missed: 'none'}
  if (t1 === undefined || t2 === undefined) return {earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second'}
  const between = (t2 - t1 + 500_000_000n) / 1_000_000_000n
  if (between < 1n) return {earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second'}
  const elapsed = (now - t1) / 1_000_000_000n
  const missed = elapsed / between + 1n
  let time: bigint | undefined
  for (let t = schedule.next(t1 + (missed - 2n) * between * 1_000_000_000n); t !== undefined && t <= now; t = schedule.next(t)) time = t
  return {earliest, time, missed: missed > 100n ? 'many' : 'few', tooMany: missed > 100n}
}

/** DefaultTypedControllerRateLimiter's per-item backoff: 5 ms, doubling to 1000 s. */
const RETRY_BASE = 5_000_000n
const RETRY_MAX = 1_000_000_000_000n

/**
 * CJ3.12: the sync ends in an error (processNextWorkItem → AddRateLimited), so the controller syncs
 * again after 5 ms, 10 ms, 20 ms … (at most 1000 s apart). Every retry before the next schedule
 * time sees what this sync saw and is refused the same way; the first one at or after it is the
 * next sync that can differ. Its time, with the failures counted from this sync.
 */
function retryRequeue(now: bigint, scheduled: bigint, schedule: Schedule): Requeue | undefined {
  const next = schedule.next(scheduled)
  if (next === undefined) return undefined
  let at = now
  for (let delay = RETRY_BASE; at < next; delay = delay * 2n > RETRY_MAX ? RETRY_MAX : delay * 2n) at += delay
  return {at: formatRfc3339(at), seconds: Number(at - now) / 1e9, reason: 'retries-until-next-schedule'}
}

/** nextScheduleTimeDuration (CJ5): from the most recent due time (without the deadline), the next one, plus 100 ms. */
function nextRequeue(cj: CronJobView, last: string | undefined, now: bigint, schedule: Schedule): Requeue | undefined {
  const r = mostRecentScheduleTime(cj, last, now, schedule, false)
  const base = r.error ? now : (r.time ?? (r.missed === 'none' ? r.earliest : now))
  const next = schedule.next(base)
  if (next === undefined) return undefined
  const after = next + NEXT_SCHEDULE_DELTA - now
  return {at: formatRfc3339(now + after), seconds: Number(after) / 1e9, reason: 'next-schedule'}
}
