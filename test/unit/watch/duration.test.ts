import {describe, expect, it} from 'vitest'

import {formatDuration, parseDuration} from '../../../src/watch/duration.js'

describe('parseDuration (Go time.ParseDuration)', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['2m3.5s', 123_500],
    ['0', 0],
  ])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms))

  it.each(['', '30', '5 m', 'm', '1x', '-1s', '1h 30m'])('rejects %j', (text) => expect(parseDuration(text)).toBeUndefined())
})

describe('formatDuration', () => {
  it.each([
    [500, '500ms'],
    [3000, '3s'],
    [90_000, '1m30s'],
    [300_000, '5m'],
    [5_400_000, '1h30m'],
    [1500, '1.5s'],
  ])('%d', (ms, text) => expect(formatDuration(ms)).toBe(text))
})
