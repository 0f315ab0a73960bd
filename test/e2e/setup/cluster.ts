// Helpers for e2e tests against the shared control plane started by ./global-setup.ts.
//
//   import {controlPlane, controllerManager, kubectl, api, newNamespace, makeNode, bindPod, setPodStatus,
//            deleteNamespace, waitUntil} from './setup/cluster.js'
//
// There is no kubelet and no scheduler: pods stay Pending and unbound until a test binds them (bindPod) and
// reports their status (setPodStatus), exactly as a kubelet would through the pods/status subresource.
import {execFile} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {request as httpsRequest} from 'node:https'
import {inject} from 'vitest'
import {request, type HttpResponse} from '../../../controlplane/http.js'
import {compactEtcd, startControllerManager} from '../../../controlplane/start.js'
import {startFakeCloud, type FakeCloud, type FakeCloudOptions} from '../../../controlplane/fake-cloud.js'
import {startFakeMetrics, type FakeMetrics} from '../../../controlplane/fake-metrics.js'
import type {Component} from '../../../controlplane/procs.js'
import type {E2EContext} from './global-setup.js'

/** Connection details of the shared control plane (server, kubeconfigs, tokens, etcd endpoint, data dir). */
export function controlPlane(): E2EContext {
  const cp = inject('controlPlane')
  if (!cp) throw new Error('no control plane: run e2e tests through the vitest `e2e` project (test/e2e/setup/global-setup.ts)')
  return cp
}

let caPem: Buffer | undefined
const ca = () => (caPem ??= readFileSync(controlPlane().caFile))

export type Identity = 'admin' | 'restricted' | {token: string}

function tokenFor(as: Identity): string {
  const cp = controlPlane()
  return as === 'admin' ? cp.adminToken : as === 'restricted' ? cp.restrictedToken : as.token
}

/**
 * A raw API request, e.g. `api('GET', '/api/v1/namespaces/x/pods', {as: 'restricted'})`. Never throws on an
 * HTTP error status: the response (status, parsed `json`) is the point in most e2e assertions.
 */
export function api(
  method: string,
  path: string,
  opts: {body?: unknown; as?: Identity; contentType?: string; timeoutMs?: number} = {},
): Promise<HttpResponse> {
  return request(`${controlPlane().server}${path}`, {
    method,
    body: opts.body,
    contentType: opts.contentType,
    token: tokenFor(opts.as ?? 'admin'),
    ca: ca(),
    timeoutMs: opts.timeoutMs,
  })
}

