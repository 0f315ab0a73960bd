// The human view of an ApplyReport: per round, one block per controller (creates grouped by
// slow-start batch, one line per delete, adoption, release and status write, each ok or failed
// and why), then a closing summary. Pure: a function of the report alone. A controller's own
// writes are worded by its render part (src/controllers/<name>/render.ts, found by the kind).
import {Chalk, type ChalkInstance} from 'chalk'
import type {ActionError, ActionResult, ApplyMode, ApplyReport, ControllerOutcome} from '../model/apply.js'
import type {DeploymentStatusView} from '../model/objects.js'
import type {ControllerPlan, StatusView} from '../model/plan.js'
import {controllerOf} from './dispatch.js'
import {count} from './words.js'

export interface TableStyle {
  color: boolean
}

/** Up to this many creates of a controller get a line each; more are grouped by batch. */
const MAX_CREATE_LINES = 8

export function errorText(e: ActionError): string {
  const head = [e.code, e.reason].filter((x) => x !== undefined && x !== '').join(' ')
  return head ? `${head}: ${e.message}` : e.message
}

function words(mode: ApplyMode) {
  return mode === 'apply' ? {ok: 'ok', failed: 'FAILED', skipped: 'not sent'} : {ok: 'would succeed', failed: 'WOULD FAIL', skipped: 'would not be sent'}
}

/** The results of one round, one block per controller that had something to do. */
export function renderApplyRound(mode: ApplyMode, results: readonly ActionResult[], controllers: readonly ControllerOutcome[], style: TableStyle = {color: false}): string {
  const c = new Chalk({level: style.color ? 1 : 0})
  const blocks: string[] = []
  for (const co of controllers) {
    const mine = results.filter((r) => r.round === co.round && r.controller.uid === co.controller.uid && r.controller.name === co.controller.name && r.controller.kind === co.controller.kind)
    blocks.push(controllerBlock(mode, co, mine, c))
  }
  return blocks.map((b) => `${b}\n`).join('\n')
}

function controllerBlock(mode: ApplyMode, co: ControllerOutcome, results: readonly ActionResult[], c: ChalkInstance): string {
  const w = words(mode)
  const outcome = (r: ActionResult) =>
    r.outcome === 'ok'
      ? c.green(r.done?.alreadyGone ? `${w.ok} (already gone)` : r.done?.namespaceTerminating ? `${w.ok} (namespace being deleted: nothing created, as the controller counts it)` : w.ok)
      : r.outcome === 'failed'
        ? c.red(`${w.failed}: ${errorText(r.error ?? {message: 'unknown error'})}`)
        : c.dim(`${w.skipped}${r.skipReason ? `: ${r.skipReason.replace(/^not sent(: )?/, '')}` : ''}`)
  const lines = [c.bold(`${co.controller.kind} ${co.controller.namespace}/${co.controller.name}`)]
  if (co.error) lines.push(c.red(`  ! ${errorText(co.error)}`))
  for (const warning of co.warnings ?? []) lines.push(c.yellow(`  ! ${warning}`))
  const creates = results.filter((r) => r.action === 'create')
  const sent = creates.filter((r) => r.batch !== undefined)
  if (creates.length > 0 && creates.length <= MAX_CREATE_LINES) {
    for (const r of creates) {
      const name = r.pod ?? `${r.predicted?.type === 'create' ? r.predicted.nameBase : ''}<random>`
      lines.push(`  + create pod ${name}  ${outcome(r)}${r.batch ? c.dim(`  (batch ${r.batch})`) : ''}`)
    }
  } else if (creates.length > 0) {
    const batches = [...new Set(sent.map((r) => r.batch!))].sort((a, b) => a - b)
    for (const b of batches) {
      const inBatch = sent.filter((r) => r.batch === b)
      const ok = inBatch.filter((r) => r.outcome === 'ok').length
      const failed = inBatch.filter((r) => r.outcome === 'failed')
      const parts = [ok > 0 ? c.green(`${ok} ${w.ok}`) : '', failed.length > 0 ? c.red(`${failed.length} ${w.failed}`) : ''].filter(Boolean)
      lines.push(`  + create batch ${b} (${count(inBatch.length, 'pod')}): ${parts.join(', ')}`)
      for (const [text, n] of grouped(failed.map((r) => errorText(r.error ?? {message: 'unknown error'})))) lines.push(c.red(`      ${n > 1 ? `${n}× ` : ''}${text}`))
    }
    const unsent = creates.filter((r) => r.batch === undefined && r.outcome === 'skipped')
    for (const [reason, n] of grouped(unsent.map((r) => r.skipReason ?? 'not sent'))) {
      lines.push(c.dim(`  + create ${count(n, 'pod')}: ${w.skipped}: ${reason.replace(/^not sent(: )?/, '')}`))
    }
    const local = creates.filter((r) => r.batch === undefined && r.outcome === 'failed')
    for (const r of local) lines.push(`  + create pod  ${outcome(r)}`)
  }
  const podWidth = Math.max(0, ...results.filter((r) => r.pod !== undefined && r.action !== 'create').map((r) => (r.pod ?? '').length))
  const rsWidth = Math.max(0, ...results.map((r) => (r.replicaSet ?? '').length))
  // A pod's delete, adoption and release are worded alike for every controller; the rest of a
  // result is its controller's to word (its render part), or a status write's field changes.
  const part = controllerOf(co.controller.kind)
  const ctx = {c, outcome, results}
  for (const r of results) {
    switch (r.action) {
      case 'delete':
        lines.push(`  - delete pod ${(r.pod ?? '').padEnd(podWidth)}  ${outcome(r)}`)
        break
      case 'adopt':
      case 'release':
        lines.push(`  ~ ${r.action} pod ${(r.pod ?? '').padEnd(podWidth)}  ${outcome(r)}`)
        break
      default: {
        const own = part?.render.applyLines?.(r, ctx)
        if (own) {
          lines.push(...own)
          break
        }
        if (r.action !== 'updateStatus') break
        const to = r.done?.status ?? (r.predicted?.type === 'updateStatus' ? r.predicted.to : undefined)
        const from = r.predicted?.type === 'updateStatus' ? r.predicted.from : undefined
        const what = to ? statusWords(from, to) : ''
        const revision = r.predicted?.type === 'updateStatus' && 'revision' in r.predicted && r.predicted.revision ? `revision ${r.predicted.revision.from ?? 'unset'}→${r.predicted.revision.to}` : ''
        const all = [what, revision].filter(Boolean).join(', ')
        lines.push(`  ~ status${all ? ` (${all})` : ''}${r.predicted ? '' : c.dim(' [after a failure: ReplicaFailure]')}  ${outcome(r)}`)
        break
      }
    }
  }
  if (co.batches && co.batches.length > 0) lines.push(c.dim(`  slow-start batches sent: ${co.batches.join(', ')}`))
  if (co.stopped) lines.push(c.dim(`  stopped: ${co.stopped.replace(/^not sent: /, '')}`))
  return lines.join('\n')
}

