// client-go's work queue (util/workqueue: Typed, TypedDelaying, TypedRateLimitingQueue), the rules
// of docs/replicaset-controller.md §12.4:
//   1. a key is queued at most once: adding a queued key does nothing;
//   2. a key added while it is being processed is queued again when processing is done, so no
//      two workers ever hold the same key;
//   3. addRateLimited waits the longer of a per-key exponential backoff (5 ms × 2^failures, capped
//      at 1000 s) and an overall token bucket (10 per second, burst 100); forget resets a key's
//      failures after a successful sync;
//   4. addAfter queues a key later (the earliest of several requests wins).
import {type Clock, realClock, type Timer} from './clock.js'

export interface RateLimiter<K> {
  /** How long to wait before `key` may be processed again (and count this as one more failure). */
  when(key: K): number
  forget(key: K): void
  numRequeues(key: K): number
}

/** ItemExponentialFailureRateLimiter: base × 2^failures, capped. */
export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>()
  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}

  when(key: K): number {
    const exp = this.failures.get(key) ?? 0
    this.failures.set(key, exp + 1)
    return Math.min(this.baseMs * 2 ** exp, this.maxMs)
  }

  forget(key: K): void {
    this.failures.delete(key)
  }

  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0
  }
}

/** BucketRateLimiter (golang.org/x/time/rate): `qps` tokens a second, at most `burst` saved up. */
export class TokenBucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number
  private last: number
  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst
    this.last = clock.now()
  }

  when(_key: K): number {
    const now = this.clock.now()
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000)
    this.last = now
    this.tokens -= 1
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000
  }

  forget(_key: K): void {}

  numRequeues(_key: K): number {
    return 0
  }
}

/** MaxOfRateLimiter: the longest wait of several limiters. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[]
  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters
  }

  when(key: K): number {
    let max = 0
    for (const l of this.limiters) max = Math.max(max, l.when(key))
    return max
  }

  forget(key: K): void {
    for (const l of this.limiters) l.forget(key)
  }

  numRequeues(key: K): number {
    let max = 0
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(key))
    return max
  }
}

/** DefaultTypedControllerRateLimiter. */
export function defaultControllerRateLimiter<K>(clock: Clock = realClock): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialRateLimiter<K>(5, 1_000_000), new TokenBucketRateLimiter<K>(10, 100, clock))
}

export class WorkQueue<K> {
  private readonly queue: K[] = []
  private head = 0
  /** Keys waiting to be processed (queued, or re-added while processing). */
  private readonly dirty = new Set<K>()
  private readonly processing = new Set<K>()
  /** addAfter: the pending timer of each key, and when it fires. */
  private readonly waiting = new Map<K, {at: number; timer: Timer}>()
  /** get() calls waiting for a key. */
  private readonly listeners = new Set<() => void>()
  /** onReady listeners. */
  private readonly persistent = new Set<() => void>()
  private shuttingDown = false

  constructor(
    private readonly clock: Clock = realClock,
    private readonly limiter: RateLimiter<K> = defaultControllerRateLimiter<K>(clock),
  ) {}

  /** Keys queued and ready (not counting ones being processed or waiting for addAfter). */
  get length(): number {
    return this.queue.length - this.head
  }

  get shutDown(): boolean {
    return this.shuttingDown
  }

  add(key: K): void {
    if (this.shuttingDown || this.dirty.has(key)) return
    this.dirty.add(key)
    if (this.processing.has(key)) return
    this.queue.push(key)
    this.notify()
  }

  /** Queues `key` after `ms`; an earlier pending request for the same key wins. */
  addAfter(key: K, ms: number): void {
    if (this.shuttingDown) return
    if (ms <= 0) return this.add(key)
    const at = this.clock.now() + ms
    const current = this.waiting.get(key)
    if (current && current.at <= at) return
    current?.timer.cancel()
    const timer = this.clock.setTimeout(() => {
      this.waiting.delete(key)
      this.add(key)
    }, ms)
    this.waiting.set(key, {at, timer})
  }

  addRateLimited(key: K): void {
    this.addAfter(key, this.limiter.when(key))
  }

  forget(key: K): void {
    this.limiter.forget(key)
  }

  numRequeues(key: K): number {
    return this.limiter.numRequeues(key)
  }

  /** The next ready key, now, or undefined. The caller must call done(key) after processing it. */
  tryGet(): K | undefined {
    if (this.head >= this.queue.length) return undefined
    const key = this.queue[this.head++]
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head)
      this.head = 0
    }
    this.processing.add(key)
    this.dirty.delete(key)
    return key
  }

  /** The next key, waiting for one; undefined once the queue is shut down and drained. */
  async get(): Promise<K | undefined> {
    for (;;) {
      const key = this.tryGet()
      if (key !== undefined || this.shuttingDown) return key
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.listeners.delete(wake)
          resolve()
        }
        this.listeners.add(wake)
      })
    }
  }

  done(key: K): void {
    this.processing.delete(key)
    if (this.dirty.has(key)) {
      this.queue.push(key)
      this.notify()
    }
  }

  /** Called whenever a key becomes ready. */
  onReady(listener: () => void): () => void {
    const wrapped = () => listener()
    this.persistent.add(wrapped)
    return () => this.persistent.delete(wrapped)
  }

  shutdown(): void {
    this.shuttingDown = true
    for (const w of this.waiting.values()) w.timer.cancel()
    this.waiting.clear()
    this.notify()
  }

  private notify(): void {
    for (const l of [...this.listeners]) l()
    for (const l of this.persistent) l()
  }
}
