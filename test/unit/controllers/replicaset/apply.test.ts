// The executor against the recording PodControl: hand-built plans in, the calls it sent and the
// results it reports out.
import {describe, expect, it} from 'vitest'

import {executePlan, SKIP} from '../../../../src/apply/executor.js'
import {RecordingPodControl, type RecordedCall} from '../../../helpers/recording-control.js'
import type {ActionError} from '../../../../src/model/apply.js'
import {adopt, controller, controllersOf, creates, del, NOW, planOf, release, status, statusWrite} from '../../apply/plans.js'

const now = () => NOW
const forbidden = (what: string): ActionError => ({code: 403, reason: 'Forbidden', message: `${what} is forbidden: User "restricted" cannot do it`})

/** A promise and its resolver: calls can be held until a test lets them go. */
function gate(): {wait: Promise<void>; open: () => void} {
  let open!: () => void
  const wait = new Promise<void>((r) => (open = r))
  return {wait, open}
}

describe('creates: slow start', () => {
  it('sends batches of 1, 2, 4 … capped by what remains; each batch starts after the previous one ended', async () => {
    const plan = planOf(controller({desired: 10, active: 0, actions: creates(10)}))
    let completed = 0
    const startedAfter: number[] = []
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: async (call) => {
        if (call.type !== 'createPod') return
        startedAfter.push(completed)
        await new Promise((r) => setTimeout(r, 1))
        completed++
      },
    })
    const exec = await executePlan(plan, {control, now})
    expect(exec.controllers[0].batches).toEqual([1, 2, 4, 3])
    expect(exec.results.map((r) => r.batch)).toEqual([1, 2, 2, 3, 3, 3, 3, 4, 4, 4])
    // Batch k's calls all started once the calls of batches before it had finished: 0 | 1 1 | 3 3 3 3 | 7 7 7
    expect(startedAfter).toEqual([0, 1, 1, 3, 3, 3, 3, 7, 7, 7])
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
    expect(exec.results.map((r) => r.pod)).toEqual(control.callsOf('createPod').map((_, i) => `web-${String(i + 1).padStart(5, '0')}`))
  })

  it('builds each pod from the template as the controller does: generateName, labels, annotations, finalizers, controller reference, spec', async () => {
    const plan = planOf(controller({desired: 1, active: 0, actions: creates(1, 'web', 'uid-web', {annotations: {a: 'b'}, finalizers: ['example.com/keep']})}))
    const spec = {containers: [{name: 'app', image: 'registry.example/app:1'}], nodeSelector: {disk: 'ssd'}}
    const control = new RecordingPodControl({controllers: {'ReplicaSet/ns/web': {uid: 'uid-web', resourceVersion: '10', templateSpec: spec}}})
    await executePlan(plan, {control, now})
    const [{pod}] = control.callsOf('createPod')
    expect(pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'web-',
        namespace: 'ns',
        labels: {app: 'web'},
        annotations: {a: 'b'},
        finalizers: ['example.com/keep'],
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}],
      },
      spec,
    })
    expect(pod.spec).not.toBe(spec)
  })

  it('stops after a batch with a failure: the rest are skipped, never sent (docs/replicaset-controller.md 1.8.1)', async () => {
    const plan = planOf(controller({desired: 10, active: 0, actions: [...creates(10), statusWrite(status({observedGeneration: 0}), status())]}))
    const quota = {code: 403, reason: 'Forbidden', message: 'pods "web-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2'}
    let n = 0
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (call) => (call.type === 'createPod' && ++n === 2 ? quota : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('createPod')).toHaveLength(3)
    expect(exec.controllers[0].batches).toEqual([1, 2])
    const results = exec.results.filter((r) => r.action === 'create')
    expect(results.map((r) => r.outcome)).toEqual(['ok', 'failed', 'ok', ...Array(7).fill('skipped')])
    expect(results[1].error).toEqual(quota)
    expect(results.slice(3).every((r) => r.skipReason === SKIP.afterFailedBatch && r.batch === undefined)).toBe(true)
    // The status write carries the failure, as calculateStatus does with manageReplicasErr.
    const [write] = control.callsOf('updateStatus')
    expect((write.object.status as any).conditions).toEqual([
      {type: 'ReplicaFailure', status: 'True', lastTransitionTime: NOW, reason: 'FailedCreate', message: quota.message},
    ])
  })

  it('a create refused because the namespace is being deleted counts as done: slow start goes on, no ReplicaFailure (manageReplicas)', async () => {
    const plan = planOf(controller({desired: 10, active: 0, actions: [...creates(10), statusWrite(status({observedGeneration: 0}), status())]}))
    const terminating = {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "web-x" is forbidden: unable to create new content in namespace default because it is being terminated',
      causes: ['NamespaceTerminating'],
    }
    let n = 0
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (call) => (call.type === 'createPod' && ++n === 2 ? terminating : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('createPod')).toHaveLength(10)
    expect(exec.controllers[0].batches).toEqual([1, 2, 4, 3])
    const results = exec.results.filter((r) => r.action === 'create')
    expect(results.map((r) => r.outcome)).toEqual(Array(10).fill('ok'))
    expect(results[1].done).toEqual({namespaceTerminating: true})
    const [write] = control.callsOf('updateStatus')
    expect((write.object.status as any).conditions ?? []).toEqual([])
  })

  it('a create refused locally (no labels) is failed without a call, and nothing follows', async () => {
    const plan = planOf(controller({desired: 1, active: 0, actions: creates(1, 'web', 'uid-web', {labels: {}, error: 'unable to create pods, no labels'})}))
    const control = new RecordingPodControl({controllers: controllersOf(plan)})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('createPod')).toHaveLength(0)
    expect(exec.results[0]).toMatchObject({outcome: 'failed', error: {message: 'unable to create pods, no labels'}})
    // No status write was planned; the failure makes one, as upstream's sync would.
    expect(exec.results[1]).toMatchObject({action: 'updateStatus', outcome: 'ok'})
    expect(exec.results[1].predicted).toBeUndefined()
  })
})

