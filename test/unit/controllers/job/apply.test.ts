// The executor carrying out Job syncs: on the memory world (the objects it leaves, read back and
// planned again), and against the recording PodControl where a failure must be scripted (CronJobs:
// test/unit/controllers/cronjob/apply.test.ts).
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {executePlan} from '../../../../src/apply/executor.js'
import {guardViolations} from '../../../../src/apply/guards.js'
import type {MemoryWorld} from '../../../../src/apply/memory-world.js'
import {DEFAULT_FEATURE_GATES, type ControllerPlan, type ReconcilePlan} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {CARRIED_OUT} from '../../../../src/controllers/registry.js'
import {fixtureWorld} from '../../../../src/services/reconcile.js'
import {BATCH_NOW, before, cronJob, job, jobPod, planOne, steps, type Obj} from '../../../helpers/batch.js'
import {RecordingPodControl} from '../../../helpers/recording-control.js'

const now = () => BATCH_NOW

async function worldOf(objects: Obj[]): Promise<MemoryWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-batch-exec-'))
  writeFileSync(join(dir, 'world.json'), JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects}))
  return (await fixtureWorld({filename: [dir]}, now)).memory
}

const planOf = (world: MemoryWorld): ReconcilePlan => planSnapshot(world.snapshot(), {now: BATCH_NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500}, CARRIED_OUT)
const planNamed = (world: MemoryWorld, name: string): ControllerPlan => planOf(world).controllers.find((c) => c.name === name)!
const objectsOf = (world: MemoryWorld, kind: string) => world.objects().filter((o) => o.kind === kind) as Obj[]
const statusOf = (world: MemoryWorld, kind: string, name: string) => (world.find(kind, 'ns', name)!.object as Obj).status

async function sync(world: MemoryWorld, only?: string) {
  const plan = planOf(world)
  const controllers = plan.controllers.filter((c) => c.actions.length > 0 && (only === undefined || c.name === only))
  return executePlan({...plan, controllers}, {control: world.control(false), now})
}

