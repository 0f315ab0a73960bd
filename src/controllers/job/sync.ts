// One sync of the Job controller for one Job: Controller.syncJob, manageJob and
// trackJobStatusAndRemoveFinalizers (pkg/controller/job/job_controller.go), in their order. Pure:
// the clock and gates come in as options.
//
// Assumed, because a reader of objects cannot know them: expectations are satisfied (no create or
// delete in flight), no finalizer removal is in flight, and the backoff record holds only the
// failures still visible (pods that keep the tracking finalizer) — see `assumes` in the plan.
import {JOB_CONTROLLER_NAME, JOB_INDEX_FAILURE_COUNT, JOB_TRACKING_FINALIZER, type JobCondition, type JobStatusView, type JobView, type BackoffRecord, type RemoveFinalizerAction, uidList} from './model.js'
import {type Requeue} from '../../model/plan.js'
import type {PodView} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import {claimPods} from '../../reconcile/ownership.js'
import {type CompiledSelector, compileLabelSelector, SelectorError} from '../../reconcile/selector.js'
import {isPodActive, isPodTerminating} from '../../reconcile/pods.js'
import {formatRfc3339, objectTime, seconds, wholeSeconds} from '../../reconcile/time.js'
import {backoffDelay, isPodFailed, matchPodFailurePolicy, nextBackoffRecord, visibleBackoff} from './failure.js'
import {completionIndex, formatIndexes, intervalSet, parseIndexes} from './indexes.js'
import {annotationCount, deleteAction, heldBackPods, manageJob, removeFinalizer, requeueAt, wantActive} from './manage.js'

/** MaxUncountedPods. */
export const MAX_UNCOUNTED_PODS = 500

export interface JobSyncInput {
  /** The pods whose controller reference is this Job. */
  pods: readonly PodView[]
  /** The pods of its namespace with no controller: adopted when the selector matches (ClaimPods). */
  orphans?: readonly PodView[]
  now: bigint
  /** MutableSchedulingDirectivesForSuspendedJobs (on in 1.36): suspending clears startTime. */
  clearStartTimeOnSuspend: boolean
  /** The controller's stored backoff record, when known (J8.3); absent: built from the pods alone. */
  backoffRecord?: BackoffRecord
}

interface Finished {
  type: 'Failed' | 'Complete'
  /** The condition that comes first (FailureTarget, SuccessCriteriaMet). */
  interim: 'FailureTarget' | 'SuccessCriteriaMet'
  reason: string
  message: string
  /** Already in the status (a sticky outcome): not appended again. */
  present: boolean
}

const MESSAGES: Record<string, string> = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
  CompletionsReached: 'Reached expected number of succeeded pods',
}

const isTrue = (status: JobStatusView, type: string) => status.conditions.some((c) => c.type === type && c.status === 'True')
export const jobFinished = (status: JobStatusView) => isTrue(status, 'Complete') || isTrue(status, 'Failed')
const carriesFinalizer = (p: PodView) => p.batch?.finalizers.includes(JOB_TRACKING_FINALIZER) ?? false

/** Empty sets and maps a sync only reads: shared rather than made for each Job. */
const NO_UIDS: ReadonlySet<string> = new Set()
const NO_PODS: ReadonlySet<PodView> = new Set()
const NO_INDEXES: ReadonlySet<number> = new Set()
const NO_HELD: ReadonlyMap<number, PodView> = new Map()

/** The sync's clock as a condition's time: the last one asked for is kept (every Job of a plan shares it). */
let lastStamp: {now: bigint; text: string} | undefined
function stampOf(now: bigint): string {
  if (lastStamp?.now !== now) lastStamp = {now, text: formatRfc3339(wholeSeconds(now))}
  return lastStamp.text
}

