// Services and the objects the endpoint and load-balancer controllers write for them
// (pkg/controller/endpointslice, pkg/controller/endpoint, k8s.io/cloud-provider's service
// controller), reduced to what their rules read, and the writes of their next syncs as plan actions.
import type {IntOrString, Labels, ObjectMeta, OwnerReference} from '../../model/objects.js'

export interface ServicePortView {
  name: string
  /** TCP when unset. */
  protocol: string
  port: number
  /** Defaulted to `port` when unset (SetDefaults_Service). */
  targetPort: IntOrString
  nodePort?: number
  appProtocol?: string
}

export interface LoadBalancerIngress {
  ip?: string
  hostname?: string
  ipMode?: string
  ports?: {port: number; protocol: string; error?: string}[]
}

/** A v1 Service after the API server's defaulting. */
export interface ServiceView extends ObjectMeta {
  kind: 'Service'
  apiVersion: 'v1'
  /** ClusterIP when unset. */
  type: string
  /** `null`: no selector (the endpoint controllers leave the Service alone); `{}` selects every pod of the namespace. */
  selector: Labels | null
  /** '' when unset, `None` for a headless Service. */
  clusterIP: string
  /**
   * No cluster IP (isServiceIPSet false): `None`, or '' as the API server stores it. A file's
   * Service without clusterIP is not headless: the API server allocates it one.
   */
  headless: boolean
  ipFamilies: readonly string[]
  ports: readonly ServicePortView[]
  publishNotReadyAddresses: boolean
  loadBalancerClass?: string
  externalTrafficPolicy?: string
  healthCheckNodePort?: number
  trafficDistribution?: string
  finalizers: readonly string[]
  /** status.loadBalancer.ingress as read. */
  ingress: readonly LoadBalancerIngress[]
  /** Read but outside -l: not planned, though it still keeps its Endpoints object (E12.1). */
  notPlanned?: true
}

export interface EndpointConditions {
  ready?: boolean
  serving?: boolean
  terminating?: boolean
}

export interface PodRef {
  kind: string
  namespace: string
  name: string
  uid: string
}

export interface EndpointHints {
  forZones?: {name: string}[]
  forNodes?: {name: string}[]
}

/** One endpoint of an EndpointSlice (discovery/v1 Endpoint). */
export interface EndpointView {
  addresses: readonly string[]
  conditions: EndpointConditions
  hostname?: string
  nodeName?: string
  zone?: string
  targetRef?: PodRef
  hints?: EndpointHints
}

export interface EndpointPortView {
  name: string
  port: number
  protocol: string
  appProtocol?: string
}

export interface EndpointSliceView extends ObjectMeta {
  addressType: string
  endpoints: readonly EndpointView[]
  ports: readonly EndpointPortView[]
}

export interface EndpointAddressView {
  ip: string
  hostname?: string
  nodeName?: string
  targetRef?: PodRef
}

export interface EndpointSubsetView {
  addresses: readonly EndpointAddressView[]
  notReadyAddresses: readonly EndpointAddressView[]
  ports: readonly EndpointPortView[]
}

/** A legacy v1 Endpoints object. */
export interface EndpointsView extends ObjectMeta {
  subsets: readonly EndpointSubsetView[]
}

/** A container port as the endpoint controllers look it up by name (FindPort). */
export interface ContainerPortView {
  name: string
  containerPort: number
  protocol: string
}

/** What a pod contributes to Services: its IPs, DNS name parts and named ports. */
export interface PodNetworkView {
  /** status.podIPs (status.podIP alone when podIPs is unset, as the API server fills one from the other). */
  podIPs: readonly string[]
  hostname: string
  subdomain: string
  /** Ports of spec.containers in order, then of sidecars (init containers with restartPolicy Always). */
  ports: readonly ContainerPortView[]
}

// ---- Why a pod is in or out ----

/**
 * Why a selected pod gets no endpoint: `terminal` (Succeeded or Failed), `no-ip`, `terminating`
 * (legacy Endpoints without publishNotReadyAddresses), `node-missing` (its node is not in the
 * lister), `no-address-of-type` (none of its IPs is of this family), `no-port` (no service port
 * resolves on it: the legacy Endpoints leave it out).
 */
export type EndpointExclusion = 'terminal' | 'no-ip' | 'terminating' | 'node-missing' | 'no-address-of-type' | 'no-port'

/** A selected pod and what each endpoint controller does with it. */
export interface PodEndpointVerdict {
  pod: string
  uid: string
  /** The EndpointSlice controller: its endpoint's conditions, or why it has none. */
  slice: {in: true; ready: boolean; serving: boolean; terminating: boolean; ports: readonly number[]} | {in: false; reason: EndpointExclusion}
  /** The legacy Endpoints controller: listed as ready, not ready, or left out and why. */
  endpoints: {in: true; ready: boolean} | {in: false; reason: EndpointExclusion}
  /** Service ports (by name, or number when unnamed) whose named targetPort this pod does not define. */
  missingPorts?: readonly string[]
}

