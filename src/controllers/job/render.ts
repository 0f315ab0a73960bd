// The table view of a Job's or CronJob's plan: the header with the state in a few words, one line
// per write in the controller's order (status writes as field changes), the requeue, and for a
// CronJob the Job it creates with that Job's first sync under it.
import type {ChalkInstance} from 'chalk'
import type {Action, AdoptAction, BatchAction, ControllerPlan, ReleaseAction, Requeue} from '../../model/plan.js'
import type {JobStatusView} from './model.js'
import type {CronJobStatusView} from '../cronjob/model.js'
import {count} from '../../render/words.js'

/** Creates of one Job are listed one per line up to this many, then counted. */
const MAX_CREATE_LINES = 5

const DELETE_WORDS: Record<string, string> = {
  finished: 'the Job is finishing: its active pods go (finalizer kept, so the pod is counted)',
  suspended: 'the Job is suspended (finalizer removed first: not counted)',
  excess: 'more active pods than wanted (ActivePods order)',
  'duplicate-index': 'a second pod of its completion index',
  'invalid-index': 'no valid completion index below completions',
}

const REQUEUE_WORDS: Record<Requeue['reason'], string> = {
  backoff: 'when the pod-failure backoff ends',
  'backoff-per-index': "when an index's backoff ends",
  'active-deadline': 'at the active deadline',
  'next-schedule': 'at the next schedule time',
  'sync-error': 'retried after the error that ends this sync (the queue backs off 1 s, 2 s, 4 s … to 1000 s; a Node event does not re-sync it)',
  'ttl-after-finished': 'when its ttlSecondsAfterFinished has passed (the ttl-after-finished controller deletes it then)',
}

const DELETE_JOB_WORDS: Record<string, string> = {
  replace: 'concurrencyPolicy Replace',
  'history-limit': 'beyond the history limit',
  'ttl-after-finished': 'its ttlSecondsAfterFinished has passed (by the ttl-after-finished controller, propagation Foreground)',
}

export function renderBatch(cp: ControllerPlan, head: string, c: ChalkInstance): string {
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  const creates = cp.actions.filter((a) => a.type === 'createJobPod')
  let createsShown = 0
  for (const a of cp.actions as (BatchAction | AdoptAction | ReleaseAction)[]) {
    if (a.type === 'createJobPod') {
      if (createsShown++ < MAX_CREATE_LINES) lines.push(c.green(`  + create pod ${a.nameBase}<random>${a.index !== undefined ? `  (index ${a.index})` : ''}`))
      else if (createsShown === MAX_CREATE_LINES + 1) lines.push(c.green(`  + … and ${count(creates.length - MAX_CREATE_LINES, 'more pod')}`))
      continue
    }
    lines.push(batchActionLine(a, c))
    if (a.type === 'createJob' && cp.then) {
      for (const job of cp.then) lines.push(indent(renderBatch(job, `${c.dim('then, in the Job controller\'s first sync of it:')}`, c), '    '))
    }
  }
  if (cp.requeue) lines.push(requeueLine(cp.requeue, c))
  for (const e of cp.events ?? []) if (e.startsWith('Warning')) lines.push(c.yellow(`  ! event ${e}`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

/** One line of a Job's or CronJob's write (also reconcile's report of it). */
export function batchActionLine(a: BatchAction | AdoptAction | ReleaseAction, c: ChalkInstance): string {
  switch (a.type) {
    case 'deleteJobPod':
      return c.red(`  - delete pod ${a.pod}  because: ${DELETE_WORDS[a.reason]}`)
    case 'removeFinalizer':
      return c.yellow(`  ~ remove finalizer of pod ${a.pod}${a.counts === 'none' ? '' : `  (counted ${a.counts})`}${a.by ? '  (by the orphan worker)' : ''}`)
    case 'createJob':
      return c.green(`  + create Job ${a.name}  (scheduled ${a.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? a.scheduledTime})`)
    case 'deleteJob':
      return c.red(`  - delete Job ${a.name}  because: ${DELETE_JOB_WORDS[a.reason]}`)
    case 'adopt':
      return c.yellow(`  ~ adopt pod ${a.pod}  (an orphan the selector matches: owner reference${a.finalizer ? ' and tracking finalizer' : ''} added)`)
    case 'release':
      return c.yellow(`  ~ release pod ${a.pod}  (the selector no longer matches: owner reference${a.finalizer ? ' and tracking finalizer' : ''} removed)`)
    case 'updateStatus':
      return c.yellow(`  ~ status${'write' in a ? ` (write ${a.write})` : ''} ${batchStatusChange(a.from, a.to)}`)
    default:
      return `  ? ${(a as Action).type}`
  }
}

/** What a Job or CronJob status write changes, field by field. */
export function batchStatusChange(from: JobStatusView | CronJobStatusView, to: JobStatusView | CronJobStatusView): string {
  const parts: string[] = []
  const f = from as unknown as Record<string, unknown>
  const t = to as unknown as Record<string, unknown>
  for (const key of [...new Set([...Object.keys(f), ...Object.keys(t)])]) {
    if (key === 'conditions') continue
    const a = show(f[key])
    const b = show(t[key])
    if (a !== b) parts.push(`${key} ${a}→${b}`)
  }
  if ('conditions' in to) {
    const before = (from as JobStatusView).conditions
    for (const x of to.conditions.slice(before.length)) parts.push(`+condition ${x.type}=${x.status} (${x.reason})`)
    to.conditions.slice(0, before.length).forEach((x, i) => {
      if (x.status !== before[i].status || x.reason !== before[i].reason) parts.push(`condition ${x.type}=${x.status} (${x.reason})`)
    })
  }
  return parts.length > 0 ? parts.join(', ') : 'rewritten with the same values'
}

function show(v: unknown): string {
  if (v === undefined) return 'unset'
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'object' && x !== null && 'name' in x ? String((x as {name: string}).name) : String(x))).join(',')}]`
  if (typeof v === 'object' && v !== null) {
    const u = v as {succeeded?: readonly string[]; failed?: readonly string[]}
    return `{succeeded:${u.succeeded?.length ?? 0},failed:${u.failed?.length ?? 0}}`
  }
  return typeof v === 'string' ? JSON.stringify(v) : String(v)
}

function seconds(s: number): string {
  const whole = Math.floor(s)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const rest = s - h * 3600 - m * 60
  const sec = Number.isInteger(rest) ? String(rest) : rest.toFixed(1)
  return [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', rest > 0 || (h === 0 && m === 0) ? `${sec}s` : ''].join('')
}

const indent = (block: string, by: string) => block.split('\n').map((l) => `${by}${l}`).join('\n')

/** When the controller syncs again by itself, and why. */
export function requeueLine(r: Requeue, c: ChalkInstance): string {
  return c.dim(`  … syncs again in ${seconds(r.seconds)} (${r.at}), ${REQUEUE_WORDS[r.reason]}`)
}