export function planJob(job: JobView, input: JobSyncInput): ControllerPlan {
  const {now} = input
  const stamp = stampOf(now)
  const plan: ControllerPlan = {
    kind: 'Job',
    apiVersion: job.apiVersion,
    namespace: job.namespace,
    name: job.name,
    uid: job.uid,
    resourceVersion: job.resourceVersion,
    desired: job.parallelism,
    active: job.status.active,
    diff: 0,
    actions: [],
    pending: 0,
    status: job.status,
    warnings: [],
    inSync: true,
  }
  // Attached when there is one, or on a sync that ends early (a property deleted later would slow every read of the plan).
  const events: string[] = []
  const indexed = job.completionMode === 'Indexed'
  const completions = job.completions
  // J3 step 2: a Job another controller manages is left alone entirely.
  if (job.managedBy !== undefined && job.managedBy !== JOB_CONTROLLER_NAME) {
    plan.syncPath = `managed by ${job.managedBy}`
    plan.events = events
    return plan
  }
  // J3 step 3 / J15.3: a finished Job gets no sync; the orphan worker removes its pods' finalizers.
  if (jobFinished(job.status)) {
    plan.syncPath = 'finished'
    plan.desired = 0
    plan.rolloutStep = isTrue(job.status, 'Complete') ? 'Complete' : 'Failed'
    for (const p of input.pods.filter(carriesFinalizer)) plan.actions.push(removeFinalizer(p, 'none', 'orphan-worker'))
    planTtl(job, job.status, now, plan)
    plan.inSync = plan.actions.length === 0
    plan.events = events
    return plan
  }
  if (job.completionMode !== 'NonIndexed' && job.completionMode !== 'Indexed') {
    plan.warnings.push(`completionMode ${JSON.stringify(job.completionMode)} is unknown: the controller records UnknownCompletionMode and skips the sync`)
    plan.events = events
    return plan
  }
  // J3 step 8: claim pods — adopt matching orphans (owner reference and tracking finalizer in one
  // patch), release owned pods the selector no longer matches (the finalizer goes with it).
  const claim = claimJobPods(job, input.pods, input.orphans ?? [], plan)
  if (!claim) {
    plan.events = events
    return plan
  }
  const pods = claim.pods
  // Adopted pods count as carrying the finalizer from here on, as the controller's copies do.
  const adopted = claim.adopted
  const hasFinalizer = adopted.size === 0 ? carriesFinalizer : (p: PodView) => adopted.has(p.uid) || carriesFinalizer(p)
  plan.assumes = ['no pod create or delete of an earlier sync is still unobserved (expectations satisfied)']
  const from = job.status
  const status: MutableStatus = cloneStatus(from)
  const uncounted = {succeeded: uidList(from.uncountedTerminatedPods?.succeeded), failed: uidList(from.uncountedTerminatedPods?.failed)}
  const inUncounted = uncounted.succeeded.length + uncounted.failed.length === 0 ? NO_UIDS : new Set([...uncounted.succeeded, ...uncounted.failed])
  const validIndex = (p: PodView) => {
    if (!indexed) return true
    const i = completionIndex(p)
    return i >= 0 && i < (completions ?? 0)
  }

  // ---- J4: counting, in one walk of the pods (each list in the pods' order) ----
  let activePods: PodView[] = []
  let terminating = 0
  let ready = 0
  const newSucceeded: PodView[] = []
  const newFailed: PodView[] = []
  for (const p of pods) {
    if (isPodActive(p)) {
      activePods.push(p)
      if (p.ready) ready++
    } else if (isPodTerminating(p)) terminating++
    // A Succeeded pod is never isPodFailed.
    if (p.phase === 'Succeeded') {
      if (hasFinalizer(p) && !inUncounted.has(p.uid) && validIndex(p)) newSucceeded.push(p)
    } else if (isPodFailed(p, job) && hasFinalizer(p) && !inUncounted.has(p.uid) && validIndex(p)) newFailed.push(p)
  }
  const ignored = job.podFailurePolicy ? new Set(newFailed.filter((p) => matchPodFailurePolicy(job, p)?.action === 'Ignore')) : NO_PODS
  let succeeded = from.succeeded + newSucceeded.length + uncounted.succeeded.length
  const failed = from.failed + newFailed.filter((p) => !ignored.has(p)).length + uncounted.failed.length
  if (status.startTime === undefined && !job.suspend) status.startTime = stamp

  // ---- J8.3: the backoff record, as far as the snapshot shows it ----
  const backoff = input.backoffRecord === undefined ? visibleBackoff(newSucceeded, newFailed) : nextBackoffRecord(input.backoffRecord, newSucceeded, newFailed)
  if (input.backoffRecord !== undefined) plan.backoffRecord = backoff

  // ---- J3 step 13: terminal evaluation, first match wins ----
  let finished: Finished | undefined
  const present = (type: string) => from.conditions.find((c) => c.type === type && c.status === 'True')
  const scm = present('SuccessCriteriaMet')
  const ft = present('FailureTarget')
  if (scm) finished = {type: 'Complete', interim: 'SuccessCriteriaMet', reason: scm.reason ?? '', message: scm.message ?? '', present: true}
  else if (ft) finished = {type: 'Failed', interim: 'FailureTarget', reason: ft.reason ?? '', message: ft.message ?? '', present: true}
  const fail = (reason: string, message = MESSAGES[reason]) => ({type: 'Failed' as const, interim: 'FailureTarget' as const, reason, message, present: false})
  if (!finished && job.podFailurePolicy) {
    // J9.5 (getFailJobMessage): the first failed pod in lister order, finalizer or not, that a FailJob
    // rule matches names the failure. Lister order is a Go map's: with several such pods, which one
    // is not decided.
    const messages = pods.filter((p) => isPodFailed(p, job)).map((p) => matchPodFailurePolicy(job, p)).flatMap((m) => (m?.action === 'FailJob' && m.message !== undefined ? [m.message] : []))
    if (messages.length > 0) finished = fail('PodFailurePolicy', messages[0])
    if (messages.length > 1) {
      plan.choices = [...(plan.choices ?? []), {what: 'FailureTarget message', chosen: messages[0], options: messages}]
      plan.warnings.push(`${messages.length} failed pods match a FailJob rule: the controller names the one its informer lists first, which is not decided; this plan names the first read`)
    }
  }
  if (!finished && (failed > job.backoffLimit || pastBackoffLimitOnFailure(job, pods))) finished = fail('BackoffLimitExceeded')
  let requeue: Requeue | undefined
  const startTime = objectTime(job.status.startTime)
  if (job.activeDeadlineSeconds !== undefined && startTime !== undefined && !job.suspend) {
    const left = seconds(job.activeDeadlineSeconds) - (now - startTime)
    if (!finished && left <= 0n) finished = fail('DeadlineExceeded')
    else if (!finished) requeue = requeueAt(now, left, 'active-deadline')
  }
  let succeededIndexes: ReadonlySet<number> = NO_INDEXES
  let failedIndexes: Set<number> | undefined
  let held: ReadonlyMap<number, PodView> = NO_HELD
  if (indexed && completions !== undefined) {
    // calculateSucceededIndexes and calculateFailedIndexes: every finished pod that still carries the
    // finalizer adds its index, listed in uncountedTerminatedPods or not (Indexed Jobs count indexes,
    // not UIDs).
    const unflushed = pods.filter((p) => hasFinalizer(p) && validIndex(p))
    const done = intervalSet(parseIndexes(from.completedIndexes, completions))
    for (const p of unflushed) if (p.phase === 'Succeeded') done.add(completionIndex(p))
    succeededIndexes = done
    succeeded = done.size
    if (job.backoffLimitPerIndex !== undefined) {
      failedIndexes = intervalSet(parseIndexes(from.failedIndexes, completions))
      for (const p of unflushed) if (isPodFailed(p, job) && indexFails(job, p)) failedIndexes.add(completionIndex(p))
      if (!finished && job.maxFailedIndexes !== undefined && failedIndexes.size > job.maxFailedIndexes) finished = fail('MaxFailedIndexesExceeded')
      else if (!finished && failedIndexes.size > 0 && failedIndexes.size + succeededIndexes.size >= completions) finished = fail('FailedIndexes')
    }
    // getPodsWithDelayedDeletionPerIndex, before manageJob: from the pods active now.
    if (job.backoffLimitPerIndex !== undefined) held = heldBackPods(pods, job, succeededIndexes, failedIndexes ?? new Set(), activePods, hasFinalizer, plan)
    if (!finished && job.successPolicy && succeededIndexes.size > 0) {
      const rule = matchSuccessPolicy(job, completions, succeededIndexes)
      if (rule !== undefined) finished = {type: 'Complete', interim: 'SuccessCriteriaMet', reason: 'SuccessPolicy', message: `Matched rules at index ${rule}`, present: false}
    }
  }
  if (finished) requeue = undefined

  // ---- J3 steps 14–15: delete the active pods of a finishing Job, or manage the pods ----
  if (finished) {
    for (const p of activePods) plan.actions.push(deleteAction(p, 'finished', false))
    terminating += activePods.length
    ready -= activePods.filter((p) => p.ready).length
    activePods = []
  } else if (job.deletionTimestamp === undefined) {
    const managed = manageJob(job, {pods, activePods, terminating, succeeded, succeededIndexes, failedIndexes, newFailed, backoff, now, plan, hasFinalizer, held})
    if (managed.deleted.length > 0) {
      const deleted = new Set<string>()
      for (const p of managed.deleted) {
        deleted.add(p.uid)
        if (p.ready) ready--
      }
      terminating += managed.deleted.length
      activePods = activePods.filter((p) => !deleted.has(p.uid))
    }
    if (managed.requeue && !requeue) requeue = managed.requeue
    const active = activePods.length + managed.created
    const complete = completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0
    if (complete) finished = {type: 'Complete', interim: 'SuccessCriteriaMet', reason: 'CompletionsReached', message: MESSAGES.CompletionsReached, present: false}
    else reconcileSuspended(job, status, stamp, input.clearStartTimeOnSuspend, events)
    status.active = active
  }
  if (finished) status.active = activePods.length
  status.ready = ready
  status.terminating = terminating

  // ---- J5: move finished pods into uncountedTerminatedPods, remove finalizers, count ----
  // trackJobStatusAndRemoveFinalizers walks the pods as listed before this sync: a pod manageJob
  // deleted still shows its finalizer (deleteJobPods records no finalizer expectation).
  // cleanUncountedPodsWithoutFinalizers: UIDs whose finalizer is already gone are counted now.
  const moveCounted = (gone: (uid: string) => boolean) => {
    if (uncounted.succeeded.length === 0 && uncounted.failed.length === 0) return
    const s = uncounted.succeeded.filter(gone)
    const f = uncounted.failed.filter(gone)
    status.succeeded += s.length
    status.failed += f.length
    uncounted.succeeded = uncounted.succeeded.filter((u) => !gone(u))
    uncounted.failed = uncounted.failed.filter((u) => !gone(u))
  }
  let withFinalizer: Set<string> | undefined
  moveCounted((uid) => !(withFinalizer ??= new Set(pods.filter(hasFinalizer).map((p) => p.uid))).has(uid))
  const heldBack: ReadonlySet<PodView> = held.size === 0 ? NO_PODS : new Set(held.values())
  const order = indexed ? [...pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : pods
  const patches: RemoveFinalizerAction[] = []
  const patched = new Set<string>()
  let newIndexes = 0
  let capped = false
  const countedIndexes = indexed ? intervalSet(parseIndexes(from.completedIndexes, completions ?? 0)) : undefined
  for (const p of order) {
    if (!hasFinalizer(p)) continue
    // canRemoveFinalizer: a Job being deleted, a pending outcome or a succeeded pod first; only then
    // a failed pod, unless it is its index's held-back pod.
    const always = job.deletionTimestamp !== undefined || finished !== undefined || p.phase === 'Succeeded'
    if (!always && (!isPodFailed(p, job) || heldBack.has(p))) continue
    if (newIndexes + uncounted.succeeded.length + uncounted.failed.length >= MAX_UNCOUNTED_PODS) {
      capped = true
      break
    }
    let counts: RemoveFinalizerAction['counts'] = 'none'
    if (p.phase === 'Succeeded' && !uncounted.failed.includes(p.uid)) {
      if (indexed) {
        const i = completionIndex(p)
        if (i >= 0 && i < (completions ?? 0) && !countedIndexes!.has(i)) {
          countedIndexes!.add(i)
          newIndexes++
        }
      } else {
        if (!uncounted.succeeded.includes(p.uid)) uncounted.succeeded.push(p.uid)
        counts = 'succeeded'
      }
    } else if ((isPodFailed(p, job) || finished?.type === 'Failed') && (!indexed || validIndex(p)) && !ignored.has(p)) {
      if (!uncounted.failed.includes(p.uid)) uncounted.failed.push(p.uid)
      counts = 'failed'
    }
    patches.push(removeFinalizer(p, counts))
    patched.add(p.uid)
  }
  if (indexed && completions !== undefined) {
    // A plain string with omitempty: empty is absent; failedIndexes is a pointer, so "" is written.
    const done = formatIndexes(succeededIndexes)
    if (done === '') delete status.completedIndexes
    else status.completedIndexes = done
    status.succeeded = succeededIndexes.size
    if (failedIndexes) status.failedIndexes = formatIndexes(failedIndexes)
  }
  if (capped) finished = undefined
  if (finished && !finished.present) {
    status.conditions = [...status.conditions, condition(finished.interim, finished.reason, finished.message, stamp)]
  }
  status.uncountedTerminatedPods = {succeeded: [...uncounted.succeeded], failed: [...uncounted.failed]}
  // Each write as the API server takes it: one it refuses ends the sync (an error, retried after the
  // queue's backoff), and what would follow it is not done.
  let written: JobStatusView = from
  let refusedBy: string | undefined
  // The status as this sync has it is compared first (sameStatus leaves unset fields out, as the
  // copy written does): the copy is made only for a write.
  const write = (n: 1 | 2, current: MutableStatus) => {
    if (refusedBy || sameStatus(written, current)) return
    const to = snapshotStatus(current)
    refusedBy = refusal(job, written, to)
    if (refusedBy) return
    plan.actions.push({type: 'updateStatus', write: n, from: written, to})
    written = to
  }
  write(1, status)
  if (!refusedBy) plan.actions.push(...patches)
  // Finalizers removed: their UIDs move from uncounted into the counters.
  moveCounted((uid) => patched.has(uid))
  status.uncountedTerminatedPods = {succeeded: [...uncounted.succeeded], failed: [...uncounted.failed]}
  // enactJobFinished: the final condition waits for every uncounted pod and every terminating one.
  let finishedEvent: string | undefined
  if (finished && uncounted.succeeded.length === 0 && uncounted.failed.length === 0 && status.terminating === 0) {
    status.conditions = [...status.conditions, condition(finished.type, finished.reason, finished.message, stamp)]
    if (finished.type === 'Complete') status.completionTime = stamp
    finishedEvent = finished.type === 'Complete' ? 'Normal Completed: Job completed' : `Warning ${finished.reason}: ${finished.message}`
  }
  write(2, status)
  if (refusedBy) {
    plan.warnings.push(`the API server refuses this sync's status write (${refusedBy}): the sync ends in an error and is retried, each retry refused alike`)
    requeue = requeueAt(now, seconds(1), 'sync-error')
  } else if (finishedEvent) events.push(finishedEvent)
  const write2 = written
  if (completions !== undefined && status.succeeded > completions) events.push(`Warning TooManySucceededPods: ${status.succeeded} succeeded pods for ${completions} completions`)

  // J17.2: failures counted in earlier syncs are in the controller's memory only.
  if (from.failed > 0 && job.backoffLimitPerIndex === undefined && plan.actions.some((a) => a.type === 'createJobPod')) {
    plan.assumes.push(`the controller's backoff record may hold earlier failures (status.failed ${from.failed}): these creates may wait up to ${Number(backoffDelay(backoff.failures + from.failed) / seconds(1))} s after the last failure`)
  }
  plan.status = write2
  if (jobFinished(write2)) planTtl(job, write2, now, plan)
  plan.active = status.active
  plan.desired = finished ? 0 : wantActive(job, succeeded, activePods.length)
  plan.diff = plan.active - plan.desired
  if (requeue) plan.requeue = requeue
  plan.rolloutStep = step(job, write2, finished)
  if (events.length > 0) plan.events = events
  plan.inSync = plan.actions.length === 0
  return plan
}

/**
 * The Job status checks the API server makes on a status write that this sync can fail
 * (getStatusValidationOptions in pkg/registry/batch/job/strategy.go, validateJobStatus in
 * pkg/apis/batch/validation): a Job finishing without startTime (a suspended one, unless its
 * completions are 0), and failedIndexes overlapping completedIndexes.
 */
function refusal(job: JobView, from: JobStatusView, to: JobStatusView): string | undefined {
  const startTimeChanged = from.startTime !== to.startTime
  if ((jobFinished(from) !== jobFinished(to) || startTimeChanged) && !(job.suspend && job.completions === 0) && jobFinished(to) && to.startTime === undefined) {
    return 'startTime is required for finished job'
  }
  if ((from.failedIndexes !== to.failedIndexes || from.completedIndexes !== to.completedIndexes) && to.failedIndexes && to.completedIndexes && job.completions !== undefined) {
    const done = intervalSet(parseIndexes(to.completedIndexes, job.completions))
    const both = [...intervalSet(parseIndexes(to.failedIndexes, job.completions))].filter((i) => done.has(i))
    if (both.length > 0) return `failedIndexes and completedIndexes both hold index ${both.join(', ')}`
  }
  return undefined
}

/**
 * getPodsForJob (J3 step 8): the Job's pods after ClaimPods — owned pods its selector matches, and
 * orphans it adopts. A selector that does not convert fails every sync (an error, retried).
 */
function claimJobPods(job: JobView, owned: readonly PodView[], orphans: readonly PodView[], plan: ControllerPlan): {pods: PodView[]; adopted: ReadonlySet<string>} | undefined {
  let selector: CompiledSelector
  try {
    selector = compileLabelSelector(job.selector)
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error
    plan.warnings.push(`invalid selector (${error.message}): every sync of this Job fails and is retried`)
    return undefined
  }
  const claim = claimPods(job, selector, orphans.length === 0 ? owned : [...owned, ...orphans])
  for (const p of claim.adopted) plan.actions.push({type: 'adopt', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, finalizer: JOB_TRACKING_FINALIZER})
  for (const p of claim.released) plan.actions.push({type: 'release', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, finalizer: JOB_TRACKING_FINALIZER})
  return {pods: claim.claimed, adopted: claim.adopted.length === 0 ? NO_UIDS : new Set(claim.adopted.map((p) => p.uid))}
}

/**
 * The ttl-after-finished controller (pkg/controller/ttlafterfinished, processJob): a finished Job
 * with ttlSecondsAfterFinished is deleted — Foreground, with its uid as a precondition — once the
 * first True Complete or Failed condition is that old; until then it waits for that time.
 */
function planTtl(job: JobView, status: JobStatusView, now: bigint, plan: ControllerPlan): void {
  if (job.ttlSecondsAfterFinished === undefined || job.deletionTimestamp !== undefined) return
  const finishedAt = objectTime(status.conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.lastTransitionTime)
  if (finishedAt === undefined) {
    plan.warnings.push('finished, but its Complete or Failed condition has no lastTransitionTime: the ttl-after-finished controller cannot tell when, and retries')
    return
  }
  const expireAt = finishedAt + seconds(job.ttlSecondsAfterFinished)
  plan.ttl = {expireAt: formatRfc3339(expireAt), seconds: job.ttlSecondsAfterFinished}
  if (now >= expireAt) {
    plan.actions.push({type: 'deleteJob', name: job.name, uid: job.uid, reason: 'ttl-after-finished', propagationPolicy: 'Foreground', by: 'ttl-after-finished'})
    plan.rolloutStep = `${plan.rolloutStep ?? 'finished'}, deleted by its TTL`
  } else {
    plan.requeue = requeueAt(now, expireAt - now, 'ttl-after-finished')
  }
}

type MutableStatus = {-readonly [K in keyof JobStatusView]: JobStatusView[K]}

function cloneStatus(s: JobStatusView): MutableStatus {
  return {...s, conditions: [...s.conditions]}
}

/** The status as written: uncountedTerminatedPods and the pointers always set (J3 step 6, J4.3). */
function snapshotStatus(s: MutableStatus): JobStatusView {
  const out: MutableStatus = {...s, conditions: [...s.conditions]}
  if (out.startTime === undefined) delete out.startTime
  return out
}

/**
 * The two statuses as JSON with their fields sorted are the same text; that text is the same
 * exactly when the same fields are defined and each one's value writes the same JSON (so the
 * fields' order does not matter: each of a's is looked for among b's).
 */
function sameStatus(a: JobStatusView, b: JobStatusView): boolean {
  const ka = definedKeys(a)
  const kb = definedKeys(b)
  if (ka.length !== kb.length) return false
  for (const k of ka) {
    if (!kb.includes(k)) return false
    const x = statusField(a, k)
    const y = statusField(b, k)
    if (x === y && (typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)))) continue
    if (!sameJsonText(x, y)) return false
  }
  return true
}

