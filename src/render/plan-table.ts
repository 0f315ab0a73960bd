// The human view of a ReconcilePlan: one block per controller, one line per action, then a
// closing summary. Pure: a function of the plan alone (ages are measured against `plan.now`),
// colour only through the Chalk instance the caller asks for. Each block is its controller's
// (src/controllers/<name>/render.ts, found by the plan's kind); this file nests and joins them.
import {Chalk, type ChalkInstance} from 'chalk'
import type {ControllerPlan, ReconcilePlan} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {controllerOf, plannedKinds} from './dispatch.js'
import {applySetNote} from './plan-lines.js'
import {count} from './words.js'

export interface TableStyle {
  color: boolean
}

export function renderPlanTable(plan: ReconcilePlan, style: TableStyle = {color: false}): string {
  const c = new Chalk({level: style.color ? 1 : 0})
  // A Deployment's ReplicaSets (a CronJob's Jobs) are shown under it, indented, rather than on their own.
  const shownUnder = new Map<string, ControllerPlan[]>()
  const nested = new Set<ControllerPlan>()
  for (const d of CONTROLLERS) {
    if (!d.render.showsUnder) continue
    const {kind, uids} = d.render.showsUnder
    const byUid = new Map(plan.controllers.filter((cp) => cp.kind === kind).map((cp) => [cp.uid, cp]))
    for (const parent of plan.controllers) {
      if (!(d.kinds as readonly string[]).includes(parent.kind)) continue
      const mine = uids(parent).map((uid) => byUid.get(uid)).filter((x): x is ControllerPlan => x !== undefined && !nested.has(x))
      for (const child of mine) nested.add(child)
      shownUnder.set(parent.uid, mine)
    }
  }
  const blocks = plan.controllers
    .filter((cp) => !nested.has(cp))
    .map((cp) => {
      const part = controllerOf(cp.kind)
      return part ? part.render.planBlock(cp, {plan, c, under: shownUnder.get(cp.uid) ?? []}) : unknownBlock(cp, c)
    })
  const footer = [...ignoredLine(plan), summaryLine(plan, c)]
  return [...blocks, footer.join('\n')].map((b) => `${b}\n`).join('\n')
}

/** A plan of a kind no controller draws (none is read today): its header and its actions' types. */
function unknownBlock(cp: ControllerPlan, c: ChalkInstance): string {
  return [`${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}`, ...cp.actions.map((a) => `  ? ${a.type}`), ...cp.warnings.map((w) => c.yellow(`  ! ${w}`))].join('\n')
}

function ignoredLine(plan: ReconcilePlan): string[] {
  const entries = Object.entries(plan.ignored ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (entries.length === 0) return []
  return [`Not planned (kctl plans ${plannedKinds()}): ${entries.map(([k, n]) => `${k} (${n})`).join(', ')}.`]
}

function summaryLine(plan: ReconcilePlan, c: ChalkInstance): string {
  const s = plan.summary
  if (s.controllers === 0) return `No ${plannedKinds('or')} found.`
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
  if ((s.scaleTarget ?? 0) > 0) parts.push(c.yellow(count(s.scaleTarget!, 'scale write')))
  if (s.updateStatus + (s.updateHpaStatus ?? 0) > 0) parts.push(c.yellow(count(s.updateStatus + (s.updateHpaStatus ?? 0), 'status update')))
  const tail = [
    ...(s.pending > 0 ? [`${count(s.pending, 'pod')} pending`] : []),
    ...(s.inSync > 0 ? [`${s.inSync} in sync`] : []),
  ]
  return `${c.bold('Plan:')} ${parts.join(', ')} across ${count(changed, 'controller')}${tail.length > 0 ? `; ${tail.join('; ')}` : ''}.`
}
