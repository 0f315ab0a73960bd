// What the EndpointSlice and the legacy Endpoints controllers share: which pods a Service selects
// and may list (ShouldPodBeInEndpoints), which port a targetPort names on a pod (FindPort), the
// address families and the labels they write (staging k8s.io/endpointslice utils.go,
// pkg/api/v1/endpoints).
import type {Labels, PodView} from '../../model/objects.js'
import type {EndpointExclusion, EndpointPortView, ServicePortView, ServiceView} from './model.js'

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name'
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by'
export const SLICE_CONTROLLER = 'endpointslice-controller.k8s.io'
export const HEADLESS_LABEL = 'service.kubernetes.io/headless'
export const ZONE_LABEL = 'topology.kubernetes.io/zone'
export const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time'

/** isServiceIPSet: a cluster IP that is neither None nor empty (see ServiceView.headless). */
export const hasClusterIP = (svc: ServiceView): boolean => !svc.headless

/** The pods a Service selects: same namespace, every selector label equal (labels.Set(selector)). */
export function selectedPods(svc: ServiceView, pods: readonly PodView[]): PodView[] {
  const selector = Object.entries(svc.selector ?? {})
  const out: PodView[] = []
  outer: for (const p of pods) {
    if (p.namespace !== svc.namespace) continue
    for (const [k, v] of selector) if (p.labels[k] !== v) continue outer
    out.push(p)
  }
  return out
}

/** ShouldPodBeInEndpoints: terminal pods and pods with no IP never; terminating ones only when asked. */
export function podExclusion(pod: PodView, includeTerminating: boolean): EndpointExclusion | undefined {
  if (pod.phase === 'Succeeded' || pod.phase === 'Failed') return 'terminal'
  if ((pod.network?.podIPs.length ?? 0) === 0) return 'no-ip'
  if (!includeTerminating && pod.deletionTimestamp !== undefined) return 'terminating'
  return undefined
}

/** IPv6 when the address has a colon (ParseIPSloppy's family), in its canonical short form. */
export function ipFamily(ip: string): 'IPv4' | 'IPv6' {
  return ip.includes(':') && !/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? 'IPv6' : 'IPv4'
}

export function canonicalIP(ip: string): string {
  // Without a colon: an IPv4 address as written.
  if (!ip.includes(':')) return ip
  if (ipFamily(ip) === 'IPv4') return ip.replace(/^::ffff:/i, '')
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1)
  } catch {
    return ip
  }
}

/** The pod's addresses of one family, as written (getEndpointAddresses). */
export function addressesOf(pod: PodView, family: string): readonly string[] {
  const ips = pod.network?.podIPs ?? []
  // Plain IPv4 addresses only (the usual case): the pod's own list, shared (nothing changes it).
  if (family === 'IPv4' && allPlainIPv4(ips)) return ips
  const out: string[] = []
  for (let i = 0; i < ips.length; i++) if (familyOf(ips[i]) === family) out.push(canonicalIP(ips[i]))
  return out
}

/** No colon in any: IPv4 addresses, written as they are. */
function allPlainIPv4(ips: readonly string[]): boolean {
  for (let i = 0; i < ips.length; i++) if (ips[i].includes(':')) return false
  return true
}

/** addressesOf(pod, family)[0], without the list. */
export function firstAddressOf(pod: PodView, family: string): string | undefined {
  const ips = pod.network?.podIPs ?? []
  for (let i = 0; i < ips.length; i++) if (familyOf(ips[i]) === family) return canonicalIP(ips[i])
  return undefined
}

/** ipFamily, a plain IPv4 address (no colon) told at once. */
const familyOf = (ip: string): 'IPv4' | 'IPv6' => (ip.includes(':') ? ipFamily(ip) : 'IPv4')

/**
 * getEndpointPorts / FindPort: per service port, a number as it is, a name looked up among the
 * pod's container ports (then sidecars) by name and protocol; a name not found drops that port
 * for this pod (`missing`).
 */
