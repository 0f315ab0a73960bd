// One sync of the service (load-balancer) controller for one Service, as a freshly started
// controller runs it (k8s.io/cloud-provider controllers/service/controller.go: syncService,
// processServiceCreateOrUpdate, syncLoadBalancerIfNeeded, stableNodeSetPredicates). The cloud's
// answers are not known here: the plan names the calls, the hosts they carry and the writes
// around them, in upstream's order.
import type {ServiceView} from './model.js'
import {type CloudLoadBalancerView, type HostExclusion, LB_FINALIZER, type LoadBalancerPlan, type SentHost, type ServiceAction} from './model.js'
import type {NodeView} from '../../model/objects.js'

export const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers'
export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler'

/** wantsLoadBalancer: type LoadBalancer and no loadBalancerClass (any class is another controller's). */
export const wantsLoadBalancer = (svc: ServiceView): boolean => svc.type === 'LoadBalancer' && svc.loadBalancerClass === undefined

/** needsCleanup: the finalizer is there and the Service is going or no longer a LoadBalancer. */
export const needsCleanup = (svc: ServiceView): boolean =>
  svc.finalizers.includes(LB_FINALIZER) && (svc.deletionTimestamp !== undefined || svc.type !== 'LoadBalancer')

/** DefaultLoadBalancerName: "a" + the UID without dashes, at most 32 characters. */
export const loadBalancerName = (svc: ServiceView): string => `a${svc.uid.replaceAll('-', '')}`.slice(0, 32)

/** strconv.ParseBool's false spellings: only they keep a labelled node a host. */
const PARSE_BOOL_FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False'])

/** stableNodeSetPredicates (L4.1): Ready, unschedulable, roles and other taints do not count. */
export function hostExclusion(node: NodeView): HostExclusion | undefined {
  if (node.deletionTimestamp !== undefined) return 'deleting'
  const label = node.labels[EXCLUDE_LB_LABEL]
  if (label !== undefined && !PARSE_BOOL_FALSE.has(label)) return 'exclude-label'
  if (node.taints.some((t) => t.key === TO_BE_DELETED_TAINT)) return 'to-be-deleted-taint'
  return undefined
}

/** The same node list gives the same hosts for every Service: computed once per list. */
const hostsOfNodes = new WeakMap<readonly NodeView[], {hosts: string[]; excluded: LoadBalancerPlan['excluded']}>()

export function loadBalancerHosts(nodes: readonly NodeView[]): {hosts: string[]; excluded: LoadBalancerPlan['excluded']} {
  const known = hostsOfNodes.get(nodes)
  if (known) return {hosts: [...known.hosts], excluded: [...known.excluded]}
  const computed = computeHosts(nodes)
  hostsOfNodes.set(nodes, computed)
  return {hosts: [...computed.hosts], excluded: [...computed.excluded]}
}

function computeHosts(nodes: readonly NodeView[]): {hosts: string[]; excluded: LoadBalancerPlan['excluded']} {
  const hosts: string[] = []
  const excluded: LoadBalancerPlan['excluded'] = []
  for (const node of nodes) {
    const reason = hostExclusion(node)
    if (reason) excluded.push({node: node.name, reason})
    else hosts.push(node.name)
  }
  return {hosts: hosts.sort(), excluded: excluded.sort((a, b) => (a.node < b.node ? -1 : 1))}
}

export interface LoadBalancerSync {
  plan: LoadBalancerPlan
  actions: ServiceAction[]
  events: string[]
  warnings: string[]
}

/**
 * What the controller does with the Service at its next sync. A fresh controller enqueues every
 * Service that wants a load balancer or needs cleanup (L2.3), so a wanted one is ensured even
 * when nothing changed (L3.5); `none` says why the controller leaves the Service alone.
 */
