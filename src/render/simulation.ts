// `kctl simulate -o table` and `-o markdown`: the timeline, one line per action with its virtual
// time, then a summary per Deployment, StatefulSet, DaemonSet, CronJob and Job (each controller's
// simulate part writes its own: part.ts `report`, in their order). Status writes that change no
// condition are counted, not listed (the JSON document has every one).
import {Chalk, type ChalkInstance} from 'chalk'
import type {Simulation, SimulationStep} from '../model/simulation.js'
import {reports, simulatedControllers, simulationOf} from '../simulate/controllers.js'
import {offset} from '../simulate/report.js'
import {formatDuration} from '../watch/duration.js'
import {count} from './words.js'

interface Line {
  time: string
  controller: string
  text: string
  sign: '+' | '-' | '~'
}

/** An action's line: its controller's words for its own actions (part.ts `describe`), else the shared actions' (revisions, pods, status). */
function describe(a: SimulationStep['actions'][number], step: SimulationStep): Pick<Line, 'text' | 'sign'> | undefined {
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
      if (!simulationOf(step.controller.kind)?.listsConditions || !('conditions' in a.to)) return undefined
      const from = new Map(('conditions' in a.from ? a.from.conditions : []).map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]))
      const changed = a.to.conditions.filter((c) => from.get(c.type) !== `${c.status}/${c.reason ?? ''}`)
      if (changed.length === 0) return undefined
      return {sign: '~', text: `status ${changed.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')}`}
    }
    default:
      return {sign: '~', text: a.type}
  }
}

/** The controller column: its kind and name, unless its controller says otherwise (a CronJob's Job is shown under it). */
function controllerLabel(step: SimulationStep): string {
  return simulationOf(step.controller.kind)?.label?.(step) ?? `${step.controller.kind} ${step.controller.name}`
}

function timeline(sim: Simulation): {lines: Line[]; unlisted: number} {
  const lines: Line[] = []
  let unlisted = 0
  for (const step of sim.steps) {
    for (const a of step.actions) {
      // Bookkeeping of the Job's counts (the Job's lines and summary show the outcome); -o json has them.
      if (a.type === 'removeFinalizer') continue
      const d = describe(a, step)
      if (!d) {
        unlisted++
        continue
      }
      lines.push({time: offset(step.offsetSeconds), controller: controllerLabel(step), ...d})
    }
  }
  return {lines, unlisted}
}

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
  if (lines.length === 0) out.push('No controller has anything to do.')
  if (unlisted > 0) out.push(c.dim(`(${count(unlisted, 'status write')} that change no condition not listed; -o json has them)`))
  for (const report of reports()) for (const block of report.summaries(sim)) out.push('', ...block)
  for (const w of sim.warnings) out.push('', c.yellow(`! ${w}`))
  if (sim.notSimulated.length > 0) out.push('', `Not simulated: ${sim.notSimulated.join(', ')}`)
  out.push('', closing(sim))
  return `${out.join('\n')}\n`
}

/** For a pull-request comment: the summary first, the timeline as a table under a details fold. */
export function renderSimulationMarkdown(sim: Simulation): string {
  const out: string[] = ['### kctl simulate', '', closing(sim), '']
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
  if (unlisted > 0) out.push('', `${count(unlisted, 'status write')} that change no condition not listed.`)
  out.push('', '</details>')
  for (const w of sim.warnings) out.push('', `> ${w}`)
  return `${out.join('\n')}\n`
}
