// The Service planners, rule by rule (services semantics E2–E13 for the endpoint controllers,
// L2–L5 for the load-balancer controller), on the scenarios ES-n / LB-n where they apply.
import {describe, expect, it} from 'vitest'
import type {NodeView, PodView, Taint} from '../../../../src/model/objects.js'
import type {
  CreateEndpointSliceAction,
  EndpointAddressView,
  EndpointSliceView,
  EndpointsView,
  EndpointView,
  ServiceAction,
  ServiceView,
  UpdateEndpointSliceAction,
  WriteEndpointsAction,
} from '../../../../src/controllers/service/model.js'
import {canonicalIP, endpointPorts} from '../../../../src/controllers/service/endpoints-common.js'
import {byteOrder, syncEndpoints, syncMirror} from '../../../../src/controllers/service/endpoints.js'
import fc from 'fast-check'
import {addressTypes, endpointId, sliceLabels, syncSlices} from '../../../../src/controllers/service/endpointslices.js'
import {hostExclusion, hostUpdate, loadBalancerName, needsCleanup, nodeUpdateSyncs, syncLoadBalancer, wantsLoadBalancer} from '../../../../src/controllers/service/loadbalancer.js'
import {planService} from '../../../../src/controllers/service/planner.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import {pod as basePod} from '../../../helpers/builders.js'

const C = '2026-01-01T00:00:00Z'

function svc(o: Partial<ServiceView> = {}): ServiceView {
  return {
    kind: 'Service', apiVersion: 'v1', namespace: 'ns', name: 'web', uid: 'U', resourceVersion: '1', generation: 0,
    labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: C,
    type: 'ClusterIP', selector: {app: 'web'}, clusterIP: '10.0.0.10', headless: false, ipFamilies: ['IPv4'],
    ports: [{name: 'http', port: 80, protocol: 'TCP', targetPort: 'web', appProtocol: 'http'}],
    publishNotReadyAddresses: false, finalizers: [], ingress: [],
    ...o,
  }
}

interface PodOpts {
  ready?: boolean
  ips?: string[]
  node?: string
  phase?: string
  deleting?: boolean
  ports?: {name: string; containerPort: number; protocol: string}[]
  hostname?: string
  subdomain?: string
  namespace?: string
}

function pod(name: string, o: PodOpts = {}): PodView {
  const p = basePod(name, {ready: o.ready ?? true, node: o.node ?? 'node-a', phase: o.phase ?? 'Running', namespace: o.namespace ?? 'ns', deleting: o.deleting ? C : undefined})
  return {...p, network: {podIPs: o.ips ?? [`10.1.0.${name.length}`], hostname: o.hostname ?? '', subdomain: o.subdomain ?? '', ports: o.ports ?? [{name: 'web', containerPort: 8080, protocol: 'TCP'}]}}
}

const node = (name: string, o: {zone?: string; labels?: Record<string, string>; taints?: Taint[]; deleting?: boolean; providerID?: string} = {}): NodeView => ({
  namespace: '', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0,
  labels: {...(o.zone ? {'topology.kubernetes.io/zone': o.zone} : {}), ...(o.labels ?? {})}, annotations: {}, ownerReferences: [],
  unschedulable: false, taints: o.taints ?? [], ...(o.deleting ? {deletionTimestamp: C} : {}),
})

const NODES = [node('node-a', {zone: 'zone-1'}), node('node-b', {zone: 'zone-2'})]
const nodeMap = (nodes: NodeView[] = NODES) => new Map(nodes.map((n) => [n.name, n]))

const ep = (p: PodView, c: {ready: boolean; serving?: boolean; terminating?: boolean}, zone = 'zone-1'): EndpointView => ({
  addresses: p.network!.podIPs,
  conditions: {ready: c.ready, serving: c.serving ?? c.ready, terminating: c.terminating ?? false},
  nodeName: p.nodeName,
  zone,
  targetRef: {kind: 'Pod', namespace: 'ns', name: p.name, uid: p.uid},
})

