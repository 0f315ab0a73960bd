// Line breaks are counted four bytes at a time: the count must be the same as one byte at a time
// for any range of any buffer, wherever the buffer starts in its memory.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {countNewlines, SourceFile} from '../../../src/sources/files.js'

const SHARED = Buffer.alloc(100)

function naive(buf: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = from; i < Math.min(to, buf.length); i++) if (buf[i] === 0x0a) n++
  return n
}

describe('countNewlines', () => {
  it('counts as a byte loop does, at any offset and alignment (property)', () => {
    // Bytes near the line break's (0x0a): 0x0b, 0x8a, 0x09 and 0x0a0a-like runs tell an exact test from a near one.
    const byte = fc.constantFrom(0x0a, 0x0a, 0x0b, 0x09, 0x8a, 0x0e, 0x00, 0xff, 0x7f, 0x20, 0x61)
    fc.assert(
      fc.property(fc.array(byte, {maxLength: 80}), fc.nat(7), fc.nat(90), fc.nat(90), fc.boolean(), (bytes, shift, a, b, shared) => {
        // A view of memory of its own, or of memory shared with the views before it (as kept files are of a slab).
        const memory = shared ? SHARED : Buffer.alloc(bytes.length + shift + 8)
        const buf = memory.subarray(shift, shift + bytes.length)
        buf.set(bytes)
        const from = Math.min(a, b)
        const to = Math.max(a, b)
        expect(countNewlines(buf, from, to)).toBe(naive(buf, from, to))
      }),
      {numRuns: 3000},
    )
  })

  it('counts every line break of a large text', () => {
    const text = Buffer.from('a: 1\n\n  b:\n\n\n    - c\n'.repeat(1000) + '\n\n\nend')
    expect(countNewlines(text, 0, text.length)).toBe(6 * 1000 + 3)
    expect(countNewlines(text, 3, text.length - 2)).toBe(6 * 1000 + 3)
  })
})

describe('SourceFile.lineOf', () => {
  const text = 'a: 1\n---\nb: 2\n\nc: 3\n---\nd: 4\n'
  const starts = [0, text.indexOf('b'), text.indexOf('c'), text.indexOf('d')]
  const lineOf = (offset: number) => 1 + naive(Buffer.from(text), 0, offset)

  it('answers the line of every chunk start, and of any other byte', () => {
    const file = new SourceFile('f.yaml', undefined, 'yaml', Buffer.from(text))
    file.chunkStarts.push(...starts)
    for (const s of starts) expect(file.lineOf(s)).toBe(lineOf(s))
    for (let offset = 0; offset <= text.length; offset++) expect(file.lineOf(offset)).toBe(lineOf(offset))
  })

  it('answers with chunk starts out of order or repeated', () => {
    const file = new SourceFile('f.yaml', undefined, 'yaml', Buffer.from(text))
    file.chunkStarts.push(starts[2], starts[0], starts[2], starts[3], starts[1])
    for (const s of starts) expect(file.lineOf(s)).toBe(lineOf(s))
  })

  it('answers for chunks met after its first answer (a file still being read)', () => {
    const file = new SourceFile('f.yaml', undefined, 'yaml', Buffer.from(text))
    file.chunkStarts.push(starts[0], starts[1])
    expect(file.lineOf(starts[1])).toBe(lineOf(starts[1]))
    file.chunkStarts.push(starts[2], starts[3])
    for (const s of starts) expect(file.lineOf(s)).toBe(lineOf(s))
  })
})