describe('deletes', () => {
  it('are all sent at once, each with the uid and resourceVersion the plan saw as preconditions', async () => {
    const plan = planOf(controller({desired: 0, active: 6, actions: ['a', 'b', 'c', 'd', 'e', 'f'].map((p, i) => del(`web-${p}`, String(20 + i)))}))
    const held = gate()
    let started = 0
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: async (call) => {
        if (call.type !== 'deletePod') return
        if (++started === 6) held.open()
        await held.wait
      },
    })
    const exec = await executePlan(plan, {control, now})
    expect(control.maxInFlight).toBe(6)
    expect(control.callsOf('deletePod').map((c) => [c.name, c.preconditions])).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((p, i) => [`web-${p}`, {uid: `uid-web-${p}`, resourceVersion: String(20 + i)}]),
    )
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
  })

  it('keep to the concurrency bound', async () => {
    const plan = planOf(controller({desired: 0, active: 6, actions: ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => del(`web-${p}`))}))
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: () => new Promise((r) => setTimeout(r, 2))})
    await executePlan(plan, {control, now, concurrency: 2})
    expect(control.maxInFlight).toBe(2)
    expect(control.callsOf('deletePod')).toHaveLength(6)
  })

  it('a precondition failure (409) is a conflict: that pod is not deleted, and nothing new starts anywhere', async () => {
    const plan = planOf(
      controller({name: 'a', desired: 0, active: 1, actions: [del('a-1')]}),
      controller({name: 'b', desired: 0, active: 1, actions: [del('b-1')]}),
    )
    const conflict = {code: 409, reason: 'Conflict', message: 'Precondition failed: ResourceVersion in precondition: 7, ResourceVersion in object meta: 9'}
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (call) => (call.type === 'deletePod' && call.name === 'a-1' ? conflict : undefined)})
    const exec = await executePlan(plan, {control, now, workers: 1})
    expect(exec.results[0]).toMatchObject({pod: 'a-1', outcome: 'failed', conflict: true, error: conflict})
    expect(exec.results[1]).toMatchObject({pod: 'b-1', outcome: 'skipped', skipReason: SKIP.conflict})
    expect(control.callsOf('deletePod').map((c) => c.name)).toEqual(['a-1'])
    expect(exec.conflict).toMatch(/pod ns\/a-1 changed since planning/)
  })

  it('a pod already gone (404) is done, as upstream treats NotFound', async () => {
    const plan = planOf(controller({desired: 0, active: 1, actions: [del('web-a')]}))
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: (c) => (c.type === 'deletePod' ? {code: 404, reason: 'NotFound', message: 'pods "web-a" not found'} : undefined),
    })
    const exec = await executePlan(plan, {control, now})
    expect(exec.results[0]).toMatchObject({outcome: 'ok', done: {alreadyGone: true}})
    expect(exec.conflict).toBeUndefined()
  })
})

