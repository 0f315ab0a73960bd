// resource.Quantity as the API server and the controller hold it (k8s.io/apimachinery
// pkg/api/resource: ParseQuantity, RoundUp, CanonicalizeBytes, String). pod-template-hash
// prints a quantity's Go internals, so the exact representation matters, not only its value.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI'

/**
 * A parsed quantity. `int`: the int64Amount fast path (value × 10^scale). `dec`: the inf.Dec
 * path (unscaled × 10^-decScale), taken for values int64 cannot hold at their precision.
 */
export type Quantity =
  | {kind: 'int'; value: bigint; scale: number; format: QuantityFormat; s: string}
  | {kind: 'dec'; unscaled: bigint; decScale: number; format: QuantityFormat; s: string}

export class QuantityError extends Error {}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const MAX_INT64_FACTORS = 18
const NANO = -9

const DECIMAL_SUFFIX: Record<string, number> = {n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18}
const BINARY_SUFFIX: Record<string, number> = {Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60}
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]))
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIX).map(([s, e]) => [e, s]))

/** parseQuantityString: sign, digits, fraction and suffix, as upstream splits them. */
function split(str: string): {positive: boolean; value: string; num: string; denom: string; suffix: string} {
  let positive = true
  let pos = 0
  const end = str.length
  if (pos < end && (str[0] === '-' || str[0] === '+')) {
    positive = str[0] !== '-'
    pos++
  }
  while (pos < end && str[pos] === '0') pos++
  if (pos >= end) return {positive, value: '0', num: '0', denom: '', suffix: ''}
  let i = pos
  while (i < end && str[i] >= '0' && str[i] <= '9') i++
  if (i >= end) return {positive, value: str, num: str.slice(pos), denom: '', suffix: ''}
  let num = str.slice(pos, i)
  pos = i
  if (num === '') num = '0'
  let denom = ''
  if (str[pos] === '.') {
    pos++
    let j = pos
    while (j < end && str[j] >= '0' && str[j] <= '9') j++
    denom = str.slice(pos, j)
    if (j >= end) return {positive, value: str, num, denom, suffix: ''}
    pos = j
  }
  const value = str.slice(0, pos)
  const suffixStart = pos
  let k = pos
  while (k < end && 'eEinumkKMGTP'.includes(str[k])) k++
  if (k >= end) return {positive, value, num, denom, suffix: str.slice(suffixStart)}
  if (str[k] === '-' || str[k] === '+') k++
  while (k < end && str[k] >= '0' && str[k] <= '9') k++
  if (k < end) throw new QuantityError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
  return {positive, value, num, denom, suffix: str.slice(suffixStart)}
}

/** suffixer.interpret: base, exponent and format of a suffix. */
function interpret(suffix: string): {base: 2 | 10; exponent: number; format: QuantityFormat} {
  if (Object.hasOwn(DECIMAL_SUFFIX, suffix)) return {base: 10, exponent: DECIMAL_SUFFIX[suffix], format: 'DecimalSI'}
  if (Object.hasOwn(BINARY_SUFFIX, suffix)) return {base: 2, exponent: BINARY_SUFFIX[suffix], format: 'BinarySI'}
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const e = BigInt(suffix.slice(1))
    if (e >= INT64_MIN && e <= INT64_MAX) return {base: 10, exponent: Number(BigInt.asIntN(32, e)), format: 'DecimalExponent'}
  }
  throw new QuantityError('unable to parse quantity\'s suffix')
}

/** ParseQuantity. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError('quantities must match the regular expression')
  if (str === '0') return {kind: 'int', value: 0n, scale: 0, format: 'DecimalSI', s: '0'}
  const {positive, value, num, denom, suffix} = split(str)
  const {base, exponent, format} = interpret(suffix)
  let precision = 0
  let scale = 0
  let mantissa = 1n
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent)
      precision = 15 - num.length - Math.trunc(Math.fround(exponent * 3) / 10) - 1
    } else precision = -1
  } else {
    scale = exponent
    precision = MAX_INT64_FACTORS - (num.length + denom.length)
  }
  if (precision >= 0) {
    scale -= denom.length
    if (scale >= NANO) {
      const shifted = num + denom
      const v = BigInt(shifted)
      if (v > INT64_MAX) throw new QuantityError('quantities must be an integer')
      const product = v * mantissa
      if (product <= INT64_MAX) {
        const result = positive ? product : -product
        let s = ''
        if (format === 'BinarySI') {
          if (exponent % 10 === 0 && (v & 7n) !== 0n) s = str
        } else if (((scale % 3) + 3) % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') s = str
        return {kind: 'int', value: result, scale, format, s}
      }
    }
  }
  // The inf.Dec path: the digits as written (sign and leading zeros included), then the suffix.
  const digits = value.replace(/^[+-]/, '')
  const [intPart, fracPart = ''] = digits.split('.')
  let unscaled = BigInt((intPart || '0') + fracPart)
  let decScale = fracPart.length
  if (base === 10) decScale -= exponent
  else unscaled *= 1n << BigInt(exponent)
  let fmt = format
  if (unscaled !== 0n) ({unscaled, decScale} = roundUpTo(unscaled, decScale, -NANO))
  if (fmt === 'BinarySI' && compareDec(unscaled, decScale, INT64_MAX, 0) > 0) {
    unscaled = INT64_MAX
    decScale = 0
  }
  if (fmt === 'BinarySI' && compareDec(unscaled, decScale, 1n, 0) < 0 && unscaled > 0n) fmt = 'DecimalSI'
  if (!positive) unscaled = -unscaled
  return {kind: 'dec', unscaled, decScale, format: fmt, s: ''}
}

/** inf.Dec Round(x, scale, RoundUp): to `scale` decimal places, away from zero. */
function roundUpTo(unscaled: bigint, decScale: number, scale: number): {unscaled: bigint; decScale: number} {
  if (decScale <= scale) return {unscaled: unscaled * 10n ** BigInt(scale - decScale), decScale: scale}
  const div = 10n ** BigInt(decScale - scale)
  const q = unscaled / div
  const r = unscaled % div
  return {unscaled: r === 0n ? q : q + (unscaled < 0n ? -1n : 1n), decScale: scale}
}

