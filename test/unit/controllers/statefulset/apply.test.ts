// The executor carrying out StatefulSet syncs against the recording PodControl (DaemonSets:
// test/unit/controllers/daemonset/apply.test.ts):
// hand-built plans in, the calls it sent (bodies, order, concurrency, preconditions) out.
import {describe, expect, it} from 'vitest'
import {executePlan, SKIP} from '../../../../src/apply/executor.js'
import {WORKLOAD_SKIP} from '../../../../src/controllers/statefulset/apply.js'
import type {ControllerPlan, WorkloadAction} from '../../../../src/model/plan.js'
import {statefulSetRevisionData} from '../../../../src/reconcile/revisions.js'
import {RecordingPodControl, type RecordingOptions} from '../../../helpers/recording-control.js'
import {NOW, planOf} from '../../apply/plans.js'

const now = () => NOW
const owner = (kind: 'StatefulSet' | 'DaemonSet', name: string) => ({apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true})
const template = {metadata: {labels: {app: 'db'}, annotations: {note: 'x'}}, spec: {containers: [{name: 'pg', image: 'postgres:17'}], volumes: [{name: 'data', emptyDir: {}}, {name: 'conf', configMap: {name: 'c'}}]}}

function statefulSet(actions: WorkloadAction[] | ControllerPlan['actions'], over: {parallel?: boolean; replicas?: number} = {}) {
  const raw = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {name: 'db', namespace: 'ns', uid: 'uid-db', resourceVersion: '10'},
    spec: {
      replicas: over.replicas ?? 3,
      serviceName: 'db-headless',
      podManagementPolicy: over.parallel ? 'Parallel' : 'OrderedReady',
      selector: {matchLabels: {app: 'db'}},
      template,
      volumeClaimTemplates: [{metadata: {name: 'data', labels: {tier: 'storage'}}, spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}}}],
    },
    status: {observedGeneration: 1, replicas: 0, collisionCount: 0},
  }
  const cp: ControllerPlan = {
    kind: 'StatefulSet',
    apiVersion: 'apps/v1',
    namespace: 'ns',
    name: 'db',
    uid: 'uid-db',
    resourceVersion: '10',
    desired: raw.spec.replicas,
    active: 0,
    diff: -raw.spec.replicas,
    actions: actions as ControllerPlan['actions'],
    pending: 0,
    status: {} as ControllerPlan['status'],
    warnings: [],
    inSync: false,
  }
  return {cp, raw}
}

const control = (sets: Array<{cp: ControllerPlan; raw: object}>, respond?: RecordingOptions['respond']) =>
  new RecordingPodControl({
    controllers: Object.fromEntries(sets.map(({cp, raw}) => [`${cp.kind}/${cp.namespace}/${cp.name}`, {uid: cp.uid, resourceVersion: cp.resourceVersion, raw: raw as Record<string, unknown>}])),
    respond,
  })

const claim = (ordinal: number): WorkloadAction => ({type: 'createClaim', claim: `data-db-${ordinal}`, template: 'data', pod: `db-${ordinal}`, labels: {tier: 'storage', app: 'db'}, annotations: {}})
const pod = (ordinal: number, over: Partial<Extract<WorkloadAction, {type: 'createStatefulPod'}>> = {}): WorkloadAction => ({
  type: 'createStatefulPod',
  pod: `db-${ordinal}`,
  ordinal,
  revision: 'db-abc',
  template: 'update',
  labels: {},
  hostname: `db-${ordinal}`,
  subdomain: 'db-headless',
  claims: {data: `data-db-${ordinal}`},
  ownerReference: owner('StatefulSet', 'db'),
  ...over,
})

