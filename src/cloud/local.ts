// The built-in `local` provider, for clusters with no cloud: a load balancer is an address handed
// out from a pool (--lb-pool CIDR). Its allocations live in one ConfigMap (LOCAL_LB_CONFIGMAP in
// --lb-namespace, kube-system by default), one key per load balancer, holding the Service, the
// address and the hosts last sent. Every change is a read, then a write carrying the
// resourceVersion read (or a create, which fails if another run created it first); a conflict
// reads again. So two runs never hand out one address twice, and a delete frees it.
import type {ApiRequester} from '../apply/cluster-control.js'
import {UserError} from '../errors.js'
import {type CloudNode, type CloudService, CloudProviderError, defaultLoadBalancerName, type LoadBalancerProvider, type LoadBalancerState, type LoadBalancerStatus, type SentHost, serviceKey} from './provider.js'

export const LOCAL_LB_CONFIGMAP = 'kctl-load-balancers'
export const DEFAULT_LB_NAMESPACE = 'kube-system'

/** One load balancer as the ConfigMap keeps it. */
export interface LocalAllocation {
  service: string
  uid: string
  ip: string
  hosts: SentHost[]
}

type Obj = Record<string, any>

/** An IPv4 CIDR, the addresses it hands out (not its network and broadcast address when it has more than two). */
export interface Pool {
  cidr: string
  first: number
  last: number
}

export function parsePool(cidr: string): Pool {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr.trim())
  const octets = m ? m.slice(1, 5).map(Number) : []
  const bits = m ? Number(m[5]) : -1
  if (!m || octets.some((o) => o > 255) || bits < 1 || bits > 32) {
    throw new UserError(`invalid --lb-pool "${cidr}": expected an IPv4 CIDR such as 127.0.200.0/24`)
  }
  const size = 2 ** (32 - bits)
  const base = Math.floor(octets.reduce((n, o) => n * 256 + o, 0) / size) * size
  return size > 2 ? {cidr, first: base + 1, last: base + size - 2} : {cidr, first: base, last: base + size - 1}
}

export const ipString = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')

const ipNumber = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0)

/** The lowest address of the pool no allocation holds, or undefined when all are taken. */
export function freeAddress(pool: Pool, taken: Iterable<string>): string | undefined {
  const used = new Set([...taken].map(ipNumber))
  for (let n = pool.first; n <= pool.last; n++) if (!used.has(n)) return ipString(n)
  return undefined
}

const hostsOf = (nodes: CloudNode[]): SentHost[] =>
  nodes.map((n) => ({name: n.metadata.name, ...(n.spec?.providerID ? {providerID: String(n.spec.providerID)} : {})})).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))

/** A ConfigMap conflict the next attempt may not meet: read again and retry, after a short random pause. */
const ATTEMPTS = 20
const pause = () => new Promise((r) => setTimeout(r, 10 + Math.random() * 40))

export class LocalProvider implements LoadBalancerProvider {
  readonly description: string

  constructor(
    private readonly api: ApiRequester,
    private readonly pool: Pool,
    private readonly namespace = DEFAULT_LB_NAMESPACE,
  ) {
    this.description = `local (pool ${pool.cidr}, ConfigMap ${namespace}/${LOCAL_LB_CONFIGMAP})`
  }

  getLoadBalancerName(_clusterName: string, svc: CloudService): string {
    return defaultLoadBalancerName(String(svc.metadata?.uid ?? ''))
  }

  async getLoadBalancer(clusterName: string, svc: CloudService): Promise<LoadBalancerState> {
    return (await this.getLoadBalancers(clusterName, [svc]))[0]
  }

  /** One read of the ConfigMap answers for every Service. */
  async getLoadBalancers(clusterName: string, services: CloudService[]): Promise<LoadBalancerState[]> {
    const {entries} = await this.read()
    return services.map((svc) => {
      const mine = entries.get(this.getLoadBalancerName(clusterName, svc))
      return mine ? {exists: true, status: statusOf(mine.ip), hosts: mine.hosts} : {exists: false}
    })
  }

