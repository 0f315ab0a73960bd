// The checks before anything is sent: staleness of a saved plan, the guards, reading a saved plan
// back; and the offline name generator.
import {describe, expect, it} from 'vitest'

import {guardViolations, RemovalLedger} from '../../../src/apply/guards.js'
import {generateName, NAME_ALPHABET, SeededRandom} from '../../../src/apply/names.js'
import {parseSavedPlan} from '../../../src/apply/saved-plan.js'
import {staleness} from '../../../src/apply/staleness.js'
import {planToWire} from '../../../src/render/wire.js'
import {planOf as planSnapshotOf, pod, replicaSet, snapshotOf} from '../../helpers/builders.js'
import {adopt, controller, creates, del, planOf} from './plans.js'

describe('staleness', () => {
  const rs = replicaSet('web', {replicas: 1, resourceVersion: '10'})
  const pods = [pod('web-a', {owner: rs, resourceVersion: '7', node: ''}), pod('web-b', {owner: rs, resourceVersion: '8'})]
  const world = snapshotOf({workloads: [rs], pods})
  const plan = planSnapshotOf(world)

  it('a plan of the world as it is is fresh', () => {
    expect(plan.controllers[0].actions.some((a) => a.type === 'delete')).toBe(true)
    expect(staleness(plan, world, planSnapshotOf(world))).toEqual([])
  })

  it('a pod to delete that changed (resourceVersion) makes it stale', () => {
    const changed = snapshotOf({workloads: [rs], pods: [pod('web-a', {owner: rs, resourceVersion: '9', node: ''}), pods[1]]})
    expect(staleness(plan, changed, planSnapshotOf(changed))).toEqual(['pod default/web-a (to delete) changed (resourceVersion 7 → 9)'])
  })

  it('a pod re-created under the same name (uid) makes it stale', () => {
    const changed = snapshotOf({workloads: [rs], pods: [pod('web-a', {owner: rs, uid: 'other', resourceVersion: '7', node: ''}), pods[1]]})
    expect(staleness(plan, changed, planSnapshotOf(changed))[0]).toMatch(/web-a \(to delete\) was deleted and re-created \(uid uid-web-a → other\)/)
  })

  it('the controller gone, re-created or changed makes it stale', () => {
    expect(staleness(plan, snapshotOf({workloads: [], pods}), planSnapshotOf(snapshotOf({workloads: [], pods})))).toEqual(['ReplicaSet default/web no longer exists'])
    const edited = snapshotOf({workloads: [replicaSet('web', {replicas: 1, resourceVersion: '11'})], pods})
    expect(staleness(plan, edited, planSnapshotOf(edited))[0]).toBe('ReplicaSet default/web changed (resourceVersion 10 → 11)')
  })

  it('another count of active pods (someone created one) makes it stale, though nothing named changed', () => {
    const more = snapshotOf({workloads: [rs], pods: [...pods, pod('web-c', {owner: rs})]})
    expect(staleness(plan, more, planSnapshotOf(more))).toEqual(['ReplicaSet default/web now has 3 active pods; the plan counted 2'])
  })
})

describe('guards', () => {
  it('--max-delete counts the deletes of the whole run', () => {
    const plan = planOf(controller({desired: 1, active: 4, actions: [del('a'), del('b'), del('c')]}))
    expect(guardViolations(plan, {maxDelete: 3, allowScaleToZero: true})).toEqual([])
    expect(guardViolations(plan, {maxDelete: 2, allowScaleToZero: true})).toEqual(['the plan deletes 3 pods, more than --max-delete 2'])
    expect(guardViolations(plan, {maxDelete: 4, allowScaleToZero: true, ledger: Object.assign(new RemovalLedger(), {counted: 2})})).toEqual([
      'this round deletes 3 pods after 2 already deleted, more than --max-delete 4',
    ])
  })

  it('deleting every pod of a controller needs --allow-scale-to-zero', () => {
    const all = planOf(controller({desired: 0, active: 2, actions: [del('a'), del('b')]}))
    expect(guardViolations(all, {})).toEqual(['ReplicaSet ns/web: the plan deletes all 2 active pods (desired 0); pass --allow-scale-to-zero to allow it'])
    expect(guardViolations(all, {allowScaleToZero: true})).toEqual([])
    expect(guardViolations(planOf(controller({desired: 1, active: 2, actions: [del('a')]})), {})).toEqual([])
    // Desired 0 but more pods than one sync deletes (burst): it still heads for zero.
    expect(guardViolations(planOf(controller({desired: 0, active: 600, actions: [del('a')]})), {})).toHaveLength(1)
  })
})

describe('a saved plan', () => {
  it('reads back what kctl plan -o json wrote (JSON and YAML), to the same plan', () => {
    const rs = replicaSet('web', {replicas: 1})
    const orphan = pod('stray', {labels: {app: 'web'}})
    const plan = planSnapshotOf(snapshotOf({workloads: [rs], pods: [pod('web-a', {owner: rs}), orphan]}))
    const text = JSON.stringify(planToWire(plan))
    const back = parseSavedPlan(text, 'plan.json')
    expect(planToWire(back)).toEqual(planToWire(plan))
    expect(back.controllers[0].actions.map((a) => a.type)).toEqual(plan.controllers[0].actions.map((a) => a.type))
  })

  it('names the field that is wrong', () => {
    const doc = JSON.parse(JSON.stringify(planToWire(planOf(controller({actions: [adopt('x'), ...creates(1)]})))))
    delete doc.controllers[0].actions[0].uid
    expect(() => parseSavedPlan(JSON.stringify(doc), 'p.json')).toThrow(/p\.json: controllers\[0\]\.actions\[0\]\.uid: expected a string/)
    expect(() => parseSavedPlan('{"apiVersion": "v1", "kind": "Pod"}', 'p.json')).toThrow(/expected apiVersion kctl\/v1alpha1, kind ReconcilePlan/)
    expect(() => parseSavedPlan('{', 'p.json')).toThrow(/p\.json: not a JSON or YAML document/)
  })
})

describe('names for pods created offline', () => {
  it('are the base cut to 58 characters and 5 characters of the API server\'s alphabet, the same for the same seed', () => {
    const a = new SeededRandom('seed')
    const names = Array.from({length: 50}, () => generateName('web-', a))
    for (const n of names) expect(n).toMatch(new RegExp(`^web-[${NAME_ALPHABET}]{5}$`))
    expect(new Set(names).size).toBe(50)
    const b = new SeededRandom('seed')
    expect(Array.from({length: 50}, () => generateName('web-', b))).toEqual(names)
    const long = generateName(`${'x'.repeat(60)}-`, new SeededRandom('s'))
    expect(long).toHaveLength(63)
    expect(long.slice(0, 58)).toBe('x'.repeat(58))
  })

  it('uuids are version-4 shaped', () => {
    expect(new SeededRandom('x').uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
