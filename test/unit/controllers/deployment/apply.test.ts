// The executor carrying out Deployment plans against the recording control: plans made by the real
// planner from the examples, and hand-built ones for the orders and failures the examples lack.
import {describe, expect, it} from 'vitest'
import {executePlan, SKIP} from '../../../../src/apply/executor.js'
import type {DeploymentStatusView} from '../../../../src/model/objects.js'
import type {ControllerPlan, DeploymentAction} from '../../../../src/model/plan.js'
import {computePlan} from '../../../../src/services/plan.js'
import {RecordingPodControl, type RecordedCall} from '../../../helpers/recording-control.js'
import {controller, controllersOf, del, NOW, planOf} from '../../apply/plans.js'

const now = () => NOW

const dStatus = (over: Partial<DeploymentStatusView> = {}): DeploymentStatusView => ({
  observedGeneration: 1,
  replicas: 3,
  updatedReplicas: 3,
  readyReplicas: 3,
  availableReplicas: 3,
  unavailableReplicas: 0,
  conditions: [],
  ...over,
})

function deployment(actions: DeploymentAction[], over: Partial<ControllerPlan> = {}): ControllerPlan {
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    namespace: 'ns',
    name: 'web',
    uid: 'uid-d',
    resourceVersion: '50',
    desired: 3,
    active: 3,
    diff: 0,
    actions,
    pending: 0,
    status: dStatus(),
    warnings: [],
    inSync: actions.length === 0,
    ...over,
  }
}

const ref = (replicaSet: string, resourceVersion = '7') => ({replicaSet, uid: `uid-${replicaSet}`, resourceVersion})
const scale = (rs: string, from: number, to: number, rv?: string): DeploymentAction => ({type: 'scaleReplicaSet', ...ref(rs, rv), from, to, rule: 'availability', annotations: {'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4'}})
const statusWrite = (to = dStatus({observedGeneration: 2})): DeploymentAction => ({type: 'updateStatus', from: dStatus(), to})
const kinds = (calls: RecordedCall[]) => calls.map((c) => (c.type === 'patchReplicaSet' ? `patch ${c.name}` : c.type === 'deleteReplicaSet' ? `delete ${c.name}` : c.type === 'createReplicaSet' ? `create ${c.rs.metadata.name}` : c.type))

