// Lists and watches for `kctl watch`: list pages at a chosen resourceVersion through ClusterClient,
// and a streaming GET for `?watch=true` that yields the server's events line by line (the
// API server writes one JSON object per line). The same kubeconfig, auth and one-line errors as
// every other call (ClusterClient).
import http from 'node:http'
import https from 'node:https'

import {UserError} from '../errors.js'
import type {ListerWatcher, ListOptions, ListPage, RawObject, RawWatchEvent, WatchOptions} from '../watch/reflector.js'
import type {ClusterClient} from './cluster-client.js'

/** The collections kctl watches, as the API serves them. */
export const WATCHED_RESOURCES = {
  pods: {kind: 'Pod', apiVersion: 'v1', group: '/api/v1', plural: 'pods'},
  replicasets: {kind: 'ReplicaSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'replicasets'},
  replicationcontrollers: {kind: 'ReplicationController', apiVersion: 'v1', group: '/api/v1', plural: 'replicationcontrollers'},
  deployments: {kind: 'Deployment', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'deployments'},
  statefulsets: {kind: 'StatefulSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'statefulsets'},
  daemonsets: {kind: 'DaemonSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'daemonsets'},
  controllerrevisions: {kind: 'ControllerRevision', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'controllerrevisions'},
  persistentvolumeclaims: {kind: 'PersistentVolumeClaim', apiVersion: 'v1', group: '/api/v1', plural: 'persistentvolumeclaims'},
  jobs: {kind: 'Job', apiVersion: 'batch/v1', group: '/apis/batch/v1', plural: 'jobs'},
  cronjobs: {kind: 'CronJob', apiVersion: 'batch/v1', group: '/apis/batch/v1', plural: 'cronjobs'},
  services: {kind: 'Service', apiVersion: 'v1', group: '/api/v1', plural: 'services'},
  endpointslices: {kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', group: '/apis/discovery.k8s.io/v1', plural: 'endpointslices'},
  endpoints: {kind: 'Endpoints', apiVersion: 'v1', group: '/api/v1', plural: 'endpoints'},
  horizontalpodautoscalers: {kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', group: '/apis/autoscaling/v2', plural: 'horizontalpodautoscalers'},
  /** Cluster-scoped: always listed whole. */
  nodes: {kind: 'Node', apiVersion: 'v1', group: '/api/v1', plural: 'nodes'},
} as const

export type WatchedResource = keyof typeof WATCHED_RESOURCES

/** A ListerWatcher for one resource, in one namespace or (namespace undefined) in all. */
export function clusterListerWatcher(client: ClusterClient, resource: WatchedResource, namespace: string | undefined): ListerWatcher {
  const r = WATCHED_RESOURCES[resource]
  if (resource === 'nodes') namespace = undefined
  const path = namespace === undefined ? `${r.group}/${r.plural}` : `${r.group}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
  const where = namespace === undefined ? 'in all namespaces' : `in namespace "${namespace}"`
  return {
    async list(o: ListOptions): Promise<ListPage> {
      const page = await client.request<{items?: RawObject[]; metadata?: {continue?: string; resourceVersion?: string}}>(path, {
        what: `list ${r.plural} ${where}`,
        query: {limit: o.limit, continue: o.continue, resourceVersion: o.resourceVersion, resourceVersionMatch: o.resourceVersionMatch},
      })
      return {items: page.items ?? [], resourceVersion: page.metadata?.resourceVersion ?? '', continue: page.metadata?.continue || undefined}
    },
    watch(o: WatchOptions, signal: AbortSignal): Promise<AsyncIterable<RawWatchEvent>> {
      return openWatch(client, path, `watch ${r.plural} ${where}`, o, signal)
    },
  }
}

/**
 * GET path?watch=true: resolves once the server answered 200 (headers), with the events as they
 * come; rejects with ClusterClient's one-line errors otherwise. Aborting `signal` closes it.
 */
export async function openWatch(client: ClusterClient, path: string, what: string, o: WatchOptions, signal: AbortSignal): Promise<AsyncIterable<RawWatchEvent>> {
  const base = new URL(client.server)
  const url = new URL(client.server)
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
  url.search = ''
  url.searchParams.set('watch', 'true')
  url.searchParams.set('resourceVersion', o.resourceVersion)
  url.searchParams.set('timeoutSeconds', String(o.timeoutSeconds))
  if (o.allowWatchBookmarks) url.searchParams.set('allowWatchBookmarks', 'true')
  const options: https.RequestOptions = {method: 'GET', headers: {Accept: 'application/json', 'User-Agent': 'kctl'}}
  try {
    await client.config.credentials.apply(options)
  } catch (error) {
    throw new UserError(`cannot get credentials for context "${client.config.context}": ${firstLine(error)}`, {cause: error})
  }
  const transport = url.protocol === 'http:' ? http : https
  const events = new EventStream()
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const req = transport.request(url, options, (res) => {
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => reject(client.failure(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), what)))
        res.on('error', (e) => reject(client.unreachable(e)))
        return
      }
      req.setTimeout(0)
      resolve(events)
      let buffered = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffered += chunk
        let nl: number
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim()
          buffered = buffered.slice(nl + 1)
          if (line === '') continue
          try {
            events.push(JSON.parse(line) as RawWatchEvent)
          } catch {
            events.fail(new UserError(`the API server sent a watch event kctl cannot parse while trying to ${what}: ${line.slice(0, 120)}`))
            req.destroy()
            return
          }
        }
      })
      res.on('end', () => {
        if (buffered.trim() !== '') {
          try {
            events.push(JSON.parse(buffered) as RawWatchEvent)
          } catch {
            // a partial line at the end of a closed stream: dropped
          }
        }
        events.end()
      })
      res.on('aborted', () => events.fail(client.unreachable(Object.assign(new Error('the watch connection was closed'), {code: 'ECONNRESET'}))))
      res.on('error', (e) => events.fail(signal.aborted ? signal.reason : client.unreachable(e)))
      res.on('close', () => {
        if (!res.complete) events.fail(signal.aborted ? signal.reason : client.unreachable(Object.assign(new Error('the watch connection was closed'), {code: 'ECONNRESET'})))
      })
    })
    // Until the headers: the same patience as any request. After them, silence is the watchdog's call.
    req.setTimeout(30_000, () => req.destroy(new UserError(`the API server at ${client.server} did not answer within 30 s`)))
    req.on('error', (e) => {
      const error = signal.aborted ? signal.reason : e instanceof UserError ? e : client.unreachable(e)
      reject(error)
      events.fail(error)
    })
    const onAbort = () => req.destroy()
    signal.addEventListener('abort', onAbort, {once: true})
    req.on('close', () => signal.removeEventListener('abort', onAbort))
    req.end()
  })
}

/** A push-to-pull queue: the response pushes events, the reflector iterates them. */
class EventStream implements AsyncIterable<RawWatchEvent> {
  private readonly items: RawWatchEvent[] = []
  private done = false
  private error: unknown
  private wake?: () => void

  push(event: RawWatchEvent): void {
    if (this.done) return
    this.items.push(event)
    this.wake?.()
  }

  end(): void {
    this.done = true
    this.wake?.()
  }

  fail(error: unknown): void {
    if (this.done) return
    this.error = error
    this.done = true
    this.wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RawWatchEvent> {
    let i = 0
    for (;;) {
      if (i < this.items.length) {
        const event = this.items[i]
        this.items[i++] = undefined as unknown as RawWatchEvent
        if (i > 1024 && i * 2 > this.items.length) {
          this.items.splice(0, i)
          i = 0
        }
        yield event
        continue
      }
      if (this.done) {
        if (this.error !== undefined) throw this.error
        return
      }
      await new Promise<void>((resolve) => (this.wake = resolve))
      this.wake = undefined
    }
  }
}

function firstLine(value: unknown): string {
  return (value instanceof Error ? value.message : String(value)).split('\n')[0]
}
