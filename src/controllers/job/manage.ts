// manageJob (pkg/controller/job/job_controller.go): how one Job sync creates the pods it lacks and
// picks the active pods it deletes, in upstream's order of removal (activePodsForRemoval). Split from
// sync.ts, which calls it once per sync.
import {JOB_COMPLETION_INDEX, JOB_INDEX_FAILURE_COUNT, JOB_INDEX_IGNORED_FAILURE_COUNT, JOB_TRACKING_FINALIZER, type CreateJobPodAction, type DeleteJobPodAction, type JobDeleteReason, type JobView, type RemoveFinalizerAction} from './model.js'
import {type Requeue} from '../../model/plan.js'
import type {PodView} from '../../model/objects.js'
import type {ControllerPlan, TieGroup} from '../../model/plan.js'
import {GENERATED_BASE_LENGTH} from '../../reconcile/create.js'
import {isPodTerminating, phaseOrdinal, maxRestarts} from '../../reconcile/pods.js'
import {formatRfc3339, objectTime, seconds} from '../../reconcile/time.js'
import {finishTime, isPodFailed, matchPodFailurePolicy, onlyReplaceFailedPods, remainingBackoff} from './failure.js'
import {completionIndex} from './indexes.js'

export interface ManageInput {
  pods: readonly PodView[]
  activePods: readonly PodView[]
  terminating: number
  succeeded: number
  succeededIndexes: ReadonlySet<number>
  failedIndexes?: ReadonlySet<number>
  newFailed: readonly PodView[]
  backoff: {failures: number; lastFailure?: bigint}
  now: bigint
  plan: ControllerPlan
  hasFinalizer: (p: PodView) => boolean
  /** getPodsWithDelayedDeletionPerIndex, computed by the sync before manageJob: per index, the failed pod held back. */
  held: ReadonlyMap<number, PodView>
}

