// Watch mode for the controllers whose syncs read more than their own pods (their watch parts are
// `by: 'namespace'`, src/watch/part.ts): instead of the pod-by-pod bookkeeping of the ReplicaSet planner
// (incremental.ts), an event marks its namespace and the next batch plans that namespace's
// controllers again, from the informers' caches, through the same planners as `kctl plan`
// (planSnapshot). The cost of a re-plan is that namespace's objects, not the cluster's.
import type {PodView, Snapshot} from '../model/objects.js'
import type {ControllerPlan, FeatureGates} from '../model/plan.js'
import type {PlanChange, WatchCause} from '../model/watch.js'
import {byKindNamespaceName, planSnapshot} from '../reconcile/planner.js'
import type {CompiledSelector} from '../reconcile/selector.js'
import type {LiveGet} from '../sources/part.js'
import {changedFields, deepEqual, planChanged} from './delta.js'
import type {NamespaceMember, WatchCaches} from './part.js'

export interface NamespaceWatchOptions {
  featureGates: FeatureGates
  burstReplicas: number
  maxEndpointsPerSlice?: number
  /** -l: the controllers planned. */
  selector?: CompiledSelector
}

export const LIVE_SOURCE = {type: 'cluster', context: '', server: ''} as const

/**
 * One namespace watch: the controllers planned together in one namespace pass (a controller and
 * those whose parts say `plannedWith` it), each answering through its watch part.
 */
export class NamespaceWatch {
  private readonly plans = new Map<string, ControllerPlan>()
  private readonly notInSync = new Set<string>()
  /** Namespaces to plan again, with the last event that asked for it. */
  private readonly dirty = new Map<string, WatchCause | undefined>()
  /** kube-controller-manager's names of the controllers planned here. */
  private readonly controllers: readonly string[]
  /** What the members read live, by namespace (their parts' `live`). */
  private readonly live = new Map<string, Partial<Snapshot>>()
  private readonly liveReaders: number
  /** Kinds whose plans' `requeue` sets no clock. */
  private readonly noClock: ReadonlySet<string>

  constructor(
    private readonly members: readonly NamespaceMember[],
    private readonly caches: WatchCaches,
    protected readonly options: NamespaceWatchOptions,
  ) {
    this.controllers = members.map((m) => m.name)
    this.noClock = new Set(members.filter((m) => m.watch.clockRequeues === false).flatMap((m) => m.kinds))
    this.liveReaders = members.filter((m) => m.watch.live).length
  }

  /** The objects one namespace's controllers are planned from. */
  protected snapshot(namespace: string): Snapshot {
    return {...this.cached(namespace), ...this.live.get(namespace)}
  }

  /** What the informers hold of one namespace (a part may give the ReplicaSets and workloads its sync reads). */
  private cached(namespace: string): Snapshot {
    const parts = this.members.map((m) => m.watch.snapshot(this.caches, namespace, this.options.selector))
    return Object.assign({workloads: [], replicaSets: []}, ...parts, {
      pods: [...this.caches.list<PodView>('pods', namespace)],
      ignored: {},
      source: LIVE_SOURCE,
    }) as Snapshot
  }

  /** Whether a member reads something no informer watches (its part's `live`), and how often. */
  get liveEveryMs(): number | undefined {
    const every = this.members.flatMap((m) => (m.watch.live ? [m.watch.live.everyMs] : []))
    return every.length === 0 ? undefined : Math.min(...every)
  }

  /** Namespaces whose live reads an event other than a pod's may have changed (a new HPA, another target size). */
  private readonly liveStale = new Set<string>()

  /** The stale namespaces (and forgets them). */
  takeLiveStale(): string[] {
    const out = [...this.liveStale]
    this.liveStale.clear()
    return out
  }

  /** Namespaces holding an object of a member that reads live. */
  liveNamespaces(): string[] {
    return [...new Set(this.members.flatMap((m) => (m.watch.live ? [...m.watch.namespaces(this.caches)] : [])))]
  }

