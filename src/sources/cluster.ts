// The live source: lists the controllers' objects (ReplicaSets, ReplicationControllers,
// Deployments, StatefulSets, DaemonSets, Pods, ControllerRevisions, PersistentVolumeClaims,
// Jobs, CronJobs, Services, EndpointSlices, Endpoints, HorizontalPodAutoscalers, Nodes) page by
// page, then builds the same Snapshot the fixture source builds (one normalizer, one planner).
import type {Snapshot} from '../model/objects.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {ApiError, ClusterClient} from './cluster-client.js'
import {loadKubeconfig} from './cluster-config.js'
import {ParsedStream} from './parsed.js'
import type {LiveGet} from './part.js'

export interface ClusterRequest {
  kubeconfig?: string
  context?: string
  namespace?: string
  allNamespaces?: boolean
  selector?: string
  /** Page size for list calls (kubectl's --chunk-size, 500). */
  pageSize?: number
  timeoutMs?: number
  /** Told what could not be read and was left out (stderr in the CLI). */
  onNote?: (message: string) => void
  /**
   * Nodes listed only when an object read has a controller that reads them (NodeReaders): for a
   * read planned as it is (plan, list), where nothing else asks for them. Not for a world that
   * changes after the read, nor for one read a namespace at a time (its nodes read once).
   */
  nodesWhenRead?: boolean
}

/**
 * What the API serves for each kind kctl reads: path under a namespace, and its wire identity.
 * `optional`: a 403 on it leaves that kind out (with a note) instead of failing the read — an
 * identity that may read ReplicaSets and pods but not Deployments still gets their plans.
 */
