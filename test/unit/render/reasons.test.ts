// Why a pod is deleted, in words (render/reasons.ts): the rule that decided it, and the tie.
import {describe, expect, it} from 'vitest'

import {deleteReasons} from '../../../src/render/reasons.js'
import {controller, del, facts, NOW} from './plans.js'

describe('deleteReasons', () => {
  const rs = controller('web', {desired: 1})
  const cases: [Parameters<typeof del>[1], Partial<ReturnType<typeof facts>>, string][] = [
    ['unassigned', {nodeName: ''}, 'not scheduled to a node (decided by node assignment)'],
    ['phase', {phase: 'Pending'}, 'phase Pending (decided by phase)'],
    ['phase', {phase: ''}, 'no phase reported (decided by phase)'],
    ['not-ready', {ready: false}, 'not ready (decided by readiness)'],
    ['deletion-cost', {deletionCost: -100}, 'deletion cost -100 (decided by deletion cost)'],
    ['deletion-cost', {deletionCost: 0, invalidDeletionCost: '+5'}, 'deletion cost 0 (annotation "+5" is not a valid int32) (decided by deletion cost)'],
    ['colocated', {colocationRank: 3, nodeName: 'node-1'}, '3 related pods on node node-1 (decided by co-location)'],
    ['ready-time', {readySince: '2026-11-22T09:59:00Z'}, 'ready for only 60s (decided by ready time)'],
    ['restarts', {restarts: 4}, '4 restarts (decided by restarts)'],
    ['restarts', {restarts: 1, sidecarRestarts: 2}, '1 restart, 2 sidecar restarts (decided by restarts)'],
    ['created', {creationTimestamp: '2026-11-20T10:00:00Z'}, 'created 2d ago (decided by creation time)'],
    ['uid', {}, 'same age bucket as a pod kept, smaller uid (decided by uid tie-break)'],
  ]
  it.each(cases)('%s %j', (rule, f, text) => {
    expect(deleteReasons(del('p', rule, {facts: facts(f)}), rs, NOW)[0]).toBe(text)
  })

  it('explains "all" by the desired count', () => {
    expect(deleteReasons(del('p', 'all'), controller('web', {desired: 0}), NOW)).toEqual(['desired 0, every active pod goes'])
  })

  it('compared with a pod of its own tie, names no rule', () => {
    const rs3 = controller('web', {desired: 1, actions: [del('p', 'created', {decidedAgainst: 'q', tie: ['p', 'q']})]})
    expect(deleteReasons(rs3.actions[0] as never, rs3, NOW)).toEqual([
      'no rule puts it ahead of kept pod q: a tie',
      "upstream's order does not decide between p and q: the controller may delete either",
    ])
  })

  it('names the kept pod a rule decided against, and adds an invalid cost and the tie', () => {
    const rs2 = controller('web', {desired: 1, actions: [del('p', 'not-ready', {decidedAgainst: 'q', tie: ['p', 'r'], facts: facts({ready: false, invalidDeletionCost: '007'})})]})
    expect(deleteReasons(rs2.actions[0] as never, rs2, NOW)).toEqual([
      'not ready (decided by readiness against kept pod q)',
      'pod-deletion-cost "007" is not a valid int32 and counts as 0',
      "upstream's order does not decide between p and r: the controller may delete either",
    ])
  })
})
