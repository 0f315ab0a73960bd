// The Job controller's pod fields (PodView.batch: of a Job's pods and of the orphans a Job may
// adopt) are read from files only in a world that may hold a Job, wherever the Job is in the input
// (before or after the pods, in a later file, its kind spelt with an escape); without one, no pod
// carries them.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import type {Snapshot} from '../../../src/model/objects.js'
import {readFixtures} from '../../../src/sources/fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-job-pod-fields-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

let n = 0
function file(text: string, ext = 'yaml'): string {
  const path = join(tmp, `f${n++}.${ext}`)
  writeFileSync(path, text)
  return path
}

const POD = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name, namespace: 'batch', labels: {app: 'work'}, finalizers: ['batch.kubernetes.io/job-tracking']},
  spec: {containers: [{name: 'main', image: 'busybox'}], restartPolicy: 'Never'},
  status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-20T08:00:40Z'}]},
})
const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {name: 'work', namespace: 'batch', uid: 'job-uid'},
  spec: {selector: {matchLabels: {app: 'work'}}, manualSelector: true, template: {metadata: {labels: {app: 'work'}}, spec: {containers: [{name: 'main', image: 'busybox'}], restartPolicy: 'Never'}}},
}
const list = (items: object[]) => JSON.stringify({apiVersion: 'v1', kind: 'List', items})
const batchOf = (s: Snapshot) => s.pods.map((p) => p.batch)

describe("the Job controller's pod fields", () => {
  it('are not read in a world without a Job', async () => {
    const s = await readFixtures({paths: [file(list([POD('a'), POD('b')]), 'json')]})
    expect(s.pods).toHaveLength(2)
    expect(s.pods.every((p) => !('batch' in p))).toBe(true)
  })

  it('are read for orphans whether the Job comes before or after them, or in a later file', async () => {
    const before = await readFixtures({paths: [file(list([JOB, POD('a'), POD('b')]), 'json')]})
    expect(batchOf(before).every((b) => b !== undefined && b.finalizers.length === 1)).toBe(true)
    const after = await readFixtures({paths: [file(list([POD('a'), POD('b'), JOB]), 'json')]})
    const later = await readFixtures({paths: [file(list([POD('a'), POD('b')]), 'json'), file(list([JOB]), 'json')]})
    expect(batchOf(after)).toEqual(batchOf(before))
    expect(batchOf(later)).toEqual(batchOf(before))
  })

  it('are read when the Job kind is spelt with an escape the text scan does not see', async () => {
    const escaped = list([POD('a'), JOB]).replace('"kind":"Job"', '"kind":"J\\u006fb"')
    expect(escaped).not.toContain('Job')
    const s = await readFixtures({paths: [file(escaped, 'json')]})
    expect(s.jobs).toHaveLength(1)
    expect(batchOf(s)[0]?.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
  })
})
