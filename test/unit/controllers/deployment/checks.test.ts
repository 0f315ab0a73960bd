// The checks before a Deployment's writes are sent (staleness, guards, a saved plan read back),
// and reconcile on Deployment fixtures, in process, with --out.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {guardViolations, RemovalLedger} from '../../../../src/apply/guards.js'
import {parseSavedPlan} from '../../../../src/apply/saved-plan.js'
import {staleness} from '../../../../src/apply/staleness.js'
import type {ActionResult} from '../../../../src/model/apply.js'
import type {ControllerPlan, ReconcilePlan, ReplicaSetStep} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {planToWire} from '../../../../src/render/wire.js'
import {computePlan} from '../../../../src/services/plan.js'
import {reconcile} from '../../../../src/services/reconcile.js'
import {readSnapshot} from '../../../../src/services/snapshot.js'
import {controller, del, NOW, planOf} from '../../apply/plans.js'

const options = {now: NOW, featureGates: {PodDeletionCost: true, LogarithmicScaleDown: true, DeploymentReplicaSetTerminatingReplicas: true}, burstReplicas: 500}

function deployment(replicaSets: Array<[string, number, number]>, actions: ControllerPlan['actions'], desired = 3): ControllerPlan {
  const steps: ReplicaSetStep[] = replicaSets.map(([name, from, replicas]) => ({name, uid: `uid-${name}`, revision: '1', from, replicas, available: 0, isNew: false, created: false}))
  return {...controller({name: 'web', desired, actions}), kind: 'Deployment', replicaSets: steps}
}
const scale = (rs: string, from: number, to: number) => ({type: 'scaleReplicaSet' as const, replicaSet: rs, uid: `uid-${rs}`, resourceVersion: '5', from, to, rule: 'availability' as const, annotations: {}})

describe('staleness of a Deployment plan', () => {
  it('names a ReplicaSet the Deployment writes to that changed, and a name it creates that is taken', async () => {
    const world = await readSnapshot({filename: ['examples/rollout'], now: NOW})
    const plan = planSnapshot(world, options)
    expect(staleness(plan, world, plan)).toEqual([])
    const d = plan.controllers.find((c) => c.kind === 'Deployment')!
    const target = d.actions.find((a) => a.type === 'scaleReplicaSet')!
    if (target.type !== 'scaleReplicaSet') throw new Error('expected a scale')
    const touched = {...world, replicaSets: world.replicaSets.map((rs) => (rs.name === target.replicaSet ? {...rs, resourceVersion: '99999'} : rs))}
    expect(staleness(plan, touched, planSnapshot(touched, options))).toContain(`ReplicaSet staging/${target.replicaSet} (to scale) changed (resourceVersion ${target.resourceVersion} → 99999)`)

    const fresh = await readSnapshot({filename: ['examples/manifests'], now: NOW})
    const created = planSnapshot(fresh, options)
    const create = created.controllers[0].actions[0]
    if (create.type !== 'createReplicaSet' || create.name === null) throw new Error('expected a create')
    const taken = {...fresh, replicaSets: [{...world.replicaSets[0], namespace: 'default', name: create.name}]}
    expect(staleness(created, taken, planSnapshot(taken, options))).toContain(`ReplicaSet default/${create.name} (to create) exists now`)
  })
})

