// Jobs and the pod fields only the Job controller reads, as the API server stores them: defaulted
// as SetDefaults_Job does (pkg/apis/batch/v1/defaults.go), with the selector and template labels the
// Job strategy generates (pkg/registry/batch/job/strategy.go).
import {JOB_TRACKING_FINALIZER, type JobCondition, type JobStatusView, type JobView, type PodBatchFields, type PodFailurePolicyRule, type SuccessPolicyRule, type TerminatedContainer, uidList} from './model.js'
import type {LabelSelector} from '../../model/objects.js'
import {type Ctx, EMPTY_RAW as EMPTY, INT32_MAX, isMapping} from '../../sources/context.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {FieldReaders} from '../../sources/fields.js'
import type {KindReader, Meta, PodFieldsReader} from '../../sources/part.js'

const CONTROLLER_UID = 'batch.kubernetes.io/controller-uid'
const JOB_NAME = 'batch.kubernetes.io/job-name'

/** What the Job controller reads: every Job of the namespace read (a CronJob reads its Jobs whatever -l says). */
export const JOB_READS: readonly KindReader[] = [
  {
    kind: 'Job',
    group: 'batch',
    version: 'v1',
    read({ctx, fields, apiVersion, meta, raw, wanted, planned, located, collect}) {
      const job = readJob(ctx, fields, apiVersion, meta, ctx.mapping(raw.spec, ['spec']) ?? EMPTY, ctx.mapping(raw.status, ['status']) ?? EMPTY)
      // Every Job is kept (a CronJob reads its Jobs whatever -l says); `planned` marks those planned.
      if (job && wanted()) collect('jobs', located(planned() ? job : Object.assign(job, {notPlanned: true})))
    },
  },
]

/** Only the Job controller reads these: of its pods, and of orphans it may adopt (none in a world that holds no Job). */
export const readJobPodFields: PodFieldsReader = (_ctx, meta, raw, spec, status, input) => (jobMayRead(meta.ownerReferences) && input.mayHold('Job') ? batchFieldsOf(raw.metadata as RawObject, spec, status) : undefined)

/** A pod a Job owns, or one no controller owns (an orphan a Job may adopt). */
function jobMayRead(refs: Meta['ownerReferences']): boolean {
  let controlled = false
  for (let i = 0; i < refs.length; i++) {
    if (refs[i].kind === 'Job') return true
    if (refs[i].controller === true) controlled = true
  }
  return !controlled
}

export function list(ctx: Ctx, v: unknown, at: Path): unknown[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(at, 'expected a list')
    return []
  }
  return v
}

export function oneOf<T extends string>(ctx: Ctx, v: unknown, at: Path, allowed: readonly T[], fallback: T): T {
  const s = ctx.string(v, at) || fallback
  if (!(allowed as readonly string[]).includes(s)) {
    ctx.fail(at, `unsupported value ${JSON.stringify(s)}`, `use ${allowed.join(', ')}`)
    return fallback
  }
  return s as T
}

