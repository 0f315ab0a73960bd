// How Kubernetes reads a plain YAML scalar. The API server and kubectl turn YAML into JSON with
// sigs.k8s.io/yaml's YAMLToJSON, which decodes with go-yaml v2 (its goyaml.v2 fork) into
// interface{} values; go-yaml v2's `resolve` (resolve.go) decides what a plain scalar is:
//   - null:  "" ~ null Null NULL
//   - bool:  y Y yes Yes YES true True TRUE on On ON / n N no No NO false False FALSE off Off OFF
//   - int:   strconv.ParseInt(s without "_", base 0): 0x.., 0o.., 0b.., a leading 0 is octal
//            (0755 = 493), then ParseUint, then arbitrary-size ints (big.Int)
//   - float: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ (so 08 = 8.0), .inf, .nan
//   - timestamps are recognised but handed to interface{} as the original string
//   - nothing else: no base-60 numbers, no other types; quoted scalars are always strings.
// Mapping keys that resolve to booleans or numbers become their string form ("on:" → "true").
// Every parser in kctl (the fast js-yaml path and the position-finding `yaml` path) resolves
// scalars through this one function, so both always agree.
import {FAILSAFE_SCHEMA, Type, type Schema} from 'js-yaml'

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL'])
const TRUES = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'])
const FALSES = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'])
const SPECIAL_FLOATS = new Map<string, number>([
  ['.nan', Number.NaN], ['.NaN', Number.NaN], ['.NAN', Number.NaN],
  ['.inf', Infinity], ['.Inf', Infinity], ['.INF', Infinity],
  ['+.inf', Infinity], ['+.Inf', Infinity], ['+.INF', Infinity],
  ['-.inf', -Infinity], ['-.Inf', -Infinity], ['-.INF', -Infinity],
])

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/
const INT64_MAX = 2n ** 63n - 1n
const UINT64_MAX = 2n ** 64n - 1n

/**
 * The digits of strconv.ParseInt(s, 0, 64) (signed) or strconv.ParseUint(s, 0, 64) (unsigned):
 * optional sign (signed only), then 0x/0o/0b or a leading 0 (octal), or decimal. Returns the
 * value without a range check, or undefined when `s` is not such an integer.
 */
function parseGoIntDigits(s: string, signed: boolean): bigint | undefined {
  let i = 0
  let negative = false
  if (signed && (s[0] === '+' || s[0] === '-')) {
    negative = s[0] === '-'
    i = 1
  }
  let base = 10
  if (s[i] === '0' && i + 1 < s.length) {
    const p = s[i + 1]
    if (p === 'x' || p === 'X') (base = 16), (i += 2)
    else if (p === 'o' || p === 'O') (base = 8), (i += 2)
    else if (p === 'b' || p === 'B') (base = 2), (i += 2)
    else (base = 8), (i += 1)
  }
  const digits = s.slice(i)
  if (digits === '') return undefined
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 10 ? /^[0-9]+$/ : base === 8 ? /^[0-7]+$/ : /^[01]+$/
  if (!valid.test(digits)) return undefined
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : ''
  const value = BigInt(prefix + digits)
  return negative ? -value : value
}

const inInt64 = (v: bigint) => v <= INT64_MAX && v >= -INT64_MAX - 1n

function intValue(v: bigint): number {
  const n = Number(v)
  return n === 0 ? 0 : n // no negative zero
}

/** The sentinel for "this plain scalar stays a string". */
export const STRING: unique symbol = Symbol('string')

/**
 * go-yaml v2's resolution of an untagged plain scalar: the value it stands for, or STRING when it
 * is just a string. Numbers come back as JS numbers (integers beyond 2^53 lose precision, as they
 * would in any JSON client).
 */
export function resolvePlain(s: string): null | boolean | number | typeof STRING {
  if (s.length === 0) return null
  const c = s.charCodeAt(0)
  // The resolve table: + - digits (number), y Y n N t T f F o O ~ (map lookup), . (float).
  if (c >= 0x30 && c <= 0x39 /* 0-9 */ || c === 0x2b /* + */ || c === 0x2d /* - */) {
    const special = SPECIAL_FLOATS.get(s)
    if (special !== undefined) return special
    return resolveNumber(s)
  }
  switch (c) {
    case 0x79: case 0x59: case 0x6e: case 0x4e: case 0x74: case 0x54: // y Y n N t T
    case 0x66: case 0x46: case 0x6f: case 0x4f: case 0x7e: // f F o O ~
      if (s.length > 5) return STRING
      if (TRUES.has(s)) return true
      if (FALSES.has(s)) return false
      if (NULLS.has(s)) return null
      return STRING
    case 0x2e: { // .
      const special = SPECIAL_FLOATS.get(s)
      if (special !== undefined) return special
      if (DOT_FLOAT.test(s)) {
        const f = Number(s)
        if (Number.isFinite(f)) return f
      }
      return STRING
    }
    default:
      return STRING
  }
}