describe('guards on Deployment plans', () => {
  it('--max-delete counts the replicas a scale-down takes away, and not again when the ReplicaSet controller deletes those pods', () => {
    const round1 = planOf(deployment([['old', 4, 1], ['new', 0, 3]], [scale('old', 4, 1)]))
    expect(guardViolations(round1, {maxDelete: 2, allowScaleToZero: true})).toEqual(['the plan deletes 3 pods, more than --max-delete 2'])
    const ledger = new RemovalLedger()
    expect(guardViolations(round1, {maxDelete: 3, ledger})).toEqual([])
    const done: ActionResult = {round: 1, controller: {kind: 'Deployment', apiVersion: 'apps/v1', namespace: 'ns', name: 'web', uid: 'uid-web'}, action: 'scaleReplicaSet', predicted: scale('old', 4, 1), outcome: 'ok'}
    ledger.record([done])
    expect(ledger.counted).toBe(3)
    // Round 2: the ReplicaSet controller deletes the 3 pods of "old": already counted.
    const round2: ReconcilePlan = planOf(controller({name: 'old', desired: 1, active: 4, actions: [del('a'), del('b'), del('c')]}))
    expect(guardViolations(round2, {maxDelete: 3, ledger})).toEqual([])
    // Without the scale-down's credit, the same deletes would count again.
    expect(guardViolations(round2, {maxDelete: 3, ledger: Object.assign(new RemovalLedger(), {counted: 3})})).toEqual(['this round deletes 3 pods after 3 already deleted, more than --max-delete 3'])
    expect(guardViolations(planOf(controller({name: 'other', desired: 1, active: 2, actions: [del('d')]})), {maxDelete: 3, ledger})).toEqual([
      'this round deletes 1 pods after 3 already deleted, more than --max-delete 3',
    ])
  })

  it('scaling every ReplicaSet of a Deployment to 0 needs --allow-scale-to-zero; emptying an old ReplicaSet in a rollout does not', () => {
    const recreate = planOf(deployment([['old', 2, 0]], [scale('old', 2, 0)]))
    expect(guardViolations(recreate, {})).toEqual(['Deployment ns/web: the plan scales every ReplicaSet to 0 (2 replicas, a Recreate rollout); pass --allow-scale-to-zero to allow it'])
    expect(guardViolations(recreate, {allowScaleToZero: true})).toEqual([])
    // The ReplicaSet controller deleting the last pods of an old ReplicaSet while the new one keeps its own.
    const rollout = planOf(controller({name: 'old', desired: 0, active: 2, actions: [del('a'), del('b')]}), deployment([['old', 0, 0], ['new', 3, 3]], []))
    expect(guardViolations(rollout, {})).toEqual([])
  })
})

describe('a saved plan with Deployments', () => {
  it('is read back with its Deployment writes; a write missing what the executor sends is refused with its place', async () => {
    const plan = await computePlan({filename: ['examples/rollout'], now: NOW})
    const text = JSON.stringify(planToWire(plan))
    const back = parseSavedPlan(text, 'plan.json')
    expect(back.controllers.map((c) => c.kind)).toEqual(plan.controllers.map((c) => c.kind))
    expect(back.controllers[0].actions).toEqual(plan.controllers[0].actions)
    const broken = JSON.parse(text)
    delete broken.controllers[0].actions[0].resourceVersion
    expect(() => parseSavedPlan(JSON.stringify(broken), 'plan.json')).toThrow('plan.json: controllers[0].actions[0].resourceVersion: expected a string')
  })
})

describe('reconcile -f with Deployments --apply --until-converged --out', () => {
  it('creates the ReplicaSet by its planned name and its pods, writes the status and revision; kctl plan -f on the result has nothing to do', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kctl-dep-out-')), 'after')
    const first = await computePlan({filename: ['examples/manifests'], now: NOW})
    const names = first.controllers.flatMap((c) => c.actions.flatMap((a) => (a.type === 'createReplicaSet' && a.name ? [a.name] : [])))
    const report = await reconcile({filename: ['examples/manifests'], apply: true, untilConverged: true, out, now: NOW})
    expect({outcome: report.outcome, converged: report.converged, failed: report.summary.failed}).toEqual({outcome: 'succeeded', converged: true, failed: 0})
    const after = await computePlan({filename: [out], now: NOW})
    // The manifests' Service is planned only (reconcile leaves Services out): its endpoint writes stay to do.
    expect(after.controllers.filter((c) => !c.inSync).map((c) => `${c.kind}/${c.name}`)).toEqual(['Service/web'])
    expect(after.controllers.filter((c) => c.kind === 'ReplicaSet').map((c) => c.name).sort()).toEqual([...names].sort())
    for (const d of after.controllers.filter((c) => c.kind === 'Deployment')) expect(d.replicaSets?.[0].revision).toBe('1')
    expect(after.controllers.filter((c) => c.kind === 'ReplicaSet').map((c) => c.active)).toEqual(after.controllers.filter((c) => c.kind === 'ReplicaSet').map((c) => c.desired))
  })
})
