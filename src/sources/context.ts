// The type checks every reader applies to one object (Ctx), and the Problems they record: what the
// API server would have refused, at a field. Shared by the Normalizer, the controllers' readers and
// `kctl check`.
import type {Labels, Origin} from '../model/objects.js'
import {UserError} from '../errors.js'
import {labelKeyProblem, labelValueProblem} from '../reconcile/selector.js'
import type {Path, RawObject, SourceObject} from './documents.js'

/** Something the API server would have refused, at a field of an object. */
export interface Problem {
  readonly path: Path
  readonly message: string
  readonly hint?: string
  readonly kind: string
  readonly namespace?: string
  readonly name?: string
  /** The object's position in the input (SourceObject.ordinal): problems come in this order. */
  readonly ordinal: number
  /** The field's position (computed on demand: it reads the file again). */
  origin(): Origin
}

/** `spec.selector.matchExpressions[0].operator`, `metadata.labels["app.kubernetes.io/name"]`. */
export function formatPath(path: Path): string {
  let out = ''
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(step)) out += out === '' ? step : `.${step}`
    else out += `[${JSON.stringify(step)}]`
  }
  return out
}

/** The one line for a problem, as a UserError. */
export function problemError(problem: Problem, more = 0): UserError {
  const where = problem.path.length > 0 ? `${formatPath(problem.path)}: ` : ''
  const extra = more > 0 ? `${more} more problem${more === 1 ? '' : 's'} in the input` : ''
  const hint = [problem.hint, extra].filter(Boolean).join('; ') || undefined
  return new UserError(`${where}${problem.message}`, {origin: problem.origin(), hint})
}

// ---------------------------------------------------------------------------------------------
// Value checks. Go's JSON decoding decides what is accepted: a field of type int32 takes a JSON
// number with an integer value in range (YAML `3` and `3.0` both qualify), a string field takes
// only a string, a map[string]string only string values.

export function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  if (typeof v === 'string') return JSON.stringify(v)
  return String(v)
}

export function typeHint(v: unknown): string | undefined {
  if (typeof v === 'boolean') return 'YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value'
  if (typeof v === 'number') return 'quote the value to make it a string'
  return undefined
}