function slice(name: string, endpoints: EndpointView[], o: Partial<EndpointSliceView> = {}, s: ServiceView = svc()): EndpointSliceView {
  return {
    namespace: 'ns', name, uid: `uid-${name}`, resourceVersion: '5', generation: 1,
    labels: sliceLabels(s), annotations: {}, ownerReferences: [{apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'U', controller: true, blockOwnerDeletion: true}],
    addressType: 'IPv4', endpoints, ports: [{name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http'}],
    ...o,
  }
}

function sync(s: ServiceView, pods: PodView[], slices: EndpointSliceView[] = [], max = 100, nodes = NODES) {
  return syncSlices({svc: s, pods, nodes: nodeMap(nodes), nodesKnown: nodes.length > 0, slices, maxEndpointsPerSlice: max})
}

const creates = (as: ServiceAction[]) => as.filter((a): a is CreateEndpointSliceAction => a.type === 'createEndpointSlice')
const updates = (as: ServiceAction[]) => as.filter((a): a is UpdateEndpointSliceAction => a.type === 'updateEndpointSlice')
const deletes = (as: ServiceAction[]) => as.filter((a) => a.type === 'deleteEndpointSlice')
const members = (a: {endpoints: readonly EndpointView[]}) => a.endpoints.map((e) => e.targetRef?.name).sort()
/** A sync's verdict on the pod named `name` (verdicts go by the pod's place in the input). */
const verdictOf = <T>(verdicts: readonly T[], pods: readonly PodView[], name: string): T | undefined => verdicts[pods.findIndex((p) => p.name === name)]

describe('E2: which Services get slices', () => {
  it('E2.2: ExternalName gets no writes and keeps its slices', () => {
    const plan = planService(svc({type: 'ExternalName'}), {pods: [pod('a')], nodes: NODES, nodeByName: nodeMap(), slices: [slice('web-1', [])], endpoints: undefined, maxEndpointsPerSlice: 100})
    expect(plan.actions).toEqual([])
  })

  it('E2.3: a nil selector leaves the controller\'s slices alone; {} selects every pod of the namespace', () => {
    const plan = planService(svc({selector: null}), {pods: [pod('a')], nodes: NODES, nodeByName: nodeMap(), slices: [slice('web-1', [])], endpoints: undefined, maxEndpointsPerSlice: 100})
    expect(plan.actions.filter((a) => a.type.endsWith('EndpointSlice'))).toEqual([])
    const all = sync(svc({selector: {}}), [pod('a'), pod('bb', {})])
    expect(members(creates(all.actions)[0])).toEqual(['a', 'bb'])
  })

  it('E2.4: pods of another namespace or with other labels are not selected', () => {
    const plan = planService(svc(), {pods: [pod('a'), {...pod('bb'), labels: {app: 'other'}}, pod('ccc', {namespace: 'other'})], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints: undefined, maxEndpointsPerSlice: 100})
    expect(plan.service?.pods.map((p) => p.pod)).toEqual(['a'])
  })

  it('E2.5: slices without both labels, or being deleted, are not the controller\'s', () => {
    const foreign = slice('other', [], {labels: {'kubernetes.io/service-name': 'web'}})
    const going = slice('going', [], {deletionTimestamp: C})
    const r = sync(svc(), [pod('a')], [foreign, going])
    expect(deletes(r.actions)).toEqual([])
    expect(creates(r.actions)).toHaveLength(1)
  })

  it('E2.7: a Service being deleted skips its creates (updates still happen)', () => {
    const r = sync(svc({deletionTimestamp: C}), [pod('a')])
    expect(creates(r.actions)[0].skipped).toBe('service-deleting')
  })
})

describe('E3/E4: which pods, and their conditions (ES-1, ES-2)', () => {
  const pods = [
    pod('ready'),
    pod('notready', {ready: false}),
    pod('term-ready', {deleting: true}),
    pod('term-notready', {ready: false, deleting: true}),
    pod('succeeded', {phase: 'Succeeded'}),
    pod('failed', {phase: 'Failed'}),
    pod('noip', {ips: []}),
    pod('pending-ip', {phase: 'Pending', ready: false}),
  ]

  it('ES-1: ready, serving and terminating per pod; terminal and IP-less pods are out', () => {
    const r = sync(svc(), pods)
    const made = creates(r.actions)
    expect(made).toHaveLength(1)
    expect(r.verdicts).toHaveLength(pods.length)
    const byName = Object.fromEntries(made[0].endpoints.map((e) => [e.targetRef!.name, e.conditions]))
    expect(byName).toEqual({
      ready: {ready: true, serving: true, terminating: false},
      notready: {ready: false, serving: false, terminating: false},
      'term-ready': {ready: false, serving: true, terminating: true},
      'term-notready': {ready: false, serving: false, terminating: true},
      'pending-ip': {ready: false, serving: false, terminating: false},
    })
    expect(verdictOf(r.verdicts, pods, 'succeeded')).toEqual({in: false, reason: 'terminal'})
    expect(verdictOf(r.verdicts, pods, 'failed')).toEqual({in: false, reason: 'terminal'})
    expect(verdictOf(r.verdicts, pods, 'noip')).toEqual({in: false, reason: 'no-ip'})
    expect(verdictOf(r.verdicts, pods, 'ready')).toMatchObject({in: true, ready: true, serving: true, terminating: false})
    expect(r.missingPorts.filter((m) => m !== undefined)).toEqual([])
    expect(made[0].labels).toEqual({'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io'})
    expect(made[0].triggerTime).toBe(C)
    expect(made[0].ownerReference).toMatchObject({kind: 'Service', uid: 'U', controller: true, blockOwnerDeletion: true})
  })

  it('ES-2: publishNotReadyAddresses makes every endpoint ready', () => {
    const r = sync(svc({publishNotReadyAddresses: true}), pods.slice(0, 3))
    const conds = Object.fromEntries(creates(r.actions)[0].endpoints.map((e) => [e.targetRef!.name, e.conditions.ready]))
    expect(conds).toEqual({ready: true, notready: true, 'term-ready': true})
  })

  it('E3.4: a pod on a missing node is left out and the sync is retried; with publishNotReadyAddresses it is in, without a zone', () => {
    const r = sync(svc(), [pod('a'), pod('ghost', {node: 'node-gone'})])
    expect(members(creates(r.actions)[0])).toEqual(['a'])
    expect(r.verdicts[1]).toEqual({in: false, reason: 'node-missing'})
    expect(r.requeue).toContain('node-gone')
    const p = sync(svc({publishNotReadyAddresses: true}), [pod('ghost', {node: 'node-gone'})])
    expect(creates(p.actions)[0].endpoints[0].zone).toBeUndefined()
  })

  it('E4.4: a pod on a node without a zone label (or an empty one) is listed without a zone; one nodes map serves every sync', () => {
    const nodes = [node('node-a'), node('node-b', {labels: {'topology.kubernetes.io/zone': ''}}), node('node-c', {zone: 'zone-3'})]
    const input = {nodes: nodeMap(nodes), nodesKnown: true, slices: [], maxEndpointsPerSlice: 100}
    const pods = [pod('a'), pod('bb', {node: 'node-b'}), pod('ccc', {node: 'node-c'}), pod('dddd', {node: 'node-x'})]
    for (let round = 0; round < 2; round++) {
      const r = syncSlices({...input, svc: svc(), pods})
      const byName = Object.fromEntries(creates(r.actions)[0].endpoints.map((e) => [e.targetRef!.name, [e.nodeName, e.zone ?? null]]))
      expect(byName).toEqual({a: ['node-a', null], bb: ['node-b', null], ccc: ['node-c', 'zone-3']})
      expect(r.verdicts[3]).toEqual({in: false, reason: 'node-missing'})
    }
  })

  it('E4.4/E4.5: zone from the node; hostname only when the subdomain is the Service', () => {
    const r = sync(svc(), [pod('a', {hostname: 'a', subdomain: 'web'}), pod('bb', {hostname: 'b', subdomain: 'other', node: 'node-b'})])
    const [a, b] = [...creates(r.actions)[0].endpoints].sort((x, y) => (x.targetRef!.name < y.targetRef!.name ? -1 : 1))
    expect(a).toMatchObject({hostname: 'a', zone: 'zone-1', nodeName: 'node-a'})
    expect(b.hostname).toBeUndefined()
    expect(b.zone).toBe('zone-2')
  })
})

describe('E5: ports', () => {
  it('ES-3: a named targetPort resolves per pod (containers, then sidecars), and pods split by their ports', () => {
    const s = svc()
    const pods = [
      pod('a'),
      pod('bb', {ports: [{name: 'web', containerPort: 9090, protocol: 'TCP'}]}),
      pod('ccc', {ports: [{name: 'web', containerPort: 8080, protocol: 'UDP'}]}),
      pod('dddd', {ports: [{name: 'web', containerPort: 7070, protocol: 'TCP'}]}),
    ]
    const r = sync(s, pods)
    const byPorts = Object.fromEntries(creates(r.actions).map((c) => [c.ports.map((p) => p.port).join(',') || 'none', members(c)]))
    expect(byPorts).toEqual({'8080': ['a'], '9090': ['bb'], none: ['ccc'], '7070': ['dddd']})
    expect(verdictOf(r.missingPorts, pods, 'ccc')).toEqual(['http→web/TCP'])
    expect(verdictOf(r.missingPorts, pods, 'bb')).toBeUndefined()
    const legacy = syncEndpoints(s, pods, undefined)
    expect(verdictOf(legacy.verdicts, pods, 'ccc')).toEqual({in: false, reason: 'no-port'})
    expect(verdictOf(legacy.verdicts, pods, 'a')).toEqual({in: true, ready: true})
    expect(legacy.action?.subsets).toHaveLength(3)
  })

  it('E5.2: a numeric targetPort is used without looking at the containers', () => {
    expect(endpointPorts(svc({ports: [{name: '', port: 80, protocol: 'TCP', targetPort: 9999}]}), pod('a', {ports: []})).ports).toEqual([{name: '', port: 9999, protocol: 'TCP'}])
  })

  it('E5.1: a headless Service without ports gives every endpoint no ports', () => {
    const r = sync(svc({clusterIP: 'None', headless: true, ports: []}), [pod('a')])
    expect(creates(r.actions)[0].ports).toEqual([])
    expect(creates(r.actions)[0].labels['service.kubernetes.io/headless']).toBe('')
  })
})

describe('E6: address types', () => {
  it('ES-17: dual-stack gets a slice per family; the legacy Endpoints lists the first family only', () => {
    const s = svc({ipFamilies: ['IPv6', 'IPv4']})
    const pods = [pod('a', {ips: ['10.1.0.1', 'fd00:0:0:0::1']}), pod('v4only', {ips: ['10.1.0.2']})]
    const r = sync(s, pods)
    const byType = Object.fromEntries(creates(r.actions).map((c) => [c.addressType, c.endpoints.map((e) => e.addresses[0]).sort()]))
    expect(byType).toEqual({IPv6: ['fd00::1'], IPv4: ['10.1.0.1', '10.1.0.2']})
    const legacy = syncEndpoints(s, pods, undefined)
    expect(legacy.action?.subsets.flatMap((x) => x.addresses.map((a) => a.ip))).toEqual(['fd00::1'])
  })

  it('E6.2: without ipFamilies, the cluster IP\'s family, or both when headless', () => {
    expect(addressTypes(svc({ipFamilies: [], clusterIP: 'fd00::10'}))).toEqual(['IPv6'])
    expect(addressTypes(svc({ipFamilies: [], clusterIP: 'None', headless: true}))).toEqual(['IPv4', 'IPv6'])
  })

  it('ES-18/E6.3: a family the Service no longer has loses its slices', () => {
    const r = sync(svc(), [pod('a')], [slice('web-6', [], {addressType: 'IPv6'})])
    expect(deletes(r.actions)).toEqual([expect.objectContaining({name: 'web-6', reason: 'address-type'})])
  })

  it('E4.2: IPv6 addresses are written in their short form', () => {
    expect(canonicalIP('fd00:0:0:0::1')).toBe('fd00::1')
  })
})

describe('E7: slice shape', () => {
  it('E7.2/E7.3: Service labels are copied without reserved keys; drift updates the slice (ES-23)', () => {
    const s = svc({labels: {team: 'y', 'kubernetes.io/service-name': 'evil'}})
    const a = pod('a')
    const old = slice('web-1', [ep(a, {ready: true})], {labels: {...sliceLabels(svc()), team: 'x'}})
    const r = sync(s, [a], [old])
    const [u] = updates(r.actions)
    expect(u.labels).toEqual({team: 'y', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io'})
    expect(u.labelsChanged).toBe(true)
  })
})

describe('E8: placement', () => {
  // Random oracle world: two unchanged slices of one endpoint each, one new pod, at most two per
  // slice: either slice takes it, at random: a stated choice, not a warning only.
  it('E8.6: equally full unchanged slices that can each take the new endpoints: a fillOrder choice', () => {
    const [a, b, c] = [pod('a'), pod('bb'), pod('ccc')]
    const r = sync(svc(), [a, b, c], [slice('A', [ep(a, {ready: true})]), slice('B', [ep(b, {ready: true})])], 2)
    expect(updates(r.actions).map((u) => [u.name, members(u)])).toEqual([['A', ['a', 'ccc']]])
    expect(r.choices).toEqual([{kind: 'fillOrder', addressType: 'IPv4', slices: ['A', 'B'], shown: ['A']}])
  })

  it('E8.5: slices being updated that are equally full, with room for more than is new: a fillOrder choice', () => {
    const [a, b, c] = [pod('a'), pod('bb'), pod('ccc')]
    const gone = pod('gone', {phase: 'Failed'})
    const r = sync(svc(), [a, b, c, gone], [slice('A', [ep(a, {ready: true}), ep(gone, {ready: true})]), slice('B', [ep(b, {ready: true}), ep(gone, {ready: true})])], 3)
    expect(r.choices).toEqual([{kind: 'fillOrder', addressType: 'IPv4', slices: ['A', 'B'], shown: ['A', 'B']}])
  })

  const many = (n: number, prefix = 'p') => Array.from({length: n}, (_, i) => pod(`${prefix}${i}`, {ips: [`10.2.${Math.floor(i / 250)}.${i % 250}`]}))

  it('ES-4/ES-5: new slices are filled up to max; membership is drawn at random from a pool', () => {
    const r = sync(svc(), many(250))
    expect(creates(r.actions).map((c) => c.size)).toEqual([100, 100, 50])
    expect(creates(r.actions).every((c) => c.endpoints.length === 0 && c.pool === 1)).toBe(true)
    expect(r.pools[0].pods).toHaveLength(250)
    expect(r.totals).toEqual([{addressType: 'IPv4', ready: 250, total: 250, slices: 3}])
  })

  it('ES-6: one new endpoint fills the unchanged slice that comes closest to full', () => {
    const olds = many(15)
    const a = slice('A', olds.slice(0, 10).map((p) => ep(p, {ready: true})))
    const b = slice('B', olds.slice(10).map((p) => ep(p, {ready: true})))
    const r = sync(svc(), [...olds, pod('new')], [a, b], 10)
    expect(updates(r.actions).map((u) => [u.name, u.size, u.added])).toEqual([['B', 6, ['new']]])
    expect(creates(r.actions)).toEqual([])
  })

  it('ES-7: a removal and an addition land in the same slice', () => {
    const olds = many(10)
    const a = slice('A', olds.map((p) => ep(p, {ready: true})))
    const r = sync(svc(), [...olds.slice(1), pod('new')], [a], 10)
    expect(updates(r.actions).map((u) => [u.name, u.size, u.added, u.removed])).toEqual([['A', 10, ['new'], ['p0']]])
  })

  it('ES-8: the remainder is never split across unchanged slices', () => {
    const olds = many(13)
    const a = slice('A', olds.slice(0, 6).map((p) => ep(p, {ready: true})))
    const b = slice('B', olds.slice(6).map((p) => ep(p, {ready: true})))
    const r = sync(svc(), [...olds, ...many(5, 'n')], [a, b], 10)
    expect(updates(r.actions)).toEqual([])
    expect(creates(r.actions).map((c) => members(c).length)).toEqual([5])
  })

  it('ES-9: an exact fit is preferred', () => {
    const olds = many(17)
    const a = slice('A', olds.slice(0, 9).map((p) => ep(p, {ready: true})))
    const b = slice('B', olds.slice(9).map((p) => ep(p, {ready: true})))
    const r = sync(svc(), [...olds, pod('new')], [a, b], 10)
    expect(updates(r.actions).map((u) => [u.name, u.size])).toEqual([['A', 10]])
  })

  it('ES-10: a readiness flip updates the endpoint in place', () => {
    const a = pod('a')
    const b = pod('bb')
    const r = sync(svc(), [a, b], [slice('S', [ep(a, {ready: true}), ep(b, {ready: false})])])
    const [u] = updates(r.actions)
    expect(u.changed).toEqual([{pod: 'bb', from: {ready: false, serving: false, terminating: false}, to: {ready: true, serving: true, terminating: false}}])
    expect(u.added).toEqual([])
  })

  it('ES-11/E8.8/E8.9: all pods gone: the slice is rewritten as the placeholder under its own name', () => {
    const r = sync(svc(), [], [slice('S', [ep(pod('a'), {ready: true}), ep(pod('bb'), {ready: true})])])
    expect(creates(r.actions)).toEqual([])
    expect(deletes(r.actions)).toEqual([])
    const [u] = updates(r.actions)
    expect(u).toMatchObject({name: 'S', recycled: true, placeholder: true, ports: [], endpoints: []})
  })

  it('ES-12/ES-13: no pods: a placeholder is created once, then left alone', () => {
    const first = sync(svc(), [])
    expect(creates(first.actions)).toEqual([expect.objectContaining({placeholder: true, ports: [], endpoints: []})])
    const placeholder = slice('P', [], {ports: []})
    expect(sync(svc(), [], [placeholder]).actions).toEqual([])
  })

  it('ES-14: a placeholder is reused when pods appear', () => {
    const r = sync(svc(), [pod('a')], [slice('web-old', [], {ports: []})])
    expect(r.actions).toHaveLength(1)
    expect(updates(r.actions)[0]).toMatchObject({name: 'web-old', recycled: true, added: ['a']})
  })

  it('ES-15/E8.1: a slice owned by an older Service of that name is deleted, not recycled', () => {
    const stale = slice('web-stale', [], {ownerReferences: [{apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'old-uid', controller: true}]})
    const r = sync(svc(), [pod('a')], [stale])
    expect(creates(r.actions)).toHaveLength(1)
    expect(deletes(r.actions)).toEqual([expect.objectContaining({name: 'web-stale', reason: 'not-owned'})])
  })

  it('ES-28/E8.1/E8.8: an empty placeholder left by an earlier Service of the same name counts as the placeholder: nothing is written', () => {
    const old = slice('web-old', [], {ports: [], ownerReferences: [{apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'old-uid', controller: true, blockOwnerDeletion: true}]})
    expect(sync(svc(), [], [old]).actions).toEqual([])
    // With other labels it is not the placeholder: deleted, and a new one created.
    const r = sync(svc(), [], [{...old, labels: {...old.labels, team: 'x'}}])
    expect(deletes(r.actions)).toEqual([expect.objectContaining({name: 'web-old', reason: 'not-owned'})])
    expect(creates(r.actions)).toEqual([expect.objectContaining({placeholder: true})])
  })

  it('ES-29/E8.9: dual-stack: each family\'s new slice takes the name of that family\'s slice being deleted', () => {
    const dual = svc({ipFamilies: ['IPv4', 'IPv6']})
    const gone = pod('a', {ips: ['10.1.0.1', 'fd00::1']})
    const b = pod('bb', {ips: ['10.1.0.2', 'fd00::2']})
    const v4 = slice('web-v4', [{...ep(gone, {ready: true}), addresses: ['10.1.0.1']}], {}, dual)
    const v6 = slice('web-v6', [{...ep(gone, {ready: true}), addresses: ['fd00::1']}], {addressType: 'IPv6'}, dual)
    const r = sync(dual, [b], [v4, v6])
    expect(creates(r.actions)).toEqual([])
    expect(deletes(r.actions)).toEqual([])
    expect(updates(r.actions).map((u) => [u.name, u.addressType, u.recycled, u.endpoints.flatMap((e) => e.addresses)]).sort()).toEqual([
      ['web-v4', 'IPv4', true, ['10.1.0.2']],
      ['web-v6', 'IPv6', true, ['fd00::2']],
    ])
    // Only the IPv6 family has a slice to recycle: the IPv4 one is created.
    const r2 = sync(dual, [b], [v6])
    expect(creates(r2.actions).map((c) => c.addressType)).toEqual(['IPv4'])
    expect(updates(r2.actions).map((u) => [u.name, u.recycled])).toEqual([['web-v6', true]])
    expect(deletes(r2.actions)).toEqual([])
  })

  it('ES-31/E8.9: which deleted slice\'s name a new slice takes is the controller\'s draw: the plan names the candidates and shows one', () => {
    const c = pod('c', {ips: ['10.1.0.3']})
    const a = slice('A', [ep(pod('gone1', {ips: ['10.1.0.1']}), {ready: true})])
    const b = slice('B', [ep(pod('gone2', {ips: ['10.1.0.2']}), {ready: true})])
    const r = sync(svc(), [c], [a, b], 3)
    expect(r.choices).toEqual([{kind: 'recycledName', addressType: 'IPv4', certain: [], take: 1, groups: [['A', 'B']], shown: ['A']}])
    // The actions are the outcome shown: A rewritten, B deleted.
    expect(updates(r.actions).map((u) => [u.name, u.recycled, members(u)])).toEqual([['A', true, ['c']]])
    expect(deletes(r.actions).map((d) => (d as {name: string}).name)).toEqual(['B'])
    expect(r.warnings.join('\n')).toContain('new IPv4 slices take the names of 1 of A, B')
    // Two new slices of different sizes under both names: the names are certain, the pairing is not.
    const three = ['c', 'dd', 'eee'].map((n, i) => pod(n, {ips: [`10.1.0.${10 + i}`]}))
    const r2 = sync(svc(), three, [a, b], 2)
    expect(r2.choices).toEqual([{kind: 'recycledName', addressType: 'IPv4', certain: [], take: 2, groups: [['A', 'B']], shown: ['A', 'B'], pairing: true}])
    expect(updates(r2.actions).map((u) => [u.name, u.size]).sort()).toEqual([['A', 1], ['B', 2]])
    // One slice going, one coming: certain, no choice stated.
    expect(sync(svc(), [c], [a], 3).choices).toEqual([])
  })

  it('E8.5: an update states the pods added, changed (from, to) and removed, whatever order the slice holds them in', () => {
    const [x, y, z] = [pod('x', {ips: ['10.1.0.1']}), pod('y', {ips: ['10.1.0.2'], ready: false}), pod('z', {ips: ['10.1.0.3']})]
    const stale = ep(y, {ready: true})
    const gone = ep(pod('w', {ips: ['10.1.0.9']}), {ready: true})
    const changes = (eps: EndpointView[]) => updates(sync(svc(), [x, y, z], [slice('A', eps)]).actions).map((u) => [members(u), u.added, u.changed, u.removed])
    const want = [['x', 'y', 'z'], ['z'], [{pod: 'y', from: {ready: true, serving: true, terminating: false}, to: {ready: false, serving: false, terminating: false}}], []]
    // The slice's endpoints first, in order, then the new one; in another order; with one removed.
    expect(changes([ep(x, {ready: true}), stale])).toEqual([want])
    expect(changes([stale, ep(x, {ready: true})])).toEqual([want])
    expect(changes([ep(x, {ready: true}), gone, stale])).toEqual([[...want.slice(0, 3), ['w']]])
  })

  it('E8.4: an endpoint one slice holds twice is kept once (the slice is updated), with nothing to choose', () => {
    const x = pod('x', {ips: ['10.1.0.1']})
    const y = pod('y', {ips: ['10.1.0.2']})
    const r = sync(svc(), [x, y], [slice('A', [ep(x, {ready: true}), ep(y, {ready: true}), ep(x, {ready: true})])])
    expect(r.choices).toEqual([])
    expect(r.warnings).toEqual([])
    expect(updates(r.actions).map((u) => [u.name, members(u), u.size])).toEqual([['A', ['x', 'y'], 2]])
  })

  it('ES-32/E8.4: an endpoint two slices hold stays in the one the controller walks first: the plan names both and shows one', () => {
    const x = pod('x', {ips: ['10.1.0.1']})
    const y = pod('y', {ips: ['10.1.0.2']})
    const r = sync(svc(), [x, y], [slice('A', [ep(x, {ready: true})]), slice('B', [ep(x, {ready: true}), ep(y, {ready: true})])])
    expect(r.choices).toEqual([{kind: 'duplicateEndpoint', addressType: 'IPv4', pod: 'x', slices: ['A', 'B'], shown: 'A'}])
    expect(updates(r.actions).map((u) => [u.name, u.removed])).toEqual([['B', ['x']]])
    expect(r.warnings.join('\n')).toContain("pod x's IPv4 endpoint is in slices A, B")
    // Held once: nothing to choose.
    expect(sync(svc(), [x, y], [slice('A', [ep(x, {ready: true})]), slice('B', [ep(y, {ready: true})])]).choices).toEqual([])
  })

  it('ES-16: a targetPort change rewrites the slice under its name with the new ports', () => {
    const a = pod('a')
    const r = sync(svc({ports: [{name: 'http', port: 80, protocol: 'TCP', targetPort: 9090, appProtocol: 'http'}]}), [a], [slice('S', [ep(a, {ready: true})])])
    expect(r.actions).toHaveLength(1)
    expect(updates(r.actions)[0]).toMatchObject({name: 'S', recycled: true, ports: [{name: 'http', port: 9090, protocol: 'TCP', appProtocol: 'http'}]})
  })

  it('ES-27/E8.12: a converged slice is not written', () => {
    const a = pod('a')
    expect(sync(svc(), [a], [slice('S', [ep(a, {ready: true})])]).actions).toEqual([])
  })
})

describe('E8: an endpoint\'s identity (hashEndpoint)', () => {
  const ep = (addresses: string[], over: Record<string, unknown> = {}) => ({addresses, conditions: {}, targetRef: {kind: 'Pod', namespace: 'ns', name: 'web-0', uid: 'u1'}, ...over})
  it('is its addresses in any order, hostname and pod; not its uid, node or conditions', () => {
    expect(endpointId(ep(['10.0.0.2', '10.0.0.1']))).toBe(endpointId(ep(['10.0.0.1', '10.0.0.2'])))
    expect(endpointId(ep(['10.0.0.1']))).toBe(endpointId(ep(['10.0.0.1'], {nodeName: 'n1', conditions: {ready: true}, targetRef: {kind: 'Pod', namespace: 'ns', name: 'web-0', uid: 'u2'}})))
    expect(endpointId(ep(['10.0.0.1']))).not.toBe(endpointId(ep(['10.0.0.1', '10.0.0.2'])))
    expect(endpointId(ep(['10.0.0.1']))).not.toBe(endpointId(ep(['10.0.0.1'], {hostname: 'web-0'})))
    expect(endpointId(ep(['10.0.0.1']))).not.toBe(endpointId(ep(['10.0.0.1'], {targetRef: {kind: 'Pod', namespace: 'ns', name: 'web-1', uid: 'u1'}})))
  })
})

describe('E9: trigger time', () => {
  it('a fresh controller writes the Service creationTimestamp on created and updated slices', () => {
    const a = pod('a')
    const r = sync(svc(), [a, pod('bb')], [slice('S', [ep(a, {ready: false})])])
    expect(updates(r.actions)[0].triggerTime).toBe(C)
  })
})

describe('E10: trafficDistribution hints', () => {
  it('ES-22: PreferClose hints ready endpoints with their zone; PreferSameNode adds the node; none strips them', () => {
    const a = pod('a')
    const b = pod('bb', {ready: false, node: 'node-b'})
    const close = creates(sync(svc({trafficDistribution: 'PreferClose'}), [a, b]).actions)[0].endpoints
    expect(close.find((e) => e.targetRef!.name === 'a')!.hints).toEqual({forZones: [{name: 'zone-1'}]})
    expect(close.find((e) => e.targetRef!.name === 'bb')!.hints).toBeUndefined()
    const same = creates(sync(svc({trafficDistribution: 'PreferSameNode'}), [a]).actions)[0].endpoints
    expect(same[0].hints).toEqual({forZones: [{name: 'zone-1'}], forNodes: [{name: 'node-a'}]})
    const hinted = slice('S', [{...ep(a, {ready: true}), hints: {forZones: [{name: 'zone-1'}]}}])
    const stripped = updates(sync(svc(), [a], [hinted]).actions)
    expect(stripped).toEqual([expect.objectContaining({name: 'S', hintsChanged: true})])
    expect(stripped[0].endpoints[0].hints).toBeUndefined()
  })

  // Random oracle world: a slice whose only wanted endpoint is held by another slice too, and whose
  // other endpoints are gone, carries a hint. It is deleted, and only deleted: hints are stripped
  // from the slices left unchanged, never from one being deleted.
  it('ES-22: a slice being deleted is not also updated to strip its hints', () => {
    const a = pod('a')
    const gone = pod('gone', {phase: 'Failed'})
    const keeper = slice('K', [ep(a, {ready: true})])
    const doomed = slice('S', [{...ep(a, {ready: true}), hints: {forZones: [{name: 'zone-1'}]}}, {...ep(gone, {ready: false}), hints: {forZones: [{name: 'zone-1'}]}}])
    const r = sync(svc(), [a, gone], [keeper, doomed])
    expect(r.actions.filter((x) => x.type.endsWith('EndpointSlice')).map((x) => [x.type, 'name' in x ? x.name : ''])).toEqual([['deleteEndpointSlice', 'S']])
  })
})

describe('E10.3: topology-mode Auto', () => {
  const auto = (o: Partial<ServiceView> = {}) => svc({annotations: {'service.kubernetes.io/topology-mode': 'Auto'}, ...o})

  it('a ready endpoint without a zone in a written slice: the allocator removes every hint, written and unchanged slices alike', () => {
    const a = pod('a')
    const lost = pod('bb', {node: 'node-nozone'})
    const nodes = [...NODES, node('node-nozone')]
    const hintedKept = slice('K', [{...ep(a, {ready: true}), hints: {forZones: [{name: 'zone-1'}]}}])
    // At most one endpoint per slice: K is full and unchanged, bb goes to a new slice.
    const r = sync(auto({trafficDistribution: 'PreferClose'}), [a, lost], [hintedKept], 1, nodes)
    expect(r.warnings).toContainEqual(expect.stringContaining('TopologyAwareHintsDisabled: One or more endpoints do not have a zone specified'))
    const written = [...creates(r.actions), ...updates(r.actions)]
    expect(written.flatMap((x) => x.endpoints).every((e) => e.hints === undefined)).toBe(true)
    // K holds a and was unchanged: it is written only to lose its hint.
    expect(updates(r.actions)).toEqual([expect.objectContaining({name: 'K', hintsChanged: true, added: [], removed: []})])
    expect(members(creates(r.actions)[0])).toEqual(['bb'])
  })

  it('every written endpoint with a zone: the allocation is not planned, hints stay as they are, and the plan says so', () => {
    const a = pod('a')
    const hinted = slice('K', [{...ep(a, {ready: true}), hints: {forZones: [{name: 'zone-2'}]}}])
    const r = sync(auto(), [a, pod('bb', {node: 'node-b'})], [hinted])
    expect(r.warnings).toContainEqual(expect.stringContaining('topology-mode Auto: the Topology Aware Hints allocator sets hints from the nodes\' allocatable CPU per zone, which is not planned here'))
    expect(updates(r.actions).find((u) => u.name === 'K')?.hintsChanged).toBeUndefined()
    // The deprecated annotation wins over topology-mode when both are set (hintsEnabled).
    const off = sync(svc({annotations: {'service.kubernetes.io/topology-aware-hints': 'disabled', 'service.kubernetes.io/topology-mode': 'Auto'}}), [a], [hinted])
    expect(updates(off.actions)).toEqual([expect.objectContaining({name: 'K', hintsChanged: true})])
  })
})

describe('E11: when the sync runs again', () => {
  it('E11.5/E3.4: a sync that fails on a missing node is retried after 1 s; a sync without error names no requeue', () => {
    const now = 1_764_000_000_000_000_000n
    const world = {pods: [pod('a'), pod('ghost', {node: 'node-gone'})], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints: undefined, maxEndpointsPerSlice: 100, now}
    const failed = planService(svc(), world)
    expect(failed.requeue).toEqual({at: '2025-11-24T16:00:01Z', seconds: 1, reason: 'sync-error'})
    expect(failed.warnings).toContainEqual(expect.stringContaining('node "node-gone" is not found'))
    expect(planService(svc(), {...world, pods: [pod('a')]}).requeue).toBeUndefined()
  })
})

describe('E12: the legacy Endpoints object', () => {
  const endpointsObject = (name: string, annotations: Record<string, string> = {}): EndpointsView => ({
    namespace: 'ns', name, uid: `uid-ep-${name}`, resourceVersion: '4', generation: 0, labels: {}, annotations, ownerReferences: [],
    subsets: [{addresses: [{ip: '192.0.2.1'}], notReadyAddresses: [], ports: [{name: '', port: 80, protocol: 'TCP'}]}],
  })
  const planAll = (services: ServiceView[], endpoints: EndpointsView[]) =>
    planSnapshot({pods: [], workloads: [], replicaSets: [], ignored: {}, source: {type: 'fixtures', paths: []}, services, endpoints, nodes: NODES}, {now: C, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500})

  it('E12.1: an Endpoints object with no Service of its name is deleted, a leader-election record is not, and -l does not make one left over', () => {
    const plan = planAll([svc()], [endpointsObject('web'), endpointsObject('gone'), endpointsObject('leader', {'control-plane.alpha.kubernetes.io/leader': '{}'})])
    const gone = plan.controllers.find((c) => c.name === 'gone')!
    expect(gone.actions).toEqual([{type: 'deleteEndpoints', name: 'gone', uid: 'uid-ep-gone', resourceVersion: '4', reason: 'no-service'}])
    expect(gone).toMatchObject({kind: 'Service', uid: '', inSync: false, service: {absent: true}})
    expect(gone.warnings[0]).toContain('the Endpoints controller deletes this Endpoints object')
    expect(plan.controllers.map((c) => c.name)).toEqual(['gone', 'web'])
    expect(plan.summary.deleteEndpoints).toBe(1)
    // A Service left out by -l is not planned, and its Endpoints object is not a leftover.
    const filtered = planAll([{...svc(), notPlanned: true}], [endpointsObject('web')])
    expect(filtered.controllers).toEqual([])
  })

  it('E12.1: ExternalName and a nil selector: the Endpoints controller writes nothing, and a hand-kept Endpoints object stays as it is', () => {
    const kept: EndpointsView = {
      namespace: 'ns', name: 'web', uid: 'e', resourceVersion: '3', generation: 0, labels: {}, annotations: {}, ownerReferences: [],
      subsets: [{addresses: [{ip: '192.0.2.1'}], notReadyAddresses: [], ports: [{name: '', port: 80, protocol: 'TCP'}]}],
    }
    const world = {pods: [pod('a')], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints: kept, maxEndpointsPerSlice: 100}
    expect(planService(svc({type: 'ExternalName'}), world).actions).toEqual([])
    // A selector-less Service: only the mirroring controller acts (on the object someone keeps).
    const bare = planService(svc({selector: null}), world).actions
    expect(bare.filter((a) => a.type === 'writeEndpoints')).toEqual([])
    expect(bare.map((a) => a.type)).toEqual(['createEndpointSlice'])
    // With a selector the controller owns the object and rewrites it from the pods.
    expect(planService(svc(), world).actions.filter((a) => a.type === 'writeEndpoints')).toHaveLength(1)
  })

  it('E12.2: terminating pods are left out unless publishNotReadyAddresses; not-ready ones go to notReadyAddresses', () => {
    const pods = [pod('ready'), pod('notready', {ready: false}), pod('term', {deleting: true})]
    const r = syncEndpoints(svc(), pods, undefined)
    expect(r.verdicts).toEqual([{in: true, ready: true}, {in: true, ready: false}, {in: false, reason: 'terminating'}])
    expect(r.action?.subsets[0].addresses.map((a) => a.targetRef?.name)).toEqual(['ready'])
    expect(r.action?.subsets[0].notReadyAddresses.map((a) => a.targetRef?.name)).toEqual(['notready'])
    const all = syncEndpoints(svc({publishNotReadyAddresses: true}), pods, undefined)
    expect(all.action?.subsets[0].addresses.map((a) => a.targetRef?.name).sort()).toEqual(['notready', 'ready', 'term'])
  })

  it('E12.6/E12.7: addresses sorted by IP bytes; labels are the Service\'s plus managed-by; no write when equal', () => {
    const pods = [pod('a', {ips: ['10.1.0.10']}), pod('b', {ips: ['10.1.0.9']})]
    const r = syncEndpoints(svc({labels: {team: 'x'}}), pods, undefined)
    const action = r.action as WriteEndpointsAction
    expect(action.subsets[0].addresses.map((a) => a.ip)).toEqual(['10.1.0.10', '10.1.0.9'])
    expect(action.labels).toEqual({team: 'x', 'endpoints.kubernetes.io/managed-by': 'endpoint-controller'})
    const existing: EndpointsView = {namespace: 'ns', name: 'web', uid: 'e', resourceVersion: '3', generation: 0, labels: action.labels, annotations: {}, ownerReferences: [], subsets: action.subsets}
    expect(syncEndpoints(svc({labels: {team: 'x'}}), pods, existing).action).toBeUndefined()
    // Read from a file (no resourceVersion): equal is still equal.
    expect(syncEndpoints(svc({labels: {team: 'x'}}), pods, {...existing, resourceVersion: ''}).action).toBeUndefined()
    expect(syncEndpoints(svc({labels: {team: 'y'}}), pods, existing).action).toMatchObject({verb: 'update', resourceVersion: '3'})
  })

  it('E12.7: the Endpoints labels are the Service\'s, the headless label set empty when headless and dropped otherwise, managed-by last', () => {
    const labels = {'service.kubernetes.io/headless': 'x', team: 'a', 'endpoints.kubernetes.io/managed-by': 'someone'}
    const written = (s: ServiceView) => syncEndpoints(s, [pod('a')], undefined).action!.labels
    expect(Object.entries(written(svc({labels})))).toEqual([['team', 'a'], ['endpoints.kubernetes.io/managed-by', 'endpoint-controller']])
    expect(Object.entries(written(svc({labels, clusterIP: 'None', headless: true})))).toEqual([
      ['service.kubernetes.io/headless', ''],
      ['team', 'a'],
      ['endpoints.kubernetes.io/managed-by', 'endpoint-controller'],
    ])
    expect(Object.entries(written(svc({labels: {team: 'a'}, clusterIP: 'None', headless: true})))).toEqual([
      ['team', 'a'],
      ['service.kubernetes.io/headless', ''],
      ['endpoints.kubernetes.io/managed-by', 'endpoint-controller'],
    ])
    expect(labels['service.kubernetes.io/headless']).toBe('x')
  })

  it('E12.7: stored subsets are compared as repacked: an address listed twice is one; one address fewer is a write', () => {
    const pods = [pod('a', {ips: ['10.1.0.1']}), pod('b', {ips: ['10.1.0.2']})]
    const action = syncEndpoints(svc(), pods, undefined).action!
    const [a, b] = action.subsets[0].addresses
    const stored = (addresses: EndpointAddressView[]): EndpointsView => ({
      namespace: 'ns', name: 'web', uid: 'e', resourceVersion: '3', generation: 0, labels: action.labels, annotations: {}, ownerReferences: [],
      subsets: [{...action.subsets[0], addresses}],
    })
    expect(syncEndpoints(svc(), pods, stored([b, a, b])).action).toBeUndefined()
    expect(syncEndpoints(svc(), pods, stored([a])).action).toMatchObject({verb: 'update'})
    expect(syncEndpoints(svc(), pods.slice(0, 1), stored([a, a])).action).toBeUndefined()
    expect(syncEndpoints(svc(), pods.slice(0, 1), stored([a, b])).action).toMatchObject({verb: 'update'})
  })

  it('ES-30/E12.6: one subset per set of addresses with their readiness, carrying every port that set offers', () => {
    const two = svc({ports: [
      {name: 'http', port: 80, protocol: 'TCP', targetPort: 'web'},
      {name: 'metrics', port: 9100, protocol: 'TCP', targetPort: 9100},
    ]})
    const a = pod('a', {ips: ['10.1.0.1']})
    const b = pod('b', {ips: ['10.1.0.2'], ready: false, ports: [{name: 'web', containerPort: 9090, protocol: 'TCP'}]})
    const subsets = syncEndpoints(two, [a, b], undefined).action!.subsets
    const shape = (ss: typeof subsets) => ss.map((x) => [x.addresses.map((e) => e.ip), x.notReadyAddresses.map((e) => e.ip), x.ports.map((p) => `${p.name}:${p.port}`)]).sort((x, y) => JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)
    expect(shape(subsets)).toEqual([
      [['10.1.0.1'], ['10.1.0.2'], ['metrics:9100']],
      [['10.1.0.1'], [], ['http:8080']],
      [[], ['10.1.0.2'], ['http:9090']],
    ])
    const stored = (ss: typeof subsets): EndpointsView => ({
      namespace: 'ns', name: 'web', uid: 'e', resourceVersion: '3', generation: 0, labels: {'endpoints.kubernetes.io/managed-by': 'endpoint-controller'}, annotations: {}, ownerReferences: [], subsets: ss,
    })
    // Stored as the controller writes it, or grouped by address (repacked before comparing): no write.
    expect(syncEndpoints(two, [a, b], stored(subsets)).action).toBeUndefined()
    const byAddress = [
      {addresses: [subsets[0].addresses[0] ?? subsets[1].addresses[0]], notReadyAddresses: [], ports: [{name: 'http', port: 8080, protocol: 'TCP'}, {name: 'metrics', port: 9100, protocol: 'TCP'}]},
    ]
    expect(syncEndpoints(two, [a], stored(byAddress)).action).toBeUndefined()
    // Readiness is per port: stored ready on one port and not on the other, the pod not ready now: a write.
    const notReady = pod('a', {ips: ['10.1.0.1'], ready: false})
    const addr = subsets.find((x) => x.addresses.length > 0)!.addresses[0]
    const split = [
      {addresses: [addr], notReadyAddresses: [], ports: [{name: 'http', port: 8080, protocol: 'TCP'}]},
      {addresses: [], notReadyAddresses: [addr], ports: [{name: 'metrics', port: 9100, protocol: 'TCP'}]},
    ]
    const w = syncEndpoints(two, [notReady], stored(split)).action!
    expect(w).toMatchObject({verb: 'update'})
    expect(shape(w.subsets)).toEqual([[[], ['10.1.0.1'], ['http:8080', 'metrics:9100']]])
  })

  it('ES-25/E12.8: over 1000 addresses: every ready one kept, not-ready ones cut to fit, annotated', () => {
    const pods = Array.from({length: 1005}, (_, i) => pod(`p${i}`, {ips: [`10.3.${Math.floor(i / 250)}.${i % 250}`], ready: i < 503}))
    const a = syncEndpoints(svc(), pods, undefined).action!
    expect(a.truncated).toEqual({from: 1005, to: 1000})
    expect(a.subsets[0].addresses).toHaveLength(503)
    expect(a.subsets[0].notReadyAddresses).toHaveLength(497)
  })

  it('E12.9/ES-25: an over-capacity Endpoints object is written again at every sync, even exactly as it was', () => {
    const pods = Array.from({length: 1005}, (_, i) => pod(`p${i}`, {ips: [`10.3.${Math.floor(i / 250)}.${i % 250}`], ready: i < 503}))
    const first = syncEndpoints(svc(), pods, undefined).action!
    // What the controller stored: the truncated subsets, marked over capacity.
    const stored: EndpointsView = {
      namespace: 'ns', name: 'web', uid: 'e', resourceVersion: '3', generation: 0, labels: first.labels,
      annotations: {'endpoints.kubernetes.io/over-capacity': 'truncated'}, ownerReferences: [], subsets: first.subsets,
    }
    // The stored subsets are compared with all 1005 wanted addresses, never with the cut: not equal.
    expect(syncEndpoints(svc(), pods, stored).action).toMatchObject({verb: 'update', truncated: {from: 1005, to: 1000}})
    // Back within capacity: the same subsets, but the mark must go, so it is written once more.
    const fewer = pods.slice(0, 1000)
    const within = syncEndpoints(svc(), fewer, undefined).action!
    expect(syncEndpoints(svc(), fewer, {...stored, subsets: within.subsets}).action).toMatchObject({verb: 'update'})
    expect(syncEndpoints(svc(), fewer, {...stored, subsets: within.subsets, annotations: {}}).action).toBeUndefined()
  })
})

describe('E12.6: byte order', () => {
  it('strings compare as their UTF-8 bytes do (Go), astral characters included', () => {
    const sign = (n: number) => Math.sign(n)
    fc.assert(
      fc.property(fc.string({unit: 'binary'}), fc.string({unit: 'binary'}), (a, b) => sign(byteOrder(a, b)) === sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))),
      {numRuns: 2000},
    )
    expect(sign(byteOrder('\u{1F600}', '\uFFFD'))).toBe(1)
    expect(sign(byteOrder('10.0.0.10', '10.0.0.9'))).toBe(-1)
  })

  it('Endpoints addresses of one IP come by pod UID in byte order, an astral character after U+FFFD', () => {
    const at = (name: string, uid: string) => ({...pod(name, {ips: ['10.0.0.1']}), uid})
    const names = (pods: PodView[]) => syncEndpoints(svc(), pods, undefined).action!.subsets[0].addresses.map((a) => a.targetRef!.name)
    expect(names([at('a', 'u\u{1F600}'), at('b', 'u\uFFFD')])).toEqual(['b', 'a'])
    expect(names([at('a', 'u\uFFFD'), at('b', 'u\u{1F600}')])).toEqual(['a', 'b'])
    expect(names([at('a', 'u2'), at('b', 'u10')])).toEqual(['b', 'a'])
  })
})

describe('E13: mirroring', () => {
  it('ES-26: a selector-less Service\'s Endpoints are mirrored into a slice owned by the Endpoints', () => {
    const endpoints: EndpointsView = {
      namespace: 'ns', name: 'web', uid: 'E', resourceVersion: '2', generation: 0, labels: {l: 'v'}, annotations: {a: 'b'}, ownerReferences: [],
      subsets: [{addresses: [{ip: '192.0.2.1'}, {ip: '192.0.2.2'}], notReadyAddresses: [{ip: '192.0.2.3'}, {ip: 'not-an-ip'}], ports: [{name: '', port: 80, protocol: 'TCP'}]}],
    }
    const r = syncMirror(svc({selector: null}), endpoints, [])
    const [c] = creates(r.actions)
    expect(c.ownerReference).toMatchObject({kind: 'Endpoints', uid: 'E'})
    expect(c.labels).toEqual({l: 'v', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io'})
    expect(c.endpoints.map((e) => [e.addresses[0], e.conditions])).toEqual([['192.0.2.1', {ready: true}], ['192.0.2.2', {ready: true}], ['192.0.2.3', {ready: false}]])
    expect(r.warnings.join()).toContain('InvalidIPAddress')
    expect(syncMirror(svc({selector: null}), {...endpoints, labels: {'endpointslice.kubernetes.io/skip-mirror': 'true'}}, []).actions).toEqual([])
  })

  // Random oracle, a mirrored Service that gets a selector: the mirroring controller deletes the
  // slice it made (its syncEndpoints cleans up once the Service has a selector).
  const endpoints: EndpointsView = {
    namespace: 'ns', name: 'web', uid: 'E', resourceVersion: '2', generation: 0, labels: {}, annotations: {}, ownerReferences: [],
    subsets: [{addresses: [], notReadyAddresses: [{ip: '192.0.2.22'}], ports: [{name: 'db', port: 5432, protocol: 'TCP'}]}],
  }
  const mirroredSlice = slice('web-m1', [{addresses: ['192.0.2.22'], conditions: {ready: false}}], {
    labels: {'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io'},
    ports: [{name: 'db', port: 5432, protocol: 'TCP'}],
  })

  it('E13.2: once the Service has a selector, its mirrored slices are deleted', () => {
    const plan = planService(svc(), {pods: [], nodes: NODES, nodeByName: nodeMap(), slices: [mirroredSlice], endpoints, maxEndpointsPerSlice: 100})
    expect(plan.actions.filter((a) => a.type === 'deleteEndpointSlice')).toEqual([
      {type: 'deleteEndpointSlice', controller: 'endpointslicemirroring', name: 'web-m1', uid: mirroredSlice.uid, resourceVersion: mirroredSlice.resourceVersion, addressType: 'IPv4', reason: 'selector'},
    ])
    // Without a selector the same slice is kept as it is.
    const kept = planService(svc({selector: null}), {pods: [], nodes: NODES, nodeByName: nodeMap(), slices: [mirroredSlice], endpoints, maxEndpointsPerSlice: 100})
    expect(kept.actions).toEqual([])
  })

  const mirrorLabels = {'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io'}
  const old = (name: string, eps: EndpointView[]) => slice(name, eps, {labels: mirrorLabels, ports: [{name: 'http', port: 1234, protocol: 'TCP'}]})

  it('E13.3: a new port list takes the name of the one mirrored slice going (recycleSlices): an update, no create, no delete', () => {
    const r = syncMirror(svc({selector: null}), endpoints, [old('web-a', [])])
    expect(r.actions.map((a) => [a.type, 'name' in a ? a.name : undefined, 'recycled' in a ? a.recycled : undefined])).toEqual([['updateEndpointSlice', 'web-a', true]])
    expect(r.actions[0]).toMatchObject({ports: [{name: 'db', port: 5432, protocol: 'TCP'}], endpoints: [{addresses: ['192.0.2.22'], conditions: {ready: false}}]})
    expect(r.choices).toEqual([])
  })

  // Random oracle world: two mirrored slices of an old port list, one new port list.
  it('E13.3: with two slices going and one new port list, which name is taken is the lister\'s order: a stated choice', () => {
    const r = syncMirror(svc({selector: null}), endpoints, [old('web-a', [{addresses: ['10.0.0.9'], conditions: {ready: true}}]), old('web-b', [])])
    expect(r.actions.map((a) => [a.type, 'name' in a ? a.name : undefined])).toEqual([
      ['updateEndpointSlice', 'web-a'],
      ['deleteEndpointSlice', 'web-b'],
    ])
    expect(r.choices).toEqual([{kind: 'mirroredName', addressType: 'IPv4', slices: ['web-a', 'web-b'], keep: 1, shown: ['web-a']}])
    expect(r.warnings.join()).toContain('random')
  })

  it('E13.3: two slices of a wanted port list: the first is kept (rewritten only if it differs), the other deleted, and which is first is a stated choice', () => {
    const want = {addresses: ['192.0.2.22'], conditions: {ready: false}}
    const db = (name: string, eps: EndpointView[], o: Partial<EndpointSliceView> = {}) => slice(name, eps, {labels: mirrorLabels, ports: [{name: 'db', port: 5432, protocol: 'TCP'}], ...o})
    const r = syncMirror(svc({selector: null}), endpoints, [db('web-a', [want]), db('web-b', [want])])
    expect(r.actions.map((a) => [a.type, 'name' in a ? a.name : undefined])).toEqual([['deleteEndpointSlice', 'web-b']])
    expect(r.choices).toEqual([{kind: 'mirroredName', addressType: 'IPv4', slices: ['web-a', 'web-b'], keep: 1, shown: ['web-a']}])
    // needRebuildExistingSlices: owned by an earlier Endpoints object of the name, it is rewritten.
    const earlier = [{apiVersion: 'v1', kind: 'Endpoints', name: 'web', uid: 'E-old', controller: true, blockOwnerDeletion: true}]
    expect(syncMirror(svc({selector: null}), endpoints, [db('web-a', [want], {ownerReferences: earlier})]).actions.map((a) => a.type)).toEqual(['updateEndpointSlice'])
    // Annotations the Endpoints object does not have: rewritten too.
    expect(syncMirror(svc({selector: null}), endpoints, [db('web-a', [want], {annotations: {x: 'y'}})]).actions.map((a) => a.type)).toEqual(['updateEndpointSlice'])
    expect(syncMirror(svc({selector: null}), endpoints, [db('web-a', [want])]).actions).toEqual([])
  })

  // Random oracle world: an Endpoints object of both families, one old mirrored slice of one family.
  it('E13.3: creates of two families with one name recycled: the writes it ends with, and a warning that the sync may fail and retry', () => {
    const mixed: EndpointsView = {...endpoints, subsets: [{addresses: [{ip: '2001:db8::1'}, {ip: '192.0.2.37'}], notReadyAddresses: [], ports: [{name: '', port: 5432, protocol: 'UDP'}]}]}
    const r = syncMirror(svc({selector: null}), mixed, [old('web-a', []) as EndpointSliceView].map((x) => ({...x, addressType: 'IPv6'})))
    expect(r.actions.map((a) => [a.type, a.addressType, 'name' in a ? a.name : undefined])).toEqual([
      ['createEndpointSlice', 'IPv4', undefined],
      ['updateEndpointSlice', 'IPv6', 'web-a'],
    ])
    expect(r.warnings.join()).toContain('AlreadyExists')
    // One family only: no such warning.
    expect(syncMirror(svc({selector: null}), endpoints, [old('web-a', [])]).warnings.join()).not.toContain('AlreadyExists')
  })

  // Random oracle world: two subsets with the same addresses, one with db/TCP, the other db/UDP.
  it('E13: a mirrored slice that would name a port twice is not written (the API server rejects it): a warning', () => {
    const twice: EndpointsView = {
      ...endpoints,
      subsets: [
        {addresses: [{ip: '2001:db8::1'}], notReadyAddresses: [], ports: [{name: 'db', port: 5432, protocol: 'TCP'}, {name: 'admin', port: 5433, protocol: 'TCP'}]},
        {addresses: [{ip: '2001:db8::1'}], notReadyAddresses: [], ports: [{name: 'db', port: 5432, protocol: 'UDP'}]},
      ],
    }
    const r = syncMirror(svc({selector: null}), twice, [])
    expect(r.actions).toEqual([])
    expect(r.warnings.join()).toContain('name a port twice')
  })

  it('E13: an ExternalName Service without a selector is mirrored like any other', () => {
    const plan = planService(svc({type: 'ExternalName', selector: null}), {pods: [], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints, maxEndpointsPerSlice: 100})
    expect(plan.actions.map((a) => [a.type, 'controller' in a ? a.controller : undefined])).toEqual([['createEndpointSlice', 'endpointslicemirroring']])
    expect(planService(svc({type: 'ExternalName'}), {pods: [], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints, maxEndpointsPerSlice: 100}).actions).toEqual([])
  })
})

describe('L2: which Services the load-balancer controller acts on', () => {
  it('L2.1/LB-3: a loadBalancerClass means nothing is called or written', () => {
    expect(wantsLoadBalancer(svc({type: 'LoadBalancer', loadBalancerClass: 'x'}))).toBe(false)
    const r = syncLoadBalancer(svc({type: 'LoadBalancer', loadBalancerClass: 'x'}), NODES, true)!
    expect(r.actions).toEqual([])
    expect(r.plan).toMatchObject({path: 'none', why: 'class'})
  })

  it('L2.2/LB-8: a classful LoadBalancer with the finalizer is not cleaned up; LB-4: ClusterIP without it is left alone', () => {
    const s = svc({type: 'LoadBalancer', loadBalancerClass: 'x', finalizers: ['service.kubernetes.io/load-balancer-cleanup']})
    expect(needsCleanup(s)).toBe(false)
    expect(syncLoadBalancer(s, NODES, true)!.plan.why).toBe('class-with-finalizer')
    expect(syncLoadBalancer(svc(), NODES, true)).toBeUndefined()
  })
})

describe('L3: the sync', () => {
  const lb = (o: Partial<ServiceView> = {}) => svc({type: 'LoadBalancer', ports: [{name: '', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080}], ...o})

  it('LB-1/L3.4: the finalizer first, then EnsureLoadBalancer, then the status', () => {
    const r = syncLoadBalancer(lb(), NODES, true)!
    expect(r.actions.map((a) => a.type)).toEqual(['addLoadBalancerFinalizer', 'ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(r.actions[1]).toMatchObject({hosts: ['node-a', 'node-b'], loadBalancer: 'aU'})
  })

  it('LB-9/L3.5: converged: Ensure is still called, no finalizer write, and the plan is in sync', () => {
    const s = lb({finalizers: ['service.kubernetes.io/load-balancer-cleanup'], ingress: [{ip: '203.0.113.10'}]})
    const r = syncLoadBalancer(s, NODES, true)!
    expect(r.actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    const plan = planService({...s, selector: null}, {pods: [], nodes: NODES, nodeByName: nodeMap(), slices: [], endpoints: undefined, maxEndpointsPerSlice: 100})
    expect(plan.inSync).toBe(true)
  })

  it('LB-5/LB-6/LB-20/L3.3: type changed with the finalizer: delete if it exists, remove the finalizer, clear the status', () => {
    const s = svc({finalizers: ['service.kubernetes.io/load-balancer-cleanup'], ingress: [{ip: '1.2.3.4'}]})
    const r = syncLoadBalancer(s, NODES, true)!
    expect(r.actions.map((a) => a.type)).toEqual(['ensureLoadBalancerDeleted', 'removeLoadBalancerFinalizer', 'writeLoadBalancerStatus'])
    expect(r.plan.why).toBe('type-changed')
  })

  it('LB-7: a Service being deleted with the finalizer goes the delete path; without ingress no status write', () => {
    const r = syncLoadBalancer(lb({deletionTimestamp: C, finalizers: ['service.kubernetes.io/load-balancer-cleanup']}), NODES, true)!
    expect(r.actions.map((a) => a.type)).toEqual(['ensureLoadBalancerDeleted', 'removeLoadBalancerFinalizer'])
    expect(r.plan.why).toBe('deleting')
  })

  it('LB-10: no eligible node: Ensure with no hosts and the UnAvailableLoadBalancer warning', () => {
    const r = syncLoadBalancer(lb(), [node('n', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'true'}})], true)!
    expect(r.actions[1]).toMatchObject({type: 'ensureLoadBalancer', hosts: [], warning: 'UnAvailableLoadBalancer'})
  })

  it('L1.3: the load balancer is named "a" and the UID without dashes, 32 characters at most', () => {
    expect(loadBalancerName(svc({uid: '0123e456-e89b-12d3-a456-426614174000'}))).toBe('a0123e456e89b12d3a456426614174000'.slice(0, 32))
  })
})

describe('L4: load-balancer hosts', () => {
  it('LB-1: only deletion, the exclude label (unless false) and the autoscaler taint exclude a node', () => {
    const ex = 'node.kubernetes.io/exclude-from-external-load-balancers'
    const nodes = [
      node('n-ready'),
      node('n-excluded', {labels: {[ex]: ''}}),
      node('n-excluded-false', {labels: {[ex]: 'false'}}),
      node('n-excluded-garbage', {labels: {[ex]: 'maybe'}}),
      node('n-tobedeleted', {taints: [{key: 'ToBeDeletedByClusterAutoscaler', value: '1', effect: 'NoSchedule'}]}),
      node('n-controlplane', {labels: {'node-role.kubernetes.io/control-plane': ''}, taints: [{key: 'node-role.kubernetes.io/control-plane', value: '', effect: 'NoSchedule'}]}),
      {...node('n-unschedulable'), unschedulable: true},
      node('n-deleting', {deleting: true}),
    ]
    const r = syncLoadBalancer(svc({type: 'LoadBalancer'}), nodes, true)!
    expect(r.plan.hosts).toEqual(['n-controlplane', 'n-excluded-false', 'n-ready', 'n-unschedulable'])
    expect(Object.fromEntries(r.plan.excluded.map((x) => [x.node, x.reason]))).toEqual({
      'n-excluded': 'exclude-label',
      'n-excluded-garbage': 'exclude-label',
      'n-tobedeleted': 'to-be-deleted-taint',
      'n-deleting': 'deleting',
    })
  })

  it('L4.1: every ParseBool spelling of false keeps the node', () => {
    for (const v of ['0', 'f', 'F', 'false', 'FALSE', 'False']) expect(hostExclusion(node('n', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': v}}))).toBeUndefined()
    for (const v of ['1', 'true', 'no', '']) expect(hostExclusion(node('n', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': v}}))).toBe('exclude-label')
  })
})

describe('L5: node changes', () => {
  const lb = svc({type: 'LoadBalancer', finalizers: ['service.kubernetes.io/load-balancer-cleanup'], ingress: [{ip: '203.0.113.10'}]})
  const ready = node('n-ready')
  const other = node('n-other')

  it('L5.1: only the exclude label flipping or a providerID change syncs a node update (LB-12, LB-14 do not)', () => {
    expect(nodeUpdateSyncs(ready, node('n-ready', {taints: [{key: 'ToBeDeletedByClusterAutoscaler', value: '1', effect: 'NoSchedule'}]}))).toBe(false)
    expect(nodeUpdateSyncs(ready, {...ready, unschedulable: true})).toBe(false)
    expect(nodeUpdateSyncs(ready, node('n-ready', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'true'}}))).toBe(true)
    expect(nodeUpdateSyncs(ready, node('n-ready', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'false'}}))).toBe(false)
    expect(nodeUpdateSyncs(ready, {...ready, providerID: 'cloud://1'})).toBe(true)
  })

  it('LB-11/LB-13/LB-15/LB-16/L5.2: UpdateLoadBalancer with the new host set, only when names or providerIDs differ', () => {
    expect(hostUpdate(lb, [ready, other], [ready, other, node('n-new')])).toMatchObject({type: 'updateLoadBalancerHosts', hosts: ['n-new', 'n-other', 'n-ready']})
    expect(hostUpdate(lb, [ready, other], [node('n-ready', {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'true'}}), other])).toMatchObject({hosts: ['n-other']})
    expect(hostUpdate(lb, [ready, other], [{...ready, providerID: 'cloud://1'}, other])).toMatchObject({hosts: ['n-other', 'n-ready']})
    expect(hostUpdate(lb, [ready, other], [ready])).toMatchObject({hosts: ['n-ready']})
    expect(hostUpdate(lb, [ready, other], [ready, other])).toBeUndefined()
    expect(hostUpdate(svc(), [ready], [ready, other])).toBeUndefined()
  })

  it('L5.3: a taint that did not itself sync is applied at the next sync that does', () => {
    const tainted = node('n-ready', {taints: [{key: 'ToBeDeletedByClusterAutoscaler', value: '1', effect: 'NoSchedule'}]})
    // The last hosts are filtered again with today's predicates, so the taint alone changes nothing…
    expect(hostUpdate(lb, [tainted, other], [tainted, other])).toBeUndefined()
    // …until a node is added: then the tainted node is dropped with it.
    expect(hostUpdate(lb, [tainted, other], [tainted, other, node('n-new')])).toMatchObject({hosts: ['n-new', 'n-other']})
  })
})

describe('E12.8 truncateEndpoints over two subsets: each subset\'s share rounded up, the last capped', () => {
  // The Service's named target port resolves to 8080 on some pods and 9090 on others: two subsets.
  const on = (port: number) => [{name: 'web', containerPort: port, protocol: 'TCP'}]
  const ip = (i: number) => `10.${4 + Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${i % 250}`
  const pods = (groups: {port: number; ready: number; notReady: number}[]) => {
    let i = 0
    return groups.flatMap((g) => [
      ...Array.from({length: g.ready}, () => pod(`p${i}`, {ips: [ip(i++)], ports: on(g.port)})),
      ...Array.from({length: g.notReady}, () => pod(`p${i}`, {ips: [ip(i++)], ports: on(g.port), ready: false})),
    ])
  }
  const sizes = (a: WriteEndpointsAction) => a.subsets.map((s) => `${s.ports[0].port}:${s.addresses.length}+${s.notReadyAddresses.length}`)

  it('1,100 ready (350 on 9090, 750 on 8080): ready ones cut to 1,000 by share, every not-ready one dropped', () => {
    const a = syncEndpoints(svc(), pods([{port: 9090, ready: 350, notReady: 5}, {port: 8080, ready: 750, notReady: 5}]), undefined).action!
    expect(a.truncated).toEqual({from: 1110, to: 1000})
    // 8080 first: ceil(750/1100 × 1000) = 682, then 9090 gets min(ceil(318.2), 318) = 318.
    expect(sizes(a)).toEqual(['8080:682+0', '9090:318+0'])
  })

  it('ready ones fit: not-ready ones share what is left, each rounded up, the last capped by what remains', () => {
    // 600 ready; 600 not-ready share 400: 8080 has 500 of them, ceil(333.3) = 334; 9090 keeps 66, not ceil(66.7) = 67.
    const a = syncEndpoints(svc(), pods([{port: 8080, ready: 300, notReady: 500}, {port: 9090, ready: 300, notReady: 100}]), undefined).action!
    expect(a.truncated).toEqual({from: 1200, to: 1000})
    expect(sizes(a)).toEqual(['8080:300+334', '9090:300+66'])
  })

  it('a small first subset whose share is just over a whole number still rounds up', () => {
    // 8080 holds 1 ready of 1,001: ceil(0.999) = 1; 9090 keeps 999.
    const a = syncEndpoints(svc(), pods([{port: 8080, ready: 1, notReady: 0}, {port: 9090, ready: 1000, notReady: 0}]), undefined).action!
    expect(sizes(a)).toEqual(['8080:1+0', '9090:999+0'])
  })
})

describe('E12.8 exactly 1,000 addresses', () => {
  it('are written whole, without the over-capacity mark; 1,001 are cut', () => {
    const pods = (n: number) => Array.from({length: n}, (_, i) => pod(`p${i}`, {ips: [`10.5.${Math.floor(i / 250)}.${i % 250}`]}))
    expect(syncEndpoints(svc(), pods(1000), undefined).action!.truncated).toBeUndefined()
    expect(syncEndpoints(svc(), pods(1001), undefined).action!.truncated).toEqual({from: 1001, to: 1000})
  })
})

describe('E8.4/E12.6: one pod name twice, one address twice', () => {
  it('two pods of one name with other IPs are two endpoints; an old endpoint of that name with a third IP is removed', () => {
    const a1 = pod('a', {ips: ['10.1.0.1']})
    const a2 = {...pod('a', {ips: ['10.1.0.2']}), uid: 'other'}
    const old = slice('A', [ep(pod('a', {ips: ['10.1.0.3']}), {ready: true}), ep(a1, {ready: true})])
    const r = sync(svc(), [a1, a2], [old])
    expect(creates(r.actions)).toEqual([])
    const [u] = updates(r.actions)
    expect(u.endpoints.map((e) => [e.addresses[0], e.targetRef?.uid])).toEqual([['10.1.0.1', a1.uid], ['10.1.0.2', 'other']])
    expect([u.added, u.removed, u.changed]).toEqual([['a'], ['a'], []])
  })

  it('the same pod twice with the same IP is one endpoint, the later one as listed', () => {
    const a1 = pod('a', {ips: ['10.1.0.1']})
    const a2 = {...pod('a', {ips: ['10.1.0.1'], ready: false}), uid: 'other'}
    const r = sync(svc(), [pod('b', {ips: ['10.1.0.5']}), a1, a2])
    const [c] = creates(r.actions)
    expect(c.endpoints.map((e) => [e.targetRef?.name, e.targetRef?.uid, e.conditions.ready])).toEqual([['b', pod('b').uid, true], ['a', 'other', false]])
  })

  it('an address two pods list (same IP and pod UID), one of them not ready: listed once, not ready', () => {
    const a = pod('a', {ips: ['10.1.0.1']})
    const again = pod('a', {ips: ['10.1.0.1'], ready: false})
    const r = syncEndpoints(svc(), [a, pod('c', {ips: ['10.1.0.0']}), again], undefined)
    const [subset] = (r.action as WriteEndpointsAction).subsets
    expect([subset.addresses.map((x) => x.ip), subset.notReadyAddresses.map((x) => x.ip)]).toEqual([['10.1.0.0'], ['10.1.0.1']])
  })

  it('pods whose targetPort resolves to different numbers split into subsets, sorted by their ports', () => {
    const other = [{name: 'web', containerPort: 9090, protocol: 'TCP'}]
    const r = syncEndpoints(svc(), [pod('a', {ips: ['10.1.0.1']}), pod('b', {ips: ['10.1.0.2'], ports: other})], undefined)
    expect((r.action as WriteEndpointsAction).subsets.map((s) => [s.ports.map((p) => p.port), s.addresses.map((x) => x.ip)])).toEqual([[[8080], ['10.1.0.1']], [[9090], ['10.1.0.2']]])
  })
})