// ---- Writes of the EndpointSlice controller ----

export type SliceDeleteReason = 'not-owned' | 'ports-not-desired' | 'no-endpoints' | 'address-type' | 'selector'

export interface EndpointChange {
  pod: string
  from: EndpointConditions
  to: EndpointConditions
}

/** The endpoints of a slice the plan knows; `random` more are drawn from the sync's pool (E8.7). */
interface SliceContent {
  /** Set when the mirroring controller writes it (selector-less Services), not the EndpointSlice controller. */
  controller?: 'endpointslicemirroring'
  addressType: string
  ports: readonly EndpointPortView[]
  endpoints: readonly EndpointView[]
  /** How many endpoints the slice holds after the write (certain even when membership is not). */
  size: number
  /** Endpoints drawn at random from `pool` (the pods named there): which ones upstream cannot tell. */
  random?: number
  pool?: number
  labels: Labels
  /** The trigger-time annotation written (absent: removed). */
  triggerTime?: string
}

export interface CreateEndpointSliceAction extends SliceContent {
  type: 'createEndpointSlice'
  generateName: string
  ownerReference: OwnerReference
  placeholder?: true
  /** Not sent: creates are skipped while the Service is being deleted (E2.7). */
  skipped?: 'service-deleting'
}

export interface UpdateEndpointSliceAction extends SliceContent {
  type: 'updateEndpointSlice'
  name: string
  uid: string
  resourceVersion: string
  added: string[]
  removed: string[]
  changed: EndpointChange[]
  /** Written in place of a delete and a create (finalize's recycling): the whole object is rebuilt. */
  recycled?: true
  placeholder?: true
  labelsChanged?: true
  hintsChanged?: true
}

export interface DeleteEndpointSliceAction {
  type: 'deleteEndpointSlice'
  controller?: 'endpointslicemirroring'
  name: string
  uid: string
  resourceVersion: string
  addressType: string
  reason: SliceDeleteReason
}

// ---- The legacy Endpoints controller ----

export interface WriteEndpointsAction {
  type: 'writeEndpoints'
  verb: 'create' | 'update'
  name: string
  resourceVersion?: string
  subsets: EndpointSubsetView[]
  labels: Labels
  /** More than 1000 addresses: cut to 1000 and annotated `endpoints.kubernetes.io/over-capacity: truncated`. */
  truncated?: {from: number; to: number}
  triggerTime?: string
}

/**
 * E12.1: an Endpoints object whose Service does not exist is deleted by the Endpoints controller
 * (every one is queued at start-up, checkLeftoverEndpoints; a Service's deletion queues its own).
 */
export interface DeleteEndpointsAction {
  type: 'deleteEndpoints'
  name: string
  uid: string
  resourceVersion: string
  reason: 'no-service'
}

// ---- The service (load-balancer) controller ----

export const LB_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup'

export interface AddFinalizerAction {
  type: 'addLoadBalancerFinalizer' | 'removeLoadBalancerFinalizer'
  finalizer: typeof LB_FINALIZER
}

export interface EnsureLoadBalancerAction {
  type: 'ensureLoadBalancer' | 'updateLoadBalancerHosts'
  /** The cloud's name for it (DefaultLoadBalancerName). */
  loadBalancer: string
  /** Node names, sorted (upstream passes them in lister order). */
  hosts: string[]
  /** The event the controller records besides Ensuring/Ensured (UnAvailableLoadBalancer). */
  warning?: string
}

export interface DeleteLoadBalancerAction {
  type: 'ensureLoadBalancerDeleted'
  loadBalancer: string
  /** EnsureLoadBalancerDeleted is called only if GetLoadBalancer says it exists. */
  ifExists: true
  /** The provider's GetLoadBalancer answer, when kctl asked one: false means EnsureLoadBalancerDeleted is not called. */
  exists?: boolean
}

export interface WriteLoadBalancerStatusAction {
  type: 'writeLoadBalancerStatus'
  /** `clear`: ingress emptied (delete path); `fromProvider`: whatever EnsureLoadBalancer returns, if it differs. */
  ingress: 'clear' | 'fromProvider'
  from: LoadBalancerIngress[]
  /**
   * `fromProvider`: the outcomes of EnsureLoadBalancer after which nothing is written — an error
   * (the sync is retried with backoff, or after the delay an api.RetryError asks for) and the
   * ImplementedElsewhere answer (another component owns the load balancer: not retried).
   */
  notAfter?: Array<'error' | 'implemented-elsewhere'>
}

