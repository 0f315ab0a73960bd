// Set-based selectors as constraints on label sets: is the AND of some requirements satisfiable,
// and by which concrete labels? Requirements on different keys are independent, so the question
// is answered key by key:
//   In(k, S)          k present, value in S          (matchLabels k: v is In(k, {v}))
//   NotIn(k, S)       k absent, or value not in S    (upstream: a missing key satisfies NotIn)
//   Exists(k)         k present, any value (the empty string included)
//   DoesNotExist(k)   k absent
// A key is satisfiable unless it must be both present and absent, or every value its In sets allow
// is excluded by a NotIn. A witness takes, per key, a value that is allowed (preferring values seen
// in real pod templates), leaves out keys that may be absent, and omits keys that must be.
import type {Labels} from '../model/objects.js'
import {labelValueProblem, type Requirement} from '../reconcile/selector.js'

interface KeyConstraint {
  /** true: must be present; false: must be absent; undefined: either. */
  presence?: boolean
  /** Intersection of all In sets on the key (undefined: no In on it). */
  allowed?: Set<string>
  /** Union of all NotIn sets. */
  forbidden: Set<string>
}

export type Constraints = Map<string, KeyConstraint>

/** The requirements as per-key constraints; undefined when they contradict each other. */
export function constraintsOf(reqs: readonly Requirement[], into: Constraints = new Map()): Constraints | undefined {
  for (const r of reqs) {
    let c = into.get(r.key)
    if (!c) into.set(r.key, (c = {forbidden: new Set()}))
    switch (r.operator) {
      case 'In': {
        if (c.presence === false) return undefined
        c.presence = true
        const values = new Set(r.values)
        c.allowed = c.allowed ? new Set([...c.allowed].filter((v) => values.has(v))) : values
        break
      }
      case 'NotIn':
        for (const v of r.values) c.forbidden.add(v)
        break
      case 'Exists':
        if (c.presence === false) return undefined
        c.presence = true
        break
      case 'DoesNotExist':
        if (c.presence === true) return undefined
        c.presence = false
        break
      default:
        // Gt/Lt exist only in the string syntax (-l), never in an object's selector.
        return undefined
    }
    if (c.allowed && [...c.allowed].every((v) => c.forbidden.has(v))) return undefined
  }
  return into
}

/** Whether some label set satisfies every requirement. */
export function satisfiable(reqs: readonly Requirement[]): boolean {
  return singleValued(reqs) || constraintsOf(reqs) !== undefined
}

/**
 * The common selector (matchLabels): In requirements of one value each, on different keys. It is
 * satisfiable, and pins each key to its value, without working out constraints.
 */
function singleValued(reqs: readonly Requirement[]): boolean {
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i]
    if (r.operator !== 'In' || r.values.length !== 1) return false
    for (let j = 0; j < i; j++) if (reqs[j].key === r.key) return false
  }
  return true
}

/**
 * A label set that satisfies both requirement lists, or undefined when none does. `hints` are
 * label sets whose values are preferred (pod templates), so the witness reads like a real pod.
 */
export function intersection(a: readonly Requirement[], b: readonly Requirement[], hints: readonly Labels[] = []): Labels | undefined {
  const constraints = constraintsOf(a)
  if (!constraints || !constraintsOf(b, constraints)) return undefined
  return witness(constraints, hints)
}

function witness(constraints: Constraints, hints: readonly Labels[]): Labels {
  const out: Record<string, string> = {}
  for (const key of [...constraints.keys()].sort()) {
    const c = constraints.get(key)!
    if (c.presence !== true) continue // absent satisfies NotIn and DoesNotExist
    const ok = (v: string) => !c.forbidden.has(v) && (!c.allowed || c.allowed.has(v))
    let value: string | undefined
    for (const h of hints) {
      const v = h[key]
      if (v !== undefined && ok(v)) {
        value = v
        break
      }
    }
    if (value === undefined && c.allowed) value = [...c.allowed].filter(ok).sort()[0]
    if (value === undefined) {
      // Exists with NotIn exclusions only: any valid value outside them.
      for (let i = 0; value === undefined; i++) {
        const candidate = i === 0 ? 'example' : `example-${i}`
        if (ok(candidate) && !labelValueProblem(candidate)) value = candidate
      }
    }
    out[key] = value
  }
  return out
}

/**
 * Per key, the single value the requirements pin it to (an In with one value, or several In
 * whose intersection has one value): the handle used to index selectors.
 */
