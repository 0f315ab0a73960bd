// `kctl simulate -o table` and `-o markdown`: the timeline, one line per action with its virtual
// time, then a summary per Deployment, StatefulSet, DaemonSet, CronJob and Job. Status writes
// that change no condition are counted, not listed (the JSON document has every one).
import {Chalk, type ChalkInstance} from 'chalk'
import type {Action} from '../model/plan.js'
import type {CronJobTimeline, DaemonSetTimeline, DeploymentTimeline, JobTimeline, Simulation, SimulationStep, StatefulSetTimeline} from '../model/simulation.js'
import type {DaemonDeleteReason} from '../controllers/daemonset/model.js'
import type {DeleteStatefulPodAction} from '../controllers/statefulset/model.js'
import {formatDuration} from '../watch/duration.js'
import {count} from './words.js'

interface Line {
  time: string
  controller: string
  text: string
  sign: '+' | '-' | '~'
}

/** `t+0s`, `t+1m30s`. */
function offset(seconds: number): string {
  return `t+${seconds === 0 ? '0s' : formatDuration(seconds * 1000)}`
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
      if ((step.controller.kind !== 'Deployment' && step.controller.kind !== 'Job') || !('conditions' in a.to)) return undefined
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

/** The controller column: a CronJob's Job is shown under it (CronJob → Job → its pods' lines). */
function controllerLabel(step: SimulationStep): string {
  const own = `${step.controller.kind} ${step.controller.name}`
  return step.controller.kind === 'Job' && step.cronJob ? `CronJob ${step.cronJob} → ${own}` : own
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

function bound(observed: number, limit: number, ok: boolean): string {
  return `${observed} (${ok ? 'within' : 'beyond'} ${limit})`
}

/** Availability never went below the bound, or below where it started when it started below. */
function availabilityKept(d: {observed: {minAvailable: number; startAvailable: number}; bounds: {minAvailable: number}}): boolean {
  return d.observed.minAvailable >= Math.min(d.bounds.minAvailable, d.observed.startAvailable)
}

function minAvailableLine(d: StatefulSetTimeline | DaemonSetTimeline, of: string): string {
  return `  min available ${bound(d.observed.minAvailable, d.bounds.minAvailable, availabilityKept(d))} = ${of} - maxUnavailable ${d.bounds.maxUnavailable}${d.observed.startAvailable < d.bounds.minAvailable ? `; it started with ${d.observed.startAvailable}` : ''}`
}

/** No more pods than the bound, or than at the start when it started above. */
function podsLine(d: StatefulSetTimeline | DaemonSetTimeline, of: string): string {
  const o = d.observed
  const terminating = `${o.maxPodsWithTerminating} with terminating pods`
  if (o.startPods <= d.bounds.maxPods) return `  max pods ${bound(o.maxPods, d.bounds.maxPods, o.maxPods <= d.bounds.maxPods)} = ${of}; ${terminating}`
  return `  max pods ${o.maxPods} (${o.maxPods <= o.startPods ? 'within' : 'beyond'} the ${o.startPods} it started with; ${of} = ${d.bounds.maxPods}); ${terminating}`
}

function statefulSetSummary(s: StatefulSetTimeline): string[] {
  const f = s.final
  const strategy = s.partition ? `${s.strategy} (partition ${s.partition})` : s.strategy
  const short = (rev: string) => (rev.startsWith(`${s.name}-`) ? rev.slice(s.name.length + 1) : rev)
  return [
    `StatefulSet ${s.namespace}/${s.name}  ${s.podManagementPolicy}, ${strategy}, ${s.replicas} replicas: ${count(s.steps, 'step')} over ${formatDuration(s.durationSeconds * 1000)}`,
    minAvailableLine(s, 'replicas'),
    podsLine(s, 'replicas'),
    `  in flight (not available, or terminating) at most ${s.observed.maxInFlight} (${s.observed.maxInFlight <= s.bounds.maxInFlight ? 'within' : 'beyond'} ${s.bounds.maxInFlight}${s.podManagementPolicy === 'OrderedReady' ? ': OrderedReady, one at a time' : ': Parallel'})`,
    `  final: ${f.pods.map((p) => `${p.name}=${short(p.revision)}`).join(' ') || 'no pods'}; revision ${f.updateRevision}${f.currentRevision !== f.updateRevision ? ` (current ${f.currentRevision})` : ''}; ${f.replicasStatus.available} of ${s.replicas} available, ${f.replicasStatus.updated} updated${f.rollout ? ` (${f.rollout})` : ''}`,
    ...(f.claims.length > 0 ? [`  claims: ${f.claims.join(' ')}`] : []),
  ]
}

function daemonSetSummary(d: DaemonSetTimeline): string[] {
  const f = d.final
  const short = (rev: string) => (rev.startsWith(`${d.name}-`) ? rev.slice(d.name.length + 1) : rev)
  return [
    `DaemonSet ${d.namespace}/${d.name}  ${d.strategy}, ${count(d.desiredNodes, 'node')}: ${count(d.steps, 'step')} over ${formatDuration(d.durationSeconds * 1000)}`,
    minAvailableLine(d, 'nodes'),
    podsLine(d, `nodes + maxSurge ${d.bounds.maxSurge}`),
    `  pods on one node at most ${bound(d.observed.maxPodsPerNode, d.bounds.maxPodsPerNode, d.observed.maxPodsPerNode <= d.bounds.maxPodsPerNode)}`,
    `  final: ${f.nodes.map((n) => `${n.node}=${n.revisions.map(short).join('+')}`).join(' ') || 'no pods'}${f.updateRevision ? `; revision ${f.updateRevision}` : ''}; ${f.replicasStatus.available} of ${d.desiredNodes} available, ${f.replicasStatus.updated} updated`,
  ]
}

function deploymentSummary(d: DeploymentTimeline): string[] {
  const f = d.final
  const conditions = f.conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')
  return [
    `Deployment ${d.namespace}/${d.name}  ${d.strategy}, ${d.replicas} replicas: ${count(d.steps, 'step')} over ${formatDuration(d.durationSeconds * 1000)}`,
    `  min available ${bound(d.observed.minAvailable, d.bounds.minAvailable, availabilityKept(d))} = replicas - maxUnavailable ${d.bounds.maxUnavailable}${d.observed.startAvailable < d.bounds.minAvailable ? `; it started with ${d.observed.startAvailable}` : ''}`,
    `  max pods ${bound(d.observed.maxPods, d.bounds.maxPods, d.observed.maxPods <= d.bounds.maxPods)} = replicas + maxSurge ${d.bounds.maxSurge}; ${d.observed.maxPodsWithTerminating} with terminating pods`,
    `  final: ${f.replicaSets.map((r) => `${r.name}=${r.replicas}`).join(' ')}${f.revision ? `, revision ${f.revision}` : ''}; ${f.replicasStatus.available} of ${d.replicas} available, ${f.replicasStatus.updated} updated${f.rollout ? ` (${f.rollout})` : ''}`,
    `  conditions: ${conditions || 'none'}`,
  ]
}

function conditionsText(conditions: ReadonlyArray<{type: string; status: string; reason?: string}>): string {
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')
}

function jobSummary(j: JobTimeline): string[] {
  const want = j.completions === undefined ? 'work queue' : `${count(j.completions, 'completion')}`
  const waves = j.waves.map((w) => `${offset(w.offsetSeconds)}: ${w.created}`).join(', ')
  const f = j.final
  return [
    `Job ${j.namespace}/${j.name}${j.cronJob ? ` (CronJob ${j.cronJob})` : ''}  ${j.completionMode}, ${want}, parallelism ${j.parallelism}: ${count(j.pods.created, 'pod')} created${waves ? ` in waves ${waves}` : ''}${j.deletedAt ? `; deleted at ${j.deletedAt}` : ''}`,
    `  final: ${f.active} active, ${f.succeeded} succeeded, ${f.failed} failed${f.completedIndexes ? `, indexes ${f.completedIndexes}` : ''}; conditions: ${conditionsText(f.conditions) || 'none'}`,
  ]
}

function cronJobSummary(c: CronJobTimeline): string[] {
  const out = [`CronJob ${c.namespace}/${c.name}  "${c.schedule}"${c.timeZone ? ` (${c.timeZone})` : ''}, ${c.concurrencyPolicy}: ${count(c.runs.length, 'run')}${c.runs.length > 0 ? ` (${c.runs.map((r) => r.job).join(', ')})` : ''}`]
  if (c.skipped.length > 0) out.push(`  held back: ${c.skipped.map((x) => `${x.scheduledTime} (${x.reason}${x.startedAs ? `; started late, ${offset(x.startedAs.offsetSeconds)}, as ${x.startedAs.job}` : '; never started'})`).join(', ')}`)
  if (c.deleted.length > 0) out.push(`  deleted: ${c.deleted.map((x) => `${x.job} (${x.reason === 'replace' ? 'Replace' : 'history limit'})`).join(', ')}`)
  out.push(`  final: active ${c.final.active.length > 0 ? c.final.active.join(', ') : 'none'}${c.final.lastScheduleTime ? `, last scheduled ${c.final.lastScheduleTime}` : ''}${c.final.lastSuccessfulTime ? `, last succeeded ${c.final.lastSuccessfulTime}` : ''}`)
  return out
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
  for (const d of sim.deployments) out.push('', ...deploymentSummary(d))
  for (const s of sim.statefulSets ?? []) out.push('', ...statefulSetSummary(s))
  for (const d of sim.daemonSets ?? []) out.push('', ...daemonSetSummary(d))
  for (const cj of sim.cronJobs ?? []) out.push('', ...cronJobSummary(cj))
  for (const j of sim.jobs ?? []) out.push('', ...jobSummary(j))
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
  if (sim.deployments.length > 0) {
    out.push('| Deployment | strategy | steps | duration | min available (bound) | max pods (bound) | final | conditions |', '| --- | --- | --- | --- | --- | --- | --- | --- |')
    for (const d of sim.deployments) {
      const f = d.final
      out.push(
        `| ${d.namespace}/${d.name} | ${d.strategy} | ${d.steps} | ${formatDuration(d.durationSeconds * 1000)} | ${d.observed.minAvailable} (≥ ${d.bounds.minAvailable}) | ${d.observed.maxPods} (≤ ${d.bounds.maxPods}) | ${f.replicaSets.map((r) => `\`${r.name}\`=${r.replicas}`).join(' ')} | ${f.conditions.map((x) => `${x.type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`).join(', ')} |`,
      )
    }
    out.push('')
  }
  const sets = [...(sim.statefulSets ?? []).map((s) => ({kind: 'StatefulSet', t: s})), ...(sim.daemonSets ?? []).map((d) => ({kind: 'DaemonSet', t: d}))]
  if (sets.length > 0) {
    out.push('| set | strategy | steps | duration | min available (bound) | max pods (bound) | final | status |', '| --- | --- | --- | --- | --- | --- | --- | --- |')
    for (const {kind, t} of sets) {
      const final =
        'pods' in t.final ? t.final.pods.map((p) => `\`${p.name}\`=${p.revision}`).join(' ') : t.final.nodes.map((n) => `\`${n.node}\`=${n.revisions.join('+')}`).join(' ')
      const st = t.final.replicasStatus
      out.push(
        `| ${kind} ${t.namespace}/${t.name} | ${t.strategy} | ${t.steps} | ${formatDuration(t.durationSeconds * 1000)} | ${t.observed.minAvailable} (≥ ${t.bounds.minAvailable}) | ${t.observed.maxPods} (≤ ${t.bounds.maxPods}) | ${final || 'no pods'} | ${st.available} available, ${st.updated} updated${t.final.rollout ? ` (${t.final.rollout})` : ''} |`,
      )
    }
    out.push('')
  }
  if ((sim.cronJobs ?? []).length > 0) {
    out.push('| CronJob | schedule | policy | runs | skipped | deleted |', '| --- | --- | --- | --- | --- | --- |')
    for (const c of sim.cronJobs) out.push(`| ${c.namespace}/${c.name} | \`${c.schedule}\` | ${c.concurrencyPolicy} | ${c.runs.map((r) => `\`${r.job}\``).join(' ')} | ${c.skipped.length} | ${c.deleted.map((d) => `\`${d.job}\``).join(' ')} |`)
    out.push('')
  }
  if ((sim.jobs ?? []).length > 0) {
    out.push('| Job | pods per wave | final | conditions |', '| --- | --- | --- | --- |')
    for (const j of sim.jobs) out.push(`| ${j.namespace}/${j.name} | ${j.waves.map((w) => `${offset(w.offsetSeconds)}: ${w.created}`).join(', ')} | ${j.final.succeeded} succeeded, ${j.final.failed} failed | ${conditionsText(j.final.conditions)} |`)
    out.push('')
  }
  const {lines, unlisted} = timeline(sim)
  out.push('<details><summary>Timeline</summary>', '', '| time | controller | action |', '| --- | --- | --- |')
  for (const l of lines) out.push(`| ${l.time} | ${l.controller} | ${l.sign} ${l.text.replace(/\|/g, '\\|')} |`)
  if (unlisted > 0) out.push('', `${count(unlisted, 'status write')} that change no condition not listed.`)
  out.push('', '</details>')
  for (const w of sim.warnings) out.push('', `> ${w}`)
  return `${out.join('\n')}\n`
}
