// The random differential oracle for Jobs: seeded random worlds of one to three Jobs each —
// NonIndexed and Indexed, completions (unset included) and parallelism (0 included), backoffLimit,
// backoffLimitPerIndex with maxFailedIndexes, pod failure policies (FailJob, Ignore, Count, FailIndex
// on exit codes In/NotIn and on the DisruptionTarget condition), successPolicy, restartPolicy
// OnFailure with restarts, suspend (newly, and already with its Suspended condition), an active
// deadline passed or not, ttlSecondsAfterFinished, podReplacementPolicy, manualSelector; pods in
// every phase, ready or not, with and without the tracking finalizer, some being deleted (held by a
// finalizer of their own or by the tracking one), duplicate and out-of-range indexes, orphans to
// adopt and owned pods whose labels no longer match; a status partly counted (uncountedTerminatedPods,
// completedIndexes, failedIndexes, a pending FailureTarget or SuccessCriteriaMet) or finished — built
// on the real control plane while no controller runs, planned live by `kctl plan --now`, then synced
// by kube-controller-manager running the `job` and `ttl-after-finished` controllers with one worker
// each. Each Job's first sync must be its plan, write for write: every status write (counts, indexes,
// uncounted UIDs, conditions with reasons and messages, startTime and completionTime present or
// not), the pods created (generateName, labels, annotations, finalizers, hostname, owner), deleted,
// adopted and released (by name), the tracking finalizers removed (by name), and the TTL's delete.
// Where the controller's pick is not decided — among pods tied in its deletion order (the plan's
// `ties`, those sharing a pod taken as one), or a value taken from whichever pod its informer lists first (the plan's `choices`, e.g.
// which FailJob pod the FailureTarget message names) — any pick the plan names agrees.
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/job-random.e2e.test.ts
//
// Excluded by construction, because the outcome depends on when the controller syncs or on the
// order of its informer's lists:
// - a backoff ending during the run: a failure finished either 30 min before the world was built
//   (every backoff, at most 10 min, is over) or is stamped 10 min ahead of the clock (a kubelet's
//   clock ahead: its backoff is not over during the run); a pod being deleted, which may count as
//   failed, is not ready since such a time (its finish time: getFinishedTime);
// - an active deadline or a TTL expiring during the run (a deadline is 1 min, passed, or 1 day;
//   a Job finished 10 min ago with a TTL of 0 s, 1 min or 1 day);
// - two failed pods of one index neither of which is ahead of the other in both failure count and
//   finish time (which one is held back follows the lister's order): an index's failures come one
//   after another, each with a higher count;
// - an orphan carrying the tracking finalizer (the orphan worker and the adopting sync race for it);
// - a pod to release that is being deleted and held by the tracking finalizer alone (the release
//   patch deletes it, and the watch cannot tell its release from a finalizer removal).
// Events are not compared. A disagreement prints the world, both sides and a replay command.
import {afterAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {canonical, observeSyncs, plannedSync, sortedSync, type SyncSeen} from './job-syncs.js'
import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, newNamespace} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Json = Record<string, any>
type Rnd = () => number

/** Worlds per namespace and per run of the controllers: BATCH. */
const {seed: SEED, count: COUNT, first: FIRST, batch: BATCH} = oracleSettings({seed: 20261127, count: 100, batch: 100})
const TRACKING = 'batch.kubernetes.io/job-tracking'
const HOLD = 'example.com/hold'
const INDEX = 'batch.kubernetes.io/job-completion-index'
const FAILURES = 'batch.kubernetes.io/job-index-failure-count'
const MIN = 60_000

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const chance = (r: Rnd, p: number) => r() < p
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed'
interface PodW {
  name: string
  phase: Phase
  index?: number
  failureCount?: number
  ready?: boolean
  /** Seconds before the world's clock the pod became ready. */
  readyAgo?: number
  restarts?: number
  exitCode?: number
  disruption?: boolean
  /** When it finished: 'old' (30 min ago) or 'ahead' (10 min ahead of the clock); `step` orders an index's failures. */
  finished?: {when: 'old' | 'ahead'; step: number}
  finalizer: boolean
  /** Deleted: held by a finalizer of its own, or by the tracking one alone. */
  terminating?: 'hold' | 'tracking'
  owner: 'mine' | 'none'
  /** Owned, its labels changed so that the selector no longer matches. */
  mismatch?: boolean
  /** Listed in status.uncountedTerminatedPods (a finished pod that still has its finalizer). */
  uncounted?: boolean
}
interface JobW {
  name: string
  spec: Json
  manual: boolean
  state: 'new' | 'running' | 'complete' | 'failed'
  /** A pending terminal condition already written. */
  pendingCondition?: 'FailureTarget' | 'SuccessCriteriaMet'
  /** spec.suspend with the Suspended condition already True. */
  alreadySuspended?: boolean
  extraSucceeded: number
  extraFailed: number
  failedIndexes: number[]
  pods: PodW[]
  /** The status counters as written (active, ready, terminating), or left unset. */
  counters?: 'exact' | 'stale' | 'unset'
}
interface World {
  index: number
  jobs: JobW[]
}

