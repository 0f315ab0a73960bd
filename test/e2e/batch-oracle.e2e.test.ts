// Jobs and CronJobs against the real job and cronjob controllers: kctl plans a sync from the live
// objects, then kube-controller-manager runs it, and what it did — pods created (by generateName,
// labels, annotations, finalizers), finalizers removed, status and conditions, Jobs created and
// deleted by name — must be what the plan said. Pod phases and exit codes are written by hand
// (there is no kubelet on the shared control plane), as a kubelet would report them.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, deleteNamespace, newNamespace, waitUntil} from './setup/cluster.js'

type Json = Record<string, any>

const NOW = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')
const TRACKING = 'batch.kubernetes.io/job-tracking'

let ns: string

async function createJob(name: string, spec: Json): Promise<Json> {
  return apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
    body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name}, spec: {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}, ...spec}},
  })
}

const getJob = (name: string) => apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${name}`)
const podsOf = async (uid: string): Promise<Json[]> =>
  (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items.filter((p: Json) => p.metadata.ownerReferences?.[0]?.uid === uid)

/** A kubelet's report of a finished container: phase, and `main` terminated with `exitCode`. */
async function finishPod(pod: Json, exitCode: number, agoSeconds = 0): Promise<void> {
  const at = new Date(Date.now() - agoSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
  await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{type: 'Ready', status: 'False', lastTransitionTime: at}],
        containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode, startedAt: at, finishedAt: at}}}],
      },
    },
  })
}

async function runningPod(pod: Json): Promise<void> {
  const at = NOW()
  await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: at}], containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: true, restartCount: 0, state: {running: {startedAt: at}}}]}},
  })
}

/**
 * The plan and the controller must see the same due time: a schedule of every minute moves on at
 * each minute, so a scenario starts only with at least 15 s left in the current minute.
 */
async function awayFromMinuteEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 500))
}

function planOf(plan: Json, kind: string, name: string): Json {
  const cp = plan.controllers.find((c: Json) => c.kind === kind && c.name === name)
  expect(cp, `${kind} ${name} is planned`).toBeDefined()
  return cp
}

/** The status fields a Job sync decides (times are the controller's clock, compared as present or absent). */
function decided(s: Json): Json {
  return {
    active: s.active ?? 0,
    ready: s.ready,
    terminating: s.terminating,
    succeeded: s.succeeded ?? 0,
    failed: s.failed ?? 0,
    completedIndexes: s.completedIndexes,
    failedIndexes: s.failedIndexes,
    uncounted: [...(s.uncountedTerminatedPods?.succeeded ?? []), ...(s.uncountedTerminatedPods?.failed ?? [])].length,
    conditions: (s.conditions ?? []).map((c: Json) => `${c.type}=${c.status}:${c.reason}:${c.message}`),
    startTime: s.startTime !== undefined,
    completionTime: s.completionTime !== undefined,
  }
}

/** Runs the job controller until the Job's status is the planned one (or times out), then stops it. */
async function runJobController(name: string, want: Json): Promise<Json> {
  await controllerManager.start(['job'])
  try {
    return await waitUntil(async () => {
      const j = await getJob(name)
      return JSON.stringify(decided(j.status ?? {})) === JSON.stringify(want) ? j : undefined
    }, {what: `Job ${name} to reach ${JSON.stringify(want)}`, timeoutMs: 30_000})
  } catch (error) {
    const j = await getJob(name)
    expect(decided(j.status ?? {}), `Job ${name}: the controller's status`).toEqual(want)
    throw error
  } finally {
    await controllerManager.stop()
  }
}

beforeAll(async () => {
  await controllerManager.stop()
  ns = await newNamespace('batch')
})

