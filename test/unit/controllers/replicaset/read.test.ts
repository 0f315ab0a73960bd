// The ReplicaSet controller's read part (src/controllers/replicaset/read.ts): ReplicaSets and
// ReplicationControllers defaulted as the API server stores them, RCs in the ReplicaSet shape.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {readFixtures, type FixtureOptions} from '../../../../src/sources/fixtures.js'

const FX = 'test/fixtures/sources'
const tmp = mkdtempSync(join(tmpdir(), 'kctl-read-rs-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const read = (paths: string[], opts: Partial<FixtureOptions> = {}) => readFixtures({paths, ...opts})

function fixture(name: string, text: string): string {
  const file = join(tmp, name)
  writeFileSync(file, text)
  return file
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('defaulting, as the API server does it', () => {
  it('ReplicaSet: replicas 1, minReadySeconds 0, namespace default, status zeros, generation 1', async () => {
    const snap = await read([`${FX}/list.yaml`])
    const [rs] = snap.workloads
    expect(rs).toMatchObject({
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      namespace: 'default',
      name: 'nested-rs',
      resourceVersion: '',
      generation: 1,
      replicas: 1,
      minReadySeconds: 0,
      selector: {matchLabels: {app: 'x'}},
      labels: {},
      annotations: {},
      ownerReferences: [],
      template: {labels: {}, annotations: {}, finalizers: [], spec: {}},
      status: {replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0, conditions: []},
    })
    expect(rs.uid).toMatch(UUID)
    expect(rs.creationTimestamp).toBeUndefined()
    expect(rs.status.terminatingReplicas).toBeUndefined()
  })

  it('ReplicationController: selector and labels from the template, replicas 1, the ReplicaSet shape', async () => {
    const snap = await read([`${FX}/rc.yaml`])
    expect(snap.workloads).toHaveLength(1)
    const [rc] = snap.workloads
    expect(rc).toMatchObject({
      kind: 'ReplicationController',
      apiVersion: 'v1',
      name: 'legacy',
      replicas: 1,
      selector: {matchLabels: {app: 'legacy', tier: 'db'}},
      selectorDefaulted: true,
      labels: {app: 'legacy', tier: 'db'},
      template: {labels: {app: 'legacy', tier: 'db'}, spec: {containers: [{name: 'db', image: 'postgres'}]}},
    })
    expect(snap.replicaSets).toEqual([]) // only ReplicaSets there
  })

  it('ReplicationController: an explicit selector and labels are kept', async () => {
    const file = fixture('rc2.yaml', 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: r, labels: {own: "1"}}\nspec:\n  replicas: 0\n  selector: {app: r}\n  template:\n    metadata: {labels: {app: r, extra: x}}\n')
    const [rc] = (await read([file])).workloads
    expect(rc.selector).toEqual({matchLabels: {app: 'r'}})
    expect(rc.selectorDefaulted).toBeUndefined()
    expect(rc.labels).toEqual({own: '1'})
    expect(rc.replicas).toBe(0)
  })
})