/** A Job spec and status at `at` (the object itself, or a CronJob's jobTemplate). */
export function readJob(ctx: Ctx, r: FieldReaders, apiVersion: string, meta: Meta, spec: RawObject, status: RawObject, at: Path = []): JobView | undefined {
  // A field's path is built only when the field is set (a reader says nothing of an unset one).
  const p = (...rest: (string | number)[]): Path => [...at, 'spec', ...rest]
  const int = (field: string, min = 0) => (unset(spec[field]) ? undefined : ctx.int(spec[field], p(field), min, INT32_MAX))
  const str = (field: string) => (unset(spec[field]) ? undefined : ctx.string(spec[field], p(field)))
  let parallelism = int('parallelism')
  let completions = int('completions')
  if (parallelism === undefined && completions === undefined) [parallelism, completions] = [1, 1]
  const backoffLimitPerIndex = int('backoffLimitPerIndex')
  const completionMode = str('completionMode') || 'NonIndexed'
  if (backoffLimitPerIndex !== undefined && completionMode !== 'Indexed') ctx.fail(p('backoffLimitPerIndex'), 'requires completionMode `Indexed`')
  if (completionMode === 'Indexed' && completions === undefined) ctx.fail(p('completions'), 'required when completionMode is `Indexed`')
  const podFailurePolicy = unset(spec.podFailurePolicy) ? undefined : readPodFailurePolicy(ctx, spec.podFailurePolicy, p('podFailurePolicy'))
  const successPolicy = unset(spec.successPolicy) ? undefined : readSuccessPolicy(ctx, spec.successPolicy, p('successPolicy'))
  const template = r.template(ctx, spec.template, p('template'))
  const templateSpec = template.spec as RawObject
  const restartPolicy = typeof templateSpec.restartPolicy === 'string' ? templateSpec.restartPolicy : ''
  if (restartPolicy !== 'Never' && restartPolicy !== 'OnFailure') {
    ctx.fail(p('template', 'spec', 'restartPolicy'), `a Job's pods need restartPolicy Never or OnFailure, got ${JSON.stringify(restartPolicy || 'Always')}`)
  }
  // The Job strategy generates the selector and labels the template unless manualSelector is set
  // (generateSelector): a selector of one's own is extended with the Job's controller-uid, and each
  // of the four labels is added to the template where absent. Only with manualSelector does a
  // Job's selector reach pods it did not create (adoption, J3 step 8).
  let selector: LabelSelector
  const manual = spec.manualSelector === true
  if (spec.selector !== undefined && spec.selector !== null) selector = r.labelSelector(ctx, spec.selector, 'Job')
  else {
    if (manual) ctx.fail(p('selector'), 'required when manualSelector is true')
    selector = {}
  }
  if (!manual && selector) {
    selector = {...selector, matchLabels: withAbsent(selector.matchLabels, {[CONTROLLER_UID]: meta.uid})}
    template.labels = withAbsent(template.labels, {[CONTROLLER_UID]: meta.uid, [JOB_NAME]: meta.name, 'controller-uid': meta.uid, 'job-name': meta.name})
  }
  const job: JobView = {
    kind: 'Job',
    apiVersion,
    ...meta,
    parallelism: parallelism ?? 1,
    completionMode,
    backoffLimit: int('backoffLimit') ?? (backoffLimitPerIndex !== undefined ? INT32_MAX : 6),
    suspend: (unset(spec.suspend) ? undefined : ctx.bool(spec.suspend, p('suspend'))) ?? false,
    podReplacementPolicy: unset(spec.podReplacementPolicy) ? (podFailurePolicy ? 'Failed' : 'TerminatingOrFailed') : oneOf(ctx, spec.podReplacementPolicy, p('podReplacementPolicy'), ['TerminatingOrFailed', 'Failed'], podFailurePolicy ? 'Failed' : 'TerminatingOrFailed'),
    selector,
    template,
    restartPolicy,
    status: readJobStatus(ctx, status, at),
  }
  if (podFailurePolicy && job.podReplacementPolicy !== 'Failed') ctx.fail(p('podReplacementPolicy'), 'must be `Failed` when podFailurePolicy is set')
  if (completions !== undefined) job.completions = completions
  if (backoffLimitPerIndex !== undefined) job.backoffLimitPerIndex = backoffLimitPerIndex
  const maxFailedIndexes = int('maxFailedIndexes')
  if (maxFailedIndexes !== undefined) job.maxFailedIndexes = maxFailedIndexes
  const ads = unset(spec.activeDeadlineSeconds) ? undefined : ctx.int(spec.activeDeadlineSeconds, p('activeDeadlineSeconds'), 1, Number.MAX_SAFE_INTEGER)
  if (ads !== undefined) job.activeDeadlineSeconds = ads
  const managedBy = str('managedBy')
  if (managedBy) job.managedBy = managedBy
  if (podFailurePolicy) job.podFailurePolicy = podFailurePolicy
  if (successPolicy) job.successPolicy = successPolicy
  const ttl = int('ttlSecondsAfterFinished')
  if (ttl !== undefined) job.ttlSecondsAfterFinished = ttl
  return selector ? job : undefined
}

const unset = (v: unknown) => v === undefined || v === null

/** `labels` with each of `added` that it does not have yet, appended. */
function withAbsent(labels: Readonly<Record<string, string>> | undefined, added: Record<string, string>): Record<string, string> {
  const out = {...labels}
  for (const [k, v] of Object.entries(added)) if (!(k in out)) out[k] = v
  return out
}