describe('a Deployment plan, carried out', () => {
  it('a new Deployment (examples/manifests): the ReplicaSet created by its exact name, the status write with the revision; the write that conflicts is not sent', async () => {
    const plan = await computePlan({filename: ['examples/manifests'], now: NOW})
    const web = plan.controllers.find((c) => c.name === 'web')!
    const control = new RecordingPodControl({controllers: controllersOf(plan)})
    const exec = await executePlan(planOf(web), {control, now})
    expect(kinds(control.calls)).toEqual(['getController', 'create web-ddb79876', 'updateStatus'])
    const [{rs}] = control.callsOf('createReplicaSet')
    const create = web.actions[0]
    if (create.type !== 'createReplicaSet') throw new Error('expected a create first')
    expect(rs.metadata).toEqual({
      name: 'web-ddb79876',
      namespace: 'default',
      labels: create.labels,
      annotations: {'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4'},
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: web.uid, controller: true, blockOwnerDeletion: true}],
    })
    expect(rs.spec).toMatchObject({replicas: 3, minReadySeconds: create.minReadySeconds, selector: create.selector, template: {metadata: {labels: create.labels}}})
    const [{object}] = control.callsOf('updateStatus') as Array<{object: any}>
    expect(object.metadata.resourceVersion).toBe(web.resourceVersion)
    expect(object.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1')
    expect(object.status.conditions.map((c: any) => `${c.type}/${c.reason}`)).toEqual(['Progressing/NewReplicaSetCreated'])
    expect(exec.results.map((r) => [r.action, r.outcome, r.skipReason])).toEqual([
      ['createReplicaSet', 'ok', undefined],
      ['updateStatus', 'ok', undefined],
      ['updateStatus', 'skipped', SKIP.plannedConflict],
    ])
    expect(exec.results[0]).toMatchObject({replicaSet: 'web-ddb79876', done: {name: 'web-ddb79876', uid: 'uid-web-ddb79876'}})
    expect(exec.conflict).toBeUndefined()
  })

  it('mid-rollout (examples/rollout): the old ReplicaSet scaled with its uid and resourceVersion as preconditions and the annotations it gets', async () => {
    const plan = await computePlan({filename: ['examples/rollout'], now: NOW})
    const d = plan.controllers.find((c) => c.kind === 'Deployment')!
    const [a] = d.actions
    if (a.type !== 'scaleReplicaSet') throw new Error('expected a scale')
    const control = new RecordingPodControl({controllers: controllersOf(plan)})
    await executePlan(planOf(d), {control, now})
    expect(control.callsOf('patchReplicaSet')).toEqual([
      {type: 'patchReplicaSet', namespace: 'staging', name: a.replicaSet, patch: {metadata: {uid: a.uid, resourceVersion: a.resourceVersion, annotations: a.annotations}, spec: {replicas: a.to}}},
    ])
  })

  it('sends every write in the plan\'s order, one at a time; a second write to a ReplicaSet names the resourceVersion the first returned', async () => {
    const actions: DeploymentAction[] = [
      {type: 'adoptReplicaSet', ...ref('orphan')},
      {type: 'releaseReplicaSet', ...ref('stray')},
      {type: 'updateReplicaSet', ...ref('new'), annotations: {'deployment.kubernetes.io/revision': '3'}, minReadySeconds: 5},
      scale('new', 1, 2),
      scale('old', 2, 1, '8'),
      {type: 'deleteReplicaSet', ...ref('ancient', '9'), revision: '1', reason: 'history-limit'},
      statusWrite(),
    ]
    let inFlight = 0
    let most = 0
    const control = new RecordingPodControl({
      controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}},
      respond: async () => {
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 1))
        inFlight--
      },
    })
    const exec = await executePlan(planOf(deployment(actions)), {control, now})
    expect(kinds(control.calls)).toEqual(['getController', 'patch orphan', 'patch stray', 'patch new', 'patch new', 'patch old', 'delete ancient', 'updateStatus'])
    expect(most).toBe(1)
    const patches = control.callsOf('patchReplicaSet').map((c) => c.patch)
    expect(patches[0]).toEqual({metadata: {uid: 'uid-orphan', ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true, blockOwnerDeletion: true}]}})
    expect(patches[1]).toEqual({metadata: {uid: 'uid-stray', ownerReferences: [{$patch: 'delete', uid: 'uid-d'}]}})
    expect(patches[2]).toEqual({metadata: {uid: 'uid-new', resourceVersion: '7', annotations: {'deployment.kubernetes.io/revision': '3'}}, spec: {minReadySeconds: 5}})
    // The update returned patched-new-3: the scale of the same ReplicaSet names it.
    expect(patches[3]).toMatchObject({metadata: {uid: 'uid-new', resourceVersion: 'patched-new-3'}, spec: {replicas: 2}})
    expect(patches[4]).toMatchObject({metadata: {uid: 'uid-old', resourceVersion: '8'}, spec: {replicas: 1}})
    expect(control.callsOf('deleteReplicaSet')[0].preconditions).toEqual({uid: 'uid-ancient', resourceVersion: '9'})
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
  })

  it('a dry run names the plan\'s resourceVersions throughout (nothing changed)', async () => {
    const control = new RecordingPodControl({dryRun: true, controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}}})
    await executePlan(planOf(deployment([scale('new', 1, 2), scale('new', 2, 3)])), {control, now})
    expect(control.callsOf('patchReplicaSet').map((c) => (c.patch as any).metadata.resourceVersion)).toEqual(['7', '7'])
  })

  it('a failed write ends the sync: the rest is not sent, and says why', async () => {
    const control = new RecordingPodControl({
      controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}},
      respond: (call) => (call.type === 'patchReplicaSet' && call.name === 'a' ? {code: 403, reason: 'Forbidden', message: 'replicasets.apps "a" is forbidden'} : undefined),
    })
    const exec = await executePlan(planOf(deployment([scale('a', 3, 2), scale('b', 1, 2), statusWrite()])), {control, now})
    expect(kinds(control.calls)).toEqual(['getController', 'patch a'])
    expect(exec.results.map((r) => [r.outcome, r.skipReason])).toEqual([
      ['failed', undefined],
      ['skipped', SKIP.afterFailedWrite],
      ['skipped', SKIP.afterFailedWrite],
    ])
    expect(exec.results[0].error).toEqual({code: 403, reason: 'Forbidden', message: 'replicasets.apps "a" is forbidden'})
    expect(exec.conflict).toBeUndefined()
  })

  it('a precondition that fails (409) is a conflict: the run stops, and other controllers send nothing new', async () => {
    const rs = controller({name: 'other', actions: [del('p1')]})
    const control = new RecordingPodControl({
      controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}, ...controllersOf(planOf(rs))},
      respond: (call) => (call.type === 'patchReplicaSet' ? {code: 409, reason: 'Conflict', message: 'the object has been modified'} : undefined),
    })
    const exec = await executePlan(planOf(deployment([scale('a', 3, 2), statusWrite()]), rs), {control, now})
    expect(exec.results[0]).toMatchObject({outcome: 'failed', conflict: true})
    expect(exec.conflict).toContain('ReplicaSet ns/a changed since planning')
    expect(control.callsOf('deletePod')).toEqual([])
  })

  it('a ReplicaSet to release or delete that is gone (404) counts as done, and the sync goes on', async () => {
    const control = new RecordingPodControl({
      controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}},
      respond: (call) => (call.type === 'deleteReplicaSet' || (call.type === 'patchReplicaSet' && call.name === 'stray') ? {code: 404, reason: 'NotFound', message: 'not found'} : undefined),
    })
    const exec = await executePlan(planOf(deployment([{type: 'releaseReplicaSet', ...ref('stray')}, {type: 'deleteReplicaSet', ...ref('ancient'), revision: '1', reason: 'history-limit'}, statusWrite()])), {control, now})
    expect(exec.results.map((r) => [r.outcome, r.done?.alreadyGone])).toEqual([
      ['ok', true],
      ['ok', true],
      ['ok', undefined],
    ])
  })

  it('a create the plan predicts to collide is sent, and AlreadyExists is the expected answer; a planned create that finds the name taken is a conflict', async () => {
    const create = (outcome: 'created' | 'collision'): DeploymentAction => ({
      type: 'createReplicaSet',
      name: 'web-abc',
      podTemplateHash: 'abc',
      labels: {app: 'web', 'pod-template-hash': 'abc'},
      selector: {matchLabels: {app: 'web', 'pod-template-hash': 'abc'}},
      annotations: {},
      replicas: 1,
      minReadySeconds: 0,
      ownerReference: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true, blockOwnerDeletion: true},
      outcome,
    })
    const taken = {code: 409, reason: 'AlreadyExists', message: 'replicasets.apps "web-abc" already exists'}
    const answer = (call: RecordedCall) => (call.type === 'createReplicaSet' ? taken : undefined)
    const controllers = {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}}
    const collided = await executePlan(planOf(deployment([create('collision'), statusWrite(dStatus({collisionCount: 1}))])), {control: new RecordingPodControl({controllers, respond: answer}), now})
    expect(collided.results.map((r) => [r.outcome, r.done?.alreadyExists])).toEqual([
      ['ok', true],
      ['ok', undefined],
    ])
    const surprised = await executePlan(planOf(deployment([create('created'), statusWrite()])), {control: new RecordingPodControl({controllers, respond: answer}), now})
    expect(surprised.results.map((r) => [r.outcome, r.conflict])).toEqual([
      ['failed', true],
      ['skipped', undefined],
    ])
  })

  it('a Deployment changed since planning gets nothing sent', async () => {
    const control = new RecordingPodControl({controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '51'}}})
    const exec = await executePlan(planOf(deployment([scale('a', 3, 2)])), {control, now})
    expect(kinds(control.calls)).toEqual(['getController'])
    expect(exec.results[0]).toMatchObject({outcome: 'skipped', skipReason: SKIP.controllerChanged})
    expect(exec.conflict).toContain('resourceVersion 50 → 51')
  })

  it('Deployments go first; a ReplicaSet its Deployment just wrote has nothing of its own plan sent (the next round plans it again)', async () => {
    const scaled = controller({name: 'a', actions: [del('p1')]})
    const untouched = controller({name: 'b', actions: [del('p2')]})
    const control = new RecordingPodControl({controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}, ...controllersOf(planOf(scaled, untouched))}})
    const exec = await executePlan(planOf(scaled, untouched, deployment([scale('a', 3, 2)])), {control, now})
    expect(kinds(control.calls).slice(0, 2)).toEqual(['getController', 'patch a'])
    expect(control.callsOf('deletePod').map((c) => c.name)).toEqual(['p2'])
    expect(exec.results.find((r) => r.pod === 'p1')).toMatchObject({outcome: 'skipped', skipReason: SKIP.ownerWrote})
  })

  it('the legacy rollback is not carried out, and says so', async () => {
    const control = new RecordingPodControl({controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}}})
    const exec = await executePlan(planOf(deployment([{type: 'rollback', toRevision: '1', outcome: 'rolled-back', event: 'Rolled back'}])), {control, now})
    expect(exec.results[0]).toMatchObject({outcome: 'skipped', skipReason: SKIP.rollback})
  })

  it('a conflict the controller swallows (D2.5): that write is not sent, the writes after it are', async () => {
    const actions: DeploymentAction[] = [{type: 'adoptReplicaSet', ...ref('orphan')}, {...scale('orphan', 2, 0), conflict: true}, statusWrite()]
    const control = new RecordingPodControl({controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}}})
    const exec = await executePlan(planOf(deployment(actions)), {control, now})
    expect(kinds(control.calls)).toEqual(['getController', 'patch orphan', 'updateStatus'])
    expect(exec.results.map((r) => [r.action, r.outcome, r.skipReason])).toEqual([
      ['adoptReplicaSet', 'ok', undefined],
      ['scaleReplicaSet', 'skipped', SKIP.plannedConflict],
      ['updateStatus', 'ok', undefined],
    ])
  })

  it('a status write that stores nothing (D2.4, "unchanged"), then another: both sent, both with the resourceVersion the plan saw', async () => {
    const same = dStatus()
    const actions: DeploymentAction[] = [{type: 'updateStatus', from: same, to: same, unchanged: true}, statusWrite()]
    const control = new RecordingPodControl({controllers: {'Deployment/ns/web': {uid: 'uid-d', resourceVersion: '50'}}})
    const exec = await executePlan(planOf(deployment(actions)), {control, now})
    const writes = control.callsOf('updateStatus') as Array<{object: any}>
    expect(writes.map((w) => [w.object.metadata.resourceVersion, w.object.status.observedGeneration])).toEqual([['50', 1], ['50', 2]])
    expect(exec.results.map((r) => r.outcome)).toEqual(['ok', 'ok'])
  })
})
