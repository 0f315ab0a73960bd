// The list-then-watch loop of one resource (client-go tools/cache/reflector.go, docs/replicaset-controller.md
// §12.1), written against a small ListerWatcher so it runs the same against the API server and
// against scripted sequences in tests:
//   1. LIST page by page (a consistent read: resourceVersion unset), hand the pages to the store;
//   2. WATCH from the list's resourceVersion with bookmarks and a server timeout of 5–10 min
//      (random), advancing the resourceVersion with every event and bookmark;
//   3. a watch that ends (server timeout) is opened again at once from the last resourceVersion;
//      one that breaks (connection lost, 5xx, 429) is opened again from there after a backoff
//      (800 ms doubling to 30 s, with jitter), and so is one silent for longer than the watchdog;
//   4. 410 Gone / Expired (an ERROR event inside the stream, or the HTTP status): LIST again "not
//      older than" the last resourceVersion; if that is gone too, or the watch after it expires
//      again at once, LIST with resourceVersion unset (after a backoff). The store turns the
//      difference into adds, updates and deletes (tombstones for what vanished);
//   5. 401/403/404/400 are not retried: the loop ends with the error, as does any error before the
//      first list completed.
import {Backoff, type BackoffOptions} from './backoff.js'
import {type Clock, realClock, sleep} from './clock.js'

export type RawObject = Record<string, unknown>

export interface ListOptions {
  /** Unset: a consistent read of the latest state. */
  resourceVersion?: string
  /**
   * NotOlderThan with a resourceVersion: the state at that version or later. (A paginated list at
   * a resourceVersion without it is served at exactly that version — one the watch cache may
   * already have dropped, so the watch after it would expire again.)
   */
  resourceVersionMatch?: 'NotOlderThan'
  limit: number
  continue?: string
}

export interface ListPage {
  items: RawObject[]
  resourceVersion: string
  continue?: string
}

export interface WatchOptions {
  resourceVersion: string
  timeoutSeconds: number
  allowWatchBookmarks: boolean
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'

export interface RawWatchEvent {
  type: WatchEventType
  object: RawObject
}

/** Access to one collection. Errors carry `status: {code, reason}` when the server answered. */
export interface ListerWatcher {
  list(options: ListOptions, signal: AbortSignal): Promise<ListPage>
  /** Resolves once the server has accepted the watch; the stream ends when the server closes it. */
  watch(options: WatchOptions, signal: AbortSignal): Promise<AsyncIterable<RawWatchEvent>>
}

/** Where the reflector delivers what it reads (the informer's cache). */
export interface ReflectorStore {
  /** A full list follows, page by page; endList makes it the store's content. */
  beginList(): void
  listPage(items: RawObject[]): void
  endList(resourceVersion: string, relist: {reason: string} | undefined): void
  /** One ADDED, MODIFIED or DELETED event. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: RawObject): void
}

export type ReflectorStatus =
  | {type: 'listed'; resourceVersion: string; pages: number}
  | {type: 'disconnected'; message: string; retryInMs: number; resourceVersion: string}
  | {type: 'reconnected'; resourceVersion: string}
  | {type: 'expired'; message: string; resourceVersion: string}

export interface ReflectorOptions {
  /** e.g. "pods": for messages. */
  resource: string
  clock?: Clock
  random?: () => number
  pageSize?: number
  /** Server-side watch timeout range, seconds ([300, 600] as client-go). */
  minWatchTimeoutSeconds?: number
  /** A watch that delivers nothing (not even a bookmark) for this long is reopened. */
  watchdogMs?: number
  backoff?: BackoffOptions
  onStatus?: (status: ReflectorStatus) => void
}

/** The status an error carries, if the API server answered. */
export function errorStatus(error: unknown): {code: number; reason?: string; message?: string} | undefined {
  const status = (error as {status?: {code?: unknown}} | undefined)?.status
  return status && typeof status.code === 'number' ? (status as {code: number; reason?: string; message?: string}) : undefined
}

/** 410 Gone / Expired: the resourceVersion is no longer in the server's history. */
export function isExpired(error: unknown): boolean {
  const s = errorStatus(error)
  return s !== undefined && (s.code === 410 || s.reason === 'Expired' || s.reason === 'Gone')
}

/** "Too large resource version" (504 with cause ResourceVersionTooLarge): the server is behind. */
function isTooLarge(error: unknown): boolean {
  const s = errorStatus(error)
  return s !== undefined && s.code === 504 && /too large resource version/i.test(s.message ?? '')
}

/** Errors that another try will not cure: bad credentials, no permission, no such resource, a bad request. */
export function isPermanent(error: unknown): boolean {
  const s = errorStatus(error)
  return s !== undefined && [400, 401, 403, 404, 405, 406, 415, 422].includes(s.code)
}

/** An error the watch stream reported in an ERROR event. */
export class StatusError extends Error {
  constructor(readonly status: {code: number; reason?: string; message?: string}) {
    super(`${status.code}${status.reason ? ` ${status.reason}` : ''}${status.message ? `: ${status.message}` : ''}`)
    this.name = 'StatusError'
  }
}

class WatchdogError extends Error {}

export class Reflector {
  private readonly clock: Clock
  private readonly random: () => number
  private readonly backoff: Backoff
  private readonly pageSize: number
  private readonly minTimeout: number
  private readonly watchdogMs: number
  #lastSyncResourceVersion = ''
  #synced = false

