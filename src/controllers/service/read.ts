// Services, EndpointSlices, Endpoints and what a pod contributes to them, as the API server
// stores them: defaulted as SetDefaults_Service does (pkg/apis/core/v1/defaults.go) and checked
// where the endpoint and load-balancer controllers read them.
import type {IntOrString} from '../../model/objects.js'
import type {
  ContainerPortView,
  EndpointAddressView,
  EndpointConditions,
  EndpointPortView,
  EndpointSliceView,
  EndpointsView,
  EndpointSubsetView,
  EndpointView,
  LoadBalancerIngress,
  PodNetworkView,
  PodRef,
  ServicePortView,
  ServiceView,
} from './model.js'
import {type Ctx, EMPTY_RAW as EMPTY, isMapping} from '../../sources/context.js'
import type {Path, RawObject} from '../../sources/documents.js'
import {type KindReader, type Meta, type PodFieldsReader, viewOf} from '../../sources/part.js'

/** What the Service controllers read: every Service of the namespace read, and its slices and Endpoints. */
export const SERVICE_READS: readonly KindReader[] = [
  {
    kind: 'Service',
    group: '',
    version: 'v1',
    readsNodes: serviceReadsNodes,
    read({ctx, fields, meta, raw, wanted, planned, located, collect}) {
      const svc = readService(ctx, meta, raw, fields.serverDefaulted)
      // Every Service is kept (its Endpoints object is not a leftover whatever -l says); `planned` marks those planned.
      if (wanted()) collect('services', located(planned() ? svc : Object.assign(svc, {notPlanned: true as const})))
    },
  },
  {
    kind: 'Endpoints',
    group: '',
    version: 'v1',
    read({ctx, meta, raw, wanted, collect}) {
      const endpoints = readEndpoints(ctx, meta, raw)
      if (wanted()) collect('endpoints', endpoints)
    },
  },
  {
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    version: 'v1',
    read({ctx, meta, raw, wanted, collect}) {
      const slice = readEndpointSlice(ctx, meta, raw)
      if (wanted()) collect('endpointSlices', slice)
    },
  },
]

/**
 * A pod's IPs, named ports and hostname, which only the endpoint controllers read: kept only in a
 * world that may hold a Service (without one they plan nothing from pods). The fields are read and
 * checked on every pod all the same (for the problems); the world is asked only about a pod that
 * has some.
 */
export const readServicePodFields: PodFieldsReader = (ctx, _meta, _raw, spec, status, input) => {
  const network = readPodNetwork(ctx, spec, status)
  return network === undefined || !input.mayHold('Service') ? undefined : {network}
}
const PORT_MAX = 65535
const PROTOCOLS = ['TCP', 'UDP', 'SCTP']

/** A list field: its mappings with their paths (a non-list or a non-mapping item is a problem). */
function items(ctx: Ctx, v: unknown, path: Path): {item: RawObject; path: Path}[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(path, 'expected a list')
    return []
  }
  const out: {item: RawObject; path: Path}[] = []
  v.forEach((x, i) => {
    const m = ctx.mapping(x, [...path, i])
    if (m) out.push({item: m, path: [...path, i]})
  })
  return out
}

function strings(ctx: Ctx, v: unknown, path: Path): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(path, 'expected a list of strings')
    return []
  }
  return v.map((x, i) => ctx.string(x, [...path, i]) ?? '')
}

function protocol(ctx: Ctx, v: unknown, path: Path): string {
  const p = ctx.string(v, path) ?? 'TCP'
  if (!PROTOCOLS.includes(p)) ctx.fail(path, `unsupported protocol ${JSON.stringify(p)}`, 'use TCP, UDP or SCTP')
  return p
}

// The paths of a Service's fields (made once: they are on every Service).
const S = {
  spec: Object.freeze(['spec']),
  status: Object.freeze(['status']),
  metadata: Object.freeze(['metadata']),
  type: Object.freeze(['spec', 'type']),
  selector: Object.freeze(['spec', 'selector']),
  ports: Object.freeze(['spec', 'ports']),
  clusterIP: Object.freeze(['spec', 'clusterIP']),
  ipFamilies: Object.freeze(['spec', 'ipFamilies']),
  publishNotReadyAddresses: Object.freeze(['spec', 'publishNotReadyAddresses']),
  loadBalancerClass: Object.freeze(['spec', 'loadBalancerClass']),
  externalTrafficPolicy: Object.freeze(['spec', 'externalTrafficPolicy']),
  healthCheckNodePort: Object.freeze(['spec', 'healthCheckNodePort']),
  trafficDistribution: Object.freeze(['spec', 'trafficDistribution']),
  loadBalancer: Object.freeze(['status', 'loadBalancer']),
  ingress: Object.freeze(['status', 'loadBalancer', 'ingress']),
  finalizers: Object.freeze(['metadata', 'finalizers']),
} satisfies Record<string, Path>

