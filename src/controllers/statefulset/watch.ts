// Watch mode for StatefulSets and DaemonSets. Their syncs read more than their pods — their
// ControllerRevisions, the claims of their namespace, every Node — so an event marks its
// namespace (a Node: every namespace) and the next batch plans it again (namespace-watch.ts).
import type {ControllerRevisionView, NodeView, PodView, Snapshot} from '../../model/objects.js'
import type {ClaimView, StatefulSetView} from './model.js'
import type {DaemonSetView} from '../daemonset/model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {LIVE_SOURCE, NamespaceWatch, type NamespaceWatchOptions} from '../../watch/namespace-watch.js'

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

export class WorkloadWatch extends NamespaceWatch {
  constructor(
    private readonly sources: WorkloadSources,
    options: NamespaceWatchOptions,
  ) {
    super(['statefulset', 'daemonset'], options)
  }

  protected namespaces(): Iterable<string> {
    return this.sources.namespaces()
  }

  protected holds(ns: string): boolean {
    for (const _ of this.sources.statefulSets(ns)) return true
    for (const _ of this.sources.daemonSets(ns)) return true
    return false
  }

  protected podMatters(pod: PodView): boolean {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    return !owner || owner.kind === 'StatefulSet' || owner.kind === 'DaemonSet'
  }

  protected snapshot(ns: string): Snapshot {
    const keep = <T extends {labels: Readonly<Record<string, string>>}>(list: Iterable<T>) => [...list].filter((o) => !this.options.selector || selectorMatches(this.options.selector, o.labels))
    return {
      statefulSets: keep(this.sources.statefulSets(ns)),
      daemonSets: keep(this.sources.daemonSets(ns)),
      nodes: [...this.sources.nodes()],
      controllerRevisions: [...this.sources.revisions(ns)],
      claims: [...this.sources.claims(ns)],
      pods: [...this.sources.pods(ns)],
      workloads: [],
      replicaSets: [],
      ignored: {},
      source: LIVE_SOURCE,
    }
  }
}
