// What a controller gives watch mode (`kctl watch`): the resources it lists and watches, how the
// watch cache keeps their objects, and which events re-plan which of its objects. The shared
// machinery — reflectors, informers, the work queue, the engine, the incremental planner, the
// namespace watch — stays in src/watch/ and src/reconcile/incremental.ts, and asks these parts;
// src/controllers/descriptor.ts joins this part into each controller's descriptor.
//
// Two ways of keeping plans up to date:
//   - object by object (`by: 'object'`): the incremental planner's pod-by-pod bookkeeping
//     (reconcile/incremental.ts) — the ReplicaSet and Deployment controllers;
//   - by namespace (`by: 'namespace'`): an event marks its namespace and the next batch plans that
//     namespace's controllers again (watch/namespace-watch.ts) — the controllers whose syncs read
//     more than their own pods.
import type {DeploymentView, PodView, Snapshot, Workload} from '../model/objects.js'
import type {ControllerPlan} from '../model/plan.js'
import type {World} from '../reconcile/planner.js'
import type {CompiledSelector} from '../reconcile/selector.js'
import type {WatchedResource} from '../sources/cluster-watch.js'
import type {LiveGet} from '../sources/part.js'
import type {WatchEngine} from './engine.js'
import type {CachedObject, EventHandler, ObjectProblem} from './informer.js'
import type {Interner} from './objects.js'
import type {RawObject} from './reflector.js'

/** One resource a controller lists and watches, and how the watch cache keeps its objects. */
export interface WatchedResourcePart<T extends CachedObject = CachedObject> {
  resource: WatchedResource
  /** The kind its events are reported under (a WatchCause's kind). */
  kind: string
  /** Cluster-scoped (Nodes): an event marks every namespace of the watches it feeds. */
  clusterScoped?: true
  normalize(raws: readonly RawObject[], interner: Interner): {objects: T[]; problems: ObjectProblem[]}
}

/** What the informers hold, by resource. */
export interface WatchCaches {
  /** Its objects in one namespace. */
  list<T>(resource: WatchedResource, namespace: string): Iterable<T>
  /** All its objects (a cluster-scoped resource's, such as Nodes). */
  all<T>(resource: WatchedResource): Iterable<T>
  /** The namespaces holding one of its objects. */
  namespaces(resource: WatchedResource): Iterable<string>
}

interface WatchCommon {
  /** The resources of its own kinds, in the order their informers start. */
  resources: readonly WatchedResourcePart[]
  /**
   * The resources a live watch must be allowed to list for this controller: the first the API
   * server refuses (403) leaves it out, and those planned with it (`<its resources> are left out: …`).
   */
  requires?: readonly WatchedResource[]
  /**
   * A pod this controller's sync reads more of than the shared fields (watch/pods.ts): `reads`
   * says which (by its metadata), `strip` keeps the rest of what the sync reads.
   */
  podFields?: {reads(meta: RawObject): boolean; strip(raw: RawObject, out: RawObject): RawObject}
  /** How many objects of a snapshot get a plan of its (what a fixture watch's synced status counts). */
  planned(snapshot: Snapshot): number
}

/** Planned object by object: its resources' events go to one of the engine's handlers. */
export interface ObjectWatchPart extends WatchCommon {
  by: 'object'
  feed(engine: WatchEngine): EventHandler<never>
  /**
   * Which of its objects the incremental planner keeps grouped by their controller owner, every
   * one of them (-l or not), as planSnapshot's `snapshot.replicaSets`: the owner's sync reads them,
   * and their siblings' plans rank pods by them.
   */
  groupedByOwner?(w: Workload): boolean
  /** The next sync of an owner of grouped objects (a Deployment), given the grouped objects of its namespace. */
  planOwner?(owner: DeploymentView, owned: Workload[], world: World): ControllerPlan | undefined
  /** The next sync of one of its own objects, kept pod by pod by the incremental planner (a ReplicaSet). */
  planObject?(w: Workload, world: World): ControllerPlan
  /** The warnings its plans get when several of them adopt one pod (they are planned together). */
  adoptionWarnings?(plans: readonly ControllerPlan[]): Map<ControllerPlan, string[]>
}

/** Planned by namespace: what its sync reads of a namespace, and which events mark one. */
export interface NamespaceWatchPart extends WatchCommon {
  by: 'namespace'
  /**
   * The controller whose namespace watch plans this one's objects too (its sync reads the other's
   * objects, or they share informers): one namespace pass plans both. Absent: its own watch.
   */
  plannedWith?: string
  /** The other resources its sync reads (after every `resources` of its watch start). */
  reads: readonly WatchedResourcePart[]
  /** Namespaces holding an object of its (Nodes: every namespace of these is marked). */
  namespaces(caches: WatchCaches): Iterable<string>
  /** Whether `namespace` holds a controller of its. */
  holds(caches: WatchCaches, namespace: string): boolean
  /** Whether a pod's event (the pod now and, for an update, before) may change one of its plans. */
  podMatters(caches: WatchCaches, pod: PodView, old: PodView | undefined): boolean
  /** What its sync reads of one namespace, its objects filtered (or marked not planned) by -l. */
  snapshot(caches: WatchCaches, namespace: string, selector: CompiledSelector | undefined): Partial<Snapshot>
  /** false: its plans' `requeue` sets no clock (only an event changes what a retried sync sees). */
  clockRequeues?: false
  /**
   * What its sync reads that no informer watches (an HPA's metrics APIs): read again for each
   * namespace holding one of its objects every `everyMs` (then the namespace is planned again), and
   * after an event of an object other than a pod (an HPA, a scale target) when what it reads changed.
   */
  live?: {everyMs: number; read(get: LiveGet, snapshot: Snapshot): Promise<Partial<Snapshot>>}
}

export type ControllerWatch = ObjectWatchPart | NamespaceWatchPart

export interface WatchPart {
  watch: ControllerWatch
}

/** A controller as a namespace watch sees it. */
export interface NamespaceMember {
  name: string
  kinds: readonly string[]
  watch: NamespaceWatchPart
}
