// `watch`: keep planning as the world changes, and report each controller whose plan changed.
//   - live cluster: one shared informer per resource (pods, then each controller's, in the
//     registry's order, as its watch part lists them: its own kinds', then what its sync reads)
//     feeding the planners through the work queue (watch/engine.ts);
//   - fixtures (-f): read and plan again whenever a file changes (debounced), and report the
//     difference from the previous plans.
// Ends when every controller is in sync (untilConverged), when the time is up (timeoutMs), or when
// `signal` aborts (SIGINT); an error nothing can recover from (403 on the watch, an unreachable
// cluster at the start) is thrown as a UserError.
import {setMaxListeners} from 'node:events'
import {UserError} from '../errors.js'
import type {ClusterClient} from '../sources/cluster-client.js'
import type {PodView, Snapshot} from '../model/objects.js'
import type {ControllerPlan, FeatureGates} from '../model/plan.js'
import type {WatchCause, WatchEnd, WatchOutcome, WatchStatus, WatchUpdate} from '../model/watch.js'
import {controllerKey} from '../reconcile/incremental.js'
import {planSnapshot} from '../reconcile/planner.js'
import {type CompiledSelector, parseSelectorString, SelectorError} from '../reconcile/selector.js'
import {formatRfc3339} from '../reconcile/time.js'
import {type Clock, realClock, type Timer} from '../watch/clock.js'
import {planDelta} from '../watch/delta.js'
import {WatchEngine} from '../watch/engine.js'
import {LiveReads} from '../watch/live-reads.js'
import {type CachedObject, InformerFactory, type InformerStatus, SharedInformer} from '../watch/informer.js'
import {Interner} from '../watch/objects.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {watchGroups} from '../watch/groups.js'
import type {WatchCaches, WatchedResourcePart} from '../watch/part.js'
import {PODS} from '../watch/pods.js'
import type {WatchedResource} from '../sources/cluster-watch.js'
import {BURST_REPLICAS, gateWarnings, parseFeatureGates, plannerOptions, resolveNow} from './options.js'
import {readSnapshot, type SourceRequest} from './snapshot.js'

export interface WatchRequest extends SourceRequest {
  /** --now: only with fixtures (a live cluster moves with the real clock). */
  now?: string
  featureGates?: string
  /** --resync: plan every controller again this often. */
  resyncMs?: number
  /** --max-endpoints-per-slice, as kube-controller-manager takes it. */
  maxEndpointsPerSlice?: number
  /** --until-converged. */
  untilConverged?: boolean
  /** --timeout. */
  timeoutMs?: number
  clock?: Clock
  /** A live watch silent for this long is reopened (default 120 s). */
  watchdogMs?: number
  /** Fixtures: quiet time after a change before planning again (default 100 ms). */
  debounceMs?: number
  onWarning?: (message: string) => void
}

export async function runWatch(req: WatchRequest, emit: (update: WatchUpdate) => void, signal: AbortSignal): Promise<WatchOutcome> {
  // Bad flags fail before anything is read.
  const featureGates = parseFeatureGates(req.featureGates)
  for (const w of gateWarnings(featureGates)) req.onWarning?.(w)
  const clock = req.clock ?? realClock
  if (req.filename && req.filename.length > 0) return watchFixtures(req, featureGates, clock, emit, signal)
  if (req.now !== undefined) {
    throw new UserError('--now cannot be used when watching a live cluster: its pods change in real time, so kctl plans at the real clock', {
      hint: 'use --now with -f fixtures',
    })
  }
  return watchCluster(req, featureGates, parseFilter(req.selector), clock, emit, signal)
}

function parseFilter(selector: string | undefined): CompiledSelector | undefined {
  if (selector === undefined) return undefined
  try {
    return parseSelectorString(selector)
  } catch (error) {
    if (error instanceof SelectorError) throw new UserError(`invalid -l/--selector: ${error.message}`, {hint: 'kubectl syntax, e.g. -l app=web,tier!=db'})
    throw error
  }
}

type Named = {namespace: string; name: string; resourceVersion: string}

const time = (clock: Clock) => formatRfc3339(BigInt(clock.now()) * 1_000_000n)

