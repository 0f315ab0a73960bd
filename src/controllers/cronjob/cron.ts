// The schedule grammar the CronJob controller accepts — github.com/robfig/cron/v3 ParseStandard:
// five fields (minute hour day-of-month month day-of-week) with `*`, `?`, ranges, steps, lists and
// month/weekday names, the descriptors @yearly @annually @monthly @weekly @daily @midnight @hourly
// and `@every <duration>`, and an optional `TZ=`/`CRON_TZ=` prefix. Times are walked on the wall
// clock of the schedule's zone (IANA names, through Intl), as SpecSchedule.Next walks Go's time;
// a repeated wall-clock hour (clocks going back) fires once here, where the controller may fire twice.
import {formatRfc3339, memoized} from '../../reconcile/time.js'

const NS_PER_S = 1_000_000_000n
const NS_PER_MIN = 60n * NS_PER_S

export class CronError extends Error {}

interface Field {
  min: number
  max: number
  names?: Record<string, number>
}

const MONTHS: Record<string, number> = {jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12}
const DAYS: Record<string, number> = {sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6}
const FIELDS: Field[] = [
  {min: 0, max: 59},
  {min: 0, max: 23},
  {min: 1, max: 31},
  {min: 1, max: 12, names: MONTHS},
  {min: 0, max: 6, names: DAYS},
]

/** A parsed schedule: `next(t)` is the first activation strictly after t (ns since the epoch). */
export interface Schedule {
  zone: string
  next(t: bigint): bigint | undefined
}

interface Spec {
  sets: Set<number>[]
  /** Day-of-month or day-of-week was `*` or `?`: then both must match, else either. */
  domStar: boolean
  dowStar: boolean
}

/** Schedules parsed, by their text: CronJobs often share one (a schedule never changes once parsed). */
const parsedSchedules = new Map<string, Schedule | CronError>()

/** cron.ParseStandard (with the TZ prefix formatSchedule adds when spec.timeZone is set). */
export function parseSchedule(text: string): Schedule {
  let parsed = parsedSchedules.get(text)
  if (parsed === undefined) {
    try {
      parsed = parseScheduleText(text)
    } catch (error) {
      if (!(error instanceof CronError)) throw error
      parsed = error
    }
    if (parsedSchedules.size >= 1024) parsedSchedules.clear()
    parsedSchedules.set(text, parsed)
  }
  if (parsed instanceof CronError) throw parsed
  return parsed
}

