// Services against the real endpoint controllers: pods with IPs and readiness reported through
// pods/status (as a kubelet would), Services planned by `kctl plan` with no controller running,
// then kube-controller-manager's endpointslice, endpoint and endpointslicemirroring controllers
// started and what they wrote compared with the plan — slices as a multiset of (address type,
// ports, endpoints with their conditions), Endpoints subsets as sets. Names of created slices and
// the order of ports and endpoints are upstream's random or hash order, so they are not compared.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {planJson} from './kctl.js'
import {api, apiOk, bindPod, controllerManager, deleteNamespace, makeNode, newNamespace, setPodStatus, waitUntil, waitUntilQuiet, watchEvents} from './setup/cluster.js'

type Json = any

const NOW = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')

interface PodSpec {
  name: string
  app: string
  node?: string
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed'
  ready?: boolean
  ip?: string | null
  ports?: {name: string; containerPort: number; protocol?: string}[]
  sidecarPorts?: {name: string; containerPort: number}[]
  hostname?: string
  subdomain?: string
  deleting?: boolean
  /** Both families (dual-stack): the IPv6 address beside the IPv4 one. */
  ipv6?: string
}

const WEB_PORT = [{name: 'web', containerPort: 8080}]
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time'
const HOLD = 'kctl.io/e2e-hold'

/** n pods `<app>-<i>` of one app, every other one not ready when `alternate`. */
const manyPods = (app: string, n: number, o: {alternate?: boolean; node?: string} = {}): PodSpec[] =>
  Array.from({length: n}, (_, i) => ({name: `${app}-${i}`, app, ports: WEB_PORT, node: o.node, ready: o.alternate ? i % 2 === 0 : true}))

/** Distinct pod IPs: the nth address after `base` (an a.b.0.0/16). */
const nthIP = (base: string, n: number) => `${base.split('.').slice(0, 2).join('.')}.${n >> 8}.${n & 255}`

/**
 * Creates a pod, binds it, and reports its status as a kubelet would; a pod being deleted then
 * stays terminating (no kubelet finishes it). Returns the pod as stored.
 */
