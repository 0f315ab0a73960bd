// Why a pod is deleted, in words: the `reasons` of the wire form and the table's "because".
// Made only here, from the plan's data (`decidedBy`, `decidedAgainst`, `facts`, `tie`).
import type {ControllerPlan, DecidedBy, DeleteAction} from '../model/plan.js'
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
  if (inOwnTie(a)) return `no rule puts it ahead of kept pod ${a.decidedAgainst}: a tie`
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

export function sameTie(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((p) => b.includes(p))
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
  if (a.tie && a.tie.length > 1) reasons.push(tieSentence(a.tie, cp))
  return reasons
}

/** Whether the comparison behind `decidedBy` was with a pod of the victim's own tie (so nothing decided). */
export function inOwnTie(a: DeleteAction): boolean {
  return a.tie !== undefined && a.decidedAgainst !== undefined && a.tie.includes(a.decidedAgainst)
}

export function tieSentence(tie: readonly string[], cp: ControllerPlan): string {
  const members = new Set(tie)
  const chosen = cp.actions.filter((x) => x.type === 'delete' && members.has(x.pod)).length
  const which = tie.length === 2 && chosen === 1 ? 'either' : chosen === 1 ? 'any one of them' : `any ${chosen} of them`
  return `upstream's order does not decide between ${joinWords(tie)}: the controller may delete ${which}`
}
