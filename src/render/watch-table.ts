// `kctl watch` for people: one row per controller — desired, active, ready, diff, the next actions
// (`+2 -1 ~1`: creates, deletes, adoptions/releases/status writes), time since its plan last
// changed — redrawn in place on a terminal with the cells that just changed marked; or, when
// asked for a table on something that is not a terminal, one appended line per change (as
// `kubectl get -w`). Pure: rows and the clock in, lines out.
import {Chalk} from 'chalk'

import {podChange, readyAndAvailable, type ControllerPlan} from '../model/plan.js'
import type {ChangedField, PlanChange, WatchStatus} from '../model/watch.js'
import {controllerOf, plannedKinds} from './dispatch.js'
import {humanDuration, signed} from './words.js'

export type Column = 'desired' | 'active' | 'ready' | 'diff' | 'next'

export interface WatchRow {
  key: string
  kind: string
  namespace: string
  name: string
  desired: number
  active: number
  ready: number
  diff: number
  next: string
  inSync: boolean
  warnings: number
  /** When the plan last changed (ms since the epoch). */
  changedAt: number
  /** The cells that changed then. */
  changed: Column[]
}

/**
 * `+2 -1 ~1 (+3 later)`; `in sync` when the controller would do nothing — or only calls that
 * write nothing (a Service's load balancer re-ensured as it is).
 */
export function nextActions(plan: ControllerPlan): string {
  if (plan.inSync && plan.pending === 0) return 'in sync'
  let create = 0
  let del = 0
  let change = 0
  for (const a of plan.actions) {
    const pod = podChange(a)
    if (pod === 'create') create++
    else if (pod === 'delete') del++
    else change++
  }
  const parts: string[] = []
  if (create) parts.push(`+${create}`)
  if (del) parts.push(`-${del}`)
  if (change) parts.push(`~${change}`)
  if (plan.pending > 0) parts.push(`(${plan.diff < 0 ? '+' : '-'}${plan.pending} later)`)
  return parts.length === 0 ? 'in sync' : parts.join(' ')
}

/** `rs/web`: the kind as kubectl's short name when its controller gives one (render part's shortNames). */
export function controllerName(kind: string, name: string): string {
  const short = (controllerOf(kind)?.render.shortNames as Readonly<Record<string, string>> | undefined)?.[kind]
  return `${short ?? kind}/${name}`
}

function columns(changed: readonly ChangedField[]): Column[] {
  const out: Column[] = []
  for (const c of changed) {
    if (c === 'desired' || c === 'active' || c === 'ready' || c === 'diff') out.push(c)
    else if ((c === 'actions' || c === 'pending') && !out.includes('next')) out.push('next')
  }
  return out
}

export function rowOf(plan: ControllerPlan, changedAt: number, changed: readonly ChangedField[], key: string): WatchRow {
  return {
    key,
    kind: plan.kind,
    namespace: plan.namespace,
    name: plan.name,
    desired: plan.desired,
    active: plan.active,
    ready: readyAndAvailable(plan.status).ready,
    diff: plan.diff,
    next: nextActions(plan),
    inSync: plan.inSync,
    warnings: plan.warnings.length,
    changedAt,
    changed: columns(changed),
  }
}

export interface LiveTableOptions {
  nowMs: number
  /** Terminal size: lines are cut to `width`, rows to fit `height`. */
  width: number
  height: number
  color: boolean
  title: string
  /** How long a changed cell stays marked. */
  highlightMs?: number
}

const HEADER = ['NAMESPACE', 'CONTROLLER', 'DESIRED', 'ACTIVE', 'READY', 'DIFF', 'NEXT', 'CHANGED']