/** Whether JSON.stringify writes `a` and `b` alike: plain arrays and objects compared part by part, anything else as text. */
function sameJsonText(a: unknown, b: unknown): boolean {
  if (a === b && (typeof a !== 'number' || Number.isFinite(a))) return true
  if (typeof a === 'string' && typeof b === 'string') return false
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) {
      // An array writes undefined (or a function) as null: left to the text.
      if (omitted(a[i]) || omitted(b[i])) return JSON.stringify(a) === JSON.stringify(b)
      if (!sameJsonText(a[i], b[i])) return false
    }
    return true
  }
  if (isPlainRecord(a) && isPlainRecord(b)) {
    const ka = writtenKeys(a)
    const kb = writtenKeys(b)
    if (ka.length !== kb.length) return false
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameJsonText(a[ka[i]], b[kb[i]])) return false
    return true
  }
  return JSON.stringify(a) === JSON.stringify(b)
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) && !('toJSON' in v)

/** The keys JSON.stringify writes, in its order. */
function writtenKeys(o: Record<string, unknown>): string[] {
  const keys: string[] = []
  for (const k of Object.keys(o)) {
    if (!omitted(o[k])) keys.push(k)
  }
  return keys
}

const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/** A nil uncountedTerminatedPods is read as {} (J3 step 6): writing {} alone is no change. */
const NO_UNCOUNTED = {succeeded: [], failed: []}

