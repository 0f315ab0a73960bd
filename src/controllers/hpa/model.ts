// The horizontal pod autoscaler as its controller reads it (autoscaling/v2 after the API server's
// defaulting), the scale target and the metrics it asks for, the memory it keeps between syncs,
// and what one sync decides (pkg/controller/podautoscaler, v1.36).
import type {LabelSelector, Labels, ObjectMeta} from '../../model/objects.js'

/** The controller's name and the source of its events. */
export const HPA_CONTROLLER_NAME = 'horizontal-pod-autoscaler-controller'
export const HPA_EVENT_SOURCE = 'horizontal-pod-autoscaler'

// ---- Spec ----

export interface CrossVersionObjectReference {
  apiVersion?: string
  kind: string
  name: string
}

/** MetricTarget: quantities kept as the strings the API returns. */
export interface MetricTarget {
  /** `Utilization`, `Value` or `AverageValue` (only Object metrics read it). */
  type: string
  value?: string
  averageValue?: string
  averageUtilization?: number
}

export interface MetricIdentifier {
  name: string
  selector?: LabelSelector
}

export interface ResourceMetricSource {
  name: string
  target: MetricTarget
}

export interface ContainerResourceMetricSource extends ResourceMetricSource {
  container: string
}

export interface PodsMetricSource {
  metric: MetricIdentifier
  target: MetricTarget
}

export interface ObjectMetricSource {
  describedObject: CrossVersionObjectReference
  metric: MetricIdentifier
  target: MetricTarget
}

export interface ExternalMetricSource {
  metric: MetricIdentifier
  target: MetricTarget
}

/** A MetricSpec. `type` may be anything the API stored: an unknown one fails that metric (InvalidMetricSourceType). */
export type MetricSpec =
  | {type: 'Resource'; resource: ResourceMetricSource}
  | {type: 'ContainerResource'; containerResource: ContainerResourceMetricSource}
  | {type: 'Pods'; pods: PodsMetricSource}
  | {type: 'Object'; object: ObjectMetricSource}
  | {type: 'External'; external: ExternalMetricSource}
  | {type: string; [field: string]: unknown}

export type ScalingPolicyType = 'Pods' | 'Percent'
export type SelectPolicy = 'Max' | 'Min' | 'Disabled'

export interface ScalingPolicy {
  type: ScalingPolicyType
  value: number
  periodSeconds: number
}

/** HPAScalingRules after defaulting. */
export interface ScalingRules {
  /** Absent on scaleDown unless set: the controller then uses its flag (maybeInitScaleDownStabilizationWindow). */
  stabilizationWindowSeconds?: number
  selectPolicy: SelectPolicy
  policies: readonly ScalingPolicy[]
  /** A quantity (`50m`); absent: the flag's tolerance. Read only with HPAConfigurableTolerance. */
  tolerance?: string
}

export interface Behavior {
  scaleUp: ScalingRules
  scaleDown: ScalingRules
}

export interface HpaSpec {
  scaleTargetRef: CrossVersionObjectReference
  /** Defaulted to 1; 0 only under HPAScaleToZero. */
  minReplicas: number
  maxReplicas: number
  metrics: readonly MetricSpec[]
  /** Absent: nil (the legacy rules of H4). */
  behavior?: Behavior
}

// ---- Status ----

export interface MetricValueStatus {
  value?: string
  averageValue?: string
  averageUtilization?: number
}

/** A MetricStatus; a failed metric leaves `{type: ''}`. */
export interface MetricStatus {
  type: string
  resource?: {name: string; current: MetricValueStatus}
  containerResource?: {name: string; container: string; current: MetricValueStatus}
  pods?: {metric: MetricIdentifier; current: MetricValueStatus}
  object?: {metric: MetricIdentifier; describedObject: CrossVersionObjectReference; current: MetricValueStatus}
  external?: {metric: MetricIdentifier; current: MetricValueStatus}
}

export type HpaConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited' | 'ScaledToZero'

export interface HpaCondition {
  type: HpaConditionType | string
  status: 'True' | 'False' | 'Unknown' | string
  reason?: string
  message?: string
  /** RFC 3339, whole seconds. */
  lastTransitionTime?: string
}

export interface HpaStatus {
  observedGeneration?: number
  /** RFC 3339. */
  lastScaleTime?: string
  currentReplicas: number
  desiredReplicas: number
  /** null: nil (no metric was computed). */
  currentMetrics: readonly MetricStatus[] | null
  conditions: readonly HpaCondition[]
}