function readPodFailurePolicy(ctx: Ctx, v: unknown, at: Path): PodFailurePolicyRule[] | undefined {
  const m = ctx.mapping(v, at)
  if (!m) return undefined
  return list(ctx, m.rules, [...at, 'rules']).map((raw, i) => {
    const rp = [...at, 'rules', i]
    const rule = ctx.mapping(raw, rp) ?? EMPTY
    const out: PodFailurePolicyRule = {action: oneOf(ctx, rule.action, [...rp, 'action'], ['FailJob', 'Ignore', 'Count', 'FailIndex'], 'Count')}
    const codes = ctx.mapping(rule.onExitCodes, [...rp, 'onExitCodes'])
    if (codes) {
      const values = list(ctx, codes.values, [...rp, 'onExitCodes', 'values']).map((x, j) => ctx.int(x, [...rp, 'onExitCodes', 'values', j], -INT32_MAX - 1, INT32_MAX) ?? 0)
      out.onExitCodes = {operator: oneOf(ctx, codes.operator, [...rp, 'onExitCodes', 'operator'], ['In', 'NotIn'], 'In'), values}
      const name = ctx.string(codes.containerName, [...rp, 'onExitCodes', 'containerName'])
      if (name) out.onExitCodes.containerName = name
    }
    if (rule.onPodConditions !== undefined) {
      out.onPodConditions = list(ctx, rule.onPodConditions, [...rp, 'onPodConditions']).map((c, j) => {
        const cm = ctx.mapping(c, [...rp, 'onPodConditions', j]) ?? EMPTY
        return {type: ctx.string(cm.type, [...rp, 'onPodConditions', j, 'type']) ?? '', status: ctx.string(cm.status, [...rp, 'onPodConditions', j, 'status']) || 'True'}
      })
    }
    if ((out.onExitCodes === undefined) === (out.onPodConditions === undefined)) ctx.fail(rp, 'exactly one of onExitCodes and onPodConditions is required')
    return out
  })
}

function readSuccessPolicy(ctx: Ctx, v: unknown, at: Path): SuccessPolicyRule[] | undefined {
  const m = ctx.mapping(v, at)
  if (!m) return undefined
  return list(ctx, m.rules, [...at, 'rules']).map((raw, i) => {
    const rule = ctx.mapping(raw, [...at, 'rules', i]) ?? EMPTY
    const out: SuccessPolicyRule = {}
    const indexes = ctx.string(rule.succeededIndexes, [...at, 'rules', i, 'succeededIndexes'])
    if (indexes !== undefined) out.succeededIndexes = indexes
    const count = ctx.int(rule.succeededCount, [...at, 'rules', i, 'succeededCount'], 0, INT32_MAX)
    if (count !== undefined) out.succeededCount = count
    return out
  })
}

/** The status of the Job at `base` (its paths built only for the fields set). */
function readJobStatus(ctx: Ctx, status: RawObject, base: Path): JobStatusView {
  const at: Path = [...base, 'status']
  const int = (field: string) => (unset(status[field]) ? undefined : ctx.int(status[field], [...at, field], 0, INT32_MAX))
  const conditions: JobCondition[] = unset(status.conditions) ? [] : list(ctx, status.conditions, [...at, 'conditions']).map((c, i) => {
    const m = ctx.mapping(c, [...at, 'conditions', i]) ?? EMPTY
    const out: JobCondition = {type: ctx.string(m.type, [...at, 'conditions', i, 'type']) ?? '', status: ctx.string(m.status, [...at, 'conditions', i, 'status']) ?? ''}
    for (const f of ['reason', 'message'] as const) {
      const s = ctx.string(m[f], [...at, 'conditions', i, f])
      if (s !== undefined) out[f] = s
    }
    for (const f of ['lastProbeTime', 'lastTransitionTime'] as const) {
      const t = ctx.time(m[f], [...at, 'conditions', i, f])
      if (t !== undefined) out[f] = t
    }
    return out
  })
  const time = (f: string) => (unset(status[f]) ? undefined : ctx.time(status[f], [...at, f]))
  const str = (f: string) => (unset(status[f]) ? undefined : ctx.string(status[f], [...at, f]))
  const view: JobStatusView = {conditions, active: int('active') ?? 0, succeeded: int('succeeded') ?? 0, failed: int('failed') ?? 0}
  const startTime = time('startTime')
  if (startTime !== undefined) view.startTime = startTime
  const completionTime = time('completionTime')
  if (completionTime !== undefined) view.completionTime = completionTime
  const ready = int('ready')
  if (ready !== undefined) view.ready = ready
  const terminating = int('terminating')
  if (terminating !== undefined) view.terminating = terminating
  const completedIndexes = str('completedIndexes')
  if (completedIndexes !== undefined) view.completedIndexes = completedIndexes
  const failedIndexes = str('failedIndexes')
  if (failedIndexes !== undefined) view.failedIndexes = failedIndexes
  const u = unset(status.uncountedTerminatedPods) ? undefined : ctx.mapping(status.uncountedTerminatedPods, [...at, 'uncountedTerminatedPods'])
  if (u) {
    const uids = (f: string) => list(ctx, u[f], [...at, 'uncountedTerminatedPods', f]).map((x, i) => ctx.string(x, [...at, 'uncountedTerminatedPods', f, i]) ?? '')
    view.uncountedTerminatedPods = {succeeded: uidList(uids('succeeded')), failed: uidList(uids('failed'))}
  }
  return view
}

