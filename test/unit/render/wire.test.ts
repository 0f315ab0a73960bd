import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'

import {renderDocument} from '../../../src/render/document.js'
import {renderListTable} from '../../../src/render/list-table.js'
import {controllerListToWire} from '../../../src/render/list-wire.js'
import {planToWire, writePlanJson} from '../../../src/render/wire.js'
import {controller, create, del, NOW, plan, status} from './plans.js'

const scaleDown = () =>
  plan([
    controller('web', {
      desired: 1,
      active: 2,
      diff: 1,
      actions: [del('web-a', 'created', {tie: ['web-a', 'web-b']}), {type: 'updateStatus', from: status({replicas: 1}), to: status({replicas: 2})}],
    }),
    controller('api'),
  ])

describe('planToWire', () => {
  it('puts the contract fields first, in a fixed order', () => {
    const wire = planToWire(scaleDown()) as Record<string, unknown>
    expect(Object.keys(wire)).toEqual(['apiVersion', 'kind', 'now', 'source', 'controllers', 'summary', 'ignored', 'options'])
    const c = (wire.controllers as Record<string, unknown>[])[0]
    expect(Object.keys(c)).toEqual([
      'kind', 'apiVersion', 'namespace', 'name', 'uid', 'resourceVersion', 'desired', 'active', 'diff', 'pending', 'inSync', 'status', 'warnings', 'actions',
    ])
    const [d, u] = c.actions as Record<string, unknown>[]
    expect(Object.keys(d)).toEqual(['type', 'pod', 'uid', 'resourceVersion', 'decidedBy', 'reasons', 'tie', 'facts'])
    expect(Object.keys(u)).toEqual(['type', 'from', 'to'])
    expect(Object.keys(wire.summary as object)).toEqual(['controllers', 'inSync', 'create', 'delete', 'adopt', 'release', 'updateStatus', 'pending'])
  })

  it('does not depend on the key order of the value it is given', () => {
    const a = scaleDown()
    const shuffled = JSON.parse(JSON.stringify(a), function (_k, v) {
      if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).reverse())
      return v
    })
    expect(renderDocument(planToWire(shuffled), 'json')).toBe(renderDocument(planToWire(a), 'json'))
  })

  it('sorts label maps and keeps fields the contract does not list yet (after the listed ones)', () => {
    const rs = controller('web', {actions: [create('web', {labels: {z: '1', a: '2'}} as never)]})
    ;(rs as unknown as Record<string, unknown>).extraField = 7
    const c = (planToWire(plan([rs])) as {controllers: Record<string, unknown>[]}).controllers[0]
    expect(Object.keys(c).at(-1)).toBe('extraField')
    expect(Object.keys((c.actions as {labels: object}[])[0].labels)).toEqual(['a', 'z'])
  })
})

