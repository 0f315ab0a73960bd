// The objects kctl reads, reduced to what the controllers' rules look at.
// Sources build these once (RC is normalized to the ReplicaSet shape there); the core only reads them.
import type {CronJobView} from '../controllers/cronjob/model.js'
import type {JobView, PodBatchFields} from '../controllers/job/model.js'
import type {CloudLoadBalancerView, EndpointSliceView, EndpointsView, PodNetworkView, ServiceView} from '../controllers/service/model.js'
import type {ClaimView, StatefulSetView} from '../controllers/statefulset/model.js'
import type {DaemonSetView} from '../controllers/daemonset/model.js'
import type {CustomMetricFixture, CustomScaleDefinition, ExternalMetricFixture, HpaLiveMetrics, HpaObject, HpaPodFields, LiveCustomScale, PodMetricsFixture} from '../controllers/hpa/model.js'


/** Where an object (or a field of it) was read from; line and column are 1-based. */
export interface Origin {
  file: string
  line: number
  column: number
}

export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'

export interface LabelSelectorRequirement {
  key: string
  operator: SelectorOperator
  values?: string[]
}

/**
 * A metav1.LabelSelector. `null` is the nil selector (matches nothing); `{}` matches everything
 * (LabelSelectorAsSelector).
 */
export type LabelSelector = {
  matchLabels?: Record<string, string>
  matchExpressions?: LabelSelectorRequirement[]
} | null

export type Labels = Readonly<Record<string, string>>

/** Common object metadata, with timestamps kept as RFC 3339 strings exactly as read. */
export interface ObjectMeta {
  namespace: string
  name: string
  uid: string
  resourceVersion: string
  generation: number
  labels: Labels
  annotations: Labels
  ownerReferences: readonly OwnerReference[]
  creationTimestamp?: string
  deletionTimestamp?: string
  origin?: Origin
}

export interface ContainerStatusView {
  name: string
  restartCount: number
}

/**
 * A Pod with only the fields a controller rule reads. A pod read from an input keeps some of them
 * in an object it shares with the pods read before it (sources/pods.ts PodState): copy one with
 * plainPod, not a spread, which would leave those out.
 */
export interface PodView extends ObjectMeta {
  nodeName: string
  /** `status.phase`; '' when unset. */
  phase: string
  /** Condition Ready: status True (IsPodReady looks at the condition only). */
  ready: boolean
  /** lastTransitionTime of the Ready condition, when the pod is Ready and the time is set. */
  readySince?: string
  containerStatuses: readonly ContainerStatusView[]
  /** Restart counts of init containers with restartPolicy Always (sidecars). */
  sidecarStatuses: readonly ContainerStatusView[]
  /**
   * Unbound pods: the node named by the single-value `metadata.name In [...]` matchFields term of
   * the required node affinity (what a DaemonSet pod is created with); '' when there is none or it
   * is not unique (util.GetTargetNodeName). Absent when the pod has no such affinity at all.
   */
  affinityNode?: string
  /** Volume name → persistentVolumeClaim.claimName, for the volumes that name a claim. */
  claimVolumes?: Readonly<Record<string, string>>
  /** Pods a Job owns: finalizers, conditions, terminated containers (absent on other pods). */
  batch?: PodBatchFields
  /** IPs, hostname and named ports (absent when the pod has none of them). */
  network?: PodNetworkView
  /** What the HPA's replica calculator reads: start time, the Ready condition, requests. */
  autoscaling?: HpaPodFields
}

export type WorkloadKind = 'ReplicaSet' | 'ReplicationController'

export interface PodTemplateView {
  labels: Labels
  annotations: Labels
  finalizers: readonly string[]
  /** The template's spec, copied verbatim into created pods. */
  spec: unknown
}

export interface ReplicaSetStatusView {
  replicas: number
  fullyLabeledReplicas: number
  readyReplicas: number
  availableReplicas: number
  terminatingReplicas?: number
  observedGeneration: number
  conditions: readonly WorkloadCondition[]
}

export interface WorkloadCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastTransitionTime?: string
}

/**
 * A ReplicaSet or ReplicationController in the ReplicaSet shape (the RC map selector becomes
 * matchLabels, after defaulting): upstream runs one controller over both through a conversion layer
 * (pkg/controller/replication/conversion.go).
 */
export interface Workload extends ObjectMeta {
  kind: WorkloadKind
  apiVersion: string
  /** spec.replicas after defaulting (nil → 1). */
  replicas: number
  minReadySeconds: number
  selector: LabelSelector
  /** For RC: the selector was defaulted from the template labels (SetDefaults_ReplicationController). */
  selectorDefaulted?: boolean
  template: PodTemplateView
  /** spec.template as read: what a Deployment compares its own template with (EqualIgnoreHash). */
  rawTemplate?: unknown
  status: ReplicaSetStatusView
}

/** An int-or-string field (`maxSurge: 1`, `maxSurge: "25%"`). */
export type IntOrString = number | string

/** A Deployment condition: metav1-style, with lastUpdateTime (DeploymentCondition). */
export interface DeploymentCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastUpdateTime?: string
  lastTransitionTime?: string
}

