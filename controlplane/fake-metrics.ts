// The three metrics APIs the horizontal pod autoscaler reads, served by kctl-fakemetrics (./fakemetrics/, built by
// ./build.ts ensureFakeMetrics) behind kube-apiserver's aggregation layer, so that kube-controller-manager's HPA
// controller and `kctl plan` read the same answers through the same apiserver. A test sets each namespace's metrics
// (`set`), and may read back which requests were made (`requests`).
//
// How the apiserver reaches the fake (no kube-proxy, no node network here):
// - Each API is an APIService (v1beta1.metrics.k8s.io, v1beta2.custom.metrics.k8s.io, v1beta1.external.metrics.k8s.io)
//   pointing at Service kube-system/kctl-fakemetrics, `insecureSkipTLSVerify: true` (the fake's certificate is
//   self-signed and made at each start).
// - The Service is `type: ExternalName, externalName: localhost`, and the APIService's port is the fake's own port.
//   Without --enable-aggregator-routing (the apiserver runs without it) the aggregator resolves a Service by its
//   cluster address: for an ExternalName Service that is `https://<externalName>:<APIService port>`, dialled from the
//   apiserver's own host, where the fake listens on loopback.
// - The other route, --enable-aggregator-routing=true with an endpoint of a ClusterIP Service, needs an address the
//   apiserver can dial that is not loopback: Endpoints and EndpointSlice validation refuse 127.0.0.0/8 and ::1, so the
//   fake would have to listen on a host interface. The ExternalName route needs neither that nor a change to the
//   apiserver's flags, so every other e2e file runs against the very same apiserver.
// - No front-proxy (requestheader) flags are needed either: without --proxy-client-cert-file the aggregator still
//   proxies, only without a client certificate, and passes the caller in X-Remote-User/X-Remote-Group; the fake
//   authenticates no one.
import {readFileSync} from 'node:fs'
import {ensureFakeMetrics} from './build.js'
import {request, type HttpResponse} from './http.js'
import {startComponent, type Component} from './procs.js'
import type {ControlPlaneInfo} from './start.js'

/** One pod's sample (metrics.k8s.io PodMetrics): labels are matched against the request's labelSelector. */
export interface FakePodMetrics {
  name: string
  labels?: Record<string, string>
  /** RFC 3339. */
  timestamp: string
  /** Default 30s. */
  window?: string
  containers: {name: string; usage: Record<string, string>}[]
}

/**
 * One value of a custom metric for one object. `resource` is the path segment the client asks for: `pods` (Pods
 * metrics, matched by `labels` against the pods' labelSelector), `services`, `deployments.apps`, …, and `namespaces`
 * for the namespace itself (`name` is then the namespace).
 */
export interface FakeCustomMetric {
  resource: string
  name: string
  kind: string
  apiVersion?: string
  labels?: Record<string, string>
  metric: string
  /** Matched against the request's metricLabelSelector. */
  metricLabels?: Record<string, string>
  value: string
  timestamp: string
  windowSeconds?: number
}

export interface FakeExternalMetric {
  metricName: string
  metricLabels?: Record<string, string>
  value: string
  timestamp: string
  window?: number
}

export interface FakeMetricsState {
  pods?: FakePodMetrics[]
  custom?: FakeCustomMetric[]
  external?: FakeExternalMetric[]
  /** Makes every request of that API in the namespace answer 503 with this message. */
  fail?: Partial<Record<'resource' | 'custom' | 'external', string>>
}

export interface FakeMetricsRequest {
  seq: number
  path: string
  query: string
}

export interface FakeMetrics extends Component {
  /** https://127.0.0.1:PORT */
  url: string
  /** Replaces the namespace's metrics. */
  set(namespace: string, state: FakeMetricsState): Promise<void>
  /** Forgets the namespace's metrics and requests. */
  clear(namespace: string): Promise<void>
  /** The API requests made so far for objects of the namespace, in order. */
  requests(namespace: string): Promise<FakeMetricsRequest[]>
}

export const FAKE_METRICS_APISERVICES = [
  {group: 'metrics.k8s.io', version: 'v1beta1'},
  {group: 'custom.metrics.k8s.io', version: 'v1beta2'},
  {group: 'external.metrics.k8s.io', version: 'v1beta1'},
] as const

const SERVICE = {namespace: 'kube-system', name: 'kctl-fakemetrics'}