function grouped(items: readonly string[]): Array<[string, number]> {
  const m = new Map<string, number>()
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1)
  return [...m]
}

const STATUS_FIELDS = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration'] as const
const DEPLOYMENT_STATUS_FIELDS = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount', 'observedGeneration'] as const

function statusWords(before: ControllerPlan['status'] | undefined, after: ControllerPlan['status']): string {
  const parts: string[] = []
  const from = before as unknown as Record<string, unknown> | undefined
  const to = after as unknown as Record<string, unknown> & {conditions?: StatusView['conditions']}
  for (const f of 'updatedReplicas' in after ? DEPLOYMENT_STATUS_FIELDS : STATUS_FIELDS) {
    if (from && from[f] === to[f]) continue
    if (!from && f !== 'replicas') continue
    parts.push(from ? `${f} ${from[f] ?? 'unset'}→${to[f] ?? 'unset'}` : `${f} ${to[f]}`)
  }
  const failure = to.conditions?.find((x) => x.type === 'ReplicaFailure')
  if (failure && !((before as {conditions?: unknown} | undefined)?.conditions as StatusView['conditions'] | undefined)?.some((x) => x.type === 'ReplicaFailure')) parts.push(`ReplicaFailure ${failure.reason ?? ''}`.trim())
  if ('updatedReplicas' in after && 'conditions' in after) {
    // A Deployment's conditions that change (type=status and reason).
    for (const x of after.conditions) {
      const old = (before as DeploymentStatusView | undefined)?.conditions.find((y) => y.type === x.type)
      if (x.type !== 'ReplicaFailure' && (!old || old.status !== x.status || old.reason !== x.reason)) parts.push(`${x.type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`)
    }
  }
  return parts.join(', ')
}

/** The closing lines: what kind of run it was, the totals, why it stopped, and the notes. */
export function renderApplySummary(report: ApplyReport, style: TableStyle = {color: false}): string {
  const c = new Chalk({level: style.color ? 1 : 0})
  const w = words(report.mode)
  const s = report.summary
  const where = report.source.type === 'cluster' ? `context "${report.source.context}" (${report.source.server})` : `the fixtures (${report.source.paths.join(', ')})`
  const lines: string[] = []
  const counts = [
    s.ok > 0 ? c.green(`${s.ok} ${w.ok}`) : '',
    s.failed > 0 ? c.red(`${s.failed} ${w.failed.toLowerCase()}`) : '',
    s.skipped > 0 ? c.dim(`${s.skipped} ${w.skipped}`) : '',
  ].filter(Boolean)
  const rounds = s.rounds > 1 ? ` over ${count(s.rounds, 'round')}` : ''
  if (s.actions === 0 && report.outcome === 'succeeded') {
    lines.push(`Nothing to do: every controller is in sync (${where}).`)
  } else if (report.outcome === 'refused' && report.refusal?.reason !== 'conflict') {
    lines.push(c.red(`Nothing was done: ${report.refusal?.message ?? 'refused'}.`))
    for (const d of report.refusal?.details.slice(1) ?? []) lines.push(c.red(`  - ${d}`))
  } else {
    const how = report.source.type === 'cluster' ? 'dryRun=All, nothing persisted' : 'answered in memory, nothing written'
    const head = report.mode === 'apply' ? `Applied to ${where}${rounds}` : `Dry run against ${where} (${how})${rounds}`
    lines.push(`${c.bold(head)}: ${counts.join(', ') || 'nothing sent'}.`)
    if (report.outcome === 'interrupted') lines.push(c.yellow('Interrupted (SIGINT): the calls in flight finished; nothing new was started. The results above are what was done.'))
    if (report.outcome === 'refused' && report.refusal) lines.push(c.red(`Stopped: ${report.refusal.message}`))
    if (report.outcome === 'not-converged') lines.push(c.yellow('Not converged before --timeout: the last plan still had work.'))
    if (report.converged) lines.push(c.green(`Converged: the plan of round ${s.rounds} is empty; every controller is in sync.`))
  }
  if (report.out) lines.push(`Wrote the resulting world to ${report.out}.`)
  for (const note of report.notes) lines.push(c.dim(`Note: ${note}.`))
  return `${lines.join('\n')}\n`
}
