// `kctl simulate --load KIND/NAME=SPEC|FILE`: the demand on a workload over virtual time, which
// the simulation turns into the metrics its HorizontalPodAutoscaler reads (the HPA's simulate part,
// src/controllers/hpa/simulate.ts, spreads it over the target's Ready pods).
//
// SPEC, on the command line:
//   SPEC   := SERIES (';' SERIES)*
//   SERIES := METRIC ':' POINT (',' POINT)*
//   POINT  := VALUE ['@' OFFSET ['~' OFFSET]]   (a point without '@' is at 0s; offsets strictly increase)
//   VALUE  := a quantity: 600m, 1.5, 2, 512Mi, 10k
//   OFFSET := a duration after the start: 0s, 90s, 10m, 2h, 1h30m
// e.g. `cpu:600m@0s,1800m@10m,300m@2h`: 600 millicores of CPU in all from the start, 1800m from
// t+10m, 300m from t+2h. Each value holds until the next point (a step); before the first point
// the demand is the first value. A ramp `VALUE@FROM~TO` moves linearly from the value before it,
// held until FROM, to VALUE, reached at TO (`cpu:300m@0s,3000m@1m~5m`: 300m until t+1m, then up
// by 675m a minute, 3000m from t+5m); FROM is not before the point before it, and the first point
// cannot ramp (there is no value to ramp from).
// FILE (a path ending in .yaml, .yml or .json): a mapping of metric names, each to a SERIES' points
// as a string (`cpu: 600m@0s, 3000m@1m~5m`) or a list of `{at: OFFSET or FROM~TO, value: VALUE}`.
import {readFileSync} from 'node:fs'
import type {Node} from 'yaml'
import {UserError} from '../errors.js'
import {yamlPackage} from '../yaml-package.js'
import {parseDuration} from '../watch/duration.js'
import {parseTarget} from './changes.js'

/**
 * One point of a series: from `atSeconds` after the start, the demand is `value` (`milli`
 * thousandths of a unit). A ramp's point has `rampFromSeconds`: the demand leaves the value before
 * it there and moves linearly to this one, reached at `atSeconds`.
 */
export interface LoadPoint {
  atSeconds: number
  value: string
  milli: number
  rampFromSeconds?: number
}

/** The demand of one metric over time (`cpu`, `memory`, or a custom or external metric's name). */
export interface LoadSeries {
  metric: string
  points: LoadPoint[]
}

/** One --load: the workload (its kind as the simulated controllers name it) and its series. */
export interface Load {
  kind: string
  name: string
  series: LoadSeries[]
  /** The flag as given, for messages. */
  text: string
}

const FLAG_EXAMPLE = 'KIND/NAME=SPEC or KIND/NAME=FILE, e.g. deployment/web=cpu:600m@0s,1800m@10m'
const METRIC = /^[A-Za-z0-9_./-]+$/
const SUFFIX: Readonly<Record<string, number>> = {'': 1000, m: 1, k: 1e6, M: 1e9, G: 1e12, Ki: 1024e3, Mi: 1024 ** 2 * 1e3, Gi: 1024 ** 3 * 1e3}

/** A VALUE in thousandths (`600m` → 600, `1.5` → 1500, `1Mi` → 1048576000); undefined when it is not one. */
export function loadMilli(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(text.trim())
  if (!m) return undefined
  const milli = Math.round(Number(m[1]) * SUFFIX[m[2] ?? ''])
  return Number.isSafeInteger(milli) ? milli : undefined
}

/** `--load KIND/NAME=SPEC|FILE`, parsed (a FILE read with `read`). */
export function parseLoad(text: string, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): Load {
  const {kind, name, rest} = parseTarget(text, '--load', FLAG_EXAMPLE)
  if (rest === '') throw new UserError(`invalid --load "${text}": expected ${FLAG_EXAMPLE}`)
  const series = /\.(ya?ml|json)$/i.test(rest) ? loadFile(rest, read) : parseSpec(rest, (msg) => new UserError(`invalid --load "${text}": ${msg}`))
  return {kind, name, series, text}
}

