// The plans of a snapshot's Services: one per Service, joining the next syncs of the three
// controllers that write for it — the EndpointSlice controller (or, without a selector, the
// mirroring controller), the legacy Endpoints controller, and the service (load-balancer)
// controller. Each keeps its own early exits (E2.2, E2.3, E12.1, L2).
import type {NodeView, PodView, Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {CloudLoadBalancerView, PodEndpointVerdict, ServiceAction, ServiceView} from './model.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import type {World} from '../../reconcile/planner.js'
import {selectedPods, SERVICE_NAME_LABEL} from './endpoints-common.js'
import {LEADER_ANNOTATION, syncEndpoints, syncMirror} from './endpoints.js'
import {managedSlices, syncSlices} from './endpointslices.js'
import {loadBalancerName, syncLoadBalancer, withNodeSync} from './loadbalancer.js'
import {formatRfc3339} from '../../reconcile/time.js'

/** --max-endpoints-per-slice's default (E1.3). */
export const MAX_ENDPOINTS_PER_SLICE = 100

export function planServices(snapshot: Snapshot, world: World, maxEndpointsPerSlice = MAX_ENDPOINTS_PER_SLICE): ControllerPlan[] {
  const all = snapshot.services ?? []
  const services = all.filter((svc) => !svc.notPlanned)
  const leftovers = leftoverEndpoints(all, snapshot.endpoints ?? [])
  if (services.length === 0) return leftovers
  const nodes = snapshot.nodes ?? []
  const nodeByName = new Map(nodes.map((n) => [n.name, n]))
  const pods = new PodsByLabel(snapshot.pods, services)
  // Every slice either controller looks at for a Service carries its kubernetes.io/service-name.
  const slices = byServiceName(snapshot.endpointSlices ?? [])
  const endpoints = new Named<NonNullable<Snapshot['endpoints']>[number]>()
  for (const e of snapshot.endpoints ?? []) if (endpoints.get(e.namespace, e.name) === undefined) endpoints.set(e.namespace, e.name, e)
  const cloud = snapshot.loadBalancers ? new Map(snapshot.loadBalancers.map((lb) => [lb.name, lb])) : undefined
  const plans = services.map((svc) => {
    const candidates = pods.candidates(svc)
    // (Field by field: an object spread first and then given more fields gets a hidden class of its own.)
    const w: ServiceWorld = {
      pods: candidates.pods,
      podsSelected: candidates.podsSelected,
      nodes,
      nodeByName,
      slices: slices.get(svc.namespace, svc.name) ?? [],
      endpoints: endpoints.get(svc.namespace, svc.name),
      maxEndpointsPerSlice,
      now: world.now,
    }
    if (cloud) w.cloud = cloud.get(loadBalancerName(svc))
    return planService(svc, w)
  })
  return [...plans, ...leftovers]
}

/**
 * E12.1: the Endpoints controller syncs every Endpoints object's key at start-up
 * (checkLeftoverEndpoints); where no Service of that name exists, syncService deletes the object,
 * whoever wrote it — except a leader-election record. Planned under the Service's key, marked absent.
 */
function leftoverEndpoints(services: readonly ServiceView[], endpoints: NonNullable<Snapshot['endpoints']>): ControllerPlan[] {
  const names = new Named<true>()
  for (const s of services) names.set(s.namespace, s.name, true)
  return endpoints
    .filter((e) => names.get(e.namespace, e.name) === undefined && e.annotations[LEADER_ANNOTATION] === undefined)
    .map((e) => ({
      kind: 'Service',
      apiVersion: 'v1',
      namespace: e.namespace,
      name: e.name,
      uid: '',
      resourceVersion: '',
      desired: 0,
      active: 0,
      diff: 0,
      actions: [{type: 'deleteEndpoints', name: e.name, uid: e.uid, resourceVersion: e.resourceVersion, reason: 'no-service'}],
      pending: 0,
      status: {loadBalancer: {ingress: []}, readyEndpoints: 0},
      warnings: [`no Service ${e.name} in namespace ${e.namespace}: the Endpoints controller deletes this Endpoints object (create the Service first to keep hand-written endpoints)`],
      inSync: false,
      service: {type: '', selector: null, pods: [], endpoints: [], absent: true},
    }))
}

/** Values by namespace and name (no key string is built per lookup). */
class Named<T> {
  private readonly byNamespace = new Map<string, Map<string, T>>()

  get(namespace: string, name: string): T | undefined {
    return this.byNamespace.get(namespace)?.get(name)
  }

  set(namespace: string, name: string, value: T): void {
    let names = this.byNamespace.get(namespace)
    if (!names) this.byNamespace.set(namespace, (names = new Map()))
    names.set(name, value)
  }
}

/** Slices by namespace and the Service their kubernetes.io/service-name label names. */
function byServiceName(slices: NonNullable<Snapshot['endpointSlices']>): Named<NonNullable<Snapshot['endpointSlices']>[number][]> {
  const out = new Named<NonNullable<Snapshot['endpointSlices']>[number][]>()
  for (const slice of slices) {
    const name = slice.labels[SERVICE_NAME_LABEL]
    if (name === undefined) continue
    const list = out.get(slice.namespace, name)
    if (list) list.push(slice)
    else out.set(slice.namespace, name, [slice])
  }
  return out
}

/**
 * A namespace's pods by label: a Service's selector is an AND of equalities, so the pods carrying
 * its rarest label are the only candidates (selectedPods still checks every label, unless the
 * selector has one label or none: the candidates are then exactly the pods selected). Built per
 * namespace on first use, over the label keys its Services select on; the snapshot's order is kept.
 */
class PodsByLabel {
  private readonly byNamespace: Map<string, PodView[]>
  /** Per namespace: the label keys its Services' selectors name. */
  private readonly keys = new Map<string, Set<string>>()
  /** Per namespace: label key → value → pods. */
  private readonly indexes = new Map<string, Map<string, Map<string, PodView[]>>>()

  constructor(pods: readonly PodView[], services: readonly ServiceView[]) {
    this.byNamespace = byNamespace(pods)
    for (const svc of services) {
      if (svc.selector === null) continue
      let keys = this.keys.get(svc.namespace)
      if (!keys) this.keys.set(svc.namespace, (keys = new Set()))
      for (const k in svc.selector) keys.add(k)
    }
  }

  candidates(svc: ServiceView): {pods: readonly PodView[]; podsSelected: boolean} {
    const all = this.byNamespace.get(svc.namespace) ?? NONE
    const selector = svc.selector
    if (selector === null) return {pods: all, podsSelected: false}
    let index = this.indexes.get(svc.namespace)
    let smallest: readonly PodView[] | undefined
    let count = 0
    for (const k in selector) {
      count++
      if (!index) this.indexes.set(svc.namespace, (index = this.index(all, this.keys.get(svc.namespace) ?? new Set([k]))))
      const bucket = index.get(k)?.get(selector[k]) ?? NONE
      if (!smallest || bucket.length < smallest.length) smallest = bucket
    }
    return {pods: smallest ?? all, podsSelected: count <= 1}
  }

  /** Label key → value → pods, for the keys given (a pod's own labels only). */
  private index(pods: readonly PodView[], keys: ReadonlySet<string>): Map<string, Map<string, PodView[]>> {
    const index = new Map<string, Map<string, PodView[]>>()
    for (const key of keys) {
      const values = new Map<string, PodView[]>()
      index.set(key, values)
      for (const pod of pods) {
        const labels = pod.labels
        const value = labels[key]
        // (No label of the prototype's is a string.)
        if (typeof value !== 'string') continue
        const list = values.get(value)
        if (list) list.push(pod)
        else values.set(value, [pod])
      }
    }
    return index
  }
}

const NONE: readonly PodView[] = []

export interface ServiceWorld {
  pods: Snapshot['pods']
  /** `pods` are exactly those the Service selects (of its namespace, every selector label equal): not checked again. */
  podsSelected?: boolean
  nodes: readonly NodeView[]
  nodeByName: ReadonlyMap<string, NodeView>
  slices: NonNullable<Snapshot['endpointSlices']>
  endpoints: NonNullable<Snapshot['endpoints']>[number] | undefined
  maxEndpointsPerSlice: number
  /** The controllers' clock (ns since the epoch), for when a failed sync is retried. */
  now?: bigint
  /** The cloud provider's answer about the Service's load balancer, when a provider was asked. */
  cloud?: CloudLoadBalancerView
}

/**
 * E11.5: the EndpointSlice controller's queue retries a failed sync after 1 s, doubling to 1000 s;
 * a freshly started controller's first retry comes after 1 s. Nothing else re-syncs the Service
 * sooner: a Node's events only feed the topology cache (E11.4).
 */
const FIRST_RETRY = 1_000_000_000n

export function planService(svc: ServiceView, w: ServiceWorld): ControllerPlan {
  const actions: ServiceAction[] = []
  const warnings: string[] = []
  const events: string[] = []
  const selected = svc.selector === null ? [] : w.podsSelected ? w.pods : selectedPods(svc, w.pods)
  const verdicts: PodEndpointVerdict[] = []
  const current = managedSlices(svc, w.slices)
  let totals: NonNullable<ControllerPlan['service']>['endpoints'] = []
  let pools: NonNullable<ControllerPlan['service']>['pools']
  let choices: NonNullable<ControllerPlan['service']>['choices']
  let requeueAfterError = false
  if (svc.type === 'ExternalName' && svc.selector !== null) {
    warnings.push('type ExternalName: the endpoint controllers write nothing for it')
  } else if (svc.selector === null) {
    // Selector-less: only the mirroring controller writes, from an Endpoints object someone keeps.
    const mirror = syncMirror(svc, w.endpoints, w.slices)
    actions.push(...mirror.actions)
    warnings.push(...mirror.warnings)
    totals = mirror.totals
    if (mirror.choices.length > 0) choices = mirror.choices
    if (current.length > 0) warnings.push(`no selector: the EndpointSlice controller leaves its ${current.length} old slice(s) as they are until the Service is deleted`)
    if (!w.endpoints) warnings.push('no selector and no Endpoints object: nothing is mirrored, the Service has no endpoints')
  } else {
    const slices = syncSlices({svc, pods: selected, nodes: w.nodeByName, nodesKnown: w.nodes.length > 0, slices: w.slices, maxEndpointsPerSlice: w.maxEndpointsPerSlice})
    const legacy = syncEndpoints(svc, selected, w.endpoints, slices.refs)
    // E13.2: the mirroring controller deletes what it mirrored once the Service has a selector.
    const mirrored = syncMirror(svc, w.endpoints, w.slices)
    actions.push(...slices.actions)
    if (legacy.action) actions.push(legacy.action)
    actions.push(...mirrored.actions)
    warnings.push(...slices.warnings)
    if (slices.requeue) {
      warnings.push(slices.requeue)
      requeueAfterError = true
    }
    totals = slices.totals
    if (slices.pools.length > 0) pools = slices.pools
    if (slices.choices.length + mirrored.choices.length > 0) choices = [...slices.choices, ...mirrored.choices]
    for (let i = 0; i < selected.length; i++) {
      const pod = selected[i]
      const slice = slices.verdicts[i]
      const missingPorts = slices.missingPorts[i]
      // Keys in sorted order, as the plan writes them.
      const endpoints = legacy.verdicts[i]
      verdicts.push(missingPorts ? {endpoints, missingPorts, pod: pod.name, slice, uid: pod.uid} : {endpoints, pod: pod.name, slice, uid: pod.uid})
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
    // Keys in sorted order, as the plan writes them.
    service: {
      ...(choices ? {choices} : {}),
      endpoints: totals,
      ...(lb ? {loadBalancer: lb.plan} : {}),
      pods: verdicts,
      ...(pools ? {pools} : {}),
      selector: svc.selector,
      type: svc.type,
    },
  }
  if (events.length > 0) plan.events = events
  if (requeueAfterError && w.now !== undefined) plan.requeue = {at: formatRfc3339(w.now + FIRST_RETRY), seconds: Number(FIRST_RETRY) / 1e9, reason: 'sync-error'}
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