export function syncLoadBalancer(svc: ServiceView, nodes: readonly NodeView[], nodesKnown: boolean): LoadBalancerSync | undefined {
  const name = loadBalancerName(svc)
  const wants = wantsLoadBalancer(svc)
  const cleanup = needsCleanup(svc)
  const hasFinalizer = svc.finalizers.includes(LB_FINALIZER)
  if (!wants && !cleanup) {
    // Not enqueued at all: nothing is called or written.
    if (svc.type !== 'LoadBalancer' && !hasFinalizer) return undefined
    const why = svc.type === 'LoadBalancer' ? (hasFinalizer ? 'class-with-finalizer' : 'class') : 'not-load-balancer'
    return {plan: {path: 'none', why, name, hosts: [], excluded: []}, actions: [], events: [], warnings: []}
  }
  if (cleanup) {
    // processLoadBalancerDelete: GetLoadBalancer; delete if it exists; then the finalizer, then the status.
    const actions: ServiceAction[] = [{type: 'ensureLoadBalancerDeleted', loadBalancer: name, ifExists: true}]
    actions.push({type: 'removeLoadBalancerFinalizer', finalizer: LB_FINALIZER})
    if (svc.ingress.length > 0) actions.push({type: 'writeLoadBalancerStatus', ingress: 'clear', from: [...svc.ingress]})
    return {
      plan: {path: 'delete', why: svc.deletionTimestamp !== undefined ? 'deleting' : 'type-changed', name, hosts: [], excluded: []},
      actions,
      events: ['DeletingLoadBalancer (if it exists)', 'DeletedLoadBalancer'],
      warnings: [],
    }
  }
  if (!hasFinalizer && svc.deletionTimestamp !== undefined) {
    // addFinalizer: the API server takes no new finalizer on an object being deleted, so the
    // sync fails before any cloud call and is retried with backoff until the Service is gone.
    return {plan: {path: 'none', why: 'deleting-without-finalizer', name, hosts: [], excluded: []}, actions: [], events: ['EnsuringLoadBalancer', 'SyncLoadBalancerFailed (Warning)'], warnings: [DELETING_WITHOUT_FINALIZER]}
  }
  const {hosts, excluded} = loadBalancerHosts(nodes)
  const actions: ServiceAction[] = []
  if (!hasFinalizer) actions.push({type: 'addLoadBalancerFinalizer', finalizer: LB_FINALIZER})
  const warnings: string[] = []
  const events = ['EnsuringLoadBalancer']
  let warning: string | undefined
  if (hosts.length === 0) {
    warning = 'UnAvailableLoadBalancer'
    events.push('UnAvailableLoadBalancer (Warning: no nodes available)')
  }
  if (!nodesKnown) warnings.push('no Node was read: the load balancer\'s hosts are unknown here (give kind: Node objects, or read the cluster)')
  actions.push({type: 'ensureLoadBalancer', loadBalancer: name, hosts, ...(warning ? {warning} : {})})
  events.push('EnsuredLoadBalancer (on success)')
  // An error or ImplementedElsewhere from Ensure ends the sync before the status (L3.4, LB-22, LB-23).
  actions.push({type: 'writeLoadBalancerStatus', ingress: 'fromProvider', from: [...svc.ingress], notAfter: ['error', 'implemented-elsewhere']})
  return {plan: {path: 'ensure', why: 'wants', name, hosts, excluded}, actions, events, warnings}
}

// ---- Node changes (L5): what a node event makes the controller send, given the nodes it last sent ----

/**
 * shouldSyncUpdatedNode: a node update re-sends hosts only when the exclude label's verdict flips
 * or spec.providerID changes; Ready, taints (even the autoscaler's), cordons and other labels do not.
 */
export function nodeUpdateSyncs(before: NodeView, after: NodeView): boolean {
  const excluded = (n: NodeView) => {
    const v = n.labels[EXCLUDE_LB_LABEL]
    return v !== undefined && !PARSE_BOOL_FALSE.has(v)
  }
  return excluded(before) !== excluded(after) || (before.providerID ?? '') !== (after.providerID ?? '')
}

/**
 * nodeSyncService: for a Service that wants a load balancer, the hosts last sent (filtered again
 * with today's predicates) against the hosts now; UpdateLoadBalancer when the names or any
 * providerID differ. `lastSent` are the nodes as they were when sent, for their providerIDs.
 */
export function hostUpdate(svc: ServiceView, lastSent: readonly NodeView[], nodes: readonly NodeView[]): ServiceAction | undefined {
  if (!wantsLoadBalancer(svc)) return undefined
  const now = nodes.filter((n) => hostExclusion(n) === undefined)
  const then = lastSent.filter((n) => hostExclusion(n) === undefined)
  const ids = (list: readonly NodeView[]) => list.map((n) => `${n.name}\u0000${n.providerID ?? ''}`).sort().join('\n')
  if (ids(now) === ids(then)) return undefined
  const hosts = now.map((n) => n.name).sort()
  return {type: 'updateLoadBalancerHosts', loadBalancer: loadBalancerName(svc), hosts, ...(hosts.length === 0 ? {warning: 'UnAvailableLoadBalancer'} : {})}
}

