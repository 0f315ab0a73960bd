// The list-then-watch loop against scripted server answers: pages, resume from the last
// resourceVersion (events and bookmarks), backoff, the watchdog, 410 → relist (at the last
// resourceVersion, then unset) with tombstone deletes, and errors that end the loop.
import {describe, expect, it} from 'vitest'

import {ManualClock} from '../../helpers/manual-clock.js'
import {SharedInformer, type CachedObject, type EventHandler} from '../../../src/watch/informer.js'
import {Reflector, type RawObject, type ReflectorStatus, type ReflectorStore} from '../../../src/watch/reflector.js'
import {apiError, bookmark, ev, expired, obj, ScriptedListerWatcher} from './scripted.js'

class RecordingStore implements ReflectorStore {
  readonly log: string[] = []
  beginList(): void {
    this.log.push('begin')
  }
  listPage(items: RawObject[]): void {
    this.log.push(`page ${items.map(name).join(',')}`)
  }
  endList(rv: string, relist: {reason: string} | undefined): void {
    this.log.push(`end ${rv}${relist ? ` relist (${relist.reason})` : ''}`)
  }
  apply(type: string, o: RawObject): void {
    this.log.push(`${type} ${name(o)}`)
  }
}

const name = (o: RawObject) => (o.metadata as {name: string}).name

function start(lw: ScriptedListerWatcher, store: ReflectorStore = new RecordingStore(), opts: {watchdogMs?: number} = {}) {
  const clock = new ManualClock()
  const statuses: ReflectorStatus[] = []
  const reflector = new Reflector(lw, store, {resource: 'pods', clock, random: () => 0, pageSize: 2, onStatus: (s) => statuses.push(s), ...opts})
  const ac = new AbortController()
  let error: unknown
  let finished = false
  const done = reflector.run(ac.signal).then(
    () => void (finished = true),
    (e) => {
      error = e
      finished = true
    },
  )
  return {clock, statuses, reflector, ac, done, get error() {
    return error
  }, get finished() {
    return finished
  }}
}