/** Like api(), but throws unless the status is 2xx; returns the parsed body. */
export async function apiOk(method: string, path: string, opts: Parameters<typeof api>[2] = {}): Promise<any> {
  const r = await api(method, path, opts)
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: HTTP ${r.status}: ${r.body}`)
  return r.json
}

export interface KubectlResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs kubectl of the control plane's own version (built and cached by controlplane/build.ts, never the one on
 * PATH) against the shared control plane (admin kubeconfig unless `kubeconfig` is given).
 * Throws on a non-zero exit unless `allowFailure` is set. `input` is piped to stdin (for `apply -f -`).
 */
export function kubectl(
  args: string[],
  opts: {kubeconfig?: string; input?: string; allowFailure?: boolean; timeoutMs?: number} = {},
): Promise<KubectlResult> {
  const cp = controlPlane()
  const kubeconfig = opts.kubeconfig ?? cp.adminKubeconfig
  return new Promise((resolve, reject) => {
    const child = execFile(
      cp.kubectl,
      [`--kubeconfig=${kubeconfig}`, ...args],
      {timeout: opts.timeoutMs ?? 30_000, maxBuffer: 64 << 20, env: {...process.env, KUBECONFIG: kubeconfig}},
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0
        if (code !== 0 && !opts.allowFailure) {
          return reject(new Error(`kubectl ${args.join(' ')} exited ${code}:\n${stderr || stdout}`))
        }
        resolve({code, stdout, stderr})
      },
    )
    if (opts.input !== undefined) child.stdin?.end(opts.input)
    else child.stdin?.end()
  })
}

/** A kubelet's report of a finished Job container: phase, and `main` terminated with `exitCode` `agoSeconds` ago. */
export async function finishJobPod(ns: string, pod: {metadata: {name: string}}, exitCode: number, agoSeconds = 0): Promise<void> {
  const at = new Date(Date.now() - agoSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
  await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{type: 'Ready', status: 'False', lastTransitionTime: at}],
        containerStatuses: [{name: 'main', image: 'registry.invalid/job:1', imageID: '', ready: false, restartCount: 0, state: {terminated: {exitCode, startedAt: at, finishedAt: at}}}],
      },
    },
  })
}

/** Polls `fn` until it returns a truthy value (which is returned), or throws after `timeoutMs`. */
export async function waitUntil<T>(
  fn: () => Promise<T> | T,
  opts: {timeoutMs?: number; intervalMs?: number; what?: string} = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000)
  let last: unknown
  for (;;) {
    try {
      const v = await fn()
      if (v) return v as NonNullable<T>
      last = v
    } catch (e) {
      last = e
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last)
      throw new Error(`timed out after ${opts.timeoutMs ?? 30_000} ms waiting for ${opts.what ?? 'condition'} (last: ${detail})`)
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200))
  }
}

/** Runs `fn` over `items`, at most `limit` at a time, and returns the results in the items' order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({length: Math.min(limit, items.length)}, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i], i)
      }
    }),
  )
  return out
}

/**
 * Waits until `read` (a fingerprint of the objects watched, e.g. their resourceVersions: every write
 * bumps one) has not changed for `quietMs`, as a controller that has gone quiet leaves them.
 */
export async function waitUntilQuiet(read: () => Promise<string>, opts: {quietMs?: number; timeoutMs?: number; what: string}): Promise<void> {
  let last = ''
  let stableSince = Date.now()
  await waitUntil(
    async () => {
      const now = await read()
      if (now !== last) {
        last = now
        stableSince = Date.now()
      }
      return Date.now() - stableSince > (opts.quietMs ?? 3000)
    },
    {timeoutMs: opts.timeoutMs ?? 90_000, intervalMs: 500, what: opts.what},
  )
}

/** Lets the `restricted` user do what `rules` allow in `ns`: a Role and a RoleBinding, both named `name`. */
export async function grantRestricted(ns: string, name: string, rules: Array<{apiGroups: string[]; resources: string[]; verbs: string[]}>): Promise<void> {
  const rbac = '/apis/rbac.authorization.k8s.io/v1'
  await apiOk('POST', `${rbac}/namespaces/${ns}/roles`, {body: {apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: {name}, rules}})
  await apiOk('POST', `${rbac}/namespaces/${ns}/rolebindings`, {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {name},
      roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name},
      subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'restricted'}],
    },
  })
}

/** Creates a namespace `<prefix>-<random>` (labelled `kctl-e2e=true`) and returns its name. */
export async function newNamespace(prefix = 'e2e'): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`.toLowerCase().slice(0, 63)
  await apiOk('POST', '/api/v1/namespaces', {
    body: {apiVersion: 'v1', kind: 'Namespace', metadata: {name, labels: {'kctl-e2e': 'true'}}},
  })
  return name
}

/**
 * Deletes a namespace so that nothing in it keeps a running controller busy: ReplicaSets and RCs first, then
 * every pod with grace period 0 (bound pods would otherwise wait forever for a kubelet), then the namespace
 * itself. The namespace object only disappears if the `namespace` controller runs; that doesn't matter here.
 */
