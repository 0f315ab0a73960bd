// What the Service controllers read, and how the planner finds a Service's pods:
// - a pod's network fields (readServicePodFields, PodView.network) are kept only in a world that
//   may hold a Service (they plan nothing from pods otherwise), and checked on every pod all the
//   same; a live read told which lists are empty keeps them exactly when Services were listed;
// - pods naming the same one port share one list, slice endpoints one set of conditions, with the
//   same values as read;
// - the pod index the planner looks Services' pods up in gives the same pods, in the same order,
//   for selectors of no, one and several labels.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {UserError} from '../../../../src/errors.js'
import type {Snapshot} from '../../../../src/model/objects.js'
import {computePlan} from '../../../../src/services/plan.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {normalizeParsed} from '../../../../src/sources/parsed.js'
import {readEndpoints, readEndpointSlice, readService} from '../../../../src/controllers/service/read.js'
import {Ctx, type Problem} from '../../../../src/sources/context.js'
import type {Meta} from '../../../../src/sources/part.js'
import type {SourceObject} from '../../../../src/sources/source-object.js'

const NOW = '2026-11-22T10:00:00Z'
const tmp = mkdtempSync(join(tmpdir(), 'kctl-service-read-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

let n = 0
function file(text: string): string {
  const path = join(tmp, `f${n++}.yaml`)
  writeFileSync(path, text)
  return path
}

const POD = (name: string, o: {labels?: string; port?: string; ip?: string} = {}) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: shop, labels: ${o.labels ?? '{app: web}'}}
spec:
  nodeName: node-1
  containers: [{name: main, ports: [${o.port ?? '{name: http, containerPort: 8080}'}]}]
status:
  phase: Running
  podIP: ${o.ip ?? '10.0.0.1'}
  conditions: [{type: Ready, status: "True"}]
`
const SERVICE = (name = 'web', selector = '{app: web}') => `apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: shop, uid: uid-${name}, creationTimestamp: "2026-11-20T00:00:00Z"}
spec:
  selector: ${selector}
  clusterIP: 10.96.0.10
  ports: [{name: http, port: 80, targetPort: http}]
