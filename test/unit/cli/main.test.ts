// Every failure becomes one line and an exit code from the one table.
import {Errors} from '@oclif/core'
import {describe, expect, it} from 'vitest'

import {describeFailure} from '../../../src/cli/main.js'
import {InternalError, StalePlanError, UserError} from '../../../src/errors.js'

describe('describeFailure', () => {
  it('a user error names its place and hint; exit 1', () => {
    const e = new UserError('spec.replicas: expected a non-negative integer', {origin: {file: 'a.yaml', line: 7, column: 13}, hint: 'quote it'})
    expect(describeFailure(e)).toEqual({code: 1, line: 'error: a.yaml:7:13: spec.replicas: expected a non-negative integer (quote it)'})
  })

  it('a stale plan is a refusal: exit 4', () => {
    expect(describeFailure(new StalePlanError('saved plan is stale; run kctl plan again'))).toEqual({code: 4, line: 'error: saved plan is stale; run kctl plan again'})
  })

  it('an oclif usage error is exit 1 (not oclif\'s 2), and skips the multi-error heading', () => {
    const e = new Errors.CLIError('The following error occurred:\n  --a cannot also be provided when using --b\nSee more help with --help')
    expect(describeFailure(e)).toEqual({code: 1, line: 'error: --a cannot also be provided when using --b'})
  })

  it('a bug says so', () => {
    expect(describeFailure(new InternalError('rank out of range')).line).toMatch(/^internal error \(a bug in kctl/)
    expect(describeFailure(new TypeError('x is undefined')).line).toMatch(/^internal error .*KCTL_DEBUG=1/)
  })
})
