// Jobs in the simulation: the kubelet model of a Job's pod (runs to its end), and the event loop
// waking for Job backoffs and active deadlines. (CronJobs: ../cronjob/simulate.test.ts.)
import {describe, expect, it} from 'vitest'
import {formatRfc3339, seconds} from '../../../../src/reconcile/time.js'
import {kubeletAt, kubeletWakeAt, type KubeletModel} from '../../../../src/simulate/kubelet.js'
import type {LoopResult} from '../../../../src/simulate/loop.js'
import {at, simulateYaml, T0} from '../../simulate/batch.js'

const model: KubeletModel = {start: T0, readyAfter: seconds(10), fail: [], runFor: seconds(30)}
type Obj = Record<string, any>

const jobPod = (annotations: Record<string, string> = {}, owner = 'work'): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'p', namespace: 'default', creationTimestamp: formatRfc3339(at(0)), annotations, ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: owner, uid: 'u', controller: true}]},
  spec: {restartPolicy: 'Never', containers: [{name: 'c', image: 'busybox'}]},
})

/** The pod after the model acted at each of `times` in turn. */
function follow(pod: Obj, times: number[], m = model): Obj {
  let p = pod
  for (const t of times) p = kubeletAt(p, at(t), m) ?? p
  return p
}

describe('the kubelet model of a Job\'s pod', () => {
  it('runs it: bound and Running at once, Ready after readyAfter, Succeeded runFor later with exit code 0', () => {
    const ready = follow(jobPod(), [0, 10])
    expect(ready.status.phase).toBe('Running')
    expect(kubeletWakeAt(ready, at(10), model, 0)).toBe(at(40))
    expect(kubeletAt(ready, at(39), model)).toBeUndefined()
    const done = kubeletAt(ready, at(40), model)!
    expect(done.status.phase).toBe('Succeeded')
    expect(done.status.containerStatuses[0].state.terminated).toMatchObject({exitCode: 0, reason: 'Completed', finishedAt: formatRfc3339(at(40))})
    expect(done.status.conditions.find((c: Obj) => c.type === 'Ready')).toMatchObject({status: 'False', reason: 'PodCompleted'})
    expect(kubeletWakeAt(done, at(40), model, 0)).toBeUndefined()
  })

  it('the pod\'s stage annotations win: complete-after and exit-code, as the kwok stages read them', () => {
    const done = follow(jobPod({'stage.kctl.io/complete-after': '3s', 'stage.kctl.io/exit-code': '2'}), [0, 10, 13])
    expect(done.status.phase).toBe('Failed')
    expect(done.status.containerStatuses[0].state.terminated.exitCode).toBe(2)
  })

  it('--fail makes a Job\'s pods exit 1 (by image or by the Job\'s name) instead of never becoming Ready', () => {
    expect(follow(jobPod(), [0, 10, 40], {...model, fail: ['busybox']}).status.phase).toBe('Failed')
    expect(follow(jobPod({}, 'work'), [0, 10, 40], {...model, fail: ['work']}).status.phase).toBe('Failed')
    expect(follow(jobPod({}, 'other'), [0, 10, 40], {...model, fail: ['work']}).status.phase).toBe('Succeeded')
  })

  it('leaves other pods running', () => {
    const p = {...jobPod(), metadata: {...jobPod().metadata, ownerReferences: [{kind: 'ReplicaSet', name: 'rs', uid: 'r', controller: true}]}}
    expect(follow(p, [0, 10, 40, 100]).status.phase).toBe('Running')
  })
})

const job = (name: string, spec: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: ${name}, namespace: default, uid: 00000000-0000-4000-8000-00000000${name.length.toString().padStart(4, '0')}, resourceVersion: "1", creationTimestamp: "2026-11-22T10:00:00Z"}
spec:
  ${spec}
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`

const waves = (r: LoopResult, name: string) => r.jobs.find((j) => j.name === name)!.waves.map((w) => [w.offsetSeconds, w.created])
const conditions = (r: LoopResult, name: string) => r.jobs.find((j) => j.name === name)!.final.conditions.map((c) => `${c.type}:${c.reason}`)

describe('the loop with Jobs', () => {
  it('a Job of completions 3, parallelism 2: pods in waves of 2 then 1, Complete when the last ends', async () => {
    const r = await simulateYaml(job('work', 'completions: 3\n  parallelism: 2'))
    expect(waves(r, 'work')).toEqual([[0, 2], [20, 1]])
    const j = r.jobs[0]
    expect(j.final).toMatchObject({active: 0, succeeded: 3, failed: 0, completionTime: formatRfc3339(at(40))})
    expect(conditions(r, 'work')).toEqual(['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached'])
    expect(r.endedBy).toBe('quiet')
    expect(r.end).toBe(at(40))
  })

  it('wakes for the backoff delay: each replacement of a failing pod waits 10s, 20s … after the failure', async () => {
    const r = await simulateYaml(job('flaky', 'backoffLimit: 2'), {fail: ['flaky']})
    expect(waves(r, 'flaky')).toEqual([[0, 1], [30, 1], [70, 1]])
    expect(conditions(r, 'flaky')).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded'])
    expect(r.jobs[0].final.failed).toBe(3)
  })

  it('wakes at activeDeadlineSeconds: the running pods are deleted and the Job fails', async () => {
    const r = await simulateYaml(job('slow', 'activeDeadlineSeconds: 15'), {runFor: 60})
    const at15 = r.steps.filter((s) => s.offsetSeconds === 15).flatMap((s) => s.actions.map((a) => a.type))
    expect(at15).toContain('deleteJobPod')
    expect(conditions(r, 'slow')).toEqual(['FailureTarget:DeadlineExceeded', 'Failed:DeadlineExceeded'])
  })
})
