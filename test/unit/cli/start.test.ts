// Which code cache a start uses: one per command, one for the rest.
import {describe, expect, it} from 'vitest'

import {cacheVariant} from '../../../src/cli/start.js'

const COMMANDS = ['check', 'plan']
const HELP = ['--help', '-h']

describe('cacheVariant', () => {
  it('is the command a run runs', () => {
    expect(cacheVariant(['plan', '-f', 'x.yaml'], COMMANDS, HELP)).toBe('plan')
    expect(cacheVariant(['check'], COMMANDS, HELP)).toBe('check')
  })

  it('is other for help (asked of a command too), no command, or an unknown one', () => {
    for (const argv of [['plan', '--help'], ['plan', '-f', 'x', '-h'], ['--help'], [], ['help', 'plan'], ['plna']]) {
      expect(cacheVariant(argv, COMMANDS, HELP), argv.join(' ')).toBe('other')
    }
  })

  it('is the command when a help flag comes only after --, as oclif runs the command then', () => {
    expect(cacheVariant(['plan', '--', '--help'], COMMANDS, HELP)).toBe('plan')
    expect(cacheVariant(['plan', '-h', '--', 'x'], COMMANDS, HELP)).toBe('other')
  })
})
