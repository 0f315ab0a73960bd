// `kctl reconcile` on Jobs and CronJobs against the real control plane: kctl stands in for
// kube-controller-manager (stopped) and carries out the job and cronjob controllers' syncs until
// everything is in sync; then the real controllers run and are the judge — they must find nothing
// left to change: every Job, CronJob and pod keeps the resourceVersion kctl left. No scheduler or
// kubelet runs: pods stay Pending unless a test finishes them by hand, as a kubelet would report.
// Also: a dry run writes nothing, a stale saved plan is refused (exit 4), and --max-delete counts a
// Job's pod deletions.
//
// CronJobs use a yearly schedule ("0 0 1 1 *") and a lastScheduleTime a year before: the run of
// January 1st is due, and no other for months, so the real controller cannot start another while
// the test runs.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, reconcileJson} from './kctl.js'
import {api, apiOk, controllerManager, deleteNamespace, finishJobPod, newNamespace, waitUntil} from './setup/cluster.js'

type Json = Record<string, any>

const BATCH = (ns: string) => `/apis/batch/v1/namespaces/${ns}`
const podTemplate = {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}
const YEARLY = '0 0 1 1 *'
const thisYear = new Date().getUTCFullYear()
/** The Job a yearly CronJob `name` creates for this year's January 1st. */
const yearlyJob = (name: string) => `${name}-${Math.floor(Date.UTC(thisYear, 0, 1) / 60_000)}`