async function ok(r: Promise<HttpResponse>, what: string): Promise<HttpResponse> {
  const res = await r
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: HTTP ${res.status}: ${res.body}`)
  return res
}

/** Creates or replaces an object (GET for its resourceVersion, then PUT; POST when absent). */
async function apply(info: ControlPlaneInfo, collection: string, obj: {metadata: {name: string}}): Promise<void> {
  const auth = {token: info.adminToken, ca: readFileSync(info.caFile)}
  const path = `${info.server}${collection}/${obj.metadata.name}`
  const got = await request(path, auth)
  if (got.status === 404) {
    await ok(request(`${info.server}${collection}`, {...auth, method: 'POST', body: obj}), `create ${path}`)
    return
  }
  const body = {...obj, metadata: {...obj.metadata, resourceVersion: got.json?.metadata?.resourceVersion}}
  await ok(request(path, {...auth, method: 'PUT', body}), `replace ${path}`)
}

/** Deletes the APIServices and the Service, unless another start has re-pointed them at its own port since. */
async function unregister(info: ControlPlaneInfo, port: number): Promise<void> {
  const auth = {token: info.adminToken, ca: readFileSync(info.caFile)}
  for (const {group, version} of FAKE_METRICS_APISERVICES) {
    const path = `${info.server}/apis/apiregistration.k8s.io/v1/apiservices/${version}.${group}`
    const got = await request(path, auth)
    if (got.status === 200 && got.json?.spec?.service?.port === port) {
      await request(path, {...auth, method: 'DELETE', body: {kind: 'DeleteOptions', apiVersion: 'v1', preconditions: {uid: got.json.metadata.uid}}})
    }
  }
  const remaining = await request(`${info.server}/apis/apiregistration.k8s.io/v1/apiservices`, auth)
  const used = (remaining.json?.items ?? []).some((a: {spec?: {service?: {name?: string}}}) => a.spec?.service?.name === SERVICE.name)
  if (!used) await request(`${info.server}/api/v1/namespaces/${SERVICE.namespace}/services/${SERVICE.name}`, {...auth, method: 'DELETE'})
}

/**
 * Starts kctl-fakemetrics, points the three APIServices at it and resolves once the apiserver reports each of them
 * Available. Its pid is recorded in the data dir, so the control plane's stop() kills it too. A second start
 * re-points the APIServices at the new process.
 */
export async function startFakeMetrics(o: {info: ControlPlaneInfo; log?: (s: string) => void}): Promise<FakeMetrics> {
  const t0 = performance.now()
  const {info} = o
  const binary = await ensureFakeMetrics()
  let port = 0
  const component = await startComponent({
    dataDir: info.dataDir,
    name: 'kctl-fakemetrics',
    dirName: 'fakemetrics',
    binary,
    args: (p) => {
      port = p
      return [`--port=${p}`, '--bind=127.0.0.1']
    },
    ready: async (p) => (await request(`https://127.0.0.1:${p}/healthz`, {timeoutMs: 2000})).status === 200,
  })
  try {
    await apply(info, `/api/v1/namespaces/${SERVICE.namespace}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {name: SERVICE.name, namespace: SERVICE.namespace},
      spec: {type: 'ExternalName', externalName: 'localhost'},
    } as {metadata: {name: string}})
    for (const {group, version} of FAKE_METRICS_APISERVICES) {
      await apply(info, '/apis/apiregistration.k8s.io/v1/apiservices', {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: {name: `${version}.${group}`},
        spec: {group, version, service: {...SERVICE, port}, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100},
      } as {metadata: {name: string}})
    }
    const auth = {token: info.adminToken, ca: readFileSync(info.caFile), timeoutMs: 5000}
    const deadline = Date.now() + 60_000
    for (const {group, version} of FAKE_METRICS_APISERVICES) {
      for (;;) {
        const r = await request(`${info.server}/apis/apiregistration.k8s.io/v1/apiservices/${version}.${group}`, auth)
        const available = (r.json?.status?.conditions ?? []).find((c: {type: string}) => c.type === 'Available')
        // The port must be ours: a condition left from an earlier process says nothing about this one.
        if (r.json?.spec?.service?.port === port && available?.status === 'True') {
          const d = await request(`${info.server}/apis/${group}/${version}`, auth)
          if (d.status === 200) break
        }
        if (Date.now() > deadline) throw new Error(`APIService ${version}.${group} not Available after 60 s: ${JSON.stringify(available)}`)
        await new Promise((res) => setTimeout(res, 250))
      }
    }
  } catch (e) {
    await component.stop()
    throw e
  }
  o.log?.(`fake metrics APIs ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const url = `https://127.0.0.1:${port}`
  return {
    ...component,
    url,
    // The APIServices go first: left pointing at a stopped server they would make discovery incomplete for
    // everything that runs after (kubectl warnings, the namespace and garbage-collector controllers' errors).
    async stop() {
      await unregister(info, port)
      await component.stop()
    },
    async set(namespace, state) {
      await ok(request(`${url}/fake/namespaces/${encodeURIComponent(namespace)}`, {method: 'PUT', body: state}), `fake metrics: set ${namespace}`)
    },
    async clear(namespace) {
      await ok(request(`${url}/fake/namespaces/${encodeURIComponent(namespace)}`, {method: 'DELETE'}), `fake metrics: clear ${namespace}`)
    },
    async requests(namespace) {
      const r = await ok(request(`${url}/fake/requests?namespace=${encodeURIComponent(namespace)}`), `fake metrics: requests of ${namespace}`)
      return r.json as FakeMetricsRequest[]
    },
  }
}
