// Why a pod is deleted, in words: the `reasons` of the wire form and the table's "because".
// Made only here, from the plan's data (`decidedBy`, `decidedAgainst`, `facts`, the tie).
import {type ControllerPlan, type DecidedBy, type DeleteAction, TIE_LISTED_MAX} from '../model/plan.js'
import {age, count, joinWords} from './words.js'

/** The ranking rule (ActivePodsWithRanks.Less criterion) in words, for "(decided by …)". */
const RULE_NAMES: Record<DecidedBy, string> = {
  unassigned: 'node assignment',
  phase: 'phase',
  'not-ready': 'readiness',
  'deletion-cost': 'deletion cost',
  colocated: 'co-location',
  'ready-time': 'ready time',
  restarts: 'restarts',
  created: 'creation time',
  uid: 'uid tie-break',
  all: 'no ranking',
}

/** Why this pod goes, in words, from the rule that decided it and this pod's own facts. */
function decisiveReason(a: DeleteAction, cp: ControllerPlan, now: string): string {
  // Compared with a pod of its own tie, no rule decided: upstream's order does not say.
  if (inOwnTie(a, cp)) return `no rule puts it ahead of kept pod ${a.decidedAgainst}: a tie`
  const f = a.facts
  let what: string
  switch (a.decidedBy) {
    case 'all':
      return cp.desired === 0 ? 'desired 0, every active pod goes' : 'every active pod goes'
    case 'unassigned':
      what = 'not scheduled to a node'
      break
    case 'phase':
      what = f.phase ? `phase ${f.phase}` : 'no phase reported'
      break
    case 'not-ready':
      what = 'not ready'
      break
    case 'deletion-cost':
      what =
        f.invalidDeletionCost === undefined
          ? `deletion cost ${f.deletionCost}`
          : `deletion cost 0 (annotation "${f.invalidDeletionCost}" is not a valid int32)`
      break
    case 'colocated':
      what = `${count(f.colocationRank, 'related pod')} on node ${f.nodeName || '(none)'}`
      break
    case 'ready-time': {
      const since = age(f.readySince, now)
      what = since ? `ready for only ${since}` : 'ready time unknown'
      break
    }
    case 'restarts':
      what = f.sidecarRestarts > 0 ? `${count(f.restarts, 'restart')}, ${count(f.sidecarRestarts, 'sidecar restart')}` : count(f.restarts, 'restart')
      break
    case 'created': {
      const created = age(f.creationTimestamp, now)
      what = created ? `created ${created} ago` : 'creation time unknown'
      break
    }
    case 'uid':
      what = 'same age bucket as a pod kept, smaller uid'
      break
    default:
      what = String(a.decidedBy)
  }
  const against = a.decidedAgainst ? ` against kept pod ${a.decidedAgainst}` : ''
  return `${what} (decided by ${RULE_NAMES[a.decidedBy] ?? a.decidedBy}${against})`
}

/**
 * The reasons of a delete, most important first: the rule that put it ahead of the pods kept,
 * then an invalid deletion cost, then the tie it belongs to.
 */
export function deleteReasons(a: DeleteAction, cp: ControllerPlan, now: string): string[] {
  const reasons = [decisiveReason(a, cp, now)]
  if (a.facts.invalidDeletionCost !== undefined && a.decidedBy !== 'deletion-cost') {
    reasons.push(`pod-deletion-cost "${a.facts.invalidDeletionCost}" is not a valid int32 and counts as 0`)
  }
  const tie = tieOf(a, cp)
  if (tie) reasons.push(tieSentence(tie))
  return reasons
}

/** Whether the comparison behind `decidedBy` was with a pod of the victim's own tie (so nothing decided). */
export function inOwnTie(a: DeleteAction, cp: ControllerPlan): boolean {
  return a.decidedAgainst !== undefined && (tieOf(a, cp)?.pods.includes(a.decidedAgainst) ?? false)
}

/** A tie as the renderers read it: its pods and how many of them this sync deletes. */
export interface TieView {
  id?: number
  pods: readonly string[]
  delete: number
}

/**
 * The tie a delete belongs to: its group in the controller plan, or, in a plan saved before ties
 * were grouped, the delete's own list (the deletes that share it counted).
 */
export function tieOf(a: DeleteAction, cp: ControllerPlan): TieView | undefined {
  if (a.tieGroup !== undefined) {
    const group = cp.ties?.find((t) => t.id === a.tieGroup)
    if (group) return group
  }
  if (!a.tie || a.tie.length < 2) return undefined
  const members = new Set(a.tie)
  return {pods: a.tie, delete: cp.actions.filter((x) => x.type === 'delete' && members.has(x.pod)).length}
}

/** Pods of a tie named in its sentence before the rest are counted; -o json's `ties` has every one. */
const TIE_NAMED = 3

export function tieSentence(tie: TieView): string {
  const chosen = tie.delete
  const n = tie.pods.length
  const which = n === 2 && chosen === 1 ? 'either' : chosen === 1 ? 'any one of them' : `any ${chosen} of them`
  if (n <= TIE_LISTED_MAX) return `upstream's order does not decide between ${joinWords(tie.pods)}: the controller may delete ${which}`
  const named = `${tie.pods.slice(0, TIE_NAMED).join(', ')} and ${n - TIE_NAMED} more`
  const group = tie.id === undefined ? '' : ` of tie ${tie.id}`
  return `upstream's order does not decide between the ${n} pods${group} (${named}; the plan's ties list them all): the controller may delete ${which}`
}