/** A SPEC: its series, each checked. */
export function parseSpec(spec: string, fail: (message: string) => Error): LoadSeries[] {
  const out: LoadSeries[] = []
  for (const part of spec.split(';')) {
    const colon = part.indexOf(':')
    if (colon < 0) throw fail(`"${part.trim()}" has no METRIC: (e.g. cpu:600m@0s)`)
    out.push(series(part.slice(0, colon).trim(), part.slice(colon + 1), fail))
  }
  const names = out.map((s) => s.metric)
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice !== undefined) throw fail(`metric "${twice}" is given twice`)
  return out
}

/** One metric's points, from their text (`600m@0s,1800m@10m`). */
function series(metric: string, points: string, fail: (message: string) => Error): LoadSeries {
  if (!METRIC.test(metric)) throw fail(`"${metric}" is not a metric name (letters, digits, _ . / -)`)
  return {metric, points: checkPoints(metric, points.split(',').map((p) => pointText(p.trim())), fail)}
}

function pointText(p: string): {value: string; at: string} {
  const at = p.indexOf('@')
  return at < 0 ? {value: p, at: '0s'} : {value: p.slice(0, at).trim(), at: p.slice(at + 1).trim()}
}

/** An OFFSET in seconds, or undefined. */
function offsetSeconds(text: string): number | undefined {
  const ms = parseDuration(text)
  return ms === undefined || ms < 0 ? undefined : ms / 1000
}

/** The points checked; `failAt` names where point i stands, when it is known (a file's list). */
function checkPoints(metric: string, raw: ReadonlyArray<{value: string; at: string}>, fail: (message: string) => Error, failAt?: (i: number) => (message: string) => Error): LoadPoint[] {
  if (raw.length === 0) throw fail(`metric "${metric}" has no points`)
  const points: LoadPoint[] = []
  const notDuration = (t: string) => `"${t}" is not a duration after the start (e.g. 0s, 10m, 1h30m)`
  for (const [i, {value, at}] of raw.entries()) {
    const failHere = failAt?.(i) ?? fail
    const milli = loadMilli(value)
    if (milli === undefined) throw failHere(`"${value}" is not a quantity (e.g. 600m, 1.5, 512Mi)`)
    const tilde = at.indexOf('~')
    const prev = points.at(-1)
    if (tilde >= 0) {
      // A ramp FROM~TO: from the value before it, at FROM, to this one at TO.
      const fromText = at.slice(0, tilde).trim()
      const toText = at.slice(tilde + 1).trim()
      const from = offsetSeconds(fromText)
      if (from === undefined) throw failHere(notDuration(fromText))
      const to = offsetSeconds(toText)
      if (to === undefined) throw failHere(notDuration(toText))
      const point = `metric "${metric}", point ${i + 1} (${value}@${at})`
      if (!prev) throw failHere(`${point}: the first point cannot ramp: there is no value before it to ramp from`)
      if (to <= from) throw failHere(`${point}: the ramp ends (${toText}) no later than it starts (${fromText})`)
      if (from < prev.atSeconds) throw failHere(`${point}: the ramp starts before the point before it is reached (offsets strictly increase)`)
      points.push({atSeconds: to, value, milli, rampFromSeconds: from})
      continue
    }
    const atSeconds = offsetSeconds(at)
    if (atSeconds === undefined) throw failHere(notDuration(at))
    if (prev && atSeconds <= prev.atSeconds) throw failHere(`metric "${metric}": ${value}@${at} is not after the point before it (offsets strictly increase)`)
    points.push({atSeconds, value, milli})
  }
  return points
}

