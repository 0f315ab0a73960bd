// Services against the real endpoint controllers: pods with IPs and readiness reported through
// pods/status (as a kubelet would), Services planned by `kctl plan` with no controller running,
// then kube-controller-manager's endpointslice, endpoint and endpointslicemirroring controllers
// started and what they wrote compared with the plan — slices as a multiset of (address type,
// ports, endpoints with their conditions), Endpoints subsets as sets. Names of created slices and
// the order of ports and endpoints are upstream's random or hash order, so they are not compared.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {planJson} from './kctl.js'
import {api, apiOk, bindPod, controllerManager, deleteNamespace, makeNode, newNamespace, setPodStatus, waitUntil} from './setup/cluster.js'

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
}

const WEB_PORT = [{name: 'web', containerPort: 8080}]

// ES-1, ES-2, ES-3, ES-12, ES-19, ES-20, ES-26 (services semantics §S), one Service each.
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
  {
    name: 'headless',
    spec: {clusterIP: 'None', selector: {app: 'headless'}},
    pods: [
      {name: 'headless-a', app: 'headless', hostname: 'a', subdomain: 'headless'},
      {name: 'headless-b', app: 'headless', hostname: 'b', subdomain: 'other', node: 'b'},
    ],
  },
  {name: 'external', spec: {type: 'ExternalName', externalName: 'example.com'}, pods: []},
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
  const p = (ports ?? []).map((x) => `${x.name ?? ''}:${x.port}/${x.protocol ?? 'TCP'}:${x.appProtocol ?? ''}`).sort()
  const e = endpoints
    .map((x) => JSON.stringify([x.targetRef?.name ?? x.addresses.join(','), x.conditions?.ready ?? null, x.conditions?.serving ?? null, x.conditions?.terminating ?? null, x.hostname ?? null, x.nodeName ?? null, x.zone ?? null]))
    .sort()
  return JSON.stringify([addressType, p, e])
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
      for (const p of s.pods) {
        const spec: Json = {containers: [{name: 'app', image: 'app', ports: p.ports ?? []}], terminationGracePeriodSeconds: 3600}
        if (p.sidecarPorts) spec.initContainers = [{name: 'proxy', image: 'proxy', restartPolicy: 'Always', ports: p.sidecarPorts}]
        if (p.hostname) spec.hostname = p.hostname
        if (p.subdomain) spec.subdomain = p.subdomain
        await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: p.name, labels: {app: p.app}}, spec}})
        await bindPod(ns, p.name, p.node === 'b' ? nodeB() : nodeA())
        const phase = p.phase ?? 'Running'
        await setPodStatus(ns, p.name, {phase, ready: p.ready ?? phase === 'Running', ...(p.ip === null ? {} : {podIP: `10.77.0.${ip++}`})})
        // A bound pod being deleted waits for a kubelet that never comes: it stays terminating.
        if (p.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
      }
    }
    plan = await planJson(['-n', ns, '--now', NOW()])
    await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'])
  }, 120_000)

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
    const want = planned.map((a: Json) => sliceKey(a.addressType, a.ports, a.endpoints)).sort()
    const got = await waitUntil(async () => {
      const slices = await slicesOf(name)
      return slices.length >= planned.length && slices
    }, {what: `${planned.length} slice(s) of Service ${name}`})
    expect(got.map((s: Json) => sliceKey(s.addressType, s.ports, s.endpoints ?? [])).sort()).toEqual(want)
    for (const [s, a] of [[got[0], planned[0]]]) {
      if (!s) continue
      expect(s.metadata.labels).toEqual(a.labels)
      expect(s.metadata.ownerReferences?.[0]).toMatchObject({kind: a.ownerReference.kind, name: a.ownerReference.name, uid: a.ownerReference.uid})
    }
  })

  it.each(['basic', 'publish', 'named', 'empty', 'headless'])('%s: the Endpoints object written is the one planned', async (name) => {
    const cp = planOf(name)
    const [write] = cp.actions.filter((a: Json) => a.type === 'writeEndpoints')
    expect(write.verb).toBe('create')
    const got = await waitUntil(async () => {
      const r = await api('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`)
      return r.status === 200 && JSON.parse(r.body)
    }, {what: `Endpoints ${name}`})
    expect(subsetKeys(got.subsets)).toEqual(subsetKeys(write.subsets))
    expect(got.metadata.labels).toEqual(write.labels)
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

    it('ES-27: a restarted controller has nothing to write for what it converged', async () => {
      const again = await planJson(['-n', ns, '--now', NOW()])
      const busy = again.controllers.filter((c: Json) => c.kind === 'Service' && !c.inSync).map((c: Json) => [c.name, c.actions.map((a: Json) => a.type)])
      expect(busy).toEqual([])
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

      await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'])
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

