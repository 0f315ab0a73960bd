// The HPA's writes carried out (src/controllers/hpa/apply.ts): the scale write through the target's
// scale subresource with the target's uid and resourceVersion as preconditions, then the status
// write; a saved plan's HPA actions checked; the guards counting a scale-down once; a target
// written earlier in the round, or changed since planning, leaving nothing half-applied.
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ClusterPodControl, type ApiRequester} from '../../../../src/apply/cluster-control.js'
import {executePlan} from '../../../../src/apply/executor.js'
import {guardViolations, RemovalLedger} from '../../../../src/apply/guards.js'
import type {MemoryWorld} from '../../../../src/apply/memory-world.js'
import {parseSavedPlan} from '../../../../src/apply/saved-plan.js'
import {staleness} from '../../../../src/apply/staleness.js'
import {CARRIED_OUT} from '../../../../src/controllers/registry.js'
import {HPA_SKIP, hpaStatusObject, hpaStatusWrite, hpaWriteOrder, scaleObject} from '../../../../src/controllers/hpa/apply.js'
import type {HpaStatus, ScaleTargetAction} from '../../../../src/controllers/hpa/model.js'
import type {ActionResult} from '../../../../src/model/apply.js'
import {DEFAULT_FEATURE_GATES, type Action, type ControllerPlan, type ReconcilePlan} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {fixtureWorld} from '../../../../src/services/reconcile.js'
import {RecordingPodControl} from '../../../helpers/recording-control.js'

type Obj = Record<string, any>

const ROOT = join(import.meta.dirname, '../../../..')
const NOW = '2026-11-22T10:00:00Z'
const now = () => NOW

async function example(): Promise<MemoryWorld> {
  return (await fixtureWorld({filename: [join(ROOT, 'examples/hpa')]}, now)).memory
}

const planOf = (world: MemoryWorld): ReconcilePlan => planSnapshot(world.snapshot(), {now: NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500}, CARRIED_OUT)
const hpaPlan = (plan: ReconcilePlan): ControllerPlan => plan.controllers.find((c) => c.kind === 'HorizontalPodAutoscaler')!
const only = (plan: ReconcilePlan, kinds: string[]): ReconcilePlan => ({...plan, controllers: plan.controllers.filter((c) => kinds.includes(c.kind))})
const objectOf = (world: MemoryWorld, kind: string, name: string) => world.find(kind, 'autoscale', name)!.object as Obj

