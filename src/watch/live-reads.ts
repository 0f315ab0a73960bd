// What a live watch's controllers read that no informer watches (an HPA's metrics APIs, which have
// no watch): read for every namespace before the first plans, again every period (the controller's
// sync period: each namespace is then planned again), and after an event of an object other than
// a pod (a new HPA, a target resized) when what is read changed. One read per namespace at a time;
// one asked for meanwhile follows it.
import type {LiveGet} from '../sources/part.js'
import type {Clock, Timer} from './clock.js'
import type {WatchEngine} from './engine.js'
import type {NamespaceWatch} from './namespace-watch.js'

export class LiveReads {
  private timer?: Timer
  private stopped = false
  private readonly running = new Map<string, Promise<void>>()
  private readonly again = new Map<string, boolean>()

  constructor(
    private readonly engine: WatchEngine,
    private readonly get: LiveGet,
    private readonly clock: Clock,
    private readonly onError: (message: string) => void,
  ) {
    engine.onBatch(() => this.afterBatch())
  }

  private get watches(): NamespaceWatch[] {
    return this.engine.namespaceWatches.filter((w) => w.liveEveryMs !== undefined)
  }

  /** Every namespace read once (before the first plans). */
  async readAll(): Promise<void> {
    const reads: Promise<void>[] = []
    for (const w of this.watches) {
      // The informers' first events asked for these reads already.
      w.takeLiveStale()
      for (const ns of w.liveNamespaces()) reads.push(this.read(w, ns, false))
    }
    await Promise.all(reads)
  }

  /** Reads every period from now on; each namespace is planned again once read. */
  start(): void {
    const every = Math.min(...this.watches.map((w) => w.liveEveryMs!))
    if (!Number.isFinite(every) || every <= 0) return
    const tick = () => {
      if (this.stopped) return
      for (const w of this.watches) for (const ns of w.liveNamespaces()) void this.read(w, ns, true)
      this.timer = this.clock.setTimeout(tick, every)
    }
    this.timer = this.clock.setTimeout(tick, every)
  }

  stop(): void {
    this.stopped = true
    this.timer?.cancel()
  }

  /** After each batch: the namespaces an HPA's or a target's event may have changed the reads of. */
  private afterBatch(): void {
    if (this.stopped) return
    for (const w of this.watches) for (const ns of w.takeLiveStale()) void this.read(w, ns, false)
  }

  /** One read of `ns`; `always`: plan it again even when nothing read changed (the period came). */
  private read(w: NamespaceWatch, ns: string, always: boolean): Promise<void> {
    const key = `${this.engine.namespaceWatches.indexOf(w)}/${ns}`
    const inFlight = this.running.get(key)
    if (inFlight) {
      this.again.set(key, (this.again.get(key) ?? false) || always)
      return inFlight
    }
    const run = (async () => {
      try {
        const changed = await w.readLive(ns, this.get)
        if (!this.stopped && this.engine.hasSynced && (changed || always)) this.engine.replanNamespace(w, ns, {type: 'CLOCK'})
      } catch (error) {
        this.onError(`reading what the controllers of namespace ${ns} read live failed (the last answers are kept): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
      } finally {
        this.running.delete(key)
        const next = this.again.get(key)
        if (next !== undefined && !this.stopped) {
          this.again.delete(key)
          void this.read(w, ns, next)
        }
      }
    })()
    this.running.set(key, run)
    return run
  }
}
