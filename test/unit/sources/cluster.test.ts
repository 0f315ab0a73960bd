// Reading a cluster page by page (against a small fake API server): objects are normalized in list
// order whatever order the pages come in, a list that starts over (410 on a continue token) is read
// once, and a bad object's error line is the one the List document written up front gives.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {listClusterObjects, readCluster, connect} from '../../../src/sources/cluster.js'
import type {RawObject} from '../../../src/sources/documents.js'
import {normalizeParsed} from '../../../src/sources/parsed.js'
import {serverPod, serverReplicaSet} from '../../helpers/server-objects.js'
import {userErrorLine as errorLine} from '../../helpers/user-error.js'

const CONTEXT = 'fake'

const replicaSet = serverReplicaSet
const pod = serverPod

/** What the fake server serves, by plural (anything else: an empty list), and how. */
const world: {items: Record<string, RawObject[]>; delayMs: Record<string, number>; expireOnce?: string; asked: string[]} = {items: {}, delayMs: {}, asked: []}
let server: http.Server
let dir: string
let kubeconfig: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x')
    const plural = url.pathname.split('/').pop()!
    world.asked.push(plural)
    const items = world.items[plural] ?? []
    const limit = Number(url.searchParams.get('limit') ?? 500)
    const token = url.searchParams.get('continue')
    const from = Number(token ?? 0)
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, {'Content-Type': 'application/json'})
      res.end(JSON.stringify(body))
    }
    if (token && world.expireOnce === plural) {
      world.expireOnce = undefined
      return answer(410, {kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', message: 'The provided continue parameter is too old', code: 410})
    }
    const next = from + limit < items.length ? String(from + limit) : undefined
    const body = {kind: 'List', apiVersion: 'v1', metadata: {resourceVersion: '9', ...(next ? {continue: next} : {})}, items: items.slice(from, from + limit)}
    setTimeout(() => answer(200, body), world.delayMs[plural] ?? 0)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  dir = mkdtempSync(join(tmpdir(), 'kctl-cluster-'))
  kubeconfig = join(dir, 'config')
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: ${CONTEXT}, context: {cluster: c, user: u, namespace: default}}]\ncurrent-context: ${CONTEXT}\n`,
  )
})

afterAll(() => {
  server.close()
  rmSync(dir, {recursive: true, force: true})
})

beforeEach(() => {
  world.items = {}
  world.delayMs = {}
  world.expireOnce = undefined
  world.asked = []
})

const REQ = {allNamespaces: true, pageSize: 3}

/** The objects as listed, in list order (kind and apiVersion set). */
async function listed(): Promise<RawObject[]> {
  const client = await connect({kubeconfig})
  return (await listClusterObjects(client, {kubeconfig, ...REQ})).objects
}

/**
 * The snapshot the List document written up front gives for the objects listed, told (as the live
 * read is) which kinds are there at all; with `hint: false`, told nothing.
 */
async function eager({hint = true} = {}) {
  const objects = await listed()
  const mayHold = hint ? (kind: string) => objects.some((o) => o.kind === kind) : undefined
  return normalizeParsed(`cluster:${CONTEXT}`, objects, {paths: [], allNamespaces: true, serverDefaulted: true, mayHold})
}

/** A HorizontalPodAutoscaler of ReplicaSet web-0, as the server lists it. */
const hpa = {
  metadata: {name: 'web-0', namespace: 'default', uid: 'uid-hpa-0', resourceVersion: '300', creationTimestamp: '2026-11-22T09:00:00Z'},
  spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-0'}, minReplicas: 1, maxReplicas: 5, metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 50}}}]},
  status: {currentReplicas: 2, desiredReplicas: 2},
}

const comparable = (s: object) => JSON.stringify({...s, source: undefined})

describe('reading a cluster page by page', () => {
  it('pages that come before their turn wait for it: the same snapshot, in list order, as reading everything first', async () => {
    world.items.replicasets = Array.from({length: 7}, (_, i) => replicaSet(i))
    world.items.pods = Array.from({length: 7}, (_, i) => pod(i))
    world.delayMs.replicasets = 60 // the pods' pages all come first
    const snapshot = await readCluster({kubeconfig, ...REQ})
    expect(snapshot.pods.map((p) => p.name)).toEqual(world.items.pods.map((p) => (p.metadata as RawObject).name))
    expect(snapshot.replicaSets.map((r) => r.name)).toEqual(world.items.replicasets.map((r) => (r.metadata as RawObject).name))
    expect(comparable(snapshot)).toBe(comparable(await eager()))
    expect(snapshot.pods[6].origin).toEqual((await eager()).pods[6].origin)
  })

  it.each([
    ['no HPA: pods leave out what only an HPA reads', false],
    ['an HPA: pods keep it', true],
  ])('%s, whether the HPAs are listed before the pods or after them', async (_, withHpa) => {
    world.items.replicasets = Array.from({length: 3}, (_, i) => replicaSet(i))
    world.items.pods = Array.from({length: 7}, (_, i) => pod(i))
    if (withHpa) world.items.horizontalpodautoscalers = [hpa]
    for (const late of ['pods', 'horizontalpodautoscalers']) {
      world.delayMs = {[late]: 60}
      // (Less what the HPA's metrics APIs answered, which only a live read asks.)
      const snapshot = {...(await readCluster({kubeconfig, ...REQ})), hpaMetrics: undefined}
      expect(snapshot.pods.every((p) => (p.autoscaling !== undefined) === withHpa)).toBe(true)
      expect(comparable(snapshot)).toBe(comparable(await eager()))
      // What the hint leaves out is all that differs from a read told nothing.
      const told = JSON.parse(comparable(await eager({hint: false})))
      if (!withHpa) for (const p of told.pods) delete p.autoscaling
      expect(JSON.parse(comparable(snapshot))).toEqual(told)
    }
  })

  it('a list that starts over (an expired continue token) is read once', async () => {
    world.items.pods = Array.from({length: 8}, (_, i) => pod(i))
    world.expireOnce = 'pods'
    const snapshot = await readCluster({kubeconfig, ...REQ})
    expect(world.expireOnce).toBeUndefined()
    expect(snapshot.pods.map((p) => p.name)).toEqual(world.items.pods.map((p) => (p.metadata as RawObject).name))
    expect(comparable(snapshot)).toBe(comparable(await eager()))
  })

  it.each<[string, () => void, RegExp]>([
    ['a bad pod on a later page', () => (((world.items.pods[7].metadata as RawObject).labels as RawObject).tier = 3), /metadata\.labels\.tier: expected a string, got 3 /],
    ['a bad ReplicaSet behind late pods', () => ((world.items.replicasets[4].spec as RawObject).replicas = -1), /spec\.replicas: expected a non-negative integer, got -1$/],
    ['an item that is not an object', () => (world.items.pods[5] = 'oops' as unknown as RawObject), /./],
  ])('%s: the error line the written List gives', async (_, spoil, message) => {
    world.items.replicasets = Array.from({length: 6}, (_, i) => replicaSet(i))
    world.items.pods = Array.from({length: 9}, (_, i) => pod(i))
    world.delayMs.replicasets = 30
    spoil()
    const line = await errorLine(() => readCluster({kubeconfig, ...REQ}))
    expect(line).toMatch(new RegExp(`^cluster:${CONTEXT}:\\d+:\\d+: `))
    expect(line).toMatch(message)
    expect(line).toBe(await errorLine(eager))
  })
})

const meta = (name: string, namespace?: string) => ({name, ...(namespace ? {namespace} : {}), uid: `uid-${name}`, resourceVersion: '400', creationTimestamp: '2026-11-22T09:00:00Z'})
const node = (i: number) => ({metadata: meta(`node-${i}`), spec: {}, status: {}})
const daemonSet = {
  metadata: {...meta('agent', 'default'), generation: 1},
  spec: {selector: {matchLabels: {app: 'agent'}}, template: {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'main', image: 'registry.example.com/agent:v1'}]}}},
  status: {observedGeneration: 1},
}
const service = (name: string, spec: RawObject) => ({metadata: meta(name, 'default'), spec: {clusterIP: '10.0.0.1', ports: [{port: 80, protocol: 'TCP', targetPort: 80}], ...spec}})

describe('nodes, listed only when something read plans with them (nodesWhenRead)', () => {
  it.each<[string, boolean, () => void]>([
    ['no DaemonSet, a Service without selector', false, () => (world.items.services = [service('kubernetes', {})])],
    ['a DaemonSet, listed after the pods', true, () => ((world.items.daemonsets = [daemonSet]), (world.delayMs.daemonsets = 40))],
    ['a Service with a selector, listed late', true, () => ((world.items.services = [service('kubernetes', {}), service('web', {selector: {app: 'web-0'}})]), (world.delayMs.services = 40))],
    ['a Service with an empty selector', true, () => (world.items.services = [service('web', {selector: {}})])],
    ['a LoadBalancer without selector', true, () => (world.items.services = [service('lb', {type: 'LoadBalancer'})])],
  ])('%s: nodes listed: %s; the same snapshot as a read of every list, less the nodes when not listed', async (_, listed, add) => {
    world.items.replicasets = [replicaSet(0)]
    world.items.pods = Array.from({length: 4}, (_, i) => pod(i))
    world.items.nodes = Array.from({length: 4}, (_, i) => node(i))
    add()
    const whole = await readCluster({kubeconfig, ...REQ})
    expect(world.asked.filter((p) => p === 'nodes')).toHaveLength(2)
    expect(whole.nodes).toHaveLength(4)
    world.asked = []
    const read = await readCluster({kubeconfig, ...REQ, nodesWhenRead: true})
    // Not listed: one node asked for (limit 1), so that a refusal is still told.
    expect(world.asked.filter((p) => p === 'nodes')).toHaveLength(listed ? 2 : 1)
    expect(comparable(read)).toBe(comparable(listed ? whole : {...whole, nodes: []}))
  })
})
