// Watch mode's Job and CronJob side: an event of a Job, a CronJob, or a pod a Job owns (or no one
// does) marks its namespace; the plans equal `kctl plan` of the same objects; and a plan's requeue —
// a CronJob's next schedule time — re-plans the namespace when the watch's clock gets there.
import {describe, expect, it} from 'vitest'
import type {CronJobView} from '../../../../src/controllers/cronjob/model.js'
import type {JobView} from '../../../../src/controllers/job/model.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import type {PlanChange, WatchUpdate} from '../../../../src/model/watch.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {parseSelectorString} from '../../../../src/reconcile/selector.js'
import {readAllDocuments, readFixtures} from '../../../../src/sources/fixtures.js'
import {cronJobWatch} from '../../../../src/controllers/cronjob/watch.js'
import {jobWatch} from '../../../../src/controllers/job/watch.js'
import {Interner} from '../../../../src/watch/objects.js'
import {normalizePods} from '../../../../src/watch/pods.js'
import {NamespaceWatch} from '../../../../src/watch/namespace-watch.js'
import {WatchEngine} from '../../../../src/watch/engine.js'
import {plainPod} from '../../../../src/sources/pods.js'
import {ManualClock} from '../../../helpers/manual-clock.js'
import {members, snapshotCaches} from '../../../helpers/watch-caches.js'

const NOW = '2026-11-22T10:00:00Z'
const gates = {...DEFAULT_FEATURE_GATES}

/** Jobs and CronJobs, planned together (a CronJob's sync reads its Jobs). */
const batch = () => members('job', 'cronjob')

const examples = () => readFixtures({paths: ['examples/job', 'examples/cronjob'], allNamespaces: true})

describe('the Job and CronJob namespace watch', () => {
  it('plans every marked namespace as kctl plan does; a Job\'s pod and an orphan mark their namespace, another kind\'s pod does not', async () => {
    const world = {snapshot: await examples()}
    const watch = new NamespaceWatch(batch(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500})
    watch.touchAll(() => ({type: 'INITIAL'}))
    const expected = planSnapshot(world.snapshot, {now: NOW, featureGates: gates, burstReplicas: 500}, ['job', 'cronjob']).controllers
    expect(watch.plan(NOW, NOW).map((c) => c.next)).toEqual(expected)
    expect(watch.plan(NOW, NOW)).toEqual([])

    const pod = world.snapshot.pods.find((p) => p.ownerReferences.some((r) => r.kind === 'Job'))!
    watch.touchPod({...plainPod(pod), ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u', controller: true}]}, undefined)
    expect(watch.pendingCount).toBe(0)
    watch.touchPod({...plainPod(pod), ownerReferences: []}, undefined)
    expect(watch.pendingCount).toBe(1)
    watch.touchPod({...plainPod(pod), namespace: 'nowhere'}, undefined)
    expect(watch.pendingCount).toBe(1)
  })

  it('-l plans only the CronJobs and Jobs it picks, and a CronJob still reads its Jobs', async () => {
    const world = {snapshot: await examples()}
    // The CronJob has no app label, its Jobs have app=report.
    const picked = new NamespaceWatch(batch(), snapshotCaches(world), {featureGates: gates, burstReplicas: 500, selector: parseSelectorString('app!=report')})
    picked.touchAll(() => ({type: 'INITIAL'}))
    const plans = picked.plan(NOW, NOW).map((c) => c.next!)
    expect(plans.filter((p) => p.name.startsWith('hourly-'))).toEqual([])
    expect(plans.find((p) => p.kind === 'CronJob')?.jobs?.length).toBeGreaterThan(0)
    expect(plans.map((p) => p.name)).toContain('migrate')
  })

  it('the engine re-plans a CronJob when its next schedule time comes (CLOCK), and the Job it then creates is named', async () => {
    const world = {snapshot: await examples()}
    const clock = new ManualClock(Date.parse(NOW))
    const updates: WatchUpdate[] = []
    let deferred: (() => void) | undefined
    const engine = new WatchEngine({featureGates: gates, burstReplicas: 500, clock, emit: (u) => updates.push(u), defer: (fn) => (deferred = fn)})
    // The first sync is done: the Job due now exists, so the CronJob waits for its next time.
    const cron = world.snapshot.cronJobs![0] as CronJobView
    const first = planSnapshot(world.snapshot, {now: NOW, featureGates: gates, burstReplicas: 500}, ['cronjob']).controllers[0]
    const created = first.actions.find((a) => a.type === 'createJob')!
    expect(created.type).toBe('createJob')
    const name = (created as {name: string}).name
    const job = {...world.snapshot.jobs!.find((j) => j.name !== name)!, name, uid: 'uid-new', status: {conditions: [], active: 0, succeeded: 0, failed: 0}, ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: cron.name, uid: cron.uid, controller: true}]} as JobView
    const after = first.status as CronJobView['status']
    world.snapshot = {...world.snapshot, cronJobs: [{...cron, status: {...after, active: after.active.map((r) => (r.name === name ? {...r, uid: 'uid-new'} : r))}}], jobs: [...world.snapshot.jobs!.filter((j) => !first.actions.some((a) => a.type === 'deleteJob' && a.name === j.name)), job]}
    engine.watchNamespaces(batch(), snapshotCaches(world))
    engine.markSynced()
    const planned = () => updates.filter((u): u is PlanChange => u.kind === 'PlanChange' && u.key === `CronJob/${cron.namespace}/${cron.name}`)
    const initial = planned().at(-1)!.next!
    expect(initial.actions.some((a) => a.type === 'createJob')).toBe(false)
    expect(initial.requeue?.reason).toBe('next-schedule')
    const count = planned().length
    await clock.advance(Date.parse(initial.requeue!.at) - clock.now() - 1)
    deferred?.()
    expect(planned()).toHaveLength(count)
    await clock.advance(1)
    deferred?.()
    const due = planned().at(-1)!
    expect(planned()).toHaveLength(count + 1)
    expect(due.event).toEqual({type: 'CLOCK'})
    expect(due.next!.actions.find((a) => a.type === 'createJob')).toMatchObject({scheduledTime: expect.any(String)})
  })
})

