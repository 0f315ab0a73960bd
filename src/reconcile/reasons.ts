// The `reasons` strings of a delete action: the facts behind its rank, in rule order, compared
// with the first pod kept. Pure; the codes and numbers are in `decidedBy` and `facts` too.
import type {DecidedBy, RankFacts} from '../model/plan.js'
import {formatAge, objectTime} from './time.js'

export interface ReasonInputs {
  decidedBy: DecidedBy
  victim: RankFacts
  /** The first pod kept (absent when every pod goes). */
  kept?: {name: string; facts: RankFacts}
  tie?: string[]
  now: bigint
  desired: number
}

export function deleteReasons(input: ReasonInputs): string[] {
  const {victim, kept, now} = input
  const reasons: string[] = []
  const against = kept ? ` (kept ${kept.name}: ` : ''
  const close = kept ? ')' : ''
  switch (input.decidedBy) {
    case 'all':
      reasons.push(`every active pod goes: scaling to ${input.desired}`)
      break
    case 'unassigned':
      reasons.push(`not scheduled to a node${against}${kept ? `on ${kept.facts.nodeName}` : ''}${close}`)
      break
    case 'phase':
      reasons.push(`phase ${victim.phase || '(none)'}${against}${kept ? kept.facts.phase : ''}${close}; Pending < Unknown < Running`)
      break
    case 'not-ready':
      reasons.push(`not ready${against}${kept ? 'ready' : ''}${close}`)
      break
    case 'deletion-cost':
      reasons.push(`pod-deletion-cost ${victim.deletionCost}${against}${kept?.facts.deletionCost ?? ''}${close}; lower cost goes first`)
      break
    case 'colocated':
      reasons.push(`${victim.colocationRank} related active pods on node ${victim.nodeName || '(none)'}${against}${kept?.facts.colocationRank ?? ''}${close}; more crowded nodes go first`)
      break
    case 'ready-time':
      reasons.push(`ready for ${age(victim.readySince, now)}, age bucket ${victim.readyBucket ?? 'none'}${against}${kept ? `${age(kept.facts.readySince, now)}, bucket ${kept.facts.readyBucket ?? 'none'}` : ''}${close}; more recently ready goes first`)
      break
    case 'restarts':
      reasons.push(`${victim.restarts} container restarts, ${victim.sidecarRestarts} sidecar restarts${against}${kept ? `${kept.facts.restarts}, ${kept.facts.sidecarRestarts}` : ''}${close}; more restarts go first`)
      break
    case 'created':
      reasons.push(`created ${age(victim.creationTimestamp, now)} ago, age bucket ${victim.createdBucket ?? 'none'}${against}${kept ? `${age(kept.facts.creationTimestamp, now)}, bucket ${kept.facts.createdBucket ?? 'none'}` : ''}${close}; younger goes first`)
      break
    case 'uid':
      reasons.push(`same log2 age bucket as kept ${kept?.name ?? 'pods'}; the smaller UID goes first (effectively arbitrary)`)
      break
  }
  if (victim.invalidDeletionCost !== undefined) {
    reasons.push(`pod-deletion-cost ${JSON.stringify(victim.invalidDeletionCost)} is not a valid int32 and counts as 0`)
  }
  if (input.tie) reasons.push(`tied on every rule with ${input.tie.join(', ')}: the controller may delete any of them`)
  return reasons
}

function age(timestamp: string | undefined, now: bigint): string {
  const t = objectTime(timestamp)
  return t === undefined ? 'an unknown time' : formatAge(now - t)
}