export interface HpaView {
  namespace: string
  name: string
  uid: string
  resourceVersion: string
  spec: HpaSpec
  status: HpaStatus
}

// ---- The scale target and its pods ----

/** What GET /scale returned (converted to autoscaling/v1 Scale). */
export interface ScaleView {
  kind: string
  apiVersion: string
  name: string
  /** scale.spec.replicas: what the controller calls currentReplicas. */
  specReplicas: number
  /** scale.status.replicas. */
  statusReplicas: number
  /** scale.status.selector: a label-selector string; '' when the target has none. */
  selector: string
}

/** The scale GET: a Scale, or the error the API answered (every mapping failed; the first error). */
export type ScaleRead = {scale: ScaleView} | {error: string}

/** Where a custom resource's scale lives (a CustomResourceDefinition version's subresources.scale). */
export interface ScalePaths {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

/** A CustomResourceDefinition as the HPA reads it: its kind, resource and the scale subresource of each served version. */
export interface CustomScaleDefinition {
  group: string
  kind: string
  /** spec.names.plural. */
  plural: string
  /** Served versions in the order written; `scale` absent: the version serves no /scale. */
  versions: readonly {name: string; scale?: ScalePaths}[]
}

/** A custom resource's Scale as a live API server answered its /scale (or the GET's refusal). */
export type LiveCustomScale = {
  namespace: string
  /** The HPA's target: scaleTargetRef's group, kind and name. */
  group: string
  kind: string
  name: string
} & ({apiVersion: string; resource: string; uid: string; resourceVersion: string; specReplicas: number; statusReplicas: number; selector: string} | {error: string})

export interface ContainerRequests {
  name: string
  /** resources.requests as stored (`cpu: 500m`). */
  requests: Readonly<Record<string, string>>
}

/** A pod as the HPA's replica calculator reads it. */
export interface HpaPod {
  name: string
  namespace: string
  labels: Labels
  /** status.phase; '' when unset. */
  phase: string
  deletionTimestamp?: string
  /** status.startTime (RFC 3339). */
  startTime?: string
  /** The Ready condition, when the pod has one. */
  readyCondition?: {status: string; lastTransitionTime?: string}
  containers: readonly ContainerRequests[]
  /** Init containers with restartPolicy Always, in order. */
  sidecars: readonly ContainerRequests[]
  /**
   * The pod-level requests as resourcehelpers.PodRequests gives them (overhead included), when
   * spec.resources.requests is set; absent otherwise.
   */
  podRequests?: Readonly<Record<string, string>>
}

// ---- Metrics answers ----

/** One item of a metrics.k8s.io PodMetricsList. */
export interface PodMetricsItem {
  name: string
  /** RFC 3339. */
  timestamp: string
  /** A duration in seconds (`window: 30s` → 30). */
  windowSeconds: number
  containers: readonly {name: string; usage: Readonly<Record<string, string>>}[]
}

/**
 * What a metrics API answered for one entry of spec.metrics (same index). `missing`: not known to
 * the planner (nothing was asked or the answer was not kept); the metric is then reported as not
 * computable rather than guessed.
 */
export type MetricAnswer =
  /** Resource and ContainerResource: the PodMetricsList for the target's pod selector. */
  | {kind: 'podMetrics'; items: readonly PodMetricsItem[]}
  /** Pods: the MetricValueList, one value per pod (describedObject.name). */
  | {kind: 'podValues'; items: readonly {pod: string; value: string; timestamp?: string}[]}
  /** Object: the values returned for the described object (upstream wants exactly one). */
  | {kind: 'objectValues'; items: readonly {value: string; timestamp?: string}[]}
  /** External: every value of the ExternalMetricValueList. */
  | {kind: 'externalValues'; items: readonly {value: string; timestamp?: string}[]}
  /** The request failed; the text is the client's error. */
  | {kind: 'error'; message: string}
  | {kind: 'missing'}

// ---- The controller's memory ----

export interface TimestampedRecommendation {
  replicas: number
  /** Nanoseconds since the epoch (the controller's full-precision clock). */
  at: bigint
}

export interface TimestampedScaleEvent {
  /** How many replicas the write added (up) or removed (down): always positive. */
  change: number
  at: bigint
  /** Set by markScaleEventsOutdated: the slot may be reused. */
  outdated: boolean
}

/**
 * What the controller keeps per HPA key, in memory only. `recommendations` absent: the controller
 * has none for this key (a new HPA, or a restarted controller) and seeds one (H1.5).
 */
export interface HpaHistory {
  recommendations?: readonly TimestampedRecommendation[]
  scaleUpEvents: readonly TimestampedScaleEvent[]
  scaleDownEvents: readonly TimestampedScaleEvent[]
}

export const EMPTY_HISTORY: HpaHistory = Object.freeze({scaleUpEvents: Object.freeze([]), scaleDownEvents: Object.freeze([])})

// ---- Flags and gates ----

export interface HpaControllerConfig {
  /** --horizontal-pod-autoscaler-tolerance. */
  tolerance: number
  /** --horizontal-pod-autoscaler-cpu-initialization-period, in seconds. */
  cpuInitializationPeriodSeconds: number
  /** --horizontal-pod-autoscaler-initial-readiness-delay, in seconds. */
  initialReadinessDelaySeconds: number
  /** --horizontal-pod-autoscaler-downscale-stabilization, in seconds. */
  downscaleStabilizationSeconds: number
  /** --horizontal-pod-autoscaler-sync-period, in seconds. */
  syncPeriodSeconds: number
}

/** RecommendedDefaultHPAControllerConfiguration. */
export const DEFAULT_HPA_CONFIG: Readonly<HpaControllerConfig> = Object.freeze({
  tolerance: 0.1,
  cpuInitializationPeriodSeconds: 300,
  initialReadinessDelaySeconds: 30,
  downscaleStabilizationSeconds: 300,
  syncPeriodSeconds: 15,
})

export interface HpaFeatureGates {
  /** Beta, on in 1.36. */
  HPAConfigurableTolerance: boolean
  /** Alpha, off in 1.36. */
  HPAScaleToZero: boolean
  /** Beta, on in 1.36: pod-level requests feed utilization. */
  PodLevelResources: boolean
}

export const DEFAULT_HPA_GATES: Readonly<HpaFeatureGates> = Object.freeze({
  HPAConfigurableTolerance: true,
  HPAScaleToZero: false,
  PodLevelResources: true,
})

// ---- What one sync decides ----

/** One metric's proposal (H2), with the numbers that made it. */
export interface MetricProposal {
  /** Index in spec.metrics. */
  index: number
  type: string
  /** The name upstream reports (`cpu resource utilization (percentage of request)`); '' when failed. */
  name: string
  /** The proposed replica count; absent when the metric failed. */
  replicas?: number
  /** The status entry ({type: ''} when failed). */
  status: MetricStatus
  /** The failure: the condition reason, the event's message (the inner error) and the wrapped error. */
  error?: {reason: string; message: string; wrapped: string}
  /** The numbers behind the proposal, by name (ratio, utilization, readyCount, samples...). */
  numbers: Readonly<Record<string, number | string | boolean>>
}

export interface HpaEvent {
  type: 'Normal' | 'Warning'
  reason: string
  message: string
}

/** The path one sync takes through reconcileAutoscaler. */
export type HpaSyncPath =
  | 'failed-get-scale'
  | 'scaling-disabled'
  | 'out-of-range'
  | 'metrics-failed'
  | 'normalized'

export type LimitReason = 'DesiredWithinRange' | 'ScaleUpLimit' | 'TooManyReplicas' | 'TooFewReplicas' | 'ScaleDownLimit'

export interface HpaPlanDetail {
  path: HpaSyncPath
  /** scale.spec.replicas and scale.status.replicas (absent when the scale could not be read). */
  currentReplicas?: number
  statusReplicas?: number
  proposals: MetricProposal[]
  /** The largest proposal (H3), before normalization. */
  best?: number
  bestMetric?: string
  /** After the stabilization window (H4.1, H5.4). */
  stabilized?: number
  /** After the rate limits and min/max (H4.2, H5.5). */
  desired: number
  limit?: LimitReason
  rescaleReason: string
  /** The selector this sync registered for the HPA in the controller's selector map (validateAndParseSelector), when it parsed one. */
  selector?: string
  /** The scale subresource the write goes to (the target's kind, apiVersion and name as the scale GET answered). */
  target?: {kind: string; apiVersion: string; name: string}
  /** The scale write (spec.replicas of the Scale read, replaced), when the sync sends one. */
  scaleWrite?: {from: number; to: number; outcome: 'written' | 'failed'}
  /** The status the sync ends with, and whether it differs from the one read (a PUT of /status). */
  status: HpaStatus
  statusChanged: boolean
  events: HpaEvent[]
  /** The controller's memory for this key after the sync. */
  history: HpaHistory
  /** What the plan takes for granted that only the controller's memory knows. */
  assumes: string[]
  /** The next sync: one sync period after this one (NewDefaultHPARateLimiter; strictly, after it ends). RFC 3339. */
  requeue: {at: string; seconds: number}
}

// ---- As kctl reads them (read.ts) and plans them (planner.ts) ----

/** An HPA as read from a file or the cluster: autoscaling/v2 after the API server's defaulting. */
export interface HpaObject extends ObjectMeta, HpaView {
  kind: 'HorizontalPodAutoscaler'
  /** As written: autoscaling/v2, or autoscaling/v1 (converted as the API server converts it). */
  apiVersion: string
}

/** The pod fields only the HPA's replica calculator reads (PodView.autoscaling). */
export interface HpaPodFields {
  startTime?: string
  readyCondition?: {status: string; lastTransitionTime?: string}
  containers: readonly ContainerRequests[]
  sidecars: readonly ContainerRequests[]
  podRequests?: Readonly<Record<string, string>>
}

/** The metrics APIs' answers to one HPA's requests, read live (one per entry of spec.metrics). */
export interface HpaLiveMetrics {
  namespace: string
  name: string
  answers: readonly MetricAnswer[]
}

/** A metrics.k8s.io/v1beta1 PodMetrics (an item of `kubectl get --raw …/pods`). */
export interface PodMetricsFixture extends PodMetricsItem {
  namespace: string
  /** The pod's labels, as metrics-server copies them; absent when the fixture has none. */
  labels?: Labels
}

/** A custom.metrics.k8s.io/v1beta2 MetricValue: one value of one metric for one object. */
export interface CustomMetricFixture {
  describedObject: {kind: string; namespace: string; name: string; apiVersion?: string}
  metric: string
  /** metric.selector: the metric selector the value was asked with (absent: none). */
  selector?: LabelSelector
  value: string
  timestamp?: string
}

/** An external.metrics.k8s.io/v1beta1 ExternalMetricValue. */
export interface ExternalMetricFixture {
  /** The namespace the list was read in (the fixture's metadata, or the list's); '' applies to every namespace. */
  namespace: string
  metricName: string
  metricLabels: Labels
  value: string
  timestamp?: string
}

/** The scale write: PUT of the target's scale subresource, spec.replicas replaced. */
export interface ScaleTargetAction {
  type: 'scaleTarget'
  /**
   * `resource` (plural.group) and `specReplicasPath` for a custom resource: where its /scale is
   * served, and the field a write to it sets (from its CustomResourceDefinition).
   */
  target: {kind: string; apiVersion: string; name: string; resource?: string; specReplicasPath?: string}
  /** The target's uid and resourceVersion as planned: the write's preconditions (absent in plans saved before they were recorded). */
  uid?: string
  resourceVersion?: string
  from: number
  to: number
  /** The rescale reason upstream records in its SuccessfulRescale event. */
  reason: string
}

/** The status write: PUT of the HPA's status (only when it differs from the status read). */
export interface UpdateHpaStatusAction {
  type: 'updateHpaStatus'
  from: HpaStatus
  to: HpaStatus
}

export type HpaAction = ScaleTargetAction | UpdateHpaStatusAction

/**
 * The `hpa` detail of a plan: one sync's decision, without the controller's in-memory history (the
 * status, events, assumptions and requeue are the plan's own fields).
 */
export type HpaPlanView = Omit<HpaPlanDetail, 'history' | 'status' | 'events' | 'assumes' | 'requeue'> & {
  /** spec.minReplicas and spec.maxReplicas after defaulting. */
  min: number
  max: number
  /** Each metric that kctl could not find in the input, by index and type. */
  missing: {index: number; type: string; name: string}[]
  /** The stabilization window's and the rate limits' memory after the sync (RFC 3339 times). */
  memory: {recommendations: {replicas: number; at: string}[]; scaleUpEvents: number; scaleDownEvents: number}
}
