// `kctl simulate -o table` and `-o markdown`: the timeline, one line per action with its virtual
// time, then a summary per Deployment, StatefulSet, DaemonSet, CronJob and Job (each controller's
// simulate part writes its own: part.ts `report`, in their order), the objects not simulated, and
// last one verdict line per rollout. Status writes that change no condition, and writes that
// change nothing shown (a scale to the same size), are counted, not listed (the JSON document has
// every one).
import {Chalk, type ChalkInstance} from 'chalk'
import type {Simulation, SimulationStep} from '../model/simulation.js'
import {reports, rolloutVerdicts, simulatedControllers, simulationOf} from '../simulate/controllers.js'
import type {Unlisted} from '../simulate/part.js'
import {verdictPasses} from '../simulate/verdict.js'
import {offset} from '../simulate/report.js'
import {formatDuration} from '../watch/duration.js'
import {count} from './words.js'

interface Line {
  time: string
  controller: string
  text: string
  sign: '+' | '-' | '~'
}

/** The noun status writes that change no condition are counted under. */
const QUIET_STATUS = 'status write'

/** An action's line: its controller's words for its own actions (part.ts `describe`), else the shared actions' (revisions, pods, status); a write that changes nothing shown is counted under a noun. */
function describe(a: SimulationStep['actions'][number], step: SimulationStep): Pick<Line, 'text' | 'sign'> | Unlisted {
  for (const c of simulatedControllers()) {
    const own = c.simulation.describe?.(a, step)
    if (own) return own
  }
  switch (a.type) {
    case 'createControllerRevision':
      return {sign: '+', text: `create ControllerRevision ${a.name ?? '(name unknown)'} (revision ${a.revision})`}
    case 'updateControllerRevision':
      return {sign: '~', text: `renumber ControllerRevision ${a.name} ${a.from}→${a.to}`}
    case 'deleteControllerRevision':
      return {sign: '-', text: `delete ControllerRevision ${a.name} (revision ${a.revision}, ${a.reason === 'duplicate' ? 'a duplicate' : 'beyond revisionHistoryLimit'})`}
    case 'adoptControllerRevision':
    case 'releaseControllerRevision':
      return {sign: '~', text: `${a.type === 'adoptControllerRevision' ? 'adopt' : 'release'} ControllerRevision ${a.name}`}
    case 'create':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`}`}
    case 'delete':
      return {sign: '-', text: `delete pod ${a.pod} (${a.decidedBy === 'all' ? 'every pod goes' : a.decidedBy.replace(/-/g, ' ')})`}
    case 'adopt':
      return {sign: '~', text: `adopt pod ${a.pod}`}
    case 'release':
      return {sign: '~', text: `release pod ${a.pod}`}
    case 'updateStatus': {
      if (!simulationOf(step.controller.kind)?.listsConditions || !('conditions' in a.to)) return {unlisted: QUIET_STATUS}
      const from = new Map(('conditions' in a.from ? a.from.conditions : []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]))
      const changed = a.to.conditions.filter((c) => from.get(c.type) !== `${c.status}/${c.reason ?? ''}`)
      if (changed.length === 0) return {unlisted: QUIET_STATUS}
      return {sign: '~', text: `status ${changed.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')}`}
    }
    default:
      return {sign: '~', text: a.type}
  }
}

/** The controller column: its kind, namespace and name, unless its controller says otherwise (a CronJob's Job is shown under it). */
function controllerLabel(step: SimulationStep): string {
  return simulationOf(step.controller.kind)?.label?.(step) ?? `${step.controller.kind} ${step.controller.namespace}/${step.controller.name}`
}

function timeline(sim: Simulation): {lines: Line[]; unlisted: Map<string, number>} {
  const lines: Line[] = []
  const unlisted = new Map<string, number>()
  for (const step of sim.steps) {
    for (const a of step.actions) {
      // Bookkeeping of the Job's counts (the Job's lines and summary show the outcome); -o json has them.
      if (a.type === 'removeFinalizer') continue
      const d = describe(a, step)
      if ('unlisted' in d) unlisted.set(d.unlisted, (unlisted.get(d.unlisted) ?? 0) + 1)
      else lines.push({time: offset(step.offsetSeconds), controller: controllerLabel(step), ...d})
    }
  }
  return {lines, unlisted}
}

/** `16 status writes that change no condition, 2 same-size ReplicaSet scales`, or nothing. */
function unlistedText(unlisted: Map<string, number>): string | undefined {
  if (unlisted.size === 0) return undefined
  return [...unlisted].map(([noun, n]) => (noun === QUIET_STATUS ? `${count(n, noun)} that change no condition` : count(n, noun))).join(', ')
}

