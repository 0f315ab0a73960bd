// What the EndpointSlice and the legacy Endpoints controllers share: which pods a Service selects
// and may list (ShouldPodBeInEndpoints), which port a targetPort names on a pod (FindPort), the
// address families and the labels they write (staging k8s.io/endpointslice utils.go,
// pkg/api/v1/endpoints).
import type {Labels, PodView} from '../../model/objects.js'
import type {EndpointExclusion, EndpointPortView, ServiceView} from './model.js'

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
  return pods.filter((p) => p.namespace === svc.namespace && selector.every(([k, v]) => p.labels[k] === v))
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
  if (ipFamily(ip) === 'IPv4') return ip.replace(/^::ffff:/i, '')
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1)
  } catch {
    return ip
  }
}

/** The pod's addresses of one family, as written (getEndpointAddresses). */
export const addressesOf = (pod: PodView, family: string): string[] =>
  (pod.network?.podIPs ?? []).filter((ip) => ipFamily(ip) === family).map(canonicalIP)

/**
 * getEndpointPorts / FindPort: per service port, a number as it is, a name looked up among the
 * pod's container ports (then sidecars) by name and protocol; a name not found drops that port
 * for this pod (`missing`).
 */
export function endpointPorts(svc: ServiceView, pod: PodView): {ports: EndpointPortView[]; missing: string[]} {
  const ports: EndpointPortView[] = []
  const missing: string[] = []
  for (const sp of svc.ports) {
    let port: number | undefined
    if (typeof sp.targetPort === 'number') port = sp.targetPort
    else port = pod.network?.ports.find((cp) => cp.name === sp.targetPort && cp.protocol === sp.protocol)?.containerPort
    if (port === undefined) {
      missing.push(`${sp.name || sp.port}→${sp.targetPort}/${sp.protocol}`)
      continue
    }
    ports.push({name: sp.name, port, protocol: sp.protocol, ...(sp.appProtocol !== undefined ? {appProtocol: sp.appProtocol} : {})})
  }
  return {ports, missing}
}

/** A port list's identity, independent of order (NewPortMapKey hashes the sorted ports). */
export function portsKey(ports: readonly EndpointPortView[]): string {
  return ports
    .map((p) => `${p.name}\u0000${p.port}\u0000${p.protocol}\u0000${p.appProtocol ?? '\u0001'}`)
    .sort()
    .join('\u0002')
}

/** Ports in a fixed order (upstream writes them in hash order: compare them as a set). */
export function sortPorts(ports: readonly EndpointPortView[]): EndpointPortView[] {
  return [...ports].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.port - b.port || (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0)))
}

/** ShouldSetHostname: the pod's hostname, when its subdomain is this Service. */
export const hostnameFor = (pod: PodView, svc: ServiceView): string | undefined =>
  pod.network && pod.network.hostname !== '' && pod.network.subdomain === svc.name && pod.namespace === svc.namespace ? pod.network.hostname : undefined

/** The Service's labels without the slice controller's reserved keys. */
export function serviceLabels(svc: ServiceView, reserved: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(svc.labels)) if (!reserved.includes(k)) out[k] = v
  return out
}

export function sameLabels(a: Labels, b: Labels): boolean {
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k])
}

/** The trigger time a fresh controller writes: the Service's creationTimestamp (E9.1). */
export const triggerTime = (svc: ServiceView): string | undefined => svc.creationTimestamp