// ---------------------------------------------------------------------------------------------

async function watchCluster(
  req: WatchRequest,
  featureGates: FeatureGates,
  selector: CompiledSelector | undefined,
  clock: Clock,
  emit: (update: WatchUpdate) => void,
  signal: AbortSignal,
): Promise<WatchOutcome> {
  // Lazy: the cluster code pulls in client-node.
  const {connect, liveGet} = await import('../sources/cluster.js')
  const {clusterListerWatcher} = await import('../sources/cluster-watch.js')
  const client = await connect({kubeconfig: req.kubeconfig, context: req.context})
  const namespace = req.allNamespaces ? undefined : (req.namespace ?? client.config.namespace)
  const engine = new WatchEngine({featureGates, burstReplicas: BURST_REPLICAS, maxEndpointsPerSlice: req.maxEndpointsPerSlice, selector, clock, emit})
  const interner = new Interner()
  const factory = new InformerFactory()
  const internal = new AbortController()
  // An abort listener per informer (its list, watch or backoff; fourteen kinds with Services), past
  // Node's default warning threshold of 10; room for two each.
  setMaxListeners(32, internal.signal)

  // What the controllers read that no informer watches (an HPA's metrics): read before the first plans, then every sync period.
  const live = new LiveReads(engine, liveGet(client), clock, (message) => emit({kind: 'WatchStatus', time: time(clock), status: 'error', message}))
  let starting = false
  const onStatus = (s: InformerStatus) => {
    const status = watchStatus(s, clock)
    if (status) emit(status)
    if (s.type === 'listed' && !engine.hasSynced && !starting && factory.synced) {
      starting = true
      const counts = factory.all().map((i) => `${i.size} ${i.resource}`).join(', ')
      void live.readAll().then(() => {
        if (internal.signal.aborted) return
        engine.markSynced({message: `listed ${counts}${namespace === undefined ? ' in all namespaces' : ` in namespace ${namespace}`}${leftOut ? `; ${leftOut}` : ''}`})
        live.start()
      })
    }
  }
  const options = {clock, pageSize: req.chunkSize, watchdogMs: req.watchdogMs, onStatus}
  // One informer per resource, whoever reads it (a Node's events reach both the DaemonSets and the Services).
  const informers = new Map<string, SharedInformer<CachedObject>>()
  const informer = <T extends CachedObject>(part: WatchedResourcePart<T>): SharedInformer<T> => {
    const made = factory.informer(part.resource, () =>
      new SharedInformer<T>(part.resource, clusterListerWatcher(client, part.resource, namespace), (raws) => part.normalize(raws, interner), options),
    )
    informers.set(part.resource, made)
    return made
  }
  const caches: WatchCaches = {
    list: <T>(resource: WatchedResource, ns: string) => (informers.get(resource)?.listNamespace(ns) ?? []) as Iterable<T>,
    all: <T>(resource: WatchedResource) => (informers.get(resource)?.list() ?? []) as Iterable<T>,
    namespaces: (resource) => informers.get(resource)?.namespaces() ?? [],
  }
  const pods = informer(PODS)
  pods.addEventHandler(engine.podHandler)
  // Each controller in the registry's order, with those planned with it. An identity that may not
  // list what a controller's watch requires still watches the others; the synced status says so
  // (stderr keeps to the one line of a watch that fails).
  const refused: string[] = []
  for (const group of watchGroups()) {
    const why = await forbidden(client, group.requires, namespace, group.what)
    if (why !== undefined) {
      refused.push(why)
      continue
    }
    if (group.by === 'object') {
      for (const r of group.resources) informer(r).addEventHandler(group.part.feed(engine))
      continue
    }
    const started = group.resources.map((r) => [r, informer(r)] as const)
    const watch = engine.watchNamespaces(group.members, caches)
    for (const [r, i] of started) i.addEventHandler(engine.objectHandler(r.kind, [watch], r.clusterScoped === true))
  }
  const leftOut = refused.join('; ') || undefined

  const running = factory.run(internal.signal)
  return supervise(req, clock, emit, signal, {
    converged: () => engine.converged,
    pending: () => engine.pending(),
    controllers: () => engine.controllers,
    onBatch: (fn) => engine.onBatch(fn),
    resync: () => {
      if (!engine.hasSynced) return
      for (const informer of factory.all()) informer.resync()
    },
    failure: running,
    stop: async () => {
      live.stop()
      engine.stop()
      internal.abort()
      await running.catch(() => {})
    },
  })
}