describe('renderDocument', () => {
  it('writes JSON with 2 spaces and one trailing newline', () => {
    const text = renderDocument(planToWire(scaleDown()), 'json')
    expect(text.endsWith('}\n')).toBe(true)
    expect(text.endsWith('\n\n')).toBe(false)
    expect(text.split('\n')[1]).toBe('  "apiVersion": "kctl/v1alpha1",')
  })

  it('writes YAML that reads back to the same value and quotes what YAML 1.1 would retype', () => {
    const wire = planToWire(scaleDown())
    const text = renderDocument(wire, 'yaml')
    expect(parse(text)).toEqual(wire)
    expect(parse(text, {version: '1.1'})).toEqual(wire)
    expect(text).toContain(`now: "${NOW}"`)
  })

  it('writes the same JSON straight from the plan as from its copy, and YAML without aliases', () => {
    const shared = {a: '1', b: {c: [1, {e: 2, d: undefined}], f: null}}
    const labels = {zone: 'b', app: 'web', tier: undefined}
    const odd = plan([
      controller('web', {
        desired: 2,
        actions: [create('web', {labels} as never), create('api', {labels: shared} as never)],
        warnings: ['w', 'quote " backslash \\ tab \t é ✓ \u{1F600} \uD800'],
        service: {b: [shared, shared, [labels]], a: {y: 1, x: [undefined, {q: 1, p: 2}], '10': 'ten', '9': 'nine', 'k"\n': -0, n: [NaN, 1.5e-7, 2e21]}} as never,
      }),
      controller('api', {events: ['x'], ties: [{pods: ['b', 'a'], id: 1, delete: 'a'}], '2': 'index', zz: {}} as never),
    ])
    const text = written(odd)
    expect(text).toBe(renderDocument(planToWire(odd), 'json'))
    expect(text).toMatch(/"labels": \{\n +"app": "web",\n +"zone": "b"\n +\}/)
    expect(renderDocument(planToWire(odd), 'yaml')).not.toMatch(/[&*]a\d/)
  })

  it("writes a DaemonSet's node entries as their copy reads, whatever fields and values they hold", () => {
    const podless = {excludedBy: 'node-selector', node: 'n-2', pods: [], shouldContinueRunning: false, shouldRun: false}
    const nodes = [
      {node: 'n-1', pods: ['a', 'b'], shouldContinueRunning: true, shouldRun: true},
      podless,
      {excludedBy: 'taint', node: 'n-3', pods: ['c'], shouldContinueRunning: true, shouldRun: false, taint: {key: 'k', value: '', effect: 'NoSchedule'}},
      {shouldRun: false, pods: [], node: 'é "n"\n', shouldContinueRunning: true, excludedBy: 'taint'},
      {node: 'n-5', pods: ['d'], shouldContinueRunning: true, shouldRun: true, excludedBy: undefined, zone: 'b'},
      {node: 'n-6', pods: ['e', undefined, 7], shouldContinueRunning: 1, shouldRun: null},
      {excludedBy: 3, node: undefined, pods: {0: 'f'}, shouldRun: true},
      podless,
    ]
    const ds = controller('agent', {kind: 'DaemonSet', nodes, then: controller('agent', {kind: 'DaemonSet', nodes: [podless, podless]})} as never)
    const text = written(plan([ds, controller('other', {kind: 'DaemonSet', nodes: [podless]} as never)]))
    expect(text).toBe(renderDocument(planToWire(plan([ds, controller('other', {kind: 'DaemonSet', nodes: [podless]} as never)])), 'json'))
    expect(text).toContain('"node": "n-1",\n          "pods": [\n            "a",\n            "b"\n          ],\n          "shouldContinueRunning": true,')
    expect(text).toMatch(/"shouldRun": false,\n +"taint": \{\n +"effect": "NoSchedule",\n +"key": "k",\n +"value": ""\n +\}\n +\}/)
  })

  it('writes a large JSON plan in buffers of the size asked: the same bytes, a buffer reused once written', () => {
    const big = plan(Array.from({length: 400}, (_, i) => controller(`web-${i}`, {desired: 3, actions: i % 50 === 7 ? Array.from({length: 300}, (_, k) => del(`web-${i}-${k}`, 'created')) : []})))
    const pieces: string[] = []
    const buffers = new Set<ArrayBufferLike>()
    writePlanJson(
      big,
      (bytes) => {
        pieces.push(Buffer.from(bytes).toString('utf8'))
        buffers.add(bytes.buffer)
        return true
      },
      4096,
    )
    expect(pieces.join('')).toBe(renderDocument(planToWire(big), 'json'))
    expect(pieces.length).toBeGreaterThan(20)
    expect(Math.max(...pieces.map((p) => Buffer.byteLength(p)))).toBeLessThanOrEqual(4096)
    expect(buffers.size).toBe(1)
  })
})

/** The plan's JSON as writePlanJson writes it, each buffer kept as it was handed out. */
function written(p: Parameters<typeof writePlanJson>[0]): string {
  const kept: Uint8Array[] = []
  writePlanJson(p, (bytes) => (kept.push(bytes), false), 64)
  return Buffer.concat(kept).toString('utf8')
}

describe('kctl list renderers', () => {
  it('gives one aligned row per controller', () => {
    const p = plan([
      controller('web', {desired: 2, active: 5, diff: 3, actions: [del('x', 'not-ready')], status: status({replicas: 5, readyReplicas: 4, availableReplicas: 3})}),
      controller('legacy-frontend', {kind: 'ReplicationController', apiVersion: 'v1', namespace: 'shop'}),
    ])
    expect(renderListTable(p)).toBe(
      [
        'KIND                    NAMESPACE   NAME              DESIRED   ACTIVE   READY   AVAILABLE   DIFF   IN SYNC',
        'ReplicaSet              default     web               2         5        4       3           +3     no',
        'ReplicationController   shop        legacy-frontend   3         3        3       3           0      yes',
        '',
      ].join('\n'),
    )
    expect(renderListTable(plan([]))).toBe('No ReplicaSets, ReplicationControllers, Deployments, DaemonSets, StatefulSets, Jobs, CronJobs, Services or HorizontalPodAutoscalers found.\n')
  })

  it('gives a ControllerList document', () => {
    const wire = controllerListToWire(plan([controller('api')])) as {items: object[]}
    expect(Object.keys(wire.items[0])).toEqual(['kind', 'apiVersion', 'namespace', 'name', 'uid', 'desired', 'active', 'ready', 'available', 'diff', 'pending', 'inSync'])
    expect(wire).toEqual({
      apiVersion: 'kctl/v1alpha1',
      kind: 'ControllerList',
      now: NOW,
      source: {type: 'fixtures', paths: ['examples/x']},
      items: [
        {kind: 'ReplicaSet', apiVersion: 'apps/v1', namespace: 'default', name: 'api', uid: 'uid-api', desired: 3, active: 3, ready: 3, available: 3, diff: 0, pending: 0, inSync: true},
      ],
    })
  })
})
