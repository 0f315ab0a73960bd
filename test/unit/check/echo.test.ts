// cutEchoes passes over most messages after one scan; it must cut exactly what the two patterns
// cut (the reference below is the cut without that scan).
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {cutEchoes} from '../../../src/render/echo.js'

function reference(message: string, limit: number): string {
  const head = (text: string, n: number) => {
    const cut = text.slice(0, n)
    return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
  }
  return message
    .replace(/"((?:[^"\\]|\\.)*)"/g, (whole, body: string) => (body.length > limit ? `"${head(body, limit)}…" (${body.length} characters)` : whole))
    .replace(new RegExp(`[^\\s"…]{${limit + 1},}`, 'g'), (whole) => {
      const [, run, end] = /^([\s\S]*?)([:;,.)]?)$/.exec(whole)!
      return run.length > limit ? `${head(run, limit)}… (${run.length} characters)${end}` : whole
    })
}

describe('cutEchoes', () => {
  it('cuts what the patterns cut, and nothing else (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '"', '\\"', '\\\\', '\n', '\t', '…', '\u00a0', 'é', ':', '.', 'x'.repeat(9)),
      fc.string({maxLength: 6}),
    )
    fc.assert(
      fc.property(fc.array(piece, {maxLength: 40}), fc.integer({min: 3, max: 30}), (pieces, limit) => {
        const message = pieces.join('')
        expect(cutEchoes(message, limit)).toBe(reference(message, limit))
      }),
      {numRuns: 3000},
    )
  })

  it('leaves a long message of short words alone, and cuts a long quoted value with blanks in it', () => {
    const words = `spec.replicas is not set, ${'so the API server stores 1 '.repeat(10)}`
    expect(cutEchoes(words)).toBe(words)
    const quoted = `unknown value "${'a b '.repeat(60)}" here`
    expect(cutEchoes(quoted)).toBe(reference(quoted, 200))
    expect(cutEchoes(quoted)).toContain('(240 characters)')
  })
})
