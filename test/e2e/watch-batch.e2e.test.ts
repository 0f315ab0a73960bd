// kctl watch following Jobs and CronJobs on a real kube-apiserver: a Job re-planned as the real
// job controller creates its pods and writes its status, and a CronJob re-planned by the watch's
// own clock when its next schedule time arrives (no event comes then: nothing has changed).
import {afterAll, describe, expect, it} from 'vitest'

import {WatchRun} from './watch-run.js'
import {apiOk, controlPlane, controllerManager, deleteNamespace, newNamespace} from './setup/cluster.js'

const JOB_SPEC = {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}}

describe('kctl watch: Jobs and CronJobs, live', () => {
  const runs: WatchRun[] = []
  const namespaces: string[] = []
  const watch = (args: string[]) => {
    const run = new WatchRun(args, {KUBECONFIG: controlPlane().adminKubeconfig})
    runs.push(run)
    return run
  }

  afterAll(async () => {
    for (const r of runs) r.kill()
    await controllerManager.stop()
    for (const ns of namespaces) {
      for (const p of (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items) {
        await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
      }
      await deleteNamespace(ns).catch(() => {})
    }
  })

  it('a Job: planned to create its pods, then re-planned on the job controller\'s pods and status until in sync', async () => {
    const ns = await newNamespace('watch-job')
    namespaces.push(ns)
    await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: 'work'}, spec: {parallelism: 2, completions: 2, ...JOB_SPEC}}})
    const run = watch(['-n', ns])
    const synced = await run.next('synced', (l) => l.kind === 'WatchStatus' && l.status === 'synced')
    expect(synced.controllers).toBe(1)
    const initial = await run.next('the initial plan', (l) => l.kind === 'PlanChange' && l.event.type === 'INITIAL')
    expect(initial.controller).toMatchObject({kind: 'Job', name: 'work', inSync: false})
    expect(initial.controller.actions.filter((a: any) => a.type === 'createJobPod')).toHaveLength(2)
    const mark = run.lines.length
    await controllerManager.start(['job'])
    try {
      const settled = await run.next('the Job in sync', (l) => l.kind === 'PlanChange' && l.controller.name === 'work' && l.inSync, mark)
      expect(['Pod', 'Job']).toContain(settled.event.kind)
      expect(settled.controller.status).toMatchObject({active: 2, startTime: expect.any(String)})
    } finally {
      await controllerManager.stop()
    }
    expect((await run.interrupt()).code).toBe(130)
  }, 90_000)

  it('a CronJob: nothing due, then at its next schedule time the watch\'s clock re-plans it and the Job due is planned by name', async () => {
    const ns = await newNamespace('watch-cron')
    namespaces.push(ns)
    await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name: 'tick'}, spec: {schedule: '@every 5s', jobTemplate: {spec: JOB_SPEC}}}})
    const run = watch(['-n', ns])
    await run.next('the initial plan', (l) => l.kind === 'PlanChange' && l.event.type === 'INITIAL' && l.controller.name === 'tick')
    // A run recorded now (as the controller records one): the next is due in 5 s, and no event will say so.
    const last = Math.floor(Date.now() / 1000) * 1000
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/tick/status`, {contentType: 'application/merge-patch+json', body: {status: {lastScheduleTime: new Date(last).toISOString().replace('.000Z', 'Z')}}})
    const recorded = await run.next('the re-plan of the recorded run', (l) => l.kind === 'PlanChange' && l.controller.name === 'tick' && l.event.type === 'MODIFIED')
    expect(recorded.controller.actions).toEqual([])
    expect(Date.parse(recorded.controller.requeue.at)).toBe(last + 5100)
    const due = await run.next('the re-plan at the next schedule time', (l) => l.kind === 'PlanChange' && l.controller.name === 'tick' && l.event.type === 'CLOCK', run.lines.indexOf(recorded), 20_000)
    const scheduled = last + 5000
    expect(Date.parse(due.time)).toBeGreaterThanOrEqual(scheduled)
    expect(due.controller.actions.find((a: any) => a.type === 'createJob')).toMatchObject({name: `tick-${Math.floor(scheduled / 60_000)}`, scheduledTime: new Date(scheduled).toISOString().replace('.000Z', 'Z')})
    expect((await run.interrupt()).code).toBe(130)
  }, 60_000)
})