async function createPod(ns: string, p: PodSpec, node: string, ip: string): Promise<Json> {
  const spec: Json = {containers: [{name: 'app', image: 'app', ports: p.ports ?? []}], terminationGracePeriodSeconds: 3600}
  if (p.sidecarPorts) spec.initContainers = [{name: 'proxy', image: 'proxy', restartPolicy: 'Always', ports: p.sidecarPorts}]
  if (p.hostname) spec.hostname = p.hostname
  if (p.subdomain) spec.subdomain = p.subdomain
  await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: p.name, labels: {app: p.app}}, spec}})
  await bindPod(ns, p.name, node)
  const phase = p.phase ?? 'Running'
  let pod = await setPodStatus(ns, p.name, {phase, ready: p.ready ?? phase === 'Running', ...(p.ip === null ? {} : {podIP: ip})})
  if (p.ipv6) {
    pod = await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${p.name}/status`, {contentType: 'application/merge-patch+json', body: {status: {podIPs: [{ip}, {ip: p.ipv6}]}}})
  }
  if (p.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
  return pod
}

// ES-1, ES-2, ES-3, ES-5, ES-12, ES-19, ES-20, ES-26 (services semantics §S), one Service each.
const SERVICES: {name: string; spec: Json; pods: PodSpec[]; endpoints?: Json}[] = [
  {
    name: 'basic',
    spec: {selector: {app: 'basic'}, ports: [{name: 'http', port: 80, targetPort: 'web', appProtocol: 'http'}]},
    pods: [
      {name: 'basic-ready', app: 'basic', ports: WEB_PORT},
      {name: 'basic-notready', app: 'basic', ready: false, ports: WEB_PORT},
      {name: 'basic-term-ready', app: 'basic', deleting: true, ports: WEB_PORT},
      {name: 'basic-term-notready', app: 'basic', ready: false, deleting: true, ports: WEB_PORT},
      {name: 'basic-succeeded', app: 'basic', phase: 'Succeeded', ports: WEB_PORT},
      {name: 'basic-failed', app: 'basic', phase: 'Failed', ports: WEB_PORT},
      {name: 'basic-noip', app: 'basic', phase: 'Pending', ip: null, ports: WEB_PORT},
      {name: 'basic-pending-ip', app: 'basic', phase: 'Pending', ready: false, ports: WEB_PORT},
    ],
  },
  {
    name: 'publish',
    spec: {selector: {app: 'publish'}, publishNotReadyAddresses: true, ports: [{name: 'http', port: 80, targetPort: 'web'}]},
    pods: [
      {name: 'publish-ready', app: 'publish', ports: WEB_PORT},
      {name: 'publish-notready', app: 'publish', ready: false, ports: WEB_PORT},
      {name: 'publish-term', app: 'publish', deleting: true, ports: WEB_PORT, node: 'b'},
    ],
  },
  {
    name: 'named',
    spec: {selector: {app: 'named'}, ports: [{name: 'http', port: 80, targetPort: 'web'}]},
    pods: [
      {name: 'named-a', app: 'named', ports: [{name: 'web', containerPort: 8080}]},
      {name: 'named-b', app: 'named', ports: [{name: 'web', containerPort: 9090}], node: 'b'},
      {name: 'named-c', app: 'named', ports: [{name: 'web', containerPort: 8080, protocol: 'UDP'}]},
      {name: 'named-d', app: 'named', ports: [], sidecarPorts: [{name: 'web', containerPort: 7070}]},
    ],
  },
  {name: 'empty', spec: {selector: {app: 'nothing-here'}, ports: [{port: 80}]}, pods: []},
  // ES-5: 250 pods, no slice: 100, 100 and 50 (which pod goes where is random).
  {name: 'many', spec: {selector: {app: 'many'}, ports: [{name: 'http', port: 80, targetPort: 'web'}]}, pods: manyPods('many', 250)},
  // ES-25: 1005 pods, 503 ready: eleven slices; the Endpoints object cut to 1000 addresses (all
  // ready ones, then the first not-ready ones in IP order) and annotated over-capacity.
  {name: 'over', spec: {selector: {app: 'over'}, ports: [{name: 'http', port: 80, targetPort: 'web'}]}, pods: manyPods('over', 1005, {alternate: true})},
  {
    name: 'headless',
    spec: {clusterIP: 'None', selector: {app: 'headless'}},
    pods: [
      {name: 'headless-a', app: 'headless', hostname: 'a', subdomain: 'headless'},
      {name: 'headless-b', app: 'headless', hostname: 'b', subdomain: 'other', node: 'b'},
    ],
  },
  {name: 'external', spec: {type: 'ExternalName', externalName: 'example.com'}, pods: []},
  // ES-20 (second round): its selector is removed once its slice and Endpoints object are written.
  {name: 'unselected', spec: {selector: {app: 'unselected'}, ports: [{name: 'http', port: 80, targetPort: 'web'}]}, pods: [{name: 'unselected-a', app: 'unselected', ports: WEB_PORT}]},
  {
    name: 'mirrored',
    spec: {ports: [{port: 5432}]},
    pods: [],
    endpoints: {
      metadata: {name: 'mirrored', labels: {owner: 'dba'}},
      subsets: [{addresses: [{ip: '192.0.2.1'}, {ip: '192.0.2.2'}], notReadyAddresses: [{ip: '192.0.2.3'}], ports: [{port: 5432, protocol: 'TCP'}]}],
    },
  },
]

/** A slice, reduced to what is certain: its type, ports as a set, endpoints as a set. */
function sliceKey(addressType: string, ports: Json[] | null, endpoints: Json[]): string {
  return JSON.stringify([addressType, portsKey(ports), endpoints.map(endpointKey).sort()])
}

const portsKey = (ports: Json[] | null): string[] => (ports ?? []).map((x) => `${x.name ?? ''}:${x.port}/${x.protocol ?? 'TCP'}:${x.appProtocol ?? ''}`).sort()

const endpointKey = (x: Json): string =>
  JSON.stringify([x.targetRef?.name ?? x.addresses.join(','), x.addresses, x.conditions?.ready ?? null, x.conditions?.serving ?? null, x.conditions?.terminating ?? null, x.hostname ?? null, x.nodeName ?? null, x.zone ?? null, hintsKey(x.hints)])

/** Hints as sets (the API server prints forZones before forNodes; the plan may not). */
const hintsKey = (h: Json): Json => (h ? {forZones: (h.forZones ?? []).map((z: Json) => z.name).sort(), forNodes: (h.forNodes ?? []).map((n: Json) => n.name).sort()} : null)

/**
 * Slices whose membership is random (E8.7) are compared by what is certain: type, ports, size, the
 * endpoints the plan names, and, over all of them, the pods of their pool.
 */
function judgeCreated(planned: Json[], got: Json[], pools: Json[] = []): void {
  const certain = planned.filter((a) => !a.random)
  const random = planned.filter((a) => a.random)
  const left = [...got]
  for (const a of certain) {
    const i = left.findIndex((s) => sliceKey(s.addressType, s.ports, s.endpoints ?? []) === sliceKey(a.addressType, a.ports, a.endpoints))
    expect(i, `a created slice ${sliceKey(a.addressType, a.ports, a.endpoints)}`).toBeGreaterThanOrEqual(0)
    left.splice(i, 1)
  }
  const shape = (t: string, ports: Json[] | null, size: number) => JSON.stringify([t, portsKey(ports), size])
  expect(left.map((s) => shape(s.addressType, s.ports, (s.endpoints ?? []).length)).sort()).toEqual(random.map((a) => shape(a.addressType, a.ports, a.size)).sort())
  const named = new Set(random.flatMap((a) => a.endpoints.map(endpointKey)))
  for (const k of named) expect(left.flatMap((s) => (s.endpoints ?? []).map(endpointKey))).toContain(k)
  const poolPods = random.flatMap((a) => pools.find((p) => p.id === a.pool)?.pods ?? [])
  const unnamed = left.flatMap((s) => s.endpoints ?? []).filter((e: Json) => !named.has(endpointKey(e))).map((e: Json) => e.targetRef.name)
  expect(unnamed.sort()).toEqual([...new Set(poolPods)].sort())
}

function subsetKeys(subsets: Json[] | undefined): string[] {
  return (subsets ?? [])
    .map((s: Json) =>
      JSON.stringify([
        (s.ports ?? []).map((x: Json) => `${x.name ?? ''}:${x.port}/${x.protocol}`).sort(),
        (s.addresses ?? []).map((a: Json) => `${a.ip} ${a.targetRef?.name ?? ''} ${a.hostname ?? ''}`).sort(),
        (s.notReadyAddresses ?? []).map((a: Json) => `${a.ip} ${a.targetRef?.name ?? ''}`).sort(),
      ]),
    )
    .sort()
}

describe('Services: the plan against the real endpoint controllers', () => {
  let ns: string
  let plan: Json
  const nodeA = () => `${ns}-a`
  const nodeB = () => `${ns}-b`

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('svc')
    await makeNode(nodeA(), {labels: {'topology.kubernetes.io/zone': 'zone-1'}})
    await makeNode(nodeB(), {labels: {'topology.kubernetes.io/zone': 'zone-2'}})
    let ip = 1
    for (const s of SERVICES) {
      await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: s.name, labels: {team: 'e2e'}}, spec: s.spec}})
      if (s.endpoints) await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: {apiVersion: 'v1', kind: 'Endpoints', ...s.endpoints}})
      // Eight at a time: the big Services have a thousand pods.
      const queue = s.pods.map((p) => [p, nthIP('10.77.0.0', ip++)] as const)
      await Promise.all(Array.from({length: 8}, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await createPod(ns, next[0], next[0].node === 'b' ? nodeB() : nodeA(), next[1])
      }))
    }
    plan = await planJson(['-n', ns, '--now', NOW()])
    await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'])
  }, 300_000)

  afterAll(async () => {
    await controllerManager.stop()
    if (ns) await deleteNamespace(ns)
    for (const n of [nodeA(), nodeB()]) await api('DELETE', `/api/v1/nodes/${n}`)
  })

  const planOf = (name: string): Json => plan.controllers.find((c: Json) => c.kind === 'Service' && c.name === name)

  async function slicesOf(name: string): Promise<Json[]> {
    const list = await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${name}`)}`)
    return list.items
  }

  it.each(SERVICES.filter((s) => s.spec.type !== 'ExternalName').map((s) => s.name))('%s: the slices written are the slices planned', async (name) => {
    const cp = planOf(name)
    const planned = cp.actions.filter((a: Json) => a.type === 'createEndpointSlice')
    expect(cp.actions.filter((a: Json) => a.type === 'updateEndpointSlice' || a.type === 'deleteEndpointSlice')).toEqual([])
    const got = await waitUntil(async () => {
      const slices = await slicesOf(name)
      return slices.length >= planned.length ? slices : undefined
    }, {what: `${planned.length} slice(s) of Service ${name}`})
    judgeCreated(planned, got, cp.service.pools)
    for (const [s, a] of [[got[0], planned[0]]]) {
      if (!s) continue
      expect(s.metadata.labels).toEqual(a.labels)
      expect(s.metadata.ownerReferences?.[0]).toMatchObject({kind: a.ownerReference.kind, name: a.ownerReference.name, uid: a.ownerReference.uid})
    }
  })

  it.each(['basic', 'publish', 'named', 'empty', 'headless', 'many', 'over'])('%s: the Endpoints object written is the one planned', async (name) => {
    const cp = planOf(name)
    const [write] = cp.actions.filter((a: Json) => a.type === 'writeEndpoints')
    expect(write.verb).toBe('create')
    const got = await waitUntil(async () => {
      const r = await api('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`)
      return r.status === 200 && JSON.parse(r.body)
    }, {what: `Endpoints ${name}`})
    expect(subsetKeys(got.subsets)).toEqual(subsetKeys(write.subsets))
    expect(got.metadata.labels).toEqual(write.labels)
    // E9, E12.8: the fresh controller's trigger time (the Service's creation) and the capacity mark.
    // An over-capacity object is written again at every sync (E12.9), and a later sync of the
    // running controller (pod events still arriving after the first) clears the trigger time: only
    // the first sync's is planned.
    if (!write.truncated) expect(got.metadata.annotations?.[TRIGGER_TIME]).toBe(write.triggerTime)
    expect(got.metadata.annotations?.['endpoints.kubernetes.io/over-capacity']).toBe(write.truncated ? 'truncated' : undefined)
  })

  it('ES-25: the truncation keeps every ready address and the first not-ready ones', () => {
    const [write] = planOf('over').actions.filter((a: Json) => a.type === 'writeEndpoints')
    expect(write.truncated).toEqual({from: 1005, to: 1000})
    const count = (k: string) => write.subsets.reduce((n: number, x: Json) => n + (x[k] ?? []).length, 0)
    expect([count('addresses'), count('notReadyAddresses')]).toEqual([503, 497])
  })

  it('external: ExternalName gets nothing, as planned', async () => {
    expect(planOf('external').actions).toEqual([])
    // Give the controllers time to have synced everything else first.
    await waitUntil(async () => (await slicesOf('basic')).length > 0, {what: 'the controllers to have synced'})
    expect(await slicesOf('external')).toEqual([])
  })

  it('per pod, the verdicts name why a pod has no endpoint', () => {
    const pods = Object.fromEntries(planOf('basic').service.pods.map((p: Json) => [p.pod, p]))
    expect(pods['basic-succeeded'].slice).toEqual({in: false, reason: 'terminal'})
    expect(pods['basic-noip'].slice).toEqual({in: false, reason: 'no-ip'})
    expect(pods['basic-term-ready'].endpoints).toEqual({in: false, reason: 'terminating'})
  })

  // Second round, on what the controllers wrote: the controllers stopped, the world changed, a
  // fresh plan, the controllers started again. Updated and reused slices keep their names, so
  // each is compared by name with the plan.
  describe('after a change', () => {
    let second: Json

    beforeAll(async () => {
      // Everything of the first round written (the last Service's slices and Endpoints exist).
      for (const s of SERVICES.filter((x) => x.spec.type !== 'ExternalName')) await waitUntil(async () => (await slicesOf(s.name)).length > 0, {what: `slices of ${s.name}`})
      await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/endpoints/headless`)).status === 200, {what: 'Endpoints headless'})
      await controllerManager.stop()
    }, 60_000)

    it('ES-27: a restarted controller has nothing to write for what it converged (but an over-capacity Endpoints object)', async () => {
      const again = await planJson(['-n', ns, '--now', NOW()])
      const busy = again.controllers.filter((c: Json) => c.kind === 'Service' && !c.inSync).map((c: Json) => [c.name, c.actions.map((a: Json) => a.type)])
      expect(busy).toEqual([['over', ['writeEndpoints']]])
    })

    it('ES-10, ES-7, ES-11, ES-14, ES-16, ES-23: the slices rewritten are the ones planned, by name', async () => {
      await setPodStatus(ns, 'basic-notready', {phase: 'Running', ready: true, podIP: (await apiOk('GET', `/api/v1/namespaces/${ns}/pods/basic-notready`)).status.podIP})
      await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/basic-pending-ip?gracePeriodSeconds=0`)
      for (const p of ['publish-ready', 'publish-notready', 'publish-term']) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p}?gracePeriodSeconds=0`)
      await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'empty-now', labels: {app: 'nothing-here'}}, spec: {containers: [{name: 'app', image: 'app'}]}}})
      await bindPod(ns, 'empty-now', nodeB())
      await setPodStatus(ns, 'empty-now', {phase: 'Running', podIP: '10.77.1.1'})
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/named`, {contentType: 'application/merge-patch+json', body: {spec: {ports: [{name: 'http', port: 80, targetPort: 9090}]}}})
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/headless`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {team: 'other'}}}})
      await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/endpoints/unselected`)).status === 200, {what: 'Endpoints unselected'})
      const unselectedBefore = await slicesOf('unselected')
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/unselected`, {contentType: 'application/merge-patch+json', body: {spec: {selector: null}}})
      // E13.2: the mirrored Service gets a selector: the mirroring controller deletes its slice.
      const mirroredBefore = await slicesOf('mirrored')
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/mirrored`, {contentType: 'application/merge-patch+json', body: {spec: {selector: {app: 'nothing-here'}}}})
      second = await planJson(['-n', ns, '--now', NOW()])
      const writes = (name: string) =>
        second.controllers.find((c: Json) => c.kind === 'Service' && c.name === name).actions.filter((a: Json) => a.type.endsWith('EndpointSlice'))
      // What each Service's plan says, in words the rules use.
      expect(writes('basic').map((a: Json) => [a.type, a.removed, a.changed.map((x: Json) => x.pod)])).toEqual([['updateEndpointSlice', ['basic-pending-ip'], ['basic-notready']]])
      expect(writes('publish').map((a: Json) => [a.type, a.recycled, a.placeholder])).toEqual([['updateEndpointSlice', true, true]])
      expect(writes('empty').map((a: Json) => [a.type, a.recycled, a.added])).toEqual([['updateEndpointSlice', true, ['empty-now']]])
      expect(writes('headless').map((a: Json) => [a.type, a.labelsChanged])).toEqual([['updateEndpointSlice', true]])
      // ES-16: every pod now resolves to 9090: the old 9090 slice takes them all, the other three go.
      expect(writes('named').map((a: Json) => a.type).sort()).toEqual(['deleteEndpointSlice', 'deleteEndpointSlice', 'deleteEndpointSlice', 'updateEndpointSlice'])
      // ES-20, E13.3: without a selector the EndpointSlice controller leaves its slice, and the
      // mirroring controller copies the Endpoints object the endpoint controller left into a second.
      const mirrored = writes('unselected')
      expect(mirrored.map((a: Json) => [a.type, a.controller])).toEqual([['createEndpointSlice', 'endpointslicemirroring']])
      const unmirrored = writes('mirrored').filter((a: Json) => a.controller === 'endpointslicemirroring')
      expect(unmirrored.map((a: Json) => [a.type, a.name, a.reason])).toEqual(mirroredBefore.map((x: Json) => ['deleteEndpointSlice', x.metadata.name, 'selector']))

      // Every write to the over-capacity Endpoints object, from now on: a later sync may rewrite it
      // again (without the trigger time) before a poll would see the first write.
      const overBefore = await apiOk('GET', `/api/v1/namespaces/${ns}/endpoints/over`)
      const overWrites = watchEvents(`/api/v1/namespaces/${ns}/endpoints?fieldSelector=metadata.name%3Dover`, overBefore.metadata.resourceVersion)
      await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'])
      const both = await waitUntil(async () => {
        const now = await slicesOf('unselected')
        return now.length === 2 ? now : undefined
      }, {what: 'the mirrored slice of unselected'})
      const [kept] = both.filter((x: Json) => x.metadata.name === unselectedBefore[0].metadata.name)
      expect(kept.metadata.resourceVersion).toBe(unselectedBefore[0].metadata.resourceVersion)
      const [copy] = both.filter((x: Json) => x.metadata.name !== unselectedBefore[0].metadata.name)
      expect(sliceKey(copy.addressType, copy.ports, copy.endpoints ?? [])).toBe(sliceKey(mirrored[0].addressType, mirrored[0].ports, mirrored[0].endpoints))
      expect(copy.metadata.labels).toEqual(mirrored[0].labels)
      // E12.9: the over-capacity Endpoints object is written again, as planned, with the restarted
      // controller's trigger time. (If the object already holds exactly that, the API server
      // takes the write as a no-op and its resourceVersion stays.)
      const [overWrite] = second.controllers.find((c: Json) => c.kind === 'Service' && c.name === 'over').actions
      expect(overWrite).toMatchObject({type: 'writeEndpoints', verb: 'update', truncated: {from: 1005, to: 1000}})
      const isPlanned = (ep: Json) => ep.metadata.annotations?.[TRIGGER_TIME] === overWrite.triggerTime && ep.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'] === 'truncated'
      const seen = () => overWrites.events.map((e) => `${e.type} rv ${e.object?.metadata?.resourceVersion} trigger ${e.object?.metadata?.annotations?.[TRIGGER_TIME]}`)
      // When the object already holds exactly the planned content (the first controller's first
      // write left it so), the restarted controller's first write is a no-op the API server does not
      // record; its next sync then rewrites the object again (without a trigger time, nothing having
      // changed) — itself the E12.9 rule: an over-capacity object is written at every sync.
      const truncated = (ep: Json) => ep.metadata.annotations?.['endpoints.kubernetes.io/over-capacity'] === 'truncated'
      const rewrittenAfterNoOp = () => isPlanned(overBefore) && overWrites.events.some((e) => e.type === 'MODIFIED' && truncated(e.object))
      await waitUntil(
        async () => overWrites.events.some((e) => e.type === 'MODIFIED' && isPlanned(e.object)) || rewrittenAfterNoOp() || isPlanned(await apiOk('GET', `/api/v1/namespaces/${ns}/endpoints/over`)),
        {what: `Endpoints over written as planned (trigger ${overWrite.triggerTime}; before: ${overBefore.metadata.annotations?.[TRIGGER_TIME]}; writes seen: ${seen().join(', ') || 'none'})`},
      )
      overWrites.stop()
      await waitUntil(async () => {
        const now = await slicesOf('mirrored')
        return !now.some((x: Json) => x.metadata.labels['endpointslice.kubernetes.io/managed-by'] === 'endpointslicemirroring-controller.k8s.io')
      }, {what: 'the mirrored slice of mirrored deleted', timeoutMs: 30_000})
      for (const name of ['basic', 'publish', 'empty', 'headless', 'named']) {
        const planned = writes(name)
        const want = new Map<string, string>()
        for (const a of planned) if (a.type === 'updateEndpointSlice') want.set(a.name, sliceKey(a.addressType, a.ports, a.endpoints))
        // No slice is created in these changes (a create would take a deleted slice's name): the
        // slices left are exactly the updated ones, each with the planned content.
        expect(planned.filter((a: Json) => a.type === 'createEndpointSlice')).toEqual([])
        await waitUntil(async () => {
          const slices = await slicesOf(name)
          const byName = new Map(slices.map((x: Json) => [x.metadata.name, sliceKey(x.addressType, x.ports, x.endpoints ?? [])]))
          return byName.size === want.size && [...want].every(([n, k]) => byName.get(n) === k)
        }, {what: `the slices of ${name} as planned`, timeoutMs: 30_000})
        if (name === 'headless') {
          const [slice] = await slicesOf(name)
          expect(slice.metadata.labels).toEqual(planned[0].labels)
        }
      }
    }, 90_000)
  })
})