export async function deleteNamespace(ns: string): Promise<void> {
  const gone = (r: HttpResponse) => (r.status >= 200 && r.status < 300) || r.status === 404
  for (const path of [`/apis/apps/v1/namespaces/${ns}/replicasets`, `/api/v1/namespaces/${ns}/replicationcontrollers`]) {
    const r = await api('DELETE', path, {body: {kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background'}})
    if (!gone(r)) throw new Error(`DELETE ${path}: HTTP ${r.status}: ${r.body}`)
  }
  const pods = await api('DELETE', `/api/v1/namespaces/${ns}/pods`, {
    body: {kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0},
  })
  if (!gone(pods)) throw new Error(`DELETE pods in ${ns}: HTTP ${pods.status}: ${pods.body}`)
  const r = await api('DELETE', `/api/v1/namespaces/${ns}`)
  if (!gone(r)) throw new Error(`DELETE namespace ${ns}: HTTP ${r.status}: ${r.body}`)
}

/**
 * Creates a Node object (no kubelet behind it) and marks it Ready. Nothing heartbeats, so never run the
 * `nodelifecycle` controller alongside (it would taint the node and evict its pods).
 */
export async function makeNode(name: string, opts: {labels?: Record<string, string>; ready?: boolean} = {}): Promise<any> {
  await apiOk('POST', '/api/v1/nodes', {
    body: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {name, labels: {'kubernetes.io/hostname': name, 'kctl-e2e': 'true', ...opts.labels}},
    },
  })
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  return apiOk('PATCH', `/api/v1/nodes/${name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        conditions: [
          {
            type: 'Ready',
            status: opts.ready === false ? 'False' : 'True',
            reason: opts.ready === false ? 'KubeletNotReady' : 'KubeletReady',
            message: 'set by the kctl e2e harness',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
      },
    },
  })
}

/** Binds a pod to a node through the pods/binding subresource, as kube-scheduler does. 409 if already bound. */
export async function bindPod(ns: string, pod: string, node: string): Promise<void> {
  await apiOk('POST', `/api/v1/namespaces/${ns}/pods/${pod}/binding`, {
    body: {apiVersion: 'v1', kind: 'Binding', metadata: {name: pod}, target: {apiVersion: 'v1', kind: 'Node', name: node}},
  })
}

export interface PodStatusOptions {
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown'
  /** Ready/ContainersReady conditions and containerStatuses[].ready. Default: true when Running. */
  ready?: boolean
  /** lastTransitionTime of the Ready condition (drives availableReplicas/minReadySeconds and deletion ranking). */
  readySince?: Date | string
  /** Default for Running pods: a made-up 10.244.x.y. */
  podIP?: string
  restartCount?: number
}

const rfc3339 = (d: Date | string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * Reports a pod's status through the pods/status subresource, the way a kubelet would: phase, the four standard
 * conditions, one containerStatus per spec container, podIP(s) and startTime. A merge patch replaces the lists
 * wholesale, so the result doesn't depend on what was there before. Returns the updated pod.
 */
export async function setPodStatus(ns: string, pod: string, o: PodStatusOptions): Promise<any> {
  const current = await apiOk('GET', `/api/v1/namespaces/${ns}/pods/${pod}`)
  const now = rfc3339(new Date())
  const running = o.phase === 'Running'
  const terminal = o.phase === 'Succeeded' || o.phase === 'Failed'
  const ready = o.ready ?? running
  const readyAt = rfc3339(o.readySince ?? new Date())
  const startedAt = current.status?.startTime ?? rfc3339(new Date(Math.min(Date.parse(readyAt), Date.now())))
  const bound = Boolean(current.spec?.nodeName)
  const cond = (type: string, ok: boolean, at = now) => ({type, status: ok ? 'True' : 'False', lastTransitionTime: at})
  const podIP = o.podIP ?? (running || terminal ? `10.244.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 254)}` : undefined)
  const containerStatuses = (current.spec?.containers ?? []).map((c: {name: string; image: string}) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: ready && running,
    started: running,
    restartCount: o.restartCount ?? 0,
    state: running
      ? {running: {startedAt}}
      : terminal
        ? {terminated: {exitCode: o.phase === 'Succeeded' ? 0 : 1, reason: o.phase === 'Succeeded' ? 'Completed' : 'Error', startedAt, finishedAt: now}}
        : {waiting: {reason: 'ContainerCreating'}},
  }))
  return apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${pod}/status`, {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        phase: o.phase,
        conditions: [
          cond('PodScheduled', bound),
          cond('Initialized', bound),
          cond('ContainersReady', ready && running, readyAt),
          cond('Ready', ready && running, readyAt),
        ],
        containerStatuses,
        ...(podIP ? {podIP, podIPs: [{ip: podIP}]} : {}),
        ...(bound ? {startTime: startedAt} : {}),
      },
    },
  })
}

let kcm: Component | undefined

