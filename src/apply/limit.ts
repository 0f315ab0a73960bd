// Bounded concurrency: at most `max` calls in flight; the rest wait in order.
export class Limiter {
  private active = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`)
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.active++
    try {
      return await fn()
    } finally {
      const next = this.waiting.shift()
      // The slot passes straight to the next waiter; `active` only drops when nobody waits.
      if (next) next()
      else this.active--
    }
  }
}

/** Runs `fn` over `items` with the limiter; resolves when all are done (never rejects if `fn` doesn't). */
export function all<T, R>(items: readonly T[], limiter: Limiter, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  return Promise.all(items.map((item, i) => limiter.run(() => fn(item, i))))
}