describe('executor: Job syncs on the memory world', () => {
  it('adopts a matching orphan (owner reference and tracking finalizer in one patch) before anything else, and the next sync is in sync', async () => {
    const stray = jobPod('none', 'stray', {finalizer: false})
    stray.metadata.labels = {app: 'w'}
    stray.metadata.ownerReferences = []
    const world = await worldOf([job('w', {manualSelector: true, selector: {matchLabels: {app: 'w'}}, parallelism: 2, completions: 2}), stray])
    const exec = await sync(world)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['adopt:ok', 'createJobPod:ok', 'updateStatus:ok'])
    const adopted = world.find('Pod', 'ns', 'stray')!.object as Obj
    expect(adopted.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
    expect(adopted.metadata.ownerReferences).toEqual([{apiVersion: 'batch/v1', kind: 'Job', name: 'w', uid: 'uid-w', controller: true, blockOwnerDeletion: true}])
    expect(planNamed(world, 'w').inSync).toBe(true)
  })

  it('a finished Job past its ttlSecondsAfterFinished is deleted with its pods', async () => {
    const finished = job('old', {ttlSecondsAfterFinished: 60}, {succeeded: 1, completionTime: before(120), conditions: [{type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: before(120)}, {type: 'Complete', status: 'True', lastTransitionTime: before(120)}]})
    const world = await worldOf([finished, jobPod('old', 'old-a', {phase: 'Succeeded', exit: 0, finalizer: false})])
    const exec = await sync(world)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['deleteJob:ok'])
    expect(objectsOf(world, 'Job')).toEqual([])
    expect(objectsOf(world, 'Pod')).toEqual([])
  })

  it('creates a NonIndexed Job\'s pods in slow-start batches with the tracking finalizer and the owner, then writes the status', async () => {
    const world = await worldOf([job('work', {completions: 3, parallelism: 2})])
    const exec = await sync(world)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['createJobPod:ok', 'createJobPod:ok', 'updateStatus:ok'])
    expect(exec.controllers[0].batches).toEqual([1, 1])
    const pods = objectsOf(world, 'Pod')
    expect(pods).toHaveLength(2)
    for (const p of pods) {
      expect(p.metadata.generateName).toBe('work-')
      expect(p.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
      expect(p.metadata.ownerReferences).toEqual([{apiVersion: 'batch/v1', kind: 'Job', name: 'work', uid: 'uid-work', controller: true, blockOwnerDeletion: true}])
      expect(p.spec.hostname).toBeUndefined()
    }
    expect(statusOf(world, 'Job', 'work')).toMatchObject({active: 2, startTime: BATCH_NOW, ready: 0, terminating: 0, uncountedTerminatedPods: {}})
    // The controller's next sync finds nothing left to do.
    expect(planNamed(world, 'work').inSync).toBe(true)
  })

  it('an Indexed Job\'s pods carry their index (label, annotation, hostname, JOB_COMPLETION_INDEX)', async () => {
    const world = await worldOf([job('idx', {completions: 3, parallelism: 3, completionMode: 'Indexed'})])
    await sync(world)
    const pods = objectsOf(world, 'Pod').sort((a, b) => a.metadata.generateName.localeCompare(b.metadata.generateName))
    expect(pods.map((p) => [p.metadata.generateName, p.metadata.labels['batch.kubernetes.io/job-completion-index'], p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p.spec.hostname])).toEqual([
      ['idx-0-', '0', '0', 'idx-0'],
      ['idx-1-', '1', '1', 'idx-1'],
      ['idx-2-', '2', '2', 'idx-2'],
    ])
    expect(pods[0].spec.containers[0].env).toEqual([{name: 'JOB_COMPLETION_INDEX', valueFrom: {fieldRef: {fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']"}}}])
    expect(planNamed(world, 'idx').inSync).toBe(true)
  })

  it('too many active pods: each one\'s finalizer is patched away, then it is deleted with its new resourceVersion', async () => {
    const world = await worldOf([
      job('wide', {completions: 5, parallelism: 1}, {active: 2, startTime: before(600)}),
      jobPod('wide', 'wide-a', {ready: true, created: before(700)}),
      jobPod('wide', 'wide-b', {ready: true, created: before(600)}),
    ])
    const planned = planNamed(world, 'wide')
    expect(steps(planned)).toEqual(['~fin:wide-b', '-pod:wide-b', 'W1'])
    const exec = await sync(world)
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
    expect(objectsOf(world, 'Pod').map((p) => p.metadata.name)).toEqual(['wide-a'])
    expect(statusOf(world, 'Job', 'wide')).toMatchObject({active: 1, terminating: 1})
  })

  it('an excess pod without the finalizer is just deleted; a pod deleted in a sync that completes the Job is patched again, and the Job completes', async () => {
    const world = await worldOf([
      job('done', {completions: 1, parallelism: 2}, {active: 2, startTime: before(600)}),
      jobPod('done', 'done-a', {phase: 'Succeeded', exit: 0, finishedAgo: 5}),
      jobPod('done', 'done-b', {ready: true}),
      jobPod('done', 'done-c', {finalizer: false}),
    ])
    expect(steps(planNamed(world, 'done'))).toEqual(['-pod:done-c', '~fin:done-b', '-pod:done-b', 'W1', '~fin:done-a', '~fin:done-b', 'W2'])
    const exec = await sync(world)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['deleteJobPod:ok', 'removeFinalizer:ok', 'deleteJobPod:ok', 'updateStatus:ok', 'removeFinalizer:ok', 'removeFinalizer:ok', 'updateStatus:ok'])
    expect(objectsOf(world, 'Pod').map((p) => p.metadata.name)).toEqual(['done-a'])
    expect(statusOf(world, 'Job', 'done')).toMatchObject({succeeded: 1, terminating: 2})
  })

  it('a Job past its backoffLimit: failure counted through the two status writes, the finalizer removed in between', async () => {
    const world = await worldOf([
      job('flaky', {backoffLimit: 0}, {active: 1, startTime: before(600)}),
      jobPod('flaky', 'flaky-a', {phase: 'Failed', exit: 1, finishedAgo: 5}),
    ])
    expect(steps(planNamed(world, 'flaky'))).toEqual(['W1', '~fin:flaky-a', 'W2'])
    await sync(world)
    const status = statusOf(world, 'Job', 'flaky')
    expect(status.failed).toBe(1)
    expect(status.uncountedTerminatedPods).toEqual({})
    expect(status.conditions.map((c: Obj) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'])
    expect((world.find('Pod', 'ns', 'flaky-a')!.object as Obj).metadata.finalizers).toBeUndefined()
    expect(planNamed(world, 'flaky').inSync).toBe(true)
  })

  it('a pod changed since planning stops the sync: its write is refused (409) and the status is not written', async () => {
    const world = await worldOf([job('flaky', {backoffLimit: 0}, {active: 1, startTime: before(600)}), jobPod('flaky', 'flaky-a', {phase: 'Failed', exit: 1})])
    const plan = planOf(world)
    // Someone writes the pod after planning.
    const at = world.find('Pod', 'ns', 'flaky-a')!
    world.replace(at, {...at.object, metadata: {...(at.object as Obj).metadata, resourceVersion: world.nextResourceVersion()}})
    const exec = await executePlan({...plan, controllers: plan.controllers.filter((c) => c.name === 'flaky')}, {control: world.control(false), now})
    expect(exec.results.map((r) => `${r.action}:${r.outcome}${r.conflict ? ':conflict' : ''}`)).toEqual(['updateStatus:ok', 'removeFinalizer:failed:conflict', 'updateStatus:skipped'])
    expect(exec.conflict).toMatch(/pod ns\/flaky-a changed since planning/)
    expect((world.find('Pod', 'ns', 'flaky-a')!.object as Obj).metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
  })

  it('a dry run changes nothing', async () => {
    const world = await worldOf([job('work', {completions: 2, parallelism: 2}), cronJob('every', {}, {}, {creationTimestamp: before(400)})])
    const plan = planOf(world)
    const exec = await executePlan(plan, {control: world.control(true), now})
    expect(exec.results.filter((r) => r.predicted).every((r) => r.outcome === 'ok')).toBe(true)
    expect(world.writes).toBe(0)
  })
})

describe('executor: Job failures as the controller handles them (recording control)', () => {
  const raw = {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: 'work', namespace: 'ns', uid: 'uid-work', resourceVersion: '1'}, spec: {template: {spec: {containers: [{name: 'main', image: 'busybox'}]}}}}
  const control = (respond: ConstructorParameters<typeof RecordingPodControl>[0]['respond']) =>
    new RecordingPodControl({controllers: {'Job/ns/work': {uid: 'uid-work', resourceVersion: '1', raw}}, respond})
  const run = (cp: ControllerPlan, c: RecordingPodControl) => executePlan({apiVersion: 'kctl/v1alpha1', kind: 'ReconcilePlan', now: BATCH_NOW, controllers: [cp]} as ReconcilePlan, {control: c, now})

  it('a failed create ends slow start; the status written counts only the pods made', async () => {
    const cp = planOne([job('work', {completions: 4, parallelism: 4})], 'work')
    let creates = 0
    const c = control((call) => (call.type === 'createPod' && ++creates === 2 ? {code: 403, reason: 'Forbidden', message: 'exceeded quota'} : undefined))
    const exec = await run(cp, c)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['createJobPod:ok', 'createJobPod:failed', 'createJobPod:ok', 'createJobPod:skipped', 'updateStatus:ok'])
    expect(c.callsOf('createPod')).toHaveLength(3)
    expect((c.callsOf('updateStatus')[0].object as Obj).status.active).toBe(2)
  })

  it('the second finalizer patch of a pod this run deleted has no resourceVersion precondition (the pod changed since planning: upstream sends none)', async () => {
    const cp = planOne([job('work', {completions: 1, parallelism: 2}, {active: 1, startTime: before(600)}), jobPod('work', 'a', {phase: 'Succeeded', exit: 0}), jobPod('work', 'b')], 'work')
    const c = control(() => undefined)
    const exec = await run(cp, c)
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
    const patches = c.callsOf('patchObject').map((p) => [p.name, (p.patch as Obj).metadata.resourceVersion])
    expect(patches).toEqual([
      ['b', '1'],
      ['a', '1'],
      ['b', undefined],
    ])
  })

  it('a delete that fails leaves its pod active in the status written', async () => {
    const cp = planOne([job('work', {completions: 5, parallelism: 1}, {active: 3, startTime: before(600)}), jobPod('work', 'work-a', {ready: true}), jobPod('work', 'work-b', {ready: true}), jobPod('work', 'work-c', {ready: true})], 'work')
    expect(steps(cp).filter((x) => x.startsWith('-pod'))).toHaveLength(2)
    let deletes = 0
    const c = control((call) => (call.type === 'deletePod' && ++deletes === 1 ? {code: 500, message: 'etcd timeout'} : undefined))
    const exec = await run(cp, c)
    expect(exec.results.filter((r) => r.outcome === 'failed').map((r) => r.action)).toEqual(['deleteJobPod'])
    expect((c.callsOf('updateStatus')[0].object as Obj).status).toMatchObject({active: 2, terminating: 1})
  })

  it('a finalizer removal that fails leaves its pod uncounted and the Job unfinished in write #2', async () => {
    const cp = planOne([job('work', {backoffLimit: 0}, {active: 1, startTime: before(600)}), jobPod('work', 'work-a', {phase: 'Failed', exit: 1})], 'work')
    const c = control((call) => (call.type === 'patchObject' ? {code: 500, message: 'etcd timeout'} : undefined))
    const exec = await run(cp, c)
    expect(exec.results.map((r) => `${r.action}:${r.outcome}`)).toEqual(['updateStatus:ok', 'removeFinalizer:failed', 'updateStatus:ok'])
    const [first, second] = c.callsOf('updateStatus').map((u) => (u.object as Obj))
    expect(first.metadata.resourceVersion).toBe('1')
    expect(second.metadata.resourceVersion).toBe('after-status')
    expect(second.status.uncountedTerminatedPods).toEqual({failed: ['uid-work-a']})
    expect(second.status.failed).toBeUndefined()
    expect(second.status.conditions.map((x: Obj) => x.type)).toEqual(['FailureTarget'])
    // The patch named the pod's uid and the resourceVersion the plan saw.
    expect(c.callsOf('patchObject')[0].patch).toEqual({metadata: {uid: 'uid-work-a', resourceVersion: '1', '$deleteFromPrimitiveList/finalizers': ['batch.kubernetes.io/job-tracking']}})
  })
})

describe('guards on Job plans', () => {
  it('--max-delete counts a Job\'s pod deletions', async () => {
    const world = await worldOf([
      job('wide', {completions: 5, parallelism: 1}, {active: 3, startTime: before(600)}),
      jobPod('wide', 'wide-a', {ready: true}),
      jobPod('wide', 'wide-b', {ready: true}),
      jobPod('wide', 'wide-c', {ready: true}),
    ])
    expect(guardViolations(planOf(world), {maxDelete: 1, allowScaleToZero: true})).toEqual(['the plan deletes 2 pods, more than --max-delete 1'])
    expect(guardViolations(planOf(world), {maxDelete: 2, allowScaleToZero: true})).toEqual([])
    // 2 of 3 active pods go, and 1 is wanted: not a Job losing all its pods.
    expect(guardViolations(planOf(world), {})).toEqual([])
  })

  it('suspending a Job takes all its pods: the scale-to-zero guard asks for --allow-scale-to-zero', async () => {
    const world = await worldOf([job('sus', {suspend: true}, {active: 1, startTime: before(600)}), jobPod('sus', 'sus-a', {ready: true})])
    expect(guardViolations(planOf(world), {})).toEqual(['Job ns/sus: the plan deletes all 1 active pods (desired 0); pass --allow-scale-to-zero to allow it'])
  })
})
