// The table view of a StatefulSet's plan: the header with the rollout in a few words, one line per
// write in the controller's order, then the pod it waits on.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../../model/apply.js'
import type {Action, BlockReason, ControllerPlan} from '../../model/plan.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote, statusChange} from '../../render/plan-lines.js'
import {revisionActionLine} from '../../render/revisions.js'

const BLOCK_WORDS: Record<BlockReason, string> = {
  'not-running-and-ready': 'is not Running and Ready',
  'not-available': 'is not yet available (minReadySeconds)',
  terminating: 'is terminating',
  failed: 'failed and is deleted first',
  created: 'is created in this sync (OrderedReady: one at a time)',
  'stale-claim': "has a claim still owned by an earlier pod of that name",
  'claim-deleting': 'has a claim being deleted',
}

const DELETE_WORDS: Record<string, string> = {
  failed: 'Failed: replaced in a later sync',
  succeeded: 'Succeeded: replaced in a later sync',
  condemned: 'its ordinal is beyond replicas',
  update: 'not at the update revision',
}

export function renderStatefulSet(cp: ControllerPlan, head: string, c: ChalkInstance, statusLine: (a: Action) => string): string {
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  for (const a of cp.actions) lines.push(actionLine(a, c) ?? statusLine(a))
  if (cp.blockedBy) lines.push(c.dim(`  … then waits: ${cp.blockedBy.pod} ${BLOCK_WORDS[cp.blockedBy.reason]}`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

export function actionLine(a: Action, c: ChalkInstance): string | undefined {
  switch (a.type) {
    case 'createClaim':
      return c.green(`  + create PersistentVolumeClaim ${a.claim}  (template ${a.template}, for ${a.pod})`)
    case 'updateClaim':
      return c.yellow(`  ~ update PersistentVolumeClaim ${a.claim}  owners ${owners(a.from)}→${owners(a.to)} (retention policy)`)
    case 'createStatefulPod':
      return c.green(`  + create pod ${a.pod}  (${a.template} revision ${a.revision ?? 'unknown here'})`)
    case 'deleteStatefulPod':
      return c.red(`  - delete pod ${a.pod}  because: ${DELETE_WORDS[a.reason]}`)
    case 'updatePod':
      return c.yellow(`  ~ update pod ${a.pod}  (${a.fixes.join(', ')})`)
    default:
      return revisionActionLine(a, c)
  }
}

function owners(refs: readonly {kind: string; name: string}[]): string {
  return refs.length === 0 ? 'none' : refs.map((r) => `${r.kind}/${r.name}`).join(',')
}

function workloadHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = `${cp.desired} replicas`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

/** Its block of `kctl plan`'s table. */
export const planBlock = (cp: ControllerPlan, {c}: PlanBlockContext): string =>
  renderStatefulSet(cp, workloadHead(cp, c), c, (a) => (a.type === 'updateStatus' ? c.yellow(`  ~ status ${statusChange(a.from, a.to)}`) : `  ? ${a.type}`))

/** Its lines of `kctl reconcile`'s report: the plan's line, what a choice picked. */
export function applyLines(r: ActionResult, {c, outcome}: ApplyLineContext): string[] | undefined {
  const a = r.predicted
  if (r.action === 'updateStatus' || !a) return undefined
  // A StatefulSet's write: the plan's line, what a choice picked.
  const line = actionLine(a, c)
  const chosen = r.done?.chosen ? c.dim(` → chose ${r.done.chosen.join(', ')} (the first ${r.done.chosen.length} by name; the controller picks at random)`) : ''
  return line ? [`${line}${chosen}  ${outcome(r)}`] : []
}
