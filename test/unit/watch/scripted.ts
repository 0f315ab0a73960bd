// A ListerWatcher that plays a script: list answers and watch streams given in advance, every call
// recorded. A watch stream is a list of steps: an event, an error to throw, or 'hang' (nothing
// more until the watch is aborted).
import type {ListerWatcher, ListOptions, ListPage, RawObject, RawWatchEvent, WatchOptions} from '../../../src/watch/reflector.js'

export type WatchStep = RawWatchEvent | Error | 'hang'
export type ListAnswer = ListPage | Error
export type WatchAnswer = WatchStep[] | Error

export class ScriptedListerWatcher implements ListerWatcher {
  readonly calls: Array<{op: 'list'; options: ListOptions} | {op: 'watch'; options: WatchOptions}> = []
  constructor(
    private readonly lists: ListAnswer[],
    private readonly watches: WatchAnswer[],
  ) {}

  async list(options: ListOptions): Promise<ListPage> {
    this.calls.push({op: 'list', options})
    const answer = this.lists.shift()
    if (!answer) throw new Error('script: no more list answers')
    if (answer instanceof Error) throw answer
    return answer
  }

  async watch(options: WatchOptions, signal: AbortSignal): Promise<AsyncIterable<RawWatchEvent>> {
    this.calls.push({op: 'watch', options})
    const answer = this.watches.shift() ?? ['hang']
    if (answer instanceof Error) throw answer
    return (async function* () {
      for (const step of answer) {
        if (step === 'hang') {
          await new Promise<void>((_, reject) => {
            if (signal.aborted) reject(signal.reason)
            signal.addEventListener('abort', () => reject(signal.reason), {once: true})
          })
        } else if (step instanceof Error) throw step
        else yield step
      }
    })()
  }

  get watchCalls(): WatchOptions[] {
    return this.calls.flatMap((c) => (c.op === 'watch' ? [c.options] : []))
  }

  get listCalls(): ListOptions[] {
    return this.calls.flatMap((c) => (c.op === 'list' ? [c.options] : []))
  }
}

/** An error as ClusterClient raises it for an HTTP status. */
export function apiError(code: number, reason?: string, message = ''): Error {
  return Object.assign(new Error(`${code} ${reason ?? ''} ${message}`), {status: {code, reason, message}})
}

export function obj(name: string, rv: string, extra: RawObject = {}): RawObject {
  return {metadata: {name, namespace: 'default', resourceVersion: rv}, ...extra}
}

export const ev = (type: RawWatchEvent['type'], object: RawObject): RawWatchEvent => ({type, object})
export const bookmark = (rv: string): RawWatchEvent => ({type: 'BOOKMARK', object: {metadata: {resourceVersion: rv}}})
export const expired = (): RawWatchEvent => ({type: 'ERROR', object: {kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 5 (9)'}})