function resolveNumber(s: string): number | typeof STRING {
  const decimal = shortDecimal(s)
  if (decimal >= 0) return decimal
  if (!mayBeNumber(s)) return STRING
  // (timestamps such as 2024-01-02 are kept as strings for interface{} targets: nothing to do)
  const plain = s.includes('_') ? s.replaceAll('_', '') : s
  const signed = parseGoIntDigits(plain, true)
  if (signed !== undefined && inInt64(signed)) return intValue(signed)
  const unsigned = parseGoIntDigits(plain, false)
  if (unsigned !== undefined && unsigned <= UINT64_MAX) return intValue(unsigned)
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain)
    if (Number.isFinite(f)) return f === 0 ? 0 : f // ParseFloat fails on overflow: then it stays a string
  }
  if (plain.startsWith('0b')) {
    // ParseInt(plain[2:], 2, 64) also takes a sign after the prefix ("0b-101" = -5).
    const m = /^([-+]?)([01]+)$/.exec(plain.slice(2))
    if (m) {
      const v = BigInt('0b' + m[2]) * (m[1] === '-' ? -1n : 1n)
      if (inInt64(v) || (v >= 0n && v <= UINT64_MAX)) return intValue(v)
    }
  }
  // Integers beyond 64 bits become a big.Int in the goyaml.v2 fork: still a number in JSON.
  if (signed !== undefined) {
    const v = Number(signed)
    if (Number.isFinite(v)) return v
  }
  return STRING
}

/**
 * A decimal integer without a sign or a leading zero, of up to 15 digits (a port, a count): its
 * value, which ParseInt gives and a double holds exactly; -1 for any other text.
 */
function shortDecimal(s: string): number {
  if (s.length > 15 || (s.length > 1 && s.charCodeAt(0) === 0x30)) return -1
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return -1
  }
  return Number(s)
}

/**
 * Whether every character of `s` may be in a number that resolveNumber reads: digits, hex digits,
 * the x o b of a prefix, _ + - and the point (in either case: a few other characters pass too,
 * which is harmless). A scalar with any other character (`62m`, `1:20`) is a string.
 */
function mayBeNumber(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20
    const ok = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || c === 0x78 || c === 0x6f || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x7f // 0x7f: `_`
    if (!ok) return false
  }
  return true
}

/** The value of a plain scalar as Kubernetes sees it. */
export function plainValue(s: string): unknown {
  const v = resolvePlain(s)
  return v === STRING ? s : v
}

/** A mapping key as sigs.k8s.io/yaml turns it into a JSON key (for plain-scalar keys). */
export function plainKey(s: string): string {
  const v = resolvePlain(s)
  return v === STRING ? s : String(v)
}

// ---------------------------------------------------------------------------------------------
// The js-yaml schema: failsafe (str, seq, map) plus one implicit type that runs resolvePlain on
// every plain scalar, plus the merge key (`<<`, which go-yaml v2 also honours) and explicit
// !!null/!!bool/!!int/!!float tags. Tags kctl does not know (`!foo`) are ignored, as go-yaml v2
// ignores them: the node keeps its plain value.

let resolved: unknown = null

const plainType = new Type('tag:yaml.org,2002:kctl-plain', {
  kind: 'scalar',
  resolve(data: unknown) {
    if (typeof data !== 'string') return data === null // an empty node is null
    const v = resolvePlain(data)
    if (v === STRING) return false
    resolved = v
    return true
  },
  construct(data: unknown) {
    return data === null ? null : resolved
  },
})

const mergeType = new Type('tag:yaml.org,2002:merge', {
  kind: 'scalar',
  resolve: (data: unknown) => data === '<<',
})

function explicitScalar(tag: string, accept: (v: unknown) => boolean): Type {
  return new Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve(data: unknown) {
      const v = typeof data === 'string' ? plainValue(data) : data
      if (!accept(v)) return false
      resolved = v
      return true
    },
    construct: () => resolved,
  })
}

/** Unknown local tags: the node's value as if untagged (go-yaml v2 does not fail on them). */
const anyTag = (kind: 'scalar' | 'sequence' | 'mapping') =>
  new Type('!', {
    kind,
    multi: true,
    construct: (data: unknown) => (kind === 'scalar' && typeof data === 'string' ? plainValue(data) : data ?? (kind === 'mapping' ? {} : kind === 'sequence' ? [] : null)),
  })

export const KUBE_YAML_SCHEMA: Schema = FAILSAFE_SCHEMA.extend({
  implicit: [mergeType, plainType],
  explicit: [
    explicitScalar('null', (v) => v === null),
    explicitScalar('bool', (v) => typeof v === 'boolean'),
    explicitScalar('int', (v) => typeof v === 'number' && Number.isInteger(v)),
    explicitScalar('float', (v) => typeof v === 'number'),
    anyTag('scalar'),
    anyTag('sequence'),
    anyTag('mapping'),
  ],
})