/** manageJob (J6): suspend, delete the excess, or create what is missing once the backoff allows. */
export function manageJob(job: JobView, m: ManageInput): {created: number; deleted: PodView[]; requeue?: Requeue} {
  const {activePods, plan, now} = m
  // deleteJobPods: the finalizer patch only when removeTrackingFinalizerPatch makes one (the pod
  // carries the finalizer), then the DELETE.
  const remove = (p: PodView, reason: JobDeleteReason) => {
    const patched = m.hasFinalizer(p)
    if (patched) plan.actions.push(removeFinalizer(p, 'none'))
    plan.actions.push(deleteAction(p, reason, patched))
  }
  if (job.suspend) {
    for (const p of activePods) remove(p, 'suspended')
    return {created: 0, deleted: [...activePods]}
  }
  const want = wantActive(job, m.succeeded, activePods.length)
  const rmAtLeast = Math.max(activePods.length - want, 0)
  const toDelete = activePodsForRemoval(job, activePods, rmAtLeast, plan)
  if (toDelete.length > 0) {
    const batch = toDelete.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC)
    if (toDelete.length > batch.length) plan.pending = toDelete.length - batch.length
    for (const {pod, reason} of batch) remove(pod, reason)
    return {created: 0, deleted: batch.map((x) => x.pod)}
  }
  let diff = want - activePods.length - (onlyReplaceFailedPods(job) ? m.terminating : 0)
  if (diff <= 0) return {created: 0, deleted: []}
  const perIndex = job.backoffLimitPerIndex !== undefined
  if (!perIndex) {
    const left = remainingBackoff(m.backoff.failures, m.backoff.lastFailure, now)
    if (left > 0n) {
      plan.pending = diff
      return {created: 0, deleted: [], requeue: requeueAt(now, left < seconds(1) ? seconds(1) : left, 'backoff')}
    }
  }
  if (diff > MAX_POD_CREATE_DELETE_PER_SYNC) {
    plan.pending = diff - MAX_POD_CREATE_DELETE_PER_SYNC
    diff = MAX_POD_CREATE_DELETE_PER_SYNC
  }
  if (job.completionMode !== 'Indexed') {
    for (let i = 0; i < diff; i++) plan.actions.push(createPod(job))
    return {created: diff, deleted: []}
  }
  // firstPendingIndexes (J7.3): the first `diff` indexes not succeeded, active, failed (or, when
  // only failed pods are replaced, terminating).
  const taken = new Set<number>([...m.succeededIndexes, ...activePods.map(completionIndex), ...(m.failedIndexes ?? [])])
  if (onlyReplaceFailedPods(job)) for (const p of m.pods) if (isPodTerminating(p)) taken.add(completionIndex(p))
  const pendingIndexes: number[] = []
  for (let i = 0; i < (job.completions ?? 0) && pendingIndexes.length < diff; i++) if (!taken.has(i)) pendingIndexes.push(i)
  // getPodCreationInfoForIndependentIndexes (J10.5): of those, the indexes whose held-back pod's
  // backoff is over; an index still in backoff is not replaced by a later one.
  const heldByIndex = m.held
  const indexes: number[] = []
  let soonest: bigint | undefined
  for (const i of pendingIndexes) {
    const prev = perIndex ? heldByIndex.get(i) : undefined
    const left = prev ? remainingBackoff(failureCount(prev) + 1, finishTime(prev), now) : 0n
    if (left === 0n) indexes.push(i)
    else if (soonest === undefined || left < soonest) soonest = left
  }
  for (const i of indexes) {
    const prev = heldByIndex.get(i)
    let failureCountValue: number | undefined
    let ignoredCountValue: number | undefined
    if (perIndex) {
      failureCountValue = annotationCount(prev, JOB_INDEX_FAILURE_COUNT)
      ignoredCountValue = annotationCount(prev, JOB_INDEX_IGNORED_FAILURE_COUNT)
      if (prev) {
        if (matchPodFailurePolicy(job, prev)?.action === 'Ignore') ignoredCountValue++
        else failureCountValue++
      }
    }
    plan.actions.push(createPod(job, i, failureCountValue, ignoredCountValue))
  }
  const requeue = indexes.length === 0 && soonest !== undefined ? requeueAt(now, soonest < seconds(1) ? seconds(1) : soonest, 'backoff-per-index') : undefined
  if (indexes.length < diff) plan.pending = diff - indexes.length
  return {created: indexes.length, deleted: [], requeue}
}

/** activePodsForRemoval (J6.3): bad and duplicate indexes first, then the ActivePods order. */
function activePodsForRemoval(job: JobView, active: readonly PodView[], rmAtLeast: number, plan: ControllerPlan): {pod: PodView; reason: JobDeleteReason}[] {
  const out: {pod: PodView; reason: JobDeleteReason}[] = []
  // The pods ranked for removal: a copy made only when some are to be removed.
  let rest: PodView[] | undefined
  if (job.completionMode === 'Indexed') {
    const byIndex = new Map<number, PodView[]>()
    rest = []
    for (const p of active) {
      const i = completionIndex(p)
      if (i < 0 || i >= (job.completions ?? 0)) out.push({pod: p, reason: 'invalid-index'})
      else {
        const list = byIndex.get(i)
        if (list) list.push(p)
        else byIndex.set(i, [p])
      }
    }
    for (const list of byIndex.values()) {
      const sorted = list.sort(compareActivePods)
      for (const p of sorted.slice(0, -1)) out.push({pod: p, reason: 'duplicate-index'})
      rest.push(sorted.at(-1)!)
      if (sorted.length === 1) continue
      // appendPodsWithSameIndexForRemovalAndRemaining keeps the last of an unstable sort: pods ranked
      // equal with it may be the one kept.
      const tied = sorted.filter((p) => compareActivePods(p, sorted.at(-1)!) === 0)
      if (tied.length > 1) nameTie(plan, tied, tied.length - 1, `of index ${completionIndex(tied[0])} `)
    }
  }
  if (out.length < rmAtLeast) {
    rest ??= [...active]
    rest.sort(compareActivePods)
    const n = rmAtLeast - out.length
    const chosen = rest.slice(0, n)
    const boundary = rest[n]
    if (boundary && chosen.length > 0 && compareActivePods(chosen.at(-1)!, boundary) === 0) {
      // The sort is not stable: every pod ranked equal with the boundary may be the one deleted.
      const tied = rest.filter((p) => compareActivePods(p, boundary) === 0)
      const deleted = tied.filter((p) => chosen.includes(p))
      nameTie(plan, [...deleted, ...tied.filter((p) => !chosen.includes(p))], deleted.length)
    }
    for (const p of chosen) out.push({pod: p, reason: 'excess'})
  }
  return out
}

