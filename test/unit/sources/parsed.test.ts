// Objects already parsed (a live cluster's lists) read with positions written only when one is asked
// for: the same snapshot, the same error lines and origins as writing the List document up front.
import {describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import type {Snapshot} from '../../../src/model/objects.js'
import type {RawObject} from '../../../src/sources/documents.js'
import type {NormalizeOptions} from '../../../src/sources/normalize.js'
import {normalizeParsed} from '../../../src/sources/parsed.js'
import {serverPod, serverReplicaSet} from '../../helpers/server-objects.js'

const OPTIONS: NormalizeOptions = {paths: [], allNamespaces: true, serverDefaulted: true}
const NAME = 'cluster:test'

const replicaSet = (i: number): RawObject => ({apiVersion: 'apps/v1', kind: 'ReplicaSet', ...serverReplicaSet(i)})
const pod = (i: number): RawObject => ({apiVersion: 'v1', kind: 'Pod', ...serverPod(i)})

/** `n` ReplicaSets and a pod each; then `spoil` applied to the objects. */
function world(n: number, spoil: (objects: RawObject[]) => void = () => {}): RawObject[] {
  const objects: RawObject[] = []
  for (let i = 0; i < n; i++) objects.push(replicaSet(i))
  for (let i = 0; i < n; i++) objects.push(pod(i))
  spoil(objects)
  return objects
}

/** The objects read with the List written up front, and lazily (counting how often they are read again). */
function both(make: () => RawObject[]): {eager: () => Snapshot; lazy: () => Snapshot; rereads: () => number} {
  let rereads = 0
  return {
    eager: () => normalizeParsed(NAME, make(), OPTIONS),
    lazy: () =>
      normalizeParsed(NAME, make(), OPTIONS, () => {
        rereads++
        return make()
      }),
    rereads: () => rereads,
  }
}

function errorLine(read: () => unknown): string {
  try {
    read()
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}

// 2 objects fit in one small List (read whole); 300 make one over 64 KiB (cut into items).
describe.each([2, 300])('objects already parsed, %i ReplicaSets and their pods', (n) => {
  it('without a problem: the same snapshot, and the objects are never read again', () => {
    const {eager, lazy, rereads} = both(() => world(n))
    const a = lazy()
    expect(rereads()).toBe(0)
    const b = eager()
    expect(a.pods.length).toBe(n)
    expect(a.replicaSets.length).toBe(n)
    expect(JSON.stringify({...a, source: undefined})).toBe(JSON.stringify({...b, source: undefined}))
  })

  it('origins asked of the views are those of the written List, which is read again once', () => {
    const {eager, lazy, rereads} = both(() => world(n))
    const a = lazy()
    const b = eager()
    const last = n - 1
    expect(a.pods[last].origin).toEqual(b.pods[last].origin)
    expect(a.replicaSets[0].origin).toEqual(b.replicaSets[0].origin)
    expect(a.replicaSets[last].origin).toEqual(b.replicaSets[last].origin)
    expect(a.pods[last].origin.file).toBe(NAME)
    expect(rereads()).toBe(1)
  })

  it.each<[string, (objects: RawObject[]) => void, RegExp]>([
    ['a bad field of the last ReplicaSet', (o) => ((o[n - 1].spec as RawObject).replicas = 'three'), /spec\.replicas: expected a non-negative integer, got "three"$/],
    ['a bad label on the last pod', (o) => (((o[2 * n - 1].metadata as RawObject).labels as RawObject).canary = true), /metadata\.labels\.canary: expected a string, got true/],
    ['a ReplicaSet without a selector', (o) => delete (o[0].spec as RawObject).selector, /spec: .*|spec\.selector: a selector is required/],
    ['a pod without kind (read as the List reader reads it)', (o) => delete o[n].kind, /object has no kind/],
  ])('%s: the same error line, naming the List position', (_, spoil, message) => {
    const {eager, lazy} = both(() => world(n, spoil))
    const line = errorLine(lazy)
    expect(line).toBe(errorLine(eager))
    expect(line).toMatch(new RegExp(`^${NAME}:\\d+:\\d+: `))
    expect(line).toMatch(message)
  })
})

it('a duplicate (whose replacement names both positions): the same snapshot and origins', () => {
  const {eager, lazy, rereads} = both(() => [...world(150), replicaSet(3)])
  const a = lazy()
  expect(rereads()).toBe(1)
  const b = eager()
  expect(JSON.stringify({...a, source: undefined})).toBe(JSON.stringify({...b, source: undefined}))
  expect(a.replicaSets.map((r) => r.origin)).toEqual(b.replicaSets.map((r) => r.origin))
})
