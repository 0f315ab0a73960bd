// The in-memory world's patches remove a terminating pod whose last finalizer they take off once its
// grace period is over, as the API server's update does — the Job's finalizer-only patch and the
// release that takes the tracking finalizer off in the same owner patch alike.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {releasePatch} from '../../../src/apply/pod-control.js'
import {fixtureWorld} from '../../../src/services/reconcile.js'

const JOB_UID = '00000000-0000-4000-8000-0000000000aa'
const POD_UID = '00000000-0000-4000-8000-0000000000bb'
const FINALIZER = 'batch.kubernetes.io/job-tracking'

/** A pod of Job `work`, terminating since `deletionTimestamp` (its grace period ends then), with the tracking finalizer. */
function world(deletionTimestamp: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: work-abc
  namespace: default
  uid: ${POD_UID}
  resourceVersion: "7"
  deletionTimestamp: "${deletionTimestamp}"
  deletionGracePeriodSeconds: 30
  finalizers: [${FINALIZER}]
  labels: {app: other}
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: work, uid: ${JOB_UID}, controller: true, blockOwnerDeletion: true}]
spec: {containers: [{name: c, image: busybox}]}
status: {phase: Running}
`
}

async function open(yaml: string, now: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-memory-'))
  writeFileSync(join(dir, 'world.yaml'), yaml)
  const {memory} = await fixtureWorld({filename: [dir]}, () => now, {gracefulPodDeletion: true})
  return memory
}

describe('a release that takes the last finalizer off a terminating pod', () => {
  it('removes the pod once its grace period is over', async () => {
    const memory = await open(world('2026-11-22T10:00:00Z'), '2026-11-22T10:00:05Z')
    await memory.control(false).patchPod('default', 'work-abc', releasePatch(POD_UID, JOB_UID, FINALIZER))
    expect(memory.find('Pod', 'default', 'work-abc')).toBeUndefined()
  })

  it('keeps the pod, released and without the finalizer, while its grace period runs', async () => {
    const memory = await open(world('2026-11-22T10:00:30Z'), '2026-11-22T10:00:05Z')
    await memory.control(false).patchPod('default', 'work-abc', releasePatch(POD_UID, JOB_UID, FINALIZER))
    const pod = memory.find('Pod', 'default', 'work-abc')?.object as Record<string, any>
    expect(pod.metadata.finalizers).toBeUndefined()
    expect(pod.metadata.ownerReferences).toBeUndefined()
  })

  it('removes the pod at once when its deletion was confirmed with a grace period of 0', async () => {
    const memory = await open(world('2026-11-22T10:00:30Z').replace('deletionGracePeriodSeconds: 30', 'deletionGracePeriodSeconds: 0'), '2026-11-22T10:00:05Z')
    await memory.control(false).patchPod('default', 'work-abc', releasePatch(POD_UID, JOB_UID, FINALIZER))
    expect(memory.find('Pod', 'default', 'work-abc')).toBeUndefined()
  })
})