/** Why `what` is left out: the first of `resources` the API server refuses (403) to list; undefined when each may be listed. */
async function forbidden(client: ClusterClient, resources: readonly WatchedResource[], namespace: string | undefined, what: string): Promise<string | undefined> {
  for (const resource of resources) {
    const refused = await refusal(client, resource, namespace)
    if (refused !== undefined) return `${what} are left out: ${refused}`
  }
  return undefined
}

/** The API server's refusal (403) to list `resource`, or undefined when it may be listed. */
async function refusal(client: ClusterClient, resource: WatchedResource, namespace: string | undefined): Promise<string | undefined> {
  const {WATCHED_RESOURCES} = await import('../sources/cluster-watch.js')
  const {group} = WATCHED_RESOURCES[resource]
  const where = resource === 'nodes' ? undefined : namespace
  const path = where === undefined ? `${group}/${resource}` : `${group}/namespaces/${encodeURIComponent(where)}/${resource}`
  try {
    await client.list(path, {what: `list ${resource} ${where === undefined ? 'in all namespaces' : `in namespace "${where}"`}`, limit: 1})
    return undefined
  } catch (error) {
    if (!(error instanceof UserError) || (error as UserError & {status?: {code?: number}}).status?.code !== 403) throw error
    return error.message
  }
}

function watchStatus(s: InformerStatus, clock: Clock): WatchStatus | undefined {
  const base = {kind: 'WatchStatus' as const, time: time(clock), resource: s.resource}
  switch (s.type) {
    case 'relisted':
      return {...base, status: 'relisted', resourceVersion: s.resourceVersion, message: s.reason, added: s.added, updated: s.updated, deleted: s.deleted}
    case 'disconnected':
      return {...base, status: 'disconnected', resourceVersion: s.resourceVersion, message: s.message, retryInMs: s.retryInMs}
    case 'reconnected':
      return {...base, status: 'reconnected', resourceVersion: s.resourceVersion}
    case 'problem':
      return {...base, status: 'error', message: s.message}
    default:
      return undefined // listed, expired: the relisted status that follows says it all
  }
}

// ---------------------------------------------------------------------------------------------

