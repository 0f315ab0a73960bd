// StatefulSets and the PersistentVolumeClaims their controller reads, after the API server's
// defaulting (SetDefaults_StatefulSet in pkg/apis/apps/v1/defaults.go), and the writes of one
// StatefulSet sync (pkg/controller/statefulset) as plan actions.
import type {IntOrString, Labels, ObjectMeta, OwnerReference, TemplateOwnerView} from '../../model/objects.js'

/** A PersistentVolumeClaim, reduced to what the StatefulSet controller looks at. */
export type ClaimView = ObjectMeta

export interface ClaimTemplate {
  name: string
  labels: Readonly<Record<string, string>>
  annotations: Readonly<Record<string, string>>
}

export type RetentionPolicy = 'Retain' | 'Delete'

export interface StatefulSetStatusView {
  observedGeneration: number
  replicas: number
  readyReplicas: number
  currentReplicas: number
  updatedReplicas: number
  availableReplicas: number
  currentRevision: string
  updateRevision: string
  collisionCount: number
}

export interface StatefulSetView extends TemplateOwnerView {
  kind: 'StatefulSet'
  replicas: number
  serviceName: string
  podManagementPolicy: 'OrderedReady' | 'Parallel'
  /**
   * `rollingUpdate` is filled in ({partition: 0}) only when `type` was empty: a written
   * `type: RollingUpdate` without it stays nil, which changes the revision new pods get (S4.4).
   */
  updateStrategy: {type: string; rollingUpdate?: {partition: number; maxUnavailable?: IntOrString}}
  revisionHistoryLimit: number
  /** spec.ordinals.start (0 when unset). */
  ordinalsStart: number
  volumeClaimTemplates: readonly ClaimTemplate[]
  retention: {whenDeleted: RetentionPolicy; whenScaled: RetentionPolicy}
  status: StatefulSetStatusView
}

export interface CreateStatefulPodAction {
  type: 'createStatefulPod'
  pod: string
  ordinal: number
  /** The revision (ControllerRevision name) it is built from; null when unknown here. */
  revision: string | null
  /** `current` or `update`: which revision's template (S4.4). */
  template: 'current' | 'update'
  labels: Labels
  hostname: string
  subdomain: string
  /** Volume name → claim name, for the volumeClaimTemplates. */
  claims: Labels
  ownerReference: OwnerReference
}

export interface DeleteStatefulPodAction {
  type: 'deleteStatefulPod'
  pod: string
  uid: string
  resourceVersion: string
  ordinal: number
  /** failed / succeeded: replaced in a later sync; condemned: beyond replicas; update: not at the update revision. */
  reason: 'failed' | 'succeeded' | 'condemned' | 'update'
}

/** A pod's identity, storage or claim references put right (UpdateStatefulPod). */
export interface UpdateStatefulPodAction {
  type: 'updatePod'
  pod: string
  uid: string
  resourceVersion: string
  /** What is fixed: `pod-name-label`, `pod-index-label`, `volumes`, `claim-owners` (the claims are updated, then the pod is written as it is). */
  fixes: string[]
}

export interface CreateClaimAction {
  type: 'createClaim'
  claim: string
  /** The volumeClaimTemplate it comes from, and the pod it is for. */
  template: string
  pod: string
  labels: Labels
  annotations: Labels
}

/** Owner references of a claim brought in line with the retention policy. */
export interface UpdateClaimAction {
  type: 'updateClaim'
  claim: string
  uid: string
  resourceVersion: string
  pod: string
  from: OwnerReference[]
  to: OwnerReference[]
}

// ---- DaemonSets ----
