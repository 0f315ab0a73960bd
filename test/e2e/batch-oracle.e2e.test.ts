// Jobs and CronJobs against the real job, cronjob and ttl-after-finished controllers: kctl plans a
// sync from the live objects, then kube-controller-manager runs it, and what it did — pods created
// (by generateName, labels, annotations, finalizers), deleted, adopted and released, finalizers
// removed, every status write with its conditions, Jobs created and deleted by name — must be what
// the plan said. Most Jobs run their pods on a fake node where kwok plays the kubelet; the others'
// pods stay unbound and their phases are written by hand, as a kubelet reports them. The scenarios
// of each controller are set up together and synced by one run of it, so the file stays short.
import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {startKwok, type Kwok} from '../../controlplane/fake-nodes.js'
import {planJson} from './kctl.js'
import {exact, observeSyncs, plannedSync, sortedSync, type SyncSeen} from './job-syncs.js'
import {api, apiOk, controllerManager, controlPlane, deleteNamespace, finishJobPod, newNamespace, waitUntil} from './setup/cluster.js'

type Json = Record<string, any>

const NOW = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')
const TRACKING = 'batch.kubernetes.io/job-tracking'

let ns: string
let kwok: Kwok | undefined
/** The fake node kwok plays the kubelet of (the `timed` stages): Job pods bound to it run, end and go as a kubelet's would. */
const NODE = 'batch-node-0'

async function createJob(name: string, spec: Json): Promise<Json> {
  return apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
    body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name}, spec: {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}, ...spec}},
  })
}

const getJob = (name: string) => apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${name}`)
const podsOf = async (uid: string): Promise<Json[]> =>
  (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items.filter((p: Json) => p.metadata.ownerReferences?.[0]?.uid === uid)

const finishPod = (pod: Json, exitCode: number, agoSeconds = 0) => finishJobPod(ns, pod, exitCode, agoSeconds)

/** A kubelet's report of a running pod whose container `main` has restarted `restarts` times. */
async function runningPod(pod: Json, restarts = 0): Promise<void> {
  const at = NOW()
  await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: at}], containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: true, restartCount: restarts, state: {running: {startedAt: at}}}]}},
  })
}

function planOf(plan: Json, kind: string, name: string): Json {
  const cp = plan.controllers.find((c: Json) => c.kind === kind && c.name === name)
  expect(cp, `${kind} ${name} is planned`).toBeDefined()
  return cp
}

beforeAll(async () => {
  await controllerManager.stop()
  ns = await newNamespace('batch')
  kwok = await startKwok({info: controlPlane(), nodes: 1, stages: 'timed', nodeNamePrefix: 'batch-node'})
}, 120_000)

afterAll(async () => {
  await controllerManager.stop()
  await kwok?.stop()
  // The fake node goes too: the files after this one share the control plane and count its Nodes.
  for (const n of kwok?.nodes ?? []) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
  // Background: without it the API server puts the orphan finalizer on Jobs, and no garbage collector runs here.
  await api('DELETE', `/apis/batch/v1/namespaces/${ns}/cronjobs?propagationPolicy=Background`).catch(() => {})
  await api('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs?propagationPolicy=Background`).catch(() => {})
  // A Job deleted Foreground keeps foregroundDeletion (no garbage collector runs here): strip it.
  for (const j of (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).items) {
    await api('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/${j.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
  }
  // Pods keep the tracking finalizer with no controller running: strip it so they can go.
  for (const p of (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items) {
    await api('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}).catch(() => {})
  }
  await deleteNamespace(ns).catch(() => {})
})

// ---- Many Jobs, one sync each, write by write ---------------------------------------------------
//
// The Jobs below are all set up first — their pods run on kwok's fake node, and a test says how
// one ends by setting the `timed` stage annotations on it, as a workload's own exit would — then
// planned once, and one run of the job controller syncs them all while the namespace is watched.
// Each scenario cuts what the controller did to its Job at the Job's last planned status write
// and compares it with the plan: the writes (each whole: counts, indexes, uncounted UIDs,
// conditions with reasons and messages), the pods created (by generateName, labels, annotations,
// finalizers, hostname and owner: their names are random), deleted, adopted and released (by name),
// and the finalizers removed (by name).

const isReady = (p: Json) => Boolean(p.status?.conditions?.some((c: Json) => c.type === 'Ready' && c.status === 'True'))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))

/** A Job whose pods run on the fake node until a test ends them (exitPod); `extra` adds to the spec. */
function kubeletJob(name: string, extra: Json = {}, podAnnotations: Json = {}): Promise<Json> {
  const template = {
    metadata: {annotations: {'stage.kctl.io/complete-after': '1h', ...podAnnotations}},
    spec: {nodeName: NODE, restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]},
  }
  return createJob(name, {
    ...extra,
    template: {metadata: {...extra.template?.metadata, annotations: template.metadata.annotations}, spec: {...template.spec, ...extra.template?.spec}},
  })
}

/**
 * Runs the job controller until every named Job is where asked — n pods Running and Ready on the
 * node; `{active: n}` pods created and left unbound; or a condition True — then stops it.
 */
async function runUntil(want: Record<string, number | {active: number} | 'Complete' | 'Suspended'>): Promise<void> {
  await controllerManager.start(['job'])
  try {
    await waitUntil(async () => {
      for (const [name, n] of Object.entries(want)) {
        const j = await getJob(name)
        if (typeof n === 'string') {
          if (!j.status?.conditions?.some((c: Json) => c.type === n && c.status === 'True')) return false
        } else if (typeof n === 'object') {
          if (j.status?.active !== n.active || (await podsOf(j.metadata.uid)).length !== n.active) return false
        } else if (j.status?.active !== n || j.status?.ready !== n || (await podsOf(j.metadata.uid)).filter(isReady).length !== n) return false
      }
      return true
    }, {what: `Jobs: ${JSON.stringify(want)}`, timeoutMs: 60_000})
  } finally {
    await controllerManager.stop()
  }
}

/** The pod's container exits with `code` now, as kwok reports it (phase, terminated state, finishedAt). */
async function exitPod(pod: Json, code: number): Promise<void> {
  await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`, {
    contentType: 'application/merge-patch+json',
    body: {metadata: {annotations: {'stage.kctl.io/complete-after': '0s', 'stage.kctl.io/exit-code': String(code)}}},
  })
  await waitUntil(async () => ['Succeeded', 'Failed'].includes((await apiOk('GET', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`)).status.phase), {what: `pod ${pod.metadata.name} to exit`})
}