const statusField = (s: JobStatusView, k: string): unknown =>
  k === 'uncountedTerminatedPods' && s.uncountedTerminatedPods === undefined ? NO_UNCOUNTED : (s as unknown as Record<string, unknown>)[k]

function definedKeys(s: JobStatusView): string[] {
  const keys: string[] = []
  for (const k of Object.keys(s)) if (statusField(s, k) !== undefined) keys.push(k)
  if (!keys.includes('uncountedTerminatedPods')) keys.push('uncountedTerminatedPods')
  return keys
}

function condition(type: string, reason: string, message: string, stamp: string): JobCondition {
  return {type, status: 'True', reason, message, lastProbeTime: stamp, lastTransitionTime: stamp}
}

/**
 * pastBackoffLimitOnFailure (J8.6): with restartPolicy OnFailure, container restarts of every pod of
 * the Job in phase Running or Pending — terminating ones too — count against backoffLimit.
 */
function pastBackoffLimitOnFailure(job: JobView, pods: readonly PodView[]): boolean {
  if (job.restartPolicy !== 'OnFailure') return false
  let restarts = 0
  for (const p of pods) if (p.phase === 'Running' || p.phase === 'Pending') restarts += p.batch?.totalRestarts ?? 0
  return job.backoffLimit === 0 ? restarts > 0 : restarts >= job.backoffLimit
}

