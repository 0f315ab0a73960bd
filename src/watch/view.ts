// The live view on a terminal: keeps one row per controller from the plan changes, and redraws the
// table in place with plain ANSI escapes (cursor up, erase) — at most every 100 ms, and once a
// second so that ages move. Messages for stderr (relisted, lost the watch, ...) are written above
// the table, which is then drawn again below them. Only ever used when stdout is a TTY.
import type {WatchUpdate} from '../model/watch.js'
import {renderLiveTable, rowOf, type WatchRow} from '../render/watch-table.js'
import {type Clock, realClock, type Timer} from './clock.js'

export interface TerminalStream {
  write(text: string): unknown
  columns?: number
  rows?: number
}

const ESC = '\u001B['

export class LiveView {
  private readonly rows = new Map<string, WatchRow>()
  private drawn = 0
  private timer?: Timer
  private ticker?: Timer
  private dirty = false
  private lastDraw = 0
  private stopped = false

  constructor(
    private readonly out: TerminalStream,
    private readonly err: TerminalStream,
    private readonly o: {title: () => string; color: boolean; clock?: Clock; intervalMs?: number},
  ) {}

  private get clock(): Clock {
    return this.o.clock ?? realClock
  }

  start(): void {
    this.out.write(`${ESC}?25l`) // hide the cursor while redrawing
    this.tick()
  }

  /** A plan change updates its row; what happens to the watch itself comes as note() lines. */
  update(u: WatchUpdate): void {
    if (u.kind !== 'PlanChange') return
    if (u.next) this.rows.set(u.key, rowOf(u.next, Date.parse(u.time), u.changed, u.key))
    else this.rows.delete(u.key)
    this.request()
  }

  /** A line for stderr: printed above the table, which stays below it. */
  note(line: string): void {
    if (this.stopped) {
      this.err.write(`${line}\n`)
      return
    }
    this.erase()
    this.err.write(`${line}\n`)
    this.draw()
  }

  /** Draws a last time, shows the cursor again; the final table stays on screen. */
  stop(): void {
    if (this.stopped) return
    this.draw()
    this.stopped = true
    this.timer?.cancel()
    this.ticker?.cancel()
    this.out.write(`${ESC}?25h`)
  }

  private request(): void {
    this.dirty = true
    if (this.timer || this.stopped) return
    const wait = Math.max(0, (this.o.intervalMs ?? 100) - (this.clock.now() - this.lastDraw))
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      if (this.dirty) this.draw()
    }, wait)
  }

  private tick(): void {
    this.ticker = this.clock.setTimeout(() => {
      this.draw()
      this.tick()
    }, 1000)
  }

  private erase(): void {
    if (this.drawn > 0) this.out.write(`${ESC}${this.drawn}F${ESC}J`)
    this.drawn = 0
  }

  private draw(): void {
    if (this.stopped) return
    this.dirty = false
    this.lastDraw = this.clock.now()
    const rows = [...this.rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    const lines = renderLiveTable(rows, {
      nowMs: this.clock.now(),
      width: this.out.columns && this.out.columns > 0 ? this.out.columns - 1 : 120,
      height: this.out.rows && this.out.rows > 0 ? this.out.rows : 40,
      color: this.o.color,
      title: this.o.title(),
    })
    let text = this.drawn > 0 ? `${ESC}${this.drawn}F` : ''
    for (const line of lines) text += `${line}${ESC}K\n`
    text += `${ESC}J`
    this.out.write(text)
    this.drawn = lines.length
  }
}