const RESOURCES = [
  {kind: 'Deployment', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'deployments', optional: true},
  {kind: 'ReplicaSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'replicasets'},
  {kind: 'ReplicationController', apiVersion: 'v1', group: '/api/v1', plural: 'replicationcontrollers'},
  {kind: 'Pod', apiVersion: 'v1', group: '/api/v1', plural: 'pods'},
  {kind: 'StatefulSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'statefulsets', optional: true},
  {kind: 'DaemonSet', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'daemonsets', optional: true},
  {kind: 'ControllerRevision', apiVersion: 'apps/v1', group: '/apis/apps/v1', plural: 'controllerrevisions', optional: true},
  {kind: 'PersistentVolumeClaim', apiVersion: 'v1', group: '/api/v1', plural: 'persistentvolumeclaims', optional: true},
  {kind: 'Job', apiVersion: 'batch/v1', group: '/apis/batch/v1', plural: 'jobs', optional: true},
  {kind: 'CronJob', apiVersion: 'batch/v1', group: '/apis/batch/v1', plural: 'cronjobs', optional: true},
  {kind: 'Service', apiVersion: 'v1', group: '/api/v1', plural: 'services', optional: true},
  {kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', group: '/apis/discovery.k8s.io/v1', plural: 'endpointslices', optional: true},
  {kind: 'Endpoints', apiVersion: 'v1', group: '/api/v1', plural: 'endpoints', optional: true},
  {kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', group: '/apis/autoscaling/v2', plural: 'horizontalpodautoscalers', optional: true},
  // Cluster-scoped: listed whole whatever the namespace (the DaemonSet controller reads every node).
  {kind: 'Node', apiVersion: 'v1', group: '/api/v1', plural: 'nodes', optional: true, clusterScoped: true},
] as const

export async function connect(req: ClusterRequest): Promise<ClusterClient> {
  const config = await loadKubeconfig({kubeconfig: req.kubeconfig, context: req.context})
  return new ClusterClient(config, req.timeoutMs)
}

/** What reading the lists does with their objects, handed over in the order of RESOURCES. */
interface Receiver {
  /** The next objects (kind and apiVersion set), in order. */
  objects(items: Record<string, unknown>[]): void
  /** Objects already handed over were from a list that then started over: they are not all read. */
  readAgain(): void
}

/** The namespace read: undefined for all of them. */
function namespaceOf(client: ClusterClient, req: ClusterRequest): string | undefined {
  return req.allNamespaces ? undefined : (req.namespace ?? client.config.namespace)
}

/** Raw objects as `kubectl get -o json` gives them (kind and apiVersion set on every item). */
export async function listClusterObjects(client: ClusterClient, req: ClusterRequest): Promise<{objects: Record<string, unknown>[]; namespace?: string}> {
  const batches: Record<string, unknown>[][] = []
  await listInOrder(client, req, {objects: (items) => batches.push(items), readAgain: () => {}})
  return {objects: batches.flat(), namespace: namespaceOf(client, req)}
}

/**
 * Lists every resource, all at once, and hands each page's objects to `receiver` as soon as every
 * object before them (in the order of RESOURCES) has been handed over: a page that comes early
 * waits for its turn. Returns `reread`, which gives all the objects again, parsed anew from the
 * pages' bytes as they came (for positions, which are rarely asked for).
 */
async function listInOrder(client: ClusterClient, req: ClusterRequest, receiver: Receiver, read: ListsRead = new ListsRead()): Promise<{reread: () => Record<string, unknown>[]}> {
  const namespace = namespaceOf(client, req)
  const leftOut: {plural: string; message: string}[] = []
  const bytes: Buffer[][] = RESOURCES.map(() => [])
  const waiting: Record<string, unknown>[][][] = RESOURCES.map(() => [])
  const handedOver: boolean[] = []
  const {done, items} = read
  const readers = new NodeReaders(req.nodesWhenRead === true)
  let turn = 0
  const flush = () => {
    // Nothing before every list is known to hold objects or not (its first page, or its end): what
    // ListsRead.mayHold answers, asked while objects are read, is then the same however the pages came.
    if (!read.allKnown()) return
    for (; turn < RESOURCES.length; turn++) {
      for (let batch = waiting[turn].shift(); batch; batch = waiting[turn].shift()) {
        handedOver[turn] = true
        receiver.objects(batch)
      }
      if (!done[turn]) return
    }
  }
  await Promise.all(
    RESOURCES.map(async (r, index) => {
      const whole = namespace === undefined || 'clusterScoped' in r
      const path = whole ? `${r.group}/${r.plural}` : `${r.group}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
      const where = 'clusterScoped' in r ? 'in the cluster' : namespace === undefined ? 'in all namespaces' : `in namespace "${namespace}"`
      const what = `list ${r.plural} ${where}`
      const listAll = () =>
        client.list(path, {
          what,
          limit: req.pageSize,
          onPage: (page, pageBytes) => {
            bytes[index].push(pageBytes)
            readers.seen(r.kind, page)
            items[index] += page.length
            waiting[index].push(page.map((item) => withType(r, item)))
            flush()
          },
          onRestart: () => {
            if (handedOver[index]) receiver.readAgain()
            bytes[index] = []
            waiting[index] = []
            items[index] = 0
          },
        })
      try {
        // Not wanted: one node is asked for all the same, so that a refusal is told as when they are read.
        if (r.kind === 'Node' && !(await readers.wanted)) await client.request(path, {what, query: {limit: 1}})
        else await listAll()
      } catch (error) {
        if (!('optional' in r && r.optional && error instanceof ApiError && error.status.code === 403)) throw error
        leftOut[index] = {plural: r.plural, message: error.message}
        if (handedOver[index]) receiver.readAgain()
        bytes[index] = []
        waiting[index] = []
        items[index] = 0
      }
      done[index] = true
      readers.ended(r.kind)
      flush()
    }),
  )
  // Said only once everything else was read (a read that fails says its one line and no more),
  // and in one line however many lists were refused, in the order above: the first refusal names
  // the identity.
  const refused = leftOut.filter((l) => l !== undefined)
  if (refused.length > 0) {
    const plurals = refused.map((l) => l.plural)
    const what = plurals.length === 1 ? plurals[0] : `${plurals.slice(0, -1).join(', ')} and ${plurals.at(-1)}`
    req.onNote?.(`${what} are left out: ${refused[0].message}`)
  }
  const reread = () =>
    RESOURCES.flatMap((r, index) => bytes[index].flatMap((b) => ((JSON.parse(b.toString('utf8')) as {items?: Record<string, unknown>[]}).items ?? []).map((item) => withType(r, item))))
  return {reread}
}

/**
 * How far each list of RESOURCES is read: done, and how many objects it gave. A kind whose list
 * ended empty (or was refused) is one the world read does not hold, which readers are told
 * (NormalizeOptions.mayHold: pods then leave out what only an HPA reads).
 */
class ListsRead {
  readonly done: boolean[] = RESOURCES.map(() => false)
  readonly items: number[] = RESOURCES.map(() => 0)

  /** Whether every list is known to hold objects (a page of them came) or to be empty (it ended). */
  allKnown(): boolean {
    for (let i = 0; i < RESOURCES.length; i++) if (!this.done[i] && this.items[i] === 0) return false
    return true
  }

  mayHold(kind: string): boolean {
    const index = RESOURCES.findIndex((r) => r.kind === kind)
    return index < 0 || !this.done[index] || this.items[index] > 0
  }
}

/** The kinds listed whose controllers may plan with the nodes, each with its test of an object (KindReader.readsNodes). */
const NODE_READERS = new Map(
  CONTROLLERS.flatMap((c) => c.read.kinds)
    .filter((k) => k.readsNodes !== undefined && RESOURCES.some((r) => r.kind === k.kind))
    .map((k) => [k.kind, k.readsNodes!]),
)

/**
 * Whether the objects read need the nodes (NODE_READERS): known once one such object came, or once
 * all their lists ended without one; until then the node list waits (those lists are short: it
 * starts long before the pods' ends).
 */
class NodeReaders {
  readonly wanted: Promise<boolean>
  #answer!: (wanted: boolean) => void
  readonly #pending = new Set(NODE_READERS.keys())

  constructor(onlyWhenRead: boolean) {
    this.wanted = new Promise((resolve) => (this.#answer = resolve))
    if (!onlyWhenRead || this.#pending.size === 0) this.#answer(true)
  }

  seen(kind: string, page: readonly Record<string, unknown>[]): void {
    const reads = NODE_READERS.get(kind)
    if (reads && page.some(reads)) this.#answer(true)
  }

  ended(kind: string): void {
    if (this.#pending.delete(kind) && this.#pending.size === 0) this.#answer(false)
  }
}

/** An item of a list as `kubectl get -o json` prints it: apiVersion and kind first. */
function withType(r: (typeof RESOURCES)[number], item: Record<string, unknown>): Record<string, unknown> {
  return {apiVersion: r.apiVersion, kind: r.kind, ...item}
}

/** `client`: an already connected one (reconcile reads the cluster again between its rounds). */
export async function readCluster(req: ClusterRequest, connected?: ClusterClient): Promise<Snapshot> {
  const client = connected ?? (await connect(req))
  const namespace = namespaceOf(client, req)
  // The same reader and normalizer as fixtures: the objects travel as one JSON List, exactly the
  // document `kubectl get rs,rc,pods -o json` would print (written only if a position is asked
  // for), and are normalized page by page as the lists are read.
  let reread: () => Record<string, unknown>[] = () => []
  const read = new ListsRead()
  const stream = new ParsedStream(
    `cluster:${client.config.context}`,
    {paths: [], namespace, allNamespaces: namespace === undefined, selector: req.selector, serverDefaulted: true, mayHold: (kind) => read.mayHold(kind)},
    () => reread(),
  )
  reread = (await listInOrder(client, req, {objects: (items) => stream.add(items), readAgain: () => stream.readAgain()}, read)).reread
  const snapshot = stream.finish()
  // Then what the controllers read beside the objects (the HPA's metrics APIs), asked as they ask it.
  const get = liveGet(client)
  let live: Partial<Snapshot> = {}
  for (const c of CONTROLLERS) if (c.read.live) live = {...live, ...(await c.read.live(get, snapshot))}
  return {...snapshot, ...live, source: {type: 'cluster', context: client.config.context, server: client.server}}
}

/** One GET for what the controllers read beside the objects (the HPA's metrics APIs): the body, or the API's refusal. */
export function liveGet(client: ClusterClient): LiveGet {
  return async (path, query) => {
    try {
      return {ok: true, body: await client.request(path, {what: `get ${path}`, query})}
    } catch (error) {
      if (error instanceof ApiError) return {ok: false, code: error.status.code, message: error.status.message ?? error.message}
      throw error
    }
  }
}