// A second world, with kube-controller-manager's --max-endpoints-per-slice=10 (and kctl told so):
// slices made by hand as the controller would have written them, so each scenario starts from
// slices of known sizes, then the controller's placement of what is new compared with the plan
// slice by slice — updated and deleted slices by name, untouched ones by resourceVersion, created
// ones as in the first world.
describe('Services with --max-endpoints-per-slice=10: placement against existing slices', () => {
  const MAX = 10
  let ns: string
  let plan: Json
  let before: Map<string, Json[]>
  const pods = new Map<string, Json>()
  const nodeA = () => `${ns}-a`
  const nodeB = () => `${ns}-b`
  const nodeGone = () => `${ns}-gone`
  const PORT = [{name: 'http', port: 80, targetPort: 'web'}]

  interface World {
    name: string
    rule: string
    spec?: Json
    pods: PodSpec[]
    /** Being deleted (held by a finalizer of ours) before the controller runs. */
    deleting?: boolean
    /** The plan states a random choice (service.choices): judged on its own, below. */
    choice?: boolean
    /** Slices present before the controller runs: pod names (`~ghost` for a pod that no longer exists), and how the slice is off. */
    slices?: {pods: string[]; owner?: 'foreign'; addressType?: 'IPv6'; notReady?: string[]; labels?: Record<string, string>; hints?: boolean; mirrored?: boolean}[]
    /** A hand-written Endpoints object (for a Service without a selector: the mirroring controller's source). */
    endpoints?: Json
  }

  const WORLDS: World[] = [
    {name: 'pack', rule: 'ES-4', pods: manyPods('pack', 23, {alternate: true})},
    {name: 'fill', rule: 'ES-6', pods: manyPods('fill', 16), slices: [{pods: range('fill', 0, 10)}, {pods: range('fill', 10, 15)}]},
    {name: 'swap', rule: 'ES-7', pods: manyPods('swap', 10), slices: [{pods: [...range('swap', 0, 9), '~ghost']}]},
    {name: 'split', rule: 'ES-8', pods: manyPods('split', 18), slices: [{pods: range('split', 0, 6)}, {pods: range('split', 6, 13)}]},
    {name: 'exact', rule: 'ES-9', pods: manyPods('exact', 18), slices: [{pods: range('exact', 0, 9)}, {pods: range('exact', 9, 17)}]},
    {name: 'foreign', rule: 'ES-15', pods: manyPods('foreign', 1), slices: [{pods: [], owner: 'foreign'}]},
    {name: 'family', rule: 'ES-18', pods: manyPods('family', 1), slices: [{pods: [], addressType: 'IPv6'}]},
    {name: 'edited', rule: 'ES-24', pods: manyPods('edited', 2), slices: [{pods: range('edited', 0, 2), notReady: ['edited-1'], labels: {'added-by': 'someone'}}]},
    {
      name: 'lost',
      rule: 'ES-21',
      pods: [
        {name: 'lost-a', app: 'lost', ports: WEB_PORT},
        {name: 'lost-ghost', app: 'lost', ports: WEB_PORT, node: 'gone'},
      ],
    },
    {
      name: 'close',
      rule: 'ES-22',
      spec: {trafficDistribution: 'PreferClose'},
      pods: [
        {name: 'close-a', app: 'close', ports: WEB_PORT},
        {name: 'close-b', app: 'close', ports: WEB_PORT, node: 'b', ready: false},
      ],
    },
    {
      name: 'samenode',
      rule: 'ES-22',
      spec: {trafficDistribution: 'PreferSameNode'},
      pods: [
        {name: 'samenode-a', app: 'samenode', ports: WEB_PORT},
        {name: 'samenode-b', app: 'samenode', ports: WEB_PORT, node: 'b'},
      ],
    },
    // ES-22: without trafficDistribution, hints left on a slice are stripped.
    {name: 'stripped', rule: 'ES-22', pods: manyPods('stripped', 2), slices: [{pods: range('stripped', 0, 2), hints: true}]},
    // E2.7: a Service being deleted gets no new slice (its Endpoints object is still written).
    {name: 'going', rule: 'E2.7', pods: manyPods('going', 2), deleting: true},
    {
      name: 'dual',
      rule: 'ES-17',
      spec: {ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4']},
      pods: [
        {name: 'dual-a', app: 'dual', ports: WEB_PORT, ipv6: 'fd00:0:0:0::1'},
        {name: 'dual-v4only', app: 'dual', ports: WEB_PORT},
      ],
    },
    // ES-28: an empty placeholder left by an earlier Service of the same name is taken as the
    // placeholder (placeholderSliceCompare looks at namespace and labels only): nothing is written.
    {name: 'heir', rule: 'ES-28', pods: [], slices: [{pods: [], owner: 'foreign'}]},
    // ES-29: dual-stack, both families' slices hold only a pod that is gone: each family's new
    // slice is written under the name of that family's old one (finalize runs per address type).
    {
      name: 'recycle',
      rule: 'ES-29',
      spec: {ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6']},
      pods: [{name: 'recycle-a', app: 'recycle', ports: WEB_PORT, ipv6: 'fd00:0:0:0::29'}],
      slices: [{pods: ['~ghost']}, {pods: ['~ghost'], addressType: 'IPv6'}],
    },
    // ES-31: both slices hold only a pod that is gone, one pod is new: the new slice takes one of
    // the two names, the controller's draw (finalize takes the deletes in map order).
    {name: 'draw', rule: 'ES-31', choice: true, pods: manyPods('draw', 1), slices: [{pods: ['~ghost']}, {pods: ['~ghost']}]},
    // ES-32: both slices hold twice-0's endpoint: the one the controller walks first keeps it.
    {name: 'twice', rule: 'ES-32', choice: true, pods: manyPods('twice', 2), slices: [{pods: ['twice-0']}, {pods: ['twice-0', 'twice-1']}]},
    // ES-22: a slice left with only a pod no longer wanted, hints on it, is deleted, not also
    // rewritten without its hints (hints are stripped from unchanged slices only).
    {
      name: 'doomed',
      rule: 'ES-22',
      pods: [
        {name: 'doomed-0', app: 'doomed', ports: WEB_PORT},
        {name: 'doomed-x', app: 'doomed', ports: WEB_PORT, phase: 'Failed'},
      ],
      slices: [{pods: ['doomed-0']}, {pods: ['doomed-x'], hints: true}],
    },
    // E13.3: a mirrored slice of a port list no longer in the Endpoints object: the new port
    // list's slice takes its name (the mirroring controller's recycleSlices), nothing is created.
    {
      name: 'remirror',
      rule: 'E13.3',
      spec: {selector: null, ports: [{port: 5432}]},
      pods: [],
      endpoints: {metadata: {name: 'remirror', labels: {owner: 'dba'}}, subsets: [{addresses: [{ip: '192.0.2.10'}], ports: [{port: 5432, protocol: 'TCP'}]}]},
      slices: [{pods: [], mirrored: true}],
    },
    // ES-30: a named port resolving differently per pod, beside a numeric one: the Endpoints
    // object has one subset per set of addresses, each with every port that set offers.
    {
      name: 'regroup',
      rule: 'ES-30',
      spec: {ports: [{name: 'http', port: 80, targetPort: 'web'}, {name: 'metrics', port: 9100, targetPort: 9100}]},
      pods: [
        {name: 'regroup-a', app: 'regroup', ports: WEB_PORT},
        {name: 'regroup-b', app: 'regroup', ports: [{name: 'web', containerPort: 9090}], ready: false, node: 'b'},
      ],
    },
  ]

  function range(app: string, from: number, to: number): string[] {
    return Array.from({length: to - from}, (_, i) => `${app}-${from + i}`)
  }

  /** An endpoint exactly as the controller writes it for a pod (E4). */
  function endpointOf(pod: Json, ready: boolean): Json {
    const node = pod.spec.nodeName
    return {
      addresses: [pod.status.podIP],
      conditions: {ready, serving: ready, terminating: false},
      nodeName: node,
      zone: node === nodeA() ? 'zone-1' : 'zone-2',
      targetRef: {kind: 'Pod', namespace: ns, name: pod.metadata.name, uid: pod.metadata.uid},
    }
  }

  async function sliceList(name: string): Promise<Json[]> {
    const list = await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${name}`)}`)
    return list.items
  }

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('svcmax')
    await makeNode(nodeA(), {labels: {'topology.kubernetes.io/zone': 'zone-1'}})
    await makeNode(nodeB(), {labels: {'topology.kubernetes.io/zone': 'zone-2'}})
    await makeNode(nodeGone(), {labels: {'topology.kubernetes.io/zone': 'zone-3'}})
    let ip = 1
    for (const w of WORLDS) {
      const svc = await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {
        body: {apiVersion: 'v1', kind: 'Service', metadata: {name: w.name, labels: {team: 'e2e'}, ...(w.deleting ? {finalizers: [HOLD]} : {})}, spec: {selector: {app: w.name}, ports: PORT, ...w.spec}},
      })
      if (w.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/${w.name}`)
      const hand = w.endpoints && (await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: {apiVersion: 'v1', kind: 'Endpoints', ...w.endpoints}}))
      for (const p of w.pods) {
        const node = p.node === 'b' ? nodeB() : p.node === 'gone' ? nodeGone() : nodeA()
        pods.set(p.name, await createPod(ns, p, node, nthIP('10.78.0.0', ip++)))
      }
      for (const [i, s] of (w.slices ?? []).entries()) {
        const endpoints = s.pods.map((name) =>
          name === '~ghost'
            ? {addresses: [s.addressType === 'IPv6' ? 'fd00::4000' : nthIP('10.78.0.0', 4000)], conditions: {ready: true, serving: true, terminating: false}, nodeName: nodeA(), zone: 'zone-1', targetRef: {kind: 'Pod', namespace: ns, name: `${w.name}-ghost`, uid: '00000000-0000-4000-8000-000000000001'}}
            : {...endpointOf(pods.get(name), !(s.notReady ?? []).includes(name)), ...(s.hints ? {hints: {forZones: [{name: 'zone-1'}]}} : {})},
        )
        const owner = s.owner === 'foreign' ? {name: w.name, uid: '00000000-0000-4000-8000-0000000000ff'} : {name: w.name, uid: s.mirrored ? hand.metadata.uid : svc.metadata.uid}
        await apiOk('POST', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
          body: {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            metadata: {
              name: `${w.name}-old${i}`,
              labels: {
                ...(s.mirrored ? w.endpoints.metadata.labels : {team: 'e2e'}),
                ...s.labels,
                'kubernetes.io/service-name': w.name,
                'endpointslice.kubernetes.io/managed-by': s.mirrored ? 'endpointslicemirroring-controller.k8s.io' : 'endpointslice-controller.k8s.io',
              },
              ownerReferences: [{apiVersion: 'v1', kind: s.mirrored ? 'Endpoints' : 'Service', ...owner, controller: true, blockOwnerDeletion: true}],
            },
            addressType: s.addressType ?? 'IPv4',
            ports: s.addressType === 'IPv6' || s.owner ? [] : [{name: 'http', port: 8080, protocol: 'TCP'}],
            endpoints,
          },
        })
      }
    }
    // ES-21: the node goes after its pod was bound to it.
    await apiOk('DELETE', `/api/v1/nodes/${nodeGone()}`)
    before = new Map(await Promise.all(WORLDS.map(async (w) => [w.name, await sliceList(w.name)] as const)))
    plan = await planJson(['-n', ns, '--now', NOW(), '--max-endpoints-per-slice', String(MAX)])
    await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'], [`--max-endpoints-per-slice=${MAX}`])
  }, 180_000)

  afterAll(async () => {
    await controllerManager.stop()
    if (ns) {
      for (const w of WORLDS.filter((x) => x.deleting)) {
        await api('PATCH', `/api/v1/namespaces/${ns}/services/${w.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}})
      }
      await deleteNamespace(ns)
    }
    for (const n of [nodeA(), nodeB()]) await api('DELETE', `/api/v1/nodes/${n}`)
  })

  const planOf = (name: string): Json => plan.controllers.find((c: Json) => c.kind === 'Service' && c.name === name)

  it.each(WORLDS.filter((w) => !w.deleting && !w.choice).map((w) => [w.rule, w.name]))('%s (%s): slices updated, deleted, kept and created as planned', async (_rule, name) => {
    const cp = planOf(name)
    const writes = cp.actions.filter((a: Json) => a.type.endsWith('EndpointSlice'))
    const updates = new Map<string, Json>(writes.filter((a: Json) => a.type === 'updateEndpointSlice').map((a: Json) => [a.name, a]))
    const deletes = new Set(writes.filter((a: Json) => a.type === 'deleteEndpointSlice').map((a: Json) => a.name))
    // A create the controller skips (the Service is going) is planned, and marked so.
    const creates = writes.filter((a: Json) => a.type === 'createEndpointSlice' && !a.skipped)
    const old = before.get(name)!
    const expectedCount = old.length - deletes.size + creates.length
    const got = await waitUntil(
      async () => {
        const now = await sliceList(name)
        const byName = new Map(now.map((s: Json) => [s.metadata.name, s]))
        const done = now.length === expectedCount && [...updates.keys()].every((n) => byName.get(n)?.metadata.resourceVersion !== old.find((s) => s.metadata.name === n)?.metadata.resourceVersion)
        return done ? byName : undefined
      },
      {what: `the slices of ${name} as planned`, timeoutMs: 30_000},
    )
    for (const s of old) {
      const now = got.get(s.metadata.name)
      if (deletes.has(s.metadata.name)) expect(now, `${s.metadata.name} deleted`).toBeUndefined()
      else if (updates.has(s.metadata.name)) {
        const a = updates.get(s.metadata.name)
        expect(sliceKey(now.addressType, now.ports, now.endpoints ?? [])).toEqual(sliceKey(a.addressType, a.ports, a.endpoints))
        expect(now.metadata.labels).toEqual(a.labels)
        expect(now.metadata.annotations?.[TRIGGER_TIME]).toBe(a.triggerTime)
      } else expect(now.metadata.resourceVersion, `${s.metadata.name} untouched`).toBe(s.metadata.resourceVersion)
    }
    const created = [...got.values()].filter((s) => !old.some((o) => o.metadata.name === s.metadata.name))
    judgeCreated(creates, created, cp.service.pools)
    // E9: a fresh controller stamps what it writes with the Service's creation time.
    for (const s of created) expect(s.metadata.annotations?.[TRIGGER_TIME]).toBe(creates[0].triggerTime)
  })

  // A choice agrees when the controller's outcome is one the plan names; when it is the one shown,
  // the slices must be exactly the planned ones.
  it('ES-31 (draw): the new slice takes one of the names the plan names; the other slice goes', async () => {
    const cp = planOf('draw')
    const [choice] = cp.service.choices
    expect(choice).toMatchObject({kind: 'recycledName', take: 1, groups: [['draw-old0', 'draw-old1']]})
    const [update] = cp.actions.filter((a: Json) => a.type === 'updateEndpointSlice')
    expect(update).toMatchObject({name: choice.shown[0], recycled: true})
    const got = await waitUntil(async () => {
      const now = await sliceList('draw')
      return now.length === 1 && (now[0].endpoints ?? []).length === 1 ? now : undefined
    }, {what: 'one slice of draw', timeoutMs: 30_000})
    expect(choice.groups.flat()).toContain(got[0].metadata.name)
    expect(sliceKey(got[0].addressType, got[0].ports, got[0].endpoints ?? [])).toEqual(sliceKey(update.addressType, update.ports, update.endpoints))
  })

  it('ES-32 (twice): the endpoint both slices hold stays in one the plan names, and only there', async () => {
    const cp = planOf('twice')
    const [choice] = cp.service.choices
    expect(choice).toMatchObject({kind: 'duplicateEndpoint', pod: 'twice-0', slices: ['twice-old0', 'twice-old1']})
    const old = before.get('twice')!
    const got = await waitUntil(async () => {
      const now = await sliceList('twice')
      const holders = now.filter((x: Json) => (x.endpoints ?? []).some((e: Json) => e.targetRef?.name === 'twice-0'))
      return holders.length === 1 && now.flatMap((x: Json) => x.endpoints ?? []).length === 2 ? now : undefined
    }, {what: 'twice-0 in one slice', timeoutMs: 30_000})
    const keeper = got.find((x: Json) => (x.endpoints ?? []).some((e: Json) => e.targetRef?.name === 'twice-0'))
    expect(choice.slices).toContain(keeper.metadata.name)
    if (keeper.metadata.name === choice.shown) {
      // The outcome shown: the keeper untouched, the other slice updated as planned.
      const [update] = cp.actions.filter((a: Json) => a.type === 'updateEndpointSlice')
      expect(keeper.metadata.resourceVersion).toBe(old.find((x) => x.metadata.name === choice.shown)!.metadata.resourceVersion)
      const other = got.find((x: Json) => x.metadata.name === update.name)
      expect(sliceKey(other.addressType, other.ports, other.endpoints ?? [])).toEqual(sliceKey(update.addressType, update.ports, update.endpoints))
    }
  })

  it('the plans say what each scenario is about', () => {
    const kinds = (name: string) => planOf(name).actions.filter((a: Json) => a.type.endsWith('EndpointSlice')).map((a: Json) => `${a.type}:${a.size ?? ''}`).sort()
    expect(kinds('pack')).toEqual(['createEndpointSlice:10', 'createEndpointSlice:10', 'createEndpointSlice:3'])
    expect(kinds('fill')).toEqual(['updateEndpointSlice:6'])
    expect(kinds('swap')).toEqual(['updateEndpointSlice:10'])
    expect(kinds('split')).toEqual(['createEndpointSlice:5'])
    expect(kinds('exact')).toEqual(['updateEndpointSlice:10'])
    expect(kinds('foreign')).toEqual(['createEndpointSlice:1', 'deleteEndpointSlice:'])
    expect(kinds('family')).toEqual(['createEndpointSlice:1', 'deleteEndpointSlice:'])
    expect(kinds('edited')).toEqual(['updateEndpointSlice:2'])
    expect(planOf('stripped').actions.filter((a: Json) => a.type === 'updateEndpointSlice').map((a: Json) => a.hintsChanged)).toEqual([true])
    expect(kinds('lost')).toEqual(['createEndpointSlice:1'])
    expect(kinds('dual')).toEqual(['createEndpointSlice:1', 'createEndpointSlice:2'])
    expect(kinds('heir')).toEqual([])
    expect(kinds('doomed')).toEqual(['deleteEndpointSlice:'])
    expect(planOf('remirror').actions.map((a: Json) => [a.type, a.name, a.recycled, a.controller])).toEqual([['updateEndpointSlice', 'remirror-old0', true, 'endpointslicemirroring']])
    const recycled = planOf('recycle').actions.filter((a: Json) => a.type.endsWith('EndpointSlice')).map((a: Json) => [a.type, a.name, a.addressType, a.recycled]).sort()
    expect(recycled).toEqual([
      ['updateEndpointSlice', 'recycle-old0', 'IPv4', true],
      ['updateEndpointSlice', 'recycle-old1', 'IPv6', true],
    ])
    const [regroup] = planOf('regroup').actions.filter((a: Json) => a.type === 'writeEndpoints')
    expect(regroup.subsets.map((x: Json) => x.ports.map((p: Json) => p.port).sort())).toHaveLength(3)
    expect(planOf('going').actions.filter((a: Json) => a.type === 'createEndpointSlice').map((a: Json) => a.skipped)).toEqual(['service-deleting'])
  })

  it.each(['pack', 'lost', 'dual', 'going', 'regroup'])('%s: the Endpoints object written is the one planned', async (name) => {
    const [write] = planOf(name).actions.filter((a: Json) => a.type === 'writeEndpoints')
    const got = await waitUntil(async () => {
      const r = await api('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`)
      return r.status === 200 && JSON.parse(r.body)
    }, {what: `Endpoints ${name}`})
    expect(subsetKeys(got.subsets)).toEqual(subsetKeys(write.subsets))
  })

  it('E2.7 (going): once the controllers are quiet, the Service being deleted still has no slice', async () => {
    await waitUntilQuiet(
      async () => (await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`)).items.map((x: Json) => x.metadata.resourceVersion).sort().join(','),
      {quietMs: 3000, what: 'the slices of the namespace'},
    )
    expect(await sliceList('going')).toEqual([])
    // ES-28: the earlier Service's placeholder is still there, untouched.
    expect((await sliceList('heir')).map((x: Json) => [x.metadata.name, x.metadata.resourceVersion])).toEqual(before.get('heir')!.map((x: Json) => [x.metadata.name, x.metadata.resourceVersion]))
  })
})
