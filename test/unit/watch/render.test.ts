// The watch display: NDJSON lines (a controller is exactly plan -o json's), the live table with
// changed cells marked, the appended table, and the redraw on a terminal.
import {describe, expect, it} from 'vitest'

import type {PlanChange} from '../../../src/model/watch.js'
import {watchUpdateLine} from '../../../src/render/watch-ndjson.js'
import {appendHeader, appendLine, cut, nextActions, renderLiveTable, rowOf, statusLine} from '../../../src/render/watch-table.js'
import {planToWire} from '../../../src/render/wire.js'
import {ManualClock} from '../../helpers/manual-clock.js'
import {changedFields} from '../../../src/watch/delta.js'
import {LiveView} from '../../../src/watch/view.js'
import {controllerPlan, FIXED_NOW, planOf, pod, replicaSet, snapshotOf} from '../../helpers/builders.js'

const web = replicaSet('web', {replicas: 5})
const plan = planOf(snapshotOf({workloads: [web], pods: [pod('web-1', {owner: web}), pod('orphan', {labels: {app: 'web'}})]}), {burst: 2})
const cp = controllerPlan(plan, 'web')
const change = (o: Partial<PlanChange> = {}): PlanChange => ({
  kind: 'PlanChange',
  time: '2026-11-22T10:00:01Z',
  now: FIXED_NOW,
  event: {type: 'MODIFIED', kind: 'ReplicaSet', namespace: 'default', name: 'web', resourceVersion: '11'},
  key: 'ReplicaSet/default/web',
  next: cp,
  changed: changedFields(undefined, cp),
  ...o,
})

describe('NDJSON', () => {
  it('a PlanChange is one line whose controller is the plan -o json entry', () => {
    const line = watchUpdateLine(change())
    expect(line.endsWith('\n')).toBe(true)
    expect(line.slice(0, -1)).not.toContain('\n')
    const doc = JSON.parse(line)
    expect(Object.keys(doc)).toEqual(['apiVersion', 'kind', 'time', 'event', 'controller', 'inSync', 'changed', 'now'])
    expect(doc).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'PlanChange', event: {type: 'MODIFIED', kind: 'ReplicaSet', resourceVersion: '11'}, inSync: false})
    expect(doc.controller).toEqual((planToWire(plan) as any).controllers[0])
  })

  it('a controller that is gone: removed, its identity only, in sync', () => {
    const doc = JSON.parse(watchUpdateLine(change({next: undefined, previous: cp, event: {type: 'DELETED', kind: 'ReplicaSet', namespace: 'default', name: 'web'}})))
    expect(doc).toMatchObject({removed: true, inSync: true, controller: {kind: 'ReplicaSet', apiVersion: 'apps/v1', namespace: 'default', name: 'web', uid: cp.uid}})
    expect(Object.keys(doc.controller)).toHaveLength(5)
  })

  it('a WatchStatus keeps only the fields it has', () => {
    const doc = JSON.parse(watchUpdateLine({kind: 'WatchStatus', time: 't', status: 'relisted', resource: 'pods', resourceVersion: '9', message: '410 Expired', added: 1, updated: 0, deleted: 2}))
    expect(doc).toEqual({apiVersion: 'kctl/v1alpha1', kind: 'WatchStatus', time: 't', status: 'relisted', resource: 'pods', resourceVersion: '9', message: '410 Expired', added: 1, updated: 0, deleted: 2})
  })
})

