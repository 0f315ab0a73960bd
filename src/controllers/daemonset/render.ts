// The table view of a DaemonSet's plan: the header with the rollout in a few words, one line per
// write in the controller's order, then the nodes it leaves out.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../../model/apply.js'
import type {Action, ControllerPlan} from '../../model/plan.js'
import type {DaemonNode, NodeExclusion} from './model.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote, statusChange} from '../../render/plan-lines.js'
import {revisionActionLine} from '../../render/revisions.js'

/** Nodes a DaemonSet leaves out are listed one per line up to this many. */
const MAX_NODE_LINES = 10

const DELETE_WORDS: Record<string, string> = {
  failed: 'Failed: replaced in a later sync',
  succeeded: 'Succeeded: replaced in a later sync',
  duplicate: 'a second pod on its node',
  'not-eligible': 'its node no longer runs the daemon',
  'no-node': 'its node no longer exists',
  'surge-replaced': 'replaced by the new pod on its node',
}

const EXCLUSION_WORDS: Record<NodeExclusion, string> = {
  'node-name': 'the template names another node',
  'node-selector': 'nodeSelector does not match its labels',
  'node-affinity': 'required node affinity does not match',
  taint: 'untolerated taint',
}

export function renderDaemonSet(cp: ControllerPlan, head: string, c: ChalkInstance, statusLine: (a: Action) => string): string {
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  for (const a of cp.actions) lines.push(actionLine(a, c) ?? statusLine(a))
  const excluded = (cp.nodes ?? []).filter((n) => !n.shouldRun)
  for (const n of excluded.slice(0, MAX_NODE_LINES)) lines.push(c.dim(`  · node ${n.node}: ${nodeWords(n)}`))
  if (excluded.length > MAX_NODE_LINES) lines.push(c.dim(`  · and ${excluded.length - MAX_NODE_LINES} more nodes without the daemon pod (see nodes[] in -o json)`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

function nodeWords(n: DaemonNode): string {
  const why = n.excludedBy ? EXCLUSION_WORDS[n.excludedBy] : 'not eligible'
  const taint = n.taint ? ` ${n.taint.key}${n.taint.value ? `=${n.taint.value}` : ''}:${n.taint.effect}` : ''
  const keeps = n.shouldContinueRunning && n.pods.length > 0 ? `; its pod ${n.pods[0]} stays` : ''
  return `no daemon pod (${why}${taint})${keeps}`
}

export function actionLine(a: Action, c: ChalkInstance): string | undefined {
  switch (a.type) {
    case 'createDaemonPod':
      return c.green(`  + create pod ${a.nameBase}<random> on node ${a.node}${a.reason === 'surge' ? '  (surge: beside the old pod)' : ''}`)
    case 'deleteDaemonPod':
      return c.red(`  - delete pod ${a.pod} on node ${a.node}  because: ${a.reason === 'update' ? 'an old revision, and maxUnavailable allows it' : DELETE_WORDS[a.reason]}${a.kept ? ` (keeps ${a.kept})` : ''}`)
    case 'chooseDaemonPods':
      return c.yellow(`  ~ ${a.operation === 'delete' ? 'delete' : 'create on'} ${a.count} of ${candidates(a.candidates)}  (which: the controller's map order, random)`)
    default:
      return revisionActionLine(a, c)
  }
}

/** The first few candidates, and how many in all. */
function candidates(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NODE_LINES).join(', ')
  return names.length > MAX_NODE_LINES ? `${shown}, … (${names.length} in all)` : shown
}

function workloadHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = `${cp.desired} desired ${cp.desired === 1 ? 'node' : 'nodes'}`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

/** Its block of `kctl plan`'s table. */
export const planBlock = (cp: ControllerPlan, {c}: PlanBlockContext): string =>
  renderDaemonSet(cp, workloadHead(cp, c), c, (a) => (a.type === 'updateStatus' ? c.yellow(`  ~ status ${statusChange(a.from, a.to)}`) : `  ? ${a.type}`))

/** Its lines of `kctl reconcile`'s report: the plan's line, the name the server gave, what a choice picked. */
export function applyLines(r: ActionResult, {c, outcome}: ApplyLineContext): string[] | undefined {
  const a = r.predicted
  if (r.action === 'updateStatus' || !a) return undefined
  // A DaemonSet's write: the plan's line, the name the server gave, what a choice picked.
  const line = actionLine(a, c)
  const named = r.done?.name && a.type === 'createDaemonPod' ? ` → ${r.done.name}` : ''
  const chosen = r.done?.chosen ? c.dim(` → chose ${r.done.chosen.join(', ')} (the first ${r.done.chosen.length} by name; the controller picks at random)`) : ''
  return line ? [`${line}${named}${chosen}  ${outcome(r)}`] : []
}