describe('adoption and release', () => {
  it('send upstream\'s strategic-merge patches with the pod\'s uid as precondition', async () => {
    const plan = planOf(controller({actions: [adopt('orphan'), release('stray')]}))
    const control = new RecordingPodControl({controllers: controllersOf(plan)})
    await executePlan(plan, {control, now})
    const patches = control.callsOf('patchPod').map((c) => [c.name, c.patch])
    expect(patches).toEqual([
      ['orphan', {metadata: {ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}], uid: 'uid-orphan'}}],
      ['stray', {metadata: {uid: 'uid-stray', ownerReferences: [{$patch: 'delete', uid: 'uid-web'}]}}],
    ])
  })

  it('a pod adopted and then deleted in the same sync is deleted at the version the adoption left (3.5.1)', async () => {
    const plan = planOf(controller({desired: 2, active: 3, actions: [adopt('orphan', '5'), del('orphan', '5')]}))
    const control = new RecordingPodControl({controllers: controllersOf(plan)})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('deletePod')[0].preconditions).toEqual({uid: 'uid-orphan', resourceVersion: 'patched-orphan'})
    expect(exec.results.map((r) => r.outcome)).toEqual(['ok', 'ok'])
    // A dry run changed nothing, so the version the plan saw still holds.
    const dry = new RecordingPodControl({dryRun: true, controllers: controllersOf(plan)})
    await executePlan(plan, {control: dry, now})
    expect(dry.callsOf('deletePod')[0].preconditions.resourceVersion).toBe('5')
  })

  it('a failed adoption ends the sync there: no create, delete or status write (as claimPods\' error does)', async () => {
    const plan = planOf(controller({desired: 3, active: 1, actions: [adopt('orphan'), ...creates(2), statusWrite(status(), status({replicas: 1}))]}))
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (c) => (c.type === 'patchPod' ? forbidden('pods "orphan"') : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(control.calls.map((c) => c.type)).toEqual(['getController', 'patchPod'])
    expect(exec.results.map((r) => [r.action, r.outcome, r.skipReason])).toEqual([
      ['adopt', 'failed', undefined],
      ['create', 'skipped', SKIP.claimFailed],
      ['create', 'skipped', SKIP.claimFailed],
      ['updateStatus', 'skipped', SKIP.claimFailed],
    ])
    expect(exec.controllers[0].stopped).toBe(SKIP.claimFailed)
    expect(exec.conflict).toBeUndefined()
  })

  it('an adoption refused because the pod was replaced (422 on the uid precondition) is a conflict', async () => {
    const plan = planOf(controller({actions: [adopt('orphan')]}))
    const invalid = {code: 422, reason: 'Invalid', message: 'Pod "orphan" is invalid: metadata.uid: Invalid value: "uid-orphan": field is immutable'}
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (c) => (c.type === 'patchPod' ? invalid : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(exec.results[0]).toMatchObject({outcome: 'failed', conflict: true})
    expect(exec.conflict).toBe(`pod ns/orphan changed since planning: ${invalid.message}`)
  })
})

