// The plans of a snapshot's Services: one per Service, joining the next syncs of the three
// controllers that write for it — the EndpointSlice controller (or, without a selector, the
// mirroring controller), the legacy Endpoints controller, and the service (load-balancer)
// controller. Each keeps its own early exits (E2.2, E2.3, E12.1, L2).
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {CloudLoadBalancerView, PodEndpointVerdict, ServiceAction, ServiceView} from '../../model/services.js'
import type {NodeView} from '../../model/workloads.js'
import {byNamespace} from '../workload-plan.js'
import type {World} from '../planner.js'
import {selectedPods} from './endpoints-common.js'
import {syncEndpoints, syncMirror} from './endpoints.js'
import {managedSlices, syncSlices} from './endpointslices.js'
import {loadBalancerName, syncLoadBalancer, withNodeSync} from './loadbalancer.js'

/** --max-endpoints-per-slice's default (E1.3). */
export const MAX_ENDPOINTS_PER_SLICE = 100

export function planServices(snapshot: Snapshot, _world: World, maxEndpointsPerSlice = MAX_ENDPOINTS_PER_SLICE): ControllerPlan[] {
  const services = snapshot.services ?? []
  if (services.length === 0) return []
  const nodes = snapshot.nodes ?? []
  const nodeByName = new Map(nodes.map((n) => [n.name, n]))
  const pods = byNamespace(snapshot.pods)
  const slices = byNamespace(snapshot.endpointSlices ?? [])
  const endpoints = byNamespace(snapshot.endpoints ?? [])
  const cloud = snapshot.loadBalancers ? new Map(snapshot.loadBalancers.map((lb) => [lb.name, lb])) : undefined
  return services.map((svc) =>
    planService(svc, {
      pods: pods.get(svc.namespace) ?? [],
      nodes,
      nodeByName,
      slices: slices.get(svc.namespace) ?? [],
      endpoints: (endpoints.get(svc.namespace) ?? []).find((e) => e.name === svc.name),
      maxEndpointsPerSlice,
      ...(cloud ? {cloud: cloud.get(loadBalancerName(svc))} : {}),
    }),
  )
}

export interface ServiceWorld {
  pods: Snapshot['pods']
  nodes: readonly NodeView[]
  nodeByName: ReadonlyMap<string, NodeView>
  slices: NonNullable<Snapshot['endpointSlices']>
  endpoints: NonNullable<Snapshot['endpoints']>[number] | undefined
  maxEndpointsPerSlice: number
  /** The cloud provider's answer about the Service's load balancer, when a provider was asked. */
  cloud?: CloudLoadBalancerView
}

export function planService(svc: ServiceView, w: ServiceWorld): ControllerPlan {
  const actions: ServiceAction[] = []
  const warnings: string[] = []
  const events: string[] = []
  const selected = svc.selector === null ? [] : selectedPods(svc, w.pods)
  const verdicts: PodEndpointVerdict[] = []
  const current = managedSlices(svc, w.slices)
  let totals: NonNullable<ControllerPlan['service']>['endpoints'] = []
  let pools: NonNullable<ControllerPlan['service']>['pools']
  if (svc.type === 'ExternalName') {
    warnings.push('type ExternalName: the endpoint controllers write nothing for it')
  } else if (svc.selector === null) {
    // Selector-less: only the mirroring controller writes, from an Endpoints object someone keeps.
    const mirror = syncMirror(svc, w.endpoints, w.slices)
    actions.push(...mirror.actions)
    warnings.push(...mirror.warnings)
    totals = mirror.totals
    if (current.length > 0) warnings.push(`no selector: the EndpointSlice controller leaves its ${current.length} old slice(s) as they are until the Service is deleted`)
    if (!w.endpoints) warnings.push('no selector and no Endpoints object: nothing is mirrored, the Service has no endpoints')
  } else {
    const slices = syncSlices({svc, pods: selected, nodes: w.nodeByName, nodesKnown: w.nodes.length > 0, slices: w.slices, maxEndpointsPerSlice: w.maxEndpointsPerSlice})
    const legacy = syncEndpoints(svc, selected, w.endpoints)
    actions.push(...slices.actions)
    if (legacy.action) actions.push(legacy.action)
    warnings.push(...slices.warnings)
    if (slices.requeue) warnings.push(slices.requeue)
    totals = slices.totals
    if (slices.pools.length > 0) pools = slices.pools
    for (const pod of selected) {
      const s = slices.verdicts.get(pod.name)!
      verdicts.push({pod: pod.name, uid: pod.uid, slice: s.slice, endpoints: legacy.verdicts.get(pod.name)!, ...(s.missingPorts ? {missingPorts: s.missingPorts} : {})})
    }
    verdicts.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0))
  }

  const ensured = syncLoadBalancer(svc, w.nodes, w.nodes.length > 0)
  const lb = ensured && withNodeSync(ensured, svc, w.cloud, w.nodes)
  if (lb) {
    actions.push(...lb.actions)
    warnings.push(...lb.warnings)
    events.push(...lb.events)
  }

  const before = current.reduce((n, s) => n + s.endpoints.length, 0)
  const after = totals.reduce((n, t) => n + t.total, 0)
  const readyEndpoints = totals.reduce((n, t) => n + t.ready, 0)
  const plan: ControllerPlan = {
    kind: 'Service',
    apiVersion: 'v1',
    namespace: svc.namespace,
    name: svc.name,
    uid: svc.uid,
    resourceVersion: svc.resourceVersion,
    desired: after,
    active: before,
    diff: 0,
    actions,
    pending: 0,
    status: {loadBalancer: {ingress: [...svc.ingress]}, readyEndpoints},
    warnings,
    inSync: actions.every(isNoWrite),
    service: {
      type: svc.type,
      selector: svc.selector,
      pods: verdicts,
      endpoints: totals,
      ...(pools ? {pools} : {}),
      ...(lb ? {loadBalancer: lb.plan} : {}),
    },
  }
  if (events.length > 0) plan.events = events
  return plan
}

/**
 * Calls that write nothing when the load balancer is already as wanted: the re-ensure every
 * fresh controller makes (L3.5) and a status that the cloud answers unchanged.
 */
function isNoWrite(a: ServiceAction): boolean {
  if (a.type === 'ensureLoadBalancer') return true
  if (a.type === 'writeLoadBalancerStatus') return a.ingress === 'fromProvider' && a.from.length > 0
  if (a.type === 'createEndpointSlice') return a.skipped !== undefined
  return false
}