/**
 * Did a node event happen since the hosts were last sent (shouldSyncUpdatedNode, and node add and
 * delete)? A sent host gone or now labelled out, a providerID changed, or a node not sent that the
 * label lets in (added since). A host only tainted ToBeDeletedByClusterAutoscaler or being deleted
 * since triggers nothing: upstream drops it at the next event (L5.3).
 */
export function nodeEventSince(sent: readonly SentHost[], nodes: readonly NodeView[]): boolean {
  const byName = new Map(nodes.map((n) => [n.name, n]))
  const sentNames = new Set(sent.map((h) => h.name))
  const labelledOut = (n: NodeView) => {
    const v = n.labels[EXCLUDE_LB_LABEL]
    return v !== undefined && !PARSE_BOOL_FALSE.has(v)
  }
  for (const h of sent) {
    const now = byName.get(h.name)
    if (!now || labelledOut(now) || (now.providerID ?? '') !== (h.providerID ?? '')) return true
  }
  return nodes.some((n) => !sentNames.has(n.name) && !labelledOut(n) && hostExclusion(n) === undefined)
}

/**
 * With a provider that keeps the hosts it was last sent: a Service whose load balancer exists and
 * is ensured (finalizer and status there) is, as in a running controller, only re-sent its hosts
 * after a node change (nodeSyncService → UpdateLoadBalancer). Returns the sync to plan instead of
 * a fresh controller's Ensure, or the Ensure as it was.
 */
export function withNodeSync(lb: LoadBalancerSync, svc: ServiceView, cloud: CloudLoadBalancerView | undefined, nodes: readonly NodeView[]): LoadBalancerSync {
  if (lb.plan.path === 'delete' && cloud) return withDeleteAnswer(lb, cloud.exists)
  if (lb.plan.path !== 'ensure' || !cloud?.exists || !cloud.hosts) return lb
  const sent = cloud.hosts.map((h) => h.name).sort()
  const plan = {...lb.plan, sent}
  if (!svc.finalizers.includes(LB_FINALIZER)) return {...lb, plan}
  // LB-21: a status emptied by someone else while the load balancer exists is no event for a
  // running controller (needsUpdate reads no status): it stays empty until the next Ensure.
  const cleared = svc.ingress.length === 0
  const warnings = cleared ? [...lb.warnings, STATUS_CLEARED] : lb.warnings
  // The hosts as they were when sent: they passed the predicates then.
  const then = cloud.hosts.map((h): NodeView => ({namespace: '', name: h.name, uid: '', resourceVersion: '', generation: 0, labels: {}, annotations: {}, ownerReferences: [], unschedulable: false, taints: [], ...(h.providerID ? {providerID: h.providerID} : {})}))
  const update = nodeEventSince(cloud.hosts, nodes) ? hostUpdate(svc, then, nodes) : undefined
  if (!update) return cleared ? {plan: {...plan, path: 'none', why: 'status-cleared'}, actions: [], events: [], warnings} : {...lb, plan}
  const events = 'warning' in update && update.warning ? ['UnAvailableLoadBalancer (Warning: no nodes available)'] : ['UpdatedLoadBalancer (on success)']
  return {plan: {...plan, path: 'update', why: 'nodes-changed'}, actions: [update], events, warnings}
}

export const DELETING_WITHOUT_FINALIZER =
  'being deleted without the load-balancer cleanup finalizer: the service controller\'s finalizer patch is refused (no new finalizer on an object being deleted), so it calls no cloud, writes no status and retries with backoff until the Service is gone'

export const STATUS_CLEARED =
  'status.loadBalancer is empty while the load balancer exists and the finalizer is there (cleared by someone else?): a running service controller does not sync a Service for a status change, so it stays empty until the next Ensure — a change of the spec or annotations, a restart of the controller, or the retry of a failed Ensure'

/** The delete path with the provider's GetLoadBalancer answer: EnsureLoadBalancerDeleted only if it exists (L3.3). */
function withDeleteAnswer(lb: LoadBalancerSync, exists: boolean): LoadBalancerSync {
  const actions = lb.actions.map((a): ServiceAction => (a.type === 'ensureLoadBalancerDeleted' ? {...a, exists} : a))
  return {...lb, actions, events: exists ? ['DeletingLoadBalancer', 'DeletedLoadBalancer'] : ['DeletedLoadBalancer']}
}
