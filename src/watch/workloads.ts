// Watch mode for the controllers whose syncs read more than their own pods: StatefulSets and
// DaemonSets (their ControllerRevisions, the claims of their namespace, every Node) and Services
// (the pods they select, their EndpointSlices and Endpoints, every Node). Instead of the
// pod-by-pod bookkeeping of the ReplicaSet planner (incremental.ts), an event marks its namespace
// (a Node: every namespace) and the next batch plans that namespace's controllers again, from the
// informers' caches, through the same planners as `kctl plan` (planSnapshot). The cost of a
// re-plan is that namespace's objects, not the cluster's.
import type {PodView, Snapshot} from '../model/objects.js'
import type {ControllerPlan, FeatureGates} from '../model/plan.js'
import type {EndpointSliceView, EndpointsView, ServiceView} from '../model/services.js'
import type {PlanChange, WatchCause} from '../model/watch.js'
import type {ClaimView, ControllerRevisionView, DaemonSetView, NodeView, StatefulSetView} from '../model/workloads.js'
import {byKindNamespaceName, planSnapshot} from '../reconcile/planner.js'
import {type CompiledSelector, selectorMatches} from '../reconcile/selector.js'
import {changedFields, planChanged} from './delta.js'

/** What the informers hold for StatefulSets and DaemonSets, by namespace (Nodes: all of them). */
export interface WorkloadSources {
  statefulSets(namespace: string): Iterable<StatefulSetView>
  daemonSets(namespace: string): Iterable<DaemonSetView>
  revisions(namespace: string): Iterable<ControllerRevisionView>
  claims(namespace: string): Iterable<ClaimView>
  pods(namespace: string): Iterable<PodView>
  nodes(): Iterable<NodeView>
  /** Namespaces that hold a StatefulSet or a DaemonSet. */
  namespaces(): Iterable<string>
}

/** What the informers hold for Services, by namespace (Nodes: all of them). */
export interface ServiceSources {
  services(namespace: string): Iterable<ServiceView>
  endpointSlices(namespace: string): Iterable<EndpointSliceView>
  endpoints(namespace: string): Iterable<EndpointsView>
  pods(namespace: string): Iterable<PodView>
  nodes(): Iterable<NodeView>
  /** Namespaces that hold a Service or an Endpoints object (which may be left over). */
  namespaces(): Iterable<string>
}

/** One kind of namespace-planned controller: what its plans read, and which pod events concern it. */
interface NamespacePlanning {
  /** Registry names of the controllers planned (planSnapshot's `only`). */
  controllers: readonly string[]
  /** The objects one namespace's plans read, with `keep` (-l) applied to the controllers. */
  snapshot(namespace: string, keep: <T extends {labels: Readonly<Record<string, string>>}>(list: Iterable<T>) => T[], selected: (o: {labels: Readonly<Record<string, string>>}) => boolean): Omit<Snapshot, 'source' | 'ignored'>
  namespaces(): Iterable<string>
  /** Whether a pod event (the pod as it is and, for an update, as it was) can change a plan of its namespace. */
  podMatters(pod: PodView, old: PodView | undefined): boolean
}

export interface NamespaceWatchOptions {
  featureGates: FeatureGates
  burstReplicas: number
  selector?: CompiledSelector
}

const SOURCE = {type: 'cluster', context: '', server: ''} as const

export class NamespaceWatch {
  private readonly plans = new Map<string, ControllerPlan>()
  private readonly notInSync = new Set<string>()
  /** Namespaces to plan again, with the last event that asked for it. */
  private readonly dirty = new Map<string, WatchCause | undefined>()

  protected constructor(
    private readonly planning: NamespacePlanning,
    private readonly options: NamespaceWatchOptions,
  ) {}

  get controllerCount(): number {
    return this.plans.size
  }

  get pendingCount(): number {
    return this.dirty.size
  }

  notSynced(): ControllerPlan[] {
    return [...this.notInSync].map((k) => this.plans.get(k)!).filter(Boolean)
  }

