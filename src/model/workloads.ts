// StatefulSets, DaemonSets and what their controllers read besides pods: Nodes,
// ControllerRevisions and PersistentVolumeClaims — after the API server's defaulting
// (SetDefaults_StatefulSet, SetDefaults_DaemonSet in pkg/apis/apps/v1/defaults.go).
import type {IntOrString, ObjectMeta, TemplateOwnerView} from './objects.js'

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

export interface DaemonSetStatusView {
  currentNumberScheduled: number
  numberMisscheduled: number
  desiredNumberScheduled: number
  numberReady: number
  observedGeneration: number
  updatedNumberScheduled: number
  numberAvailable: number
  numberUnavailable: number
  collisionCount?: number
}

export interface DaemonSetView extends TemplateOwnerView {
  kind: 'DaemonSet'
  /** RollingUpdate (maxUnavailable 1, maxSurge 0 by default) or OnDelete. */
  updateStrategy: {type: string; maxUnavailable?: IntOrString; maxSurge?: IntOrString}
  revisionHistoryLimit: number
  status: DaemonSetStatusView
}

/** Why a node does not run (or no longer keeps) a DaemonSet's pod (NodeShouldRunDaemonPod). */
export type NodeExclusion =
  | 'node-name' // the template names another node
  | 'node-selector'
  | 'node-affinity'
  | 'taint' // an untolerated NoSchedule or NoExecute taint

export interface DaemonNode {
  node: string
  shouldRun: boolean
  /** An existing pod stays (only NoSchedule taints are untolerated). */
  shouldContinueRunning: boolean
  /** Why not, when not: the rule, and the taint when one decides. */
  excludedBy?: NodeExclusion
  taint?: Taint
  /** Its daemon pods, oldest first (bound before unbound). */
  pods: string[]
}
