// Watch mode for DaemonSets. Their syncs read more than their pods — their ControllerRevisions,
// every Node — so an event marks its namespace (a Node: every namespace) and the next batch plans
// it again (namespace-watch.ts). They are planned with the StatefulSets
// (controllers/statefulset/watch.ts), whose informers of revisions and Nodes they share.
import type {ControllerRevisionView, NodeView, PodView} from '../../model/objects.js'
import type {DaemonSetView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {CONTROLLER_REVISIONS, NODES, wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'

export const daemonSetWatch: NamespaceWatchPart = {
  by: 'namespace',
  plannedWith: 'statefulset',
  // No `requires` of its own: the StatefulSets' (statefulsets, nodes) decide whether both are watched.
  resources: [wholeObjects<DaemonSetView>('daemonsets', 'DaemonSet', 'apps/v1', (s) => s.daemonSets)],
  reads: [CONTROLLER_REVISIONS, NODES],
  namespaces: (caches) => caches.namespaces('daemonsets'),
  holds: (caches, ns) => {
    for (const _ of caches.list('daemonsets', ns)) return true
    return false
  },
  podMatters: (_caches, pod: PodView) => {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    return !owner || owner.kind === 'DaemonSet'
  },
  snapshot: (caches, ns, selector) => ({
    daemonSets: [...caches.list<DaemonSetView>('daemonsets', ns)].filter((o) => !selector || selectorMatches(selector, o.labels)),
    nodes: [...caches.all<NodeView>('nodes')],
    controllerRevisions: [...caches.list<ControllerRevisionView>('controllerrevisions', ns)],
  }),
  planned: (s) => s.daemonSets?.length ?? 0,
}
