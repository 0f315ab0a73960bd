// The reflector's reconnect backoff (client-go tools/cache/reflector.go, wait.Backoff via
// NewExponentialBackoffManager): 800 ms, doubling, jitter 1.0 (each wait is d + random·d), capped
// at 30 s, and back to the start once the connection stayed healthy for 2 minutes.
import type {Clock} from './clock.js'

export interface BackoffOptions {
  initialMs?: number
  maxMs?: number
  factor?: number
  jitter?: number
  resetAfterMs?: number
  random?: () => number
}

export class Backoff {
  private readonly initialMs: number
  private readonly maxMs: number
  private readonly factor: number
  private readonly jitter: number
  private readonly resetAfterMs: number
  private readonly random: () => number
  private step = 0
  private lastFailure?: number

  constructor(
    private readonly clock: Clock,
    o: BackoffOptions = {},
  ) {
    this.initialMs = o.initialMs ?? 800
    this.maxMs = o.maxMs ?? 30_000
    this.factor = o.factor ?? 2
    this.jitter = o.jitter ?? 1
    this.resetAfterMs = o.resetAfterMs ?? 120_000
    this.random = o.random ?? Math.random
  }

  /** The wait before the next attempt, after a failure now. */
  next(): number {
    const now = this.clock.now()
    if (this.lastFailure !== undefined && now - this.lastFailure > this.resetAfterMs) this.step = 0
    this.lastFailure = now
    const base = Math.min(this.initialMs * this.factor ** this.step, this.maxMs)
    if (base < this.maxMs) this.step++
    return Math.round(base + this.random() * this.jitter * base)
  }
}
