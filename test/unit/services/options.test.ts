import {describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {canonicalTime, gateWarnings, parseFeatureGates, resolveNow} from '../../../src/services/options.js'

describe('--now', () => {
  it.each([
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00Z'],
    ['2026-11-22t10:00:00z', '2026-11-22T10:00:00Z'],
    ['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00Z'],
    ['2026-11-22T10:00:00.123456789Z', '2026-11-22T10:00:00.123456789Z'],
    ['2026-11-22T10:00:00.5Z', '2026-11-22T10:00:00.5Z'],
    ['2026-11-22T11:30:00+01:30', '2026-11-22T10:00:00Z'],
    ['2026-11-22T00:30:00.25-10:00', '2026-11-22T10:30:00.25Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
  ])('%s → %s', (input, output) => {
    expect(canonicalTime(input)).toBe(output)
  })

  it.each(['2026-11-22', '2026-11-22T10:00Z', '2026-11-22 10:00:00Z', '2026-11-22T10:00:00', '2025-02-29T00:00:00Z', '2026-13-01T00:00:00Z',
    '2026-11-22T24:00:00Z', '2026-11-22T10:00:60Z', '2026-11-22T10:00:00.1234567890Z', 'now', ''])('rejects %j', (input) => {
    expect(canonicalTime(input)).toBeUndefined()
  })

  it('names the flag when invalid', () => {
    expect(() => resolveNow('yesterday')).toThrow(UserError)
    expect(() => resolveNow('yesterday')).toThrow(/--now "yesterday"/)
  })

  it('reads the injected clock only when --now is absent', () => {
    const clock = () => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, 120))
    expect(resolveNow(undefined, clock)).toBe('2026-11-22T10:00:00.12Z')
    expect(resolveNow('2026-01-01T00:00:00Z', () => { throw new Error('clock read') })).toBe('2026-01-01T00:00:00Z')
  })
})

describe('--feature-gates', () => {
  it('defaults to upstream 1.36', () => {
    expect(parseFeatureGates(undefined)).toEqual(DEFAULT_FEATURE_GATES)
    expect(parseFeatureGates('')).toEqual(DEFAULT_FEATURE_GATES)
  })

  it('parses A=true,B=false like kube-controller-manager, last setting winning', () => {
    expect(parseFeatureGates(' PodDeletionCost=false , ,DeploymentReplicaSetTerminatingReplicas=F')).toEqual({
      ...DEFAULT_FEATURE_GATES,
      PodDeletionCost: false,
      DeploymentReplicaSetTerminatingReplicas: false,
    })
    expect(parseFeatureGates('PodDeletionCost=false,PodDeletionCost=1').PodDeletionCost).toBe(true)
  })

  it('refuses unknown gates, missing values and non-booleans', () => {
    expect(() => parseFeatureGates('Foo=true')).toThrow(/unknown gate "Foo"/)
    expect(() => parseFeatureGates('PodDeletionCost')).toThrow(/missing "=true" or "=false"/)
    expect(() => parseFeatureGates('PodDeletionCost=yes')).toThrow(/"yes" is not true or false/)
  })

  it('warns about turning off a gate locked on upstream', () => {
    expect(gateWarnings(parseFeatureGates('LogarithmicScaleDown=false'))).toHaveLength(1)
    expect(gateWarnings(DEFAULT_FEATURE_GATES)).toEqual([])
  })
})
