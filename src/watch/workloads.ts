// Watch mode for StatefulSets and DaemonSets. Their syncs read more than their pods — their
// ControllerRevisions, the claims of their namespace, every Node — so instead of the pod-by-pod
// bookkeeping of the ReplicaSet planner (incremental.ts), an event marks its namespace (a Node:
// every namespace) and the next batch plans that namespace's StatefulSets and DaemonSets again,
// from the informers' caches, through the same planners as `kctl plan` (planSnapshot). The cost
// of a re-plan is that namespace's pods and revisions, not the cluster's.
import type {PodView, Snapshot} from '../model/objects.js'
import type {ControllerPlan, FeatureGates} from '../model/plan.js'
import type {PlanChange, WatchCause} from '../model/watch.js'
import type {ClaimView, ControllerRevisionView, DaemonSetView, NodeView, StatefulSetView} from '../model/workloads.js'
import {byKindNamespaceName, planSnapshot} from '../reconcile/planner.js'
import {type CompiledSelector, selectorMatches} from '../reconcile/selector.js'
import {changedFields, planChanged} from './delta.js'

/** What the informers hold, by namespace (Nodes: all of them). */
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

const SOURCE = {type: 'cluster', context: '', server: ''} as const

export class WorkloadWatch {
  private readonly plans = new Map<string, ControllerPlan>()
  private readonly notInSync = new Set<string>()
  /** Namespaces to plan again, with the last event that asked for it. */
  private readonly dirty = new Map<string, WatchCause | undefined>()

  constructor(
    private readonly sources: WorkloadSources,
    private readonly options: {featureGates: FeatureGates; burstReplicas: number; selector?: CompiledSelector},
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

  /** An event in `namespace` (undefined: a Node, which every DaemonSet reads). */
  touch(namespace: string | undefined, why: WatchCause | undefined): void {
    if (namespace !== undefined) {
      this.dirty.set(namespace, why ?? this.dirty.get(namespace))
      return
    }
    for (const ns of this.sources.namespaces()) this.dirty.set(ns, why ?? this.dirty.get(ns))
  }

  /** A pod event matters only where a StatefulSet or DaemonSet might own it. */
  touchPod(pod: PodView, why: WatchCause | undefined): void {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    if (owner && owner.kind !== 'StatefulSet' && owner.kind !== 'DaemonSet') return
    for (const _ of this.sources.statefulSets(pod.namespace)) return this.touch(pod.namespace, why)
    for (const _ of this.sources.daemonSets(pod.namespace)) return this.touch(pod.namespace, why)
  }

  /** Every namespace with a StatefulSet or DaemonSet (after the informers synced), each with `why`. */
  touchAll(why: (ns: string) => WatchCause | undefined): void {
    for (const ns of this.sources.namespaces()) this.dirty.set(ns, why(ns))
  }

  /** Plans the marked namespaces again at `now`; the plans that changed. */
  plan(now: string, time: string): PlanChange[] {
    const changes: PlanChange[] = []
    const marked = [...this.dirty]
    this.dirty.clear()
    for (const [ns, why] of marked) {
      const keep = <T extends {labels: Readonly<Record<string, string>>}>(list: Iterable<T>) => [...list].filter((o) => !this.options.selector || selectorMatches(this.options.selector, o.labels))
      const snapshot: Snapshot = {
        statefulSets: keep(this.sources.statefulSets(ns)),
        daemonSets: keep(this.sources.daemonSets(ns)),
        nodes: [...this.sources.nodes()],
        controllerRevisions: [...this.sources.revisions(ns)],
        claims: [...this.sources.claims(ns)],
        pods: [...this.sources.pods(ns)],
        workloads: [],
        replicaSets: [],
        ignored: {},
        source: SOURCE,
      }
      const planned = planSnapshot(snapshot, {now, featureGates: this.options.featureGates, burstReplicas: this.options.burstReplicas}, ['statefulset', 'daemonset']).controllers
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