/**
 * kube-controller-manager as a child of this test process, against the shared apiserver. It acts on every
 * namespace, so start it in beforeAll and stop it in afterAll of the files that need it (files run one at a time).
 * If a file forgets, the globalSetup teardown still kills it (its pid is recorded in the control plane's data dir).
 */
export const controllerManager = {
  /** Starts it with exactly `controllers` (e.g. ['replicaset']), replacing one this process already runs. */
  async start(controllers: string[], extraArgs?: string[]): Promise<void> {
    await kcm?.stop()
    kcm = undefined
    kcm = await startControllerManager({info: controlPlane(), controllers, extraArgs, log: () => {}})
  },
  async stop(): Promise<void> {
    await kcm?.stop()
    kcm = undefined
  },
  /** Path of the running instance's log (its --v=2 output), e.g. for a failing test's diagnostics. */
  get logFile(): string | undefined {
    return kcm?.logFile
  },
}

let cloud: FakeCloud | undefined

/**
 * The upstream service controller with the fake cloud (controlplane/fake-cloud.ts), as a child of this test
 * process, like `controllerManager`. It acts on every namespace's Services and on every Node: start it in the
 * files that need it, stop it in their afterAll. The balancers that exist are kept in the control plane's data
 * dir, so they outlive a restart.
 */
export const fakeCloud = {
  async start(opts: Omit<FakeCloudOptions, 'info' | 'log'> = {}): Promise<FakeCloud> {
    await cloud?.stop()
    cloud = undefined
    cloud = await startFakeCloud({info: controlPlane(), ...opts})
    return cloud
  },
  async stop(): Promise<void> {
    await cloud?.stop()
    cloud = undefined
  },
}

let metrics: FakeMetrics | undefined

/**
 * The metrics APIs the HPA controller reads (controlplane/fake-metrics.ts), served by a fake behind the shared
 * apiserver's aggregation layer, as a child of this test process: `set` each namespace's metrics, then both
 * kube-controller-manager and `kctl plan` read them through the apiserver. Stop it in afterAll.
 */
export const fakeMetrics = {
  async start(): Promise<FakeMetrics> {
    await metrics?.stop()
    metrics = undefined
    metrics = await startFakeMetrics({info: controlPlane()})
    return metrics
  },
  async stop(): Promise<void> {
    await metrics?.stop()
    metrics = undefined
  },
}

/** Stops kube-apiserver and starts it again on the same port and etcd (it belongs to the globalSetup process). */
export async function restartApiServer(): Promise<void> {
  const cp = controlPlane()
  const r = await request(`${cp.controlUrl}/restart-apiserver`, {method: 'POST', token: cp.controlToken, timeoutMs: 120_000})
  if (r.status !== 200) throw new Error(`restart-apiserver: HTTP ${r.status}: ${r.body}`)
}

/** Compacts etcd to its current revision (older resourceVersions then give 410 Expired); returns that revision. */
export function compactEtcdNow(): Promise<number> {
  return compactEtcd(controlPlane().etcdEndpoint)
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: any
  /** When the event arrived (ms since the epoch). */
  receivedAt: number
}

/**
 * Watches `path` (a list path, e.g. `/api/v1/namespaces/x/pods`) from `resourceVersion` and collects every
 * event in order, as a controller's informer sees them, until `stop()`. `events` grows as they arrive.
 */
export function watchEvents(path: string, resourceVersion: string): {events: WatchEvent[]; stop(): void} {
  const cp = controlPlane()
  const events: WatchEvent[] = []
  const sep = path.includes('?') ? '&' : '?'
  const u = new URL(`${cp.server}${path}${sep}watch=true&resourceVersion=${resourceVersion}&allowWatchBookmarks=false`)
  let buffered = ''
  const req = httpsRequest(u, {method: 'GET', headers: {accept: 'application/json', authorization: `Bearer ${cp.adminToken}`}, ca: ca(), agent: false}, (res) => {
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buffered += chunk
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl).trim()
        buffered = buffered.slice(nl + 1)
        if (line) events.push({...(JSON.parse(line) as Omit<WatchEvent, 'receivedAt'>), receivedAt: Date.now()})
      }
    })
    res.on('error', () => {})
  })
  req.on('error', () => {})
  req.end()
  return {events, stop: () => req.destroy()}
}
