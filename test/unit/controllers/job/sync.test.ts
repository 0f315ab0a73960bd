// The Job planner against the scenarios of the batch semantics (S1–S27), each named by the rule it
// exercises (J…). Objects are written as the API holds them and read through the normalizer.
import {describe, expect, it} from 'vitest'
import type {BackoffRecord, CreateJobPodAction, RemoveFinalizerAction} from '../../../../src/controllers/job/model.js'
import {completionIndex, formatIndexes, intervalSet, parseIndexes} from '../../../../src/controllers/job/indexes.js'
import {backoffDelay} from '../../../../src/controllers/job/failure.js'
import {before, BATCH_NOW, job, jobPod, planOne, steps, written} from '../../../helpers/batch.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {readParsedJsonList} from '../../../../src/sources/documents.js'
import {SourceFile} from '../../../../src/sources/files.js'
import {normalize} from '../../../../src/sources/normalize.js'

const creates = (cp: ReturnType<typeof planOne>) => cp.actions.filter((a): a is CreateJobPodAction => a.type === 'createJobPod')
const finalizers = (cp: ReturnType<typeof planOne>) => cp.actions.filter((a): a is RemoveFinalizerAction => a.type === 'removeFinalizer')
const conds = (s: Record<string, any>) => (s.conditions as {type: string; reason: string}[]).map((c) => `${c.type}:${c.reason}`)
const started = (s: number) => ({startTime: before(s)})