export function pinnedValues(reqs: readonly Requirement[]): Map<string, string> {
  const out = new Map<string, string>()
  if (singleValued(reqs)) {
    for (const r of reqs) out.set(r.key, r.values[0])
    return out
  }
  const constraints = constraintsOf(reqs)
  if (!constraints) return out
  for (const [key, c] of constraints) {
    if (c.allowed && c.allowed.size === 1) out.set(key, [...c.allowed][0])
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Candidate pairs without comparing every pair: two selectors that pin a common key to different
// values cannot intersect. Selectors are partitioned by the value they pin a key to, key after key;
// only pairs that agree on every key both pin are produced (each exactly once). Pairs that pin no
// common key come out of the cross step, and are then only as many as the input truly has.

export interface Pinned {
  /** key → the value pinned. */
  pins: Map<string, string>
}

/**
 * Calls `emit(i, j)` (i < j, indexes into `items`) for every pair of items whose pins agree on
 * every key both pin, among the pairs that share the key `key` (both constrain it: `members`).
 */
export function agreeingPairs(items: readonly Pinned[], members: readonly number[], emit: (i: number, j: number) => void): void {
  within(items, members, new Set(), emit)
}

const SMALL = 8

/** Whether two items pin no common key to different values. */
function agree(a: Pinned, b: Pinned): boolean {
  const small = a.pins.size <= b.pins.size ? a.pins : b.pins
  const large = small === a.pins ? b.pins : a.pins
  // (called for every candidate pair: no array to pick the smaller map, no destructuring of an entry)
  for (const pin of small) {
    const w = large.get(pin[0])
    if (w !== undefined && w !== pin[1]) return false
  }
  return true
}

function emitAll(items: readonly Pinned[], members: readonly number[], emit: (i: number, j: number) => void): void {
  for (let x = 0; x < members.length; x++) {
    for (let y = x + 1; y < members.length; y++) {
      const i = members[x]
      const j = members[y]
      if (agree(items[i], items[j])) emit(Math.min(i, j), Math.max(i, j))
    }
  }
}

function emitCross(items: readonly Pinned[], xs: readonly number[], ys: readonly number[], emit: (i: number, j: number) => void): void {
  for (const i of xs) for (const j of ys) if (agree(items[i], items[j])) emit(Math.min(i, j), Math.max(i, j))
}

/** The key pinned by most of `members` among those not used yet, and how many pin it. */
function busiestKey(items: readonly Pinned[], groups: ReadonlyArray<readonly number[]>, used: ReadonlySet<string>): [string | undefined, number] {
  const counts = new Map<string, number>()
  for (const g of groups) {
    for (const m of g) {
      for (const key of items[m].pins.keys()) if (!used.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  }
  let best: string | undefined
  let bestCount = 0
  for (const [key, n] of counts) {
    if (n > bestCount || (n === bestCount && best !== undefined && key < best)) {
      best = key
      bestCount = n
    }
  }
  return [best, bestCount]
}

function split(items: readonly Pinned[], members: readonly number[], key: string): {byValue: Map<string, number[]>; rest: number[]} {
  const byValue = new Map<string, number[]>()
  const rest: number[] = []
  for (const m of members) {
    const v = items[m].pins.get(key)
    if (v === undefined) rest.push(m)
    else {
      let g = byValue.get(v)
      if (!g) byValue.set(v, (g = []))
      g.push(m)
    }
  }
  return {byValue, rest}
}

function within(items: readonly Pinned[], members: readonly number[], used: Set<string>, emit: (i: number, j: number) => void): void {
  if (members.length < 2) return
  if (members.length <= SMALL) return emitAll(items, members, emit)
  const [key] = busiestKey(items, [members], used)
  if (key === undefined) return emitAll(items, members, emit)
  const next = new Set(used).add(key)
  const {byValue, rest} = split(items, members, key)
  const pinned: number[] = []
  for (const g of byValue.values()) {
    within(items, g, next, emit)
    for (const m of g) pinned.push(m)
  }
  within(items, rest, next, emit)
  if (rest.length > 0 && pinned.length > 0) cross(items, rest, pinned, next, emit)
}

function cross(items: readonly Pinned[], xs: readonly number[], ys: readonly number[], used: Set<string>, emit: (i: number, j: number) => void): void {
  if (xs.length === 0 || ys.length === 0) return
  if (xs.length * ys.length <= SMALL * SMALL) return emitCross(items, xs, ys, emit)
  const [key] = busiestKey(items, [xs, ys], used)
  if (key === undefined) return emitCross(items, xs, ys, emit)
  const next = new Set(used).add(key)
  const x = split(items, xs, key)
  const y = split(items, ys, key)
  for (const [v, gx] of x.byValue) {
    const gy = y.byValue.get(v)
    if (gy) cross(items, gx, gy, next, emit)
  }
  // Items that do not pin the key agree with everything on it.
  cross(items, x.rest, ys, next, emit)
  const xPinned = [...x.byValue.values()].flat()
  cross(items, xPinned, y.rest, next, emit)
}
