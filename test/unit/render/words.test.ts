import {describe, expect, it} from 'vitest'

import {formatColumns} from '../../../src/render/columns.js'
import {age, count, humanDuration, joinWords, signed} from '../../../src/render/words.js'

describe('words', () => {
  it('pluralizes', () => {
    expect([count(0, 'pod'), count(1, 'pod'), count(2, 'pod'), count(2, 'policy', 'policies')]).toEqual(['0 pods', '1 pod', '2 pods', '2 policies'])
  })

  it('signs diffs', () => {
    expect([signed(2), signed(0), signed(-1)]).toEqual(['+2', '0', '-1'])
  })

  it('joins', () => {
    expect([joinWords([]), joinWords(['a']), joinWords(['a', 'b']), joinWords(['a', 'b', 'c'])]).toEqual(['', 'a', 'a and b', 'a, b and c'])
  })

  it('prints durations as kubectl does', () => {
    const s = 1000
    expect(
      [45 * s, 119 * s, 200 * s, 600 * s, 179 * 60 * s, 5.5 * 3600 * s, 20 * 3600 * s, 76 * 3600 * s, 40 * 86400 * s, 800 * 86400 * s].map(humanDuration),
    ).toEqual(['45s', '119s', '3m20s', '10m', '179m', '5h30m', '20h', '3d4h', '40d', '2y70d'])
    expect(humanDuration(-5000)).toBe('<invalid>')
  })

  it('measures ages against a given now', () => {
    expect(age('2026-11-22T09:58:00Z', '2026-11-22T10:00:00Z')).toBe('2m')
    expect(age(undefined, '2026-11-22T10:00:00Z')).toBeUndefined()
  })

  it('aligns columns without trailing blanks', () => {
    expect(formatColumns(['A', 'LONG HEADER', 'C'], [['xx', 'y', ''], ['x', 'yyyyyyyyyyyyy', 'z']])).toBe(
      ['A    LONG HEADER     C', 'xx   y', 'x    yyyyyyyyyyyyy   z', ''].join('\n'),
    )
  })
})