describe('the controller, read first', () => {
  it('changed since planning (another resourceVersion): nothing is sent for it', async () => {
    const plan = planOf(controller({desired: 0, active: 2, actions: [del('web-a'), del('web-b')]}))
    const control = new RecordingPodControl({controllers: {'ReplicaSet/ns/web': {uid: 'uid-web', resourceVersion: '11'}}})
    const exec = await executePlan(plan, {control, now})
    expect(control.calls.map((c) => c.type)).toEqual(['getController'])
    expect(exec.results.every((r) => r.outcome === 'skipped' && r.skipReason === SKIP.controllerChanged)).toBe(true)
    expect(exec.controllers[0].error).toEqual({message: 'ReplicaSet ns/web changed since planning: resourceVersion 10 → 11'})
    expect(exec.conflict).toMatch(/changed since planning/)
  })

  it('deleted and re-created (another uid): nothing is sent for it', async () => {
    const plan = planOf(controller({desired: 3, active: 0, actions: creates(3)}))
    const control = new RecordingPodControl({controllers: {'ReplicaSet/ns/web': {uid: 'uid-other', resourceVersion: '10'}}})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('createPod')).toHaveLength(0)
    expect(exec.controllers[0].error?.message).toMatch(/uid uid-web → uid-other/)
  })

  it('gone (404): nothing is sent for it, and the run stops as for any change since planning', async () => {
    const plan = planOf(controller({desired: 0, active: 1, actions: [del('web-a')]}))
    const exec = await executePlan(plan, {control: new RecordingPodControl(), now})
    expect(exec.results[0]).toMatchObject({outcome: 'skipped', skipReason: SKIP.controllerUnreadable})
    expect(exec.conflict).toBe('ReplicaSet ns/web no longer exists')
  })

  it('unreadable (403): its actions are not sent and the error is the controller\'s', async () => {
    const plan = planOf(controller({desired: 3, active: 0, actions: creates(3)}))
    const control = new RecordingPodControl({respond: (c) => (c.type === 'getController' ? forbidden('replicasets.apps "web"') : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(exec.controllers[0].error?.code).toBe(403)
    expect(exec.results.every((r) => r.outcome === 'skipped' && r.skipReason === SKIP.controllerUnreadable)).toBe(true)
    expect(exec.conflict).toBeUndefined()
  })
})

describe('the status write', () => {
  it('is a PUT of the object read, with the status planned and the resourceVersion the plan saw', async () => {
    const to = status({replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 2})
    const plan = planOf(controller({actions: [statusWrite(status(), to)]}))
    const raw = {apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: {name: 'web', namespace: 'ns', uid: 'uid-web', resourceVersion: '10'}, spec: {replicas: 3}, status: {replicas: 0}}
    const control = new RecordingPodControl({controllers: {'ReplicaSet/ns/web': {uid: 'uid-web', resourceVersion: '10', raw}}})
    const exec = await executePlan(plan, {control, now})
    const [write] = control.callsOf('updateStatus')
    expect(write.object).toEqual({...raw, status: {replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 0, availableReplicas: 0, observedGeneration: 2}})
    expect(raw.status).toEqual({replicas: 0})
    expect(exec.results[0]).toMatchObject({outcome: 'ok', done: {status: to}})
  })

  it('a conflict (409) is reported, not retried over the other write', async () => {
    const plan = planOf(controller({actions: [statusWrite(status(), status({replicas: 3}))]}))
    const conflict = {code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on replicasets.apps "web": the object has been modified'}
    const control = new RecordingPodControl({controllers: controllersOf(plan), respond: (c) => (c.type === 'updateStatus' ? conflict : undefined)})
    const exec = await executePlan(plan, {control, now})
    expect(control.callsOf('updateStatus')).toHaveLength(1)
    expect(exec.results[0]).toMatchObject({outcome: 'failed', conflict: true, error: conflict})
  })
})

describe('interruption', () => {
  it('SIGINT during a batch: the calls in flight finish, no new batch starts, the rest are reported as not sent', async () => {
    const plan = planOf(controller({desired: 20, active: 0, actions: [...creates(20), statusWrite(status(), status({observedGeneration: 2}))]}))
    const sigint = new AbortController()
    let n = 0
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: async (call) => {
        if (call.type !== 'createPod') return
        // The first call of batch 3 (the 4th create) is in flight when the interrupt comes.
        if (++n === 4) sigint.abort()
        await new Promise((r) => setTimeout(r, 1))
      },
    })
    const exec = await executePlan(plan, {control, now, signal: sigint.signal})
    expect(exec.interrupted).toBe(true)
    expect(control.callsOf('createPod')).toHaveLength(7)
    expect(control.callsOf('updateStatus')).toHaveLength(0)
    const results = exec.results
    expect(results.filter((r) => r.outcome === 'ok')).toHaveLength(7)
    expect(results.filter((r) => r.outcome === 'skipped').every((r) => r.skipReason === SKIP.interrupted)).toBe(true)
    expect(results.filter((r) => r.outcome === 'skipped')).toHaveLength(14)
    expect(exec.controllers[0].batches).toEqual([1, 2, 4])
  })

  it('calls still waiting for a slot when the interrupt comes are not sent', async () => {
    const plan = planOf(controller({desired: 7, active: 0, actions: creates(7)}))
    const sigint = new AbortController()
    let n = 0
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: (call) => {
        if (call.type === 'createPod' && ++n === 4) sigint.abort()
      },
    })
    const exec = await executePlan(plan, {control, now, signal: sigint.signal, concurrency: 1})
    // Batch 3 (4 calls) had only its first call running; the other three never went out.
    expect(control.callsOf('createPod')).toHaveLength(4)
    expect(exec.controllers[0].batches).toEqual([1, 2, 1])
    expect(exec.results.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'skipped', 'skipped', 'skipped'])
  })
})