const NO_SIDECARS: ReadonlySet<unknown> = new Set()
/** What most pods carry, shared by every pod read (nothing changes a pod's fields once read). */
const NONE: readonly never[] = Object.freeze([])
const TRACKING_ONLY: readonly string[] = Object.freeze([JOB_TRACKING_FINALIZER])

/** A pod's finalizers: the strings of the list; none, or the tracking finalizer alone, shared. */
function finalizersOf(v: unknown): readonly string[] {
  if (!Array.isArray(v) || v.length === 0) return NONE
  if (v.length === 1 && v[0] === JOB_TRACKING_FINALIZER) return TRACKING_ONLY
  return v.filter((f): f is string => typeof f === 'string')
}

interface ContainerWalk {
  terminated: TerminatedContainer[] | undefined
  allTerminated: boolean
  totalRestarts: number
  sawContainer: boolean
}

/** One list of container statuses: restarts summed, terminated containers listed; a regular container or a sidecar counts towards all terminated. */
function walkStatuses(statuses: unknown, init: boolean, sidecars: ReadonlySet<unknown>, w: ContainerWalk): void {
  if (!Array.isArray(statuses)) return
  for (const s of statuses) {
    if (!isMapping(s)) continue
    if (typeof s.restartCount === 'number') w.totalRestarts += s.restartCount
    const t = isMapping(s.state) && isMapping(s.state.terminated) ? s.state.terminated : undefined
    const counts = !init || sidecars.has(s.name)
    if (counts) w.sawContainer = true
    if (!t) {
      if (counts) w.allTerminated = false
      continue
    }
    const c: TerminatedContainer = {name: String(s.name ?? ''), exitCode: typeof t.exitCode === 'number' ? t.exitCode : 0, init}
    if (typeof t.finishedAt === 'string') c.finishedAt = t.finishedAt
    ;(w.terminated ??= []).push(c)
  }
}

type PodCondition = PodBatchFields['conditions'][number]

/**
 * A list of conditions by its types and statuses, shared by every pod whose list reads alike (most
 * pods of a Job: Running and Ready), with the pod fields that hold it and nothing else of note.
 */
interface SharedConditions {
  list: readonly PodCondition[]
  /** The plain fields holding it, by finalizers: none, the tracking finalizer alone. */
  plain: [{batch: PodBatchFields} | undefined, {batch: PodBatchFields} | undefined]
}
const NO_CONDITIONS: SharedConditions = {list: NONE as readonly PodCondition[], plain: [undefined, undefined]}
/** Bounded: lists of other shapes than the first so many are each a pod's own. */
const SHARED_CONDITIONS = new Map<string, SharedConditions>()
const MAX_SHARED_CONDITIONS = 1024

/**
 * A pod's conditions as the Job controller reads them: each one's type and status
 * (podFailurePolicy's onPodConditions), and the transition time only of the first Ready condition
 * when it is False (getFinishedTime reads no other). A list without that time is shared.
 */
