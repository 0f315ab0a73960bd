import {load} from 'js-yaml'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {locateInYaml} from '../../../src/sources/locate.js'
import {KUBE_YAML_SCHEMA, plainKey, plainValue, resolvePlain, STRING} from '../../../src/sources/yaml11.js'

const loadKube = (text: string) => load(text, {schema: KUBE_YAML_SCHEMA})

describe('plain scalars resolve as go-yaml v2 (sigs.k8s.io/yaml) resolves them', () => {
  it.each([
    // booleans: YAML 1.1's full set, including y/n
    ['yes', true], ['Yes', true], ['YES', true], ['y', true], ['Y', true], ['on', true], ['On', true], ['ON', true],
    ['true', true], ['True', true], ['TRUE', true],
    ['no', false], ['No', false], ['NO', false], ['n', false], ['N', false], ['off', false], ['OFF', false],
    ['false', false], ['False', false],
    // null
    ['~', null], ['null', null], ['Null', null], ['NULL', null],
    // integers: strconv.ParseInt(s without "_", base 0)
    ['0', 0], ['42', 42], ['-7', -7], ['+12', 12], ['0755', 493], ['-0755', -493], ['0x1F', 31], ['0X1f', 31], ['-0x10', -16],
    ['0o17', 15], ['0O17', 15], ['0b101', 5], ['-0b101', -5], ['1_000', 1000], ['1_', 1], ['0x_ff', 255], ['-0', 0],
    // floats: the yamlStyleFloat pattern (so a bad octal is a float: 08 = 8)
    ['08', 8], ['09.5', 9.5], ['1.5', 1.5], ['1.', 1], ['.5', 0.5], ['-.5', -0.5], ['+.5', 0.5], ['1e3', 1000], ['1E3', 1000],
    ['2.5e-1', 0.25], ['.inf', Infinity], ['-.Inf', -Infinity], ['+.INF', Infinity],
  ])('%s → %s', (input, expected) => {
    expect(resolvePlain(input)).toBe(expected)
  })

  it('.nan is NaN', () => {
    expect(resolvePlain('.nan')).toBeNaN()
  })

  it.each([
    'yES', 'nO', 'oN', 'yes!', 'Off-line', 'nil', 'none', '0x', '0b', '0o', '0b2', '0xg', '1:20', '_1', '2026-11-22', '2026-11-22T10:00:00Z',
    '1.2.3', '-', '+', '.', '..', '1e', 'e3', '0.5.', '1e400', 'abc', 'web', '12abc', '0x1.8p1', 'infinity', 'NaN', '1__0x',
    // quantities and addresses: a character no number has
    '62m', '199Mi', '1Gi', '0.5Ki', '10.0.0.1/8', '1 2', '0x1g', '8080/TCP',
  ])('%s stays a string', (input) => {
    expect(resolvePlain(input)).toBe(STRING)
    expect(plainValue(input)).toBe(input)
  })

  it('reads a decimal integer of any length as ParseInt and big.Int do (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({min: 0n, max: 10n ** 22n}), (n) => {
        expect(resolvePlain(String(n))).toBe(Number(n))
      }),
      {numRuns: 3000},
    )
    for (const s of ['0', '7', '999999999999999', '1000000000000000', '9007199254740993']) expect(resolvePlain(s)).toBe(Number(BigInt(s)))
  })

  it('keeps integers beyond 64 bits as (imprecise) numbers, as the big.Int → JSON path does', () => {
    expect(resolvePlain('123456789012345678901234567890')).toBe(123456789012345678901234567890)
    expect(resolvePlain('18446744073709551615')).toBe(18446744073709551615) // ParseUint
  })

  it('turns mapping keys into their JSON key', () => {
    expect(plainKey('on')).toBe('true')
    expect(plainKey('n')).toBe('false')
    expect(plainKey('0755')).toBe('493')
    expect(plainKey('app')).toBe('app')
    expect(plainKey('~')).toBe('null')
  })
})

describe('the js-yaml schema', () => {
  it('reads a document as Kubernetes would', () => {
    const doc = loadKube(`
quoted: "yes"
single: 'on'
yes: y
octal: 0755
mode: 0644
empty:
tilde: ~
date: 2026-11-22
time: 2026-11-22T10:00:00Z
tagged: !!str 0755
int: !!int "12"
custom: !mytag hello
customMap: !mytag {a: 1}
block: |
  yes
folded: >-
  on
  off
`)
    expect(doc).toEqual({
      quoted: 'yes',
      single: 'on',
      true: true, // the key `yes` is the boolean true, written "true" in JSON; the value `y` is true too
      octal: 493,
      mode: 420,
      empty: null,
      tilde: null,
      date: '2026-11-22',
      time: '2026-11-22T10:00:00Z',
      tagged: '0755',
      int: 12,
      custom: 'hello',
      customMap: {a: 1},
      block: 'yes\n',
      folded: 'on off',
    })
  })

  it('reports keys that collide once resolved (yes and on are both "true")', () => {
    expect(() => loadKube('yes: 1\non: 2\n')).toThrow(/duplicated mapping key/)
    expect(() => loadKube('"true": 1\non: 2\n')).toThrow(/duplicated mapping key/)
  })

  it('honours merge keys, like go-yaml v2', () => {
    expect(loadKube('base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\n')).toEqual({base: {a: 1, b: 2}, x: {a: 1, b: 3}})
  })

  it('rejects an explicit tag that does not fit', () => {
    expect(() => loadKube('a: !!int abc\n')).toThrow()
  })

  it('agrees with resolvePlain on any plain scalar (property)', () => {
    const scalar = fc.oneof(
      fc.stringMatching(/^[-+]?[0-9_]{1,6}(\.[0-9]{0,3})?([eE][-+]?[0-9]{1,2})?$/),
      fc.stringMatching(/^0[xXoObB]?[0-9a-fA-F_]{0,5}$/),
      fc.constantFrom('y', 'n', 'yes', 'No', 'ON', 'off', 'True', 'NULL', '~', '.inf', '-.Inf', '.NaN', '<<x', 'web-1', 'a.b'),
    )
    fc.assert(
      fc.property(scalar, (s) => {
        const doc = loadKube(`v: ${s}\n`) as {v: unknown}
        const expected = plainValue(s)
        if (typeof expected === 'number' && Number.isNaN(expected)) return Number.isNaN(doc.v as number)
        return Object.is(doc.v, expected) || doc.v === expected
      }),
    )
  })

  it('finds a field by the same resolved keys in the position-finding parser', () => {
    const text = 'a: 1\non: 2\n0755: 3\n"quoted": 4\n'
    expect(locateInYaml(text, ['true'], false).offset).toBe(text.indexOf('2'))
    expect(locateInYaml(text, ['493'], false).offset).toBe(text.indexOf('3'))
    expect(locateInYaml(text, ['quoted'], true).offset).toBe(text.indexOf('"quoted"'))
  })
})
