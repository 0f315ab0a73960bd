// The work queue (docs/replicaset-controller.md §12.4): de-duplication, no key processed twice at once,
// per-key exponential backoff, the overall token bucket, and delayed adds — on an injected clock.
import {describe, expect, it} from 'vitest'

import {ManualClock} from '../../helpers/manual-clock.js'
import {ItemExponentialRateLimiter, TokenBucketRateLimiter, WorkQueue, defaultControllerRateLimiter} from '../../../src/watch/queue.js'

function drain(q: WorkQueue<string>): string[] {
  const out: string[] = []
  for (let k = q.tryGet(); k !== undefined; k = q.tryGet()) {
    out.push(k)
    q.done(k)
  }
  return out
}

describe('WorkQueue', () => {
  it('a key added three times while queued is processed once (12.5.3)', () => {
    const q = new WorkQueue<string>(new ManualClock())
    q.add('rs/a')
    q.add('rs/b')
    q.add('rs/a')
    q.add('rs/a')
    expect(q.length).toBe(2)
    expect(drain(q)).toEqual(['rs/a', 'rs/b'])
  })

  it('a key added while being processed is queued again only when done, never held twice', () => {
    const q = new WorkQueue<string>(new ManualClock())
    q.add('k')
    const k = q.tryGet()
    expect(k).toBe('k')
    q.add('k')
    q.add('k')
    expect(q.tryGet()).toBeUndefined()
    q.done('k')
    expect(q.tryGet()).toBe('k')
    q.done('k')
    expect(q.tryGet()).toBeUndefined()
  })

  it('get() waits for a key; shutdown releases waiters', async () => {
    const q = new WorkQueue<string>(new ManualClock())
    const next = q.get()
    q.add('x')
    expect(await next).toBe('x')
    const waiting = q.get()
    q.shutdown()
    expect(await waiting).toBeUndefined()
    q.add('y')
    expect(q.length).toBe(0)
  })

  it('failures back off 5, 10, 20, 40 ms per key (12.5.4); forget starts over', async () => {
    const clock = new ManualClock()
    const q = new WorkQueue<string>(clock)
    const delays: number[] = []
    for (let i = 0; i < 4; i++) {
      const start = clock.now()
      q.addRateLimited('k')
      while (q.length === 0) await clock.advance(1)
      delays.push(clock.now() - start)
      drain(q)
    }
    expect(delays).toEqual([5, 10, 20, 40])
    expect(q.numRequeues('k')).toBe(4)
    q.forget('k')
    expect(q.numRequeues('k')).toBe(0)
    const start = clock.now()
    q.addRateLimited('k')
    while (q.length === 0) await clock.advance(1)
    expect(clock.now() - start).toBe(5)
  })

  it('the per-key backoff is capped (1000 s by default)', () => {
    const l = new ItemExponentialRateLimiter<string>()
    let last = 0
    for (let i = 0; i < 30; i++) last = l.when('k')
    expect(last).toBe(1_000_000)
  })

  it('the token bucket allows a burst of 100, then 10 a second; the default limiter takes the longer wait', () => {
    const clock = new ManualClock()
    const bucket = new TokenBucketRateLimiter<string>(10, 100, clock)
    const waits = Array.from({length: 102}, (_, i) => bucket.when(`k${i}`))
    expect(waits.slice(0, 100).every((w) => w === 0)).toBe(true)
    expect(waits[100]).toBeCloseTo(100)
    expect(waits[101]).toBeCloseTo(200)

    const limiter = defaultControllerRateLimiter<string>(clock)
    for (let i = 0; i < 100; i++) limiter.when(`other${i}`)
    expect(limiter.when('fresh')).toBeCloseTo(100) // the bucket, not the key's 5 ms, decides
  })

  it('addAfter queues later; the earliest of two requests wins; a due key is de-duplicated like any add', async () => {
    const clock = new ManualClock()
    const q = new WorkQueue<string>(clock)
    q.addAfter('k', 1000)
    q.addAfter('k', 300)
    q.addAfter('k', 2000)
    await clock.advance(299)
    expect(q.length).toBe(0)
    await clock.advance(1)
    expect(q.length).toBe(1)
    q.add('k')
    expect(drain(q)).toEqual(['k'])
    await clock.advance(5000)
    expect(q.length).toBe(0)
  })

  it('onReady fires when a key becomes ready', async () => {
    const clock = new ManualClock()
    const q = new WorkQueue<string>(clock)
    let ready = 0
    q.onReady(() => ready++)
    q.add('a')
    q.add('a')
    q.addAfter('b', 10)
    expect(ready).toBe(1)
    await clock.advance(10)
    expect(ready).toBe(2)
  })
})