/** A tie in the deletion order: `pods` (the first `deleted` of them deleted by this plan), in `ties` and a warning. */
function nameTie(plan: ControllerPlan, pods: readonly PodView[], deleted: number, of = ''): void {
  const group: TieGroup = {id: (plan.ties?.length ?? 0) + 1, pods: pods.map((p) => p.name), delete: deleted}
  plan.ties = [...(plan.ties ?? []), group]
  plan.warnings.push(
    `pods ${listNames(group.pods)} ${of}tie in the controller's ranking (ActivePods): it deletes ${deleted} of them, which ones is not decided; this plan deletes ${listNames(group.pods.slice(0, deleted))}`,
  )
}

/** controller.ActivePods.Less (J6.4): negative when a is deleted before b. */
export function compareActivePods(a: PodView, b: PodView): number {
  if ((a.nodeName === '') !== (b.nodeName === '')) return a.nodeName === '' ? -1 : 1
  if (phaseOrdinal(a.phase) !== phaseOrdinal(b.phase)) return phaseOrdinal(a.phase) - phaseOrdinal(b.phase)
  if (a.ready !== b.ready) return a.ready ? 1 : -1
  if (a.ready && b.ready) {
    // Ready more recently first; a zero time counts as newest.
    const ta = objectTime(a.readySince)
    const tb = objectTime(b.readySince)
    if (ta !== tb) return ta === undefined ? -1 : tb === undefined ? 1 : tb > ta ? 1 : -1
  }
  const ra = maxRestarts(a)
  const rb = maxRestarts(b)
  if (ra.regular !== rb.regular) return rb.regular - ra.regular
  if (ra.sidecar !== rb.sidecar) return rb.sidecar - ra.sidecar
  const ca = objectTime(a.creationTimestamp)
  const cb = objectTime(b.creationTimestamp)
  if (ca !== cb) return ca === undefined ? -1 : cb === undefined ? 1 : cb > ca ? 1 : -1
  return 0
}

/** The pod manageJob creates (J6.6): the template, the tracking finalizer, the controller ref, and for Indexed Jobs the index. */
function createPod(job: JobView, index?: number, failureCount?: number, ignoredCount?: number): CreateJobPodAction {
  const t = job.template
  const labels: Record<string, string> = {...t.labels}
  const annotations: Record<string, string> = {...t.annotations}
  let generateName = `${job.name}-`
  if (index !== undefined) {
    labels[JOB_COMPLETION_INDEX] = String(index)
    annotations[JOB_COMPLETION_INDEX] = String(index)
    // podGenerateNameWithIndex: the Job's name is cut so that the prefix stays within 58 characters.
    const suffix = `-${index}-`
    generateName = `${job.name.slice(0, Math.max(0, GENERATED_BASE_LENGTH - suffix.length))}${suffix}`
    if (failureCount !== undefined) annotations[JOB_INDEX_FAILURE_COUNT] = String(failureCount)
    if (ignoredCount !== undefined && ignoredCount > 0) annotations[JOB_INDEX_IGNORED_FAILURE_COUNT] = String(ignoredCount)
  }
  const finalizers = t.finalizers.includes(JOB_TRACKING_FINALIZER) ? [...t.finalizers] : [...t.finalizers, JOB_TRACKING_FINALIZER]
  const a: CreateJobPodAction = {
    type: 'createJobPod',
    generateName,
    nameBase: generateName.slice(0, GENERATED_BASE_LENGTH),
    labels,
    annotations,
    finalizers,
    ownerReference: {apiVersion: 'batch/v1', kind: 'Job', name: job.name, uid: job.uid, controller: true, blockOwnerDeletion: true},
  }
  if (index !== undefined) {
    a.index = index
    a.hostname = `${job.name}-${index}`
  }
  return a
}

