import {describe, expect, it} from 'vitest'

import {JsonWriter, type ByteSink} from '../../../src/render/json-writer.js'

/** What JsonWriter.sorted writes of `values` (as a list) through buffers of `chunk` bytes, each handed out to `keep`. */
function written(values: unknown[], chunk: number, keep: (bytes: Uint8Array, out: Buffer[]) => boolean): string {
  const out: Buffer[] = []
  const sink: ByteSink = (bytes) => keep(bytes, out)
  const w = new JsonWriter(sink, chunk)
  w.sorted(values, 0)
  w.end()
  return Buffer.concat(out).toString('utf8')
}

/** JSON.stringify of a deep copy with every object's keys sorted (array indices first, as V8 orders them). */
const sortedCopy = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortedCopy) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedCopy((v as Record<string, unknown>)[k])])) : v

describe('JsonWriter', () => {
  // Objects with keys out of order, written across the ends of small buffers: what was written
  // of an object before its buffer was handed out moves to the front of the next one (the same
  // buffer when it was copied out, a new one when it was kept) and is written again sorted.
  const values = Array.from({length: 60}, (_, i) => ({
    z: `value-${i}`,
    a: i % 3 === 0 ? [] : [i, true, false, null, {y: 'y', b: {}}],
    m: {k: i % 2 === 0 ? {} : {d: 'd', c: 'c'}, e: i % 5 === 0 ? null : 1.5},
  }))
  const expected = JSON.stringify(values.map(sortedCopy), null, 2)

  it('writes plain data sorted through a buffer reused once handed out', () => {
    const buffers = new Set<ArrayBufferLike>()
    const text = written(values, 64, (bytes, out) => {
      buffers.add(bytes.buffer)
      out.push(Buffer.from(bytes))
      return true
    })
    expect(text).toBe(expected)
    expect(buffers.size).toBeLessThanOrEqual(3) // (the first, small one; then buffers grown for an object longer than one)
  })

  it('writes plain data sorted through buffers kept as handed out', () => {
    expect(written(values, 64, (bytes, out) => (out.push(bytes as Buffer), false))).toBe(expected)
  })

  it('escapes keys and strings as JSON.stringify does, beside plain ones, across buffer ends', () => {
    const odd = Array.from({length: 20}, (_, i) => ({'a"b': `q"${i}`, 'back\\slash': 'tab\there', plain: 'x', 'é': 'ü€😀', ['line\n' + i]: '\u0001'}))
    expect(written(odd, 64, (bytes, out) => (out.push(Buffer.from(bytes)), true))).toBe(JSON.stringify(odd.map(sortedCopy), null, 2))
  })
})