export function endpointPorts(svc: ServiceView, pod: PodView): ResolvedPorts {
  if (svc.ports.length !== 1) return resolvePorts(svc.ports, svc.ports.map((sp) => targetPortOf(sp, pod)))
  // One Service port (the usual case): the pods that resolve it to the same number share one answer.
  const port = targetPortOf(svc.ports[0], pod)
  // The pods of one Service come in a row: the last Service's answers are at hand.
  let byPort = lastOnePort === svc.ports ? lastByPort : resolvedOnePort.get(svc.ports)
  if (!byPort) resolvedOnePort.set(svc.ports, (byPort = new Map()))
  lastOnePort = svc.ports
  lastByPort = byPort
  let resolved = byPort.get(port)
  if (!resolved) byPort.set(port, (resolved = resolvePorts(svc.ports, [port])))
  return resolved
}

/** What endpointPorts answers; shared between the pods that resolve alike, so never changed. */
export interface ResolvedPorts {
  readonly ports: readonly EndpointPortView[]
  readonly missing: readonly string[]
  /** portsKey(ports). */
  readonly key: string
  /** The resolved port numbers, in the order of `ports`. */
  readonly numbers: readonly number[]
}

const resolvedOnePort = new WeakMap<readonly ServicePortView[], Map<number | undefined, ResolvedPorts>>()
let lastOnePort: readonly ServicePortView[] | undefined
let lastByPort: Map<number | undefined, ResolvedPorts> | undefined

function targetPortOf(sp: ServicePortView, pod: PodView): number | undefined {
  if (typeof sp.targetPort === 'number') return sp.targetPort
  const ports = pod.network?.ports
  if (ports === undefined) return undefined
  for (let i = 0; i < ports.length; i++) if (ports[i].name === sp.targetPort && ports[i].protocol === sp.protocol) return ports[i].containerPort
  return undefined
}

/** The Service ports as resolved (`numbers[i]` for `servicePorts[i]`), keys in sorted order as written out. */
function resolvePorts(servicePorts: readonly ServicePortView[], numbers: readonly (number | undefined)[]): ResolvedPorts {
  const ports: EndpointPortView[] = []
  const missing: string[] = []
  servicePorts.forEach((sp, i) => {
    const port = numbers[i]
    if (port === undefined) missing.push(`${sp.name || sp.port}→${sp.targetPort}/${sp.protocol}`)
    else ports.push({...(sp.appProtocol !== undefined ? {appProtocol: sp.appProtocol} : {}), name: sp.name, port, protocol: sp.protocol})
  })
  return {ports, missing, key: portsKey(ports), numbers: ports.map((p) => p.port)}
}

/** A port list's identity, independent of order (NewPortMapKey hashes the sorted ports). */
export function portsKey(ports: readonly EndpointPortView[]): string {
  if (ports.length === 1) return portsKey1(ports[0])
  return ports.map(portsKey1).sort().join('\u0002')
}

/** portsKey of a list of one port. */
export const portsKey1 = (p: EndpointPortView): string => `${p.name}\u0000${p.port}\u0000${p.protocol}\u0000${p.appProtocol ?? '\u0001'}`

/** Ports in a fixed order (upstream writes them in hash order: compare them as a set). */
export function sortPorts(ports: readonly EndpointPortView[]): EndpointPortView[] {
  if (ports.length < 2) return [...ports]
  return [...ports].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.port - b.port || (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0)))
}

/** ShouldSetHostname: the pod's hostname, when its subdomain is this Service. */
export const hostnameFor = (pod: PodView, svc: ServiceView): string | undefined =>
  pod.network && pod.network.hostname !== '' && pod.network.subdomain === svc.name && pod.namespace === svc.namespace ? pod.network.hostname : undefined

/** The Service's labels without the slice controller's reserved keys. */
export const serviceLabels = (svc: ServiceView, reserved: readonly string[]): Record<string, string> => unreserved(svc.labels, reserved)

/** Labels without the reserved keys. */
export function unreserved(labels: Labels, reserved: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k in labels) if (!reserved.includes(k)) out[k] = labels[k]
  return out
}

export function sameLabels(a: Labels, b: Labels): boolean {
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) if (b[k] !== a[k]) return false
  return true
}

/** The trigger time a fresh controller writes: the Service's creationTimestamp (E9.1). */
export const triggerTime = (svc: ServiceView): string | undefined => svc.creationTimestamp