describe('J6 creating pods', () => {
  it('S1 (J6.5, J6.6, J3.11) a new NonIndexed Job creates parallelism pods with the tracking finalizer and writes startTime', () => {
    const cp = planOne([job('s1', {parallelism: 3, completions: 5})], 's1')
    expect(steps(cp)).toEqual(['+pod:s1-', '+pod:s1-', '+pod:s1-', 'W1'])
    const c = creates(cp)[0]
    expect(c.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
    expect(c.labels).toMatchObject({app: 's1', 'batch.kubernetes.io/controller-uid': 'uid-s1', 'batch.kubernetes.io/job-name': 's1', 'controller-uid': 'uid-s1', 'job-name': 's1'})
    expect(c.ownerReference).toEqual({apiVersion: 'batch/v1', kind: 'Job', name: 's1', uid: 'uid-s1', controller: true, blockOwnerDeletion: true})
    expect(written(cp, 1)).toMatchObject({active: 3, ready: 0, terminating: 0, startTime: BATCH_NOW, uncountedTerminatedPods: {succeeded: [], failed: []}})
  })
  it('S2 (J6.6, J7) an Indexed Job creates the lowest indexes with generateName <job>-<i>-, the index label and annotation and the hostname', () => {
    const cp = planOne([job('s2', {parallelism: 3, completions: 5, completionMode: 'Indexed'})], 's2')
    expect(creates(cp).map((c) => [c.generateName, c.hostname, c.labels['batch.kubernetes.io/job-completion-index'], c.annotations['batch.kubernetes.io/job-completion-index']])).toEqual([
      ['s2-0-', 's2-0', '0', '0'],
      ['s2-1-', 's2-1', '1', '1'],
      ['s2-2-', 's2-2', '2', '2'],
    ])
  })
  it('J6.6 an Indexed generateName longer than 58 characters cuts the Job name', () => {
    const name = 'a'.repeat(60)
    // A uid of a real length: the generated selector carries it as a label value (at most 63 characters).
    const cp = planOne([job(name, {parallelism: 1, completions: 13, completionMode: 'Indexed'}, {completedIndexes: '0-11'}, {uid: 'uid-long'})], name)
    expect(creates(cp)[0].generateName).toBe(`${'a'.repeat(54)}-12-`)
  })
  it('S3 (J5.2, J5.4) a succeeded pod is counted in two writes and replaced', () => {
    const cp = planOne([job('s3', {completions: 2, parallelism: 1}, {active: 1, ...started(60)}), jobPod('s3', 'a', {phase: 'Succeeded', exit: 0, finishedAgo: 5})], 's3')
    expect(steps(cp)).toEqual(['+pod:s3-', 'W1', '~fin:a', 'W2'])
    expect(written(cp, 1)).toMatchObject({active: 1, uncountedTerminatedPods: {succeeded: ['uid-a'], failed: []}, succeeded: 0})
    expect(written(cp, 2)).toMatchObject({succeeded: 1, uncountedTerminatedPods: {succeeded: [], failed: []}})
  })
  it('S21 (J6.2) completions nil: once a pod succeeded nothing new starts and the Job is not complete while pods run', () => {
    const cp = planOne([job('s21', {parallelism: 3}, {active: 3, ...started(60)}), jobPod('s21', 'a', {phase: 'Succeeded', exit: 0}), jobPod('s21', 'b'), jobPod('s21', 'c')], 's21')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(written(cp, 2)).toMatchObject({active: 2, succeeded: 1})
    expect(conds(written(cp, 2))).toEqual([])
  })
  it('S27 (J5.4) uncounted UIDs whose finalizer is gone are counted first; no create while completions − succeeded > parallelism is already met', () => {
    const cp = planOne(
      [job('s27', {completions: 3, parallelism: 1}, {active: 1, uncountedTerminatedPods: {succeeded: ['uid-a']}, ...started(60)}), jobPod('s27', 'a', {phase: 'Succeeded', exit: 0, finalizer: false}), jobPod('s27', 'b')],
      's27',
    )
    expect(steps(cp)).toEqual(['W1'])
    expect(written(cp, 1)).toMatchObject({succeeded: 1, active: 1, uncountedTerminatedPods: {succeeded: [], failed: []}})
  })
})

describe('J14 terminal conditions in two steps', () => {
  it('S4 (J14.1) completions reached: SuccessCriteriaMet in write 1, Complete and completionTime in write 2', () => {
    const cp = planOne([job('s4', {}, {...started(60)}), jobPod('s4', 'a', {phase: 'Succeeded', exit: 0})], 's4')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(conds(written(cp, 1))).toEqual(['SuccessCriteriaMet:CompletionsReached'])
    expect(conds(written(cp, 2))).toEqual(['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached'])
    expect(written(cp, 2)).toMatchObject({succeeded: 1, completionTime: BATCH_NOW})
    expect(cp.events).toContain('Normal Completed: Job completed')
  })
  it('S5 (J8.1) backoffLimit 0: the first failure fails the Job, FailureTarget then Failed', () => {
    const cp = planOne([job('s5', {backoffLimit: 0}, {...started(60)}), jobPod('s5', 'a', {phase: 'Failed', exit: 1})], 's5')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(written(cp, 1).uncountedTerminatedPods.failed).toEqual(['uid-a'])
    expect(conds(written(cp, 2))).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
    expect(written(cp, 2).completionTime).toBeUndefined()
  })
  it('S6 (J5.1, J5.2) a failing Job deletes its running pod with the finalizer kept, counts it as failed, and waits for it', () => {
    const cp = planOne(
      [job('s6', {backoffLimit: 1, parallelism: 2, completions: 4}, {active: 1, ready: 1, ...started(60)}), jobPod('s6', 'a', {phase: 'Failed', exit: 1}), jobPod('s6', 'b', {phase: 'Failed', exit: 1}), jobPod('s6', 'c', {ready: true})],
      's6',
    )
    expect(steps(cp)).toEqual(['-pod:c', 'W1', '~fin:a', '~fin:b', '~fin:c', 'W2'])
    expect(written(cp, 1)).toMatchObject({active: 0, ready: 0, terminating: 1})
    expect([...written(cp, 1).uncountedTerminatedPods.failed].sort()).toEqual(['uid-a', 'uid-b', 'uid-c'])
    expect(written(cp, 2)).toMatchObject({failed: 3})
    expect(conds(written(cp, 2))).toEqual(['FailureTarget:BackoffLimitExceeded'])
  })
  it('S25 (J14.2) SuccessCriteriaMet present and nothing left: Complete with the same reason in one write', () => {
    const cp = planOne([job('s25', {}, {succeeded: 1, ...started(60), conditions: [{type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods'}]}), jobPod('s25', 'a', {phase: 'Succeeded', exit: 0, finalizer: false})], 's25')
    expect(steps(cp)).toEqual(['W2'])
    expect(conds(written(cp, 2))).toEqual(['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached'])
  })
  it('S26 (J14.4) FailureTarget present and a pod still terminating: no Failed yet', () => {
    const cp = planOne([job('s26', {}, {failed: 2, terminating: 1, ...started(60), conditions: [{type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded'}]}), jobPod('s26', 'a', {deleting: {at: before(-30), grace: 30}, finalizer: false})], 's26')
    expect(cp.inSync).toBe(true)
  })
  it('S26b (J14.1) FailureTarget present and the pod gone: terminating 0 then Failed', () => {
    const cp = planOne([job('s26b', {}, {failed: 2, terminating: 1, ...started(60), conditions: [{type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit'}]})], 's26b')
    expect(steps(cp)).toEqual(['W1', 'W2'])
    expect(written(cp, 1).terminating).toBe(0)
    expect(conds(written(cp, 2))).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
  })
  it('S18 (J15.2, J15.3) a finished Job gets no sync; the orphan worker removes its pods\' finalizers, counting nothing', () => {
    const cp = planOne([job('s18', {}, {succeeded: 1, conditions: [{type: 'SuccessCriteriaMet', status: 'True'}, {type: 'Complete', status: 'True'}]}), jobPod('s18', 'a', {phase: 'Succeeded', exit: 0})], 's18')
    expect(steps(cp)).toEqual(['~fin:a'])
    expect(finalizers(cp)[0]).toMatchObject({counts: 'none', by: 'orphan-worker'})
  })
  it('S17 (J15.1) a Job managed by another controller gets nothing at all', () => {
    const cp = planOne([job('s17', {managedBy: 'example.com/other'})], 's17')
    expect(cp.actions).toEqual([])
  })
})

describe('J12 activeDeadlineSeconds', () => {
  it('S8 past the deadline: the running pod is deleted and counted, DeadlineExceeded waits for it', () => {
    const cp = planOne([job('s8', {activeDeadlineSeconds: 60}, {active: 1, ...started(100)}), jobPod('s8', 'a')], 's8')
    expect(steps(cp)).toEqual(['-pod:a', 'W1', '~fin:a', 'W2'])
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:DeadlineExceeded'])
    expect(written(cp, 2)).toMatchObject({failed: 1, terminating: 1})
    expect(conds(written(cp, 2))).toEqual(['FailureTarget:DeadlineExceeded'])
  })
  it('J12 the deadline is reached at exactly activeDeadlineSeconds', () => {
    const cp = planOne([job('at', {activeDeadlineSeconds: 60}, {active: 1, ...started(60)}), jobPod('at', 'a')], 'at')
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:DeadlineExceeded'])
  })
  it('S8b before the deadline: no write, a requeue at the deadline', () => {
    const cp = planOne([job('s8b', {activeDeadlineSeconds: 60}, {active: 1, ...started(20)}), jobPod('s8b', 'a')], 's8b')
    expect(cp.actions).toEqual([])
    expect(cp.requeue).toMatchObject({seconds: 40, reason: 'active-deadline'})
  })
})

/** The plan of Job `name` when the controller's backoff records are known (as `kctl simulate` keeps them). */
function planRemembering(objects: Record<string, any>[], name: string, record: BackoffRecord): ReturnType<typeof planOne> {
  const file = new SourceFile('test.json', undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects})))
  const snapshot = normalize(readParsedJsonList(file, objects), {paths: ['test.json'], serverDefaulted: false})
  const plan = planSnapshot(snapshot, {now: BATCH_NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500, jobBackoff: new Map([[`uid-${name}`, record]])})
  return plan.controllers.find((c) => c.name === name)!
}

const agoNs = (s: number) => parseRfc3339(before(s))!

describe('J8.3 the backoff record kept across syncs', () => {
  it('failures counted earlier still delay the create: 2 remembered, the last 15 s ago, wait 5 s more', () => {
    const cp = planRemembering([job('rem', {completions: 1}, {failed: 2, ...started(600)})], 'rem', {failures: 2, lastFailure: agoNs(15)})
    expect(creates(cp)).toEqual([])
    expect(cp.requeue).toMatchObject({seconds: 5, reason: 'backoff'})
    expect(cp.backoffRecord).toEqual({failures: 2, lastFailure: agoNs(15)})
  })
  it('a new failure adds to the record: 1 remembered and 1 new 5 s ago wait 20 s from it', () => {
    const cp = planRemembering([job('add', {}, {failed: 1, ...started(600)}), jobPod('add', 'a', {phase: 'Failed', exit: 1, finishedAgo: 5})], 'add', {failures: 1, lastFailure: agoNs(300)})
    expect(cp.backoffRecord).toEqual({failures: 2, lastFailure: agoNs(5)})
    expect(cp.requeue).toMatchObject({seconds: 15, reason: 'backoff'})
  })
  it('a new success resets it', () => {
    const cp = planRemembering([job('ok', {completions: 3}, {failed: 3, ...started(600)}), jobPod('ok', 'a', {phase: 'Succeeded', exit: 0, finishedAgo: 5})], 'ok', {failures: 3, lastFailure: agoNs(30)})
    expect(cp.backoffRecord).toEqual({failures: 0})
    expect(creates(cp)).toHaveLength(1)
  })
})

describe('J8 backoff and podReplacementPolicy', () => {
  it('S11 a failure 5 s ago: counted, no create, requeue in 5 s', () => {
    const cp = planOne([job('s11', {}, {...started(60)}), jobPod('s11', 'a', {phase: 'Failed', exit: 1, finishedAgo: 5})], 's11')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(cp.requeue).toMatchObject({seconds: 5, reason: 'backoff'})
  })
  it('S11b a failure 15 s ago: the replacement is created', () => {
    const cp = planOne([job('s11b', {}, {...started(60)}), jobPod('s11b', 'a', {phase: 'Failed', exit: 1, finishedAgo: 15})], 's11b')
    expect(steps(cp)).toEqual(['+pod:s11b-', 'W1', '~fin:a', 'W2'])
    expect(cp.requeue).toBeUndefined()
  })
  it('S11c (J8.2) three failures: delay 40 s from the last, requeue 15 s', () => {
    const cp = planOne([job('s11c', {}, {...started(200)}), ...[100, 60, 25].map((t, i) => jobPod('s11c', `p${i}`, {phase: 'Failed', exit: 1, finishedAgo: t}))], 's11c')
    expect(creates(cp)).toEqual([])
    expect(cp.requeue).toMatchObject({seconds: 15})
    expect(written(cp, 2).failed).toBe(3)
  })
  it('J8.1 as many failures as backoffLimit is not yet over it: the pod is replaced after its backoff', () => {
    const cp = planOne([job('j81', {backoffLimit: 1}, {...started(60)}), jobPod('j81', 'a', {phase: 'Failed', exit: 1, finishedAgo: 30})], 'j81')
    expect(steps(cp)).toEqual(['+pod:j81-', 'W1', '~fin:a', 'W2'])
    expect(conds(written(cp, 2))).toEqual([])
  })
  it('J8.2 the delay doubles from 10 s up to 10 minutes', () => {
    expect([0, 1, 2, 3, 6, 7, 20].map((n) => Number(backoffDelay(n) / 1_000_000_000n))).toEqual([0, 10, 20, 40, 320, 600, 600])
  })
  it('J17.2 with earlier failures counted, the plan says the backoff record may delay the create', () => {
    const cp = planOne([job('j172', {completions: 2}, {failed: 2, ...started(600)})], 'j172')
    expect(creates(cp)).toHaveLength(1)
    expect(cp.assumes?.join(' ')).toMatch(/backoff record may hold earlier failures/)
  })
  it('S19 TerminatingOrFailed: a terminating pod counts as failed at once and its replacement waits 10 s', () => {
    const cp = planOne([job('s19', {}, {active: 1, ...started(60)}), jobPod('s19', 'a', {deleting: {at: before(-30), grace: 30}})], 's19')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(written(cp, 1)).toMatchObject({active: 0, terminating: 1, uncountedTerminatedPods: {failed: ['uid-a']}})
    expect(cp.requeue).toMatchObject({seconds: 10})
  })
  it('S19b Failed: a terminating pod is neither active nor failed, and blocks its replacement', () => {
    const cp = planOne([job('s19b', {podReplacementPolicy: 'Failed'}, {active: 1, ...started(60)}), jobPod('s19b', 'a', {deleting: {at: before(-30), grace: 30}})], 's19b')
    expect(steps(cp)).toEqual(['W1'])
    expect(written(cp, 1)).toMatchObject({active: 0, terminating: 1, failed: 0})
    expect(cp.requeue).toBeUndefined()
  })
  it('S20 (J8.6) OnFailure: restarts reaching backoffLimit fail the Job', () => {
    const j = job('s20', {backoffLimit: 3}, {active: 1, ...started(60)})
    j.spec.template.spec.restartPolicy = 'OnFailure'
    const cp = planOne([j, jobPod('s20', 'a', {restarts: 3})], 's20')
    expect(steps(cp)).toEqual(['-pod:a', 'W1', '~fin:a', 'W2'])
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:BackoffLimitExceeded'])
  })
})

describe('J9 podFailurePolicy', () => {
  const policy = {rules: [{action: 'Ignore', onPodConditions: [{type: 'DisruptionTarget'}]}, {action: 'FailJob', onExitCodes: {operator: 'In', values: [42]}}]}
  it('S9 a FailJob exit code fails the Job with the rule in the message', () => {
    const cp = planOne([job('s9', {parallelism: 2, completions: 2, podFailurePolicy: policy}, {active: 1, ...started(60)}), jobPod('s9', 'a', {phase: 'Failed', exit: 42}), jobPod('s9', 'b')], 's9')
    expect(steps(cp)).toEqual(['-pod:b', 'W1', '~fin:a', '~fin:b', 'W2'])
    const c = written(cp, 1).conditions[0]
    expect(c).toMatchObject({type: 'FailureTarget', reason: 'PodFailurePolicy', message: 'Container main for pod ns/a failed with exit code 42 matching FailJob rule at index 1'})
    expect(written(cp, 2).failed).toBe(2)
  })
  it('S10 (J4.6, J8.4) an Ignored failure is not counted but delays the replacement', () => {
    const cp = planOne([job('s10', {podFailurePolicy: policy}, {active: 1, ...started(60)}), jobPod('s10', 'a', {phase: 'Failed', exit: 137, finishedAgo: 5, conditions: [{type: 'DisruptionTarget', status: 'True'}]})], 's10')
    expect(steps(cp)).toEqual(['W1', '~fin:a'])
    expect(written(cp, 1)).toMatchObject({active: 0, failed: 0, uncountedTerminatedPods: {succeeded: [], failed: []}})
    expect(finalizers(cp)[0].counts).toBe('none')
    expect(cp.requeue).toMatchObject({seconds: 5})
  })
  it('J4.1/J9 a podFailurePolicy defaults podReplacementPolicy to Failed', () => {
    const cp = planOne([job('pfp', {podFailurePolicy: policy}, {...started(60)}), jobPod('pfp', 'a', {deleting: {at: before(-30), grace: 30}})], 'pfp')
    expect(creates(cp)).toEqual([])
    expect(written(cp, 1)).toMatchObject({active: 0, terminating: 1, failed: 0})
  })
})

describe('J10 backoffLimitPerIndex', () => {
  it('S12 the failed pod of an open index keeps its finalizer until its replacement exists; the replacement carries failure-count 1', () => {
    const cp = planOne(
      [job('s12', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 1}, {active: 1, ...started(60)}), jobPod('s12', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 20, index: 0, failureCount: 0}), jobPod('s12', '1-a', {index: 1})],
      's12',
    )
    expect(steps(cp)).toEqual(['+pod:s12-0-', 'W1'])
    expect(creates(cp)[0].annotations['batch.kubernetes.io/job-index-failure-count']).toBe('1')
    expect(written(cp, 1)).toMatchObject({active: 2, failedIndexes: '', failed: 0})
  })
  it('S12c one sync later, the held pod is counted', () => {
    const cp = planOne(
      [
        job('s12', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 1}, {active: 2, failedIndexes: '', ...started(60)}),
        jobPod('s12', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 25, index: 0, failureCount: 0}),
        jobPod('s12', '0-b', {phase: 'Pending', index: 0, failureCount: 1}),
        jobPod('s12', '1-a', {index: 1}),
      ],
      's12',
    )
    expect(steps(cp)).toEqual(['W1', '~fin:0-a', 'W2'])
    expect(written(cp, 2).failed).toBe(1)
  })
  it('S12b an index out of attempts is failed and never recreated; not terminal while other indexes are open', () => {
    const cp = planOne(
      [
        job('s12b', {completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 1}, {active: 2, failed: 1, failedIndexes: '', ...started(60)}),
        jobPod('s12b', '0-b', {phase: 'Failed', exit: 1, index: 0, failureCount: 1}),
        jobPod('s12b', '1-a', {phase: 'Succeeded', exit: 0, index: 1}),
        jobPod('s12b', '2-a', {index: 2}),
      ],
      's12b',
    )
    expect(creates(cp)).toEqual([])
    expect(written(cp, 1)).toMatchObject({active: 1, completedIndexes: '1', succeeded: 1, failedIndexes: '0', uncountedTerminatedPods: {failed: ['uid-0-b']}})
    expect(written(cp, 2).failed).toBe(2)
    expect(conds(written(cp, 2))).toEqual([])
  })
  it('S13 (J10.6) more failed indexes than maxFailedIndexes fails the Job', () => {
    const cp = planOne(
      [
        job('s13', {completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimitPerIndex: 0, maxFailedIndexes: 0}, {active: 3, ...started(60)}),
        jobPod('s13', 'p0', {index: 0}),
        jobPod('s13', 'p1', {index: 1}),
        jobPod('s13', 'p2', {phase: 'Failed', exit: 1, index: 2}),
        jobPod('s13', 'p3', {index: 3}),
      ],
      's13',
    )
    expect(steps(cp).filter((s) => s.startsWith('-pod'))).toEqual(['-pod:p0', '-pod:p1', '-pod:p3'])
    expect(written(cp, 1)).toMatchObject({terminating: 3, failedIndexes: '2'})
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:MaxFailedIndexesExceeded'])
    expect(written(cp, 2).failed).toBe(4)
  })
  it('S24 a FailIndex rule fails the index at once', () => {
    const cp = planOne(
      [
        job('s24', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 3, podFailurePolicy: {rules: [{action: 'FailIndex', onExitCodes: {operator: 'In', values: [3]}}]}}, {active: 2, ...started(60)}),
        jobPod('s24', 'p1', {phase: 'Failed', exit: 3, index: 1, failureCount: 0}),
        jobPod('s24', 'p0', {index: 0}),
      ],
      's24',
    )
    expect(creates(cp)).toEqual([])
    expect(written(cp, 1)).toMatchObject({active: 1, failedIndexes: '1', uncountedTerminatedPods: {failed: ['uid-p1']}})
    expect(written(cp, 2).failed).toBe(1)
  })
})

describe('J11 successPolicy, J6.3 deletion, J13 suspend', () => {
  it('S14 a successPolicy match deletes the rest without counting them as failed', () => {
    const cp = planOne(
      [
        job('s14', {completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: {rules: [{succeededIndexes: '0'}]}}, {active: 2, ready: 1, ...started(60)}),
        jobPod('s14', 'p0', {phase: 'Succeeded', exit: 0, index: 0}),
        jobPod('s14', 'p1', {index: 1, ready: true}),
        jobPod('s14', 'p2', {phase: 'Pending', index: 2}),
      ],
      's14',
    )
    expect(steps(cp)).toEqual(['-pod:p1', '-pod:p2', 'W1', '~fin:p0', '~fin:p1', '~fin:p2'])
    expect(written(cp, 1)).toMatchObject({active: 0, ready: 0, terminating: 2, completedIndexes: '0', succeeded: 1, failed: 0})
    expect(written(cp, 1).conditions[0]).toMatchObject({type: 'SuccessCriteriaMet', reason: 'SuccessPolicy', message: 'Matched rules at index 0'})
  })
  it('J11.1 a succeededIndexes rule needs every listed index, unless succeededCount asks for fewer', () => {
    const objects = (rule: object) => [
      job('sp', {completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: {rules: [rule]}}, {active: 2, ...started(60)}),
      jobPod('sp', 'p0', {phase: 'Succeeded', exit: 0, index: 0}),
      jobPod('sp', 'p1', {index: 1}),
      jobPod('sp', 'p2', {index: 2}),
    ]
    expect(conds(written(planOne(objects({succeededIndexes: '0-1'}), 'sp'), 1))).toEqual([])
    expect(conds(written(planOne(objects({succeededIndexes: '0-1', succeededCount: 1}), 'sp'), 1))).toEqual(['SuccessCriteriaMet:SuccessPolicy'])
    expect(conds(written(planOne(objects({succeededCount: 2}), 'sp'), 1))).toEqual([])
  })
  it('S15 (J6.4) too many active pods: the ActivePods order keeps the Running and Ready one', () => {
    const cp = planOne(
      [
        job('s15', {parallelism: 1}, {active: 4, ready: 1, ...started(3600)}),
        jobPod('s15', 'ready', {ready: true, created: before(3000)}),
        jobPod('s15', 'running'),
        jobPod('s15', 'pending', {phase: 'Pending'}),
        jobPod('s15', 'unscheduled', {phase: 'Pending', node: ''}),
      ],
      's15',
    )
    expect(steps(cp)).toEqual(['~fin:unscheduled', '-pod:unscheduled', '~fin:pending', '-pod:pending', '~fin:running', '-pod:running', 'W1'])
    expect(written(cp, 1)).toMatchObject({active: 1, ready: 1, terminating: 3})
  })
  it('S16 (J6.3) a duplicate index goes (the less ready one) and nothing is created in that sync', () => {
    const cp = planOne(
      [
        job('s16', {completionMode: 'Indexed', completions: 3, parallelism: 3}, {active: 3, ready: 2, ...started(3600)}),
        jobPod('s16', '0-a', {index: 0, ready: true, created: before(1200)}),
        jobPod('s16', '0-b', {index: 0, created: before(600)}),
        jobPod('s16', '1-a', {index: 1, ready: true}),
      ],
      's16',
    )
    expect(steps(cp)).toEqual(['~fin:0-b', '-pod:0-b', 'W1'])
    expect(written(cp, 1)).toMatchObject({active: 2, ready: 2, terminating: 1})
  })
  it('S7 (J13.2) suspending removes finalizers, deletes every active pod, clears startTime, adds Suspended', () => {
    const cp = planOne([job('s7', {suspend: true, parallelism: 2, completions: 4}, {active: 2, ready: 1, ...started(60)}), jobPod('s7', 'a', {ready: true}), jobPod('s7', 'b', {phase: 'Pending', node: ''})], 's7')
    expect(steps(cp)).toEqual(['~fin:a', '-pod:a', '~fin:b', '-pod:b', 'W1'])
    const w = written(cp, 1)
    expect(w).toMatchObject({active: 0, ready: 0, terminating: 2, failed: 0})
    expect(w.startTime).toBeUndefined()
    expect(conds(w)).toEqual(['Suspended:JobSuspended'])
  })
  it('S23 (J13.1) created suspended: no pods, Suspended=True, no startTime', () => {
    const cp = planOne([job('s23', {suspend: true})], 's23')
    expect(steps(cp)).toEqual(['W1'])
    expect(conds(written(cp, 1))).toEqual(['Suspended:JobSuspended'])
    expect(written(cp, 1).startTime).toBeUndefined()
  })
  it('S22 (J13.3) resuming: Suspended=False (JobResumed), startTime now, pods created', () => {
    const cp = planOne([job('s22', {parallelism: 2, completions: 2}, {conditions: [{type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended'}]})], 's22')
    expect(steps(cp)).toEqual(['+pod:s22-', '+pod:s22-', 'W1'])
    expect(written(cp, 1)).toMatchObject({active: 2, startTime: BATCH_NOW})
    expect(written(cp, 1).conditions[0]).toMatchObject({type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed'})
  })
  it('J13.3 a False Suspended condition with another reason is replaced by JobResumed, and startTime reset', () => {
    const other = {type: 'Suspended', status: 'False', reason: 'Other', message: 'set by hand', lastProbeTime: before(300), lastTransitionTime: before(300)}
    const cp = planOne([job('s22b', {parallelism: 1, completions: 1}, {conditions: [other], ...started(600)})], 's22b')
    expect(written(cp, 1).conditions[0]).toMatchObject({type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed', lastTransitionTime: BATCH_NOW})
    expect(written(cp, 1).startTime).toBe(BATCH_NOW)
    expect(cp.events).toContain('Normal Resumed: Job resumed')
  })
})

describe('J7 index strings', () => {
  it('J7.4 runs of three or more are written a-b, of two a,b', () => {
    expect(formatIndexes(new Set([0, 1, 3, 4, 5, 8]))).toBe('0,1,3-5,8')
    expect(formatIndexes(new Set([0, 1, 2, 3, 5, 7, 8, 9]))).toBe('0-3,5,7-9')
  })
  it('J7.5 parsing merges adjacent parts, clips at completions and stops at a part beyond it', () => {
    expect(parseIndexes('1-3,4,6-7', 10)).toEqual([{first: 1, last: 4}, {first: 6, last: 7}])
    expect([...intervalSet(parseIndexes('0-9,12,3', 5))]).toEqual([0, 1, 2, 3, 4])
    expect(parseIndexes('x,2', 5)).toEqual([{first: 2, last: 2}])
  })
  it('J7.1 an index annotation that is not a non-negative number is invalid', () => {
    const p = (v: string) => ({annotations: {'batch.kubernetes.io/job-completion-index': v}}) as never
    expect([completionIndex(p('3')), completionIndex(p('-1')), completionIndex(p('a'))]).toEqual([3, -1, -1])
  })
})

describe('J3 step 8 claiming pods: adoption, release, manualSelector', () => {
  /** A pod no controller owns, labelled `labels`. */
  const orphan = (name: string, labels: Record<string, string>, s: Parameters<typeof jobPod>[2] = {}) => {
    const p = jobPod('none', name, {finalizer: false, ...s})
    p.metadata.labels = labels
    p.metadata.ownerReferences = []
    return p
  }
  const manual = (name: string, spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}) =>
    job(name, {manualSelector: true, selector: {matchLabels: {app: name}}, parallelism: 2, completions: 2, ...spec}, status)

  it('J3.8 with manualSelector, a matching orphan is adopted (owner reference and tracking finalizer in one patch) and counts as active', () => {
    const cp = planOne([manual('w'), orphan('stray', {app: 'w'})], 'w')
    expect(steps(cp)).toEqual(['adopt', '+pod:w-', 'W1'])
    expect(cp.actions[0]).toEqual({type: 'adopt', pod: 'stray', uid: 'uid-stray', resourceVersion: '1', finalizer: 'batch.kubernetes.io/job-tracking'})
    expect(written(cp, 1)).toMatchObject({active: 2})
  })
  it('J3.8 an adopted orphan that already succeeded is counted, as if it carried the finalizer', () => {
    const cp = planOne([manual('w', {}, {startTime: before(60)}), orphan('done', {app: 'w'}, {phase: 'Succeeded', exit: 0})], 'w')
    expect(steps(cp)).toEqual(['adopt', '+pod:w-', 'W1', '~fin:done', 'W2'])
    expect(written(cp, 2)).toMatchObject({succeeded: 1, active: 1})
  })
  it('J16.2 without manualSelector a selector of one\'s own is extended with the controller-uid: an orphan without it is left alone', () => {
    const cp = planOne([job('own', {selector: {matchLabels: {app: 'own'}}}), orphan('stray', {app: 'own'})], 'own')
    expect(steps(cp)).toEqual(['+pod:own-', 'W1'])
    expect(creates(cp)[0].labels).toMatchObject({app: 'own', 'batch.kubernetes.io/controller-uid': 'uid-own'})
  })
  it('J3.8 an owned pod the selector no longer matches is released (finalizer removed with the reference), not counted, and replaced', () => {
    const pod = jobPod('w', 'relabelled')
    pod.metadata.labels = {app: 'other'}
    const cp = planOne([manual('w', {parallelism: 1, completions: 1}, {active: 1, startTime: before(60)}), pod], 'w')
    // active stays 1 (the released pod out, its replacement in): no status write.
    expect(steps(cp)).toEqual(['release', '+pod:w-'])
    expect(cp.actions[0]).toMatchObject({type: 'release', pod: 'relabelled', finalizer: 'batch.kubernetes.io/job-tracking'})
  })
  it('J3.8 orphans being deleted, or of a Job being deleted, are not adopted; a finished Job claims nothing', () => {
    const deleting = orphan('going', {app: 'w'}, {deleting: {at: before(-30), grace: 30}})
    expect(steps(planOne([manual('w'), deleting], 'w'))).toEqual(['+pod:w-', '+pod:w-', 'W1'])
    expect(planOne([manual('w', {}, {}), orphan('stray', {app: 'w'})].map((o, i) => (i === 0 ? {...o, metadata: {...o.metadata, deletionTimestamp: BATCH_NOW}} : o)), 'w').actions.some((a) => a.type === 'adopt')).toBe(false)
    const finished = manual('w', {}, {conditions: [{type: 'SuccessCriteriaMet', status: 'True'}, {type: 'Complete', status: 'True'}]})
    expect(planOne([finished, orphan('stray', {app: 'w'})], 'w').actions).toEqual([])
  })
})

describe('J15.4 ttlSecondsAfterFinished (the ttl-after-finished controller)', () => {
  const done = (name: string, ttl: number, finishedAgo: number, extra: Record<string, unknown> = {}) =>
    job(name, {ttlSecondsAfterFinished: ttl}, {succeeded: 1, completionTime: before(finishedAgo), conditions: [{type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: before(finishedAgo)}, {type: 'Complete', status: 'True', lastTransitionTime: before(finishedAgo)}]}, extra)

  it('J15.4 past its TTL a finished Job is deleted, propagation Foreground, by the ttl-after-finished controller', () => {
    const cp = planOne([done('old', 60, 100)], 'old')
    expect(cp.actions).toEqual([{type: 'deleteJob', name: 'old', uid: 'uid-old', reason: 'ttl-after-finished', propagationPolicy: 'Foreground', by: 'ttl-after-finished'}])
    expect(cp.ttl).toEqual({expireAt: before(40), seconds: 60})
    expect(cp.inSync).toBe(false)
  })
  it('J15.4 before its TTL nothing happens: the plan says when (the first Complete or Failed condition + TTL)', () => {
    const cp = planOne([done('young', 300, 100)], 'young')
    expect(cp.actions).toEqual([])
    expect(cp.requeue).toEqual({at: before(-200), seconds: 200, reason: 'ttl-after-finished'})
    expect(cp.inSync).toBe(true)
  })
  it('J15.4 the TTL is reached at exactly finish time + TTL', () => {
    expect(steps(planOne([done('edge', 100, 100)], 'edge'))).toEqual(['-job:edge'])
  })
  it('J15.4 a Job finishing in this sync with TTL 0 is deleted right after its final status write', () => {
    const cp = planOne([job('zero', {ttlSecondsAfterFinished: 0}, {startTime: before(60)}), jobPod('zero', 'a', {phase: 'Succeeded', exit: 0})], 'zero')
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2', '-job:zero'])
    expect(cp.ttl).toEqual({expireAt: BATCH_NOW, seconds: 0})
  })
  it('J15.4 a Job already being deleted, or without a TTL, is left alone', () => {
    expect(planOne([done('gone', 0, 100, {deletionTimestamp: BATCH_NOW})], 'gone').actions).toEqual([])
    const cp = planOne([job('kept', {}, {succeeded: 1, conditions: [{type: 'Complete', status: 'True', lastTransitionTime: before(9999)}]})], 'kept')
    expect(cp.actions).toEqual([])
    expect(cp.ttl).toBeUndefined()
  })
})

// Issue 32: the minimal worlds in which the first sync's plan differed from the job controller of
// 1.36.4; each test fails on the old reading.
describe('the first sync, where random Job worlds found kctl and the controller apart', () => {
  const deletes = (cp: ReturnType<typeof planOne>) => cp.actions.filter((a) => a.type === 'deleteJobPod')
  it('J5.6 (deleteJobPods) an excess pod without the tracking finalizer is deleted with no finalizer patch', () => {
    const cp = planOne(
      [job('nofin', {parallelism: 1}, {active: 2, ready: 1, ...started(600)}), jobPod('nofin', 'kept', {ready: true}), jobPod('nofin', 'bare', {finalizer: false})],
      'nofin',
    )
    expect(steps(cp)).toEqual(['-pod:bare', 'W1'])
    expect(deletes(cp)).toMatchObject([{pod: 'bare', reason: 'excess', finalizerRemovedFirst: false}])
    expect(written(cp, 1)).toMatchObject({active: 1, terminating: 1})
  })
  it('J5.6 suspending: only the pods that carry the finalizer get the patch before their delete', () => {
    const cp = planOne([job('nofin2', {suspend: true, parallelism: 2, completions: 2}, {active: 2, ...started(60)}), jobPod('nofin2', 'a'), jobPod('nofin2', 'b', {finalizer: false})], 'nofin2')
    expect(steps(cp)).toEqual(['~fin:a', '-pod:a', '-pod:b', 'W1'])
  })
  it('J13.2 a Job already suspended keeps its startTime: it is cleared only when Suspended=True is newly set', () => {
    const suspended = {type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: before(300), lastTransitionTime: before(300)}
    const cp = planOne([job('still', {suspend: true}, {conditions: [suspended], ...started(600)})], 'still')
    expect(steps(cp)).toEqual([])
    expect(cp.status).toMatchObject({startTime: before(600)})
  })
  it('J5.1 a pod deleted in a sync that then completes the Job gets a second finalizer patch (the walk sees it as listed)', () => {
    const cp = planOne(
      [job('fin2', {completions: 1, parallelism: 2}, {active: 1, ...started(600)}), jobPod('fin2', 'done', {phase: 'Succeeded', exit: 0, finishedAgo: 5}), jobPod('fin2', 'extra')],
      'fin2',
    )
    expect(steps(cp)).toEqual(['~fin:extra', '-pod:extra', 'W1', '~fin:done', '~fin:extra', 'W2'])
    expect(finalizers(cp).map((a) => [a.pod, a.counts])).toEqual([
      ['extra', 'none'],
      ['done', 'succeeded'],
      ['extra', 'none'],
    ])
    expect(conds(written(cp, 1))).toEqual(['SuccessCriteriaMet:CompletionsReached'])
    expect(written(cp, 2)).toMatchObject({succeeded: 1, terminating: 1, uncountedTerminatedPods: {succeeded: [], failed: []}})
  })
  it('J10.4 the held-back pods are chosen before manageJob: a failed pod whose index was active is counted even when that pod is deleted', () => {
    const cp = planOne(
      [
        job('hold', {completionMode: 'Indexed', completions: 2, parallelism: 1, backoffLimitPerIndex: 1}, {active: 2, ready: 1, failedIndexes: '', ...started(600)}),
        jobPod('hold', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 30, index: 0, failureCount: 0}),
        jobPod('hold', '0-b', {index: 0, failureCount: 1}),
        jobPod('hold', '1-a', {index: 1, ready: true}),
      ],
      'hold',
    )
    expect(steps(cp)).toEqual(['~fin:0-b', '-pod:0-b', 'W1', '~fin:0-a', 'W2'])
    expect(finalizers(cp).at(-1)).toMatchObject({pod: '0-a', counts: 'failed'})
    expect(written(cp, 2)).toMatchObject({failed: 1, active: 1, failedIndexes: ''})
  })
  it('J5.1 a held-back pod loses its finalizer as soon as an outcome is pending (canRemoveFinalizer)', () => {
    const cp = planOne(
      [
        job('late', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 1, activeDeadlineSeconds: 30}, {active: 1, failedIndexes: '', ...started(60)}),
        jobPod('late', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 5, index: 0, failureCount: 0}),
        jobPod('late', '1-a', {index: 1}),
      ],
      'late',
    )
    expect(steps(cp)).toEqual(['-pod:1-a', 'W1', '~fin:0-a', '~fin:1-a', 'W2'])
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:DeadlineExceeded'])
    expect(written(cp, 2)).toMatchObject({failed: 2})
  })
  it('J10.5 an index in its backoff is not replaced by a later one: nothing is created, the Job waits for it', () => {
    const cp = planOne(
      [job('wait', {completionMode: 'Indexed', completions: 3, parallelism: 1, backoffLimitPerIndex: 2}, {failedIndexes: '', ...started(600)}), jobPod('wait', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 2, index: 0, failureCount: 0})],
      'wait',
    )
    expect(creates(cp)).toEqual([])
    expect(cp.requeue).toMatchObject({seconds: 8, reason: 'backoff-per-index'})
    expect(cp.pending).toBe(1)
  })
  it('J10.5 of the first pending indexes, those out of backoff are created and the one in backoff waits', () => {
    const cp = planOne(
      [job('wait2', {completionMode: 'Indexed', completions: 3, parallelism: 2, backoffLimitPerIndex: 2}, {failedIndexes: '', ...started(600)}), jobPod('wait2', '0-a', {phase: 'Failed', exit: 1, finishedAgo: 2, index: 0, failureCount: 0})],
      'wait2',
    )
    expect(creates(cp).map((c) => c.index)).toEqual([1])
    expect(cp.requeue).toBeUndefined()
  })
  it('J8.6 OnFailure: restarts of a terminating pod count against backoffLimit', () => {
    const j = job('rst', {backoffLimit: 3}, {active: 1, ...started(60)})
    j.spec.template.spec.restartPolicy = 'OnFailure'
    const cp = planOne([j, jobPod('rst', 'a', {restarts: 1}), jobPod('rst', 'b', {restarts: 2, deleting: {at: before(-30), grace: 30}})], 'rst')
    expect(conds(written(cp, 1))).toEqual(['FailureTarget:BackoffLimitExceeded'])
    expect(steps(cp)).toEqual(['-pod:a', 'W1', '~fin:a', '~fin:b', 'W2'])
  })
  it('J6.4 a deletion tie of three pods names all three and says how many of them go', () => {
    const cp = planOne([job('tie3', {parallelism: 1}, {active: 3, ...started(600)}), jobPod('tie3', 'p'), jobPod('tie3', 'q'), jobPod('tie3', 'r')], 'tie3')
    expect(deletes(cp)).toHaveLength(2)
    expect(cp.ties).toEqual([{id: 1, pods: [...deletes(cp).map((a) => (a as {pod: string}).pod), expect.any(String)], delete: 2}])
    expect(new Set(cp.ties![0].pods)).toEqual(new Set(['p', 'q', 'r']))
    expect(cp.warnings.join('\n')).toMatch(/pods p, q and r tie .* it deletes 2 of them/)
  })
  it('J10.4 two failed pods of an index with the same failure count and finish time: the held-back pod is a choice, both named', () => {
    const cp = planOne(
      [
        job('twin', {completionMode: 'Indexed', completions: 1, parallelism: 1, backoffLimitPerIndex: 3}, {failedIndexes: '', ...started(600)}),
        jobPod('twin', 'x', {phase: 'Failed', exit: 1, finishedAgo: 30, index: 0, failureCount: 1}),
        jobPod('twin', 'y', {phase: 'Failed', exit: 1, finishedAgo: 30, index: 0, failureCount: 1}),
      ],
      'twin',
    )
    expect(cp.warnings.join('\n')).toMatch(/failed pods x and y of index 0 tie .* this plan keeps [xy]/)
    expect(cp.choices).toEqual([{what: 'failed pod of index 0 kept with its finalizer', chosen: expect.stringMatching(/^[xy]$/), options: ['x', 'y']}])
    // One of them keeps its finalizer, the other is counted; the replacement carries failure-count 2 either way.
    expect(finalizers(cp)).toHaveLength(1)
    expect(creates(cp)[0].annotations['batch.kubernetes.io/job-index-failure-count']).toBe('2')
  })
})

// Minimal worlds of the random Job oracle (test/e2e/job-random.e2e.test.ts) where kctl and the job
// controller once differed.
describe('random Job worlds', () => {
  it('J7/J10 (calculateSucceededIndexes) an Indexed Job counts the index of a succeeded pod with its finalizer even when its UID is listed as uncounted', () => {
    const cp = planOne(
      [job('ru', {completionMode: 'Indexed', completions: 1, parallelism: 1}, {uncountedTerminatedPods: {succeeded: ['uid-a']}, ...started(60)}), jobPod('ru', 'a', {phase: 'Succeeded', exit: 0, index: 0})],
      'ru',
    )
    expect(steps(cp)).toEqual(['W1', '~fin:a', 'W2'])
    expect(written(cp, 1)).toMatchObject({completedIndexes: '0', succeeded: 1, uncountedTerminatedPods: {succeeded: ['uid-a'], failed: []}})
    expect(conds(written(cp, 1))).toEqual(['SuccessCriteriaMet:CompletionsReached'])
    // The UID leaves uncountedTerminatedPods with its finalizer, and counts once more.
    expect(written(cp, 2)).toMatchObject({succeeded: 2, uncountedTerminatedPods: {succeeded: [], failed: []}})
    expect(conds(written(cp, 2))).toEqual(['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached'])
  })
  it('J10 (calculateFailedIndexes) a failed pod with its finalizer fails its index even when its UID is listed as uncounted', () => {
    const cp = planOne(
      [
        job('rf', {completionMode: 'Indexed', completions: 2, parallelism: 1, backoffLimitPerIndex: 0}, {active: 1, uncountedTerminatedPods: {failed: ['uid-a']}, ...started(60)}),
        jobPod('rf', 'a', {phase: 'Failed', exit: 1, finishedAgo: 1800, index: 1, failureCount: 0}),
        jobPod('rf', 'b', {index: 0}),
      ],
      'rf',
    )
    expect(written(cp, 1)).toMatchObject({failedIndexes: '1', uncountedTerminatedPods: {succeeded: [], failed: ['uid-a']}})
    expect(written(cp, 2)).toMatchObject({failedIndexes: '1', failed: 1})
  })
  it('J9.5 (getFailJobMessage) with two pods matching FailJob rules, the message the controller writes is a choice the plan names', () => {
    const policy = {rules: [{action: 'FailJob', onExitCodes: {operator: 'In', values: [42]}}]}
    const cp = planOne([job('rc', {parallelism: 2, completions: 2, podFailurePolicy: policy}, {...started(60)}), jobPod('rc', 'a', {phase: 'Failed', exit: 42}), jobPod('rc', 'b', {phase: 'Failed', exit: 42})], 'rc')
    const message = (pod: string) => `Container main for pod ns/${pod} failed with exit code 42 matching FailJob rule at index 0`
    expect(cp.choices).toEqual([{what: 'FailureTarget message', chosen: message('a'), options: [message('a'), message('b')]}])
    expect(written(cp, 1).conditions[0].message).toBe(message('a'))
    expect(cp.warnings.join(' ')).toMatch(/2 failed pods match a FailJob rule/)
  })
  it('J9.5 one pod matching a FailJob rule is no choice', () => {
    const policy = {rules: [{action: 'FailJob', onExitCodes: {operator: 'In', values: [42]}}]}
    const cp = planOne([job('r1', {parallelism: 2, completions: 2, podFailurePolicy: policy}, {...started(60)}), jobPod('r1', 'a', {phase: 'Failed', exit: 42}), jobPod('r1', 'b', {phase: 'Failed', exit: 1})], 'r1')
    expect(cp.choices).toBeUndefined()
  })
})

describe('J6.3 a duplicate index whose pods tie', () => {
  it('two pods of one index ranked equal: which one stays is not decided, both named in a tie', () => {
    const at = before(600)
    const cp = planOne(
      [job('dt', {completionMode: 'Indexed', completions: 2, parallelism: 2}, {active: 3, ...started(60)}), jobPod('dt', 'a', {index: 0, created: at}), jobPod('dt', 'b', {index: 0, created: at}), jobPod('dt', 'c', {index: 1})],
      'dt',
    )
    expect(cp.actions.filter((a) => a.type === 'deleteJobPod').map((a) => a.pod)).toEqual(['a'])
    expect(cp.ties).toEqual([{id: 1, pods: ['a', 'b'], delete: 1}])
    expect(cp.warnings.join(' ')).toMatch(/pods a and b of index 0 tie in the controller's ranking/)
  })
  it('two pods of one index ranked apart: no tie', () => {
    const cp = planOne(
      [job('dn', {completionMode: 'Indexed', completions: 1, parallelism: 1}, {active: 2, ...started(60)}), jobPod('dn', 'a', {index: 0, created: before(1200)}), jobPod('dn', 'b', {index: 0, created: before(600)})],
      'dn',
    )
    expect(cp.actions.filter((a) => a.type === 'deleteJobPod').map((a) => a.pod)).toEqual(['b'])
    expect(cp.ties).toBeUndefined()
  })
})

describe('status writes the API server refuses (random Job worlds)', () => {
  it('a suspended Job with no startTime that completes: write 2 is refused (startTime is required for finished job), the sync is retried', () => {
    const cp = planOne([job('rs', {suspend: true, completions: 1, parallelism: 1}), jobPod('rs', 'a', {phase: 'Succeeded', exit: 0})], 'rs')
    expect(steps(cp)).toEqual(['W1', '~fin:a'])
    expect(conds(written(cp, 1))).toEqual(['SuccessCriteriaMet:CompletionsReached'])
    expect(cp.requeue).toMatchObject({reason: 'sync-error', seconds: 1})
    expect(cp.warnings.join(' ')).toMatch(/refuses this sync's status write \(startTime is required for finished job\)/)
    expect(cp.events ?? []).not.toContain('Normal Completed: Job completed')
  })
  it('suspended with completions 0 it may finish without startTime', () => {
    const cp = planOne([job('rz', {suspend: true, completions: 0, parallelism: 1})], 'rz')
    expect(conds(cp.status as Record<string, any>)).toContain('Complete:CompletionsReached')
    expect(cp.requeue).toBeUndefined()
  })
  it('an index both succeeded and failed: write 1 is refused (failedIndexes overlap completedIndexes), so no finalizer is removed', () => {
    const cp = planOne(
      [
        job('ro', {completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 0}, {...started(60)}),
        jobPod('ro', 'a', {phase: 'Failed', exit: 1, finishedAgo: 1800, index: 0, failureCount: 0}),
        jobPod('ro', 'b', {phase: 'Succeeded', exit: 0, index: 0}),
        jobPod('ro', 'c', {index: 1}),
      ],
      'ro',
    )
    // Index 0 failed and succeeded covers completions with index 1: the Job fails (its running pod deleted first), but the write is refused.
    expect(steps(cp)).toEqual(['-pod:c'])
    expect(cp.requeue).toMatchObject({reason: 'sync-error'})
    expect(cp.warnings.join(' ')).toMatch(/failedIndexes and completedIndexes both hold index 0/)
  })
})