export const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
export const INT32_MAX = 2147483647

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const d2 = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48
const isDigits = (s: string, from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** The usual `2026-11-22T10:00:00Z`, checked without a regular expression (it is on every pod). */
export function isPlainUtcTime(s: string): boolean {
  if (s.length !== 20 || s.charCodeAt(19) !== 90 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false
  if (!isDigits(s, 0, 4) || !isDigits(s, 5, 7) || !isDigits(s, 8, 10) || !isDigits(s, 11, 13) || !isDigits(s, 14, 16) || !isDigits(s, 17, 19)) return false
  const month = d2(s, 5)
  const day = d2(s, 8)
  return month >= 1 && month <= 12 && day >= 1 && day <= 28 && d2(s, 11) <= 23 && d2(s, 14) <= 59 && d2(s, 17) <= 59
}

/** Why `s` is not a time metav1.Time accepts (time.Parse with RFC 3339), or undefined. */
export function timestampProblem(s: string): string | undefined {
  if (isKnownTime(s) || isPlainUtcTime(s)) return undefined
  const m = RFC3339.exec(s)
  if (!m) return `expected an RFC 3339 time such as "2026-11-22T10:00:00Z", got ${JSON.stringify(s)}`
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (month < 1 || month > 12) return `month out of range in ${JSON.stringify(s)}`
  if (day < 1 || day > DAYS[month - 1] || (month === 2 && day === 29 && !leap)) return `day out of range in ${JSON.stringify(s)}`
  if (hour > 23 || minute > 59 || second > 59) return `time of day out of range in ${JSON.stringify(s)}`
  if (m[8] && (Number(m[9]) > 23 || Number(m[10]) > 59)) return `time zone offset out of range in ${JSON.stringify(s)}`
  if (m[7] && m[7].length > 9) return `at most 9 fractional digits are kept, in ${JSON.stringify(s)}`
  return undefined
}

/**
 * The last two times found valid: the objects read one after another mostly carry the same few
 * times (a controller's pods, created together, ready together), which are then checked once and
 * kept as one string each.
 */
let timeA = '1970-01-01T00:00:00Z'
let timeB = timeA
let older = false
const isKnownTime = (v: string) => v === timeA || v === timeB
function keptTime(v: string, copy: boolean): string {
  if (v === timeA) return timeA
  if (v === timeB) return timeB
  const kept = copy ? detach(v) : v // (a slice would keep its whole document text alive)
  if (older) timeB = kept
  else timeA = kept
  older = !older
  return kept
}

export const EMPTY: Labels = Object.freeze({})
export const EMPTY_RAW: RawObject = Object.freeze({}) as RawObject

/**
 * A string that holds no reference to the text it was cut from. js-yaml builds scalars as slices
 * of the document text, and V8 keeps a slice of 13 characters or more as a view of the whole text:
 * a pod's uid would keep its whole document alive. Strings kept in the snapshot are detached.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1)
}

function detachMap(map: Labels): Labels {
  let copy: Record<string, string> | undefined
  for (const key in map) {
    copy ??= {}
    copy[key] = detach(map[key])
  }
  return copy ?? EMPTY
}

/**
 * Label keys already found valid: the same few keys repeat on every pod, and checking a set is
 * cheaper than the key syntax. Bounded, so memory stays small. (Values are checked a character at
 * a time, see isLabelValue: most are seen once or a few times, and hashing one costs as much.)
 */
const VALID_LABEL_KEYS = new Set<string>()
function cacheValid(set: Set<string>, s: string): void {
  if (set.size >= 50_000) set.clear()
  set.add(detach(s)) // (a slice would keep its whole document text alive)
}

/**
 * validation.IsValidLabelValue, a character at a time: empty, or at most 63 of `A-Za-z0-9-_.`
 * beginning and ending with an alphanumeric (labelValueProblem words the problem).
 */
export function isLabelValue(s: string): boolean {
  const n = s.length
  if (n === 0) return true
  if (n > 63) return false
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    const ends = (i === 0 ? 1 : 0) + (i === n - 1 ? 1 : 0)
    if ((c < 0x80 ? LABEL_VALUE_CHARS[c] : NOT_LABEL) & (ends === 0 ? INSIDE : ALNUM)) continue
    return false
  }
  return true
}

/**
 * What each ASCII character may be in a label value, as bits: alphanumeric (anywhere), or one of
 * `-_.` (inside only). The same steps for every character: a test first met late (at the first
 * digit or dash after values of letters only) would throw out the optimised code of every reader.
 */
const NOT_LABEL = 0
const ALNUM = 1
const INNER = 2
/** What a character inside a value may be. */
const INSIDE = ALNUM | INNER
const LABEL_VALUE_CHARS = new Uint8Array(0x80)
for (let c = 0; c < 0x80; c++) {
  const alnum = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a)
  LABEL_VALUE_CHARS[c] = alnum ? ALNUM : c === 0x2d || c === 0x5f || c === 0x2e ? INNER : NOT_LABEL
}

/**
 * Every value a string and a valid label value, every key one found valid before: labels as
 * Ctx.labels keeps them, checked in one walk (most objects' labels; anything else is checked
 * field by field, each problem reported).
 */
function soundLabels(map: RawObject): boolean {
  for (const key in map) {
    const value = map[key]
    if (typeof value !== 'string' || !VALID_LABEL_KEYS.has(key) || !isLabelValue(value)) return false
  }
  return true
}

/**
 * Type checks for one object; each failure becomes a Problem at the field. Exported for `kctl check`,
 * which applies the same checks to the kinds the planner does not read (Deployment, Job, ...).
 */
export class Ctx {
  /** Whether strings must be detached before they are kept (see detach). */
  readonly copy: boolean
  constructor(
    readonly obj: SourceObject,
    private readonly problems: Problem[],
    private readonly kind: string,
  ) {
    this.copy = obj.locator.format === 'yaml'
  }

  own(s: string): string
  own(s: string | undefined): string | undefined
  own(s: string | undefined): string | undefined {
    return this.copy && s !== undefined ? detach(s) : s
  }

  ownMap(map: Labels): Labels {
    return this.copy ? detachMap(map) : map
  }

  fail(path: Path, message: string, hint?: string, atKey = false): void {
    const obj = this.obj
    const meta = isMapping(obj.raw.metadata) ? obj.raw.metadata : undefined
    const name = typeof meta?.name === 'string' ? meta.name : undefined
    const namespace = typeof meta?.namespace === 'string' ? meta.namespace : undefined
    const locator = obj.locator
    let origin: Origin | undefined
    this.problems.push({
      path,
      message,
      hint,
      kind: this.kind,
      name,
      namespace,
      ordinal: obj.ordinal,
      origin: () => (origin ??= path.length === 0 ? locator.origin : locator.locate(path, {key: atKey})),
    })
  }