  /** Reads again what the members read live in `namespace` (kept until the next read); whether it changed. */
  async readLive(namespace: string, get: LiveGet): Promise<boolean> {
    const base = this.cached(namespace)
    let next: Partial<Snapshot> = {}
    for (const m of this.members) if (m.watch.live) next = {...next, ...(await m.watch.live.read(get, base))}
    const changed = !deepEqual(next, this.live.get(namespace) ?? {})
    this.live.set(namespace, next)
    return changed
  }

  /** Namespaces that hold a controller planned here. */
  protected namespaces(): Iterable<string> {
    return new Set(this.members.flatMap((m) => [...m.watch.namespaces(this.caches)]))
  }

  /** Whether `namespace` holds a controller planned here. */
  protected holds(namespace: string): boolean {
    return this.members.some((m) => m.watch.holds(this.caches, namespace))
  }

  /**
   * Whether a pod's event may change a plan of its namespace (by its controller's kind, or as an
   * orphan; for Services, by their selectors), the pod as it is and, for an update, as it was.
   */
  protected podMatters(pod: PodView, old: PodView | undefined): boolean {
    return this.members.some((m) => m.watch.podMatters(this.caches, pod, old))
  }

  get controllerCount(): number {
    return this.plans.size
  }

  get pendingCount(): number {
    return this.dirty.size
  }

  notSynced(): ControllerPlan[] {
    return [...this.notInSync].map((k) => this.plans.get(k)!).filter(Boolean)
  }

  /** An event in `namespace` (undefined: one every namespace reads, such as a Node's). */
  touch(namespace: string | undefined, why: WatchCause | undefined): void {
    if (namespace !== undefined && this.liveReaders > 0 && why && why.type !== 'CLOCK' && why.kind !== 'Pod') this.liveStale.add(namespace)
    if (namespace !== undefined) {
      this.dirty.set(namespace, why ?? this.dirty.get(namespace))
      return
    }
    for (const ns of this.namespaces()) this.dirty.set(ns, why ?? this.dirty.get(ns))
  }

  /** A pod event matters only where one of these controllers might own it. */
  touchPod(pod: PodView, why: WatchCause | undefined, old?: PodView): void {
    if (this.podMatters(pod, old) && this.holds(pod.namespace)) this.touch(pod.namespace, why)
  }

  /** Every namespace with a controller planned here (after the informers synced), each with `why`. */
  touchAll(why: (ns: string) => WatchCause | undefined): void {
    for (const ns of this.namespaces()) this.dirty.set(ns, why(ns))
  }

  /** When each namespace's controllers ask to be synced again by the clock (their plans' `requeue`), in ms. */
  requeues(): Map<string, number> {
    const out = new Map<string, number>()
    for (const plan of this.plans.values()) {
      if (!plan.requeue || this.noClock.has(plan.kind)) continue
      const at = Date.parse(plan.requeue.at)
      const known = out.get(plan.namespace)
      if (known === undefined || at < known) out.set(plan.namespace, at)
    }
    return out
  }

  /** Plans the marked namespaces again at `now`; the plans that changed. */
  plan(now: string, time: string): PlanChange[] {
    const changes: PlanChange[] = []
    const marked = [...this.dirty]
    this.dirty.clear()
    for (const [ns, why] of marked) {
      const planned = planSnapshot(this.snapshot(ns), {now, featureGates: this.options.featureGates, burstReplicas: this.options.burstReplicas, maxEndpointsPerSlice: this.options.maxEndpointsPerSlice}, this.controllers).controllers
      const next = new Map(planned.map((p) => [`${p.kind}/${p.namespace}/${p.name}`, p]))
      const keys = new Set([...next.keys(), ...[...this.plans.keys()].filter((k) => k.split('/')[1] === ns)])
      for (const key of keys) {
        const previous = this.plans.get(key)
        const plan = next.get(key)
        if (plan) this.plans.set(key, plan)
        else this.plans.delete(key)
        if (plan && !plan.inSync) this.notInSync.add(key)
        else this.notInSync.delete(key)
        if (!planChanged(previous, plan)) continue
        const event = why ?? {type: 'CLOCK' as const}
        changes.push({kind: 'PlanChange', time, now, event, key, previous, next: plan, changed: changedFields(previous, plan)})
      }
    }
    return changes.sort((a, b) => byKindNamespaceName(a.next ?? a.previous!, b.next ?? b.previous!))
  }
}