/** `kind/name@resourceVersion` of every Job, CronJob and pod in `ns`. */
async function versions(ns: string): Promise<string[]> {
  const out: string[] = []
  for (const [path, kind] of [
    [`${BATCH(ns)}/jobs`, 'Job'],
    [`${BATCH(ns)}/cronjobs`, 'CronJob'],
    [`/api/v1/namespaces/${ns}/pods`, 'Pod'],
  ]) {
    for (const o of (await apiOk('GET', path)).items) out.push(`${kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
  }
  return out.sort()
}

const getJob = (ns: string, name: string) => apiOk('GET', `${BATCH(ns)}/jobs/${name}`)
const podsOf = async (ns: string, job: string): Promise<Json[]> =>
  (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items.filter((p: Json) => p.metadata.ownerReferences?.some((r: Json) => r.kind === 'Job' && r.name === job))
const conditionsOf = (j: Json) => (j.status?.conditions ?? []).filter((c: Json) => c.status === 'True').map((c: Json) => `${c.type}:${c.reason}`)

const finishPod = (ns: string, pod: Json, exitCode: number) => finishJobPod(ns, pod, exitCode)

async function job(ns: string, name: string, spec: Json, owner?: Json): Promise<Json> {
  return apiOk('POST', `${BATCH(ns)}/jobs`, {
    body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name, ...(owner ? {ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true}]} : {})}, spec: {template: podTemplate, ...spec}},
  })
}

/** A yearly CronJob whose last run was a year ago, with `active` children (created suspended, so they have no pods). */
async function cronJob(ns: string, name: string, spec: Json, children: string[] = []): Promise<Json> {
  const cj = await apiOk('POST', `${BATCH(ns)}/cronjobs`, {
    body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name}, spec: {schedule: YEARLY, jobTemplate: {spec: {template: podTemplate}}, ...spec}},
  })
  const active: Json[] = []
  for (const child of children) {
    const j = await job(ns, child, {suspend: true}, cj)
    active.push({apiVersion: 'batch/v1', kind: 'Job', name: child, namespace: ns, uid: j.metadata.uid, resourceVersion: j.metadata.resourceVersion})
  }
  return apiOk('PATCH', `${BATCH(ns)}/cronjobs/${name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {status: {lastScheduleTime: `${thisYear - 1}-01-01T00:00:00Z`, ...(active.length > 0 ? {active} : {})}},
  })
}

/**
 * CronJobs and Jobs deleted (Background: no garbage collector runs here), the tracking finalizer
 * stripped from pods no controller will count, then the namespace.
 */
async function removeBatchNamespace(ns: string): Promise<void> {
  await api('DELETE', `${BATCH(ns)}/cronjobs?propagationPolicy=Background`).catch(() => {})
  await api('DELETE', `${BATCH(ns)}/jobs?propagationPolicy=Background`).catch(() => {})
  for (const p of (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items) {
    await api('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
  }
  await deleteNamespace(ns).catch(() => {})
}

describe('kctl reconcile on Jobs and CronJobs, judged by the real controllers', () => {
  let ns: string
  let judge: string

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('br')
    judge = await newNamespace('br-judge')
    await job(ns, 'plain', {completions: 3, parallelism: 2})
    await job(ns, 'idx', {completions: 3, parallelism: 2, completionMode: 'Indexed'})
    await job(ns, 'fail', {backoffLimit: 0})
    await job(ns, 'sus', {suspend: true, parallelism: 2, completions: 2})
    await job(ns, 'wide', {completions: 5, parallelism: 3})
    await cronJob(ns, 'due', {})
    await cronJob(ns, 'forbid', {concurrencyPolicy: 'Forbid'}, ['forbid-running'])
    await cronJob(ns, 'replace', {concurrencyPolicy: 'Replace'}, ['replace-running'])
    // Suspended: it starts nothing, but its history is still cleaned up (CJ6).
    const hist = await cronJob(ns, 'hist', {suspend: true, successfulJobsHistoryLimit: 1})
    await job(ns, 'hist-a', {}, hist)
    await job(ns, 'hist-b', {}, hist)
  }, 60_000)

  afterAll(async () => {
    await controllerManager.stop()
    for (const n of [ns, judge]) if (n) await removeBatchNamespace(n)
  })

  it('a dry run sends every write with dryRun=All and changes nothing', async () => {
    const before = await versions(ns)
    const {code, report} = await reconcileJson(['-n', ns])
    expect(code).toBe(0)
    expect(report.mode).toBe('dry-run')
    const sent = report.results.map((r: Json) => `${r.controller.name}:${r.action}:${r.outcome}`)
    expect(sent).toContain('plain:createJobPod:ok')
    expect(sent).toContain('due:createJob:ok')
    expect(sent).toContain('replace:deleteJob:ok')
    expect(report.summary.failed).toBe(0)
    expect(await versions(ns)).toEqual(before)
  })

  it('a stale saved plan is refused with exit 4, and nothing is written', async () => {
    const plan = await kctl(['plan', '-n', ns, '-o', 'json'])
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-br-')), 'plan.json')
    writeFileSync(file, plan.stdout)
    await apiOk('PATCH', `${BATCH(ns)}/jobs/plain`, {contentType: 'application/merge-patch+json', body: {metadata: {annotations: {touched: 'yes'}}}})
    const before = await versions(ns)
    const {code, report, stderr} = await reconcileJson(['-n', ns, '--plan', file, '--apply', '--yes'])
    expect(code).toBe(4)
    expect(stderr).toMatch(/saved plan is stale.*Job \S+\/plain changed \(resourceVersion/)
    expect(report.outcome).toBe('refused')
    expect(await versions(ns)).toEqual(before)
  })

  it('carries the syncs out until in sync; the real job and cronjob controllers then find nothing to change', async () => {
    const reconcile = async (extra: string[] = []) => {
      const {code, report, stderr} = await reconcileJson(['-n', ns, '--apply', '--yes', '--until-converged', '--timeout', '60s', ...extra])
      if (code !== 0 && code !== 2) throw new Error(`reconcile exited ${code}: ${stderr}\n${JSON.stringify({refusal: report.refusal, notOk: report.results.filter((r: Json) => r.outcome !== 'ok').map((r: Json) => [r.controller.name, r.action, r.error?.message ?? r.skipReason])})}`)
      expect(report.converged).toBe(true)
      expect(report.results.filter((r: Json) => r.outcome === 'failed')).toEqual([])
      return report
    }
    const first = await reconcile()
    // Slow start: 2 pods of `plain` in batches of 1 and 1; `wide`'s 3 in 1 and 2.
    const batches = (name: string) => first.controllers.find((c: Json) => c.name === name && c.batches)?.batches
    expect(batches('plain')).toEqual([1, 1])
    expect(batches('wide')).toEqual([1, 2])
    expect((await podsOf(ns, 'plain')).map((p) => p.metadata.finalizers)).toEqual([['batch.kubernetes.io/job-tracking'], ['batch.kubernetes.io/job-tracking']])
    const idxPods = await podsOf(ns, 'idx')
    expect(idxPods.map((p) => [p.metadata.labels['batch.kubernetes.io/job-completion-index'], p.spec.hostname]).sort()).toEqual([['0', 'idx-0'], ['1', 'idx-1']])
    expect((await getJob(ns, 'plain')).status).toMatchObject({active: 2, ready: 0, terminating: 0})
    expect(conditionsOf(await getJob(ns, 'sus'))).toEqual(['Suspended:JobSuspended'])
    expect(await podsOf(ns, 'sus')).toEqual([])
    // The CronJobs: `due` and `replace` start this year's run; Replace deleted its running Job; Forbid started nothing.
    const jobs = (await apiOk('GET', `${BATCH(ns)}/jobs`)).items.map((j: Json) => j.metadata.name).sort()
    expect(jobs).toContain(yearlyJob('due'))
    expect(jobs).toContain(yearlyJob('replace'))
    expect(jobs).not.toContain('replace-running')
    expect(jobs).not.toContain(yearlyJob('forbid'))
    const due = await apiOk('GET', `${BATCH(ns)}/cronjobs/due`)
    const made = await getJob(ns, yearlyJob('due'))
    expect(due.status.active).toEqual([{apiVersion: 'batch/v1', kind: 'Job', name: made.metadata.name, namespace: ns, uid: made.metadata.uid, resourceVersion: expect.any(String)}])
    expect(due.status.lastScheduleTime).toBe(`${thisYear}-01-01T00:00:00Z`)
    expect(made.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(`${thisYear}-01-01T00:00:00Z`)

    // A kubelet's reports: `fail`'s pod exits 1, `hist`'s Jobs' pods succeed; `wide` wants 1 pod now.
    await finishPod(ns, (await podsOf(ns, 'fail'))[0], 1)
    for (const name of ['hist-a', 'hist-b']) await finishPod(ns, (await podsOf(ns, name))[0], 0)
    await apiOk('PATCH', `${BATCH(ns)}/jobs/wide`, {contentType: 'application/merge-patch+json', body: {spec: {parallelism: 1}}})

    // --max-delete counts the Job's pod deletions: 2 of `wide`'s pods go.
    const before = await versions(ns)
    const guarded = await reconcileJson(['-n', ns, '--apply', '--yes', '--max-delete', '1'])
    expect(guarded.code).toBe(4)
    expect(guarded.stderr).toMatch(/the plan deletes 2 pods, more than --max-delete 1/)
    expect(await versions(ns)).toEqual(before)

    const second = await reconcile()
    const done = second.results.filter((r: Json) => r.outcome === 'ok').map((r: Json) => `${r.controller.name}:${r.action}`)
    expect(done).toContain('wide:removeFinalizer')
    expect(done).toContain('wide:deleteJobPod')
    expect(done).toContain('hist:deleteJob')
    expect(await podsOf(ns, 'wide')).toHaveLength(1)
    const failed = await getJob(ns, 'fail')
    expect(conditionsOf(failed)).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
    expect(failed.status.failed).toBe(1)
    expect((await podsOf(ns, 'fail'))[0].metadata.finalizers).toBeUndefined()
    const histJobs = (await apiOk('GET', `${BATCH(ns)}/jobs`)).items.filter((j: Json) => j.metadata.name.startsWith('hist-')).map((j: Json) => j.metadata.name)
    expect(histJobs).toEqual(['hist-b'])
    expect(conditionsOf(await getJob(ns, 'hist-b'))).toEqual(['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached'])
    const after = await versions(ns)

    // The judge: a Job and a CronJob elsewhere that the controllers must act on (so they have synced
    // everything), and nothing of ours touched.
    await job(judge, 'judge', {completions: 1})
    await cronJob(judge, 'judge-cron', {})
    await controllerManager.start(['job', 'cronjob'])
    await waitUntil(async () => ((await podsOf(judge, 'judge')).length === 1 ? true : undefined), {what: 'the job controller to act on the judge Job', timeoutMs: 60_000})
    await waitUntil(async () => ((await apiOk('GET', `${BATCH(judge)}/jobs`)).items.some((j: Json) => j.metadata.name === yearlyJob('judge-cron')) ? true : undefined), {what: 'the cronjob controller to start the judge CronJob\'s run', timeoutMs: 60_000})
    // A resync's worth of quiet for the controllers' first pass over our namespace.
    await new Promise((r) => setTimeout(r, 3000))
    expect(await versions(ns)).toEqual(after)
  }, 240_000)
})

// `kctl simulate` of a Job and a CronJob, then the same on the real job and cronjob controllers with
// kube-scheduler and kwok's timed stages (a pod is Ready 2 s after it starts and exits 3 s after
// that: the pod-template annotations kctl's kubelet model also reads). Compared: the Jobs the
// CronJob creates (by name) and deletes (history limit), the Job's pods per wave, the final status.
// A wave is a burst of pod creations: the real controller's creation times (whole seconds) are
// split where they are 2 s or more apart; the simulation's waves are its instants.
describe('kctl simulate of a Job and a CronJob against the real controllers and a timed kubelet', () => {
  const STAGES = {'stage.kctl.io/ready-after': '2s', 'stage.kctl.io/complete-after': '3s'}
  const template = {metadata: {annotations: STAGES}, spec: podTemplate.spec}
  let ns: string
  let scheduler: import('../../controlplane/procs.js').Component | undefined
  let kwok: import('../../controlplane/fake-nodes.js').Kwok | undefined

  beforeAll(async () => {
    await controllerManager.stop()
    const {startKwok} = await import('../../controlplane/fake-nodes.js')
    const {startScheduler} = await import('../../controlplane/start.js')
    const {controlPlane} = await import('./setup/cluster.js')
    scheduler = await startScheduler({info: controlPlane(), log: () => {}})
    kwok = await startKwok({info: controlPlane(), nodes: 1, stages: 'timed', nodeNamePrefix: 'bsim-node'})
    ns = await newNamespace('bsim')
  }, 120_000)

  afterAll(async () => {
    await controllerManager.stop()
    await kwok?.stop()
    await scheduler?.stop()
    if (ns) await removeBatchNamespace(ns)
    for (const n of kwok?.nodes ?? []) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
  })

  /** Creation times (seconds) split into bursts at gaps of 2 s or more: the pods per burst. */
  const bursts = (times: number[]): number[] => {
    const out: number[] = []
    let last: number | undefined
    for (const t of [...times].sort((a, b) => a - b)) {
      if (last === undefined || t - last >= 2) out.push(1)
      else out[out.length - 1]++
      last = t
    }
    return out
  }

  it('the Jobs a CronJob starts and deletes, a Job\'s pods per wave and every final status are the simulation\'s', async () => {
    // Between 5 and 25 s into a minute: this minute's run and the next one's are both well inside the window.
    const into = Date.now() % 60_000
    if (into < 5_000 || into > 25_000) await new Promise((r) => setTimeout(r, (65_000 - into) % 60_000))
    const minute = Math.floor(Date.now() / 60_000)
    await apiOk('POST', `${BATCH(ns)}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: 'work'}, spec: {completions: 3, parallelism: 2, template}}})
    await apiOk('POST', `${BATCH(ns)}/cronjobs`, {
      body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name: 'tick'}, spec: {schedule: '* * * * *', successfulJobsHistoryLimit: 1, jobTemplate: {spec: {template}}}},
    })
    // Its last run two minutes ago: this minute's is due at once.
    await apiOk('PATCH', `${BATCH(ns)}/cronjobs/tick/status`, {contentType: 'application/merge-patch+json', body: {status: {lastScheduleTime: new Date((minute - 2) * 60_000).toISOString().replace('.000Z', 'Z')}}})

    const until = Math.ceil(((minute + 1) * 60_000 - Date.now()) / 1000) + 20
    const run = await kctl(['simulate', '-n', ns, '-o', 'json', '--ready-after', '2s', '--until', `${until}s`])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const sim = JSON.parse(run.stdout)
    const simCron = sim.cronJobs.find((c: Json) => c.name === 'tick')
    const simWork = sim.jobs.find((j: Json) => j.name === 'work')
    expect(simCron.runs.map((r: Json) => r.job)).toEqual([`tick-${minute}`, `tick-${minute + 1}`])
    expect(simCron.deleted.map((d: Json) => [d.job, d.reason])).toEqual([[`tick-${minute}`, 'history-limit']])
    expect(simWork.waves.map((w: Json) => w.created)).toEqual([2, 1])

    // The same for real, recorded until the next minute's Job has completed and the older one is gone.
    const created = new Map<string, {owner: string; at: number}>()
    const jobsSeen = new Set<string>()
    await controllerManager.start(['job', 'cronjob'])
    await waitUntil(
      async () => {
        for (const p of (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items as Json[]) {
          created.set(p.metadata.uid, {owner: p.metadata.ownerReferences?.[0]?.name, at: Date.parse(p.metadata.creationTimestamp) / 1000})
        }
        const jobs = (await apiOk('GET', `${BATCH(ns)}/jobs`)).items as Json[]
        for (const j of jobs) jobsSeen.add(j.metadata.name)
        const complete = (name: string) => jobs.find((j) => j.metadata.name === name)?.status?.conditions?.some((c: Json) => c.type === 'Complete' && c.status === 'True')
        return complete('work') && complete(`tick-${minute + 1}`) && !jobs.some((j) => j.metadata.name === `tick-${minute}`) ? true : undefined
      },
      {what: 'the Job to complete and the CronJob to run twice', timeoutMs: 120_000, intervalMs: 250},
    )
    await new Promise((r) => setTimeout(r, 2000))

    expect([...jobsSeen].filter((n) => n.startsWith('tick-')).sort()).toEqual(simCron.runs.map((r: Json) => r.job))
    const remaining = (await apiOk('GET', `${BATCH(ns)}/jobs`)).items.map((j: Json) => j.metadata.name).sort()
    const simRemaining = ['work', ...simCron.runs.map((r: Json) => r.job).filter((n: string) => !simCron.deleted.some((d: Json) => d.job === n))].sort()
    expect(remaining).toEqual(simRemaining)
    const workPods = [...created.values()].filter((p) => p.owner === 'work').map((p) => p.at)
    expect(bursts(workPods)).toEqual(simWork.waves.map((w: Json) => w.created))
    for (const j of [...sim.jobs.filter((x: Json) => remaining.includes(x.name))] as Json[]) {
      const real = await getJob(ns, j.name)
      expect({name: j.name, succeeded: real.status.succeeded ?? 0, failed: real.status.failed ?? 0, active: real.status.active ?? 0, conditions: conditionsOf(real)}).toEqual({
        name: j.name,
        succeeded: j.final.succeeded,
        failed: j.final.failed,
        active: j.final.active,
        conditions: j.final.conditions.filter((c: Json) => c.status === 'True').map((c: Json) => `${c.type}:${c.reason}`),
      })
    }
    const cron = await apiOk('GET', `${BATCH(ns)}/cronjobs/tick`)
    expect((cron.status.active ?? []).map((r: Json) => r.name)).toEqual(simCron.final.active)
    expect(cron.status.lastScheduleTime).toBe(simCron.final.lastScheduleTime)
  }, 240_000)
})