describe('Reflector', () => {
  it('lists page by page (resourceVersion unset), then watches from the list\'s resourceVersion with bookmarks', async () => {
    const lw = new ScriptedListerWatcher(
      [
        {items: [obj('a', '1'), obj('b', '2')], resourceVersion: '10', continue: 'tok'},
        {items: [obj('c', '3')], resourceVersion: '10'},
      ],
      [[ev('ADDED', obj('d', '11')), 'hang']],
    )
    const store = new RecordingStore()
    const r = start(lw, store)
    await r.clock.advance(0)
    expect(lw.listCalls).toEqual([
      {resourceVersion: undefined, limit: 2, continue: undefined},
      {resourceVersion: undefined, limit: 2, continue: 'tok'},
    ])
    expect(lw.watchCalls).toHaveLength(1)
    expect(lw.watchCalls[0]).toMatchObject({resourceVersion: '10', allowWatchBookmarks: true})
    expect(lw.watchCalls[0].timeoutSeconds).toBeGreaterThanOrEqual(300)
    expect(lw.watchCalls[0].timeoutSeconds).toBeLessThan(600)
    expect(store.log).toEqual(['begin', 'page a,b', 'page c', 'end 10', 'ADDED d'])
    expect(r.reflector.hasSynced).toBe(true)
    expect(r.reflector.lastSyncResourceVersion).toBe('11')
    r.ac.abort()
    await r.done
    expect(r.error).toBeUndefined()
  })

  it('a watch the server closes is reopened at once from the last resourceVersion, a bookmark\'s included', async () => {
    const lw = new ScriptedListerWatcher(
      [{items: [], resourceVersion: '10'}],
      [[ev('MODIFIED', obj('a', '12')), bookmark('15')], ['hang']],
    )
    const r = start(lw)
    await r.clock.advance(2000)
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '15'])
    expect(r.statuses.filter((s) => s.type !== 'listed')).toEqual([])
    r.ac.abort()
    await r.done
  })

  it('a broken watch resumes from the last resourceVersion after a backoff of 800 ms, doubling, and says so', async () => {
    const lw = new ScriptedListerWatcher(
      [{items: [], resourceVersion: '10'}],
      [[ev('ADDED', obj('a', '11')), new Error('ECONNRESET')], new Error('ECONNREFUSED'), new Error('ECONNREFUSED'), ['hang']],
    )
    const r = start(lw)
    await r.clock.advance(0)
    expect(lw.watchCalls).toHaveLength(1)
    expect(r.statuses.at(-1)).toEqual({type: 'disconnected', message: 'ECONNRESET', retryInMs: 800, resourceVersion: '11'})
    await r.clock.advance(799)
    expect(lw.watchCalls).toHaveLength(1)
    await r.clock.advance(1)
    expect(lw.watchCalls).toHaveLength(2)
    expect(r.statuses.at(-1)).toMatchObject({type: 'disconnected', retryInMs: 1600})
    await r.clock.advance(1600)
    expect(r.statuses.at(-1)).toMatchObject({type: 'disconnected', retryInMs: 3200})
    await r.clock.advance(3200)
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '11', '11', '11'])
    // Resumed: said once the reopened watch has stayed up a second (or delivered something).
    expect(r.statuses.at(-1)).toMatchObject({type: 'disconnected'})
    await r.clock.advance(1000)
    expect(r.statuses.at(-1)).toEqual({type: 'reconnected', resourceVersion: '11'})
    r.ac.abort()
    await r.done
  })

  it('the backoff is capped at 30 s and starts over after 2 healthy minutes', async () => {
    const down = Array.from({length: 8}, () => new Error('ECONNREFUSED'))
    const lw = new ScriptedListerWatcher([{items: [], resourceVersion: '1'}], [...down, ['hang']])
    const r = start(lw)
    let waited = 0
    for (let i = 0; i < 8; i++) {
      await r.clock.advance(i === 0 ? 0 : (r.statuses.at(-1) as {retryInMs: number}).retryInMs)
      waited++
    }
    const retries = r.statuses.flatMap((s) => (s.type === 'disconnected' ? [s.retryInMs] : []))
    expect(retries).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000])
    expect(waited).toBe(8)
    r.ac.abort()
    await r.done
  })

  it('a watch silent for longer than the watchdog is reopened from the last resourceVersion', async () => {
    const lw = new ScriptedListerWatcher([{items: [], resourceVersion: '10'}], [[bookmark('20'), 'hang'], ['hang']])
    const r = start(lw, undefined, {watchdogMs: 90_000})
    await r.clock.advance(89_000)
    expect(lw.watchCalls).toHaveLength(1)
    await r.clock.advance(2_000)
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '20'])
    expect(r.statuses).toContainEqual({type: 'disconnected', message: 'no event or bookmark for 90 s', retryInMs: 0, resourceVersion: '20'})
    r.ac.abort()
    await r.done
  })

  it('410 Expired inside the stream: lists again at the last resourceVersion, then, if that is gone too, with none', async () => {
    const lw = new ScriptedListerWatcher(
      [
        {items: [obj('a', '1'), obj('b', '2')], resourceVersion: '10'},
        apiError(410, 'Expired', 'too old resource version: 12 (30)'),
        {items: [obj('a', '25')], resourceVersion: '31'},
      ],
      [[ev('MODIFIED', obj('b', '12')), expired()], ['hang']],
    )
    const store = new RecordingStore()
    const r = start(lw, store)
    await r.clock.advance(0)
    expect(lw.listCalls.map((l) => l.resourceVersion)).toEqual([undefined, '12', undefined])
    expect(store.log).toEqual(['begin', 'page a,b', 'end 10', 'MODIFIED b', 'begin', 'begin', 'page a', 'end 31 relist (410 Expired: too old resource version: 5 (9))'])
    expect(r.statuses).toContainEqual({type: 'expired', message: '410 Expired: too old resource version: 5 (9)', resourceVersion: '12'})
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '31'])
    r.ac.abort()
    await r.done
  })

  it('relists "not older than" the last resourceVersion; expiring again at once, it backs off and lists from scratch', async () => {
    const lw = new ScriptedListerWatcher(
      [
        {items: [], resourceVersion: '10'},
        {items: [], resourceVersion: '10'}, // a server that answers with the expired version again
        {items: [obj('a', '40')], resourceVersion: '40'},
      ],
      [[expired()], [expired()], ['hang']],
    )
    const r = start(lw)
    await r.clock.advance(0)
    expect(lw.listCalls).toEqual([{limit: 2}, {resourceVersion: '10', resourceVersionMatch: 'NotOlderThan', limit: 2}])
    await r.clock.advance(800)
    expect(lw.listCalls.at(-1)).toEqual({limit: 2})
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '10', '40'])
    r.ac.abort()
    await r.done
  })

  it('after a break, a watch the server accepts only to answer 410 is not reported as resumed', async () => {
    const lw = new ScriptedListerWatcher(
      [{items: [], resourceVersion: '10'}, {items: [], resourceVersion: '50'}],
      [new Error('ECONNRESET'), [expired()], [bookmark('51'), 'hang']],
    )
    const r = start(lw)
    await r.clock.advance(800)
    expect(r.statuses.map((s) => s.type)).toEqual(['listed', 'disconnected', 'expired', 'listed'])
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '10', '50'])
    r.ac.abort()
    await r.done
  })

  it('410 as the HTTP status of the watch request relists too', async () => {
    const lw = new ScriptedListerWatcher(
      [{items: [], resourceVersion: '10'}, {items: [], resourceVersion: '40'}],
      [apiError(410, 'Gone'), ['hang']],
    )
    const r = start(lw)
    await r.clock.advance(0)
    expect(lw.listCalls.map((l) => l.resourceVersion)).toEqual([undefined, '10'])
    expect(lw.watchCalls.map((w) => w.resourceVersion)).toEqual(['10', '40'])
    r.ac.abort()
    await r.done
  })

  it('403 on the watch ends the loop with that error; so does any error before the first list', async () => {
    const forbidden = apiError(403, 'Forbidden', 'pods is forbidden: User "u" cannot watch resource "pods"')
    const a = start(new ScriptedListerWatcher([{items: [], resourceVersion: '1'}], [forbidden]))
    await a.clock.advance(0)
    expect(a.finished).toBe(true)
    expect(a.error).toBe(forbidden)

    const down = new Error('ECONNREFUSED')
    const b = start(new ScriptedListerWatcher([down], []))
    await b.clock.advance(0)
    expect(b.error).toBe(down)
  })

  it('stops when aborted as the list completes, without opening a watch', async () => {
    const lw = new ScriptedListerWatcher([{items: [], resourceVersion: '1'}], [['hang']])
    const ac = new AbortController()
    const reflector = new Reflector(lw, new RecordingStore(), {resource: 'pods', clock: new ManualClock(), onStatus: (s) => s.type === 'listed' && queueMicrotask(() => ac.abort())})
    await reflector.run(ac.signal)
    expect(lw.watchCalls).toHaveLength(0)
  })

  it('a watch closed at once with nothing in it is retried with backoff, not in a tight loop', async () => {
    const lw = new ScriptedListerWatcher([{items: [], resourceVersion: '1'}], [[], [], ['hang']])
    const r = start(lw)
    await r.clock.advance(0)
    expect(lw.watchCalls).toHaveLength(1)
    expect(r.statuses.at(-1)).toMatchObject({type: 'disconnected', message: 'the watch was closed at once', retryInMs: 800})
    r.ac.abort()
    await r.done
  })
})

