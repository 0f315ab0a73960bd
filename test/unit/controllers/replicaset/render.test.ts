// The ReplicaSet's block of kctl plan's table (controllers/replicaset/render.ts), and the summary under it.
import {describe, expect, it} from 'vitest'

import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {controller, create, del, facts, plan, status} from '../../render/plans.js'

describe('renderPlanTable', () => {
  it('renders a scale-down with reasons, a tie and a status write, then the summary', () => {
    const web = controller('web', {
      desired: 2,
      active: 5,
      diff: 3,
      actions: [
        del('web-pending', 'unassigned', {facts: facts({nodeName: '', phase: 'Pending', ready: false})}),
        del('web-starting', 'not-ready', {facts: facts({ready: false})}),
        del('web-a', 'created', {tie: ['web-a', 'web-b'], facts: facts({creationTimestamp: '2026-11-22T09:40:00Z'})}),
        {type: 'updateStatus', from: status({replicas: 5, readyReplicas: 3}), to: status({replicas: 5, readyReplicas: 3, observedGeneration: 2})},
      ],
    })
    const api = controller('api')
    expect(renderPlanTable(plan([api, web]))).toBe(
      [
        'ReplicaSet default/api  3 active, want 3  (in sync)',
        '',
        'ReplicaSet default/web  5 active, want 2: delete 3',
        '  - delete pod web-pending   because: not scheduled to a node (decided by node assignment)',
        '  - delete pod web-starting  because: not ready (decided by readiness)',
        '  - delete pod web-a         because: created 20m ago (decided by creation time)',
        "      upstream's order does not decide between web-a and web-b: the controller may delete either",
        '  ~ status observedGeneration 1→2',
        '',
        'Plan: -3 pods, 1 status update across 1 controller; 1 in sync.',
        '',
      ].join('\n'),
    )
  })

  it('prints each create, adoption and release, and pluralizes the summary', () => {
    const rs = controller('web', {
      desired: 3,
      active: 1,
      diff: -2,
      actions: [
        {type: 'adopt', pod: 'web-orphan', uid: 'u1', resourceVersion: '1'},
        {type: 'release', pod: 'web-edited', uid: 'u2', resourceVersion: '2'},
        create('web'),
        create('web'),
      ],
    })
    expect(renderPlanTable(plan([rs]))).toBe(
      [
        'ReplicaSet default/web  1 active, want 3: create 2',
        '  ~ adopt pod web-orphan  (an orphan whose labels match the selector)',
        '  ~ release pod web-edited  (owned, but its labels no longer match the selector)',
        '  + create pod web-<random>  (generateName web-)',
        '  + create pod web-<random>  (generateName web-)',
        '',
        'Plan: +2 pods, 1 adoption, 1 release across 1 controller.',
        '',
      ].join('\n'),
    )
  })

  it('folds many creates into one line and says what the burst limit leaves for later', () => {
    const big = controller('big', {
      desired: 600,
      active: 0,
      diff: -600,
      pending: 100,
      actions: Array.from({length: 500}, () => create('big')),
    })
    expect(renderPlanTable(plan([big]))).toBe(
      [
        'ReplicaSet default/big  0 active, want 600: create 600',
        '  + create 500 pods big-<random>  (generateName big-)',
        '  + 100 more pods to create in a later sync (burst limit 500 per sync)',
        '',
        'Plan: +500 pods across 1 controller; 100 pods pending.',
        '',
      ].join('\n'),
    )
  })

  it('shows a create that fails client-side, warnings and ignored kinds', () => {
    const rc = controller('legacy', {
      kind: 'ReplicationController',
      apiVersion: 'v1',
      desired: 2,
      active: 0,
      diff: -2,
      pending: 1,
      actions: [create('legacy', {error: 'unable to create pods, no labels'} as never)],
      warnings: ['the selector does not match the template\'s labels'],
    })
    expect(renderPlanTable(plan([rc], {ignored: {Service: 2, Deployment: 1}}))).toBe(
      [
        'ReplicationController default/legacy  0 active, want 2: create 2',
        '  + create pod legacy-<random>  (generateName legacy-) would fail: unable to create pods, no labels',
        '  + 1 pod not created in this sync',
        "  ! the selector does not match the template's labels",
        '',
        'Not planned (kctl plans ReplicaSets, ReplicationControllers, Deployments, DaemonSets, StatefulSets, Jobs, CronJobs, Services and HorizontalPodAutoscalers): Deployment (1), Service (2).',
        'Plan: +1 pod across 1 controller; 1 pod pending.',
        '',
      ].join('\n'),
    )
  })

  it('says "No changes" when every controller is in sync, and handles an empty input', () => {
    expect(renderPlanTable(plan([controller('a'), controller('b')]))).toBe(
      [
        'ReplicaSet default/a  3 active, want 3  (in sync)',
        '',
        'ReplicaSet default/b  3 active, want 3  (in sync)',
        '',
        'No changes. 2 controllers in sync.',
        '',
      ].join('\n'),
    )
    expect(renderPlanTable(plan([controller('a')]))).toMatch(/No changes\. 1 controller in sync\.\n$/)
    expect(renderPlanTable(plan([]))).toBe('No ReplicaSets, ReplicationControllers, Deployments, DaemonSets, StatefulSets, Jobs, CronJobs, Services or HorizontalPodAutoscalers found.\n')
  })

  it('shows a tie of three once, after its last victim, and names no rule when the whole choice is the tie', () => {
    const rs = controller('web', {
      desired: 1,
      active: 3,
      diff: 2,
      actions: [
        del('web-a', 'created', {tie: ['web-a', 'web-b', 'web-c'], decidedAgainst: 'web-c'}),
        del('web-b', 'created', {tie: ['web-a', 'web-b', 'web-c'], decidedAgainst: 'web-c'}),
      ],
    })
    expect(renderPlanTable(plan([rs]))).toBe(
      [
        'ReplicaSet default/web  3 active, want 1: delete 2',
        '  - delete pod web-a  because: a tie, see below',
        '  - delete pod web-b  because: a tie, see below',
        "      upstream's order does not decide between web-a, web-b and web-c: the controller may delete any 2 of them",
        '',
        'Plan: -2 pods across 1 controller.',
        '',
      ].join('\n'),
    )
  })

  it('colours only when asked', () => {
    const rs = controller('web', {desired: 1, active: 2, diff: 1, actions: [del('web-a', 'not-ready')]})
    expect(renderPlanTable(plan([rs]), {color: false})).not.toMatch(/\u001B\[/)
    const colored = renderPlanTable(plan([rs]), {color: true})
    expect(colored).toContain('\u001B[31m  - delete pod web-a')
  })
})
