// The intersection of set-based selectors, against brute force over every label set of a small
// universe; and the pair enumeration, against comparing every pair.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {agreeingPairs, intersection, pinnedValues, satisfiable} from '../../../src/check/intersect.js'
import type {Labels} from '../../../src/model/objects.js'
import {requirementMatches, type Requirement} from '../../../src/reconcile/selector.js'

const KEYS = ['a', 'b', 'c']
const VALUES = ['x', 'y', 'z']
const matches = (reqs: readonly Requirement[], labels: Labels) => reqs.every((r) => requirementMatches(r, labels))

/** Every label set over KEYS, each key absent or one of VALUES or "example" (what a witness may invent). */
function* universe(): Generator<Labels> {
  const choices = [undefined, ...VALUES, 'example']
  for (const a of choices) for (const b of choices) for (const c of choices) {
    const l: Record<string, string> = {}
    if (a !== undefined) l.a = a
    if (b !== undefined) l.b = b
    if (c !== undefined) l.c = c
    yield l
  }
}

const requirement = fc.oneof(
  fc.record({key: fc.constantFrom(...KEYS), operator: fc.constant('In' as const), values: fc.uniqueArray(fc.constantFrom(...VALUES), {minLength: 1, maxLength: 3})}),
  fc.record({key: fc.constantFrom(...KEYS), operator: fc.constant('NotIn' as const), values: fc.uniqueArray(fc.constantFrom(...VALUES), {minLength: 1, maxLength: 3})}),
  fc.record({key: fc.constantFrom(...KEYS), operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const), values: fc.constant([] as string[])}),
)
const selector = fc.array(requirement, {minLength: 1, maxLength: 4})

describe('intersection', () => {
  it('is satisfiable exactly when some label set matches both, and the witness does', () => {
    fc.assert(
      fc.property(selector, selector, (a, b) => {
        const witness = intersection(a, b)
        const exists = [...universe()].some((l) => matches(a, l) && matches(b, l))
        expect(witness !== undefined).toBe(exists)
        if (witness) {
          expect(matches(a, witness)).toBe(true)
          expect(matches(b, witness)).toBe(true)
        }
      }),
      {numRuns: 2000},
    )
  })

  it('satisfiable() agrees with brute force on one selector', () => {
    fc.assert(
      fc.property(selector, (a) => {
        expect(satisfiable(a)).toBe([...universe()].some((l) => matches(a, l)))
      }),
      {numRuns: 1000},
    )
  })

  it('examples from the semantics spec (§5.8)', () => {
    const In = (key: string, ...values: string[]): Requirement => ({key, operator: 'In', values})
    const NotIn = (key: string, ...values: string[]): Requirement => ({key, operator: 'NotIn', values})
    const Exists = (key: string): Requirement => ({key, operator: 'Exists', values: []})
    const DoesNotExist = (key: string): Requirement => ({key, operator: 'DoesNotExist', values: []})
    // 5.8.2: matchLabels app=a plus app In [b] matches nothing.
    expect(satisfiable([In('app', 'a'), In('app', 'b')])).toBe(false)
    // NotIn is satisfied by a missing key: the witness leaves it out.
    expect(intersection([In('app', 'web')], [NotIn('env', 'prod')])).toEqual({app: 'web'})
    // Exists with exclusions: a value outside them.
    expect(intersection([Exists('tier')], [NotIn('tier', 'example')])).toEqual({tier: 'example-1'})
    expect(intersection([Exists('canary')], [DoesNotExist('canary')])).toBeUndefined()
    // Values seen in templates are preferred.
    expect(intersection([Exists('tier')], [In('app', 'web')], [{tier: 'frontend'}])).toEqual({app: 'web', tier: 'frontend'})
    expect(intersection([In('app', 'a', 'b', 'c')], [In('app', 'c', 'b')])).toEqual({app: 'b'})
    // Two selectors of only negative requirements: a pod without labels matches both.
    expect(intersection([NotIn('env', 'prod')], [DoesNotExist('canary')])).toEqual({})
  })

  it('pins a key only when its requirements allow a single value', () => {
    expect(pinnedValues([{key: 'app', operator: 'In', values: ['a', 'b']}, {key: 'app', operator: 'In', values: ['b', 'c']}, {key: 't', operator: 'Exists', values: []}])).toEqual(new Map([['app', 'b']]))
  })
})

describe('agreeingPairs', () => {
  const pins = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('1', '2', '3'), {maxKeys: 4})
  it('produces each pair that agrees on every key both pin, exactly once', () => {
    fc.assert(
      fc.property(fc.array(pins, {minLength: 0, maxLength: 60}), (list) => {
        const items = list.map((p) => ({pins: new Map(Object.entries(p))}))
        const got: string[] = []
        agreeingPairs(items, items.map((_, i) => i), (i, j) => got.push(`${i},${j}`))
        const want: string[] = []
        for (let i = 0; i < items.length; i++) {
          for (let j = i + 1; j < items.length; j++) {
            const agree = [...items[i].pins].every(([k, v]) => !items[j].pins.has(k) || items[j].pins.get(k) === v)
            if (agree) want.push(`${i},${j}`)
          }
        }
        expect(got.sort()).toEqual(want.sort())
      }),
      {numRuns: 500},
    )
  })

  it('does not compare every pair when selectors pin distinct values', () => {
    const items = Array.from({length: 20000}, (_, i) => ({pins: new Map([['app', `app-${i}`], ['part-of', 'shop']])}))
    let pairs = 0
    const started = performance.now()
    agreeingPairs(items, items.map((_, i) => i), () => pairs++)
    expect(pairs).toBe(0)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
