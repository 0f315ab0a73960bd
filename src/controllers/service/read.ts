// Services, EndpointSlices, Endpoints and what a pod contributes to them, as the API server
// stores them: defaulted as SetDefaults_Service does (pkg/apis/core/v1/defaults.go) and checked
// where the endpoint and load-balancer controllers read them.
import type {IntOrString} from '../../model/objects.js'
import type {
  ContainerPortView,
  EndpointAddressView,
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
import type {KindReader, Meta, PodFieldsReader} from '../../sources/part.js'

/** What the Service controllers read: every Service of the namespace read, and its slices and Endpoints. */
export const SERVICE_READS: readonly KindReader[] = [
  {
    kind: 'Service',
    group: '',
    version: 'v1',
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

/** A pod's IPs, named ports and hostname, which only the endpoint controllers read. */
export const readServicePodFields: PodFieldsReader = (ctx, _meta, _raw, spec, status) => {
  const network = readPodNetwork(ctx, spec, status)
  return network === undefined ? undefined : {network}
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

function intOrString(ctx: Ctx, v: unknown, path: Path): IntOrString | undefined {
  if (typeof v === 'string') return /^\d+$/.test(v) ? Number(v) : v
  return ctx.int(v, path, 1, PORT_MAX)
}

export function readService(ctx: Ctx, meta: Meta, raw: RawObject, serverDefaulted: boolean): ServiceView {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY
  const type = ctx.string(spec.type, ['spec', 'type']) ?? 'ClusterIP'
  if (!['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'].includes(type)) {
    ctx.fail(['spec', 'type'], `unsupported Service type ${JSON.stringify(type)}`, 'use ClusterIP, NodePort, LoadBalancer or ExternalName')
  }
  const selector = spec.selector === undefined || spec.selector === null ? null : ctx.labels(spec.selector, ['spec', 'selector'])
  const ports: ServicePortView[] = items(ctx, spec.ports, ['spec', 'ports']).map(({item, path}) => {
    const port = ctx.int(item.port, [...path, 'port'], 1, PORT_MAX)
    if (port === undefined) ctx.fail([...path, 'port'], 'port is required')
    const out: ServicePortView = {
      name: ctx.string(item.name, [...path, 'name']) ?? '',
      protocol: protocol(ctx, item.protocol, [...path, 'protocol']),
      port: port ?? 0,
      // SetDefaults_Service: an unset (or zero) targetPort is the port.
      targetPort: intOrString(ctx, item.targetPort, [...path, 'targetPort']) || (port ?? 0),
    }
    const nodePort = ctx.int(item.nodePort, [...path, 'nodePort'], 0, PORT_MAX)
    if (nodePort) out.nodePort = nodePort
    const appProtocol = ctx.string(item.appProtocol, [...path, 'appProtocol'])
    if (appProtocol !== undefined) out.appProtocol = appProtocol
    return out
  })
  const lb = ctx.mapping(status.loadBalancer, ['status', 'loadBalancer']) ?? EMPTY
  const ingress: LoadBalancerIngress[] = items(ctx, lb.ingress, ['status', 'loadBalancer', 'ingress']).map(({item}) => JSON.parse(JSON.stringify(item)) as LoadBalancerIngress)
  const clusterIP = ctx.string(spec.clusterIP, ['spec', 'clusterIP']) ?? ''
  const meta2 = ctx.mapping(raw.metadata, ['metadata']) ?? EMPTY
  const view: ServiceView = {
    ...meta,
    kind: 'Service',
    apiVersion: 'v1',
    type,
    selector,
    clusterIP,
    headless: clusterIP === 'None' || (clusterIP === '' && (serverDefaulted || type === 'ExternalName')),
    ipFamilies: ipFamilies(ctx, spec, clusterIP, type, serverDefaulted),
    ports,
    publishNotReadyAddresses: ctx.bool(spec.publishNotReadyAddresses, ['spec', 'publishNotReadyAddresses']) ?? false,
    finalizers: strings(ctx, meta2.finalizers, ['metadata', 'finalizers']),
    ingress,
  }
  const optional = {
    loadBalancerClass: ctx.string(spec.loadBalancerClass, ['spec', 'loadBalancerClass']),
    externalTrafficPolicy: ctx.string(spec.externalTrafficPolicy, ['spec', 'externalTrafficPolicy']),
    healthCheckNodePort: ctx.int(spec.healthCheckNodePort, ['spec', 'healthCheckNodePort'], 0, PORT_MAX),
    trafficDistribution: ctx.string(spec.trafficDistribution, ['spec', 'trafficDistribution']),
  }
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) (view as unknown as Record<string, unknown>)[k] = v
  return view
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

function podRef(ctx: Ctx, v: unknown, path: Path): PodRef | undefined {
  const m = ctx.mapping(v, path)
  if (!m) return undefined
  return {
    kind: ctx.string(m.kind, [...path, 'kind']) ?? '',
    namespace: ctx.string(m.namespace, [...path, 'namespace']) ?? '',
    name: ctx.string(m.name, [...path, 'name']) ?? '',
    uid: ctx.string(m.uid, [...path, 'uid']) ?? '',
  }
}

function endpointPorts(ctx: Ctx, v: unknown, path: Path): EndpointPortView[] {
  return items(ctx, v, path).map(({item, path: p}) => {
    const out: EndpointPortView = {
      name: ctx.string(item.name, [...p, 'name']) ?? '',
      port: ctx.int(item.port, [...p, 'port'], 0, PORT_MAX) ?? 0,
      protocol: protocol(ctx, item.protocol, [...p, 'protocol']),
    }
    const appProtocol = ctx.string(item.appProtocol, [...p, 'appProtocol'])
    if (appProtocol !== undefined) out.appProtocol = appProtocol
    return out
  })
}

function set<T extends object, K extends keyof T>(o: T, key: K, v: T[K] | undefined): void {
  if (v !== undefined) o[key] = v
}

export function readEndpointSlice(ctx: Ctx, meta: Meta, raw: RawObject): EndpointSliceView {
  const addressType = ctx.string(raw.addressType, ['addressType']) ?? ''
  if (!['IPv4', 'IPv6', 'FQDN'].includes(addressType)) ctx.fail(['addressType'], `unsupported addressType ${JSON.stringify(addressType)}`, 'use IPv4, IPv6 or FQDN')
  const endpoints = items(ctx, raw.endpoints, ['endpoints']).map(({item, path}) => {
    const c = ctx.mapping(item.conditions, [...path, 'conditions']) ?? EMPTY
    const conditions = {}
    set(conditions as Record<string, boolean>, 'ready', ctx.bool(c.ready, [...path, 'conditions', 'ready']))
    set(conditions as Record<string, boolean>, 'serving', ctx.bool(c.serving, [...path, 'conditions', 'serving']))
    set(conditions as Record<string, boolean>, 'terminating', ctx.bool(c.terminating, [...path, 'conditions', 'terminating']))
    const ep: EndpointView = {addresses: strings(ctx, item.addresses, [...path, 'addresses']), conditions}
    set(ep, 'hostname', ctx.string(item.hostname, [...path, 'hostname']))
    set(ep, 'nodeName', ctx.string(item.nodeName, [...path, 'nodeName']))
    set(ep, 'zone', ctx.string(item.zone, [...path, 'zone']))
    if (item.targetRef !== undefined && item.targetRef !== null) set(ep, 'targetRef', podRef(ctx, item.targetRef, [...path, 'targetRef']))
    if (isMapping(item.hints)) ep.hints = JSON.parse(JSON.stringify(item.hints)) as EndpointView['hints']
    return ep
  })
  return {...meta, addressType, endpoints, ports: endpointPorts(ctx, raw.ports, ['ports'])}
}

function addresses(ctx: Ctx, v: unknown, path: Path): EndpointAddressView[] {
  return items(ctx, v, path).map(({item, path: p}) => {
    const a: EndpointAddressView = {ip: ctx.string(item.ip, [...p, 'ip']) ?? ''}
    set(a, 'hostname', ctx.string(item.hostname, [...p, 'hostname']))
    set(a, 'nodeName', ctx.string(item.nodeName, [...p, 'nodeName']))
    if (item.targetRef !== undefined && item.targetRef !== null) set(a, 'targetRef', podRef(ctx, item.targetRef, [...p, 'targetRef']))
    return a
  })
}

export function readEndpoints(ctx: Ctx, meta: Meta, raw: RawObject): EndpointsView {
  const subsets: EndpointSubsetView[] = items(ctx, raw.subsets, ['subsets']).map(({item, path}) => ({
    addresses: addresses(ctx, item.addresses, [...path, 'addresses']),
    notReadyAddresses: addresses(ctx, item.notReadyAddresses, [...path, 'notReadyAddresses']),
    ports: endpointPorts(ctx, item.ports, [...path, 'ports']),
  }))
  return {...meta, subsets}
}

const NO_PORTS: readonly ContainerPortView[] = Object.freeze([])

function containerPorts(ctx: Ctx, v: unknown, path: Path, out: ContainerPortView[], only?: (c: RawObject) => boolean): void {
  for (const {item, path: p} of items(ctx, v, path)) {
    if (only && !only(item)) continue
    for (const {item: port, path: pp} of items(ctx, item.ports, [...p, 'ports'])) {
      const name = ctx.string(port.name, [...pp, 'name'])
      // FindPort looks ports up by name: unnamed ones can never match a named targetPort.
      if (name === undefined || name === '') continue
      out.push({name, containerPort: ctx.int(port.containerPort, [...pp, 'containerPort'], 1, PORT_MAX) ?? 0, protocol: protocol(ctx, port.protocol, [...pp, 'protocol'])})
    }
  }
}

/** Undefined when the pod has nothing a Service reads (no IP, no named port, no hostname). */
export function readPodNetwork(ctx: Ctx, spec: RawObject, status: RawObject): PodNetworkView | undefined {
  const ips = items(ctx, status.podIPs, ['status', 'podIPs']).map(({item, path}) => ctx.string(item.ip, [...path, 'ip']) ?? '')
  const podIP = ctx.string(status.podIP, ['status', 'podIP'])
  // The API server keeps podIP and podIPs[0] equal; a file may give only podIP.
  const podIPs = ips.length > 0 ? ips : podIP ? [podIP] : []
  const ports: ContainerPortView[] = []
  containerPorts(ctx, spec.containers, ['spec', 'containers'], ports)
  containerPorts(ctx, spec.initContainers, ['spec', 'initContainers'], ports, (c) => c.restartPolicy === 'Always')
  const hostname = ctx.string(spec.hostname, ['spec', 'hostname']) ?? ''
  const subdomain = ctx.string(spec.subdomain, ['spec', 'subdomain']) ?? ''
  if (podIPs.length === 0 && ports.length === 0 && hostname === '') return undefined
  return {podIPs: podIPs.map((ip) => ctx.own(ip)), hostname: ctx.own(hostname), subdomain: ctx.own(subdomain), ports: ports.length > 0 ? ports : NO_PORTS}
}