/** The whole screen: title and table. Rows not in sync (and just changed) are kept when it must be cut. */
export function renderLiveTable(rows: readonly WatchRow[], o: LiveTableOptions): string[] {
  const c = new Chalk({level: o.color ? 1 : 0})
  const highlightMs = o.highlightMs ?? 3000
  const room = Math.max(1, o.height - 3)
  let shown = [...rows]
  let hidden = 0
  if (shown.length > room) {
    const keep = new Set(
      [...shown]
        .sort((a, b) => Number(a.inSync) - Number(b.inSync) || b.changedAt - a.changedAt)
        .slice(0, room - 1)
        .map((r) => r.key),
    )
    hidden = shown.length - keep.size
    shown = shown.filter((r) => keep.has(r.key))
  }
  const fresh = (r: WatchRow, col: Column) => o.nowMs - r.changedAt < highlightMs && r.changed.includes(col)
  const cells = shown.map((r) => [
    r.namespace,
    controllerName(r.kind, r.name),
    String(r.desired),
    String(r.active),
    String(r.ready),
    signed(r.diff),
    r.next,
    humanDuration(Math.max(0, o.nowMs - r.changedAt)),
  ])
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length + 1)))
  const COLS: Array<Column | undefined> = [undefined, undefined, 'desired', 'active', 'ready', 'diff', 'next', undefined]
  const lines = [c.bold(o.title), HEADER.map((h, i) => h.padEnd(widths[i])).join('  ').trimEnd()]
  shown.forEach((r, ri) => {
    const parts = cells[ri].map((cell, i) => {
      const col = COLS[i]
      const marked = col !== undefined && fresh(r, col)
      // Without colour a trailing `*` marks a cell that just changed.
      const text = (marked && !o.color ? `${cell}*` : cell).padEnd(widths[i])
      if (marked) return c.inverse(text)
      if (i === 6) return r.inSync ? c.green(text) : c.yellow(text)
      return text
    })
    lines.push(parts.join('  ').trimEnd())
  })
  if (rows.length === 0) lines.push(c.dim(`(no ${plannedKinds('or')} yet)`))
  if (hidden > 0) lines.push(c.dim(`… ${hidden} more in sync, not shown (the terminal is too small)`))
  return lines.map((l) => cut(l, o.width))
}

/** Cuts a line to `width` visible characters, keeping escape sequences whole. */
export function cut(line: string, width: number): string {
  if (width <= 0) return line
  let visible = 0
  let out = ''
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\u001B') {
      const m = /^\u001B\[[0-9;]*[A-Za-z]/.exec(line.slice(i))
      if (m) {
        out += m[0]
        i += m[0].length - 1
        continue
      }
    }
    if (visible >= width) continue
    out += line[i]
    visible++
  }
  return out
}

const APPEND_WIDTHS = [8, 9, 16, 28, 7, 6, 5, 5]
const APPEND_HEADER = ['TIME', 'EVENT', 'NAMESPACE', 'CONTROLLER', 'DESIRED', 'ACTIVE', 'READY', 'DIFF', 'NEXT']

/** Header of the appended table (a table asked for on something that is not a terminal). */
export function appendHeader(): string {
  return `${APPEND_HEADER.map((h, i) => (i < APPEND_WIDTHS.length ? h.padEnd(APPEND_WIDTHS[i]) : h)).join(' ')}\n`
}

/** One appended line per change (the time of day, UTC, as kubectl's events show it). */
export function appendLine(change: PlanChange): string {
  const p = change.next ?? change.previous!
  const event = change.next ? change.event.type : 'REMOVED'
  const time = /^\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d)/.exec(change.time)?.[1] ?? change.time
  const cells = change.next
    ? [time, event, p.namespace, controllerName(p.kind, p.name), String(p.desired), String(p.active), String(readyAndAvailable(p.status).ready), signed(p.diff), nextActions(p)]
    : [time, event, p.namespace, controllerName(p.kind, p.name), '', '', '', '', '(gone)']
  return `${cells.map((cell, i) => (i < APPEND_WIDTHS.length ? cell.padEnd(APPEND_WIDTHS[i]) : cell)).join(' ').trimEnd()}\n`
}

/** A WatchStatus in words, for stderr and the live view's notes. */
export function statusLine(s: WatchStatus): string {
  const on = s.resource ? ` ${s.resource}` : ''
  switch (s.status) {
    case 'synced':
      return `watching ${s.controllers ?? 0} controller${s.controllers === 1 ? '' : 's'}`
    case 'relisted':
      return `relisted${on} at resourceVersion ${s.resourceVersion} (${s.message}): ${s.added ?? 0} added, ${s.updated ?? 0} changed, ${s.deleted ?? 0} gone`
    case 'disconnected':
      return `lost the watch of${on} at resourceVersion ${s.resourceVersion} (${s.message}); ${s.retryInMs ? `retrying in ${(s.retryInMs / 1000).toFixed(1)} s` : 'reopening it'}`
    case 'reconnected':
      return `resumed the watch of${on} from resourceVersion ${s.resourceVersion}`
    case 'resync':
      return 'resync: planning every controller again'
    case 'error':
      return s.message ?? 'error'
    case 'converged':
      return `every controller is in sync (${s.controllers ?? 0})`
    case 'timeout':
      return `timed out with ${s.pending?.length ?? 0} controller${s.pending?.length === 1 ? '' : 's'} not in sync${s.pending?.length ? `: ${s.pending.join(', ')}` : ''}`
  }
}