describe('StatefulSet: OrderedReady', () => {
  it('creates the claim, then the pod by its exact name with identity, storage and revision, one call at a time', async () => {
    const set = statefulSet([claim(0), pod(0)])
    const rec = control([set])
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.calls.map((c) => c.type)).toEqual(['getController', 'createObject', 'createPod'])
    expect(rec.maxInFlight).toBe(1)
    const [{object}] = rec.callsOf('createObject')
    expect(object).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {name: 'data-db-0', namespace: 'ns', labels: {tier: 'storage', app: 'db'}},
      spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}},
    })
    const [{pod: made}] = rec.callsOf('createPod')
    expect(made.metadata).toEqual({
      generateName: 'db-',
      name: 'db-0',
      namespace: 'ns',
      labels: {app: 'db', 'statefulset.kubernetes.io/pod-name': 'db-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': 'db-abc'},
      annotations: {note: 'x'},
      ownerReferences: [owner('StatefulSet', 'db')],
    })
    // updateStorage: the claim's volume first, replacing the template's volume of that name.
    expect(made.spec).toMatchObject({hostname: 'db-0', subdomain: 'db-headless', volumes: [{name: 'data', persistentVolumeClaim: {claimName: 'data-db-0'}}, {name: 'conf', configMap: {name: 'c'}}]})
    expect(exec.results.map((r) => r.outcome)).toEqual(['ok', 'ok'])
  })

  it('a pod of the current revision is built from that revision\'s template, read from its ControllerRevision', async () => {
    const set = statefulSet([pod(0, {revision: 'db-old', template: 'current'})])
    const old = {metadata: {labels: {app: 'db', gen: 'old'}}, spec: {containers: [{name: 'pg', image: 'postgres:16'}]}}
    const rec = control([set], (call) => (call.type === 'getObject' ? {raw: {data: {spec: {template: {...old, $patch: 'replace'}}}}} : undefined))
    await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.callsOf('getObject')).toEqual([{type: 'getObject', kind: 'ControllerRevision', namespace: 'ns', name: 'db-old'}])
    const [{pod: made}] = rec.callsOf('createPod')
    expect(made.metadata.labels).toEqual({app: 'db', gen: 'old', 'statefulset.kubernetes.io/pod-name': 'db-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': 'db-old'})
    expect((made.spec as any).containers[0].image).toBe('postgres:16')
  })

  it('a name taken since planning (AlreadyExists) stops the run as a changed world; nothing after it is sent', async () => {
    const set = statefulSet([claim(0), pod(0), {type: 'updateStatus', from: {} as never, to: {} as never}])
    const rec = control([set], (call) => (call.type === 'createPod' ? {code: 409, reason: 'AlreadyExists', message: 'pods "db-0" already exists'} : undefined))
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(exec.results.map((r) => [r.action, r.outcome, r.conflict ?? false])).toEqual([
      ['createClaim', 'ok', false],
      ['createStatefulPod', 'failed', true],
      ['updateStatus', 'skipped', false],
    ])
    expect(exec.conflict).toContain('pod ns/db-0 changed since planning')
    expect(rec.callsOf('updateStatus')).toEqual([])
  })

  it('after a failed write only the status write is still sent, as the controller writes status after an error', async () => {
    const set = statefulSet([claim(0), pod(0), claim(1), {type: 'updateStatus', from: {} as never, to: {observedGeneration: 2} as never}])
    const rec = control([set], (call) => (call.type === 'createPod' ? {code: 403, reason: 'Forbidden', message: 'pods is forbidden'} : undefined))
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(exec.results.map((r) => [r.action, r.outcome, r.skipReason ?? ''])).toEqual([
      ['createClaim', 'ok', ''],
      ['createStatefulPod', 'failed', ''],
      ['createClaim', 'skipped', SKIP.afterFailedWrite],
      ['updateStatus', 'ok', ''],
    ])
    expect(exec.conflict).toBeUndefined()
  })
})

describe('StatefulSet: Parallel', () => {
  it('sends each pod\'s writes (claim, then pod) in slow-start batches over the pods: 1, 2, 1', async () => {
    const set = statefulSet([claim(0), pod(0), claim(1), pod(1), claim(2), pod(2), claim(3), pod(3)], {parallel: true, replicas: 4})
    const started: string[] = []
    const rec = control([set], async (call) => {
      if (call.type === 'createObject') started.push(call.object.metadata.name)
      if (call.type === 'createPod') started.push(call.pod.metadata.name!)
      await new Promise((r) => setTimeout(r, 1))
    })
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(exec.controllers[0].batches).toEqual([2, 4, 2])
    expect(exec.results.map((r) => r.batch)).toEqual([1, 1, 2, 2, 2, 2, 3, 3])
    // Within a pod, the claim goes before the pod.
    for (const o of [0, 1, 2, 3]) expect(started.indexOf(`data-db-${o}`)).toBeLessThan(started.indexOf(`db-${o}`))
    expect(rec.maxInFlight).toBe(2)
  })

  it('condemned pods are deleted with uid and resourceVersion preconditions; a gone pod is done', async () => {
    const set = statefulSet(
      [
        {type: 'deleteStatefulPod', pod: 'db-4', uid: 'u4', resourceVersion: '44', ordinal: 4, reason: 'condemned'},
        {type: 'deleteStatefulPod', pod: 'db-3', uid: 'u3', resourceVersion: '33', ordinal: 3, reason: 'condemned'},
      ],
      {parallel: true},
    )
    const rec = control([set], (call) => (call.type === 'deletePod' && call.name === 'db-3' ? {code: 404, reason: 'NotFound', message: 'gone'} : undefined))
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.callsOf('deletePod').map((c) => [c.name, c.preconditions])).toEqual([
      ['db-4', {uid: 'u4', resourceVersion: '44'}],
      ['db-3', {uid: 'u3', resourceVersion: '33'}],
    ])
    expect(exec.results.map((r) => [r.outcome, r.done?.alreadyGone ?? false])).toEqual([
      ['ok', false],
      ['ok', true],
    ])
  })
})

