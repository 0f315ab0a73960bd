// The delta between two plans: what changed in a controller's plan, and which controllers' plans
// differ between two complete sets.
import {describe, expect, it} from 'vitest'

import {changedFields, deepEqual, planChanged, planDelta} from '../../../src/watch/delta.js'
import {controllerPlan, planOf, pod, replicaSet, snapshotOf} from '../../helpers/builders.js'

const web = replicaSet('web', {replicas: 2, status: {replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2}})
const api = replicaSet('api', {replicas: 1, templateLabels: {app: 'api'}, status: {replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1}})
const pods = [pod('web-1', {owner: web}), pod('web-2', {owner: web}), pod('api-1', {owner: api, labels: {app: 'api'}})]
const plans = (ws = [web, api], ps = pods) => planOf(snapshotOf({workloads: ws, pods: ps})).controllers

describe('deepEqual', () => {
  it('compares plain data; a key holding undefined equals a missing one', () => {
    expect(deepEqual({a: 1, b: [1, {c: 'x'}]}, {b: [1, {c: 'x'}], a: 1})).toBe(true)
    expect(deepEqual({a: 1, b: undefined}, {a: 1})).toBe(true)
    expect(deepEqual({a: 1}, {a: 2})).toBe(false)
    expect(deepEqual([1, 2], [2, 1])).toBe(false)
    expect(deepEqual({a: []}, {a: {}})).toBe(false)
    expect(deepEqual(null, {})).toBe(false)
  })
})

describe('planDelta', () => {
  it('nothing changed: no delta', () => {
    const before = new Map(plans().map((p) => [`${p.kind}/${p.namespace}/${p.name}`, p]))
    expect(planDelta(before, plans())).toEqual([])
  })

  it('reports only the controller whose plan changed, with the cells that changed', () => {
    const before = new Map(plans().map((p) => [`${p.kind}/${p.namespace}/${p.name}`, p]))
    // web-2 stops being ready: web's status (ready) changes, and it would write it.
    const after = plans([web, api], [pods[0], pod('web-2', {owner: web, ready: false}), pods[2]])
    const delta = planDelta(before, after)
    expect(delta.map((d) => d.key)).toEqual(['ReplicaSet/default/web'])
    expect(delta[0].changed).toEqual(['ready', 'actions', 'status'])
    expect(delta[0].next!.status.readyReplicas).toBe(1)
  })

  it('a scale-up changes desired, diff and the actions; a controller that is gone is reported with no next plan', () => {
    const before = new Map(plans().map((p) => [`${p.kind}/${p.namespace}/${p.name}`, p]))
    const bigger = replicaSet('web', {replicas: 4, status: web.status})
    const delta = planDelta(before, plans([bigger]))
    expect(delta.map((d) => [d.key, d.next === undefined])).toEqual([
      ['ReplicaSet/default/web', false],
      ['ReplicaSet/default/api', true],
    ])
    expect(delta[0].changed).toEqual(['desired', 'diff', 'actions'])
    expect(delta[1].changed).toContain('desired')
  })

  it('a new controller is reported with no previous plan', () => {
    const delta = planDelta(new Map(), plans([web]))
    expect(delta).toHaveLength(1)
    expect(delta[0].previous).toBeUndefined()
  })
})

describe('changedFields / planChanged', () => {
  it('a change only in warnings, or in a delete\'s ranking facts, still counts', () => {
    const a = controllerPlan(planOf(snapshotOf({workloads: [web], pods})), 'web')
    const b = {...a, warnings: ['something']}
    expect(planChanged(a, b)).toBe(true)
    expect(changedFields(a, b)).toEqual(['warnings'])
    expect(planChanged(a, structuredClone(a))).toBe(false)
    expect(changedFields(a, {...a, uid: 'other'})).toEqual(['other'])
  })
})