const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']

/** A selector (its endpoints' zones; even an empty one is a selector), or type LoadBalancer (its hosts). */
function serviceReadsNodes(raw: RawObject): boolean {
  const spec = raw.spec
  return !isMapping(spec) || (spec.selector !== undefined && spec.selector !== null) || spec.type === 'LoadBalancer'
}

export function readService(ctx: Ctx, meta: Meta, raw: RawObject, serverDefaulted: boolean): ServiceView {
  const spec = ctx.mapping(raw.spec, S.spec) ?? EMPTY
  const status = ctx.mapping(raw.status, S.status) ?? EMPTY
  const type = ctx.string(spec.type, S.type) ?? 'ClusterIP'
  if (!SERVICE_TYPES.includes(type)) {
    ctx.fail(S.type, `unsupported Service type ${JSON.stringify(type)}`, 'use ClusterIP, NodePort, LoadBalancer or ExternalName')
  }
  const selector = spec.selector === undefined || spec.selector === null ? null : ctx.labels(spec.selector, S.selector)
  const ports = servicePorts(ctx, spec.ports)
  const lb = ctx.mapping(status.loadBalancer, S.loadBalancer) ?? EMPTY
  const ingress: LoadBalancerIngress[] = lb.ingress === undefined || lb.ingress === null ? [] : items(ctx, lb.ingress, S.ingress).map(({item}) => JSON.parse(JSON.stringify(item)) as LoadBalancerIngress)
  const clusterIP = ctx.string(spec.clusterIP, S.clusterIP) ?? ''
  const meta2 = ctx.mapping(raw.metadata, S.metadata) ?? EMPTY
  const view: ServiceView = viewOf(meta, {
    kind: 'Service' as const,
    apiVersion: 'v1',
    type,
    selector,
    clusterIP,
    headless: clusterIP === 'None' || (clusterIP === '' && (serverDefaulted || type === 'ExternalName')),
    ipFamilies: ipFamilies(ctx, spec, clusterIP, type, serverDefaulted),
    ports,
    publishNotReadyAddresses: ctx.bool(spec.publishNotReadyAddresses, S.publishNotReadyAddresses) ?? false,
    finalizers: meta2.finalizers === undefined || meta2.finalizers === null ? [] : strings(ctx, meta2.finalizers, S.finalizers),
    ingress,
  })
  // The optional fields, set only when read (in this order).
  const loadBalancerClass = ctx.string(spec.loadBalancerClass, S.loadBalancerClass)
  const externalTrafficPolicy = ctx.string(spec.externalTrafficPolicy, S.externalTrafficPolicy)
  const healthCheckNodePort = ctx.int(spec.healthCheckNodePort, S.healthCheckNodePort, 0, PORT_MAX)
  const trafficDistribution = ctx.string(spec.trafficDistribution, S.trafficDistribution)
  if (loadBalancerClass !== undefined) view.loadBalancerClass = loadBalancerClass
  if (externalTrafficPolicy !== undefined) view.externalTrafficPolicy = externalTrafficPolicy
  if (healthCheckNodePort !== undefined) view.healthCheckNodePort = healthCheckNodePort
  if (trafficDistribution !== undefined) view.trafficDistribution = trafficDistribution
  return view
}