describe('StatefulSet: Parallel, the rolling update', () => {
  it('an update delete is sent alone after the replicas\' batches, never inside one', async () => {
    const set = statefulSet([pod(0), pod(1), {type: 'deleteStatefulPod', pod: 'db-2', uid: 'u2', resourceVersion: '22', ordinal: 2, reason: 'update'}], {parallel: true})
    const exec = await executePlan(planOf(set.cp), {control: control([set]), now})
    expect(exec.controllers[0].batches).toEqual([1, 1])
    expect(exec.results.map((r) => r.batch)).toEqual([1, 2, undefined])
  })
})

describe('StatefulSet: revisions, claims and pod fixes', () => {
  it('creates a revision with the exact bytes of its data, its labels and its owner', async () => {
    const set = statefulSet([{type: 'createControllerRevision', name: 'db-abc', hash: 'abc', revision: 2, labels: {app: 'db', 'controller-revision-hash': 'abc'}, ownerReference: owner('StatefulSet', 'db')}])
    const rec = control([set])
    await executePlan(planOf(set.cp), {control: rec, now})
    const [call] = rec.callsOf('createObject')
    const data = statefulSetRevisionData(template)
    expect(call.json).toBe(`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"db-abc","namespace":"ns","labels":{"app":"db","controller-revision-hash":"abc"},"ownerReferences":[${JSON.stringify(owner('StatefulSet', 'db'))}]},"revision":2,"data":${data}}`)
    expect(data.startsWith('{"spec":{"template":{"$patch":"replace","metadata"')).toBe(true)
  })

  it('a revision whose name is unknown here is not sent, and nothing after it', async () => {
    const set = statefulSet([{type: 'createControllerRevision', name: null, hash: null, revision: 1, labels: {app: 'db'}, ownerReference: owner('StatefulSet', 'db')}, claim(0), pod(0)])
    const rec = control([set])
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.calls.map((c) => c.type)).toEqual(['getController'])
    expect(exec.results.map((r) => r.skipReason)).toEqual([WORKLOAD_SKIP.revisionUnknown, SKIP.afterUnsent, SKIP.afterUnsent])
  })

  it('updates a claim\'s owners and a revision\'s number as merge patches with uid and resourceVersion; deletes old revisions with preconditions', async () => {
    const refs = [{apiVersion: 'v1', kind: 'Pod', name: 'db-3', uid: 'u3', controller: true, blockOwnerDeletion: true}]
    const set = statefulSet([
      {type: 'updateControllerRevision', name: 'db-old', uid: 'r1', resourceVersion: '3', from: 1, to: 4},
      {type: 'updateClaim', claim: 'data-db-3', uid: 'c3', resourceVersion: '9', pod: 'db-3', from: [], to: refs},
      {type: 'deleteControllerRevision', name: 'db-older', uid: 'r0', resourceVersion: '2', revision: 1, reason: 'history-limit'},
    ])
    const rec = control([set])
    await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.callsOf('patchObject').map((c) => [c.kind, c.name, c.patch, c.patchType])).toEqual([
      ['ControllerRevision', 'db-old', {metadata: {uid: 'r1', resourceVersion: '3'}, revision: 4}, 'merge'],
      ['PersistentVolumeClaim', 'data-db-3', {metadata: {uid: 'c3', resourceVersion: '9', ownerReferences: refs}}, 'merge'],
    ])
    expect(rec.callsOf('deleteObject')).toEqual([{type: 'deleteObject', kind: 'ControllerRevision', namespace: 'ns', name: 'db-older', preconditions: {uid: 'r0', resourceVersion: '2'}}])
  })

  it('a pod whose volumes are off is refused here, as the API server refuses the controller\'s update; its labels are patched', async () => {
    const set = statefulSet([
      {type: 'updatePod', pod: 'db-1', uid: 'u1', resourceVersion: '7', fixes: ['pod-name-label', 'pod-index-label']},
      {type: 'updatePod', pod: 'db-2', uid: 'u2', resourceVersion: '8', fixes: ['volumes']},
    ])
    const rec = control([set])
    const exec = await executePlan(planOf(set.cp), {control: rec, now})
    expect(rec.callsOf('patchObject').map((c) => c.patch)).toEqual([
      {metadata: {uid: 'u1', resourceVersion: '7', labels: {'statefulset.kubernetes.io/pod-name': 'db-1', 'apps.kubernetes.io/pod-index': '1'}}},
    ])
    expect(exec.results[1]).toMatchObject({outcome: 'failed', error: {message: expect.stringContaining('volumes cannot be changed')}})
  })

  it('the status write carries the resourceVersion the plan saw and keeps fields the plan does not name', async () => {
    const to = {observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, currentRevision: 'db-abc', updateRevision: 'db-abc', collisionCount: 0}
    const set = statefulSet([{type: 'updateStatus', from: {} as never, to: to as never}])
    const rec = control([set])
    await executePlan(planOf(set.cp), {control: rec, now})
    const [{object}] = rec.callsOf('updateStatus')
    expect((object as any).metadata.resourceVersion).toBe('10')
    expect((object as any).status).toEqual(to)
  })
})