afterAll(async () => {
  await controllerManager.stop()
  // Background: without it the API server puts the orphan finalizer on Jobs, and no garbage collector runs here.
  await api('DELETE', `/apis/batch/v1/namespaces/${ns}/cronjobs?propagationPolicy=Background`).catch(() => {})
  await api('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs?propagationPolicy=Background`).catch(() => {})
  // Pods keep the tracking finalizer with no controller running: strip it so they can go.
  for (const p of (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items) {
    await api('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
  }
  await deleteNamespace(ns).catch(() => {})
})

describe('Jobs: the plan is what the job controller does', () => {
  it('S1/S2: a new NonIndexed and a new Indexed Job — the pods created, their names, labels, annotations and finalizer, and the status', async () => {
    const plain = await createJob('plain', {parallelism: 2, completions: 3})
    const indexed = await createJob('idx', {parallelism: 2, completions: 3, completionMode: 'Indexed'})
    const plan = await planJson(['-n', ns, '--now', NOW()])
    for (const job of [plain, indexed]) {
      const cp = planOf(plan, 'Job', job.metadata.name)
      const creates = cp.actions.filter((a: Json) => a.type === 'createJobPod')
      const w1 = cp.actions.find((a: Json) => a.type === 'updateStatus' && a.write === 1).to
      await runJobController(job.metadata.name, decided(w1))
      const pods = await podsOf(job.metadata.uid)
      expect(pods).toHaveLength(creates.length)
      const shape = (generateName: string, labels: Json, annotations: Json, finalizers: string[], hostname?: string) => JSON.stringify({generateName, labels, annotations, finalizers, hostname})
      expect(pods.map((p) => shape(p.metadata.generateName, p.metadata.labels, p.metadata.annotations ?? {}, p.metadata.finalizers, p.spec.hostname)).sort()).toEqual(
        creates.map((a: Json) => shape(a.generateName, a.labels, a.annotations, a.finalizers, a.hostname)).sort(),
      )
      for (const p of pods) expect(p.metadata.ownerReferences).toEqual([{...creates[0].ownerReference}])
    }
  }, 90_000)

  it('S3/L1: a succeeded index is counted (completedIndexes), its finalizer removed, and the next index created', async () => {
    const job = await getJob('idx')
    const zero = (await podsOf(job.metadata.uid)).find((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'] === '0')!
    await finishPod(zero, 0)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'idx')
    expect(cp.actions.map((a: Json) => a.type)).toEqual(['createJobPod', 'updateStatus', 'removeFinalizer'])
    const last = cp.actions.filter((a: Json) => a.type === 'updateStatus').at(-1).to
    await runJobController('idx', decided(last))
    const pods = await podsOf(job.metadata.uid)
    expect(pods.find((p) => p.metadata.name === zero.metadata.name)!.metadata.finalizers ?? []).not.toContain(TRACKING)
    expect(pods.map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']).sort()).toEqual(['0', '1', '2'])
  }, 60_000)

  it('S5: backoffLimit 0 — FailureTarget then Failed (BackoffLimitExceeded) in one sync, the pod counted and its finalizer removed', async () => {
    const job = await createJob('fail0', {backoffLimit: 0})
    await runJobController('fail0', decided({active: 1, ready: 0, terminating: 0, startTime: 'x', uncountedTerminatedPods: {}}))
    const [pod] = await podsOf(job.metadata.uid)
    await finishPod(pod, 3)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'fail0')
    expect(cp.actions.map((a: Json) => a.type)).toEqual(['updateStatus', 'removeFinalizer', 'updateStatus'])
    const last = cp.actions.at(-1).to
    expect(last.conditions.map((c: Json) => `${c.type}:${c.reason}`)).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
    await runJobController('fail0', decided(last))
    expect((await podsOf(job.metadata.uid))[0].metadata.finalizers ?? []).not.toContain(TRACKING)
  }, 60_000)

  it('S9: a podFailurePolicy FailJob exit code fails the Job with the rule in the message; the other pod is deleted and counted', async () => {
    const job = await createJob('pfp', {parallelism: 2, completions: 2, podFailurePolicy: {rules: [{action: 'FailJob', onExitCodes: {operator: 'In', values: [42]}}]}})
    await runJobController('pfp', decided({active: 2, ready: 0, terminating: 0, startTime: 'x', uncountedTerminatedPods: {}}))
    const [a, b] = await podsOf(job.metadata.uid)
    await finishPod(a, 42)
    await runningPod(b)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'pfp')
    expect(cp.actions.filter((x: Json) => x.type === 'deleteJobPod').map((x: Json) => x.pod)).toEqual([b.metadata.name])
    const last = cp.actions.filter((x: Json) => x.type === 'updateStatus').at(-1).to
    expect(last.conditions[0].message).toBe(`Container main for pod ${ns}/${a.metadata.name} failed with exit code 42 matching FailJob rule at index 0`)
    await runJobController('pfp', decided(last))
  }, 60_000)

  it('S7: suspending a running Job deletes its pods (finalizers first), clears startTime and adds Suspended', async () => {
    const job = await createJob('susp', {parallelism: 2, completions: 4})
    await runJobController('susp', decided({active: 2, ready: 0, terminating: 0, startTime: 'x', uncountedTerminatedPods: {}}))
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/susp`, {contentType: 'application/merge-patch+json', body: {spec: {suspend: true}}})
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'susp')
    expect(cp.actions.filter((x: Json) => x.type === 'deleteJobPod').length).toBe(2)
    const w1 = cp.actions.find((x: Json) => x.type === 'updateStatus').to
    expect(w1.startTime).toBeUndefined()
    // The API server removes unbound pods at once, so terminating drops back to 0 in the next sync.
    await runJobController('susp', {...decided(w1), terminating: 0})
    expect(await podsOf(job.metadata.uid)).toEqual([])
  }, 60_000)

  it('S23/S22: created suspended, then resumed — Suspended=False (JobResumed), startTime set, pods created', async () => {
    await createJob('later', {suspend: true, parallelism: 1, completions: 1})
    const first = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'later')
    await runJobController('later', decided(first.actions.find((x: Json) => x.type === 'updateStatus').to))
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/later`, {contentType: 'application/merge-patch+json', body: {spec: {suspend: false}}})
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'later')
    const w1 = cp.actions.find((x: Json) => x.type === 'updateStatus').to
    expect(w1.conditions.map((c: Json) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['Suspended=False:JobResumed'])
    await runJobController('later', decided(w1))
  }, 60_000)
})

describe('Jobs: more of the controller\'s rules', () => {
  const idxJob = (name: string, extra: Json) => createJob(name, {completionMode: 'Indexed', ...extra})
  const indexOf = (p: Json) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']
  const started = async (name: string, active: number) => runJobController(name, decided({active, ready: 0, terminating: 0, startTime: 'x', uncountedTerminatedPods: {}, ...(name.startsWith('blpi') ? {failedIndexes: ''} : {})}))

  it('S21: completions unset — one pod succeeded: nothing new starts, the others run on, not complete', async () => {
    const job = await createJob('queue', {parallelism: 3})
    await started('queue', 3)
    await finishPod((await podsOf(job.metadata.uid))[0], 0)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'queue')
    expect(cp.actions.filter((a: Json) => a.type === 'createJobPod' || a.type === 'deleteJobPod')).toEqual([])
    await runJobController('queue', decided(cp.actions.at(-1).to))
    expect(await podsOf(job.metadata.uid)).toHaveLength(3)
  }, 60_000)

  it('S11b: a failure older than its backoff is counted and replaced in the same sync', async () => {
    const job = await createJob('retry', {})
    await started('retry', 1)
    const [first] = await podsOf(job.metadata.uid)
    await finishPod(first, 1, 30)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'retry')
    expect(cp.actions.map((a: Json) => a.type)).toEqual(['createJobPod', 'updateStatus', 'removeFinalizer', 'updateStatus'])
    expect(cp.requeue).toBeUndefined()
    await runJobController('retry', decided(cp.actions.at(-1).to))
    expect((await podsOf(job.metadata.uid)).map((p) => p.metadata.generateName)).toEqual(['retry-', 'retry-'])
  }, 60_000)

  it('S12: backoffLimitPerIndex — the failed index is recreated with failure-count 1 once its backoff is over, the failed pod kept uncounted meanwhile', async () => {
    const job = await idxJob('blpi', {completions: 2, parallelism: 2, backoffLimitPerIndex: 1})
    await started('blpi', 2)
    const failed = (await podsOf(job.metadata.uid)).find((p) => indexOf(p) === '0')!
    await finishPod(failed, 1, 30)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'blpi')
    const create = cp.actions.find((a: Json) => a.type === 'createJobPod')
    expect(create).toMatchObject({index: 0, annotations: {'batch.kubernetes.io/job-index-failure-count': '1'}})
    expect(cp.actions.some((a: Json) => a.type === 'removeFinalizer')).toBe(false)
    // active stays 2 (one running, one created): the plan writes no status. The controller is run
    // until the replacement exists.
    expect(cp.actions.some((a: Json) => a.type === 'updateStatus')).toBe(false)
    await controllerManager.start(['job'])
    let replacement: Json
    try {
      replacement = await waitUntil(async () => (await podsOf(job.metadata.uid)).find((p) => indexOf(p) === '0' && p.metadata.name !== failed.metadata.name), {what: 'the replacement of index 0'})
    } finally {
      await controllerManager.stop()
    }
    expect(replacement.metadata.generateName).toBe(create.generateName)
    expect(replacement.metadata.annotations).toEqual(create.annotations)
  }, 60_000)

  it('S14: a successPolicy match deletes the other pods uncounted, SuccessCriteriaMet then Complete with the rule', async () => {
    const job = await idxJob('sp', {completions: 3, parallelism: 3, successPolicy: {rules: [{succeededIndexes: '0'}]}})
    await started('sp', 3)
    const pods = await podsOf(job.metadata.uid)
    await finishPod(pods.find((p) => indexOf(p) === '0')!, 0)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'sp')
    expect(cp.actions.filter((a: Json) => a.type === 'deleteJobPod').map((a: Json) => a.pod).sort()).toEqual(pods.filter((p) => indexOf(p) !== '0').map((p) => p.metadata.name).sort())
    const w1 = cp.actions.find((a: Json) => a.type === 'updateStatus').to
    // The deleted pods are unbound, so the API server removes them once their finalizers go: the next sync completes the Job.
    const final = {...decided(w1), terminating: 0, conditions: [...decided(w1).conditions, decided(w1).conditions[0].replace('SuccessCriteriaMet', 'Complete')], completionTime: true}
    await runJobController('sp', final)
  }, 60_000)

  it('S13: more failed indexes than maxFailedIndexes fails the Job; the running pods are deleted and counted', async () => {
    const job = await idxJob('mfi', {completions: 3, parallelism: 3, backoffLimitPerIndex: 0, maxFailedIndexes: 0})
    await runJobController('mfi', decided({active: 3, ready: 0, terminating: 0, startTime: 'x', uncountedTerminatedPods: {}, failedIndexes: ''}))
    const pods = await podsOf(job.metadata.uid)
    await finishPod(pods.find((p) => indexOf(p) === '1')!, 1)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'Job', 'mfi')
    expect(cp.actions.filter((a: Json) => a.type === 'deleteJobPod')).toHaveLength(2)
    const w2 = cp.actions.filter((a: Json) => a.type === 'updateStatus').at(-1).to
    expect(decided(w2)).toMatchObject({failed: 3, failedIndexes: '1', conditions: ['FailureTarget=True:MaxFailedIndexesExceeded:Job has exceeded the specified maximal number of failed indexes']})
    await runJobController('mfi', {...decided(w2), terminating: 0, conditions: [...decided(w2).conditions, decided(w2).conditions[0].replace('FailureTarget', 'Failed')]})
  }, 60_000)
})