export interface DeploymentStatusView {
  observedGeneration: number
  replicas: number
  updatedReplicas: number
  readyReplicas: number
  availableReplicas: number
  unavailableReplicas: number
  /** Absent when the gate is off or a synced ReplicaSet does not report it (D9.8). */
  terminatingReplicas?: number
  collisionCount?: number
  conditions: readonly DeploymentCondition[]
}

export interface DeploymentStrategy {
  /** `RollingUpdate`, `Recreate`, or whatever else was written (the controller then errors). */
  type: string
  /** After defaulting: "25%" each when RollingUpdate has no rollingUpdate block. */
  maxSurge?: IntOrString
  maxUnavailable?: IntOrString
}

/** An apps/v1 controller of a pod template (Deployment, StatefulSet, DaemonSet), as read. */
export interface TemplateOwnerView extends ObjectMeta {
  apiVersion: string
  minReadySeconds: number
  selector: LabelSelector
  template: PodTemplateView
  /** spec.template as read (after the server's defaulting when read live): what revision hashes are computed from. */
  rawTemplate: unknown
  /** Whether rawTemplate was read from the API server (already defaulted) or from a file. */
  serverDefaulted: boolean
}

/** An apps/v1 Deployment after the API server's defaulting (SetDefaults_Deployment). */
export interface DeploymentView extends TemplateOwnerView {
  kind: 'Deployment'
  replicas: number
  strategy: DeploymentStrategy
  /** Absent: nil (keep every old ReplicaSet). */
  revisionHistoryLimit?: number
  /** Absent: nil (no progress deadline). */
  progressDeadlineSeconds?: number
  paused: boolean
  status: DeploymentStatusView
}

/** An object of a kind no controller reads (a custom resource), kept whole. */
export interface CustomResourceView {
  apiVersion: string
  kind: string
  namespace: string
  name: string
  uid: string
  resourceVersion: string
  object: Readonly<Record<string, unknown>>
}

/** The world as the controllers see it in one sync. Read-only: never mutated by the core. */
export interface Snapshot {
  jobs?: readonly JobView[]
  cronJobs?: readonly CronJobView[]
  statefulSets?: readonly StatefulSetView[]
  daemonSets?: readonly DaemonSetView[]
  /** Every Node read (cluster-scoped: never filtered by -n or -l). */
  nodes?: readonly NodeView[]
  controllerRevisions?: readonly ControllerRevisionView[]
  claims?: readonly ClaimView[]
  /** Services to plan (after -n and -l), and the slices and Endpoints of their namespaces. */
  services?: readonly ServiceView[]
  endpointSlices?: readonly EndpointSliceView[]
  endpoints?: readonly EndpointsView[]
  /** The cloud provider's answers about the Services' load balancers (only with a provider flag). */
  loadBalancers?: readonly CloudLoadBalancerView[]
  /** Deployments to plan (after -n and -l). */
  deployments?: readonly DeploymentView[]
  /** HorizontalPodAutoscalers to plan (after -n and -l), and the metrics APIs' answers read beside them. */
  hpas?: readonly HpaObject[]
  podMetrics?: readonly PodMetricsFixture[]
  customMetrics?: readonly CustomMetricFixture[]
  externalMetrics?: readonly ExternalMetricFixture[]
  /** Read live only: what the metrics APIs answered each HPA, asked as its controller asks them. */
  hpaMetrics?: readonly HpaLiveMetrics[]
  /** CustomResourceDefinitions read (their kinds' scale subresources), for HPAs scaling custom resources. */
  scaleDefinitions?: readonly CustomScaleDefinition[]
  /** Objects of kinds no controller reads, outside the core group (custom resources), as written. */
  customResources?: readonly CustomResourceView[]
  /** Read live only: the /scale of each HPA's custom-resource target. */
  customScales?: readonly LiveCustomScale[]
  workloads: readonly Workload[]
  pods: readonly PodView[]
  /** Every ReplicaSet, including ones not planned (e.g. outside a label filter), for related-pod ranking. */
  replicaSets: readonly Workload[]
  /** How many objects of kinds kctl does not plan for were read and ignored, by kind. */
  ignored: Readonly<Record<string, number>>
  source: PlanSource
}

export type PlanSource =
  | {type: 'fixtures'; paths: string[]}
  | {type: 'cluster'; context: string; server: string}

export interface Taint {
  key: string
  value: string
  /** NoSchedule, PreferNoSchedule or NoExecute. */
  effect: string
}

export interface Toleration {
  key: string
  /** '' (Equal), Equal, Exists, Lt, Gt. */
  operator: string
  value: string
  effect: string
  tolerationSeconds?: number
}

export interface NodeView extends ObjectMeta {
  unschedulable: boolean
  taints: readonly Taint[]
  /** spec.providerID, when set (a change of it re-sends load balancers their hosts). */
  providerID?: string
}

/** A ControllerRevision: the pod template it records (`data.spec.template`) and its number. */
export interface ControllerRevisionView extends ObjectMeta {
  revision: number
  /** `data` as stored: `{"spec":{"template":{..., "$patch":"replace"}}}`. */
  data: unknown
}