const EXIT_CODES = [1, 2, 3, 42, 137]

function drawPolicy(r: Rnd, perIndex: boolean): Json {
  const rules: Json[] = []
  for (let n = int(r, 1, 3); rules.length < n; ) {
    const action = pick(r, perIndex ? ['FailJob', 'Ignore', 'Count', 'FailIndex', 'FailIndex'] : ['FailJob', 'Ignore', 'Count', 'Count'])
    if (chance(r, 0.25)) rules.push({action, onPodConditions: [{type: 'DisruptionTarget', status: 'True'}]})
    else {
      const values = [...new Set([pick(r, EXIT_CODES), pick(r, EXIT_CODES)])].sort((a, b) => a - b)
      rules.push({action, onExitCodes: {...(chance(r, 0.3) ? {containerName: 'main'} : {}), operator: chance(r, 0.75) ? 'In' : 'NotIn', values}})
    }
  }
  return {rules}
}

/** The seven shapes where kctl and the controller once differed, drawn more often than chance would. */
const SHAPES = ['any', 'any', 'any', 'bare-excess', 'suspended', 'finish-deleting', 'held-before-manage', 'held-while-failing', 'indexes-in-backoff', 'onfailure-terminating'] as const

function generateJob(r: Rnd, name: string): JobW {
  const shape = pick(r, SHAPES)
  const indexed = ['held-before-manage', 'held-while-failing', 'indexes-in-backoff'].includes(shape) || (shape === 'any' && chance(r, 0.5))
  const onFailure = shape === 'onfailure-terminating' || (!indexed && shape === 'any' && chance(r, 0.15))
  const spec: Json = {}
  if (indexed) spec.completionMode = 'Indexed'
  else if (chance(r, 0.3)) spec.completionMode = 'NonIndexed'
  const completions = indexed ? int(r, 1, 5) : shape === 'finish-deleting' ? int(r, 1, 2) : pick(r, [undefined, 1, 2, 3, 5])
  if (completions !== undefined) spec.completions = completions
  spec.parallelism = shape === 'bare-excess' ? int(r, 0, 1) : shape === 'finish-deleting' ? 3 : chance(r, 0.06) ? 0 : int(r, 1, 4)
  if (chance(r, 0.6)) spec.backoffLimit = shape === 'onfailure-terminating' ? int(r, 2, 4) : pick(r, [0, 1, 2, 3, 6, 6])
  const perIndex = indexed && (['held-before-manage', 'held-while-failing', 'indexes-in-backoff'].includes(shape) || chance(r, 0.5))
  if (perIndex) {
    spec.backoffLimitPerIndex = shape === 'indexes-in-backoff' ? int(r, 3, 6) : int(r, 0, 2)
    if (chance(r, 0.4)) spec.maxFailedIndexes = int(r, 0, completions!)
  }
  if (!onFailure && chance(r, 0.35)) spec.podFailurePolicy = drawPolicy(r, perIndex)
  if (spec.podFailurePolicy) {
    if (chance(r, 0.5)) spec.podReplacementPolicy = 'Failed'
  } else if (chance(r, 0.35)) spec.podReplacementPolicy = pick(r, ['Failed', 'TerminatingOrFailed'])
  if (indexed && chance(r, 0.15)) {
    const c = completions!
    const upTo = int(r, 0, c - 1)
    spec.successPolicy = {rules: [pick(r, [{succeededIndexes: upTo > 0 ? `0-${upTo}` : '0'}, {succeededCount: int(r, 1, c)}, {succeededIndexes: String(c - 1), succeededCount: 1}])]}
  }
  if (shape === 'held-while-failing' || chance(r, 0.12)) spec.activeDeadlineSeconds = shape === 'held-while-failing' ? 60 : pick(r, [60, 86_400])
  const manual = chance(r, 0.2)
  const restartPolicy = onFailure ? 'OnFailure' : 'Never'
  spec.template = {metadata: {labels: {app: name}}, spec: {restartPolicy, containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}
  if (manual) {
    spec.manualSelector = true
    spec.selector = {matchLabels: {app: name}}
  }
  const state = shape !== 'any' ? 'running' : pick(r, ['new', 'new', 'running', 'running', 'running', 'running', 'complete', 'failed'] as const)
  if (chance(r, state === 'complete' || state === 'failed' ? 0.7 : 0.15)) spec.ttlSecondsAfterFinished = pick(r, [0, 60, 86_400])
  const job: JobW = {name, spec, manual, state, extraSucceeded: 0, extraFailed: 0, failedIndexes: [], pods: [], counters: pick(r, ['exact', 'stale', 'unset'] as const)}
  if (shape === 'suspended' || (state === 'running' && chance(r, 0.12))) {
    spec.suspend = true
    job.alreadySuspended = shape === 'suspended' ? chance(r, 0.6) : chance(r, 0.4)
  }
  if (state === 'new') {
    if (chance(r, 0.3)) spec.suspend = true
    if (chance(r, 0.3)) job.pods.push(orphan(r, `${name}-o0`))
    return job
  }
  let n = 0
  const podName = () => `${name}-p${n++}`
  const finishedPod = (phase: 'Succeeded' | 'Failed', o: Partial<PodW> = {}): PodW => {
    const finalizer = state === 'running' ? chance(r, 0.75) : chance(r, 0.3)
    const p: PodW = {name: podName(), phase, owner: 'mine', finalizer, finished: {when: chance(r, 0.7) ? 'old' : 'ahead', step: 0}, ...o}
    if (phase === 'Failed') {
      p.exitCode = pick(r, EXIT_CODES)
      if (chance(r, 0.2)) p.disruption = true
    }
    if (p.finalizer && state === 'running' && chance(r, 0.2)) p.uncounted = true
    return p
  }
  const activePod = (o: Partial<PodW> = {}): PodW => {
    const phase: Phase = chance(r, 0.3) ? 'Pending' : 'Running'
    const p: PodW = {name: podName(), phase, owner: 'mine', finalizer: chance(r, shape === 'bare-excess' ? 0.5 : 0.85), ...o}
    if (p.phase === 'Running') {
      p.ready = chance(r, 0.6)
      p.readyAgo = int(r, 1, 20) * 7
      if (onFailure || chance(r, 0.2)) p.restarts = int(r, 0, 3)
    }
    if (chance(r, shape === 'onfailure-terminating' ? 0.5 : 0.1)) {
      p.terminating = p.finalizer && chance(r, 0.4) ? 'tracking' : 'hold'
      // Not ready since a time away from any backoff's edge: its finish time, should it count as failed.
      p.ready = false
      p.finished = {when: chance(r, 0.5) ? 'old' : 'ahead', step: 0}
    }
    return p
  }
  if (indexed) {
    const c = completions!
    for (let i = 0; i < c; i++) {
      const kind = pick(r, ['none', 'active', 'active', 'succeeded', 'failures', 'failures', 'dup'] as const)
      if (kind === 'none') continue
      if (kind === 'succeeded') {
        job.pods.push(finishedPod('Succeeded', {index: i, failureCount: perIndex ? 0 : undefined}))
        continue
      }
      const k = kind === 'failures' ? int(r, 1, shape === 'indexes-in-backoff' ? 2 : 3) : 0
      const when = chance(r, shape === 'indexes-in-backoff' ? 0.6 : 0.35) ? 'ahead' : 'old'
      for (let j = 0; j < k; j++) job.pods.push(finishedPod('Failed', {index: i, failureCount: perIndex ? j : undefined, finished: {when, step: j - k}}))
      if (kind === 'active' || kind === 'dup' || chance(r, 0.3)) job.pods.push(activePod({index: i, failureCount: perIndex ? k : undefined}))
      if (kind === 'dup') {
        // A second pod of the index: as the first, or set apart from it in state.
        const first = job.pods.at(-1)!
        if (chance(r, 0.5)) job.pods.push({...first, name: podName()})
        else job.pods.push(activePod({index: i, failureCount: first.failureCount, phase: first.phase === 'Pending' ? 'Running' : 'Pending', ready: first.phase === 'Pending' ? true : undefined, readyAgo: 3}))
      }
      if (perIndex && kind === 'failures' && chance(r, 0.2) && !job.pods.some((p) => p.index === i && p.phase !== 'Failed')) job.failedIndexes.push(i)
    }
    if (chance(r, 0.08)) job.pods.push(activePod({index: c}))
  } else {
    const k = shape === 'bare-excess' ? int(r, 2, 4) : shape === 'onfailure-terminating' ? int(r, 1, 3) : int(r, 0, 5)
    for (let j = 0; j < k; j++) job.pods.push(activePod())
    if (shape === 'finish-deleting') job.pods.push(finishedPod('Succeeded', {finalizer: true}))
    const f = shape === 'onfailure-terminating' ? 0 : int(r, 0, 2)
    const when = chance(r, 0.35) ? 'ahead' : 'old'
    for (let j = 0; j < f; j++) job.pods.push(finishedPod('Failed', {finished: {when, step: j - f}}))
    for (let j = int(r, 0, 2); j > 0; j--) job.pods.push(finishedPod('Succeeded'))
  }
  if (state === 'running' && chance(r, 0.15)) job.pods.push(orphan(r, podName(), indexed ? int(r, 0, completions! - 1) : undefined))
  const releasable = job.pods.filter((p) => p.terminating !== 'tracking')
  if (state === 'running' && manual && chance(r, 0.3) && releasable.length > 0) pick(r, releasable).mismatch = true
  if (state === 'running') {
    job.extraSucceeded = indexed ? 0 : chance(r, 0.2) ? int(r, 1, 2) : 0
    job.extraFailed = chance(r, 0.15) ? int(r, 1, 3) : 0
    if (chance(r, 0.06)) job.pendingCondition = indexed && spec.successPolicy && chance(r, 0.5) ? 'SuccessCriteriaMet' : 'FailureTarget'
  }
  return job
}

/** A pod no controller owns, labelled for the Job (never with the tracking finalizer: see the header). */
function orphan(r: Rnd, name: string, index?: number): PodW {
  return {name, phase: pick(r, ['Pending', 'Running', 'Succeeded'] as const), owner: 'none', finalizer: false, index, ready: chance(r, 0.5), readyAgo: 11, finished: {when: 'old', step: 0}}
}

function generate(r: Rnd, index: number): World {
  const jobs: JobW[] = []
  for (let k = int(r, 1, 3), j = 0; j < k; j++) jobs.push(generateJob(r, `w${index}-j${j}`))
  return {index, jobs}
}

/** `0,2-4` from a list of indexes. */
function intervals(xs: number[]): string {
  const s = [...new Set(xs)].sort((a, b) => a - b)
  const out: string[] = []
  for (let i = 0; i < s.length; ) {
    let j = i
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++
    out.push(j === i ? String(s[i]) : `${s[i]}-${s[j]}`)
    i = j + 1
  }
  return out.join(',')
}

const isActive = (p: PodW) => (p.phase === 'Pending' || p.phase === 'Running') && !p.terminating
const finishAt = (p: PodW, t0: number) => (p.finished!.when === 'old' ? t0 - 30 * MIN : t0 + 10 * MIN) + p.finished!.step * 20_000

async function buildPod(ns: string, j: Json, w: JobW, p: PodW, t0: number): Promise<Json> {
  const labels: Json = p.mismatch ? {...j.spec.template.metadata.labels, app: `${w.name}-gone`} : {...j.spec.template.metadata.labels}
  if (p.mismatch && !w.manual) delete labels['batch.kubernetes.io/controller-uid']
  const annotations: Json = {}
  if (p.index !== undefined) labels[INDEX] = annotations[INDEX] = String(p.index)
  if (p.failureCount !== undefined) annotations[FAILURES] = String(p.failureCount)
  const finalizers = [...(p.finalizer ? [TRACKING] : []), ...(p.terminating === 'hold' ? [HOLD] : [])]
  const owner = p.owner === 'mine' ? [{apiVersion: 'batch/v1', kind: 'Job', name: w.name, uid: j.metadata.uid, controller: true, blockOwnerDeletion: true}] : undefined
  const pod = await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: p.name, labels, annotations, finalizers, ...(owner ? {ownerReferences: owner} : {})},
      spec: {restartPolicy: j.spec.template.spec.restartPolicy, containers: [{name: 'main', image: 'registry.invalid/job:1'}]},
    },
  })
  const restartCount = p.restarts ?? 0
  let status: Json | undefined
  if (p.phase === 'Running') {
    const at = iso(p.terminating ? finishAt(p, t0) : t0 - (p.readyAgo ?? 5) * 1000)
    status = {
      phase: 'Running',
      conditions: [{type: 'Ready', status: p.ready ? 'True' : 'False', lastTransitionTime: at}],
      containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: Boolean(p.ready), restartCount, state: {running: {startedAt: at}}}],
    }
  } else if (p.phase === 'Pending' && p.terminating) {
    status = {conditions: [{type: 'Ready', status: 'False', lastTransitionTime: iso(finishAt(p, t0))}]}
  } else if (p.phase === 'Succeeded' || p.phase === 'Failed') {
    const at = iso(finishAt(p, t0))
    const exitCode = p.phase === 'Succeeded' ? 0 : (p.exitCode ?? 1)
    status = {
      phase: p.phase,
      conditions: [{type: 'Ready', status: 'False', lastTransitionTime: at}, ...(p.disruption ? [{type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', lastTransitionTime: at}] : [])],
      containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: false, restartCount, state: {terminated: {exitCode, startedAt: at, finishedAt: at}}}],
    }
  }
  if (status) await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${p.name}/status`, {contentType: 'application/merge-patch+json', body: {status}})
  if (p.terminating) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
  return pod
}

/** The Job's status as the world has it; the API server's validation may refuse a world's status, then a plainer one is written. */
function statusOf(w: JobW, uids: Map<string, string>, t0: number): Json {
  const indexed = w.spec.completionMode === 'Indexed'
  const owned = w.pods.filter((p) => p.owner === 'mine')
  const counted = (phase: Phase) => owned.filter((p) => p.phase === phase && !p.finalizer && !p.terminating)
  const status: Json = {startTime: iso(t0 - 10 * MIN)}
  const completed = indexed ? intervals(counted('Succeeded').map((p) => p.index!).filter((i) => !w.failedIndexes.includes(i))) : ''
  status.succeeded = indexed ? (completed ? completed.split(',').reduce((n, s) => n + (s.includes('-') ? Number(s.split('-')[1]) - Number(s.split('-')[0]) + 1 : 1), 0) : 0) : counted('Succeeded').length + w.extraSucceeded
  if (indexed) status.completedIndexes = completed
  status.failed = counted('Failed').length + w.extraFailed
  if (w.spec.backoffLimitPerIndex !== undefined) status.failedIndexes = intervals(w.failedIndexes)
  const active = owned.filter(isActive)
  if (w.counters !== 'unset') {
    status.active = w.counters === 'exact' ? active.length : Math.max(0, active.length - 1)
    status.ready = w.counters === 'exact' ? active.filter((p) => p.ready).length : 0
    status.terminating = w.counters === 'exact' ? owned.filter((p) => p.terminating && p.phase !== 'Succeeded' && p.phase !== 'Failed').length : 0
  }
  const uncounted = (phase: Phase) => owned.filter((p) => p.uncounted && p.phase === phase).map((p) => uids.get(p.name)!)
  status.uncountedTerminatedPods = {succeeded: uncounted('Succeeded'), failed: uncounted('Failed')}
  const cond = (type: string, reason: string, message: string, at = iso(t0 - 10 * MIN)) => ({type, status: 'True', reason, message, lastProbeTime: at, lastTransitionTime: at})
  const conditions: Json[] = []
  if (w.alreadySuspended) conditions.push(cond('Suspended', 'JobSuspended', 'Job suspended', iso(t0 - 5 * MIN)))
  if (w.pendingCondition === 'FailureTarget') conditions.push(cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'))
  if (w.pendingCondition === 'SuccessCriteriaMet') conditions.push(cond('SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'))
  if (w.state === 'complete') {
    const c = w.spec.completions
    if (indexed) {
      status.completedIndexes = c > 1 ? `0-${c - 1}` : '0'
      status.succeeded = c
      if (status.failedIndexes !== undefined) status.failedIndexes = ''
    } else status.succeeded = Math.max(status.succeeded, c ?? 1)
    conditions.push(cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'), cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'))
    status.completionTime = iso(t0 - 10 * MIN)
  }
  if (w.state === 'failed') conditions.push(cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'), cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'))
  if (w.state === 'complete' || w.state === 'failed') {
    status.active = 0
    status.terminating = 0
    status.ready = 0
    status.uncountedTerminatedPods = {}
  }
  status.conditions = conditions
  return status
}

/** Statuses the API server refused (a plainer one was written instead). */
let refusedStatuses = 0

async function build(ns: string, world: World, t0: number): Promise<void> {
  for (const w of world.jobs) {
    const j = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: w.name}, spec: w.spec}})
    const uids = new Map<string, string>()
    for (const p of w.pods) uids.set(p.name, (await buildPod(ns, j, w, p, t0)).metadata.uid)
    for (const [name, uid] of uids) podUids.set(name, uid)
    if (w.state === 'new') continue
    const path = `/apis/batch/v1/namespaces/${ns}/jobs/${w.name}/status`
    const full = statusOf(w, uids, t0)
    const r = await api('PATCH', path, {contentType: 'application/merge-patch+json', body: {status: full}})
    if (r.status >= 300) {
      refusedStatuses++
      const {conditions: _c, uncountedTerminatedPods: _u, ...plain} = full
      const kept = (full.conditions as Json[]).filter((c) => c.type === 'Suspended')
      await apiOk('PATCH', path, {contentType: 'application/merge-patch+json', body: {status: {...plain, conditions: kept, completionTime: undefined}}})
    }
  }
}

/**
 * A side's sync with the pods of the plan's ties named by their group: any pick of the tied pods
 * agrees, as long as it deletes (and patches) as many of them as the plan does.
 */
/** Every built pod's uid by name (pod names are unique across the run's worlds). */
const podUids = new Map<string, string>()

function untied(s: SyncSeen, cp: Json): SyncSeen {
  // Ties that share a pod are one: a duplicated index's tie decides which pod is left to rank for
  // the excess, so the pods a later tie names depend on the earlier pick.
  const group = new Map<string, string>()
  for (const t of cp.ties ?? []) {
    const joined = new Set([`tie${t.id}`, ...t.pods.flatMap((p: string) => (group.has(p) ? [group.get(p)!] : []))])
    for (const [p, g] of group) if (joined.has(g)) group.set(p, `tie${t.id}`)
    for (const p of t.pods) group.set(p, `tie${t.id}`)
  }
  const name = (p: string) => group.get(p) ?? p
  // A value picked by list order (the plan's `choices`): any of its options agrees.
  const choice = new Map<string, string>()
  for (const [k, c] of (cp.choices ?? []).entries()) for (const v of c.options) choice.set(v, `choice${k}`)
  // A pod picked by list order (the failed pod an open index keeps with its finalizer): any of the
  // options agrees, in the finalizers removed and in the uncounted pods' uids alike.
  const picked = new Map<string, string>()
  for (const [k, c] of (cp.choices ?? []).entries()) {
    if (!c.options.every((v: string) => podUids.has(v))) continue
    for (const v of c.options) picked.set(v, `choice${k}`).set(podUids.get(v)!, `choice${k}`)
  }
  const pick = (v: string) => picked.get(v) ?? v
  const writes = s.writes.map((w) => ({
    ...w,
    conditions: (w.conditions ?? []).map((c: Json) => (choice.has(c.message) ? {...c, message: choice.get(c.message)} : c)),
    ...(w.uncountedTerminatedPods
      ? {uncountedTerminatedPods: {succeeded: (w.uncountedTerminatedPods.succeeded ?? []).map(pick), failed: (w.uncountedTerminatedPods.failed ?? []).map(pick)}}
      : {}),
  }))
  // The finalizer patch before a tied pod's delete comes with the pod picked (only a pod with the finalizer gets one).
  const patched = s.finalizersRemoved.filter((p) => !(group.has(p) && s.deleted.includes(p)))
  return {...s, writes, deleted: s.deleted.map(name), finalizersRemoved: patched.map((p) => pick(name(p)))}
}

const tally = {worlds: 0, agree: 0, jobs: 0, created: 0, deleted: 0, finalizers: 0, writes: 0, adopted: 0, released: 0, ttl: 0, ties: 0, disagreements: [] as string[]}

describe(`random Job worlds (seed ${SEED}, ${COUNT} worlds from ${FIRST}) against the job and ttl-after-finished controllers`, () => {
  afterAll(async () => {
    await controllerManager.stop()
  })

  for (let first = FIRST; first < FIRST + COUNT; first += BATCH) {
    const last = Math.min(FIRST + COUNT, first + BATCH)
    it(`worlds ${first}–${last - 1}: every Job's first sync is its plan`, async () => {
      // This batch's own disagreements: the tally runs across batches.
      const disagreedBefore = tally.disagreements.length
      await controllerManager.stop()
      const ns = await newNamespace('jobrand')
      const t0 = Math.floor(Date.now() / 1000) * 1000
      const worlds: World[] = []
      for (let i = first; i < last; i++) worlds.push(generate(prng(SEED * 7919 + i), i))
      // Built ten at a time: the API server takes them in parallel.
      for (let i = 0; i < worlds.length; i += 10) await Promise.all(worlds.slice(i, i + 10).map((w) => build(ns, w, t0)))
      const plan = await planJson(['-n', ns, '--now', new Date().toISOString()])
      const plans = new Map<string, Json>(plan.controllers.filter((c: Json) => c.kind === 'Job').map((c: Json) => [c.name, c]))
      const names = worlds.flatMap((w) => w.jobs.map((j) => j.name))
      expect(names.filter((n) => !plans.has(n)), 'every Job is planned').toEqual([])
      const seen = await observeSyncs(ns, names.map((n) => plans.get(n)!), {
        controllers: ['job', 'ttl-after-finished'],
        extraArgs: ['--concurrent-job-syncs=1', '--concurrent-ttl-after-finished-syncs=1'],
        timeoutMs: 60_000,
      })
      for (const w of worlds) {
        tally.worlds++
        const bad: string[] = []
        for (const j of w.jobs) {
          const cp = plans.get(j.name)!
          const deleting = new Set(j.pods.filter((p) => p.terminating).map((p) => p.name))
          const want = sortedSync(untied(plannedSync(cp, {ttl: true, deleting}), cp))
          const got = sortedSync(untied(seen.get(j.name)!, cp))
          tally.jobs++
          tally.created += want.created.length
          tally.deleted += want.deleted.length
          tally.finalizers += want.finalizersRemoved.length
          tally.writes += want.writes.length
          tally.adopted += want.adopted.length
          tally.released += want.released.length
          tally.ttl += want.jobDeleted ? 1 : 0
          tally.ties += (cp.ties?.length ?? 0) + (cp.choices?.length ?? 0)
          if (canonical(want) !== canonical(got)) {
            bad.push(`  Job ${j.name}:\n    planned:    ${JSON.stringify(want)}\n    controller: ${JSON.stringify(got)}\n    plan: ${JSON.stringify({actions: cp.actions.map((a: Json) => `${a.type}${a.write ?? ''}:${a.pod ?? a.index ?? a.name ?? ''}${a.by ? `(${a.by})` : ''}`), requeue: cp.requeue, ties: cp.ties, choices: cp.choices, warnings: cp.warnings})}`)
          }
        }
        if (bad.length === 0) tally.agree++
        else {
          const replay = `KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_FIRST=${w.index} KCTL_ORACLE_COUNT=1 npx vitest run --project e2e test/e2e/job-random.e2e.test.ts`
          tally.disagreements.push(`world ${w.index} (replay: ${replay})\n  world: ${JSON.stringify(w)}\n${bad.join('\n')}`)
          process.stderr.write(`[job-random] world ${w.index} disagrees; replay: ${replay}\n`)
        }
      }
      // No garbage collector runs here: Jobs deleted Foreground and pods held by finalizers are let go by hand.
      await api('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs?propagationPolicy=Background`).catch(() => {})
      for (const j of (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).items) {
        await api('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/${j.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
      }
      const pods = (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items.filter((p: Json) => p.metadata.finalizers?.length)
      for (let i = 0; i < pods.length; i += 20) {
        await Promise.all(pods.slice(i, i + 20).map((p: Json) => api('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})))
      }
      await api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})
      process.stderr.write(
        `[job-random] seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.jobs} Jobs: ${tally.writes} status writes, ${tally.created} pods created, ${tally.deleted} deleted, ` +
          `${tally.finalizers} finalizers removed, ${tally.adopted} adopted, ${tally.released} released, ${tally.ttl} TTL deletes, ${tally.ties} ties and choices; ${refusedStatuses} statuses refused)\n`,
      )
      const mine = tally.disagreements.slice(disagreedBefore)
      expect(mine, mine.join('\n')).toEqual([])
    }, 900_000)
  }
})