function conditionsOf(v: unknown): SharedConditions | PodCondition[] {
  if (!Array.isArray(v) || v.length === 0) return NO_CONDITIONS
  // Most pods read like the pod before: that list is tried first, with no key to build.
  if (lastShared !== undefined && readsAs(v, lastShared.list)) return lastShared
  let key = ''
  let seenReady = false
  let timed = false
  let any = false
  for (const c of v) {
    if (!isMapping(c)) continue
    any = true
    const type = String(c.type ?? '')
    const status = String(c.status ?? '')
    if (type === 'Ready' && !seenReady) {
      seenReady = true
      if (status === 'False' && typeof c.lastTransitionTime === 'string') timed = true
    }
    if (!timed) key += `${type.length}:${type}${status.length}:${status}`
  }
  if (!any) return NO_CONDITIONS
  if (!timed) {
    const known = SHARED_CONDITIONS.get(key)
    if (known) return (lastShared = known)
  }
  const list: PodCondition[] = []
  seenReady = false
  for (const c of v) {
    if (!isMapping(c)) continue
    const out: PodCondition = {type: String(c.type ?? ''), status: String(c.status ?? '')}
    if (out.type === 'Ready' && !seenReady) {
      seenReady = true
      if (out.status === 'False' && typeof c.lastTransitionTime === 'string') out.lastTransitionTime = c.lastTransitionTime
    }
    list.push(timed ? out : Object.freeze(out))
  }
  if (timed || SHARED_CONDITIONS.size >= MAX_SHARED_CONDITIONS) return list
  const shared: SharedConditions = {list: Object.freeze(list), plain: [undefined, undefined]}
  SHARED_CONDITIONS.set(key, shared)
  return (lastShared = shared)
}

let lastShared: SharedConditions | undefined

/** Whether the conditions read as the shared list does: the same types and statuses, in order, and no time to keep. */
function readsAs(v: readonly unknown[], list: readonly PodCondition[]): boolean {
  let k = 0
  let seenReady = false
  for (const c of v) {
    if (!isMapping(c)) continue
    const l = list[k++]
    if (l === undefined) return false
    const type = String(c.type ?? '')
    const status = String(c.status ?? '')
    if (l.type !== type || l.status !== status) return false
    if (type === 'Ready' && !seenReady) {
      seenReady = true
      if (status === 'False' && typeof c.lastTransitionTime === 'string') return false
    }
  }
  return k === list.length
}

/** The fields of a pod only the Job controller reads (its finalizers, conditions and terminated containers). */
export function podBatchFields(meta: RawObject, spec: RawObject, status: RawObject): PodBatchFields {
  return batchFieldsOf(meta, spec, status).batch
}

/**
 * podBatchFields as a pod's fields. A pod with no terminated container, no restart, no grace
 * period, a shared list of conditions and no finalizer but the tracking one (a running pod of a
 * Job) shares them, frozen, with every pod alike: pods are many and kept until the plan is written.
 */
function batchFieldsOf(meta: RawObject, spec: RawObject, status: RawObject): {batch: PodBatchFields} {
  const finalizers = finalizersOf(meta.finalizers)
  const conditions = conditionsOf(status.conditions)
  const sidecars = Array.isArray(spec.initContainers) && spec.initContainers.length > 0 ? new Set(spec.initContainers.filter((c) => isMapping(c) && c.restartPolicy === 'Always').map((c) => (c as RawObject).name)) : NO_SIDECARS
  const walk: ContainerWalk = {terminated: undefined, allTerminated: true, totalRestarts: 0, sawContainer: false}
  walkStatuses(status.containerStatuses, false, sidecars, walk)
  walkStatuses(status.initContainerStatuses, true, sidecars, walk)
  const allTerminated = walk.allTerminated && walk.sawContainer
  const grace = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds : undefined
  if (!Array.isArray(conditions) && walk.terminated === undefined && !allTerminated && walk.totalRestarts === 0 && grace === undefined && (finalizers === NONE || finalizers === TRACKING_ONLY)) {
    const i = finalizers === NONE ? 0 : 1
    return (conditions.plain[i] ??= Object.freeze({batch: Object.freeze({finalizers, conditions: conditions.list, terminated: NONE, allTerminated: false, totalRestarts: 0})}))
  }
  const out: PodBatchFields = {finalizers, conditions: Array.isArray(conditions) ? conditions : conditions.list, terminated: walk.terminated ?? NONE, allTerminated, totalRestarts: walk.totalRestarts}
  if (grace !== undefined) out.deletionGracePeriodSeconds = grace
  return {batch: out}
}
