// Watch mode for Services: the EndpointSlice, Endpoints and mirroring controllers' syncs and the
// load-balancer controller's, as `kctl plan` joins them. They read the pods a Service selects, its
// EndpointSlices and Endpoints, and every Node: an event of a Service, a slice, an Endpoints
// object or a selected pod marks the namespace (a Node: every namespace, for the load balancers'
// hosts), and the next batch plans its Services again (namespace-watch.ts).
import type {NodeView, PodView, Snapshot} from '../../model/objects.js'
import type {EndpointSliceView, EndpointsView, ServiceView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {LIVE_SOURCE, NamespaceWatch, type NamespaceWatchOptions} from '../../watch/namespace-watch.js'

/** What the informers hold, by namespace (Nodes: all of them). */
export interface ServiceSources {
  services(namespace: string): Iterable<ServiceView>
  endpointSlices(namespace: string): Iterable<EndpointSliceView>
  endpoints(namespace: string): Iterable<EndpointsView>
  pods(namespace: string): Iterable<PodView>
  nodes(): Iterable<NodeView>
  /** Namespaces that hold a Service or an Endpoints object (which may be left over). */
  namespaces(): Iterable<string>
}

const selects = (svc: ServiceView, pod: PodView) => svc.selector !== null && Object.entries(svc.selector).every(([k, v]) => pod.labels[k] === v)

export class ServiceWatch extends NamespaceWatch {
  constructor(
    private readonly sources: ServiceSources,
    options: NamespaceWatchOptions,
  ) {
    super(['endpointslice'], options)
  }

  protected namespaces(): Iterable<string> {
    return this.sources.namespaces()
  }

  protected holds(ns: string): boolean {
    for (const _ of this.sources.services(ns)) return true
    return false
  }

  /** A Service of its namespace selects the pod now, or selected it before the update (a label change moves it out). */
  protected podMatters(pod: PodView, old: PodView | undefined): boolean {
    for (const svc of this.sources.services(pod.namespace)) if (selects(svc, pod) || (old !== undefined && selects(svc, old))) return true
    return false
  }

  /**
   * No clock re-plans: a failed sync's retry (requeue `sync-error`) runs the same sync, which only
   * an event can change, and each re-plan would move the retry's time a second on.
   */
  override requeues(): Map<string, number> {
    return new Map()
  }

  protected snapshot(ns: string): Snapshot {
    const selector = this.options.selector
    return {
      // -l leaves Services out of the plan, but they still keep their Endpoints objects from looking left over.
      services: [...this.sources.services(ns)].map((s) => (!selector || selectorMatches(selector, s.labels) ? s : {...s, notPlanned: true as const})),
      endpointSlices: [...this.sources.endpointSlices(ns)],
      endpoints: [...this.sources.endpoints(ns)],
      nodes: [...this.sources.nodes()],
      pods: [...this.sources.pods(ns)],
      workloads: [],
      replicaSets: [],
      ignored: {},
      source: LIVE_SOURCE,
    }
  }
}