describe('Jobs: one run of the job controller, the next sync of each Job', () => {
  const indexOf = (p: Json) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']
  const podsNow = async (name: string) => podsOf((await getJob(name)).metadata.uid)
  const ON_NODE = ['once', 'soon', 'over', 'ignore', 'failidx', 'term', 'termf', 'deadline', 'shrink', 'dup', 'adopter', 'releaser']
  const BY_HAND = ['plain', 'idx', 'idx3', 'fail0', 'pfp', 'susp', 'later', 'resumed', 'queue', 'retry', 'blpi', 'sp', 'mfi', 'restarts']
  const plans = new Map<string, Json>()
  let seen: Map<string, SyncSeen>
  let shrinkFirst: string
  let releasedPod: string
  let pfpFailed: string

  beforeAll(async () => {
    // 1. Every Job's pods running on the node (the deadline's Job with room to get there first).
    await kubeletJob('once')
    await kubeletJob('soon', {backoffLimit: 3})
    await kubeletJob('over', {backoffLimit: 1, parallelism: 3, completions: 4})
    await kubeletJob('ignore', {podFailurePolicy: {rules: [{action: 'Ignore', onExitCodes: {operator: 'In', values: [42]}}]}})
    await kubeletJob('failidx', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 3, podFailurePolicy: {rules: [{action: 'FailIndex', onExitCodes: {operator: 'In', values: [3]}}]}})
    // delete-after keeps a deleted pod terminating, as a kubelet does during the grace period.
    await kubeletJob('term', {backoffLimit: 3}, {'stage.kctl.io/delete-after': '1h'})
    await kubeletJob('termf', {podReplacementPolicy: 'Failed'}, {'stage.kctl.io/delete-after': '1h'})
    await kubeletJob('deadline', {activeDeadlineSeconds: 25, parallelism: 2, completions: 2}, {'stage.kctl.io/delete-after': '1h'})
    await kubeletJob('shrink', {parallelism: 1})
    await kubeletJob('dup', {completionMode: 'Indexed', completions: 2, parallelism: 2})
    await kubeletJob('releaser', {manualSelector: true, selector: {matchLabels: {app: 'keep-me'}}, template: {metadata: {labels: {app: 'keep-me'}}}})
    // Jobs whose pods stay unbound, their states written by hand as a kubelet would report them.
    await createJob('idx3', {parallelism: 2, completions: 3, completionMode: 'Indexed'})
    await createJob('fail0', {backoffLimit: 0})
    await createJob('pfp', {parallelism: 2, completions: 2, podFailurePolicy: {rules: [{action: 'FailJob', onExitCodes: {operator: 'In', values: [42]}}]}})
    await createJob('susp', {parallelism: 2, completions: 4})
    await createJob('resumed', {suspend: true, parallelism: 1, completions: 1})
    await createJob('queue', {parallelism: 3})
    await createJob('retry', {})
    await createJob('blpi', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 1})
    await createJob('sp', {completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: {rules: [{succeededIndexes: '0'}]}})
    await createJob('mfi', {completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 0, maxFailedIndexes: 0})
    await createJob('restarts', {backoffLimit: 3, template: {spec: {restartPolicy: 'OnFailure', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}})
    await runUntil({once: 1, soon: 1, over: 3, ignore: 1, failidx: 2, term: 1, termf: 1, deadline: 2, shrink: 1, dup: 2, releaser: 1, idx3: {active: 2}, fail0: {active: 1}, pfp: {active: 2}, susp: {active: 2}, resumed: 'Suspended', queue: {active: 3}, retry: {active: 1}, blpi: {active: 2}, sp: {active: 3}, mfi: {active: 3}, restarts: {active: 1}})
    shrinkFirst = (await podsNow('shrink'))[0].metadata.name

    // 2. Two more pods for `shrink`, ready at least a second after its first (ready times have whole seconds).
    await sleep(1100)
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/shrink`, {contentType: 'application/merge-patch+json', body: {spec: {parallelism: 3}}})
    await runUntil({shrink: 3})

    // 3. With no controller running, the world each scenario starts from.
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/shrink`, {contentType: 'application/merge-patch+json', body: {spec: {parallelism: 1}}})
    const zero = (await podsNow('dup')).find((p) => indexOf(p) === '0')!
    // The same index created twice, as a lost create's retry would: same labels, annotations, owner.
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'dup-0-second', labels: zero.metadata.labels, annotations: zero.metadata.annotations, finalizers: [TRACKING], ownerReferences: zero.metadata.ownerReferences}, spec: zero.spec},
    })
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'stray', labels: {app: 'adopt-me'}, annotations: {'stage.kctl.io/complete-after': '1h'}}, spec: {nodeName: NODE, restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}},
    })
    await waitUntil(async () => isReady(await apiOk('GET', `/api/v1/namespaces/${ns}/pods/dup-0-second`)) && isReady(await apiOk('GET', `/api/v1/namespaces/${ns}/pods/stray`)), {what: 'the hand-made pods ready'})
    await kubeletJob('adopter', {manualSelector: true, selector: {matchLabels: {app: 'adopt-me'}}, parallelism: 2, completions: 2, template: {metadata: {labels: {app: 'adopt-me'}}}})
    releasedPod = (await podsNow('releaser'))[0].metadata.name
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${releasedPod}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {app: 'elsewhere'}}}})
    await exitPod((await podsNow('once'))[0], 0)
    const [a, b] = await podsNow('over')
    await exitPod(a, 1)
    await exitPod(b, 1)
    await exitPod((await podsNow('failidx')).find((p) => indexOf(p) === '1')!, 3)
    // S1, S2 and S23: new Jobs, planned before their first sync.
    await createJob('plain', {parallelism: 2, completions: 3})
    await createJob('idx', {parallelism: 2, completions: 3, completionMode: 'Indexed'})
    await createJob('later', {suspend: true, parallelism: 1, completions: 1})
    await finishPod((await podsNow('idx3')).find((p) => indexOf(p) === '0')!, 0)
    await finishPod((await podsNow('fail0'))[0], 3)
    const [failing, running] = await podsNow('pfp')
    pfpFailed = failing.metadata.name
    await finishPod(failing, 42)
    await runningPod(running)
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/susp`, {contentType: 'application/merge-patch+json', body: {spec: {suspend: true}}})
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/resumed`, {contentType: 'application/merge-patch+json', body: {spec: {suspend: false}}})
    await finishPod((await podsNow('queue'))[0], 0)
    await finishPod((await podsNow('retry'))[0], 1, 30)
    await finishPod((await podsNow('blpi')).find((p) => indexOf(p) === '0')!, 1, 30)
    await finishPod((await podsNow('sp')).find((p) => indexOf(p) === '0')!, 0)
    await finishPod((await podsNow('mfi')).find((p) => indexOf(p) === '1')!, 1)
    // restartPolicy OnFailure: the kubelet restarts the container in place; a kubelet-less node has no restarts to report.
    await runningPod((await podsNow('restarts'))[0], 3)
    const deadline = await getJob('deadline')
    await sleep(Date.parse(deadline.status.startTime) + 26_000 - Date.now())
    // Last, what a 10 s backoff times: the plan and the controller must both see it running.
    await exitPod((await podsNow('soon'))[0], 1)
    await exitPod((await podsNow('ignore'))[0], 42)
    for (const name of ['term', 'termf']) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${(await podsNow(name))[0].metadata.name}`)

    // 4. One plan, one run of the controller.
    const plan = await planJson(['-n', ns, '--now', NOW()])
    for (const name of [...ON_NODE, ...BY_HAND]) plans.set(name, planOf(plan, 'Job', name))
    seen = await observeSyncs(ns, [...plans.values()])
  }, 300_000)

  /** The controller's next sync of Job `name` was the plan's: writes in order and whole, pods as multisets. */
  function expectPlannedSync(name: string): Json {
    const cp = plans.get(name)!
    expect(sortedSync(seen.get(name)!), `Job ${name}: what the job controller did in its next sync`).toEqual(sortedSync(plannedSync(cp)))
    return cp
  }
  const types = (cp: Json) => cp.actions.map((a: Json) => a.type)
  const lastWrite = (cp: Json) => cp.actions.filter((a: Json) => a.type === 'updateStatus').at(-1).to

  describe('pods on the node, ended by kwok as a kubelet ends them', () => {
    it('S4: the only pod exits 0 — SuccessCriteriaMet then Complete (CompletionsReached) in one sync, two writes', () => {
      expect(types(expectPlannedSync('once'))).toEqual(['updateStatus', 'removeFinalizer', 'updateStatus'])
    })
    it('S11: a failure just now is counted, and its replacement waits for the 10 s backoff', () => {
      const cp = expectPlannedSync('soon')
      expect(types(cp)).not.toContain('createJobPod')
      expect(cp.requeue).toMatchObject({reason: 'backoff'})
    })
    it('S6: past backoffLimit with a pod still running — it is deleted with its finalizer, counted failed, and Failed waits for it', () => {
      expect(exact(lastWrite(expectPlannedSync('over')))).toMatchObject({failed: 3, terminating: 1, conditions: ['FailureTarget=True:BackoffLimitExceeded:Job has reached the specified backoff limit']})
    })
    it('S10: a podFailurePolicy Ignore rule — the failure is not counted, its finalizer goes, the replacement still waits for the backoff', () => {
      const cp = expectPlannedSync('ignore')
      expect(types(cp)).toEqual(['updateStatus', 'removeFinalizer'])
      expect(cp.actions[1].counts).toBe('none')
    })
    it('S24: a FailIndex rule fails its index at once: not recreated, failedIndexes written', () => {
      const cp = expectPlannedSync('failidx')
      expect(types(cp)).not.toContain('createJobPod')
      expect(lastWrite(cp)).toMatchObject({failedIndexes: '1', failed: 1})
    })
    it('S19: TerminatingOrFailed — a pod being deleted counts as failed at once; its replacement waits for the backoff', () => {
      expect(lastWrite(expectPlannedSync('term'))).toMatchObject({active: 0, terminating: 1, failed: 1})
    })
    it('S19b: podReplacementPolicy Failed — a pod being deleted is neither active nor failed, and nothing replaces it yet', () => {
      expect(types(expectPlannedSync('termf'))).toEqual(['updateStatus'])
    })
    it('S8: past activeDeadlineSeconds — the running pods are deleted and counted failed, DeadlineExceeded waits for them', () => {
      const cp = expectPlannedSync('deadline')
      expect(cp.actions.filter((a: Json) => a.type === 'deleteJobPod')).toHaveLength(2)
      expect(lastWrite(cp).conditions.map((c: Json) => c.reason)).toEqual(['DeadlineExceeded'])
    })
    it('S15: parallelism lowered — the pods ready most recently go first (ActivePods order), finalizer removed before the delete', () => {
      const deleted = expectPlannedSync('shrink').actions.filter((a: Json) => a.type === 'deleteJobPod')
      expect(deleted.map((a: Json) => a.reason)).toEqual(['excess', 'excess'])
      expect(deleted.map((a: Json) => a.pod)).not.toContain(shrinkFirst)
    })
    it('S16: a second pod of one index — the one ready more recently goes, and nothing is created in that sync', () => {
      expect(expectPlannedSync('dup').actions.filter((a: Json) => a.type === 'deleteJobPod').map((a: Json) => [a.pod, a.reason])).toEqual([['dup-0-second', 'duplicate-index']])
    })
    it('J3.8: with manualSelector, a matching orphan pod is adopted (owner reference and tracking finalizer) and counts toward parallelism', async () => {
      expect(types(expectPlannedSync('adopter'))).toEqual(['adopt', 'createJobPod', 'updateStatus'])
      expect((await apiOk('GET', `/api/v1/namespaces/${ns}/pods/stray`)).metadata.finalizers).toContain(TRACKING)
    })
    it('J3.8: a pod relabelled out of the selector is released (its tracking finalizer with it) and replaced', async () => {
      expect(types(expectPlannedSync('releaser'))).toEqual(['release', 'createJobPod', 'updateStatus'])
      const released = await apiOk('GET', `/api/v1/namespaces/${ns}/pods/${releasedPod}`)
      expect([released.metadata.ownerReferences ?? [], released.metadata.finalizers ?? []]).toEqual([[], []])
    })
  })

  describe('unbound pods, their phases written by hand', () => {
    it('S1: a new NonIndexed Job — parallelism pods by generateName with the tracking finalizer, startTime written', () => {
      expect(types(expectPlannedSync('plain'))).toEqual(['createJobPod', 'createJobPod', 'updateStatus'])
    })
    it('S2: a new Indexed Job — the lowest indexes, with the index label, annotation and hostname', () => {
      expect(expectPlannedSync('idx').actions.filter((a: Json) => a.type === 'createJobPod').map((a: Json) => a.hostname)).toEqual(['idx-0', 'idx-1'])
    })
    it('S3/L1: a succeeded index is counted (completedIndexes), its finalizer removed, and the next index created', () => {
      const cp = expectPlannedSync('idx3')
      expect(types(cp)).toEqual(['createJobPod', 'updateStatus', 'removeFinalizer'])
      expect(cp.actions[0].index).toBe(2)
    })
    it('S5: backoffLimit 0 — FailureTarget then Failed (BackoffLimitExceeded) in one sync, the pod counted', () => {
      expect(lastWrite(expectPlannedSync('fail0')).conditions.map((c: Json) => `${c.type}:${c.reason}`)).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
    })
    it('S9: a FailJob exit code fails the Job with the rule in the message; the other pod is deleted and counted', () => {
      const cp = expectPlannedSync('pfp')
      expect(lastWrite(cp).conditions[0].message).toBe(`Container main for pod ${ns}/${pfpFailed} failed with exit code 42 matching FailJob rule at index 0`)
    })
    it('S7: suspending a running Job deletes its pods (finalizers first), clears startTime and adds Suspended', () => {
      const cp = expectPlannedSync('susp')
      expect(types(cp)).toEqual(['removeFinalizer', 'deleteJobPod', 'removeFinalizer', 'deleteJobPod', 'updateStatus'])
      expect(lastWrite(cp).startTime).toBeUndefined()
    })
    it('S23: created suspended — Suspended=True (JobSuspended), no pods, no startTime', () => {
      expect(lastWrite(expectPlannedSync('later')).conditions.map((c: Json) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['Suspended=True:JobSuspended'])
    })
    it('S22: resumed — Suspended=False (JobResumed), startTime set, pods created', () => {
      const cp = expectPlannedSync('resumed')
      expect(lastWrite(cp).conditions.map((c: Json) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['Suspended=False:JobResumed'])
      expect(types(cp)).toContain('createJobPod')
    })
    it('S21: completions unset — one pod succeeded: nothing new starts, the others run on, not complete', () => {
      expect(types(expectPlannedSync('queue'))).toEqual(['updateStatus', 'removeFinalizer', 'updateStatus'])
    })
    it('S11b: a failure older than its backoff is counted and replaced in the same sync', () => {
      const cp = expectPlannedSync('retry')
      expect(types(cp)).toEqual(['createJobPod', 'updateStatus', 'removeFinalizer', 'updateStatus'])
      expect(cp.requeue).toBeUndefined()
    })
    it('S12: backoffLimitPerIndex — the failed index is recreated with failure-count 1, the failed pod kept uncounted', () => {
      const cp = expectPlannedSync('blpi')
      expect(cp.actions.find((a: Json) => a.type === 'createJobPod')).toMatchObject({index: 0, annotations: {'batch.kubernetes.io/job-index-failure-count': '1'}})
      expect(types(cp)).not.toContain('removeFinalizer')
    })
    it('S14: a successPolicy match deletes the other pods uncounted — SuccessCriteriaMet (SuccessPolicy)', () => {
      const cp = expectPlannedSync('sp')
      expect(cp.actions.filter((a: Json) => a.type === 'deleteJobPod')).toHaveLength(2)
      expect(lastWrite(cp).conditions.map((c: Json) => c.reason)).toEqual(['SuccessPolicy'])
    })
    it('S20: restartPolicy OnFailure — restarts reaching backoffLimit fail the Job; the pod is deleted and counted', () => {
      const cp = expectPlannedSync('restarts')
      expect(types(cp)).toEqual(['deleteJobPod', 'updateStatus', 'removeFinalizer', 'updateStatus'])
      expect(exact(lastWrite(cp))).toMatchObject({failed: 1, terminating: 1, conditions: ['FailureTarget=True:BackoffLimitExceeded:Job has reached the specified backoff limit']})
    })
    it('S13: more failed indexes than maxFailedIndexes fails the Job; the running pods are deleted and counted', () => {
      const cp = expectPlannedSync('mfi')
      expect(cp.actions.filter((a: Json) => a.type === 'deleteJobPod')).toHaveLength(2)
      expect(exact(lastWrite(cp))).toMatchObject({failed: 3, failedIndexes: '1', conditions: ['FailureTarget=True:MaxFailedIndexesExceeded:Job has exceeded the specified maximal number of failed indexes']})
    })
  })
})

// ---- Hand-made worlds: where random Job worlds found kctl and the controller apart --------------
//
// Each Job's pods are written by hand with no controller running — owned by it, with or without the
// tracking finalizer, in the phase a kubelet would report — and its status where the world needs
// one; then one plan and one run of the job controller, compared as above.

describe('Jobs: the first sync of hand-made worlds', () => {
  const plans = new Map<string, Json>()
  let seen: Map<string, SyncSeen>

  /** A pod of Job `j` made by hand: unbound, with the Job's labels and owner reference, in `o.phase`. */
  async function handPod(j: Json, name: string, o: {index?: number; failureCount?: number; finalizers?: string[]; phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed'; ago?: number; restarts?: number} = {}): Promise<Json> {
    const labels: Json = {...j.spec.template.metadata.labels}
    const annotations: Json = {}
    if (o.index !== undefined) labels['batch.kubernetes.io/job-completion-index'] = annotations['batch.kubernetes.io/job-completion-index'] = String(o.index)
    if (o.failureCount !== undefined) annotations['batch.kubernetes.io/job-index-failure-count'] = String(o.failureCount)
    const pod = await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name, labels, annotations, finalizers: o.finalizers ?? [TRACKING], ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: j.metadata.name, uid: j.metadata.uid, controller: true, blockOwnerDeletion: true}]},
        spec: {restartPolicy: j.spec.template.spec.restartPolicy, containers: [{name: 'main', image: 'registry.invalid/job:1'}]},
      },
    })
    if (o.phase === 'Running') await runningPod(pod, o.restarts ?? 0)
    if (o.phase === 'Succeeded' || o.phase === 'Failed') await finishPod(pod, o.phase === 'Succeeded' ? 0 : 1, o.ago ?? 0)
    return pod
  }
  const setStatus = (name: string, status: Json) => apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/jobs/${name}/status`, {contentType: 'application/merge-patch+json', body: {status}})
  const INDEXED = {completionMode: 'Indexed', backoffLimitPerIndex: 1}

  beforeAll(async () => {
    await controllerManager.stop()
    // 1. An excess pod without the tracking finalizer: deleted, no finalizer patch (deleteJobPods).
    const nofin = await createJob('h-nofin', {parallelism: 1})
    await handPod(nofin, 'h-nofin-kept', {phase: 'Running'})
    await handPod(nofin, 'h-nofin-bare', {finalizers: []})
    // 2. Already suspended, with a startTime: kept (cleared only when Suspended=True is newly set).
    await createJob('h-still', {suspend: true})
    await setStatus('h-still', {startTime: NOW(), conditions: [{type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: NOW(), lastTransitionTime: NOW()}]})
    // 3. The sync deletes a pod, then the Job completes: that pod's finalizer is patched again (not seen: it is gone).
    const done = await createJob('h-done', {completions: 1, parallelism: 2})
    await handPod(done, 'h-done-ok', {phase: 'Succeeded'})
    await handPod(done, 'h-done-extra')
    // 4. A failed pod whose index was active before manageJob deleted that index's pod: counted, not held back.
    const hold = await createJob('h-hold', {...INDEXED, completions: 2, parallelism: 1})
    await handPod(hold, 'h-hold-0-a', {index: 0, failureCount: 0, phase: 'Failed', ago: 30})
    await handPod(hold, 'h-hold-0-b', {index: 0, failureCount: 1})
    await handPod(hold, 'h-hold-1-a', {index: 1, phase: 'Running'})
    // 5. A held-back pod while the Job fails (past its deadline): its finalizer goes too.
    const late = await createJob('h-late', {...INDEXED, completions: 2, parallelism: 2, activeDeadlineSeconds: 30})
    await setStatus('h-late', {startTime: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z')})
    await handPod(late, 'h-late-0-a', {index: 0, failureCount: 0, phase: 'Failed', ago: 5})
    await handPod(late, 'h-late-1-a', {index: 1})
    // 7. OnFailure: the restarts of a terminating pod count (it keeps a finalizer of its own, so it stays).
    const rst = await createJob('h-rst', {backoffLimit: 3, template: {spec: {restartPolicy: 'OnFailure', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}})
    await handPod(rst, 'h-rst-a', {phase: 'Running', restarts: 1})
    await handPod(rst, 'h-rst-b', {phase: 'Running', restarts: 2, finalizers: [TRACKING, 'example.com/hold']})
    await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/h-rst-b`)
    // 6. Index 0 in its per-index backoff (its fourth failure just now: 80 s) is not replaced by index 1
    //    (one slot); with two slots only index 1 is created.
    const wait = await createJob('h-wait', {completionMode: 'Indexed', backoffLimitPerIndex: 6, completions: 3, parallelism: 1})
    const wait2 = await createJob('h-wait2', {completionMode: 'Indexed', backoffLimitPerIndex: 6, completions: 3, parallelism: 2})
    await handPod(wait, 'h-wait-0-a', {index: 0, failureCount: 3, phase: 'Failed'})
    await handPod(wait2, 'h-wait2-0-a', {index: 0, failureCount: 3, phase: 'Failed'})

    // 8. A failed pod of a per-index Job, its UID already listed as uncounted: its index still fails
    //    (calculateFailedIndexes reads the finalizer, not the list).
    const unf = await createJob('h-unf', {completionMode: 'Indexed', backoffLimitPerIndex: 0, completions: 2, parallelism: 1})
    const unfPod = await handPod(unf, 'h-unf-1-a', {index: 1, failureCount: 0, phase: 'Failed', ago: 1800})
    await handPod(unf, 'h-unf-0-a', {index: 0, phase: 'Running'})
    await setStatus('h-unf', {startTime: NOW(), uncountedTerminatedPods: {failed: [unfPod.metadata.uid]}})
    // 9. A succeeded pod of an Indexed Job, its UID listed as uncounted: its index completes the Job.
    const uns = await createJob('h-uns', {completionMode: 'Indexed', completions: 1, parallelism: 1})
    const unsPod = await handPod(uns, 'h-uns-0-a', {index: 0, phase: 'Succeeded'})
    await setStatus('h-uns', {startTime: NOW(), uncountedTerminatedPods: {succeeded: [unsPod.metadata.uid]}})

    // 10. Suspended, never started, and its only pod succeeded: write 2 (Complete) is refused — a
    //     finished Job needs a startTime.
    const never = await createJob('h-never', {suspend: true, completions: 1, parallelism: 1})
    await handPod(never, 'h-never-a', {phase: 'Succeeded'})
    // 11. Index 0 failed and succeeded: the status write that holds both is refused, no finalizer goes.
    const both = await createJob('h-both', {completionMode: 'Indexed', backoffLimitPerIndex: 0, completions: 2, parallelism: 2})
    await handPod(both, 'h-both-0-a', {index: 0, failureCount: 0, phase: 'Failed', ago: 1800})
    await handPod(both, 'h-both-0-b', {index: 0, failureCount: 1, phase: 'Succeeded'})
    await handPod(both, 'h-both-1-a', {index: 1, phase: 'Running'})
    await setStatus('h-both', {startTime: NOW()})

    const plan = await planJson(['-n', ns, '--now', NOW()])
    for (const name of ['h-nofin', 'h-still', 'h-done', 'h-hold', 'h-late', 'h-rst', 'h-wait', 'h-wait2', 'h-unf', 'h-uns', 'h-never', 'h-both']) plans.set(name, planOf(plan, 'Job', name))
    seen = await observeSyncs(ns, [...plans.values()].filter((cp) => cp.actions.length > 0))
  }, 180_000)

  function expectPlannedSync(name: string): Json {
    const cp = plans.get(name)!
    expect(sortedSync(seen.get(name)!), `Job ${name}: what the job controller did in its next sync`).toEqual(sortedSync(plannedSync(cp)))
    return cp
  }
  const steps = (cp: Json) => cp.actions.map((a: Json) => (a.type === 'updateStatus' ? `W${a.write}` : `${a.type}:${a.pod ?? a.index ?? ''}`))

  it('J5.6: an excess pod without the tracking finalizer gets its DELETE and no patch', () => {
    expect(steps(expectPlannedSync('h-nofin'))).toEqual(['deleteJobPod:h-nofin-bare', 'W1'])
  })
  it('J13.2: a Job already suspended keeps its startTime (its first sync writes ready and terminating only)', () => {
    const cp = expectPlannedSync('h-still')
    expect(steps(cp)).toEqual(['W1'])
    expect(cp.actions[0].to).toMatchObject({startTime: cp.status.startTime, ready: 0, terminating: 0})
    expect(cp.status.startTime).toBeDefined()
  })
  it('J5.1: a pod deleted in the sync that completes the Job is walked again (its second patch finds it gone)', () => {
    expect(steps(expectPlannedSync('h-done'))).toEqual(['removeFinalizer:h-done-extra', 'deleteJobPod:h-done-extra', 'W1', 'removeFinalizer:h-done-extra', 'removeFinalizer:h-done-ok', 'W2'])
  })
  it('J10.4: the held-back pods are chosen before manageJob — the failed pod of an index active then is counted', () => {
    expect(steps(expectPlannedSync('h-hold'))).toEqual(['removeFinalizer:h-hold-0-b', 'deleteJobPod:h-hold-0-b', 'W1', 'removeFinalizer:h-hold-0-a', 'W2'])
  })
  it('J5.1: a pending outcome frees the held-back pod (canRemoveFinalizer)', () => {
    expect(steps(expectPlannedSync('h-late'))).toEqual(['deleteJobPod:h-late-1-a', 'W1', 'removeFinalizer:h-late-0-a', 'removeFinalizer:h-late-1-a', 'W2'])
  })
  it('J8.6: OnFailure restarts of a terminating pod count — BackoffLimitExceeded', () => {
    const cp = expectPlannedSync('h-rst')
    expect(cp.actions.find((a: Json) => a.type === 'updateStatus').to.conditions.map((c: Json) => c.reason)).toEqual(['BackoffLimitExceeded'])
  })
  it('J10.2: a failed pod listed as uncounted still fails its index while it keeps its finalizer', () => {
    const cp = expectPlannedSync('h-unf')
    expect(cp.actions.find((a: Json) => a.type === 'updateStatus').to.failedIndexes).toBe('1')
  })
  it('J7.2: a succeeded pod of an Indexed Job listed as uncounted still completes its index', () => {
    const cp = expectPlannedSync('h-uns')
    expect(steps(cp)).toEqual(['W1', 'removeFinalizer:h-uns-0-a', 'W2'])
    expect(cp.actions.at(-1).to.conditions.map((c: Json) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete'])
  })
  it('J5.7: a suspended Job that never started cannot finish: its second write is refused, the sync retried', () => {
    const cp = expectPlannedSync('h-never')
    expect(steps(cp)).toEqual(['W1', 'removeFinalizer:h-never-a'])
    expect(cp.requeue).toMatchObject({reason: 'sync-error'})
  })
  it('J5.7: failedIndexes overlapping completedIndexes — the write is refused and no finalizer goes', () => {
    const cp = expectPlannedSync('h-both')
    expect(steps(cp)).toEqual(['deleteJobPod:h-both-1-a'])
    expect(cp.warnings.join(' ')).toMatch(/both hold index 0/)
  })
  it('J10.5: an index in backoff is not replaced by a later one; of two slots, only the index out of backoff is created', () => {
    expect(steps(expectPlannedSync('h-wait'))).toEqual(['W1'])
    expect(plans.get('h-wait')!.requeue).toMatchObject({reason: 'backoff-per-index'})
    expect(steps(expectPlannedSync('h-wait2'))).toEqual(['createJobPod:1', 'W1'])
  })
})

describe('Jobs: ttlSecondsAfterFinished (the ttl-after-finished controller)', () => {
  it('J15.4: a Job is deleted its TTL after it finished (Foreground); one whose TTL has not passed is left', async () => {
    // Pods that exit 0 as soon as they are Ready: the job controller finishes both Jobs.
    await kubeletJob('ttl-short', {ttlSecondsAfterFinished: 2}, {'stage.kctl.io/complete-after': '0s'})
    await kubeletJob('ttl-long', {ttlSecondsAfterFinished: 3600}, {'stage.kctl.io/complete-after': '0s'})
    await runUntil({'ttl-short': 'Complete', 'ttl-long': 'Complete'})
    const finished = Date.parse((await getJob('ttl-short')).status.conditions.find((c: Json) => c.type === 'Complete').lastTransitionTime)
    await sleep(finished + 3000 - Date.now())
    const plan = await planJson(['-n', ns, '--now', NOW()])
    const short = planOf(plan, 'Job', 'ttl-short')
    const long = planOf(plan, 'Job', 'ttl-long')
    expect(short.actions).toEqual([{type: 'deleteJob', name: 'ttl-short', uid: short.uid, reason: 'ttl-after-finished', propagationPolicy: 'Foreground', by: 'ttl-after-finished'}])
    expect(long.actions).toEqual([])
    expect(long.requeue).toMatchObject({reason: 'ttl-after-finished', at: long.ttl.expireAt})
    await controllerManager.start(['ttl-after-finished'])
    try {
      // Foreground: the API server marks the Job and adds foregroundDeletion (no garbage collector runs here to finish it).
      const deleting = await waitUntil(async () => {
        const j = await getJob('ttl-short')
        return j.metadata.deletionTimestamp ? j : undefined
      }, {what: 'ttl-short being deleted'})
      expect(deleting.metadata.finalizers).toContain('foregroundDeletion')
      await sleep(1000)
      expect((await getJob('ttl-long')).metadata.deletionTimestamp).toBeUndefined()
    } finally {
      await controllerManager.stop()
    }
  }, 90_000)
})

// ---- CronJobs: many scenarios, one sync ---------------------------------------------------------
//
// Every CronJob below is set up first, planned once, and then one run of the cronjob controller
// syncs them all: each scenario compares the Jobs created (by name, with their annotations) and
// deleted (by name), the status written (or not) and the events with the plan of its CronJob.

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const JOB_SPEC = {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}}

describe('CronJobs: one run of the cronjob controller over many CronJobs', () => {
  let minute = 0
  let plan: Json
  let before: Map<string, Json>
  const after = new Map<string, Json>()
  const cronStatus = new Map<string, Json>()
  let events: Json[] = []
  /** The controller's log lines of this namespace (its --v=2 output): the syncs that ended in an error. */
  let kcmLog: string[] = []

  async function cron(name: string, spec: Json, status?: Json): Promise<Json> {
    const cj = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name}, spec: {schedule: '* * * * *', jobTemplate: {spec: JOB_SPEC}, ...spec}}})
    if (status) await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/${name}/status`, {contentType: 'application/merge-patch+json', body: {status}})
    return cj
  }

  /** A Job of `cj`, as the cronjob controller names them; with `finished`, a status as the job controller leaves it. */
  async function child(cj: Json, name: string, finished?: {complete: boolean; started: number}): Promise<Json> {
    const owner = {apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name, uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true}
    const job = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name, ownerReferences: [owner]}, spec: JOB_SPEC}})
    if (finished) {
      const start = iso(finished.started)
      const end = iso(finished.started + 60_000)
      const cond = (type: string) => ({type, status: 'True', lastProbeTime: end, lastTransitionTime: end, reason: finished.complete ? 'CompletionsReached' : 'BackoffLimitExceeded', message: 'set as the job controller writes it'})
      const status = finished.complete
        ? {startTime: start, completionTime: end, succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [cond('SuccessCriteriaMet'), cond('Complete')]}
        : {startTime: start, failed: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [cond('FailureTarget'), cond('Failed')]}
      await apiOk('PUT', `/apis/batch/v1/namespaces/${ns}/jobs/${name}/status`, {body: {...job, status}})
    }
    return job
  }

  const ref = (j: Json) => ({apiVersion: 'batch/v1', kind: 'Job', name: j.metadata.name, namespace: ns, uid: j.metadata.uid})
  const jobsNow = async () => new Map<string, Json>((await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).items.map((j: Json) => [j.metadata.name, j]))
  const statusView = (s: Json = {}) => ({active: (s.active ?? []).map((r: Json) => r.name), lastScheduleTime: s.lastScheduleTime, lastSuccessfulTime: s.lastSuccessfulTime})
  const NAMES = ['every', 'forbid', 'stray', 'gone', 'c2-yearly', 'c3-late', 'c3b-window', 'c4-many', 'c6b-allow', 'c7-suspended', 'c8-history', 'c9-zone', 'c12-every', 'orphan-due', 'owned-due', 'owned-due-cleanup']

  beforeAll(async () => {
    // The plan and the controller must see the same minute, and C3 needs more than 10 s of it gone.
    const second = () => (Date.now() % 60_000) / 1000
    if (second() < 11 || second() > 25) await new Promise((r) => setTimeout(r, ((71 - second()) % 60) * 1000))
    minute = Math.floor(Date.now() / 60_000) * 60_000
    const twoAgo = {lastScheduleTime: iso(minute - 120_000)}
    await cron('c2-yearly', {schedule: '0 0 1 1 *'})
    await cron('c3-late', {startingDeadlineSeconds: 10}, twoAgo)
    await cron('c3b-window', {startingDeadlineSeconds: 60}, twoAgo)
    await cron('c4-many', {}, {lastScheduleTime: iso(minute - 3 * 3600_000)})
    // A run recorded two minutes ago whose Job still runs, listed in status.active or not.
    const withRun = async (name: string, spec: Json, listed: boolean) => {
      const cj = await cron(name, spec)
      const running = await child(cj, `${name}-${minute / 60_000 - 2}`)
      await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/${name}/status`, {contentType: 'application/merge-patch+json', body: {status: {...twoAgo, active: listed ? [ref(running)] : []}}})
      return running
    }
    await withRun('every', {concurrencyPolicy: 'Replace'}, true)
    await withRun('forbid', {concurrencyPolicy: 'Forbid'}, true)
    await withRun('stray', {}, false)
    const gone = await withRun('gone', {}, true)
    // Background: no orphan finalizer (no garbage collector runs here), so the Job is gone at once.
    await apiOk('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs/${gone.metadata.name}?propagationPolicy=Background`)
    await withRun('c6b-allow', {}, true)
    await cron('c7-suspended', {suspend: true}, twoAgo)
    const history = await cron('c8-history', {schedule: '0 0 1 1 *', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1})
    for (const [name, hoursAgo, complete] of [['c8-s1', 5, true], ['c8-s2', 4, true], ['c8-s3', 3, true], ['c8-f1', 2, false], ['c8-f2', 1, false]] as const) {
      await child(history, name, {complete, started: minute - hoursAgo * 3600_000})
    }
    await cron('c9-zone', {timeZone: 'America/New_York'}, twoAgo)
    await cron('c12-every', {schedule: '@every 2m'}, {lastScheduleTime: iso(Math.floor(Date.now() / 1000) * 1000 - 150_000)})
    await cron('orphan-due', {}, twoAgo)
    await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: `orphan-due-${minute / 60_000}`}, spec: JOB_SPEC}})
    // C16: the due run's Job exists, controlled by the CronJob, missing from status.active (as after a
    // create whose status write was lost); C16b: the same, with a finished run still listed as active.
    await child(await cron('owned-due', {}, twoAgo), `owned-due-${minute / 60_000}`)
    const cleanup = await cron('owned-due-cleanup', {})
    const done = await child(cleanup, `owned-due-cleanup-${minute / 60_000 - 2}`, {complete: true, started: minute - 120_000})
    await child(cleanup, `owned-due-cleanup-${minute / 60_000}`)
    await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/owned-due-cleanup/status`, {contentType: 'application/merge-patch+json', body: {status: {...twoAgo, active: [ref(done)]}}})

    before = await jobsNow()
    for (const name of NAMES) cronStatus.set(name, (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/${name}`)).status)
    plan = await planJson(['-n', ns, '--now', NOW()])
    const cps = NAMES.map((n) => planOf(plan, 'CronJob', n))
    await controllerManager.start(['cronjob'])
    const logFile = controllerManager.logFile
    try {
      const t0 = Date.now()
      await waitUntil(
        async () => {
          const jobs = await jobsNow()
          for (const cp of cps) {
            for (const a of cp.actions) {
              if (a.type === 'createJob' && !jobs.has(a.name)) return false
              if (a.type === 'deleteJob' && jobs.has(a.name)) return false
              if (a.type === 'updateStatus') {
                const s = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/${cp.name}`)).status
                if (JSON.stringify(statusView(s)) !== JSON.stringify(statusView(a.to))) return false
              }
            }
          }
          // CronJobs planned to do nothing get the same time to show they do nothing.
          return Date.now() - t0 > 3000
        },
        {what: 'the cronjob controller to do what the plans say', timeoutMs: 20_000},
      ).catch(() => {})
    } finally {
      await controllerManager.stop()
    }
    for (const [name, j] of await jobsNow()) after.set(name, j)
    events = (await apiOk('GET', `/api/v1/namespaces/${ns}/events`)).items
    kcmLog = logFile ? readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes(`${ns}/`)) : []
  }, 90_000)

  /** The CronJob's sync did what its plan says: Jobs created and deleted by name, the status, the events. */
  async function expectPlanned(name: string): Promise<Json> {
    const cp = planOf(plan, 'CronJob', name)
    const mine = (m: Map<string, Json>) => [...m.keys()].filter((n) => n.startsWith(`${name}-`) || (name === 'c8-history' && n.startsWith('c8-'))).sort()
    const created = mine(after).filter((n) => !before.has(n))
    const deleted = mine(before).filter((n) => !after.has(n))
    expect({created, deleted}, `CronJob ${name}: Jobs created and deleted`).toEqual({
      created: cp.actions.filter((a: Json) => a.type === 'createJob').map((a: Json) => a.name).sort(),
      deleted: cp.actions.filter((a: Json) => a.type === 'deleteJob').map((a: Json) => a.name).sort(),
    })
    for (const a of cp.actions.filter((x: Json) => x.type === 'createJob')) {
      const j = after.get(a.name)!
      expect({annotations: j.metadata.annotations, owner: j.metadata.ownerReferences}).toEqual({annotations: a.annotations, owner: [{...a.ownerReference}]})
    }
    const write = cp.actions.find((a: Json) => a.type === 'updateStatus')
    const status = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/${name}`)).status
    expect(statusView(status), `CronJob ${name}: its status`).toEqual(statusView(write ? write.to : cronStatus.get(name)))
    const reasons = (cp.events ?? []).map((e: string) => e.split(' ')[1].replace(/:$/, ''))
    const seen = new Set(events.filter((e) => e.involvedObject.name === name).map((e) => e.reason))
    for (const r of reasons) expect(seen, `CronJob ${name}: event ${r}`).toContain(r)
    return cp
  }

  it('C1/C6: the Job due is created by its name; Replace deletes the running one', async () => {
    const cp = await expectPlanned('every')
    expect(cp.actions.map((a: Json) => `${a.type} ${a.name ?? ''}`)).toEqual([`deleteJob every-${minute / 60_000 - 2}`, `createJob every-${minute / 60_000}`, 'updateStatus '])
  })
  it('C5: Forbid with the last run still active — no Job, no status write (JobAlreadyActive)', async () => {
    const cp = await expectPlanned('forbid')
    expect(cp.actions).toEqual([])
    expect(cp.events.join(' ')).toMatch(/JobAlreadyActive/)
  })
  it('C14: an unfinished child missing from status.active is not taken in (UnexpectedJob); the due run is still created', async () => {
    const cp = await expectPlanned('stray')
    expect(cp.warnings.join(' ')).toMatch(new RegExp(`Job stray-${minute / 60_000 - 2} .*UnexpectedJob`))
    expect(events.some((e) => e.involvedObject.name === 'stray' && e.reason === 'UnexpectedJob')).toBe(true)
  })
  it('C10: an active Job that is gone leaves status.active (MissingJob)', async () => {
    const cp = await expectPlanned('gone')
    expect(cp.events.join(' ')).toMatch(new RegExp(`MissingJob: Active job went missing: gone-${minute / 60_000 - 2}`))
  })
  it('C2: nothing due (a yearly schedule) — nothing written, the next run stated', async () => {
    const cp = await expectPlanned('c2-yearly')
    expect(cp.actions).toEqual([])
    expect(cp.requeue).toMatchObject({reason: 'next-schedule'})
  })
  it('C3: the due time is older than startingDeadlineSeconds — nothing happens, and no MissSchedule event', async () => {
    const cp = await expectPlanned('c3-late')
    expect(cp.actions).toEqual([])
    expect(events.some((e) => e.involvedObject.name === 'c3-late' && e.reason === 'MissSchedule')).toBe(false)
  })
  it('C3b: within startingDeadlineSeconds the due run is created', async () => {
    const cp = await expectPlanned('c3b-window')
    expect(cp.actions.find((a: Json) => a.type === 'createJob').name).toBe(`c3b-window-${minute / 60_000}`)
  })
  it('C4: more than 100 missed runs — TooManyMissedTimes, and only the latest is created', async () => {
    const cp = await expectPlanned('c4-many')
    expect(cp.events.join(' ')).toMatch(/TooManyMissedTimes/)
    expect(cp.actions.filter((a: Json) => a.type === 'createJob')).toHaveLength(1)
  })
  it('C6b: Allow with a run still active — the new one is created beside it', async () => {
    const cp = await expectPlanned('c6b-allow')
    expect(cp.actions.find((a: Json) => a.type === 'updateStatus').to.active).toHaveLength(2)
  })
  it('C7: suspended — nothing, even with a run due', async () => {
    expect((await expectPlanned('c7-suspended')).actions).toEqual([])
  })
  it('C8: history limits — the oldest finished Jobs beyond each limit are deleted; lastSuccessfulTime is the latest completion', async () => {
    const cp = await expectPlanned('c8-history')
    expect(cp.actions.filter((a: Json) => a.type === 'deleteJob').map((a: Json) => a.name)).toEqual(['c8-s1', 'c8-s2', 'c8-f1'])
  })
  it('C9: a timeZone — the Job is annotated with the scheduled time in that zone', async () => {
    const cp = await expectPlanned('c9-zone')
    expect(cp.actions.find((a: Json) => a.type === 'createJob').annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toMatch(/-0[45]:00$/)
  })
  it('C12: @every counts from the last schedule time, not the clock\'s minutes', async () => {
    const cp = await expectPlanned('c12-every')
    expect(cp.scheduledTime).toBe(iso(Date.parse(cronStatus.get('c12-every').lastScheduleTime) + 120_000))
  })
  it('CJ3.12: an orphan Job of the due name is never adopted — the create fails (AlreadyExists) and nothing is written', async () => {
    const cp = await expectPlanned('orphan-due')
    expect(cp.actions).toEqual([])
    expect(cp.warnings.join(' ')).toMatch(/an orphan, never adopted/)
    expect(after.get(`orphan-due-${minute / 60_000}`)!.metadata.ownerReferences).toBeUndefined()
  })
  /** The read of the existing Job by a cluster-wide path: a 404 with no details. */
  const NOT_FOUND = 'requeuing: the server could not find the requested resource'
  /** The syncs of `name` that ended in an error and were requeued with backoff (the queue's HandleError line). */
  const retried = (name: string) => kcmLog.filter((l) => l.includes('error syncing CronJobController') && l.includes(`${ns}/${name},`))
  it('C15: the orphan\'s refused create ends the sync in an error — retried with backoff, each retry refused', async () => {
    const cp = await expectPlanned('orphan-due')
    expect(cp.requeue).toMatchObject({reason: 'retries-until-next-schedule'})
    expect(retried('orphan-due').length).toBeGreaterThanOrEqual(2)
    expect(retried('orphan-due').every((l) => l.includes(NOT_FOUND))).toBe(true)
  })
  it('C16 (CJ3.12): the due run\'s Job, controlled but not in status.active, is not taken in — no write, retried with backoff', async () => {
    const cp = await expectPlanned('owned-due')
    const due = `owned-due-${minute / 60_000}`
    expect(cp.actions).toEqual([])
    expect(cp.warnings.join(' ')).toMatch(new RegExp(`Job ${due} exists \\(this CronJob's, not in status\\.active\\).*retries with backoff`))
    expect(cp.requeue).toMatchObject({reason: 'retries-until-next-schedule'})
    const status = (await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs/owned-due`)).status
    expect(statusView(status)).toEqual({active: [], lastScheduleTime: iso(minute - 120_000), lastSuccessfulTime: undefined})
    expect(events.some((e) => e.involvedObject.name === 'owned-due' && e.reason === 'SuccessfulCreate')).toBe(false)
    expect(retried('owned-due').length, 'the sync is retried, each retry refused').toBeGreaterThanOrEqual(2)
    expect(retried('owned-due').every((l) => l.includes(NOT_FOUND))).toBe(true)
  })
  it('C16b: with the due Job not taken in, only the cleanup is written (SawCompletedJob, lastScheduleTime kept)', async () => {
    const cp = await expectPlanned('owned-due-cleanup')
    expect(cp.actions.map((a: Json) => a.type)).toEqual(['updateStatus'])
    expect(cp.actions[0].to.active).toEqual([])
    expect(cp.actions[0].to.lastScheduleTime).toBe(iso(minute - 120_000))
    expect(retried('owned-due-cleanup').length).toBeGreaterThanOrEqual(2)
  })
})
