// Watch mode's controller loop: informer events → the incremental planner → the work queue →
// plans of the affected controllers → the changes, reported. The event handlers mirror the
// ReplicaSet controller's (docs/replicaset-controller.md §1.6): a pod update whose resourceVersion did not
// change (a resync) is dropped; every controller update is handled, a resync's included.
// Planning waits until every informer has synced (§12.3), then plans every controller once.
import type {DeploymentView, PodView, Workload} from '../model/objects.js'
import type {ControllerPlan, FeatureGates} from '../model/plan.js'
import type {PlanChange, WatchCause, WatchUpdate} from '../model/watch.js'
import {IncrementalPlanner} from '../reconcile/incremental.js'
import type {CompiledSelector} from '../reconcile/selector.js'
import {byKindNamespaceName} from '../reconcile/planner.js'
import {formatRfc3339} from '../reconcile/time.js'
import type {Clock, Timer} from './clock.js'
import {changedFields, planChanged} from './delta.js'
import type {EventHandler} from './informer.js'
import {WorkQueue} from './queue.js'
import {NamespaceWatch} from './namespace-watch.js'
import type {NamespaceMember, WatchCaches} from './part.js'

export interface EngineOptions {
  featureGates: FeatureGates
  burstReplicas: number
  /** kube-controller-manager's --max-endpoints-per-slice; absent: 100. */
  maxEndpointsPerSlice?: number
  /** -l. */
  selector?: CompiledSelector
  clock: Clock
  /** A fixed clock for every plan (tests); otherwise the clock's time at each batch. */
  fixedNow?: string
  emit: (update: WatchUpdate) => void
  /** Schedules a batch of planning after the current burst of events (setImmediate). */
  defer?: (fn: () => void) => void
}

export class WatchEngine {
  readonly planner: IncrementalPlanner
  readonly queue: WorkQueue<string>
  private readonly causes = new Map<string, WatchCause>()
  /** Controllers whose current plan is not in sync. */
  private readonly notInSync = new Set<string>()
  private readonly failing = new Set<string>()
  private synced = false
  private scheduled = false
  private stopped = false
  private readonly defer: (fn: () => void) => void
  private readonly listeners = new Set<() => void>()
  /** The namespace-planned controllers, when their informers run (a live watch): one watch per group planned together. */
  private readonly byNamespace: NamespaceWatch[] = []
  /** Per namespace watch and namespace, the timer of its next requeue (and when it fires, in ms). */
  private readonly requeueTimers = new Map<string, {at: number; timer: Timer}>()

  constructor(private readonly options: EngineOptions) {
    this.planner = new IncrementalPlanner({featureGates: options.featureGates, burstReplicas: options.burstReplicas, selector: options.selector})
    this.queue = new WorkQueue<string>(options.clock)
    this.defer = options.defer ?? ((fn) => void setImmediate(fn))
    this.queue.onReady(() => this.schedule())
  }

  get hasSynced(): boolean {
    return this.synced
  }

  /** Every controller watched, and the plans not in sync. */
  get controllers(): number {
    return this.planner.controllerCount + this.byNamespace.reduce((n, w) => n + w.controllerCount, 0)
  }

  get converged(): boolean {
    return this.synced && this.notInSync.size === 0 && this.byNamespace.every((w) => w.notSynced().length === 0 && w.pendingCount === 0)
  }

  pending(): ControllerPlan[] {
    const plans = [...this.notInSync].map((k) => this.planner.planOf(k)).filter((p): p is ControllerPlan => p !== undefined)
    return [...plans, ...this.byNamespace.flatMap((w) => w.notSynced())].sort(byKindNamespaceName)
  }

  /** Plans these controllers too, together, by namespace, from these caches (feed it with objectHandler). */
  watchNamespaces(members: readonly NamespaceMember[], caches: WatchCaches): NamespaceWatch {
    return this.addNamespaced(new NamespaceWatch(members, caches, this.namespaceOptions()))
  }

  private namespaceOptions() {
    return {featureGates: this.options.featureGates, burstReplicas: this.options.burstReplicas, maxEndpointsPerSlice: this.options.maxEndpointsPerSlice, selector: this.options.selector}
  }

  private addNamespaced(watch: NamespaceWatch): NamespaceWatch {
    this.byNamespace.push(watch)
    return watch
  }

  /**
   * Events of the objects namespace-planned controllers read (their own, and what their watch
   * parts say their syncs read) re-plan their namespace in `watches`; a cluster-scoped one's
   * (a Node's) every namespace. A resync re-plans at the current clock; an unchanged relist does not.
   */
  objectHandler<T extends {namespace: string; name: string; resourceVersion: string}>(kind: string, watches: readonly NamespaceWatch[], clusterScoped = false): EventHandler<T> {
    const touch = (o: T, why: WatchCause | undefined) => {
      for (const w of watches) w.touch(clusterScoped ? undefined : o.namespace, why)
      this.schedule()
    }
    return {
      onAdd: (o, initial) => touch(o, cause(initial ? 'INITIAL' : 'ADDED', kind, o, false)),
      onUpdate: (old, o, how) => {
        if (how === 'resync') return touch(o, {type: 'RESYNC', kind, namespace: o.namespace, name: o.name, resourceVersion: o.resourceVersion})
        if (old.resourceVersion === o.resourceVersion) return
        touch(o, cause('MODIFIED', kind, o, how === 'relist'))
      },
      onDelete: (o, how) => touch(o, cause('DELETED', kind, o, how === 'relist')),
    }
  }