/** A load file: a mapping of metric names to points (a SPEC's string, or a list of {at, value}); errors name file:line:column. */
function loadFile(path: string, read: (path: string) => string): LoadSeries[] {
  let text: string
  try {
    text = read(path)
  } catch (e) {
    throw new UserError(`--load: cannot read ${path}: ${(e as Error).message}`, {origin: {file: path, line: 1, column: 1}, wholeFile: true})
  }
  // Loaded here only: every command that loads the HPA's controller would load it otherwise.
  const {isMap, isScalar, isSeq, LineCounter, parseDocument} = yamlPackage()
  const lc = new LineCounter()
  const doc = parseDocument(text, {lineCounter: lc, prettyErrors: false, uniqueKeys: true})
  const at = (node: Node | null | undefined, offset = 0) => {
    const pos = lc.linePos(node?.range ? node.range[0] : offset)
    return {file: path, line: pos.line, column: pos.col}
  }
  if (doc.errors.length > 0) throw new UserError(`invalid load file: ${doc.errors[0].message.split('\n')[0]}`, {origin: at(undefined, doc.errors[0].pos[0])})
  const root = doc.contents
  if (!isMap(root) || root.items.length === 0) throw new UserError('a load file is a mapping of metric names to points (e.g. cpu: 600m@0s, 1800m@10m)', {origin: at(root)})
  return root.items.map((pair) => {
    const key = pair.key as Node
    const metric = isScalar(key) ? String(key.value) : ''
    const value = pair.value as Node | null
    const failAt = (node: Node | null | undefined) => (message: string) => new UserError(message, {origin: at(node ?? key)})
    if (isScalar(value) && (typeof value.value === 'string' || typeof value.value === 'number')) return series(metric, String(value.value), failAt(value))
    if (isSeq(value)) {
      if (!METRIC.test(metric)) throw failAt(key)(`"${metric}" is not a metric name (letters, digits, _ . / -)`)
      const raw = value.items.map((item) => {
        const node = item as Node
        const obj = isMap(node) ? (node.toJSON() as Record<string, unknown>) : undefined
        if (!obj || obj.value === undefined) throw failAt(node)(`metric "${metric}": each point is {at: OFFSET, value: VALUE}`)
        return {value: String(obj.value), at: obj.at === undefined ? '0s' : String(obj.at), node}
      })
      return {metric, points: checkPoints(metric, raw, failAt(value), (i) => failAt(raw[i].node))}
    }
    throw failAt(value)(`metric "${metric}": expected points, as "600m@0s, 1800m@10m" or a list of {at, value}`)
  })
}

/** The demand of a series `offsetSeconds` after the start, in thousandths (on a ramp, rounded to the nearest). */
export function demandAt(s: LoadSeries, offsetSeconds: number): number {
  let milli = s.points[0].milli
  for (const p of s.points) {
    if (p.atSeconds <= offsetSeconds) {
      milli = p.milli
      continue
    }
    if (p.rampFromSeconds !== undefined && p.rampFromSeconds < offsetSeconds) {
      milli = Math.round(milli + ((p.milli - milli) * (offsetSeconds - p.rampFromSeconds)) / (p.atSeconds - p.rampFromSeconds))
    }
    break
  }
  return milli
}

/** The offsets (seconds after the start) at which a load's demand changes: each step, and each ramp's start and end. */
export function changeOffsets(load: Load): number[] {
  const offsets = load.series.flatMap((s) => s.points.slice(1).flatMap((p) => (p.rampFromSeconds === undefined ? [p.atSeconds] : [p.rampFromSeconds, p.atSeconds])))
  return [...new Set(offsets)].sort((a, b) => a - b)
}

/** A point as written: `3000m@1m`, or a ramp's `3000m@1m~5m` (`format` writes an offset). */
export function pointLabel(p: {value: string; atSeconds: number; rampFromSeconds?: number}, format: (seconds: number) => string): string {
  return `${p.value}@${p.rampFromSeconds === undefined ? '' : `${format(p.rampFromSeconds)}~`}${format(p.atSeconds)}`
}