/** isIndexFailed (J10.1): FailIndex, or a counted failure that used up backoffLimitPerIndex. */
function indexFails(job: JobView, p: PodView): boolean {
  const m = matchPodFailurePolicy(job, p)
  if (m?.action === 'FailIndex') return true
  if (m?.action === 'Ignore') return false
  return annotationCount(p, JOB_INDEX_FAILURE_COUNT) >= (job.backoffLimitPerIndex ?? 0)
}

/** matchSuccessPolicy (J11): the index of the first rule that matches. */
function matchSuccessPolicy(job: JobView, completions: number, succeeded: ReadonlySet<number>): number | undefined {
  const rules = job.successPolicy ?? []
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]
    if (r.succeededIndexes !== undefined) {
      const wanted = intervalSet(parseIndexes(r.succeededIndexes, completions))
      if (wanted.size === 0) continue
      let contains = 0
      for (const x of wanted) if (succeeded.has(x)) contains++
      if (contains === wanted.size || (r.succeededCount !== undefined && contains >= r.succeededCount)) return i
    } else if (r.succeededCount !== undefined && succeeded.size >= r.succeededCount) return i
  }
  return undefined
}

/** J13: the Suspended condition, reconciled only where manageJob ran and the Job did not complete. */
function reconcileSuspended(job: JobView, status: MutableStatus, stamp: string, clearStartTime: boolean, events: string[]): void {
  const i = status.conditions.findIndex((c) => c.type === 'Suspended')
  const cur = i >= 0 ? status.conditions[i] : undefined
  if (job.suspend) {
    if (cur?.status === 'True' && cur.reason === 'JobSuspended' && cur.message === 'Job suspended') return
    // startTime is cleared only when this sync sets the condition (ensureJobConditionStatus updated it).
    if (clearStartTime) delete status.startTime
    const c: JobCondition = {type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: stamp, lastTransitionTime: stamp}
    status.conditions = cur ? status.conditions.map((x, j) => (j === i ? c : x)) : [...status.conditions, c]
    events.push('Normal Suspended: Job suspended')
  } else if (cur && !(cur.status === 'False' && cur.reason === 'JobResumed' && cur.message === 'Job resumed')) {
    // ensureJobConditionStatus: an existing condition that differs in status, reason or message is replaced.
    status.conditions = status.conditions.map((x, j) => (j === i ? {type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed', lastProbeTime: stamp, lastTransitionTime: stamp} : x))
    status.startTime = stamp
    events.push('Normal Resumed: Job resumed')
  }
}

function step(job: JobView, s: JobStatusView, finished: Finished | undefined): string {
  if (isTrue(s, 'Complete')) return 'Complete'
  if (isTrue(s, 'Failed')) return 'Failed'
  if (finished) return `${finished.interim} (${finished.reason}), waiting for pods`
  if (job.suspend) return 'suspended'
  const want = job.completions === undefined ? '' : `/${job.completions}`
  return `${s.succeeded}${want} succeeded, ${s.failed} failed`
}