  string(v: unknown, path: Path): string | undefined {
    if (typeof v === 'string') return v
    if (v === undefined || v === null) return undefined
    this.fail(path, `expected a string, got ${describe(v)}`, typeHint(v))
    return undefined
  }

  /** A string field of a list item (`base[i].field`); the path is built only on failure. */
  itemString(item: RawObject, field: string, base: Path, i: number, required: boolean): string | undefined {
    const v = item[field]
    if (typeof v === 'string') {
      if (v === '' && required) this.fail([...base, i, field], `${field} is required`)
      return v
    }
    if (v === undefined || v === null) {
      if (required) this.fail([...base, i, field], `${field} is required`)
      return undefined
    }
    this.fail([...base, i, field], `expected a string, got ${describe(v)}`, typeHint(v))
    return undefined
  }

  itemTime(item: RawObject, field: string, base: Path, i: number): string | undefined {
    const v = item[field]
    if (typeof v === 'string' && (isKnownTime(v) || isPlainUtcTime(v))) return keptTime(v, this.copy)
    return this.time(v, [...base, i, field])
  }

  bool(v: unknown, path: Path): boolean | undefined {
    if (typeof v === 'boolean' || v === undefined || v === null) return (v ?? undefined) as boolean | undefined
    this.fail(path, `expected true or false, got ${describe(v)}`)
    return undefined
  }

  /** An integer field (int32/int64 in Go) within [min, max]; undefined when absent or null. */
  int(v: unknown, path: Path, min: number, max: number): number | undefined {
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v
    if (v === undefined || v === null) return undefined
    const what = min === 0 ? 'a non-negative integer' : 'an integer'
    if (typeof v === 'number' && Number.isInteger(v) && v > max) this.fail(path, `expected ${what} of at most ${max}, got ${v}`)
    else this.fail(path, `expected ${what}, got ${describe(v)}`, typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? 'remove the quotes' : undefined)
    return undefined
  }

  mapping(v: unknown, path: Path): RawObject | undefined {
    if (isMapping(v)) return v
    if (v === undefined || v === null) return undefined
    this.fail(path, `expected a mapping, got ${describe(v)}`)
    return undefined
  }

  time(v: unknown, path: Path): string | undefined {
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'string') {
      this.fail(path, `expected an RFC 3339 time string, got ${describe(v)}`)
      return undefined
    }
    if (isKnownTime(v)) return keptTime(v, this.copy)
    const problem = timestampProblem(v)
    if (problem) {
      this.fail(path, problem)
      return undefined
    }
    return keptTime(v, this.copy)
  }

  /** map[string]string. */
  stringMap(v: unknown, path: Path): Labels {
    if (v === undefined || v === null) return EMPTY
    if (!isMapping(v)) {
      this.fail(path, `expected a mapping of strings, got ${describe(v)}`)
      return EMPTY
    }
    let nulls: Record<string, string> | undefined
    for (const key in v) {
      const value = v[key]
      if (value === null) (nulls ??= {})[key] = ''
      else if (typeof value !== 'string') this.fail([...path, key], `expected a string, got ${describe(value)}`, typeHint(value))
    }
    // `app:` with no value is null in YAML; the API server decodes null into a map[string]string
    // entry as the empty string, so the label exists with value "".
    return nulls ? {...(v as Labels), ...nulls} : (v as Labels)
  }

  /** Labels: a string map whose keys and values are valid label keys and values. */
  labels(v: unknown, path: Path): Labels {
    if (isMapping(v) && soundLabels(v)) return v as Labels
    const map = this.stringMap(v, path)
    for (const key in map) {
      const value = map[key]
      if (typeof value !== 'string') continue
      // The key and the value apart: a key found valid is not checked again for a value never seen (a pod's own name).
      if (!VALID_LABEL_KEYS.has(key)) {
        const keyProblem = labelKeyProblem(key)
        if (keyProblem) {
          this.fail([...path, key], keyProblem, undefined, true)
          continue
        }
        cacheValid(VALID_LABEL_KEYS, key)
      }
      if (isLabelValue(value)) continue
      const valueProblem = labelValueProblem(value)
      if (valueProblem) this.fail([...path, key], valueProblem)
    }
    return map
  }
}