const STATUS: HpaStatus = {
  currentReplicas: 3,
  desiredReplicas: 6,
  lastScaleTime: NOW,
  currentMetrics: [{type: 'Resource', resource: {name: 'cpu', current: {averageValue: '200m', averageUtilization: 100}}}],
  conditions: [{type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 6', lastTransitionTime: NOW}],
}

describe('the HPA is carried out', () => {
  it('is a controller kctl reconcile carries out', () => {
    expect(CARRIED_OUT).toContain('horizontalpodautoscaling')
  })

  it('its sync writes the scale first, then the status, whatever order the plan lists them in', () => {
    const scale = {type: 'scaleTarget'} as Action
    const status = {type: 'updateHpaStatus'} as Action
    expect(hpaWriteOrder([status, scale])).toEqual([1, 0])
    expect(hpaWriteOrder([scale, status])).toEqual([0, 1])
    expect(hpaWriteOrder([status])).toEqual([0])
  })

  it('the Scale PUT names the target and carries its uid and resourceVersion as planned', () => {
    const a: ScaleTargetAction = {type: 'scaleTarget', target: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web'}, uid: 'u-1', resourceVersion: '42', from: 3, to: 6, reason: 'r'}
    expect(scaleObject(a, 'ns')).toEqual({apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: {name: 'web', namespace: 'ns', uid: 'u-1', resourceVersion: '42'}, spec: {replicas: 6}})
  })

  it('the status as autoscaling/v2 stores it: nil metrics left out, observedGeneration dropped; a v1 fixture keeps its v1 fields and the conditions annotation', () => {
    expect(hpaStatusObject({...STATUS, currentMetrics: null, observedGeneration: 4})).toEqual({
      lastScaleTime: NOW,
      currentReplicas: 3,
      desiredReplicas: 6,
      conditions: [{type: 'AbleToScale', status: 'True', lastTransitionTime: NOW, reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 6'}],
    })
    const v2 = hpaStatusWrite({apiVersion: 'autoscaling/v2', metadata: {name: 'h', resourceVersion: '9'}, status: {currentReplicas: 1}}, '7', STATUS)
    expect(v2.metadata.resourceVersion).toBe('7')
    expect(v2.status.currentMetrics).toEqual(STATUS.currentMetrics)
    const v1 = hpaStatusWrite({apiVersion: 'autoscaling/v1', metadata: {name: 'h', annotations: {keep: 'me'}}, status: {}}, '7', STATUS)
    expect(v1.status).toEqual({lastScaleTime: NOW, currentReplicas: 3, desiredReplicas: 6, currentCPUUtilizationPercentage: 100})
    expect(v1.metadata.annotations.keep).toBe('me')
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/conditions'])[0]).toMatchObject({type: 'AbleToScale', reason: 'SucceededRescale'})
  })
})

describe('the HPA\'s two PUTs against a cluster', () => {
  it.each([false, true])('the scale of each target kind, then the HPA\'s status in autoscaling/v2 (dryRun %s)', async (dryRun) => {
    const sent: Array<[string | undefined, string, unknown]> = []
    const api: ApiRequester = {
      async request<T>(path: string, opts: Parameters<ApiRequester['request']>[1]): Promise<T> {
        sent.push([opts.method, path, opts.query])
        return {metadata: {resourceVersion: '50'}} as T
      },
    }
    const control = new ClusterPodControl(api, dryRun)
    const a: ScaleTargetAction = {type: 'scaleTarget', target: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web'}, uid: 'u', resourceVersion: '4', from: 1, to: 2, reason: ''}
    for (const [kind, apiVersion] of [['Deployment', 'apps/v1'], ['StatefulSet', 'apps/v1'], ['ReplicaSet', 'apps/v1'], ['ReplicationController', 'v1']] as const) {
      expect(await control.updateScale({kind, apiVersion, namespace: 'ns', name: 'web'}, scaleObject(a, 'ns'))).toEqual({resourceVersion: '50'})
    }
    await control.updateStatus({kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1', namespace: 'ns', name: 'web'}, {metadata: {resourceVersion: '9'}})
    const query = dryRun ? {dryRun: 'All'} : undefined
    expect(sent).toEqual([
      ['PUT', '/apis/apps/v1/namespaces/ns/deployments/web/scale', query],
      ['PUT', '/apis/apps/v1/namespaces/ns/statefulsets/web/scale', query],
      ['PUT', '/apis/apps/v1/namespaces/ns/replicasets/web/scale', query],
      ['PUT', '/api/v1/namespaces/ns/replicationcontrollers/web/scale', query],
      ['PUT', '/apis/autoscaling/v2/namespaces/ns/horizontalpodautoscalers/web/status', query],
    ])
  })
})

describe('executor: the HPA on the memory world (examples/hpa)', () => {
  it('scales the Deployment through its scale (spec.replicas and generation only), writes the status, and the next plan has no scale write', async () => {
    const world = await example()
    const before = objectOf(world, 'Deployment', 'web')
    const exec = await executePlan(planOf(world), {control: world.control(false), now})
    expect(exec.results.map((r) => `${r.controller.kind} ${r.action} ${r.outcome}`)).toEqual(['HorizontalPodAutoscaler scaleTarget ok', 'HorizontalPodAutoscaler updateHpaStatus ok'])
    const after = objectOf(world, 'Deployment', 'web')
    expect(after.spec.replicas).toBe(6)
    expect(after.metadata.generation).toBe(before.metadata.generation + 1)
    expect(after.spec.template).toEqual(before.spec.template)
    const hpa = objectOf(world, 'HorizontalPodAutoscaler', 'web')
    expect(hpa.status).toMatchObject({currentReplicas: 3, desiredReplicas: 6, lastScaleTime: NOW})
    const next = hpaPlan(planOf(world))
    expect(next.actions.map((a) => a.type)).toEqual(['updateHpaStatus'])
    expect(next.hpa!.currentReplicas).toBe(6)
  })

  it('a dry run answers every call and changes nothing', async () => {
    const world = await example()
    const exec = await executePlan(planOf(world), {control: world.control(true), now})
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
    expect(objectOf(world, 'Deployment', 'web').spec.replicas).toBe(3)
    expect(world.writes).toBe(0)
  })

  it('a target its own sync wrote earlier in the round: the scale write waits for the next round, nothing of the HPA is sent', async () => {
    const world = await example()
    const plan = planOf(world)
    // The Deployment's sync writes its status in the same round (a hand-made status change).
    const deployment = plan.controllers.find((c) => c.kind === 'Deployment')!
    const write: Action = {type: 'updateStatus', from: deployment.status, to: {...deployment.status, observedGeneration: 7}} as Action
    const withWrite = {...plan, controllers: plan.controllers.map((c) => (c === deployment ? {...c, actions: [write], inSync: false} : c))}
    const exec = await executePlan(only(withWrite, ['Deployment', 'HorizontalPodAutoscaler']), {control: world.control(false), now})
    const hpa = exec.results.filter((r) => r.controller.kind === 'HorizontalPodAutoscaler')
    expect(hpa.map((r) => [r.action, r.outcome, r.skipReason])).toEqual([
      ['scaleTarget', 'skipped', HPA_SKIP.targetWritten],
      ['updateHpaStatus', 'skipped', HPA_SKIP.targetWritten],
    ])
    expect(exec.conflict).toBeUndefined()
    expect(objectOf(world, 'Deployment', 'web').spec.replicas).toBe(3)
  })

  it('a target changed since planning: the Scale PUT answers 409, the run stops with one clear line and no status is written', async () => {
    const world = await example()
    const plan = only(planOf(world), ['HorizontalPodAutoscaler'])
    const hpaRaw = objectOf(world, 'HorizontalPodAutoscaler', 'web')
    const control = new RecordingPodControl({
      controllers: {'HorizontalPodAutoscaler/autoscale/web': {uid: hpaRaw.metadata.uid, resourceVersion: hpaRaw.metadata.resourceVersion, raw: hpaRaw}},
      respond: (call) =>
        call.type === 'updateScale'
          ? {code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again'}
          : undefined,
    })
    const exec = await executePlan(plan, {control, now})
    expect(control.calls.map((c) => c.type)).toEqual(['getController', 'updateScale'])
    const put = control.callsOf('updateScale')[0]
    expect(put.key).toMatchObject({kind: 'Deployment', namespace: 'autoscale', name: 'web'})
    expect(put.scale.metadata).toEqual({name: 'web', namespace: 'autoscale', uid: '5b0e8f3a-2c41-4d7e-9a10-7e6f4c2b9d01', resourceVersion: '81200'})
    expect(exec.conflict).toBe(
      'Deployment autoscale/web (the scale target of HorizontalPodAutoscaler autoscale/web) changed since planning: Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    )
    expect(exec.results.map((r) => [r.action, r.outcome, r.conflict ?? false])).toEqual([
      ['scaleTarget', 'failed', true],
      ['updateHpaStatus', 'skipped', false],
    ])
  })

  it('an HPA changed since planning: nothing is sent', async () => {
    const world = await example()
    const plan = only(planOf(world), ['HorizontalPodAutoscaler'])
    const hpaRaw = objectOf(world, 'HorizontalPodAutoscaler', 'web')
    const control = new RecordingPodControl({controllers: {'HorizontalPodAutoscaler/autoscale/web': {uid: hpaRaw.metadata.uid, resourceVersion: '99999', raw: hpaRaw}}})
    const exec = await executePlan(plan, {control, now})
    expect(control.calls.map((c) => c.type)).toEqual(['getController'])
    expect(exec.conflict).toBe('HorizontalPodAutoscaler autoscale/web changed since planning: resourceVersion 81250 → 99999')
  })
})

describe('saved plans with HPA writes', () => {
  const saved = (edit: (plan: Obj) => void = () => {}) => async () => {
    const plan = JSON.parse(JSON.stringify(planOf(await example())))
    edit(plan)
    return parseSavedPlan(JSON.stringify({...plan, apiVersion: 'kctl/v1alpha1', kind: 'ReconcilePlan'}), 'plan.json')
  }
  const hpaOf = (p: Obj) => p.controllers.find((c: Obj) => c.kind === 'HorizontalPodAutoscaler')

  it('reads back both writes, the target named by uid and resourceVersion', async () => {
    const plan = await saved()()
    const actions = hpaPlan(plan).actions
    expect(actions.map((a) => a.type)).toEqual(['scaleTarget', 'updateHpaStatus'])
    expect(actions[0]).toMatchObject({target: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web'}, uid: '5b0e8f3a-2c41-4d7e-9a10-7e6f4c2b9d01', resourceVersion: '81200', from: 3, to: 6})
  })

  it('refuses a scale write without the target\'s resourceVersion, of a kind kctl does not scale, or a status without conditions', async () => {
    const planned = JSON.parse(JSON.stringify(planOf(await example())))
    const where = `plan.json: controllers[${planned.controllers.indexOf(hpaOf(planned))}].actions`
    await expect(saved((p) => delete hpaOf(p).actions[0].resourceVersion)()).rejects.toThrow(`${where}[0].resourceVersion: expected a string`)
    await expect(saved((p) => (hpaOf(p).actions[0].target.kind = 'CronJob'))()).rejects.toThrow(`${where}[0].target.kind: expected Deployment, StatefulSet, ReplicaSet or ReplicationController, or a custom resource with target.resource, got CronJob`)
    await expect(saved((p) => delete hpaOf(p).actions[1].to.conditions)()).rejects.toThrow(`${where}[1].to.conditions: expected a list`)
    await expect(saved((p) => (hpaOf(p).actions[0].type = 'scaleTargets'))()).rejects.toThrow(`${where}[0].type: unknown action type "scaleTargets"`)
  })

  it('is stale when the target changed since planning, or the HPA did', async () => {
    const world = await example()
    const plan = planOf(world)
    const deployment = objectOf(world, 'Deployment', 'web')
    world.replace(world.find('Deployment', 'autoscale', 'web')!, {...deployment, metadata: {...deployment.metadata, resourceVersion: '90000'}})
    const snapshot = world.snapshot()
    expect(staleness(only(plan, ['HorizontalPodAutoscaler']), snapshot, planOf(world))).toEqual(['Deployment autoscale/web (to scale) changed (resourceVersion 81200 → 90000)'])
    expect(staleness(only(plan, ['HorizontalPodAutoscaler']), (await example()).snapshot(), plan)).toEqual([])
  })
})

describe('guards: an HPA scale-down', () => {
  const scaleDown = (from: number, to: number): ControllerPlan =>
    ({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v2',
      namespace: 'ns',
      name: 'h',
      uid: 'uid-h',
      resourceVersion: '1',
      desired: to,
      active: from,
      diff: from - to,
      pending: 0,
      inSync: false,
      warnings: [],
      status: STATUS,
      actions: [{type: 'scaleTarget', target: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web'}, uid: 'uid-web', resourceVersion: '5', from, to, reason: 'All metrics below target'}],
    }) as unknown as ControllerPlan
  const planWith = (...controllers: ControllerPlan[]) => ({controllers}) as unknown as ReconcilePlan

  it('counts the replicas it takes away against --max-delete', () => {
    expect(guardViolations(planWith(scaleDown(6, 2)), {maxDelete: 3})).toEqual(['the plan deletes 4 pods, more than --max-delete 3'])
    expect(guardViolations(planWith(scaleDown(6, 2)), {maxDelete: 4})).toEqual([])
    expect(guardViolations(planWith(scaleDown(2, 6)), {maxDelete: 0})).toEqual([])
  })

  it('counts them once: the Deployment\'s scale-down of its ReplicaSet that follows, and the pod deletes after it, draw on it', () => {
    const ledger = new RemovalLedger()
    const hpa = scaleDown(6, 2)
    ledger.record([{round: 1, controller: {kind: hpa.kind, apiVersion: hpa.apiVersion, namespace: 'ns', name: 'h', uid: 'uid-h'}, action: 'scaleTarget', predicted: hpa.actions[0], outcome: 'ok'} as ActionResult])
    expect(ledger.counted).toBe(4)
    const deployment = {
      kind: 'Deployment',
      namespace: 'ns',
      name: 'web',
      actions: [{type: 'scaleReplicaSet', replicaSet: 'web-1', uid: 'uid-rs', resourceVersion: '3', from: 6, to: 2}],
    } as unknown as ControllerPlan
    expect(ledger.wouldRemove(planWith(deployment))).toBe(0)
    ledger.record([{round: 2, controller: {kind: 'Deployment', apiVersion: 'apps/v1', namespace: 'ns', name: 'web', uid: 'uid-web'}, action: 'scaleReplicaSet', predicted: deployment.actions[0], outcome: 'ok'} as ActionResult])
    expect(ledger.counted).toBe(4)
    // The ReplicaSet controller's deletes of those 4 pods.
    const replicaSet = {
      kind: 'ReplicaSet',
      namespace: 'ns',
      name: 'web-1',
      active: 6,
      desired: 2,
      actions: [0, 1, 2, 3].map((i) => ({type: 'delete', pod: `web-1-${i}`, uid: `uid-${i}`, resourceVersion: '1'})),
    } as unknown as ControllerPlan
    expect(ledger.wouldRemove(planWith(replicaSet))).toBe(0)
    expect(guardViolations(planWith(replicaSet), {maxDelete: 4, ledger})).toEqual([])
  })
})