function compareDec(a: bigint, as: number, b: bigint, bs: number): number {
  const s = Math.max(as, bs)
  const x = a * 10n ** BigInt(s - as)
  const y = b * 10n ** BigInt(s - bs)
  return x < y ? -1 : x > y ? 1 : 0
}

/** The exact value as unscaled × 10^-scale. */
function decimalOf(q: Quantity): {unscaled: bigint; scale: number} {
  if (q.kind === 'dec') return {unscaled: q.unscaled, scale: q.decScale}
  return q.scale >= 0 ? {unscaled: q.value * 10n ** BigInt(q.scale), scale: 0} : {unscaled: q.value, scale: -q.scale}
}

/** Quantity.RoundUp(scale): keeps the quantity (and its cached string) when precise enough. */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.kind === 'dec') {
    const r = roundUpTo(q.unscaled, q.decScale, -scale)
    return {...q, unscaled: r.unscaled, decScale: r.decScale, s: ''}
  }
  if (q.scale >= scale) return q
  // negativeScaleInt64: divide by 10^k, rounding away from zero when anything is lost.
  const div = 10n ** BigInt(scale - q.scale)
  const quotient = q.value / div
  const lost = q.value % div !== 0n
  return {...q, value: lost ? quotient + (q.value < 0n ? -1n : 1n) : quotient, scale, s: ''}
}

/** Quantity.String(): the cached string, else the canonical form (CanonicalizeBytes). */
export function quantityString(q: Quantity): string {
  if (q.s !== '') return q.s
  const {unscaled, scale} = decimalOf(q)
  if (unscaled === 0n) return '0'
  let format = q.format
  if (format === 'BinarySI') {
    const whole = scale <= 0 || unscaled % 10n ** BigInt(scale) === 0n
    const magnitude = compareDec(unscaled < 0n ? -unscaled : unscaled, scale, 1024n, 0)
    if (magnitude < 0 || !whole) format = 'DecimalSI'
  }
  if (format === 'BinarySI') {
    let amount = scale <= 0 ? unscaled : unscaled / 10n ** BigInt(scale)
    let exponent = 0
    while (amount !== 0n && amount % 1024n === 0n) {
      amount /= 1024n
      exponent += 10
    }
    return `${amount}${BINARY_BY_EXPONENT.get(exponent) ?? ''}`
  }
  // Factors of ten into the exponent, then the exponent down to a multiple of 3.
  let amount = unscaled
  let exponent = -scale
  while (amount % 10n === 0n) {
    amount /= 10n
    exponent++
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    amount *= 10n
    exponent--
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`
  return `${amount}${DECIMAL_BY_EXPONENT.get(exponent) ?? ''}`
}

/**
 * What a quantity in a pod template is once the API server has stored it and the controller has
 * read it back: parsed, rounded up to milli precision inside resource lists (SetDefaults_ResourceList),
 * sent as its string, parsed again.
 */
export function storedQuantity(text: string, inResourceList: boolean): Quantity {
  let q = parseQuantity(text)
  if (inResourceList) q = roundUp(q, -3)
  return parseQuantity(quantityString(q))
}

/** Numeric comparison (Quantity.Cmp). */
export function compareQuantity(a: Quantity, b: Quantity): number {
  const x = decimalOf(a)
  const y = decimalOf(b)
  return compareDec(x.unscaled, x.scale, y.unscaled, y.scale)
}

/** A JSON value a quantity field holds: a string, or a number (YAML `2e3`, `1.5`). */
export function quantityText(v: unknown): string {
  if (typeof v === 'string') return v
  if (typeof v === 'number' && Number.isFinite(v)) return numberText(v)
  throw new QuantityError(`expected a quantity such as "100m" or "1Gi", got ${JSON.stringify(v)}`)
}

/** Go's encoding of a float64 JSON number (strconv 'f' below 1e21, 'e' with two exponent digits above). */
function numberText(n: number): string {
  const abs = Math.abs(n)
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    const [m, e] = n.toExponential().split('e')
    const sign = e[0] === '-' ? '-' : '+'
    const digits = e.replace(/^[+-]/, '').padStart(2, '0')
    return `${m}e${sign}${digits}`
  }
  return String(n)
}

/** The spew dump of a quantity's Go value (fields i, d, s, Format), without a type tag. */
export function dumpQuantity(q: Quantity): string {
  const i = q.kind === 'int' ? {value: q.value, scale: q.scale} : {value: 0n, scale: 0}
  let d = '(*inf.Dec)<nil>'
  if (q.kind === 'dec') {
    const neg = q.unscaled < 0n
    const words: string[] = []
    let abs = neg ? -q.unscaled : q.unscaled
    while (abs > 0n) {
      words.push(String(abs & 0xffffffffffffffffn))
      abs >>= 64n
    }
    const nat = words.length === 0 ? '(big.nat)<nil>' : `(big.nat)[${words.join(' ')}]`
    d = `(*inf.Dec){unscaled:(big.Int){neg:(bool)${neg} abs:${nat}} scale:(inf.Scale)${q.decScale}}`
  }
  return `{i:(resource.int64Amount){value:(int64)${i.value} scale:(resource.Scale)${i.scale}} d:(resource.infDecAmount){Dec:${d}} s:(string)${q.s} Format:(resource.Format)${q.format}}`
}