/** spec.ports, defaulted (SetDefaults_Service: an unset or zero targetPort is the port); a port's path is made only for a problem. */
function servicePorts(ctx: Ctx, v: unknown): ServicePortView[] {
  const xs = list(ctx, v, S.ports)
  // Every item that is not a mapping is a problem before any item's fields are.
  for (let i = 0; i < xs.length; i++) if (!isMapping(xs[i])) ctx.mapping(xs[i], [...S.ports, i])
  const out: ServicePortView[] = []
  for (let i = 0; i < xs.length; i++) {
    const item = xs[i]
    if (!isMapping(item)) continue
    const port = int3(ctx, item.port, S.ports, i, 'port', 1)
    if (port === undefined) ctx.fail([...S.ports, i, 'port'], 'port is required')
    const p: ServicePortView = {
      name: str3(ctx, item.name, S.ports, i, 'name') ?? '',
      protocol: protocol3(ctx, item.protocol, S.ports, i, 'protocol'),
      port: port ?? 0,
      targetPort: targetPort(ctx, item.targetPort, i) || (port ?? 0),
    }
    const nodePort = int3(ctx, item.nodePort, S.ports, i, 'nodePort', 0)
    if (nodePort) p.nodePort = nodePort
    const appProtocol = str3(ctx, item.appProtocol, S.ports, i, 'appProtocol')
    if (appProtocol !== undefined) p.appProtocol = appProtocol
    out.push(p)
  }
  return out
}

/** spec.ports[i].targetPort: a number, a string of digits read as one, or a port name. */
function targetPort(ctx: Ctx, v: unknown, i: number): IntOrString | undefined {
  if (typeof v === 'string') return /^\d+$/.test(v) ? Number(v) : v
  return int3(ctx, v, S.ports, i, 'targetPort', 1)
}

/**
 * spec.ipFamilies; a file's Service without them gets what the API server gives it on a
 * single-stack cluster: its clusterIP's family, IPv4 otherwise. ExternalName Services have none.
 */
function ipFamilies(ctx: Ctx, spec: RawObject, clusterIP: string, type: string, serverDefaulted: boolean): string[] {
  const read = strings(ctx, spec.ipFamilies, ['spec', 'ipFamilies'])
  read.forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') ctx.fail(['spec', 'ipFamilies', i], `unsupported IP family ${JSON.stringify(f)}`, 'use IPv4 or IPv6')
  })
  if (read.length > 0 || serverDefaulted || type === 'ExternalName') return read
  return [clusterIP.includes(':') ? 'IPv6' : 'IPv4']
}

// The readers below are on every pod, slice endpoint and address: a field's path is built only
// when its value is not what is expected (the checks, and so the problems, come in the same order).

/** A list field as a list (anything else but null is a problem, read as empty). */
function list(ctx: Ctx, v: unknown, path: Path): readonly unknown[] {
  if (Array.isArray(v)) return v
  if (v !== undefined && v !== null) ctx.fail(path, 'expected a list')
  return EMPTY_LIST
}

const EMPTY_LIST: readonly unknown[] = Object.freeze([])

/** Item `i` of a list as a mapping (anything else but null is a problem, and skipped). */
const item = (ctx: Ctx, x: unknown, path: Path, i: number): RawObject | undefined => (isMapping(x) ? x : x === undefined || x === null ? undefined : ctx.mapping(x, [...path, i]))

function endpointPorts(ctx: Ctx, v: unknown, path: Path): EndpointPortView[] {
  const xs = list(ctx, v, path)
  const out: EndpointPortView[] = []
  for (let i = 0; i < xs.length; i++) {
    const m = item(ctx, xs[i], path, i)
    if (!m) continue
    const port: EndpointPortView = {
      name: str3(ctx, m.name, path, i, 'name') ?? '',
      port: int3(ctx, m.port, path, i, 'port', 0) ?? 0,
      protocol: protocol3(ctx, m.protocol, path, i, 'protocol'),
    }
    const appProtocol = str3(ctx, m.appProtocol, path, i, 'appProtocol')
    if (appProtocol !== undefined) port.appProtocol = appProtocol
    out.push(port)
  }
  return out
}

/** protocol() at `base[i].field`. */
const protocol3 = (ctx: Ctx, v: unknown, base: Path, i: number, field: string): string =>
  v === undefined || v === null ? 'TCP' : v === 'TCP' || v === 'UDP' || v === 'SCTP' ? v : protocol(ctx, v, [...base, i, field])

/** A port number (ctx.int up to PORT_MAX) at `base[i].field`. */
const int3 = (ctx: Ctx, v: unknown, base: Path, i: number, field: string, min: number): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= PORT_MAX ? v : v === undefined || v === null ? undefined : ctx.int(v, [...base, i, field], min, PORT_MAX)

function set<T extends object, K extends keyof T>(o: T, key: K, v: T[K] | undefined): void {
  if (v !== undefined) o[key] = v
}