describe('the Job and CronJob watch cache', () => {
  const OPTIONS = {now: NOW, featureGates: gates, burstReplicas: 500}

  it.each(['examples/job', 'examples/cronjob'])('Job and CronJob plans from cached pods, Jobs and CronJobs equal plans from the whole objects: %s', async (dir) => {
    const full = await readFixtures({paths: [dir], allNamespaces: true})
    const byKind: Record<string, any[]> = {Pod: [], Job: [], CronJob: []}
    for (const o of await readAllDocuments([dir])) {
      const {kind, apiVersion: _a, ...rest} = structuredClone(o.raw) as any
      // What the API server adds to every object, and the watch cache must drop.
      rest.metadata.managedFields = [{manager: 'kube-controller-manager', operation: 'Update'}]
      byKind[kind]?.push(rest)
    }
    const pods = normalizePods(byKind.Pod, new Interner())
    const jobs = jobWatch.resources[0].normalize(byKind.Job, new Interner()) as {objects: JobView[]; problems: unknown[]}
    const cronJobs = cronJobWatch.resources[0].normalize(byKind.CronJob, new Interner()) as {objects: CronJobView[]; problems: unknown[]}
    expect([...pods.problems, ...jobs.problems, ...cronJobs.problems]).toEqual([])
    const cached = {...full, pods: pods.objects, jobs: jobs.objects, cronJobs: cronJobs.objects}
    expect(planSnapshot(cached, OPTIONS, ['job', 'cronjob']).controllers).toEqual(planSnapshot(full, OPTIONS, ['job', 'cronjob']).controllers)
    expect(pods.objects.find((p) => p.batch)?.batch?.finalizers).toContain('batch.kubernetes.io/job-tracking')
  })
})
