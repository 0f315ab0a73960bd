// snapshotReader (the simulation's snapshots, each object read once) against reading the whole
// List every time (normalizeParsed): the same Snapshot, or the same error, for the example worlds
// as a simulation changes them round after round, and for seeded random edits of them (objects
// replaced, removed, added, copied, moved, broken).
import {readdirSync} from 'node:fs'
import {join} from 'node:path'
import {isDeepStrictEqual} from 'node:util'

import {describe, expect, it} from 'vitest'

import type {RawObject} from '../../../src/apply/memory-world.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {formatRfc3339, parseRfc3339, seconds} from '../../../src/reconcile/time.js'
import {fixtureWorld} from '../../../src/services/reconcile.js'
import {runLoop} from '../../../src/simulate/loop.js'
import type {NormalizeOptions} from '../../../src/sources/normalize.js'
import {normalizeParsed, snapshotReader} from '../../../src/sources/parsed.js'
import {SeededRandom} from '../../../src/apply/names.js'

const EXAMPLES = join(import.meta.dirname, '../../../examples')
const examples = readdirSync(EXAMPLES, {withFileTypes: true})
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()
const START = parseRfc3339('2026-11-22T10:00:00Z')!
const options = (dir: string): NormalizeOptions => ({paths: [dir]})

/** The Snapshot, or the error's message: what reading gives. */
function outcome(read: () => unknown): unknown {
  try {
    return {snapshot: read()}
  } catch (error) {
    return {error: (error as Error).message}
  }
}

function same(objects: RawObject[], reader: (objects: RawObject[]) => unknown, opts: NormalizeOptions, what: string): void {
  const got = outcome(() => reader(objects))
  const want = outcome(() => normalizeParsed('fixtures', objects, opts))
  if (!isDeepStrictEqual(got, want)) expect(got, what).toEqual(want)
}

describe('snapshotReader', () => {
  it.each(examples)('reads each snapshot of a simulation of examples/%s as the whole List is read', async (name) => {
    const dir = join(EXAMPLES, name)
    const clock = {now: START}
    const {memory} = await fixtureWorld({filename: [dir]}, () => formatRfc3339(clock.now), {gracefulPodDeletion: true})
    const reader = snapshotReader('fixtures', options(dir))
    let views = 0
    const snapshot = memory.snapshot.bind(memory)
    memory.snapshot = () => {
      same(memory.objects(), reader, options(dir), `examples/${name}, view ${views++}`)
      return snapshot()
    }
    await runLoop(memory, {clock, featureGates: {...DEFAULT_FEATURE_GATES}, until: START + seconds(600), kubelet: {start: START, readyAfter: seconds(10), fail: []}})
    expect(views).toBeGreaterThan(0)
  })

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads seeded random edits of the example worlds as the whole List is read (seed %i)', async (seed) => {
    const random = new SeededRandom(`snapshot-reader/${seed}`)
    const pick = (n: number) => random.int(n)
    for (const name of examples) {
      const dir = join(EXAMPLES, name)
      const {memory} = await fixtureWorld({filename: [dir]}, () => '2026-11-22T10:00:00Z')
      const reader = snapshotReader('fixtures', options(dir))
      let objects = memory.objects()
      same(objects, reader, options(dir), `examples/${name}`)
      for (let step = 0; step < 12 && objects.length > 0; step++) {
        objects = [...objects]
        const at = pick(objects.length)
        const o = objects[at] as Record<string, any>
        switch (pick(7)) {
          case 0: // a changed copy replaces it
            objects[at] = {...o, metadata: {...o.metadata, labels: {...o.metadata?.labels, edited: String(step)}, resourceVersion: String(1000 + step)}}
            break
          case 1:
            objects.splice(at, 1)
            break
          case 2: // the same object twice (read as one), or a changed second definition (it replaces the first)
            objects.push(pick(2) === 0 ? o : {...o, metadata: {...o.metadata, annotations: {second: 'yes'}}})
            break
          case 3: // moved to the end
            objects.splice(at, 1)
            objects.push(o)
            break
          case 4: // a new object under another name
            objects.push({...o, metadata: {...o.metadata, name: `${o.metadata?.name ?? 'x'}-copy${step}`, uid: undefined}})
            break
          case 5: // owner references without a uid
            objects[at] = {...o, metadata: {...o.metadata, ownerReferences: (o.metadata?.ownerReferences ?? []).map((r: Record<string, unknown>) => ({...r, uid: undefined}))}}
            break
          default: // broken
            objects[at] = {...o, metadata: {...o.metadata, name: 'Not A Name'}}
        }
        same(objects, reader, options(dir), `examples/${name}, seed ${seed}, step ${step}`)
      }
    }
  })
})