/** A list of strings at `path` (a non-string item is a problem, read as ''). */
function stringList(ctx: Ctx, v: unknown, path: Path): string[] {
  if (v !== undefined && v !== null && !Array.isArray(v)) ctx.fail(path, 'expected a list of strings')
  const xs = Array.isArray(v) ? v : EMPTY_LIST
  const out: string[] = []
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]
    out.push(typeof x === 'string' ? x : (ctx.string(x, [...path, i]) ?? ''))
  }
  return out
}

export function readEndpointSlice(ctx: Ctx, meta: Meta, raw: RawObject): EndpointSliceView {
  const addressType = ctx.string(raw.addressType, ['addressType']) ?? ''
  if (!['IPv4', 'IPv6', 'FQDN'].includes(addressType)) ctx.fail(['addressType'], `unsupported addressType ${JSON.stringify(addressType)}`, 'use IPv4, IPv6 or FQDN')
  const base: Path = ['endpoints']
  const xs = list(ctx, raw.endpoints, base)
  const endpoints: EndpointView[] = []
  for (let i = 0; i < xs.length; i++) {
    const m = item(ctx, xs[i], base, i)
    if (!m) continue
    const rc = m.conditions
    const c = isMapping(rc) ? rc : rc === undefined || rc === null ? EMPTY : (ctx.mapping(rc, [...base, i, 'conditions']) ?? EMPTY)
    const ready = bool4(ctx, c.ready, base, i, 'conditions', 'ready')
    const serving = bool4(ctx, c.serving, base, i, 'conditions', 'serving')
    const terminating = bool4(ctx, c.terminating, base, i, 'conditions', 'terminating')
    const conditions = READ_CONDITIONS[tri(ready) * 9 + tri(serving) * 3 + tri(terminating)]
    const addresses = m.addresses
    const list = isStrings(addresses) ? addresses : stringList(ctx, addresses, [...base, i, 'addresses'])
    const hostname = str3(ctx, m.hostname, base, i, 'hostname')
    const nodeName = str3(ctx, m.nodeName, base, i, 'nodeName')
    const zone = str3(ctx, m.zone, base, i, 'zone')
    const targetRef = m.targetRef !== undefined && m.targetRef !== null ? podRefAt(ctx, m.targetRef, base, i) : undefined
    let ep: EndpointView
    // The usual endpoint (a node, a zone and a reference, no hostname) made whole at once, its fields in the same order.
    if (hostname === undefined && nodeName !== undefined && zone !== undefined && targetRef !== undefined) ep = {addresses: list, conditions, nodeName, zone, targetRef}
    else {
      ep = {addresses: list, conditions}
      if (hostname !== undefined) ep.hostname = hostname
      if (nodeName !== undefined) ep.nodeName = nodeName
      if (zone !== undefined) ep.zone = zone
      if (targetRef !== undefined) ep.targetRef = targetRef
    }
    if (isMapping(m.hints)) ep.hints = JSON.parse(JSON.stringify(m.hints)) as EndpointView['hints']
    endpoints.push(ep)
  }
  const ports = endpointPorts(ctx, raw.ports, ['ports'])
  return viewOf(meta, {addressType, endpoints, ports})
}

/** Unset, false, true. */
const tri = (b: boolean | undefined): number => (b === undefined ? 0 : b ? 2 : 1)

/**
 * Every set of conditions a slice's endpoint can be read with, shared (nothing changes them): at
 * tri(ready)·9 + tri(serving)·3 + tri(terminating), each condition set only when read.
 */
const READ_CONDITIONS: readonly EndpointConditions[] = Array.from({length: 27}, (_, i) => {
  const out: EndpointConditions = {}
  const b = [undefined, false, true] as const
  set(out, 'ready', b[Math.floor(i / 9)])
  set(out, 'serving', b[Math.floor(i / 3) % 3])
  set(out, 'terminating', b[i % 3])
  return Object.freeze(out)
})

/** ctx.string at `base[i].field`. */
const str3 = (ctx: Ctx, v: unknown, base: Path, i: number, field: string): string | undefined =>
  typeof v === 'string' ? v : v === undefined || v === null ? undefined : ctx.string(v, [...base, i, field])

/** ctx.string at `base[i].mid.field`. */
const str4 = (ctx: Ctx, v: unknown, base: Path, i: number, mid: string, field: string): string | undefined =>
  typeof v === 'string' ? v : v === undefined || v === null ? undefined : ctx.string(v, [...base, i, mid, field])

