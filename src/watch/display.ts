// Where `kctl watch` shows what happens: a live table on a terminal, NDJSON for scripts (or when
// stdout is not a terminal), or, when a table is asked for on something else, appended lines.
// Statuses worth a person's attention (relisted, lost the watch, resumed, errors) also go to
// stderr as one line each.
import type {WatchUpdate} from '../model/watch.js'
import {watchUpdateLine} from '../render/watch-ndjson.js'
import {appendHeader, appendLine, statusLine} from '../render/watch-table.js'
import {LiveView, type TerminalStream} from './view.js'

export interface WatchDisplay {
  start(): void
  update(u: WatchUpdate): void
  /** A line for stderr (warnings). */
  note(line: string): void
  stop(): void
}

export interface DisplayOptions {
  mode: 'live' | 'ndjson' | 'append'
  out: TerminalStream
  err: TerminalStream
  color: boolean
  /** What is watched, for the live table's title: "context x, namespace y" or the -f paths. */
  what: string
}

const NOTED = new Set(['relisted', 'disconnected', 'reconnected', 'error'])

export function watchDisplay(o: DisplayOptions): WatchDisplay {
  const pending = new Set<string>()
  const controllers = new Set<string>()
  const count = (u: WatchUpdate) => {
    if (u.kind !== 'PlanChange') return
    if (u.next) controllers.add(u.key)
    else controllers.delete(u.key)
    if (u.next && !u.next.inSync) pending.add(u.key)
    else pending.delete(u.key)
  }
  const view =
    o.mode === 'live'
      ? new LiveView(o.out, o.err, {
          color: o.color,
          title: () => `kctl watch · ${o.what} · ${controllers.size} controller${controllers.size === 1 ? '' : 's'}, ${pending.size} not in sync · Ctrl-C to stop`,
        })
      : undefined
  const note = (line: string) => (view ? view.note(line) : o.err.write(`${line}\n`))
  return {
    start() {
      if (view) view.start()
      else if (o.mode === 'append') o.out.write(appendHeader())
    },
    update(u) {
      count(u)
      if (u.kind === 'WatchStatus' && NOTED.has(u.status)) note(`watch: ${statusLine(u)}`)
      if (view) view.update(u)
      else if (o.mode === 'ndjson') o.out.write(watchUpdateLine(u))
      else if (u.kind === 'PlanChange') o.out.write(appendLine(u))
    },
    note,
    stop() {
      view?.stop()
    },
  }
}