async function watchFixtures(req: WatchRequest, featureGates: FeatureGates, clock: Clock, emit: (update: WatchUpdate) => void, signal: AbortSignal): Promise<WatchOutcome> {
  const {watchFixtures: watchFiles, displayPath} = await import('../sources/fixture-watch.js')
  if (req.filename!.includes('-')) throw new UserError('kctl watch cannot watch stdin (-f -)', {hint: 'give files or directories with -f'})
  const fixedNow = req.now === undefined ? undefined : resolveNow(req.now)
  let snapshot = await readSnapshot(req)
  let plans = new Map<string, ControllerPlan>()
  const listeners = new Set<() => void>()

  const replan = (why: (plan: ControllerPlan) => WatchCause) => {
    const at = time(clock)
    const now = fixedNow ?? at
    const plan = planSnapshot(snapshot, plannerOptions(now, featureGates, req.maxEndpointsPerSlice))
    const delta = planDelta(plans, plan.controllers)
    plans = new Map(plan.controllers.map((c) => [controllerKey(c), c]))
    for (const d of delta) emit({kind: 'PlanChange', time: at, now, event: why(d.next ?? d.previous!), key: d.key, previous: d.previous, next: d.next, changed: d.changed})
    for (const l of listeners) l()
  }

  // Watch before the first plan is shown: a change made as soon as it appears must not be missed.
  let reading = Promise.resolve()
  const watcher = watchFiles(req.filename!, {
    debounceMs: req.debounceMs,
    onChange: (files) => {
      reading = reading.then(async () => {
        try {
          snapshot = await readSnapshot(req)
        } catch (error) {
          if (!(error instanceof UserError)) throw error
          // Mid-edit, a file may not parse: say so and keep the last plans until it does.
          emit({kind: 'WatchStatus', time: time(clock), status: 'error', resource: 'files', message: error.line})
          return
        }
        const file = displayPath(files[0] ?? req.filename![0])
        replan(() => ({type: 'FILE', kind: 'File', name: file}))
      })
    },
    onError: (error) => emit({kind: 'WatchStatus', time: time(clock), status: 'error', resource: 'files', message: error.message}),
  })

  emit({kind: 'WatchStatus', time: time(clock), status: 'synced', resource: 'files', controllers: plannedObjects(snapshot), message: `read ${req.filename!.join(', ')}`})
  replan((c) => ({type: 'INITIAL', kind: c.kind, namespace: c.namespace, name: c.name, resourceVersion: c.resourceVersion}))

  const pendingPlans = () => [...plans.values()].filter((p) => !p.inSync)
  return supervise(req, clock, emit, signal, {
    converged: () => pendingPlans().length === 0,
    pending: pendingPlans,
    controllers: () => plans.size,
    onBatch: (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    resync: () => replan((c) => ({type: 'RESYNC', kind: c.kind, namespace: c.namespace, name: c.name, resourceVersion: c.resourceVersion})),
    stop: async () => {
      watcher.close()
      await reading.catch(() => {})
    },
  })
}

/** The objects of a snapshot that get a plan: every controller's, as its watch part counts them. */
function plannedObjects(s: Snapshot): number {
  return CONTROLLERS.reduce((n, c) => n + (c.watch?.planned(s) ?? 0), 0)
}

// ---------------------------------------------------------------------------------------------

interface Watched {
  converged(): boolean
  pending(): ControllerPlan[]
  controllers(): number
  onBatch(fn: () => void): () => void
  resync(): void
  /** Rejects when the watch fails for good. */
  failure?: Promise<unknown>
  stop(): Promise<void>
}

/** Waits for the end: converged, timeout, interrupted — or a failure, thrown. */
async function supervise(req: WatchRequest, clock: Clock, emit: (update: WatchUpdate) => void, signal: AbortSignal, w: Watched): Promise<WatchOutcome> {
  const timers: Timer[] = []
  let resyncTimer: Timer | undefined
  let unsubscribe = () => {}
  let onAbort = () => {}
  try {
    const end = await new Promise<WatchEnd>((resolve, reject) => {
      if (signal.aborted) return resolve('interrupted')
      onAbort = () => resolve('interrupted')
      signal.addEventListener('abort', onAbort, {once: true})
      const check = () => {
        if (req.untilConverged && w.converged()) resolve('converged')
      }
      unsubscribe = w.onBatch(check)
      check()
      if (req.timeoutMs !== undefined) timers.push(clock.setTimeout(() => resolve('timeout'), req.timeoutMs))
      if (req.resyncMs !== undefined && req.resyncMs > 0) {
        const every = req.resyncMs
        const tick = () => {
          emit({kind: 'WatchStatus', time: time(clock), status: 'resync', controllers: w.controllers()})
          w.resync()
          resyncTimer = clock.setTimeout(tick, every)
        }
        resyncTimer = clock.setTimeout(tick, every)
      }
      w.failure?.then(
        () => resolve('interrupted'),
        (error) => reject(error),
      )
    })
    const pending = w.pending()
    if (end === 'converged') emit({kind: 'WatchStatus', time: time(clock), status: 'converged', controllers: w.controllers(), inSync: w.controllers()})
    if (end === 'timeout') {
      emit({kind: 'WatchStatus', time: time(clock), status: 'timeout', controllers: w.controllers(), inSync: w.controllers() - pending.length, pending: pending.map((p) => controllerKey(p))})
    }
    return {end, pending, controllers: w.controllers()}
  } finally {
    for (const t of timers) t.cancel()
    resyncTimer?.cancel()
    unsubscribe()
    signal.removeEventListener('abort', onAbort)
    await w.stop()
  }
}
