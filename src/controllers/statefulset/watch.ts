// Watch mode for StatefulSets. Their syncs read more than their pods — their ControllerRevisions,
// the claims of their namespace — so an event marks its namespace and the next batch plans it
// again (namespace-watch.ts), with the DaemonSets planned with them (controllers/daemonset/watch.ts:
// they share the ControllerRevision and Node informers).
import type {ControllerRevisionView, NodeView, PodView} from '../../model/objects.js'
import type {ClaimView, StatefulSetView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {CONTROLLER_REVISIONS, NODES, wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'

const CLAIMS = wholeObjects<ClaimView>('persistentvolumeclaims', 'PersistentVolumeClaim', 'v1', (s) => s.claims)

export const statefulSetWatch: NamespaceWatchPart = {
  by: 'namespace',
  resources: [wholeObjects<StatefulSetView>('statefulsets', 'StatefulSet', 'apps/v1', (s) => s.statefulSets)],
  requires: ['statefulsets', 'nodes'],
  reads: [CONTROLLER_REVISIONS, CLAIMS, NODES],
  namespaces: (caches) => caches.namespaces('statefulsets'),
  holds: (caches, ns) => {
    for (const _ of caches.list('statefulsets', ns)) return true
    return false
  },
  podMatters: (_caches, pod: PodView) => {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    return !owner || owner.kind === 'StatefulSet'
  },
  snapshot: (caches, ns, selector) => ({
    statefulSets: [...caches.list<StatefulSetView>('statefulsets', ns)].filter((o) => !selector || selectorMatches(selector, o.labels)),
    nodes: [...caches.all<NodeView>('nodes')],
    controllerRevisions: [...caches.list<ControllerRevisionView>('controllerrevisions', ns)],
    claims: [...caches.list<ClaimView>('persistentvolumeclaims', ns)],
  }),
  planned: (s) => s.statefulSets?.length ?? 0,
}
