// The clock and timers watch mode runs on, injected so tests can drive time (architecture habit 6).
export interface Timer {
  cancel(): void
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(fn: () => void, ms: number): Timer
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms))
    return {cancel: () => clearTimeout(t)}
  },
}

/** Resolves after `ms` on `clock`, or at once (rejecting with the signal's reason) when aborted. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      timer.cancel()
      reject(signal!.reason)
    }
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, {once: true})
  })
}