/** ctx.bool at `base[i].mid.field`. */
const bool4 = (ctx: Ctx, v: unknown, base: Path, i: number, mid: string, field: string): boolean | undefined =>
  typeof v === 'boolean' ? v : v === undefined || v === null ? undefined : ctx.bool(v, [...base, i, mid, field])

/** podRef at `base[i].targetRef`. */
function podRefAt(ctx: Ctx, v: unknown, base: Path, i: number): PodRef | undefined {
  const m = isMapping(v) ? v : ctx.mapping(v, [...base, i, 'targetRef'])
  if (!m) return undefined
  if (isPlainRef(m)) return m
  return {
    kind: str4(ctx, m.kind, base, i, 'targetRef', 'kind') ?? '',
    namespace: str4(ctx, m.namespace, base, i, 'targetRef', 'namespace') ?? '',
    name: str4(ctx, m.name, base, i, 'targetRef', 'name') ?? '',
    uid: str4(ctx, m.uid, base, i, 'targetRef', 'uid') ?? '',
  }
}

/**
 * A reference of exactly the four fields, each a string (the usual case): kept as read, since
 * the copy would hold the same and nothing changes either (its fields are compared by name, and
 * the plan writes an object's keys sorted).
 */
function isPlainRef(m: RawObject): m is RawObject & PodRef {
  if (typeof m.kind !== 'string' || typeof m.namespace !== 'string' || typeof m.name !== 'string' || typeof m.uid !== 'string' || Object.getPrototypeOf(m) !== Object.prototype) return false
  let n = 0
  for (const _ in m) n++
  return n === 4
}

/** A list whose items are all strings (kept as read: nothing changes what was read). */
function isStrings(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false
  return true
}

function addresses(ctx: Ctx, v: unknown, path: Path): EndpointAddressView[] {
  const xs = list(ctx, v, path)
  const out: EndpointAddressView[] = []
  for (let i = 0; i < xs.length; i++) {
    const m = item(ctx, xs[i], path, i)
    if (!m) continue
    if (isPlainAddress(m)) {
      out.push(m)
      continue
    }
    const a: EndpointAddressView = {ip: str3(ctx, m.ip, path, i, 'ip') ?? ''}
    set(a, 'hostname', str3(ctx, m.hostname, path, i, 'hostname'))
    set(a, 'nodeName', str3(ctx, m.nodeName, path, i, 'nodeName'))
    if (m.targetRef !== undefined && m.targetRef !== null) set(a, 'targetRef', podRefAt(ctx, m.targetRef, path, i))
    out.push(a)
  }
  return out
}

/** An address of an IP and strings for hostname and nodeName, with a plain reference or none: kept as read (see isPlainRef). */
function isPlainAddress(m: RawObject): m is RawObject & EndpointAddressView {
  if (typeof m.ip !== 'string' || Object.getPrototypeOf(m) !== Object.prototype) return false
  for (const key in m) {
    const v = m[key]
    if (key === 'ip') continue
    if (key === 'hostname' || key === 'nodeName' ? typeof v !== 'string' : key !== 'targetRef' || !isMapping(v) || !isPlainRef(v)) return false
  }
  return true
}

export function readEndpoints(ctx: Ctx, meta: Meta, raw: RawObject): EndpointsView {
  const subsets: EndpointSubsetView[] = items(ctx, raw.subsets, ['subsets']).map(({item, path}) => ({
    addresses: addresses(ctx, item.addresses, [...path, 'addresses']),
    notReadyAddresses: addresses(ctx, item.notReadyAddresses, [...path, 'notReadyAddresses']),
    ports: endpointPorts(ctx, item.ports, [...path, 'ports']),
  }))
  return viewOf(meta, {subsets})
}

const NO_PORTS: readonly ContainerPortView[] = Object.freeze([])
/** The named container ports of the pod being read (its first ones; what follows is left from others). */
const PORTS: ContainerPortView[] = []