export type ServiceAction =
  | CreateEndpointSliceAction
  | UpdateEndpointSliceAction
  | DeleteEndpointSliceAction
  | WriteEndpointsAction
  | DeleteEndpointsAction
  | AddFinalizerAction
  | EnsureLoadBalancerAction
  | DeleteLoadBalancerAction
  | WriteLoadBalancerStatusAction

/** Pods drawn in random order (EndpointSet.PopAny): the plan names them, not where each goes. */
export interface EndpointPool {
  id: number
  addressType: string
  pods: string[]
  /** The pods' endpoints, in the same order: what reconcile draws from (the first ones, where the controller draws at random). */
  endpoints?: EndpointView[]
}

/**
 * A random choice of the EndpointSlice controller that the plan states rather than makes: every
 * outcome the controller can take, and the one the plan's actions show (and reconcile carries out).
 *
 * `recycledName` (finalize, E8.9): `take` more of the slices being deleted give their names to
 * new slices, besides the `certain` ones; the controller lists the deletes per port list in map
 * order, so the names taken are whole `groups` (in any order) and then the first names of one more
 * group, in any order. With `pairing`, which new content goes under which taken name (or stays a
 * create) is random too.
 *
 * `duplicateEndpoint` (reconcileByPortMapping step 1, E8.4): `pod`'s endpoint is held by every slice in
 * `slices`; the controller walks the slices in its cache's order, the first one keeps it and the
 * others lose it. `shown` is the one the plan walks first (by name).
 *
 * `fillOrder` (reconcileByPortMapping steps 2 and 3, E8.5/E8.6): new endpoints go to the slices
 * being updated, fullest first, then whole into the unchanged slice that fits them best; among
 * equally full `slices` which one is filled (first) is random. Which endpoints the Service's slices
 * hold after the sync is certain, not which slice holds each; `shown` is the order the actions take.
 *
 * `mirroredName` (the mirroring controller's reconcileByPortMapping and recycleSlices, E13.3): of
 * the mirrored `slices`, `keep` keep their names (each rewritten with one wanted port list's
 * content, or left when it already holds it) and the others are deleted; which ones is the
 * lister's and a map's order. The contents written are certain; `shown` are the names the actions keep.
 */
export type SliceChoice =
  | {kind: 'recycledName'; addressType: string; certain: string[]; take: number; groups: string[][]; shown: string[]; pairing?: true}
  | {kind: 'duplicateEndpoint'; addressType: string; pod: string; slices: string[]; shown: string}
  | {kind: 'mirroredName'; addressType: string; slices: string[]; keep: number; shown: string[]}
  | {kind: 'fillOrder'; addressType: string; slices: string[]; shown: string[]}

/** Why a node is or is not a load-balancer host (stableNodeSetPredicates). */
export type HostExclusion = 'deleting' | 'exclude-label' | 'to-be-deleted-taint'

export interface LoadBalancerPlan {
  /** `ensure`, `update` (a node change re-sends the hosts), `delete`, or `none` and why. */
  path: 'ensure' | 'update' | 'delete' | 'none'
  why: 'class' | 'not-load-balancer' | 'class-with-finalizer' | 'wants' | 'deleting' | 'type-changed' | 'nodes-changed' | 'status-cleared' | 'deleting-without-finalizer'
  name: string
  hosts: string[]
  excluded: {node: string; reason: HostExclusion}[]
  /** The hosts the cloud provider says it was last sent (only with a provider that keeps them). */
  sent?: string[]
}

/** A host last sent to a load balancer: its name and spec.providerID then (what a node sync compares). */
export interface SentHost {
  name: string
  providerID?: string
}

/** What the cloud provider answered GetLoadBalancer for a Service, read before planning. */
export interface CloudLoadBalancerView {
  /** The load balancer's name (DefaultLoadBalancerName of the Service). */
  name: string
  exists: boolean
  /** The hosts it was last sent, when the provider keeps them. */
  hosts?: SentHost[]
}

/** A Service's plan beyond its actions: which pods it gets, slices and load balancer. */
export interface ServicePlanDetail {
  type: string
  selector: Labels | null
  pods: PodEndpointVerdict[]
  /** Endpoints per address type after the sync (ready of total), certain whatever the random order. */
  endpoints: {addressType: string; ready: number; total: number; slices: number}[]
  pools?: EndpointPool[]
  /** Random choices of the EndpointSlice controller: the outcomes allowed, and the one shown. */
  choices?: SliceChoice[]
  loadBalancer?: LoadBalancerPlan
  /** The key's Service does not exist: the plan is the Endpoints controller's sync of its leftover Endpoints object. */
  absent?: true
}

/**
 * A Service plan's `status`: the load balancer's status as read, and the ready endpoints its
 * slices hold once the sync is done (the Service's own status has no such count).
 */
export interface ServiceStatusView {
  loadBalancer: {ingress: LoadBalancerIngress[]}
  readyEndpoints: number
}
