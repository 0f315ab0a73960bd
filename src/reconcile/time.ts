// Time as the controllers see it. Object timestamps are metav1.Time — whole seconds only (the
// fraction is dropped on the wire); the controller's own "now" keeps full precision. Both are held
// as BigInt nanoseconds since the epoch so differences are exact.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/

const NS_PER_SECOND = 1_000_000_000n

/**
 * `f` answering again from memory for an argument already given (undefined answers too), the
 * memory forgotten whole once it holds `limit` answers.
 */
export function memoized<K, V>(f: (key: K) => V, limit: number): (key: K) => V {
  const answers = new Map<K, V>()
  return (key) => {
    let answer = answers.get(key)
    if (answer === undefined && !answers.has(key)) {
      if (answers.size >= limit) answers.clear()
      answer = f(key)
      answers.set(key, answer)
    }
    return answer as V
  }
}

/**
 * Parses RFC 3339 (up to nanoseconds) to nanoseconds since the epoch; undefined when malformed.
 * Remembered: a snapshot's objects share few distinct timestamps, and sorts read them often.
 */
export const parseRfc3339: (text: string) => bigint | undefined = memoized(parse, 100_000)

function parse(text: string): bigint | undefined {
  const m = RFC3339.exec(text)
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, frac, zone] = m
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
  if (Number.isNaN(ms)) return undefined
  // Date.UTC rolls invalid dates over (Feb 30 → Mar 2); reject them like time.Parse does.
  const check = new Date(ms)
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return undefined
  }
  let offsetSeconds = 0
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1
    const [zh, zm] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))]
    if (zh > 23 || zm > 59) return undefined // time.Parse: offsets within ±23:59
    offsetSeconds = sign * (zh * 3600 + zm * 60)
  }
  const nanos = frac ? BigInt(frac.padEnd(9, '0')) : 0n
  return (BigInt(ms / 1000) - BigInt(offsetSeconds)) * NS_PER_SECOND + nanos
}

/** A metav1.Time as the controller reads it: whole seconds. */
export function objectTime(text: string | undefined): bigint | undefined {
  if (!text) return undefined
  const ns = parseRfc3339(text)
  return ns === undefined ? undefined : (ns / NS_PER_SECOND) * NS_PER_SECOND - (ns < 0n && ns % NS_PER_SECOND !== 0n ? NS_PER_SECOND : 0n)
}

export function formatRfc3339(ns: bigint): string {
  const seconds = ns / NS_PER_SECOND
  const frac = ns % NS_PER_SECOND
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19)
  return frac === 0n ? `${base}Z` : `${base}.${frac.toString().padStart(9, '0').replace(/0+$/, '')}Z`
}

/** A clock reading as metav1.Time stores it: whole seconds (the fraction is dropped on the wire). */
export function wholeSeconds(ns: bigint): bigint {
  return (ns / NS_PER_SECOND) * NS_PER_SECOND
}

export function seconds(n: number): bigint {
  return BigInt(n) * NS_PER_SECOND
}

/**
 * The base-2 logarithmic age bucket of `t` at `now`, as logarithmicRankDiff (controller_utils.go)
 * computes it: int64(math.Log2(float64(now − t))) in nanoseconds, −1 when the age is not positive.
 * math.Log2 is reproduced (frexp, then Log(frac)·Log2E + exp) so boundaries fall where Go's do.
 */
export function logBucket(t: bigint, now: bigint): number {
  const age = now - t
  if (age <= 0n) return -1
  return Math.trunc(goLog2(Number(age)))
}

function goLog2(x: number): number {
  const [frac, exp] = frexp(x)
  if (frac === 0.5) return exp - 1 // exact powers of two
  return Math.log(frac) * Math.LOG2E + exp
}

const FLOAT = new Float64Array(1)
const BITS = new Uint32Array(FLOAT.buffer)

/** math.Frexp for positive finite x: x = frac · 2^exp with frac in [0.5, 1), read off the IEEE bits (BITS[1] is the high word on little-endian hosts, which every Node platform is). */
function frexp(x: number): [number, number] {
  FLOAT[0] = x
  let biased = (BITS[1] >>> 20) & 0x7ff
  let shift = 0
  if (biased === 0) {
    // Subnormal: scale into the normal range first.
    FLOAT[0] = x * 2 ** 64
    biased = (BITS[1] >>> 20) & 0x7ff
    shift = 64
  }
  const exp = biased - 1022
  BITS[1] = (BITS[1] & 0x800fffff) | (1022 << 20) // exponent of [0.5, 1)
  return [FLOAT[0], exp - shift]
}