  /** An event in `namespace` (undefined: a Node, which every namespace's plans read). */
  touch(namespace: string | undefined, why: WatchCause | undefined): void {
    if (namespace !== undefined) {
      this.dirty.set(namespace, why ?? this.dirty.get(namespace))
      return
    }
    for (const ns of this.planning.namespaces()) this.dirty.set(ns, why ?? this.dirty.get(ns))
  }

  /** A pod event marks its namespace when it can change a plan there. */
  touchPod(pod: PodView, why: WatchCause | undefined, old?: PodView): void {
    if (this.planning.podMatters(pod, old)) this.touch(pod.namespace, why)
  }

  /** Every namespace that holds a planned controller (after the informers synced), each with `why`. */
  touchAll(why: (ns: string) => WatchCause | undefined): void {
    for (const ns of this.planning.namespaces()) this.dirty.set(ns, why(ns))
  }

  /** Plans the marked namespaces again at `now`; the plans that changed. */
  plan(now: string, time: string): PlanChange[] {
    const changes: PlanChange[] = []
    const marked = [...this.dirty]
    this.dirty.clear()
    const selected = (o: {labels: Readonly<Record<string, string>>}) => !this.options.selector || selectorMatches(this.options.selector, o.labels)
    const keep = <T extends {labels: Readonly<Record<string, string>>}>(list: Iterable<T>) => [...list].filter(selected)
    for (const [ns, why] of marked) {
      const snapshot: Snapshot = {...this.planning.snapshot(ns, keep, selected), ignored: {}, source: SOURCE}
      const planned = planSnapshot(snapshot, {now, featureGates: this.options.featureGates, burstReplicas: this.options.burstReplicas}, this.planning.controllers).controllers
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

/** StatefulSets and DaemonSets. */
export class WorkloadWatch extends NamespaceWatch {
  constructor(sources: WorkloadSources, options: NamespaceWatchOptions) {
    super(
      {
        controllers: ['statefulset', 'daemonset'],
        snapshot: (ns, keep) => ({
          statefulSets: keep(sources.statefulSets(ns)),
          daemonSets: keep(sources.daemonSets(ns)),
          nodes: [...sources.nodes()],
          controllerRevisions: [...sources.revisions(ns)],
          claims: [...sources.claims(ns)],
          pods: [...sources.pods(ns)],
          workloads: [],
          replicaSets: [],
        }),
        namespaces: () => sources.namespaces(),
        // Only where a StatefulSet or DaemonSet might own the pod.
        podMatters: (pod) => {
          const owner = pod.ownerReferences.find((r) => r.controller === true)
          if (owner && owner.kind !== 'StatefulSet' && owner.kind !== 'DaemonSet') return false
          for (const _ of sources.statefulSets(pod.namespace)) return true
          for (const _ of sources.daemonSets(pod.namespace)) return true
          return false
        },
      },
      options,
    )
  }
}

/**
 * Services: the EndpointSlice, Endpoints and mirroring controllers' syncs and the load-balancer
 * controller's, as `kctl plan` joins them. A pod matters when a Service of its namespace selects
 * it now or selected it before the update (a label change moves it out).
 */
export class ServiceWatch extends NamespaceWatch {
  constructor(sources: ServiceSources, options: NamespaceWatchOptions) {
    const selects = (svc: ServiceView, pod: PodView) => svc.selector !== null && Object.entries(svc.selector).every(([k, v]) => pod.labels[k] === v)
    super(
      {
        controllers: ['endpointslice'],
        // Services outside -l are not planned, but still keep their Endpoints objects from looking left over.
        snapshot: (ns, _keep, selected) => ({
          services: [...sources.services(ns)].map((s) => (selected(s) ? s : {...s, notPlanned: true as const})),
          endpointSlices: [...sources.endpointSlices(ns)],
          endpoints: [...sources.endpoints(ns)],
          nodes: [...sources.nodes()],
          pods: [...sources.pods(ns)],
          workloads: [],
          replicaSets: [],
        }),
        namespaces: () => sources.namespaces(),
        podMatters: (pod, old) => {
          for (const svc of sources.services(pod.namespace)) if (selects(svc, pod) || (old !== undefined && selects(svc, old))) return true
          return false
        },
      },
      options,
    )
  }
}