/** Writes the named ports of `v`'s containers into `out` from `n` on; how many `out` then holds. */
function containerPorts(ctx: Ctx, v: unknown, path: Path, out: ContainerPortView[], n: number, sidecarsOnly: boolean): number {
  const containers = list(ctx, v, path)
  for (let i = 0; i < containers.length; i++) {
    const c = item(ctx, containers[i], path, i)
    if (!c || (sidecarsOnly && c.restartPolicy !== 'Always')) continue
    const raw = c.ports
    if (raw === undefined || raw === null) continue
    // (This container's ports' path, made only for a container that has ports.)
    const base: Path = [...path, i, 'ports']
    const ports = list(ctx, raw, base)
    for (let j = 0; j < ports.length; j++) {
      const port = item(ctx, ports[j], base, j)
      if (!port) continue
      const name = str3(ctx, port.name, base, j, 'name')
      // FindPort looks ports up by name: unnamed ones can never match a named targetPort.
      if (name === undefined || name === '') continue
      const containerPort = int3(ctx, port.containerPort, base, j, 'containerPort', 1)
      const protocolName = protocol3(ctx, port.protocol, base, j, 'protocol')
      out[n++] = {name, containerPort: containerPort ?? 0, protocol: protocolName}
    }
  }
  return n
}

// The paths of the pod fields read (made once: they are on every pod).
const POD_IPS: Path = Object.freeze(['status', 'podIPs'])
const POD_IP: Path = Object.freeze(['status', 'podIP'])
const CONTAINERS: Path = Object.freeze(['spec', 'containers'])
const INIT_CONTAINERS: Path = Object.freeze(['spec', 'initContainers'])
const HOSTNAME: Path = Object.freeze(['spec', 'hostname'])
const SUBDOMAIN: Path = Object.freeze(['spec', 'subdomain'])

/** Undefined when the pod has nothing a Service reads (no IP, no named port, no hostname). */
export function readPodNetwork(ctx: Ctx, spec: RawObject, status: RawObject): PodNetworkView | undefined {
  const rawIPs = list(ctx, status.podIPs, POD_IPS)
  let ips: string[] | undefined
  for (let i = 0; i < rawIPs.length; i++) {
    const m = item(ctx, rawIPs[i], POD_IPS, i)
    if (!m) continue
    const ip = str3(ctx, m.ip, POD_IPS, i, 'ip') ?? ''
    // The list is kept: made at its size for one IP (the usual case), not grown from empty,
    // which leaves room for 16 more.
    if (ips === undefined) ips = [ip]
    else ips.push(ip)
  }
  const podIP = ctx.string(status.podIP, POD_IP)
  // The API server keeps podIP and podIPs[0] equal; a file may give only podIP.
  const podIPs = ips ? ips : podIP ? [podIP] : []
  // (Collected in one list for every pod, its first `count`: what is kept is a shared list or a copy.)
  let count = containerPorts(ctx, spec.containers, CONTAINERS, PORTS, 0, false)
  if (spec.initContainers !== undefined) count = containerPorts(ctx, spec.initContainers, INIT_CONTAINERS, PORTS, count, true)
  const hostname = ctx.string(spec.hostname, HOSTNAME) ?? ''
  const subdomain = ctx.string(spec.subdomain, SUBDOMAIN) ?? ''
  if (podIPs.length === 0 && count === 0 && hostname === '') return undefined
  if (ctx.copy) for (let i = 0; i < podIPs.length; i++) podIPs[i] = ctx.own(podIPs[i])
  return {podIPs, hostname: ctx.own(hostname), subdomain: ctx.own(subdomain), ports: sharedPorts(ctx, PORTS, count)}
}

/**
 * A pod's ports, shared with the pods that name the same ones (a template's pods all do; nothing
 * changes them). Only lists of one port are shared; the table is emptied when it grows large.
 */
function sharedPorts(ctx: Ctx, ports: readonly ContainerPortView[], count: number): readonly ContainerPortView[] {
  if (count === 0) return NO_PORTS
  if (count > 1) return ports.slice(0, count)
  const p = ports[0]
  let named = ONE_PORT.get(p.name)
  if (!named) {
    if (ONE_PORT.size >= ONE_PORT_NAMES) ONE_PORT.clear()
    ONE_PORT.set(p.name, (named = []))
  }
  for (const list of named) if (list[0].containerPort === p.containerPort && list[0].protocol === p.protocol) return list
  const list = Object.freeze([Object.freeze({name: ctx.own(p.name), containerPort: p.containerPort, protocol: p.protocol})])
  if (named.length < ONE_PORT_PER_NAME) named.push(list)
  return list
}

/** Port name → the one-port lists shared under it. */
const ONE_PORT = new Map<string, (readonly ContainerPortView[])[]>()
const ONE_PORT_NAMES = 1024
const ONE_PORT_PER_NAME = 16
