// A clock for tests of watch mode's timers.
import type {Clock, Timer} from '../../src/watch/clock.js'

/** A clock for tests: time moves only when `advance` is called; due timers run in order. */
export class ManualClock implements Clock {
  private timers: Array<{at: number; seq: number; fn: () => void; live: boolean}> = []
  private seq = 0
  constructor(private t = Date.parse('2026-11-22T10:00:00Z')) {}

  now(): number {
    return this.t
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const timer = {at: this.t + Math.max(0, ms), seq: this.seq++, fn, live: true}
    this.timers.push(timer)
    return {cancel: () => void (timer.live = false)}
  }

  /** Moves time forward by `ms`, running every timer that falls due (awaiting between them). */
  async advance(ms: number): Promise<void> {
    const until = this.t + ms
    for (;;) {
      await flushPromises()
      const due = this.timers.filter((x) => x.live && x.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0]
      if (!due) break
      due.live = false
      this.t = Math.max(this.t, due.at)
      due.fn()
    }
    this.timers = this.timers.filter((x) => x.live)
    this.t = until
    await flushPromises()
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.filter((x) => x.live).length
  }
}

async function flushPromises(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve()
  await new Promise((r) => setImmediate(r))
}