  /** Plans `namespace` of `watch` again in the next batch (what its controllers read live changed, or its period came). */
  replanNamespace(watch: NamespaceWatch, namespace: string, why: WatchCause): void {
    watch.touch(namespace, why)
    this.schedule()
  }

  /** The namespace watches (those whose parts read live are refreshed by watch/live-reads.ts). */
  get namespaceWatches(): readonly NamespaceWatch[] {
    return this.byNamespace
  }

  plans(): ControllerPlan[] {
    return this.planner.plans()
  }

  /** Called after each batch of planning. */
  onBatch(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly podHandler: EventHandler<PodView> = {
    onAdd: (pod, initial) => this.enqueue(this.planner.setPod(pod), this.namespacedPod(pod, cause(initial ? 'INITIAL' : 'ADDED', 'Pod', pod, false))),
    onUpdate: (old, pod, how) => {
      // updatePod: a resync (or a relist finding it unchanged) delivers the same resourceVersion.
      if (old.resourceVersion === pod.resourceVersion) return
      this.enqueue(this.planner.setPod(pod, old), this.namespacedPod(pod, cause('MODIFIED', 'Pod', pod, how === 'relist'), old))
    },
    onDelete: (pod, how) => this.enqueue(this.planner.deletePod(pod), this.namespacedPod(pod, cause('DELETED', 'Pod', pod, how === 'relist'))),
  }

  /** A pod event for the namespace-planned controllers of its namespace; returns the cause. */
  private namespacedPod(pod: PodView, why: WatchCause, old?: PodView): WatchCause {
    if (this.byNamespace.length > 0 && this.synced) {
      for (const w of this.byNamespace) w.touchPod(pod, why, old)
      this.schedule()
    }
    return why
  }

  readonly workloadHandler: EventHandler<Workload> = {
    onAdd: (w, initial) => this.enqueue(this.planner.setWorkload(w), cause(initial ? 'INITIAL' : 'ADDED', w.kind, w, false)),
    onUpdate: (old, w, how) => {
      // updateRS: every update is handled, a resync's included (it re-plans at the current clock).
      if (how === 'resync') return this.enqueue(this.planner.setWorkload(w), {type: 'RESYNC', kind: w.kind, namespace: w.namespace, name: w.name, resourceVersion: w.resourceVersion})
      if (how === 'relist' && old.resourceVersion === w.resourceVersion) return this.enqueue(this.planner.setWorkload(w), undefined)
      this.enqueue(this.planner.setWorkload(w), cause('MODIFIED', w.kind, w, how === 'relist'))
    },
    onDelete: (w, how) => this.enqueue(this.planner.deleteWorkload(w), cause('DELETED', w.kind, w, how === 'relist')),
  }

  readonly deploymentHandler: EventHandler<DeploymentView> = {
    onAdd: (d, initial) => this.enqueue(this.planner.setDeployment(d), cause(initial ? 'INITIAL' : 'ADDED', d.kind, d, false)),
    onUpdate: (old, d, how) => {
      if (how === 'resync') return this.enqueue(this.planner.setDeployment(d), {type: 'RESYNC', kind: d.kind, namespace: d.namespace, name: d.name, resourceVersion: d.resourceVersion})
      if (how === 'relist' && old.resourceVersion === d.resourceVersion) return this.enqueue(this.planner.setDeployment(d), undefined)
      this.enqueue(this.planner.setDeployment(d), cause('MODIFIED', d.kind, d, how === 'relist'))
    },
    onDelete: (d, how) => this.enqueue(this.planner.deleteDeployment(d), cause('DELETED', d.kind, d, how === 'relist')),
  }

  /** Every informer has synced: plan every controller, report `synced`, then the first plans. */
  markSynced(status: Omit<Extract<WatchUpdate, {kind: 'WatchStatus'}>, 'kind' | 'time' | 'status'> = {}): void {
    if (this.synced) return
    this.synced = true
    for (const key of this.planner.plannedKeys()) {
      const w = this.planner.object(key)!
      this.causes.set(key, {type: 'INITIAL', kind: w.kind, namespace: w.namespace, name: w.name, resourceVersion: w.resourceVersion})
      this.queue.add(key)
    }
    for (const w of this.byNamespace) w.touchAll(() => ({type: 'INITIAL'}))
    // The first plans of the namespace-planned controllers, so the count below includes them.
    const first = this.planNamespaces(this.options.fixedNow ?? this.time(), this.time())
    this.options.emit({kind: 'WatchStatus', time: this.time(), status: 'synced', controllers: this.controllers, ...status})
    for (const change of first) this.options.emit(change)
    this.process()
  }

  stop(): void {
    this.stopped = true
    this.queue.shutdown()
    for (const {timer} of this.requeueTimers.values()) timer.cancel()
    this.requeueTimers.clear()
  }

  /** Plans the marked namespaces, then sets a timer for each namespace whose plans ask to be synced again at a time. */
  private planNamespaces(now: string, time: string): PlanChange[] {
    const changes = this.byNamespace.flatMap((w) => w.plan(now, time))
    if (this.options.fixedNow !== undefined) return changes
    this.byNamespace.forEach((w, i) => {
      for (const [ns, at] of w.requeues()) {
        const key = `${i}/${ns}`
        const known = this.requeueTimers.get(key)
        if (known && known.at === at) continue
        known?.timer.cancel()
        const timer = this.options.clock.setTimeout(() => {
          this.requeueTimers.delete(key)
          w.touch(ns, {type: 'CLOCK'})
          this.schedule()
        }, at - this.options.clock.now())
        this.requeueTimers.set(key, {at, timer})
      }
    })
    return changes
  }

  private enqueue(keys: Iterable<string>, why: WatchCause | undefined): void {
    for (const key of keys) {
      if (why) this.causes.set(key, why)
      this.queue.add(key)
    }
  }

  private schedule(): void {
    if (this.scheduled || !this.synced || this.stopped) return
    this.scheduled = true
    this.defer(() => {
      this.scheduled = false
      this.process()
    })
  }

  /** One batch: every ready key, planned at one clock reading. */
  process(): void {
    if (!this.synced || this.stopped) return
    const keys: string[] = []
    for (let key = this.queue.tryGet(); key !== undefined; key = this.queue.tryGet()) keys.push(key)
    if (keys.length === 0 && this.byNamespace.every((w) => w.pendingCount === 0)) return
    const nowMs = this.options.clock.now()
    const now = this.options.fixedNow ?? formatRfc3339(BigInt(nowMs) * 1_000_000n)
    const time = formatRfc3339(BigInt(nowMs) * 1_000_000n)
    const namespaceChanges = this.planNamespaces(now, time)
    const {replanned, failed} = this.planner.plan(keys, now)
    // Why each key was planned: its last event; a key queued by a timer has none (CLOCK); a
    // controller re-planned only because another's adoption changed takes the batch's last cause.
    const why = new Map<string, WatchCause>()
    let batchCause: WatchCause | undefined
    for (const key of keys) {
      const c = this.causes.get(key) ?? {type: 'CLOCK' as const}
      why.set(key, c)
      if (c.type !== 'CLOCK') batchCause = c
      if (failed.has(key)) {
        this.queue.addRateLimited(key)
      } else {
        this.queue.forget(key)
        this.causes.delete(key)
        this.failing.delete(key)
      }
      this.queue.done(key)
    }
    const changes: PlanChange[] = []
    for (const r of replanned) {
      if (r.next && !r.next.inSync) this.notInSync.add(r.key)
      else this.notInSync.delete(r.key)
      if (!planChanged(r.previous, r.next)) continue
      const event = why.get(r.key) ?? batchCause ?? {type: 'CLOCK'}
      changes.push({kind: 'PlanChange', time, now, event, key: r.key, previous: r.previous, next: r.next, changed: changedFields(r.previous, r.next)})
    }
    changes.push(...namespaceChanges)
    changes.sort((a, b) => byKindNamespaceName(a.next ?? a.previous!, b.next ?? b.previous!))
    for (const change of changes) this.options.emit(change)
    for (const [key, error] of failed) {
      if (this.failing.has(key)) continue
      this.failing.add(key)
      this.options.emit({kind: 'WatchStatus', time, status: 'error', message: `planning ${key} failed (a bug in kctl; retrying): ${error instanceof Error ? error.message : String(error)}`})
    }
    // minReadySeconds: plan again when the next Ready pod becomes available (§1.1 step 12).
    if (this.options.fixedNow === undefined) {
      const nowNs = BigInt(nowMs) * 1_000_000n
      for (const key of keys) {
        const at = this.planner.nextAvailabilityCheck(key, nowNs)
        if (at !== undefined) this.queue.addAfter(key, Number((at - nowNs + 999_999n) / 1_000_000n))
      }
    }
    for (const l of this.listeners) l()
  }

  private time(): string {
    return formatRfc3339(BigInt(this.options.clock.now()) * 1_000_000n)
  }
}

function cause(type: WatchCause['type'], kind: string, obj: {namespace: string; name: string; resourceVersion: string}, relist: boolean): WatchCause {
  const c: WatchCause = {type, kind, namespace: obj.namespace, name: obj.name, resourceVersion: obj.resourceVersion}
  if (relist) c.relist = true
  return c
}
