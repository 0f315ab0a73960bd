// The objects kctl reads, reduced to what the controllers' rules look at.
// Sources build these once (RC is normalized to the ReplicaSet shape there); the core only reads them.

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

/** A Pod with only the fields a controller rule reads. */
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
  status: ReplicaSetStatusView
}

/** The world as the controllers see it in one sync. Read-only: never mutated by the core. */
export interface Snapshot {
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
