// The table view of a Job's plan: the header with the state in a few words, one line per write in
// the controller's order (status writes as field changes), the requeue. The CronJob's block
// (cronjob/render.ts) is drawn with the same lines, and its Jobs' blocks with this one.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../../model/apply.js'
import type {Action, AdoptAction, BatchAction, ControllerPlan, ReleaseAction} from '../../model/plan.js'
import type {JobStatusView} from './model.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote} from '../../render/plan-lines.js'
import {requeueLine} from '../../render/requeue.js'
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

/** One line of a batch controller's write. */
export type BatchActionLine = (a: BatchAction | AdoptAction | ReleaseAction, c: ChalkInstance) => string

/** A Job's or CronJob's status, as a status write carries it. */
type BatchStatus = Extract<BatchAction, {type: 'updateStatus'}>['from']

/** `line` words each write; `after` adds the lines that follow one (a CronJob's created Job). */
export function renderBatch(cp: ControllerPlan, head: string, c: ChalkInstance, line: BatchActionLine = batchActionLine, after: (a: BatchAction | AdoptAction | ReleaseAction) => string[] = () => []): string {
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  const creates = cp.actions.filter((a) => a.type === 'createJobPod')
  let createsShown = 0
  for (const a of cp.actions as (BatchAction | AdoptAction | ReleaseAction)[]) {
    if (a.type === 'createJobPod') {
      if (createsShown++ < MAX_CREATE_LINES) lines.push(c.green(`  + create pod ${a.nameBase}<random>${a.index !== undefined ? `  (index ${a.index})` : ''}`))
      else if (createsShown === MAX_CREATE_LINES + 1) lines.push(c.green(`  + … and ${count(creates.length - MAX_CREATE_LINES, 'more pod')}`))
      continue
    }
    lines.push(line(a, c))
    lines.push(...after(a))
  }
  if (cp.requeue) lines.push(requeueLine(cp.requeue, c))
  for (const e of cp.events ?? []) if (e.startsWith('Warning')) lines.push(c.yellow(`  ! event ${e}`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

/** One line of a Job's write (also reconcile's report of it). */
export function batchActionLine(a: BatchAction | AdoptAction | ReleaseAction, c: ChalkInstance): string {
  switch (a.type) {
    case 'deleteJobPod':
      return c.red(`  - delete pod ${a.pod}  because: ${DELETE_WORDS[a.reason]}`)
    case 'removeFinalizer':
      return c.yellow(`  ~ remove finalizer of pod ${a.pod}${a.counts === 'none' ? '' : `  (counted ${a.counts})`}${a.by ? '  (by the orphan worker)' : ''}`)
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
export function batchStatusChange(from: BatchStatus, to: BatchStatus): string {
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

/** A Job's header: its counts, and the rollout step when there is one. */
export function jobHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = `${cp.active} active, want ${cp.desired}`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

/** Its block of `kctl plan`'s table. */
export const planBlock = (cp: ControllerPlan, {c}: PlanBlockContext): string => renderBatch(cp, jobHead(cp, c), c)

/** Its lines of `kctl reconcile`'s report (a CronJob's too, with its own words for its writes). */
export function applyLines(r: ActionResult, {c, outcome}: ApplyLineContext, line: BatchActionLine = batchActionLine): string[] | undefined {
  const lines: string[] = []
  switch (r.action) {
    case 'createJobPod': {
      const a = r.predicted?.type === 'createJobPod' ? r.predicted : undefined
      lines.push(`  + create pod ${r.pod ?? `${a?.nameBase ?? ''}<random>`}${a?.index === undefined ? '' : `  (index ${a.index})`}  ${outcome(r)}${r.batch ? c.dim(`  (batch ${r.batch})`) : ''}`)
      break
    }
    case 'deleteJobPod':
    case 'removeFinalizer':
    case 'createJob':
    case 'deleteJob':
      if (r.predicted) lines.push(`${line(r.predicted as Action & BatchAction, c)}  ${outcome(r)}`)
      break
    case 'updateStatus': {
      const a = r.predicted as (Action & BatchAction & {type: 'updateStatus'}) | undefined
      if (a) lines.push(`${line(a, c)}  ${outcome(r)}`)
      break
    }
    default:
      return undefined
  }
  return lines
}
