// The table view of a Deployment's plan: its own writes, then its ReplicaSets' next syncs (the
// ReplicaSet controller's blocks, indented), then the step after this sync.
import type {ChalkInstance} from 'chalk'
import type {Action, ControllerPlan, ReconcilePlan} from '../../model/plan.js'
import type {ActionResult} from '../../model/apply.js'
import {applySetNote, indent, statusChange} from '../../render/plan-lines.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {renderController} from '../replicaset/render.js'

/** A Deployment: its own writes, then its ReplicaSets' next syncs, then the step after this sync. */
function renderDeployment(cp: ControllerPlan, replicaSets: ControllerPlan[], plan: ReconcilePlan, c: ChalkInstance): string {
  const set = applySetNote(cp, c)
  const head = `${c.bold(`Deployment ${cp.namespace}/${cp.name}`)}${set}  ${cp.desired} replicas${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  cp.actions.forEach((a, i) => lines.push(deploymentActionLine(a, c, i === cp.actions.length - 1)))
  // A planned 409 is the controller's own stale write, which upstream sends in every such sync
  // (syncDeployment's second status write, an update after an adoption): normal, not an alarm.
  const plannedConflict = cp.endedBy !== undefined && cp.actions.some((a) => 'conflict' in a && a.conflict)
  for (const w of cp.warnings) {
    if (plannedConflict && w === `this sync ends early: ${cp.endedBy}`) lines.push(c.dim(`  · the sync stops at that write: ${cp.endedBy}`))
    else lines.push(c.yellow(`  ! ${w}`))
  }
  for (const rs of replicaSets) lines.push(indent(renderController(rs, plan, c), '  '))
  // After a hash collision: the Deployment's own next sync, with what follows it.
  for (const next of (cp.then ?? []).filter((p) => p.kind === 'Deployment')) {
    const count = (next.status as {collisionCount?: number} | undefined)?.collisionCount
    lines.push(c.dim(`  then, in the Deployment controller's next sync (collisionCount ${count}):`))
    lines.push(indent(renderDeployment(next, [], plan, c), '    '))
  }
  const replicaSetSyncs = (cp.then ?? []).filter((p) => p.kind !== 'Deployment')
  if (replicaSetSyncs.length > 0) {
    lines.push(c.dim('  then, in the ReplicaSet controller\'s next sync (after this one):'))
    for (const rs of replicaSetSyncs) lines.push(indent(renderController(rs, plan, c), '    '))
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

/**
 * `last`: no write follows it; a conflict that is not last was swallowed and the sync went on. A
 * planned 409 is the controller's own stale write, upstream's normal behaviour: worded as such.
 */
function deploymentActionLine(a: Action, c: ChalkInstance, last: boolean): string {
  const after = last ? 'its next sync writes it' : 'the controller swallows the error and goes on'
  const conflict = 'conflict' in a && a.conflict ? c.dim(`  (409 Conflict: the controller's own write conflicts here, as it always does; ${after})`) : ''
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
      const unchanged = 'unchanged' in a && a.unchanged ? c.dim('  [nothing stored: the resourceVersion stays]') : ''
      return c.yellow(`  ~ status ${statusChange(a.from, a.to)}${revision}${conflict}`) + unchanged
    }
    case 'rollback':
      return c.yellow(`  ~ rollback to revision ${a.toRevision}: ${a.event}${conflict}`)
    default:
      return `  ? ${a.type}`
  }
}

/** Its block of `kctl plan`'s table, with its ReplicaSets' blocks under it. */
export const planBlock = (cp: ControllerPlan, {plan, c, under}: PlanBlockContext): string => renderDeployment(cp, [...under], plan, c)

/** A Deployment's ReplicaSets are shown under it, indented, rather than on their own. */
export const showsUnder = {kind: 'ReplicaSet', uids: (d: ControllerPlan) => (d.replicaSets ?? []).map((rs) => rs.uid)} as const

/** Its lines of `kctl reconcile`'s report: the ReplicaSet writes and the rollback. */
export function applyLines(r: ActionResult, {outcome, results}: ApplyLineContext): string[] | undefined {
  const lines: string[] = []
  const rsWidth = Math.max(0, ...results.map((r) => (r.replicaSet ?? '').length))
  const a = r.predicted
  const rs = (r.replicaSet ?? '').padEnd(rsWidth)
  if (a?.type === 'createReplicaSet') {
    const exists = r.done?.alreadyExists ? ' (the name is taken, as planned)' : ''
    lines.push(`  + create ReplicaSet ${a.name === null ? '<name unknown>' : rs}  replicas ${a.replicas}${exists}  ${outcome(r)}`)
  } else if (a?.type === 'scaleReplicaSet') lines.push(`  ~ scale ReplicaSet ${rs}  ${a.from}→${a.to} (${a.rule})  ${outcome(r)}`)
  else if (a?.type === 'updateReplicaSet') lines.push(`  ~ update ReplicaSet ${rs}  annotations, minReadySeconds ${a.minReadySeconds}  ${outcome(r)}`)
  else if (a?.type === 'deleteReplicaSet') lines.push(`  - delete ReplicaSet ${rs}  revision ${a.revision || 'unset'} (${a.reason})  ${outcome(r)}`)
  else if (a?.type === 'adoptReplicaSet' || a?.type === 'releaseReplicaSet') lines.push(`  ~ ${a.type === 'adoptReplicaSet' ? 'adopt' : 'release'} ReplicaSet ${rs}  ${outcome(r)}`)
  else if (a?.type === 'rollback') lines.push(`  ~ rollback to revision ${a.toRevision}  ${outcome(r)}`)
  else return undefined
  return lines
}