describe('CronJobs: the plan is what the cronjob controller does', () => {
  it('C1/C6: the Job due is created by its name; Replace deletes the running one', async () => {
    await awayFromMinuteEdge()
    const cj = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: {name: 'every'},
        spec: {schedule: '* * * * *', concurrencyPolicy: 'Replace', jobTemplate: {spec: {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}}}},
      },
    })
    // An earlier run two minutes ago is recorded, so a run is due now whatever the second.
    const earlier = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 120_000)
    const oldName = `every-${earlier.getTime() / 60_000}`
    const old = await createJob(oldName, {})
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/${oldName}`, {
      contentType: 'application/merge-patch+json',
      body: {metadata: {ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'every', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true}]}},
    })
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/every/status`, {
      contentType: 'application/merge-patch+json',
      body: {status: {lastScheduleTime: earlier.toISOString().replace('.000Z', 'Z'), active: [{apiVersion: 'batch/v1', kind: 'Job', name: oldName, namespace: ns, uid: old.metadata.uid}]}},
    })
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'CronJob', 'every')
    const created = cp.actions.find((a: Json) => a.type === 'createJob')
    expect(cp.actions.filter((a: Json) => a.type === 'deleteJob').map((a: Json) => a.name)).toEqual([oldName])
    await controllerManager.start(['cronjob'])
    try {
      const job = await waitUntil(async () => (await api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${created.name}`)).status === 200, {what: `Job ${created.name}`})
      expect(job).toBe(true)
      const made = await getJob(created.name)
      expect(made.metadata.annotations).toEqual(created.annotations)
      await waitUntil(async () => (await api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${oldName}`)).status === 404 || (await getJob(oldName)).metadata.deletionTimestamp, {what: `Job ${oldName} deleted`})
      const status = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/every`)).status
      expect(status.lastScheduleTime).toBe(cp.scheduledTime)
      expect(status.active.map((r: Json) => r.name)).toEqual([created.name])
    } finally {
      await controllerManager.stop()
    }
  }, 90_000)

  /** A CronJob with a run recorded two minutes ago (so one is due now) and, optionally, that run's Job still active. */
  async function cronWithRun(name: string, spec: Json, listed: boolean): Promise<{cj: Json; oldName: string}> {
    await awayFromMinuteEdge()
    const cj = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {
      body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name}, spec: {schedule: '* * * * *', jobTemplate: {spec: {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}}}, ...spec}},
    })
    const earlier = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 120_000)
    const oldName = `${name}-${earlier.getTime() / 60_000}`
    const old = await createJob(oldName, {})
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/${oldName}`, {
      contentType: 'application/merge-patch+json',
      body: {metadata: {ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name, uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true}]}},
    })
    const active = listed ? [{apiVersion: 'batch/v1', kind: 'Job', name: oldName, namespace: ns, uid: old.metadata.uid}] : []
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/${name}/status`, {contentType: 'application/merge-patch+json', body: {status: {lastScheduleTime: earlier.toISOString().replace('.000Z', 'Z'), active}}})
    return {cj, oldName}
  }

  /** Runs the cronjob controller until it records `reason` for the CronJob, then stops it. */
  async function runUntilEvent(name: string, reason: string): Promise<void> {
    await controllerManager.start(['cronjob'])
    try {
      await waitUntil(async () => (await apiOk('GET', `/api/v1/namespaces/${ns}/events`)).items.some((e: Json) => e.involvedObject.name === name && e.reason === reason), {what: `event ${reason} for ${name}`})
    } finally {
      await controllerManager.stop()
    }
  }

  const jobNames = async () => (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).items.map((j: Json) => j.metadata.name).sort()

  it('C5: Forbid with the last run still active — no Job, no status write (JobAlreadyActive)', async () => {
    const {oldName} = await cronWithRun('forbid', {concurrencyPolicy: 'Forbid'}, true)
    const before = await jobNames()
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'CronJob', 'forbid')
    expect(cp.actions).toEqual([])
    expect(cp.events.join(' ')).toMatch(/JobAlreadyActive/)
    const statusBefore = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/forbid`)).status
    await runUntilEvent('forbid', 'JobAlreadyActive')
    expect(await jobNames()).toEqual(before)
    expect((await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/forbid`)).status).toEqual(statusBefore)
    expect(before).toContain(oldName)
  }, 60_000)

  it('C14: an unfinished child missing from status.active is not taken in (UnexpectedJob); the due run is still created', async () => {
    const {oldName} = await cronWithRun('stray', {}, false)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'CronJob', 'stray')
    expect(cp.warnings.join(' ')).toMatch(new RegExp(`Job ${oldName} .*UnexpectedJob`))
    const created = cp.actions.find((a: Json) => a.type === 'createJob')
    await runUntilEvent('stray', 'UnexpectedJob')
    await controllerManager.start(['cronjob'])
    try {
      await waitUntil(async () => (await api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${created.name}`)).status === 200, {what: `Job ${created.name}`})
    } finally {
      await controllerManager.stop()
    }
    const status = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/stray`)).status
    expect(status.active.map((r: Json) => r.name)).toEqual([created.name])
  }, 60_000)

  it('C10: an active Job that is gone leaves status.active (MissingJob)', async () => {
    const {oldName} = await cronWithRun('gone', {}, true)
    // Background: no orphan finalizer (no garbage collector runs here), so the Job is gone at once.
    await apiOk('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs/${oldName}?propagationPolicy=Background`)
    expect((await api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${oldName}`)).status).toBe(404)
    const cp = planOf(await planJson(['-n', ns, '--now', NOW()]), 'CronJob', 'gone')
    expect(cp.events.join(' ')).toMatch(new RegExp(`MissingJob: Active job went missing: ${oldName}`))
    const created = cp.actions.find((a: Json) => a.type === 'createJob')
    await runUntilEvent('gone', 'MissingJob')
    await controllerManager.start(['cronjob'])
    try {
      await waitUntil(async () => (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/gone`)).status.active?.some((r: Json) => r.name === created.name), {what: `${created.name} in status.active`})
    } finally {
      await controllerManager.stop()
    }
    expect((await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/gone`)).status.active.map((r: Json) => r.name)).toEqual([created.name])
  }, 60_000)
})