describe('the table', () => {
  it('next actions: creates, deletes, in-place changes, and what is left for later', () => {
    expect(nextActions(cp)).toBe('+2 ~2 (+1 later)')
    const calm = replicaSet('calm', {replicas: 1, status: {replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0}})
    expect(nextActions(controllerPlan(planOf(snapshotOf({workloads: [calm], pods: [pod('c', {owner: calm})]})), 'calm'))).toBe('in sync')
  })

  it('a Service whose only calls write nothing (its load balancer re-ensured as it is) is in sync; one with a write is not', () => {
    const ensure = {type: 'ensureLoadBalancer' as const, loadBalancer: 'auid', hosts: ['n1']}
    const status = {type: 'writeLoadBalancerStatus' as const, ingress: 'fromProvider' as const, from: [{ip: '203.0.113.10'}]}
    const service = {...cp, kind: 'Service' as const, diff: 0, pending: 0, actions: [ensure, status], inSync: true}
    expect(nextActions(service)).toBe('in sync')
    const finalizer = {type: 'addLoadBalancerFinalizer' as const, finalizer: 'service.kubernetes.io/load-balancer-cleanup' as const}
    expect(nextActions({...service, actions: [finalizer, ensure, status], inSync: false})).toBe('~3')
  })

  it('one row per controller; cells that just changed are marked (with * without colour), then not', () => {
    const row = rowOf(cp, Date.parse('2026-11-22T10:00:00Z'), ['desired', 'actions'], 'ReplicaSet/default/web')
    const o = {width: 200, height: 20, color: false, title: 'kctl watch'}
    const fresh = renderLiveTable([row], {...o, nowMs: Date.parse('2026-11-22T10:00:01Z')})
    expect(fresh[0]).toBe('kctl watch')
    expect(fresh[1]).toMatch(/^NAMESPACE\s+CONTROLLER\s+DESIRED\s+ACTIVE\s+READY\s+DIFF\s+NEXT\s+CHANGED$/)
    expect(fresh[2]).toMatch(/^default\s+rs\/web\s+5\*\s+2\s+2\s+-3\s+\+2 ~2 \(\+1 later\)\*\s+1s$/)
    expect(fresh).toHaveLength(3)
    const later = renderLiveTable([row], {...o, nowMs: Date.parse('2026-11-22T10:01:00Z')})
    expect(later[2]).not.toContain('*')
    expect(later[2]).toMatch(/\s60s$/)
    const colored = renderLiveTable([row], {...o, color: true, nowMs: Date.parse('2026-11-22T10:00:01Z')})
    expect(colored[2]).toContain('\u001B[7m5 ') // inverse
  })

  it('on a small terminal, rows not in sync are kept and the rest counted', () => {
    const calm = (i: number) => ({...rowOf(cp, 0, [], `k${i}`), inSync: true, name: `calm-${i}`})
    const rows = [...Array.from({length: 10}, (_, i) => calm(i)), {...rowOf(cp, 0, [], 'busy'), name: 'busy'}]
    const lines = renderLiveTable(rows, {width: 200, height: 6, color: false, title: 't', nowMs: 0})
    expect(lines.some((l) => l.includes('rs/busy'))).toBe(true)
    expect(lines.at(-1)).toMatch(/… 9 more in sync, not shown/)
    expect(lines.length).toBeLessThanOrEqual(6)
  })

  it('lines are cut to the terminal width without breaking escape sequences', () => {
    expect(cut('\u001B[1mabcdef\u001B[22m', 3)).toBe('\u001B[1mabc\u001B[22m')
  })

  it('appended lines (a table on something that is not a terminal)', () => {
    expect(appendHeader()).toMatch(/^TIME\s+EVENT\s+NAMESPACE\s+CONTROLLER\s+DESIRED\s+ACTIVE\s+READY\s+DIFF\s+NEXT\n$/)
    expect(appendLine(change())).toMatch(/^10:00:01\s+MODIFIED\s+default\s+rs\/web\s+5\s+2\s+2\s+-3\s+\+2 ~2 \(\+1 later\)\n$/)
    expect(appendLine(change({next: undefined, previous: cp}))).toMatch(/REMOVED\s+default\s+rs\/web\s+\(gone\)\n$/)
  })

  it('statuses in words', () => {
    expect(statusLine({kind: 'WatchStatus', time: 't', status: 'disconnected', resource: 'pods', resourceVersion: '7', message: 'ECONNREFUSED', retryInMs: 1600})).toBe(
      'lost the watch of pods at resourceVersion 7 (ECONNREFUSED); retrying in 1.6 s',
    )
    expect(statusLine({kind: 'WatchStatus', time: 't', status: 'reconnected', resource: 'pods', resourceVersion: '7'})).toBe('resumed the watch of pods from resourceVersion 7')
  })
})

describe('LiveView (a terminal)', () => {
  function screen() {
    let text = ''
    return {stream: {write: (s: string) => void (text += s), columns: 100, rows: 20}, get text() {
      return text
    }, reset() {
      text = ''
    }}
  }

  it('redraws in place: cursor up over the last drawing, erase, draw; notes go above the table', async () => {
    const out = screen()
    const err = screen()
    const clock = new ManualClock(Date.parse('2026-11-22T10:00:01Z'))
    const view = new LiveView(out.stream, err.stream, {title: () => 'kctl watch', color: false, clock})
    view.start()
    expect(out.text).toBe('\u001B[?25l')
    view.update(change())
    await clock.advance(100)
    const first = out.text
    expect(first).toContain('rs/web')
    expect(first).not.toMatch(/\u001B\[\d+F/)
    out.reset()
    view.update(change({next: {...cp, desired: 6}, changed: ['desired']}))
    await clock.advance(100)
    expect(out.text.startsWith('\u001B[3F')).toBe(true) // up over the title, the header and the row
    expect(out.text.endsWith('\u001B[J')).toBe(true)
    out.reset()
    view.note('watch: relisted pods')
    expect(out.text.startsWith('\u001B[3F\u001B[J')).toBe(true)
    expect(err.text).toBe('watch: relisted pods\n')
    view.stop()
    expect(out.text.endsWith('\u001B[?25h')).toBe(true)
  })
})