function parseScheduleText(text: string): Schedule {
  let spec = text.trim()
  let zone = 'UTC'
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(spec)
  if (tz) {
    zone = tz[1]
    checkZone(zone)
    spec = spec.slice(tz[0].length).trim()
  }
  if (spec === '') throw new CronError('empty spec string')
  if (spec.startsWith('@')) return descriptor(spec, zone)
  const fields = spec.split(/\s+/)
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: ${spec}`)
  const sets = fields.map((f, i) => parseField(f, FIELDS[i]))
  const parsed: Spec = {sets, domStar: /^[*?]/.test(fields[2]), dowStar: /^[*?]/.test(fields[4])}
  return {zone, next: remembered((t) => nextSpec(parsed, zone, t))}
}

/**
 * `next` answering again from memory for a time already asked about: CronJobs that share a
 * schedule (parsed once) mostly ask it about the same times (their last schedule time, now).
 */
const remembered = (next: (t: bigint) => bigint | undefined) => memoized(next, 4096)

function descriptor(spec: string, zone: string): Schedule {
  const fixed: Record<string, string> = {
    '@yearly': '0 0 1 1 *',
    '@annually': '0 0 1 1 *',
    '@monthly': '0 0 1 * *',
    '@weekly': '0 0 * * 0',
    '@daily': '0 0 * * *',
    '@midnight': '0 0 * * *',
    '@hourly': '0 * * * *',
  }
  if (fixed[spec]) {
    const parsed = specOf(fixed[spec])
    return {zone, next: remembered((t) => nextSpec(parsed, zone, t))}
  }
  if (spec.startsWith('@every ')) {
    let delay = parseGoDuration(spec.slice(7).trim())
    // Every(): at least one second, whole seconds only.
    if (delay < NS_PER_S) delay = NS_PER_S
    delay -= delay % NS_PER_S
    return {zone, next: (t) => t + delay - (((t % NS_PER_S) + NS_PER_S) % NS_PER_S)}
  }
  throw new CronError(`unrecognized descriptor: ${spec}`)
}

function specOf(text: string): Spec {
  const fields = text.split(' ')
  return {sets: fields.map((f, i) => parseField(f, FIELDS[i])), domStar: fields[2] === '*', dowStar: fields[4] === '*'}
}

function parseField(text: string, f: Field): Set<number> {
  const out = new Set<number>()
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/')
    if (extra !== undefined) throw new CronError(`too many slashes: ${part}`)
    let lo: number
    let hi: number
    if (range === '*' || range === '?') [lo, hi] = [f.min, f.max]
    else {
      const bounds = range.split('-')
      if (bounds.length > 2) throw new CronError(`too many hyphens: ${part}`)
      lo = value(bounds[0], f)
      hi = bounds.length === 2 ? value(bounds[1], f) : lo
      // `N/step` runs from N to the field's end.
      if (stepText !== undefined && bounds.length === 1) hi = f.max
    }
    let step = 1
    if (stepText !== undefined) {
      step = positive(stepText)
      if (step === 0) throw new CronError(`step of range should be a positive number: ${part}`)
    }
    if (lo < f.min) throw new CronError(`beginning of range (${lo}) below minimum (${f.min}): ${part}`)
    if (hi > f.max) throw new CronError(`end of range (${hi}) above maximum (${f.max}): ${part}`)
    if (lo > hi) throw new CronError(`beginning of range (${lo}) beyond end of range (${hi}): ${part}`)
    for (let v = lo; v <= hi; v += step) out.add(v)
  }
  return out
}

function value(text: string, f: Field): number {
  const named = f.names?.[text.toLowerCase()]
  return named ?? positive(text)
}

function positive(text: string): number {
  if (!/^\d+$/.test(text)) throw new CronError(`failed to parse int from ${text}`)
  return Number(text)
}

/** time.ParseDuration: a sequence of decimal numbers with units ns, us, µs, ms, s, m, h. */
export function parseGoDuration(text: string): bigint {
  const units: Record<string, number> = {ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9}
  if (text === '0') return 0n
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy
  let total = 0
  let m: RegExpExecArray | null
  let end = 0
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * units[m[2]]
    end = re.lastIndex
  }
  if (end !== text.length || text === '') throw new CronError(`failed to parse duration @every ${text}: time: invalid duration "${text}"`)
  return BigInt(Math.round(total))
}

// ---- Zones ----

const formatters = new Map<string, Intl.DateTimeFormat>()

/** time.LoadLocation, as far as Intl knows the IANA names; offsets like "+01:00" are not zone names. */
export function checkZone(zone: string): void {
  if (zone === 'UTC' || zone === 'Local') return
  if (/^[+-]/.test(zone) || zone.includes(' ')) throw new CronError(`unknown time zone ${zone}`)
  formatter(zone)
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {timeZone: zone === 'Local' ? 'UTC' : zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric'})
    } catch {
      throw new CronError(`unknown time zone ${zone}`)
    }
    formatters.set(zone, f)
  }
  return f
}

/** The zone's offset from UTC at an instant, in nanoseconds. */
function offsetAt(zone: string, t: bigint): bigint {
  if (zone === 'UTC' || zone === 'Local') return 0n
  const ms = Number(t / 1_000_000n)
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
  return BigInt(wall - Math.floor(ms / 1000) * 1000) * 1_000_000n
}

/** A wall time (as if UTC) back to an instant in the zone: time.Date's choice of offset. */
function fromWall(zone: string, wall: bigint): bigint {
  const guess = wall - offsetAt(zone, wall)
  return wall - offsetAt(zone, guess)
}

/** The wall time of an instant as an RFC 3339 string with the zone's offset (time.RFC3339). */
export function formatInZone(t: bigint, zone: string): string {
  const off = offsetAt(zone, t)
  if (off === 0n) return formatRfc3339(t - (((t % NS_PER_S) + NS_PER_S) % NS_PER_S))
  const wall = formatRfc3339(t + off - (((t % NS_PER_S) + NS_PER_S) % NS_PER_S)).slice(0, 19)
  const mins = Number(off / NS_PER_MIN)
  const sign = mins < 0 ? '-' : '+'
  const abs = Math.abs(mins)
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** SpecSchedule.Next: the first matching minute after t on the zone's wall clock (five years at most). */
function nextSpec(s: Spec, zone: string, t: bigint): bigint | undefined {
  const [minutes, hours, doms, months, dows] = s.sets
  // Start at the next whole second, then at second 0 of the next minute if needed.
  let wall = t + offsetAt(zone, t)
  wall = wall - (((wall % NS_PER_MIN) + NS_PER_MIN) % NS_PER_MIN) + NS_PER_MIN
  const limit = wall + 5n * 366n * 24n * 60n * NS_PER_MIN
  while (wall <= limit) {
    const d = new Date(Number(wall / 1_000_000n))
    if (!months.has(d.getUTCMonth() + 1)) {
      wall = BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) * 1_000_000n
      continue
    }
    const domMatch = doms.has(d.getUTCDate())
    const dowMatch = dows.has(d.getUTCDay())
    const dayOk = s.domStar || s.dowStar ? domMatch && dowMatch : domMatch || dowMatch
    if (!dayOk) {
      wall = BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)) * 1_000_000n
      continue
    }
    if (!hours.has(d.getUTCHours())) {
      wall = BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1)) * 1_000_000n
      continue
    }
    if (!minutes.has(d.getUTCMinutes())) {
      wall += NS_PER_MIN
      continue
    }
    const instant = fromWall(zone, wall)
    // A wall time the zone skips (clocks going forward) never comes: SpecSchedule.Next walks real
    // hours and passes over it. (A wall time repeated when clocks go back is taken once here.)
    if (instant + offsetAt(zone, instant) !== wall) {
      wall += NS_PER_MIN
      continue
    }
    if (instant > t) return instant
    wall += NS_PER_MIN
  }
  return undefined
}