  async ensureLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<LoadBalancerStatus> {
    const name = this.getLoadBalancerName(clusterName, svc)
    const entry = await this.change((entries) => {
      const had = entries.get(name)
      const ip = had?.ip ?? freeAddress(this.pool, [...entries.values()].map((e) => e.ip))
      if (ip === undefined) throw new CloudProviderError(`the pool ${this.pool.cidr} has no free address for ${serviceKey(svc)} (${entries.size} in use)`)
      entries.set(name, {service: serviceKey(svc), uid: String(svc.metadata?.uid ?? ''), ip, hosts: hostsOf(nodes)})
      return entries.get(name)!
    })
    return statusOf(entry.ip)
  }

  async updateLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<void> {
    const name = this.getLoadBalancerName(clusterName, svc)
    await this.change((entries) => {
      const had = entries.get(name)
      if (!had) throw new CloudProviderError(`load balancer ${name} of ${serviceKey(svc)} does not exist`)
      entries.set(name, {...had, hosts: hostsOf(nodes)})
    })
  }

  async ensureLoadBalancerDeleted(clusterName: string, svc: CloudService): Promise<void> {
    const name = this.getLoadBalancerName(clusterName, svc)
    await this.change((entries) => void entries.delete(name))
  }

  /** Every allocation, and the ConfigMap's resourceVersion (undefined: it does not exist yet). */
  async read(): Promise<{entries: Map<string, LocalAllocation>; resourceVersion?: string; raw?: Obj}> {
    let raw: Obj
    try {
      raw = await this.api.request<Obj>(this.path(LOCAL_LB_CONFIGMAP), {what: `get ConfigMap ${this.namespace}/${LOCAL_LB_CONFIGMAP}`})
    } catch (error) {
      if ((error as {status?: {code?: number}}).status?.code === 404) return {entries: new Map()}
      throw error
    }
    const entries = new Map<string, LocalAllocation>()
    for (const [key, value] of Object.entries((raw.data ?? {}) as Record<string, string>)) {
      try {
        entries.set(key, JSON.parse(value) as LocalAllocation)
      } catch {
        throw new CloudProviderError(`ConfigMap ${this.namespace}/${LOCAL_LB_CONFIGMAP}: key ${key} is not JSON; fix or remove it`)
      }
    }
    return {entries, resourceVersion: raw.metadata?.resourceVersion, raw}
  }

  /** Read, change, write with the version read; on a conflict (another run wrote first) start over. */
  private async change<T>(edit: (entries: Map<string, LocalAllocation>) => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const {entries, resourceVersion, raw} = await this.read()
      const result = edit(entries)
      const data = Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, JSON.stringify(v)]))
      try {
        if (resourceVersion === undefined) {
          const body = {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: LOCAL_LB_CONFIGMAP, namespace: this.namespace, labels: {'app.kubernetes.io/managed-by': 'kctl'}}, data}
          await this.api.request(this.path(), {method: 'POST', body, what: `create ConfigMap ${this.namespace}/${LOCAL_LB_CONFIGMAP}`})
        } else {
          const body = {...raw, metadata: {...raw!.metadata, resourceVersion}, data}
          await this.api.request(this.path(LOCAL_LB_CONFIGMAP), {method: 'PUT', body, what: `update ConfigMap ${this.namespace}/${LOCAL_LB_CONFIGMAP}`})
        }
        return result
      } catch (error) {
        // 409: AlreadyExists (another run created it) or Conflict (another run updated it).
        if ((error as {status?: {code?: number}}).status?.code !== 409 || attempt >= ATTEMPTS) throw error
        await pause()
      }
    }
  }

  private path(name?: string): string {
    return `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/configmaps${name ? `/${name}` : ''}`
  }
}

/** What the Service's status gets: the address, as a VIP (the mode the API server defaults). */
const statusOf = (ip: string): LoadBalancerStatus => ({ingress: [{ip, ipMode: 'VIP'}]})
