// The table view of a ReplicaSet's or ReplicationController's plan: the header with the counts in
// words, one line per create (folded past a few), delete (with the rule that decided it, and the tie
// worded once), adoption, release and status write, and what the sync leaves for later.
import type {ChalkInstance} from 'chalk'
import type {Action, ControllerPlan, CreateAction, DeleteAction, ReconcilePlan} from '../../model/plan.js'
import {applySetNote, statusChange} from '../../render/plan-lines.js'
import {deleteReasons, inOwnTie, tieOf, tieSentence} from '../../render/reasons.js'
import type {PlanBlockContext} from '../../render/part.js'
import {count} from '../../render/words.js'

/** Creates of one kind are listed one per line up to this many, then folded into one line. */
const MAX_CREATE_LINES = 5

export function renderController(cp: ControllerPlan, plan: ReconcilePlan, c: ChalkInstance): string {
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
        lines.push(c.red(`  - delete pod ${a.pod.padEnd(podWidth)}  because: ${inOwnTie(a, cp) ? 'a tie, see below' : deleteReasons(a, cp, plan.now)[0]}`))
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

/** Its block of `kctl plan`'s table. */
export const planBlock = (cp: ControllerPlan, {plan, c}: PlanBlockContext): string => renderController(cp, plan, c)

/** `kctl watch` names ReplicaSets and ReplicationControllers as kubectl's short names do. */
export const SHORT_NAMES = {ReplicaSet: 'rs', ReplicationController: 'rc'} as const