describe('every planned action gets exactly one result', () => {
  it('across controllers, in plan order, whatever happens', async () => {
    const plan = planOf(
      controller({name: 'a', desired: 2, active: 0, actions: creates(2, 'a')}),
      controller({name: 'b', kind: 'ReplicationController', desired: 0, active: 2, actions: [del('b-1'), del('b-2'), statusWrite(status(), status({replicas: 2}))]}),
      controller({name: 'c', actions: []}),
      controller({name: 'd', actions: [adopt('d-1'), release('d-2')]}),
    )
    const control = new RecordingPodControl({
      controllers: controllersOf(plan),
      respond: (c: RecordedCall) => (c.type === 'deletePod' && c.name === 'b-2' ? forbidden('pods "b-2"') : undefined),
    })
    const exec = await executePlan(plan, {control, now})
    expect(exec.results.map((r) => `${r.controller.name}:${r.action}:${r.outcome}`)).toEqual([
      'a:create:ok',
      'a:create:ok',
      'b:delete:ok',
      'b:delete:failed',
      'b:updateStatus:ok',
      'd:adopt:ok',
      'd:release:ok',
    ])
    // A failed delete puts FailedDelete on the status written, with upstream's wording.
    const write = control.callsOf('updateStatus')[0]
    expect((write.object.status as any).conditions[0]).toMatchObject({reason: 'FailedDelete', message: expect.stringMatching(/^unable to delete pods: pods "b-2" is forbidden/)})
    expect(exec.controllers.map((c) => [c.controller.name, c.actions, c.ok, c.failed])).toEqual([
      ['a', 2, 2, 0],
      ['b', 3, 2, 1],
      ['c', 0, 0, 0],
      ['d', 2, 2, 0],
    ])
  })
})
