// CronJobs in the event loop: the CronJob controller's planner and the executor run forward with
// the kubelet model; its Jobs run as the Job controller's simulation runs them.
import {describe, expect, it} from 'vitest'
import {formatRfc3339} from '../../../../src/reconcile/time.js'
import {at, simulateYaml} from '../../simulate/batch.js'

describe('the loop with CronJobs', () => {
  it('a CronJob every minute with Forbid: a run due while a Job runs waits for it (the latest one starts late, older ones never); the history limit deletes the oldest', async () => {
    const r = await simulateYaml(
      `apiVersion: batch/v1
kind: CronJob
metadata: {name: tick, namespace: default, uid: 00000000-0000-4000-8000-0000000000c1, resourceVersion: "1", creationTimestamp: "2026-11-22T09:58:30Z"}
spec:
  schedule: "* * * * *"
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 1
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`,
      {runFor: 80, untilSeconds: 300},
    )
    const cj = r.cronJobs[0]
    const minute = (m: number) => `tick-${29922360 + m}`
    // Each Job runs 90s (Ready after 10s, then 80s): the next one starts when it ends, if a schedule time is due by then.
    expect(cj.runs.map((x) => [x.offsetSeconds, x.job])).toEqual([[0, minute(0)], [90, minute(1)], [180, minute(3)], [270, minute(4)]])
    expect(cj.skipped.map((x) => [x.offsetSeconds, x.scheduledTime, x.startedAs?.job ?? null])).toEqual([
      [60.1, formatRfc3339(at(60)), minute(1)],
      [120.1, formatRfc3339(at(120)), null],
      [240.1, formatRfc3339(at(240)), minute(4)],
    ])
    expect(cj.deleted.map((x) => [x.offsetSeconds, x.job, x.reason])).toEqual([[180, minute(0), 'history-limit'], [270, minute(1), 'history-limit']])
    // The chain: the Job's steps name their CronJob.
    expect(r.steps.find((s) => s.controller.kind === 'Job')?.cronJob).toBe('tick')
    expect(r.endedBy).toBe('until')
  })
})
