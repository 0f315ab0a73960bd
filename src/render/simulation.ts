// `kctl simulate -o table` and `-o markdown`: the timeline, one line per action with its virtual
// time, then a summary per Deployment, StatefulSet, DaemonSet, CronJob and Job (each controller's
// simulate part writes its own: part.ts `report`, in their order). Status writes that change no
// condition are counted, not listed (the JSON document has every one).
import {Chalk, type ChalkInstance} from 'chalk'
import type {Simulation, SimulationStep} from '../model/simulation.js'
import type {DaemonDeleteReason} from '../controllers/daemonset/model.js'
import type {DeleteStatefulPodAction} from '../controllers/statefulset/model.js'
import {reports, simulationOf} from '../simulate/controllers.js'
import {offset} from '../simulate/report.js'
import {formatDuration} from '../watch/duration.js'
import {count} from './words.js'

interface Line {
  time: string
  controller: string
  text: string
  sign: '+' | '-' | '~'
}

const STATEFUL_DELETE: Record<DeleteStatefulPodAction['reason'], string> = {
  failed: 'failed, to be re-created',
  succeeded: 'succeeded, to be re-created',
  condemned: 'its ordinal is beyond replicas',
  update: 'not at the update revision',
}

const DAEMON_DELETE: Record<DaemonDeleteReason, string> = {
  failed: 'failed',
  succeeded: 'succeeded',
  duplicate: 'a second pod on the node',
  'not-eligible': 'the node no longer runs it',
  'no-node': 'its node is gone',
  update: 'an old revision',
  'surge-replaced': 'its replacement is available',
}

function describe(a: SimulationStep['actions'][number], step: SimulationStep): Pick<Line, 'text' | 'sign'> | undefined {
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
    case 'createStatefulPod':
      return {sign: '+', text: `create pod ${a.pod} (revision ${a.revision ?? 'unknown'})`}
    case 'deleteStatefulPod':
      return {sign: '-', text: `delete pod ${a.pod} (${STATEFUL_DELETE[a.reason]})`}
    case 'updatePod':
      return {sign: '~', text: `update pod ${a.pod} (${a.fixes.join(', ')})`}
    case 'createClaim':
      return {sign: '+', text: `create PersistentVolumeClaim ${a.claim} (for pod ${a.pod})`}
    case 'updateClaim':
      return {sign: '~', text: `update PersistentVolumeClaim ${a.claim} owners (retention policy)`}
    case 'createDaemonPod':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`} on node ${a.node}${a.reason === 'surge' ? ' (surge)' : ''}`}
    case 'deleteDaemonPod':
      return {sign: '-', text: `delete pod ${a.pod} on node ${a.node} (${DAEMON_DELETE[a.reason]})`}
    case 'chooseDaemonPods': {
      // Upstream picks at random among the candidates; the simulation takes the first by node name.
      const of = `${a.count} of ${count(a.candidates.length, 'candidate')}, the first by name`
      if (a.operation === 'delete') return {sign: '-', text: `delete pod ${(a.chosen ?? []).join(', ')} (an old revision; ${of})`}
      return {sign: '+', text: `create pod ${(a.pods ?? []).join(', ')} on node ${(a.chosen ?? []).join(', ')} (surge; ${of})`}
    }
    case 'createReplicaSet':
      return {sign: '+', text: `create ReplicaSet ${a.name ?? '(name unknown)'} (${a.replicas})`}
    case 'scaleReplicaSet':
      return {sign: '~', text: `scale ReplicaSet ${a.replicaSet} ${a.from}→${a.to} (${a.rule})`}
    case 'deleteReplicaSet':
      return {sign: '-', text: `delete ReplicaSet ${a.replicaSet} (revision ${a.revision}, beyond revisionHistoryLimit)`}
    case 'updateReplicaSet':
      return {sign: '~', text: `update ReplicaSet ${a.replicaSet} (annotations, minReadySeconds ${a.minReadySeconds})`}
    case 'adoptReplicaSet':
      return {sign: '~', text: `adopt ReplicaSet ${a.replicaSet}`}
    case 'releaseReplicaSet':
      return {sign: '~', text: `release ReplicaSet ${a.replicaSet}`}
    case 'rollback':
      return {sign: '~', text: `rollback to revision ${a.toRevision} (${a.outcome})`}
    case 'create':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`}`}
    case 'delete':
      return {sign: '-', text: `delete pod ${a.pod} (${a.decidedBy === 'all' ? 'every pod goes' : a.decidedBy.replace(/-/g, ' ')})`}
    case 'adopt':
      return {sign: '~', text: `adopt pod ${a.pod}`}
    case 'release':
      return {sign: '~', text: `release pod ${a.pod}`}
    case 'createJobPod':
      return {sign: '+', text: `create pod ${a.pod ?? `${a.nameBase}<random>`}${a.index === undefined ? '' : ` (index ${a.index})`}`}
    case 'deleteJobPod':
      return {sign: '-', text: `delete pod ${a.pod} (${JOB_DELETE_WORDS[a.reason]})`}
    case 'createJob':
      return {sign: '+', text: `create Job ${a.name} (scheduled ${a.scheduledTime})`}
    case 'deleteJob':
      return {sign: '-', text: `delete Job ${a.name} (${a.reason === 'replace' ? 'concurrencyPolicy Replace' : 'beyond the history limit'})`}
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

const JOB_DELETE_WORDS = {finished: 'the Job finished', suspended: 'the Job is suspended', excess: 'more active than wanted', 'duplicate-index': 'a second pod of its index', 'invalid-index': 'no valid index'} as const

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
