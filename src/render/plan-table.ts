// The human view of a ReconcilePlan: one block per controller, one line per action, then a
// closing summary. Pure: a function of the plan alone (ages are measured against `plan.now`),
// colour only through the Chalk instance the caller asks for.
import {Chalk, type ChalkInstance} from 'chalk'
import type {DeploymentStatusView} from '../model/objects.js'
import type {Action, ControllerPlan, CreateAction, DeleteAction, ReconcilePlan, StatusView} from '../model/plan.js'
import {renderBatch} from '../controllers/job/render.js'
import {renderService} from '../controllers/service/render.js'
import {renderWorkload} from '../controllers/statefulset/render.js'
import {deleteReasons, inOwnTie, tieOf, tieSentence} from './reasons.js'
import {count} from './words.js'

export interface TableStyle {
  color: boolean
}

/** Creates of one kind are listed one per line up to this many, then folded into one line. */
const MAX_CREATE_LINES = 5

export function renderPlanTable(plan: ReconcilePlan, style: TableStyle = {color: false}): string {
  const c = new Chalk({level: style.color ? 1 : 0})
  // A Deployment's ReplicaSets are shown under it, indented, rather than on their own.
  const shownUnder = new Map<string, ControllerPlan[]>()
  const byUid = new Map(plan.controllers.filter((cp) => cp.kind === 'ReplicaSet').map((cp) => [cp.uid, cp]))
  const nested = new Set<ControllerPlan>()
  for (const d of plan.controllers) {
    if (d.kind !== 'Deployment') continue
    const mine = (d.replicaSets ?? []).map((rs) => byUid.get(rs.uid)).filter((x): x is ControllerPlan => x !== undefined && !nested.has(x))
    for (const rs of mine) nested.add(rs)
    shownUnder.set(d.uid, mine)
  }
  // A CronJob's Jobs likewise.
  const jobsByUid = new Map(plan.controllers.filter((cp) => cp.kind === 'Job').map((cp) => [cp.uid, cp]))
  for (const cj of plan.controllers) {
    if (cj.kind !== 'CronJob') continue
    const mine = (cj.jobs ?? []).map((j) => jobsByUid.get(j.uid)).filter((x): x is ControllerPlan => x !== undefined && !nested.has(x))
    for (const j of mine) nested.add(j)
    shownUnder.set(cj.uid, mine)
  }
  const blocks = plan.controllers
    .filter((cp) => !nested.has(cp))
    .map((cp) =>
      cp.kind === 'Deployment'
        ? renderDeployment(cp, shownUnder.get(cp.uid) ?? [], plan, c)
        : cp.kind === 'Job' || cp.kind === 'CronJob'
          ? [renderBatch(cp, batchHead(cp, c), c), ...(shownUnder.get(cp.uid) ?? []).map((j) => indent(renderBatch(j, batchHead(j, c), c), '  '))].join('\n')
        : cp.kind === 'Service'
          ? renderService(cp, `${c.bold(`Service ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}`, c)
          : cp.kind === 'StatefulSet' || cp.kind === 'DaemonSet'
          ? renderWorkload(cp, workloadHead(cp, c), c, (a) => (a.type === 'updateStatus' ? c.yellow(`  ~ status ${statusChange(a.from, a.to)}`) : `  ? ${a.type}`))
          : renderController(cp, plan, c),
    )
  const footer = [...ignoredLine(plan), summaryLine(plan, c)]
  return [...blocks, footer.join('\n')].map((b) => `${b}\n`).join('\n')
}

function renderController(cp: ControllerPlan, plan: ReconcilePlan, c: ChalkInstance): string {
  const lines = [headerLine(cp, c)]
  const podWidth = Math.max(0, ...cp.actions.map((a) => (a.type === 'delete' ? a.pod.length : 0)))
  let pendingShown = false
  const actions = cp.actions
  // Each tie is worded once, after the last of its pods that this sync deletes.
  const lastOfTie = new Map<string, number>()
  actions.forEach((a, i) => {
    if (a.type === 'delete' && (a.tieGroup !== undefined || a.tie)) lastOfTie.set(tieKey(a), i)
  })
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i]
    switch (a.type) {
      case 'create': {
        let j = i
        while (j + 1 < actions.length && sameCreate(actions[j + 1], a)) j++
        lines.push(...createLines(a, j - i + 1, c))
        i = j
        break
      }
      case 'delete': {
        lines.push(c.red(`  - delete pod ${a.pod.padEnd(podWidth)}  because: ${inOwnTie(a) ? 'a tie, see below' : deleteReasons(a, cp, plan.now)[0]}`))
        const tie = lastOfTie.get(tieKey(a)) === i ? tieOf(a, cp) : undefined
        if (tie) lines.push(c.dim(`      ${tieSentence(tie)}`))
        break
      }
      case 'adopt':
        lines.push(c.yellow(`  ~ adopt pod ${a.pod}  (an orphan whose labels match the selector)`))
        break
      case 'release':
        lines.push(c.yellow(`  ~ release pod ${a.pod}  (owned, but its labels no longer match the selector)`))
        break
      case 'updateStatus':
        // What this sync leaves undone belongs with its creates and deletes, before the status.
        if (!pendingShown && cp.pending > 0) {
          lines.push(pendingLine(cp, plan, c))
          pendingShown = true
        }
        lines.push(c.yellow(`  ~ status ${statusChange(a.from, a.to)}`))
        break
      default:
        lines.push(`  ? ${(a as Action).type}`)
    }
  }
  if (!pendingShown && cp.pending > 0) lines.push(pendingLine(cp, plan, c))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

/** Which tie a delete is in: its group, or (a plan saved before groups) its own list. */
function tieKey(a: DeleteAction): string {
  return a.tieGroup !== undefined ? `#${a.tieGroup}` : [...(a.tie ?? [])].sort().join(' ')
}

function workloadHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = cp.kind === 'DaemonSet' ? `${cp.desired} desired ${cp.desired === 1 ? 'node' : 'nodes'}` : `${cp.desired} replicas`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

function batchHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = cp.kind === 'Job' ? `${cp.active} active, want ${cp.desired}` : `${cp.active} active ${cp.active === 1 ? 'Job' : 'Jobs'}`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

const indent = (block: string, by: string) => block.split('\n').map((l) => `${by}${l}`).join('\n')

/** A Deployment: its own writes, then its ReplicaSets' next syncs, then the step after this sync. */
function renderDeployment(cp: ControllerPlan, replicaSets: ControllerPlan[], plan: ReconcilePlan, c: ChalkInstance): string {
  const set = applySetNote(cp, c)
  const head = `${c.bold(`Deployment ${cp.namespace}/${cp.name}`)}${set}  ${cp.desired} replicas${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  for (const a of cp.actions) lines.push(deploymentActionLine(a, c))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  for (const rs of replicaSets) lines.push(indent(renderController(rs, plan, c), '  '))
  if (cp.then && cp.then.length > 0) {
    lines.push(c.dim('  then, in the ReplicaSet controller\'s next sync (after this one):'))
    for (const rs of cp.then) lines.push(indent(renderController(rs, plan, c), '    '))
  }
  return lines.join('\n')
}

const SCALE_RULES: Record<string, string> = {
  'new-replica-set': 'the new ReplicaSet grows within maxSurge',
  unhealthy: 'replicas that are not available go first',
  availability: 'old replicas go as far as maxUnavailable allows',
  proportional: 'a change of replicas shared in proportion',
  'active-or-latest': 'the one active ReplicaSet takes every replica',
  saturated: 'the new ReplicaSet is full and available',
  recreate: 'Recreate',
}

function deploymentActionLine(a: Action, c: ChalkInstance): string {
  const conflict = 'conflict' in a && a.conflict ? c.red('  [409 Conflict: this write fails and ends the sync]') : ''
  switch (a.type) {
    case 'createReplicaSet': {
      const name = a.name ?? '<name unknown>'
      const what = `replicas ${a.replicas}, revision ${a.annotations['deployment.kubernetes.io/revision'] ?? '?'}`
      if (a.outcome === 'collision') return c.red(`  ! create ReplicaSet ${name} fails: a ReplicaSet of that name with another template exists (hash collision)${conflict}`)
      if (a.outcome === 'exists') return c.dim(`  = ReplicaSet ${name} exists already (${what})`)
      return c.green(`  + create ReplicaSet ${name}  ${what}${conflict}`)
    }
    case 'scaleReplicaSet':
      return c.yellow(`  ~ scale ReplicaSet ${a.replicaSet} ${a.from} → ${a.to}  (${SCALE_RULES[a.rule] ?? a.rule})${conflict}`)
    case 'deleteReplicaSet':
      return c.red(`  - delete ReplicaSet ${a.replicaSet}  (revision ${a.revision || '?'}, beyond revisionHistoryLimit)${conflict}`)
    case 'adoptReplicaSet':
      return c.yellow(`  ~ adopt ReplicaSet ${a.replicaSet}  (an orphan whose labels match the selector)${conflict}`)
    case 'releaseReplicaSet':
      return c.yellow(`  ~ release ReplicaSet ${a.replicaSet}  (owned, but its labels no longer match the selector)${conflict}`)
    case 'updateReplicaSet':
      return c.yellow(`  ~ update ReplicaSet ${a.replicaSet}  (annotations: revision ${a.annotations['deployment.kubernetes.io/revision'] ?? '?'}; minReadySeconds ${a.minReadySeconds})${conflict}`)
    case 'updateStatus': {
      const revision = 'revision' in a && a.revision ? `, revision ${a.revision.from ?? 'unset'}→${a.revision.to}` : ''
      return c.yellow(`  ~ status ${statusChange(a.from, a.to)}${revision}${conflict}`)
    }
    case 'rollback':
      return c.yellow(`  ~ rollback to revision ${a.toRevision}: ${a.event}${conflict}`)
    default:
      return `  ? ${a.type}`
  }
}

/** Which apply set a controller was read in, when the input held several. */
function applySetNote(cp: ControllerPlan, c: ChalkInstance): string {
  return cp.applySet === undefined ? '' : `  ${c.dim(`(${cp.applySet === '' ? 'outside any kustomize root' : cp.applySet})`)}`
}

function headerLine(cp: ControllerPlan, c: ChalkInstance): string {
  const set = applySetNote(cp, c)
  const head = `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${set}  ${replicaWords(cp)}`
  return cp.inSync ? `${head}  ${c.green('(in sync)')}` : head
}

/**
 * `5 active, want 2: delete 3`: the counts and what the difference calls for, in words (the JSON's
 * `diff` is active − desired, whose sign reads backwards next to the actions).
 */
function replicaWords(cp: ControllerPlan): string {
  const counts = `${cp.active} active, want ${cp.desired}`
  if (cp.diff > 0) return `${counts}: delete ${cp.diff}`
  if (cp.diff < 0) return `${counts}: create ${-cp.diff}`
  return counts
}

function sameCreate(a: Action, b: CreateAction): boolean {
  return a.type === 'create' && a.generateName === b.generateName && a.error === b.error
}

function createLines(a: CreateAction, n: number, c: ChalkInstance): string[] {
  const name = `${a.nameBase}<random>`
  const tail = `  (generateName ${a.generateName})${a.error ? ` would fail: ${a.error}` : ''}`
  const paint = a.error ? c.red : c.green
  if (n > MAX_CREATE_LINES) return [paint(`  + create ${n} pods ${name}${tail}`)]
  return Array.from({length: n}, () => paint(`  + create pod ${name}${tail}`))
}

const STATUS_FIELDS = [
  'replicas',
  'fullyLabeledReplicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
  'terminatingReplicas',
  'collisionCount',
  'observedGeneration',
] as const

function statusChange(from: ControllerPlan['status'], to: ControllerPlan['status']): string {
  const parts: string[] = []
  // StatefulSet and DaemonSet statuses: every field, in the API's order.
  const fields = 'numberReady' in to || 'currentRevision' in to ? Object.keys(to) : STATUS_FIELDS
  for (const field of fields) {
    const a = (from as unknown as Record<string, unknown>)[field]
    const b = (to as unknown as Record<string, unknown>)[field]
    if (a !== b) parts.push(`${field} ${a ?? 'unset'}→${b ?? 'unset'}`)
  }
  type Condition = StatusView['conditions'][number]
  const conditions = (s: ControllerPlan['status']): readonly Condition[] => ('conditions' in s ? s.conditions : [])
  const before = new Map<string, Condition>(conditions(from).map((x: Condition) => [x.type, x]))
  const after = new Map<string, Condition>(conditions(to).map((x: Condition) => [x.type, x]))
  for (const [type, x] of after) {
    const old = before.get(type)
    if (!old || old.status !== x.status || old.reason !== x.reason) {
      parts.push(`condition ${type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`)
    }
  }
  for (const type of before.keys()) if (!after.has(type)) parts.push(`condition ${type} removed`)
  return parts.length > 0 ? parts.join(', ') : 'rewritten with the same values'
}

function pendingLine(cp: ControllerPlan, plan: ReconcilePlan, c: ChalkInstance): string {
  const verb = cp.diff < 0 ? 'create' : 'delete'
  const sign = cp.diff < 0 ? '+' : '-'
  const acted = cp.actions.filter((a) => a.type === verb).length
  const burst = plan.options?.burstReplicas
  // Only the burst limit is named; any other cause (a controller being deleted, a create that
  // fails) has its own warning or action line.
  if (burst !== undefined && acted === burst) {
    return c.dim(`  ${sign} ${count(cp.pending, 'more pod')} to ${verb} in a later sync (burst limit ${burst} per sync)`)
  }
  return c.dim(`  ${sign} ${count(cp.pending, 'pod')} not ${verb === 'create' ? 'created' : 'deleted'} in this sync`)
}

function ignoredLine(plan: ReconcilePlan): string[] {
  const entries = Object.entries(plan.ignored ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (entries.length === 0) return []
  return [`Not planned (kctl plans Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs and Services): ${entries.map(([k, n]) => `${k} (${n})`).join(', ')}.`]
}

function summaryLine(plan: ReconcilePlan, c: ChalkInstance): string {
  const s = plan.summary
  if (s.controllers === 0) return 'No Deployments, ReplicaSets or ReplicationControllers found.'
  const changed = s.controllers - s.inSync
  if (changed === 0) return `No changes. ${count(s.controllers, 'controller')} in sync.`
  const parts: string[] = []
  if (s.create > 0) parts.push(c.green(`+${count(s.create, 'pod')}`))
  if (s.delete > 0) parts.push(c.red(`-${count(s.delete, 'pod')}`))
  if (s.adopt > 0) parts.push(c.yellow(count(s.adopt, 'adoption')))
  if (s.release > 0) parts.push(c.yellow(count(s.release, 'release')))
  if (s.createReplicaSet > 0) parts.push(c.green(`+${count(s.createReplicaSet, 'ReplicaSet')}`))
  if (s.scaleReplicaSet > 0) parts.push(c.yellow(count(s.scaleReplicaSet, 'ReplicaSet scaling', 'ReplicaSet scalings')))
  if (s.deleteReplicaSet > 0) parts.push(c.red(`-${count(s.deleteReplicaSet, 'ReplicaSet')}`))
  if (s.createClaim > 0) parts.push(c.green(`+${count(s.createClaim, 'claim')}`))
  if (s.createControllerRevision > 0) parts.push(c.green(`+${count(s.createControllerRevision, 'ControllerRevision')}`))
  if (s.deleteControllerRevision > 0) parts.push(c.red(`-${count(s.deleteControllerRevision, 'ControllerRevision')}`))
  if (s.createJob > 0) parts.push(c.green(`+${count(s.createJob, 'Job')}`))
  if (s.deleteJob > 0) parts.push(c.red(`-${count(s.deleteJob, 'Job')}`))
  if (s.removeFinalizer > 0) parts.push(c.yellow(count(s.removeFinalizer, 'finalizer removal')))
  if (s.createEndpointSlice > 0) parts.push(c.green(`+${count(s.createEndpointSlice, 'EndpointSlice')}`))
  if (s.updateEndpointSlice > 0) parts.push(c.yellow(count(s.updateEndpointSlice, 'EndpointSlice update')))
  if (s.deleteEndpointSlice > 0) parts.push(c.red(`-${count(s.deleteEndpointSlice, 'EndpointSlice')}`))
  if (s.writeEndpoints > 0) parts.push(c.yellow(count(s.writeEndpoints, 'Endpoints write')))
  if (s.deleteEndpoints > 0) parts.push(c.red(`-${count(s.deleteEndpoints, 'Endpoints object')}`))
  if (s.ensureLoadBalancer + s.updateLoadBalancerHosts + s.ensureLoadBalancerDeleted > 0) {
    parts.push(c.cyan(count(s.ensureLoadBalancer + s.updateLoadBalancerHosts + s.ensureLoadBalancerDeleted, 'load-balancer call')))
  }
  if (s.chooseDaemonPods > 0) parts.push(c.yellow(count(s.chooseDaemonPods, 'random choice')))
  if (s.updateStatus > 0) parts.push(c.yellow(count(s.updateStatus, 'status update')))
  const tail = [
    ...(s.pending > 0 ? [`${count(s.pending, 'pod')} pending`] : []),
    ...(s.inSync > 0 ? [`${s.inSync} in sync`] : []),
  ]
  return `${c.bold('Plan:')} ${parts.join(', ')} across ${count(changed, 'controller')}${tail.length > 0 ? `; ${tail.join('; ')}` : ''}.`
}