  constructor(
    private readonly lw: ListerWatcher,
    private readonly store: ReflectorStore,
    private readonly options: ReflectorOptions,
  ) {
    this.clock = options.clock ?? realClock
    this.random = options.random ?? Math.random
    this.backoff = new Backoff(this.clock, {random: this.random, ...options.backoff})
    this.pageSize = options.pageSize ?? 500
    this.minTimeout = options.minWatchTimeoutSeconds ?? 300
    this.watchdogMs = options.watchdogMs ?? 120_000
  }

  /** The resourceVersion of the last event, bookmark or list seen. */
  get lastSyncResourceVersion(): string {
    return this.#lastSyncResourceVersion
  }

  /** The first list has been handed to the store. */
  get hasSynced(): boolean {
    return this.#synced
  }

  /** Lists and watches until `signal` aborts (resolves) or an error that is not retried (rejects). */
  async run(signal: AbortSignal): Promise<void> {
    let relist: {reason: string} | undefined
    let needList = true
    let broken = false
    /** Expiries in a row with nothing delivered between: the second relists from scratch. */
    let expiries = 0
    while (!signal.aborted) {
      if (needList) {
        try {
          await this.list(relist, expiries > 1, signal)
          needList = false
          relist = undefined
          broken = false
        } catch (error) {
          if (signal.aborted) return
          // Before the first list, a failure is the answer (wrong context, no permission, ...).
          if (!this.#synced || isPermanent(error)) throw error
          const wait = this.backoff.next()
          this.status({type: 'disconnected', message: firstLine(error), retryInMs: wait, resourceVersion: this.#lastSyncResourceVersion})
          if (!(await this.pause(wait, signal))) return
          continue
        }
      }
      const opened = this.clock.now()
      const outcome = await this.watchOnce(signal, broken)
      if (outcome.type === 'aborted') return
      if (outcome.type !== 'expired') expiries = 0
      if (outcome.type === 'ended') {
        // The server closes a watch at its timeout. One closed at once, with nothing in it, is a
        // server in trouble: back off rather than spin.
        if (outcome.events > 0 || this.clock.now() - opened >= 1000) {
          broken = false
          continue
        }
        broken = true
        const wait = this.backoff.next()
        this.status({type: 'disconnected', message: 'the watch was closed at once', retryInMs: wait, resourceVersion: this.#lastSyncResourceVersion})
        if (!(await this.pause(wait, signal))) return
        continue
      }
      if (outcome.type === 'expired') {
        this.status({type: 'expired', message: outcome.message, resourceVersion: this.#lastSyncResourceVersion})
        needList = true
        relist = {reason: outcome.message}
        expiries = outcome.events > 0 ? 1 : expiries + 1
        // Expired again straight after a relist: the server is not giving what it promised. Wait.
        if (expiries > 1 && !(await this.pause(this.backoff.next(), signal))) return
        continue
      }
      if (outcome.type === 'watchdog') {
        broken = true
        this.status({type: 'disconnected', message: outcome.message, retryInMs: 0, resourceVersion: this.#lastSyncResourceVersion})
        continue
      }
      if (isPermanent(outcome.error)) throw outcome.error
      broken = true
      const wait = this.backoff.next()
      this.status({type: 'disconnected', message: firstLine(outcome.error), retryInMs: wait, resourceVersion: this.#lastSyncResourceVersion})
      if (!(await this.pause(wait, signal))) return
    }
  }

  /** LIST (step 1, or step 4 after an expiry), handing every page to the store. */
  private async list(relist: {reason: string} | undefined, fromScratch: boolean, signal: AbortSignal): Promise<void> {
    // client-go relists at the last resourceVersion ("at least as fresh", cheap for the server);
    // when that is gone too, or on the first list, a consistent read of the latest state.
    let resourceVersion = relist && !fromScratch ? this.#lastSyncResourceVersion || undefined : undefined
    for (let attempt = 0; ; attempt++) {
      this.store.beginList()
      let token: string | undefined
      let listRv = ''
      let pages = 0
      try {
        do {
          const page = await this.lw.list(
            token
              ? {limit: this.pageSize, continue: token}
              : resourceVersion
                ? {resourceVersion, resourceVersionMatch: 'NotOlderThan', limit: this.pageSize}
                : {limit: this.pageSize},
            signal,
          )
          if (pages === 0) listRv = page.resourceVersion
          pages++
          this.store.listPage(page.items)
          token = page.continue || undefined
        } while (token)
      } catch (error) {
        // The resourceVersion (or a continue token) expired: start over from the latest state.
        if ((isExpired(error) || isTooLarge(error)) && attempt < 3) {
          resourceVersion = undefined
          continue
        }
        throw error
      }
      this.store.endList(listRv, relist)
      this.#lastSyncResourceVersion = listRv
      this.#synced = true
      this.status({type: 'listed', resourceVersion: listRv, pages})
      return
    }
  }

  private async watchOnce(
    signal: AbortSignal,
    broken: boolean,
  ): Promise<{type: 'aborted'} | {type: 'ended'; events: number} | {type: 'expired'; message: string; events: number} | {type: 'watchdog'; message: string} | {type: 'error'; error: unknown}> {
    if (signal.aborted) return {type: 'aborted'}
    const ac = new AbortController()
    const onAbort = () => ac.abort(signal.reason)
    signal.addEventListener('abort', onAbort, {once: true})
    let watchdog: ReturnType<Clock['setTimeout']> | undefined
    let quiet: ReturnType<Clock['setTimeout']> | undefined
    const arm = () => {
      watchdog?.cancel()
      watchdog = this.clock.setTimeout(() => ac.abort(new WatchdogError()), this.watchdogMs)
    }
    const timeoutSeconds = Math.floor(this.minTimeout * (1 + this.random()))
    let events = 0
    try {
      arm()
      const stream = await this.lw.watch({resourceVersion: this.#lastSyncResourceVersion, timeoutSeconds, allowWatchBookmarks: true}, ac.signal)
      // After a break, "resumed" once the server delivers (or stays quiet for a second): a watch
      // it accepts only to say 410 straight away did not resume anything.
      const from = this.#lastSyncResourceVersion
      let resumed = !broken
      const resume = () => {
        if (resumed) return
        resumed = true
        this.status({type: 'reconnected', resourceVersion: from})
      }
      if (!resumed) quiet = this.clock.setTimeout(() => !ac.signal.aborted && resume(), 1000)
      for await (const event of stream) {
        arm()
        events++
        if (event.type !== 'ERROR') resume()
        const rv = resourceVersionOf(event.object)
        switch (event.type) {
          case 'ERROR': {
            const status = statusOf(event.object)
            if (isExpired({status})) return {type: 'expired', message: describeStatus(status), events: events - 1}
            return {type: 'error', error: new StatusError(status)}
          }
          case 'BOOKMARK':
            if (rv) this.#lastSyncResourceVersion = rv
            break
          case 'ADDED':
          case 'MODIFIED':
          case 'DELETED':
            this.store.apply(event.type, event.object)
            if (rv) this.#lastSyncResourceVersion = rv
            break
          default:
            break // an event type this client does not know: ignored, like client-go
        }
      }
      return signal.aborted ? {type: 'aborted'} : {type: 'ended', events}
    } catch (error) {
      if (signal.aborted) return {type: 'aborted'}
      if (ac.signal.aborted && ac.signal.reason instanceof WatchdogError) {
        return {type: 'watchdog', message: `no event or bookmark for ${Math.round(this.watchdogMs / 1000)} s`}
      }
      if (isExpired(error)) return {type: 'expired', message: describeStatus(errorStatus(error)!), events}
      return {type: 'error', error}
    } finally {
      watchdog?.cancel()
      quiet?.cancel()
      signal.removeEventListener('abort', onAbort)
      if (!ac.signal.aborted) ac.abort()
    }
  }

  /** Waits `ms`; false when aborted meanwhile. */
  private async pause(ms: number, signal: AbortSignal): Promise<boolean> {
    try {
      await sleep(this.clock, ms, signal)
      return true
    } catch {
      return false
    }
  }

  private status(s: ReflectorStatus): void {
    this.options.onStatus?.(s)
  }
}

export function resourceVersionOf(object: RawObject | undefined): string | undefined {
  const meta = object?.metadata as {resourceVersion?: unknown} | undefined
  return typeof meta?.resourceVersion === 'string' ? meta.resourceVersion : undefined
}

function statusOf(object: RawObject): {code: number; reason?: string; message?: string} {
  const code = typeof object.code === 'number' ? object.code : 500
  return {
    code,
    reason: typeof object.reason === 'string' ? object.reason : undefined,
    message: typeof object.message === 'string' ? object.message : undefined,
  }
}

function describeStatus(s: {code: number; reason?: string; message?: string}): string {
  return `${s.code}${s.reason ? ` ${s.reason}` : ''}${s.message ? `: ${s.message}` : ''}`
}

function firstLine(error: unknown): string {
  const e = error as {line?: unknown; message?: unknown}
  const text = typeof e?.line === 'string' ? e.line : typeof e?.message === 'string' ? e.message : String(error)
  return text.split('\n')[0]
}