/**
 * getPodsWithDelayedDeletionPerIndex (J10.4): per open index (not active, succeeded or failed), the
 * failed pod with the tracking finalizer that keeps it. Upstream walks the pods in lister order and
 * takes a pod when its failure count and its finish time are both at least the kept one's; so with
 * several pods no other pod beats in both (a tie), the one kept follows lister order, which the
 * controller does not fix. This plan takes the same walk in the order the pods were read, and names
 * each tie in a warning.
 */
export function heldBackPods(
  pods: readonly PodView[],
  job: JobView,
  succeeded: ReadonlySet<number>,
  failed: ReadonlySet<number>,
  active: readonly PodView[],
  hasFinalizer: (p: PodView) => boolean,
  plan?: ControllerPlan,
): Map<number, PodView> {
  const busy = new Set(active.map(completionIndex))
  const byIndex = new Map<number, PodView[]>()
  for (const p of pods) {
    if (!hasFinalizer(p) || !isPodFailed(p, job)) continue
    const i = completionIndex(p)
    if (i < 0 || i >= (job.completions ?? 0) || succeeded.has(i) || failed.has(i) || busy.has(i)) continue
    byIndex.set(i, [...(byIndex.get(i) ?? []), p])
  }
  const atLeast = (p: PodView, q: PodView) => failureCount(p) >= failureCount(q) && finishTime(p) >= finishTime(q)
  const kept = new Map<number, PodView>()
  for (const [i, list] of [...byIndex].sort(([a], [b]) => a - b)) {
    let cur: PodView | undefined
    for (const p of list) if (!cur || atLeast(p, cur)) cur = p
    kept.set(i, cur!)
    // The pods lister order can leave kept: those no other pod is at least as far as and ahead of.
    const candidates = list.filter((p) => !list.some((q) => q !== p && atLeast(q, p) && !atLeast(p, q)))
    if (plan && candidates.length > 1) {
      plan.choices = [...(plan.choices ?? []), {what: `failed pod of index ${i} kept with its finalizer`, chosen: cur!.name, options: candidates.map((p) => p.name)}]
      plan.warnings.push(
        `failed pods ${listNames(candidates.map((p) => p.name))} of index ${i} tie for the one that keeps its finalizer until the index is replaced and whose failure counts the replacement carries (failure count and finish time): the controller's pick follows its lister order; this plan keeps ${cur!.name}`,
      )
    }
  }
  return kept
}

/** `a`, `a and b`, `a, b and c`. */
function listNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

export const failureCount = (p: PodView) => annotationCount(p, JOB_INDEX_FAILURE_COUNT) + annotationCount(p, JOB_INDEX_IGNORED_FAILURE_COUNT)

/** J6.2: the active pods wanted. */
export function wantActive(job: JobView, succeeded: number, active: number): number {
  if (job.suspend) return 0
  if (job.completions === undefined) return succeeded > 0 ? active : job.parallelism
  return Math.max(0, Math.min(job.completions - succeeded, job.parallelism))
}

/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500

export const annotationCount = (p: PodView | undefined, key: string) => {
  const v = p?.annotations[key]
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : 0
}

export function removeFinalizer(p: PodView, counts: RemoveFinalizerAction['counts'], by?: 'orphan-worker'): RemoveFinalizerAction {
  const a: RemoveFinalizerAction = {type: 'removeFinalizer', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, counts}
  if (by) a.by = by
  return a
}

export function deleteAction(p: PodView, reason: JobDeleteReason, finalizerRemovedFirst: boolean): DeleteJobPodAction {
  return {type: 'deleteJobPod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, reason, finalizerRemovedFirst}
}

export function requeueAt(now: bigint, after: bigint, reason: Requeue['reason']): Requeue {
  return {at: formatRfc3339(now + after), seconds: Number(after) / 1e9, reason}
}