`
const ENDPOINTS = `apiVersion: v1
kind: Endpoints
metadata: {name: gone, namespace: shop, uid: uid-ep, resourceVersion: "5"}
subsets: [{addresses: [{ip: 10.0.0.1}], ports: [{port: 8080}]}]
`
const SLICE = (conditions: string[]) => `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: gone-abc, namespace: shop, uid: uid-slice, labels: {kubernetes.io/service-name: gone, endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io}}
addressType: IPv4
ports: [{name: http, port: 8080, protocol: TCP}]
endpoints:
${conditions.map((c, i) => `  - {addresses: [10.0.1.${i}], conditions: ${c}}`).join('\n')}
`
const networkOf = (s: Snapshot) => s.pods.map((p) => p.network)
const NETWORK = {podIPs: ['10.0.0.1'], hostname: '', subdomain: '', ports: [{name: 'http', containerPort: 8080, protocol: 'TCP'}]}

describe('pods carry their network fields only where a Service may be read', () => {
  it('no Service: none, and the Endpoints and slices of no Service plan as before (the Endpoints object is deleted)', async () => {
    const paths = [file(`${POD('a')}---\n${ENDPOINTS}---\n${SLICE(['{ready: true}'])}`)]
    const s = await readFixtures({paths})
    expect(networkOf(s)).toEqual([undefined])
    expect(s.pods.every((p) => !('network' in p))).toBe(true)
    const plan = await computePlan({filename: paths, now: NOW})
    const services = plan.controllers.filter((c) => c.kind === 'Service')
    expect(services.map((c) => [c.name, c.actions.map((a) => a.type)])).toEqual([['gone', ['deleteEndpoints']]])
  })

  it('a Service after the pods, in a later file: kept', async () => {
    const s = await readFixtures({paths: [file(POD('a')), file(SERVICE())]})
    expect(networkOf(s)).toEqual([NETWORK])
  })

  it('checked all the same: a pod the API server would refuse is refused without a Service', async () => {
    const bad = file(POD('a', {port: '{name: http, containerPort: 70000}'}))
    const error = await readFixtures({paths: [bad]}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserError)
    expect((error as UserError).message).toMatch(/spec\.containers\[0\]\.ports\[0\]\.containerPort/)
  })

  it('a live read keeps them exactly when Services were listed; told nothing, it keeps them', () => {
    const pod = {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'a', namespace: 'shop'}, spec: {containers: [{name: 'main'}]}, status: {podIP: '10.0.0.1'}}
    const service = {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web', namespace: 'shop'}, spec: {selector: {app: 'web'}, ports: [{port: 80}]}}
    const read = (objects: object[], hint: boolean) =>
      normalizeParsed('cluster:test', structuredClone(objects), {paths: [], serverDefaulted: true, ...(hint ? {mayHold: (kind: string) => objects.some((o) => (o as {kind: string}).kind === kind)} : {})})
    const ips = (s: Snapshot) => s.pods.map((p) => p.network?.podIPs)
    expect(ips(read([pod], true))).toEqual([undefined])
    expect(ips(read([pod, service], true))).toEqual([['10.0.0.1']])
    expect(ips(read([pod], false))).toEqual([['10.0.0.1']])
  })
})

describe('what is read is shared where it is alike, with the values read', () => {
  it('pods naming the same one port share its list; another port, or two, are their own', async () => {
    const s = await readFixtures({
      paths: [
        file(
          [
            POD('a'),
            POD('b', {ip: '10.0.0.2'}),
            POD('c', {port: '{name: http, containerPort: 9090}'}),
            POD('d', {port: '{name: http, containerPort: 8080}, {name: admin, containerPort: 9000, protocol: UDP}'}),
            POD('e', {port: '{name: http, containerPort: 8080}, {name: admin, containerPort: 9000, protocol: UDP}'}),
            POD('f'),
            POD('g', {port: '{containerPort: 8080}'}),
            SERVICE(),
          ].join('---\n'),
        ),
      ],
    })
    const [a, b, c, d, e, f, g] = s.pods.map((p) => p.network!)
    expect(a.ports).toBe(b.ports)
    expect(a.podIPs).toEqual(['10.0.0.1'])
    expect(b.podIPs).toEqual(['10.0.0.2'])
    expect(c.ports).toEqual([{name: 'http', containerPort: 9090, protocol: 'TCP'}])
    expect(d.ports).toEqual([
      {name: 'http', containerPort: 8080, protocol: 'TCP'},
      {name: 'admin', containerPort: 9000, protocol: 'UDP'},
    ])
    expect(e.ports).toEqual(d.ports)
    expect(e.ports).not.toBe(d.ports)
    // A pod after them names its own ports only.
    expect(f.ports).toBe(a.ports)
    expect(g.ports).toEqual([])
  })

  it("a pod's IPs: podIPs as listed (one or two), else podIP", () => {
    const pod = (name: string, status: object) => ({apiVersion: 'v1', kind: 'Pod', metadata: {name, namespace: 'shop'}, spec: {containers: [{name: 'main'}]}, status})
    const service = {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web', namespace: 'shop'}, spec: {selector: {app: 'web'}, ports: [{port: 80}]}}
    const objects = [
      pod('one', {podIP: '10.0.0.1', podIPs: [{ip: '10.0.0.1'}]}),
      pod('two', {podIP: '10.0.0.2', podIPs: [{ip: '10.0.0.2'}, {ip: 'fd00::2'}]}),
      pod('bare', {podIP: '10.0.0.3'}),
      pod('none', {}),
      service,
    ]
    const s = normalizeParsed('cluster:test', objects, {paths: [], serverDefaulted: true})
    expect(s.pods.map((p) => p.network?.podIPs)).toEqual([['10.0.0.1'], ['10.0.0.2', 'fd00::2'], ['10.0.0.3'], undefined])
  })

  it('slice endpoints carry exactly the conditions read, shared between endpoints read alike', async () => {
    const s = await readFixtures({paths: [file(SLICE(['{ready: true}', '{}', '{ready: false, serving: true, terminating: false}', '{ready: true}', '{terminating: true}']))]})
    const conditions = s.endpointSlices![0].endpoints.map((e) => e.conditions)
    expect(conditions).toEqual([{ready: true}, {}, {ready: false, serving: true, terminating: false}, {ready: true}, {terminating: true}])
    expect(conditions.map((c) => Object.keys(c))).toEqual([['ready'], [], ['ready', 'serving', 'terminating'], ['ready'], ['terminating']])
    expect(conditions[0]).toBe(conditions[3])
  })

  it('slice references and Endpoints addresses of plain fields are the objects read; others are copied to the fields read', () => {
    const ref = (name: string) => ({kind: 'Pod', namespace: 'shop', name, uid: `uid-${name}`})
    const slice = {
      addressType: 'IPv4',
      endpoints: [
        {addresses: ['10.0.0.1'], targetRef: ref('a')},
        {addresses: ['10.0.0.2'], targetRef: {...ref('b'), resourceVersion: '7'}},
        {zone: 'z1', targetRef: ref('c'), nodeName: 'node-1', addresses: ['10.0.0.3']},
        {addresses: ['10.0.0.4'], hostname: 'd', nodeName: 'node-2', zone: 'z2'},
      ],
    }
    const endpoints = {
      subsets: [
        {
          addresses: [{ip: '10.0.0.1', nodeName: 'node-1', targetRef: ref('a')}, {ip: '10.0.0.2', targetRef: {...ref('b'), fieldPath: 'x'}}, {ip: '10.0.0.3', hostname: null}],
          notReadyAddresses: [{ip: '10.0.0.4', extra: 1}],
          ports: [{port: 8080}],
        },
      ],
    }
    const problems: Problem[] = []
    const ctx = (raw: object) => new Ctx({raw, locator: {format: 'json'}} as unknown as SourceObject, problems, 'EndpointSlice')
    const meta = {namespace: 'shop', name: 'web'} as unknown as Meta
    const read = readEndpointSlice(ctx(slice), meta, slice).endpoints
    const [kept, copied] = read.map((e) => e.targetRef)
    expect(kept).toBe(slice.endpoints[0].targetRef)
    expect(copied).toEqual(ref('b'))
    expect(read.slice(2)).toEqual([
      {addresses: ['10.0.0.3'], conditions: {}, nodeName: 'node-1', zone: 'z1', targetRef: ref('c')},
      {addresses: ['10.0.0.4'], conditions: {}, hostname: 'd', nodeName: 'node-2', zone: 'z2'},
    ])
    expect(read.slice(2).map((e) => Object.keys(e))).toEqual([
      ['addresses', 'conditions', 'nodeName', 'zone', 'targetRef'],
      ['addresses', 'conditions', 'hostname', 'nodeName', 'zone'],
    ])
    const subset = readEndpoints(ctx(endpoints), meta, endpoints).subsets[0]
    expect(subset.addresses[0]).toBe(endpoints.subsets[0].addresses[0])
    expect(subset.addresses.slice(1)).toEqual([{ip: '10.0.0.2', targetRef: ref('b')}, {ip: '10.0.0.3'}])
    expect(subset.notReadyAddresses).toEqual([{ip: '10.0.0.4'}])
    expect(problems).toEqual([])
  })
})

describe('a Service as read', () => {
  it('defaults its ports and reports its bad fields in order, each at its path', () => {
    const raw = {
      metadata: {finalizers: ['service.kubernetes.io/load-balancer-cleanup', 7]},
      spec: {
        type: 'Weird',
        selector: {app: 'web'},
        ports: [{port: 'x', name: 3}, 5, {port: 80, targetPort: '8080', nodePort: 30000, protocol: 'FOO'}, null, {port: 81, targetPort: 'web', appProtocol: 'http'}, {port: 82, targetPort: 0}],
        clusterIP: 'None',
        ipFamilies: ['IPv5'],
        publishNotReadyAddresses: 'yes',
        healthCheckNodePort: 30001,
        loadBalancerClass: 'example.com/lb',
        trafficDistribution: 'PreferClose',
      },
      status: {loadBalancer: {ingress: [{ip: '1.2.3.4', ports: [{port: 80, protocol: 'TCP'}]}]}},
    }
    const problems: Problem[] = []
    const ctx = new Ctx({raw, locator: {format: 'json'}} as unknown as SourceObject, problems, 'Service')
    const svc = readService(ctx, {namespace: 'shop', name: 'web'} as unknown as Meta, raw, false)
    expect(problems.map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual([
      'spec.type: unsupported Service type "Weird"',
      'spec.ports.1: expected a mapping, got 5',
      'spec.ports.0.port: expected an integer, got "x"',
      'spec.ports.0.port: port is required',
      'spec.ports.0.name: expected a string, got 3',
      'spec.ports.2.protocol: unsupported protocol "FOO"',
      'spec.ports.5.targetPort: expected an integer, got 0',
      'spec.ipFamilies.0: unsupported IP family "IPv5"',
      'spec.publishNotReadyAddresses: expected true or false, got "yes"',
      'metadata.finalizers.1: expected a string, got 7',
    ])
    expect(svc.ports).toEqual([
      {name: '', protocol: 'TCP', port: 0, targetPort: 0},
      {name: '', protocol: 'FOO', port: 80, targetPort: 8080, nodePort: 30000},
      {name: '', protocol: 'TCP', port: 81, targetPort: 'web', appProtocol: 'http'},
      {name: '', protocol: 'TCP', port: 82, targetPort: 82},
    ])
    expect(svc).toMatchObject({type: 'Weird', selector: {app: 'web'}, clusterIP: 'None', headless: true, ipFamilies: ['IPv5'], publishNotReadyAddresses: false})
    expect(svc.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup', ''])
    expect(svc.ingress).toEqual(raw.status.loadBalancer.ingress)
    expect(svc.ingress[0]).not.toBe(raw.status.loadBalancer.ingress[0])
    expect(Object.keys(svc).slice(-3)).toEqual(['loadBalancerClass', 'healthCheckNodePort', 'trafficDistribution'])
  })
})

describe('views of Services, slices and Endpoints', () => {
  it("carry the object's metadata fields first, in order, then their own, with the values read", () => {
    const meta: Meta = {
      namespace: 'shop', name: 'web', uid: 'u', resourceVersion: '7', generation: 2, labels: {app: 'web'}, annotations: {a: 'b'},
      ownerReferences: [], creationTimestamp: '2026-11-20T00:00:00Z', deletionTimestamp: undefined,
    }
    const ctx = (raw: object) => new Ctx({raw, locator: {format: 'json'}} as unknown as SourceObject, [], 'Service')
    const service = {spec: {selector: {app: 'web'}, ports: [{port: 80}], trafficDistribution: 'PreferClose'}}
    const slice = {addressType: 'IPv4', endpoints: [], ports: []}
    const endpoints = {subsets: []}
    const metaKeys = Object.keys(meta)
    const views = [readService(ctx(service), meta, service, false), readEndpointSlice(ctx(slice), meta, slice), readEndpoints(ctx(endpoints), meta, endpoints)]
    expect(views.map((v) => Object.keys(v).slice(metaKeys.length))).toEqual([
      ['kind', 'apiVersion', 'type', 'selector', 'clusterIP', 'headless', 'ipFamilies', 'ports', 'publishNotReadyAddresses', 'finalizers', 'ingress', 'trafficDistribution'],
      ['addressType', 'endpoints', 'ports'],
      ['subsets'],
    ])
    for (const v of views) {
      expect(Object.keys(v).slice(0, metaKeys.length)).toEqual(metaKeys)
      expect(v).toMatchObject(meta)
    }
  })
})

describe("the planner's pod index", () => {
  const pods = [
    POD('p1', {labels: '{app: web, tier: front}', ip: '10.0.0.1'}),
    POD('p2', {labels: '{app: web}', ip: '10.0.0.2'}),
    POD('p3', {labels: '{tier: front}', ip: '10.0.0.3'}),
    POD('p4', {labels: '{app: web, tier: front, extra: "1"}', ip: '10.0.0.4'}),
    POD('p5', {labels: '{app: db, tier: front}', ip: '10.0.0.5'}),
  ]
  it.each([
    ['one label', '{app: web}', ['p1', 'p2', 'p4']],
    ['two labels, the rarer looked up first', '{app: web, tier: front}', ['p1', 'p4']],
    ['a label no pod has', '{missing: x}', []],
    ['a label of the prototype', '{constructor: x}', []],
    ['no label: every pod of the namespace', '{}', ['p1', 'p2', 'p3', 'p4', 'p5']],
  ])('%s', async (_, selector, want) => {
    const plan = await computePlan({filename: [file([...pods, SERVICE('web', selector), SERVICE('other', '{tier: front}')].join('---\n'))], now: NOW})
    const web = plan.controllers.find((c) => c.kind === 'Service' && c.name === 'web')!
    expect(web.service!.pods.map((p) => p.pod)).toEqual(want)
    const other = plan.controllers.find((c) => c.kind === 'Service' && c.name === 'other')!
    expect(other.service!.pods.map((p) => p.pod)).toEqual(['p1', 'p3', 'p4', 'p5'])
  })
})
