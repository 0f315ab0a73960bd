// The executor carrying out CronJob syncs on the memory world: the objects it leaves, read back and
// planned again.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {executePlan} from '../../../../src/apply/executor.js'
import type {MemoryWorld} from '../../../../src/apply/memory-world.js'
import {DEFAULT_FEATURE_GATES, type ControllerPlan, type ReconcilePlan} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {CARRIED_OUT} from '../../../../src/controllers/registry.js'
import {fixtureWorld} from '../../../../src/services/reconcile.js'
import {BATCH_NOW, before, childJob, cronJob, jobPod, steps, type Obj} from '../../../helpers/batch.js'
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

describe('executor: CronJob syncs on the memory world', () => {
  it('Replace and the history limit delete Jobs (with their pods, Background), then the Job of the due time is created and named in status.active', async () => {
    const world = await worldOf([
      cronJob('every', {concurrencyPolicy: 'Replace', successfulJobsHistoryLimit: 1}, {active: [{apiVersion: 'batch/v1', kind: 'Job', name: 'every-old', namespace: 'ns', uid: 'uid-every-old'}], lastScheduleTime: before(300)}),
      childJob('every', 'every-done1', {started: before(3000), complete: before(2900)}),
      childJob('every', 'every-done2', {started: before(2000), complete: before(1900)}),
      childJob('every', 'every-old', {started: before(300)}),
      jobPod('every-old', 'every-old-pod'),
    ])
    const planned = planNamed(world, 'every')
    const due = `every-${Math.floor(Date.parse(BATCH_NOW) / 60_000)}`
    expect(steps(planned)).toEqual(['-job:every-done1', '-job:every-old', `+job:${due}`, 'W'])
    await sync(world, 'every')
    expect(objectsOf(world, 'Job').map((j) => j.metadata.name).sort()).toEqual([due, 'every-done2'])
    expect(objectsOf(world, 'Pod')).toEqual([])
    const created = world.find('Job', 'ns', due)!.object as Obj
    expect(created.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(BATCH_NOW)
    expect(created.metadata.ownerReferences[0]).toMatchObject({kind: 'CronJob', name: 'every', uid: 'uid-every', controller: true})
    const status = statusOf(world, 'CronJob', 'every')
    expect(status.active).toEqual([{apiVersion: 'batch/v1', kind: 'Job', name: due, namespace: 'ns', uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion}])
    expect(status.lastScheduleTime).toBe(BATCH_NOW)
    expect(planNamed(world, 'every').inSync).toBe(true)
  })
})

describe('executor: what a CronJob sync sends', () => {
  it('a Replace delete and a history-limit delete go Background, each with the Job\'s uid as precondition', async () => {
    const world = await worldOf([
      cronJob('every', {concurrencyPolicy: 'Replace', successfulJobsHistoryLimit: 1}, {active: [{apiVersion: 'batch/v1', kind: 'Job', name: 'every-old', namespace: 'ns', uid: 'uid-every-old'}], lastScheduleTime: before(300)}),
      childJob('every', 'every-done1', {started: before(3000), complete: before(2900)}),
      childJob('every', 'every-done2', {started: before(2000), complete: before(1900)}),
      childJob('every', 'every-old', {started: before(300)}),
    ])
    const cp = planNamed(world, 'every')
    const raw = world.find('CronJob', 'ns', 'every')!.object as Obj
    const control = new RecordingPodControl({controllers: {'CronJob/ns/every': {uid: raw.metadata.uid, resourceVersion: raw.metadata.resourceVersion, raw}}})
    await executePlan({apiVersion: 'kctl/v1alpha1', kind: 'ReconcilePlan', now: BATCH_NOW, controllers: [cp]} as ReconcilePlan, {control, now})
    const deletes = control.callsOf('deleteObject').map((c) => `${c.kind}/${c.name} ${c.preconditions.propagationPolicy} ${c.preconditions.uid}`)
    expect(deletes).toEqual(['Job/every-done1 Background uid-every-done1', 'Job/every-old Background uid-every-old'])
  })
})
