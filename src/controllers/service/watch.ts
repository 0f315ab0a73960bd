// Watch mode for Services: the EndpointSlice, Endpoints and mirroring controllers' syncs and the
// load-balancer controller's, as `kctl plan` joins them. They read the pods a Service selects, its
// EndpointSlices and Endpoints, and every Node: an event of a Service, a slice, an Endpoints
// object or a selected pod marks the namespace (a Node: every namespace, for the load balancers'
// hosts), and the next batch plans its Services again (namespace-watch.ts).
import type {NodeView, PodView} from '../../model/objects.js'
import type {EndpointSliceView, EndpointsView, ServiceView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {NODES, wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'

const selects = (svc: ServiceView, pod: PodView) => svc.selector !== null && Object.entries(svc.selector).every(([k, v]) => pod.labels[k] === v)

export const serviceWatch: NamespaceWatchPart = {
  by: 'namespace',
  resources: [wholeObjects<ServiceView>('services', 'Service', 'v1', (s) => s.services)],
  requires: ['services', 'endpointslices', 'endpoints', 'nodes'],
  reads: [
    wholeObjects<EndpointSliceView>('endpointslices', 'EndpointSlice', 'discovery.k8s.io/v1', (s) => s.endpointSlices),
    wholeObjects<EndpointsView>('endpoints', 'Endpoints', 'v1', (s) => s.endpoints),
    NODES,
  ],
  /** Namespaces that hold a Service or an Endpoints object (which may be left over). */
  namespaces: (caches) => new Set([...caches.namespaces('services'), ...caches.namespaces('endpoints')]),
  holds: (caches, ns) => {
    for (const _ of caches.list('services', ns)) return true
    return false
  },
  /** A Service of its namespace selects the pod now, or selected it before the update (a label change moves it out). */
  podMatters: (caches, pod, old) => {
    for (const svc of caches.list<ServiceView>('services', pod.namespace)) if (selects(svc, pod) || (old !== undefined && selects(svc, old))) return true
    return false
  },
  snapshot: (caches, ns, selector) => ({
    // -l leaves Services out of the plan, but they still keep their Endpoints objects from looking left over.
    services: [...caches.list<ServiceView>('services', ns)].map((s) => (!selector || selectorMatches(selector, s.labels) ? s : {...s, notPlanned: true as const})),
    endpointSlices: [...caches.list<EndpointSliceView>('endpointslices', ns)],
    endpoints: [...caches.list<EndpointsView>('endpoints', ns)],
    nodes: [...caches.all<NodeView>('nodes')],
  }),
  /**
   * No clock re-plans: a failed sync's retry (requeue `sync-error`) runs the same sync, which only
   * an event can change, and each re-plan would move the retry's time a second on.
   */
  clockRequeues: false,
  // -l leaves Services out of the plan (they stay in the snapshot for their Endpoints objects).
  planned: (s) => (s.services ?? []).filter((svc) => !svc.notPlanned).length,
}