/** One line per rollout, aligned: `Deployment staging/web  complete at t+10s (pods gone at t+40s)`. */
function verdictLines(sim: Simulation): Array<{workload: string; text: string; ok: boolean}> {
  const lines = rolloutVerdicts(sim).map(({workload, verdict}) => ({workload, text: verdict.text, ok: verdictPasses(verdict)}))
  // With --max-unmet: one line per autoscaler, how long its demand went unmet against the limit.
  const limit = sim.settings.maxUnmetSeconds
  if (limit === undefined) return lines
  for (const a of sim.autoscalers ?? []) {
    if (!a.unmet) continue
    const ok = a.unmet.seconds <= limit
    lines.push({workload: `HorizontalPodAutoscaler ${a.namespace}/${a.name}`, text: `demand unmet ${duration(a.unmet.seconds)} (${ok ? '≤' : '>'} --max-unmet ${duration(limit)})`, ok})
  }
  return lines
}

const duration = (seconds: number) => (seconds === 0 ? '0s' : formatDuration(seconds * 1000))

function closing(sim: Simulation): string {
  const s = sim.summary
  const end = s.endedBy === 'quiet' ? 'then nothing is left to happen' : `stopped at --until ${formatDuration(s.durationSeconds * 1000)}`
  return `Simulated ${formatDuration(s.durationSeconds * 1000)}: ${count(s.steps, 'step')} in ${count(s.rounds, 'round')} of syncs; ${end}.`
}

export function renderSimulationTable(sim: Simulation, opts: {color: boolean}): string {
  const c: ChalkInstance = new Chalk({level: opts.color ? 1 : 0})
  const paint = {'+': c.green, '-': c.red, '~': c.yellow}
  const out: string[] = []
  for (const change of sim.changes) out.push(`changed: ${change}`)
  if (sim.changes.length > 0) out.push('')
  const {lines, unlisted} = timeline(sim)
  const timeWidth = Math.max(0, ...lines.map((l) => l.time.length))
  const controllerWidth = Math.max(0, ...lines.map((l) => l.controller.length))
  for (const l of lines) out.push(`${l.time.padEnd(timeWidth)}  ${l.controller.padEnd(controllerWidth)}  ${paint[l.sign](l.text)}`)
  if (lines.length === 0) out.push(sim.notSimulated.length > 0 ? 'No simulated controller has anything to do.' : 'No controller has anything to do.')
  const quiet = unlistedText(unlisted)
  if (quiet) out.push(c.dim(`(${quiet} not listed; -o json has them)`))
  for (const report of reports()) for (const block of report.summaries(sim)) out.push('', ...block)
  for (const w of sim.warnings) out.push('', c.yellow(`! ${w}`))
  if (sim.notSimulated.length > 0) out.push('', 'Not simulated (kctl plan shows their next sync):', ...sim.notSimulated.map((n) => `  ${n}`))
  out.push('', closing(sim))
  const verdicts = verdictLines(sim)
  const width = Math.max(0, ...verdicts.map((v) => v.workload.length))
  if (verdicts.length > 0) out.push('')
  for (const v of verdicts) out.push(`${v.workload.padEnd(width)}  ${(v.ok ? c.green : c.red)(v.text)}`)
  return `${out.join('\n')}\n`
}

/** For a pull-request comment: the summary first, the timeline as a table under a details fold. */
export function renderSimulationMarkdown(sim: Simulation): string {
  const out: string[] = ['### kctl simulate', '', closing(sim), '']
  const verdicts = verdictLines(sim)
  for (const v of verdicts) out.push(`- ${v.ok ? '✅' : '❌'} **${v.workload}**: ${v.text}`)
  if (verdicts.length > 0) out.push('')
  for (const change of sim.changes) out.push(`- changed: ${change}`)
  if (sim.changes.length > 0) out.push('')
  // One table per header, its rows from every controller that shares it (StatefulSets and DaemonSets share one), in report order.
  const tables: Array<{header: readonly string[]; rows: string[]}> = []
  for (const {markdown} of reports()) {
    if (!markdown) continue
    const key = markdown.header.join('\n')
    const table = tables.find((t) => t.header.join('\n') === key)
    if (table) table.rows.push(...markdown.rows(sim))
    else tables.push({header: markdown.header, rows: markdown.rows(sim)})
  }
  for (const t of tables) if (t.rows.length > 0) out.push(...t.header, ...t.rows, '')
  const {lines, unlisted} = timeline(sim)
  out.push('<details><summary>Timeline</summary>', '', '| time | controller | action |', '| --- | --- | --- |')
  for (const l of lines) out.push(`| ${l.time} | ${l.controller} | ${l.sign} ${l.text.replace(/\|/g, '\\|')} |`)
  const quiet = unlistedText(unlisted)
  if (quiet) out.push('', `${quiet} not listed.`)
  out.push('', '</details>')
  if (sim.notSimulated.length > 0) out.push('', '**Not simulated** (`kctl plan` shows their next sync):', '', ...sim.notSimulated.map((n) => `- ${n}`))
  for (const w of sim.warnings) out.push('', `> ${w}`)
  return `${out.join('\n')}\n`
}
