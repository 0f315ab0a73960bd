// The bundle is written in ASCII so that every start reads it as Latin-1 (src/cli/script-cache.ts).
import {runInNewContext} from 'node:vm'

import {describe, expect, it} from 'vitest'

import {asciiScript} from '../../../scripts/vm-script.mjs'

describe('asciiScript', () => {
  it('writes what lies outside ASCII as escapes that mean the same in regular expressions, identifiers and comments', () => {
    const code = 'const π = 3; /* — */ [/^[✓✖!i] /.test("✓ ok"), /(µs|ms)/.exec("2µs")[1], /[😀]/u.test("😀"), π]'
    const ascii = asciiScript(code, 'x.cjs')
    expect(ascii).toMatch(/^[\x00-\x7f]*$/)
    expect(runInNewContext(ascii)).toEqual(runInNewContext(code))
    expect(runInNewContext(ascii)).toEqual([true, 'µs', true, 3])
  })

  it('stops the build where an escape would follow a backslash', () => {
    expect(() => asciiScript('/\\é/', 'x.cjs')).toThrow(/x\.cjs has \\é/)
  })
})
