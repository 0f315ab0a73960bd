// The table view of an HPA's plan: what it will scale its target to and why — each metric's
// proposal with its numbers, the largest, the stabilization window and the limits, the conditions
// it writes — then the target's next sync at the new size; and `kctl list`'s HPA table.
import type {ChalkInstance} from 'chalk'
import type {ControllerPlan} from '../../model/plan.js'
import {formatColumns} from '../../render/columns.js'
import {controllerOf} from '../../render/dispatch.js'
import type {ActionResult} from '../../model/apply.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote, indent} from '../../render/plan-lines.js'
import {requeueLine} from '../../render/requeue.js'
import type {HpaAction, HpaCondition, HpaPlanView, HpaStatus, MetricProposal} from './model.js'

const LIMIT_WORDS: Record<string, string> = {
  DesiredWithinRange: 'within minReplicas and maxReplicas',
  ScaleUpLimit: 'held by the scale-up limit',
  ScaleDownLimit: 'held by the scale-down limit',
  TooManyReplicas: 'held at maxReplicas',
  TooFewReplicas: 'held at minReplicas',
}

const PATH_WORDS: Record<string, string> = {
  'failed-get-scale': "the target's scale cannot be read: no metric is computed, nothing is scaled",
  'scaling-disabled': 'the target has 0 replicas: scaling is disabled',
  'out-of-range': 'the target is outside minReplicas..maxReplicas: scaled into the range without metrics',
  'metrics-failed': 'no replica count could be computed: nothing is scaled',
}

function numbers(p: MetricProposal): string {
  const keys = Object.keys(p.numbers).sort()
  return keys.map((k) => `${k} ${typeof p.numbers[k] === 'number' && !Number.isInteger(p.numbers[k]) ? (p.numbers[k] as number).toFixed(3) : String(p.numbers[k])}`).join(', ')
}

function proposalLine(p: MetricProposal, d: HpaPlanView, c: ChalkInstance): string {
  const missing = d.missing.find((m) => m.index === p.index)
  if (missing) return c.yellow(`  ? metric ${p.index} ${p.type} ${missing.name}: not in the input, no proposal (the controller would ask the metrics API)`)
  if (p.replicas === undefined) return c.red(`  ! metric ${p.index} ${p.type}: ${p.error?.reason ?? 'failed'}: ${p.error?.message ?? ''}`)
  const best = d.bestMetric === p.name && d.best === p.replicas ? c.bold(' (largest)') : ''
  return `  · metric ${p.index} ${p.name}: ${p.replicas} replicas${best}  (${numbers(p)})`
}

function conditionLine(cs: readonly HpaCondition[]): string {
  return cs.map((x) => `${x.type} ${x.status}${x.reason ? ` ${x.reason}` : ''}`).join(', ')
}

function statusWords(from: HpaStatus, to: HpaStatus): string {
  const parts: string[] = []
  if (from.currentReplicas !== to.currentReplicas) parts.push(`currentReplicas ${from.currentReplicas}→${to.currentReplicas}`)
  if (from.desiredReplicas !== to.desiredReplicas) parts.push(`desiredReplicas ${from.desiredReplicas}→${to.desiredReplicas}`)
  if (from.lastScaleTime !== to.lastScaleTime) parts.push(`lastScaleTime ${to.lastScaleTime ?? 'unset'}`)
  const changed = to.conditions.filter((x) => {
    const old = from.conditions.find((o) => o.type === x.type)
    return !old || old.status !== x.status || old.reason !== x.reason || old.message !== x.message
  })
  if (changed.length > 0) parts.push(`conditions ${changed.map((x) => x.type).join(', ')}`)
  if (JSON.stringify(from.currentMetrics ?? null) !== JSON.stringify(to.currentMetrics ?? null)) parts.push('currentMetrics')
  return parts.join(', ') || 'unchanged fields'
}

export function hpaActionLine(a: HpaAction, c: ChalkInstance): string {
  if (a.type === 'scaleTarget') return c.yellow(`  ~ scale ${a.target.kind}/${a.target.name} ${a.from} → ${a.to}  (${a.reason})`)
  return c.yellow(`  ~ status ${statusWords(a.from, a.to)}`)
}

/** Its lines of `kctl reconcile`'s report: the plan's line for each write, and how it went. */
export function applyLines(r: ActionResult, {c, outcome}: ApplyLineContext): string[] | undefined {
  const a = r.predicted
  if (!a || (a.type !== 'scaleTarget' && a.type !== 'updateHpaStatus')) return undefined
  return [`${hpaActionLine(a, c)}  ${outcome(r)}`]
}

/** Its block of `kctl plan`'s table. */
export function planBlock(cp: ControllerPlan, {plan, c}: PlanBlockContext): string {
  const d = cp.hpa!
  const target = d.target ? `${d.target.kind}/${d.target.name}` : 'its target'
  const size = d.currentReplicas === undefined ? 'scale unknown' : d.scaleWrite ? `${d.currentReplicas} → ${d.desired} replicas` : `${d.currentReplicas} replicas`
  const head = `${c.bold(`HorizontalPodAutoscaler ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${target}: ${size}`
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  for (const a of cp.actions) lines.push(hpaActionLine(a as HpaAction, c))
  if (PATH_WORDS[d.path]) lines.push(`  ${PATH_WORDS[d.path]}${d.rescaleReason ? ` (${d.rescaleReason})` : ''}`)
  for (const p of d.proposals) lines.push(proposalLine(p, d, c))
  if (d.best !== undefined) {
    const limit = d.limit ? `, ${LIMIT_WORDS[d.limit] ?? d.limit}` : ''
    lines.push(`  = largest proposal ${d.best}; after the stabilization window ${d.stabilized ?? d.best}; desired ${d.desired}${limit}`)
  }
  lines.push(c.dim(`  conditions: ${conditionLine((cp.status as HpaStatus).conditions)}`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  for (const a of cp.assumes ?? []) lines.push(c.dim(`  assumes ${a}`))
  if (cp.requeue) lines.push(requeueLine(cp.requeue, c))
  for (const next of cp.then ?? []) {
    const part = controllerOf(next.kind)
    if (!part) continue
    lines.push(c.dim(`  then, in the ${next.kind} controller's next sync (spec.replicas ${next.desired}):`))
    lines.push(indent(part.render.planBlock(next, {plan, c, under: []}), '    '))
  }
  return lines.join('\n')
}

const HEADER = ['KIND', 'NAMESPACE', 'NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'DESIRED', 'IN SYNC']

/** One metric in the TARGETS column: the current value against the target, as kubectl prints it, or `<unknown>`. */
function targetsOf(cp: ControllerPlan): string {
  const d = cp.hpa!
  if (d.proposals.length === 0) return '<none>'
  return d.proposals
    .map((p) => {
      const n = p.numbers
      if (p.replicas === undefined) return '<unknown>'
      if (n.utilization !== undefined) return `${n.utilization}%`
      if (n.average !== undefined) return String(n.average)
      return `${p.replicas}`
    })
    .join(', ')
}

/** `kctl list`: the HPAs' own table. */
export function listTable(hpas: readonly ControllerPlan[]): string {
  const rows = hpas.map((cp) => {
    const d = cp.hpa!
    return [
      cp.kind,
      cp.namespace,
      cp.name,
      d.target ? `${d.target.kind}/${d.target.name}` : '-',
      targetsOf(cp),
      String(d.min),
      String(d.max),
      d.currentReplicas === undefined ? '-' : String(d.currentReplicas),
      String(cp.desired),
      cp.inSync ? 'yes' : 'no',
    ]
  })
  return formatColumns(HEADER, rows)
}