describe('SharedInformer', () => {
  interface Item extends CachedObject {
    value: string
  }
  const transform = (raws: RawObject[]) => ({
    objects: raws.map((r) => {
      const m = r.metadata as {namespace: string; name: string; resourceVersion: string}
      return Object.freeze({namespace: m.namespace, name: m.name, resourceVersion: m.resourceVersion, value: String(r.value ?? '')}) as Item
    }),
    problems: [],
  })

  function recorder(): {log: string[]; handler: EventHandler<Item>} {
    const log: string[] = []
    return {
      log,
      handler: {
        onAdd: (o, initial) => log.push(`add ${o.name}@${o.resourceVersion}${initial ? ' (initial)' : ''}`),
        onUpdate: (old, o, how) => log.push(`update ${o.name} ${old.resourceVersion}→${o.resourceVersion} (${how})${old === o ? ' same' : ''}`),
        onDelete: (o, how) => log.push(`delete ${o.name}@${o.resourceVersion} (${how})`),
      },
    }
  }

  it('delivers the list as adds, the watch as updates, and a relist\'s difference with tombstones for what vanished', async () => {
    const lw = new ScriptedListerWatcher(
      [
        {items: [obj('a', '1'), obj('b', '2'), obj('c', '3')], resourceVersion: '10'},
        {items: [obj('a', '1'), obj('b', '20'), obj('d', '21')], resourceVersion: '30'},
      ],
      [[ev('MODIFIED', obj('a', '11', {value: 'x'})), ev('DELETED', obj('a', '12')), ev('ADDED', obj('a', '13')), expired()], ['hang']],
    )
    const statuses: unknown[] = []
    const clock = new ManualClock()
    const informer = new SharedInformer<Item>('things', lw, transform, {clock, random: () => 0, onStatus: (s) => statuses.push(s)})
    const {log, handler} = recorder()
    informer.addEventHandler(handler)
    const ac = new AbortController()
    const done = informer.run(ac.signal)
    await clock.advance(0)
    expect(log).toEqual([
      'add a@1 (initial)',
      'add b@2 (initial)',
      'add c@3 (initial)',
      'update a 1→11 (watch)',
      'delete a@11 (watch)',
      'add a@13',
      // the relist: a is back at 1 (what the list says), b changed, c vanished (tombstone), d is new
      'update a 13→1 (relist)',
      'update b 2→20 (relist)',
      'add d@21',
      'delete c@3 (relist)',
    ])
    expect(statuses).toContainEqual(expect.objectContaining({type: 'relisted', resource: 'things', resourceVersion: '30', added: 1, updated: 2, deleted: 1}))
    expect([...informer.list()].map((o) => o.name).sort()).toEqual(['a', 'b', 'd'])
    expect(informer.size).toBe(3)
    // A consumer that joins late gets the cache as adds; a resync replays every object to itself.
    const late = recorder()
    informer.addEventHandler(late.handler)
    expect(late.log).toHaveLength(3)
    informer.resync()
    expect(log.slice(-3).every((l) => l.endsWith('(resync) same'))).toBe(true)
    ac.abort()
    await done
  })

  it('never changes a cached object: updates replace it', async () => {
    const lw = new ScriptedListerWatcher([{items: [obj('a', '1', {value: 'v1'})], resourceVersion: '10'}], [[ev('MODIFIED', obj('a', '2', {value: 'v2'})), 'hang']])
    const clock = new ManualClock()
    const informer = new SharedInformer<Item>('things', lw, transform, {clock})
    const seen: Item[] = []
    informer.addEventHandler({onAdd: (o) => seen.push(o), onUpdate: (old, o) => seen.push(old, o)})
    const ac = new AbortController()
    const done = informer.run(ac.signal)
    await clock.advance(0)
    expect(seen.map((o) => o.value)).toEqual(['v1', 'v1', 'v2'])
    expect(seen[0]).toBe(seen[1])
    expect(Object.isFrozen(seen[0])).toBe(true)
    ac.abort()
    await done
  })
})
