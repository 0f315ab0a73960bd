// DaemonSets after the API server's defaulting (SetDefaults_DaemonSet in pkg/apis/apps/v1/defaults.go),
// the per-node verdicts of their controller, and the writes of one DaemonSet sync (pkg/controller/daemon)
// as plan actions.
import type {IntOrString, Labels, OwnerReference, Taint, TemplateOwnerView, Toleration} from '../../model/objects.js'

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

export interface CreateDaemonPodAction {
  type: 'createDaemonPod'
  node: string
  generateName: string
  nameBase: string
  labels: Labels
  ownerReference: OwnerReference
  /** The pod's affinity after ReplaceDaemonSetPodNodeNameNodeAffinity. */
  affinity: unknown
  /** The template's tolerations with the controller's added, as the pod carries them (empty fields left out). */
  tolerations: Partial<Toleration>[]
  /** `missing`: the node should run one and has none; `surge`: a new pod beside an old one (maxSurge). */
  reason: 'missing' | 'surge'
}

export type DaemonDeleteReason =
  | 'failed' // a Failed pod (no backoff assumed)
  | 'succeeded'
  | 'duplicate' // more than one pod on the node: all but the one kept
  | 'not-eligible' // the node no longer runs it (node selector, affinity, untolerated NoExecute taint)
  | 'no-node' // unbound, and its node no longer exists
  | 'update' // rolling update: replaced by a pod of the current revision
  | 'surge-replaced' // maxSurge: the new pod on its node is available (or the old one is not ready)

export interface DeleteDaemonPodAction {
  type: 'deleteDaemonPod'
  pod: string
  uid: string
  resourceVersion: string
  node: string
  reason: DaemonDeleteReason
  /** The pod kept on the node (duplicates, surge). */
  kept?: string
}

/**
 * A rolling-update choice upstream leaves to Go's map order: `count` of the `candidates` (pods to
 * delete, or nodes to surge onto) are picked, which ones is random.
 */
export interface ChooseDaemonPodsAction {
  type: 'chooseDaemonPods'
  operation: 'delete' | 'create'
  count: number
  candidates: string[]
  /** The write each candidate would get, in the order of `candidates` (what reconcile picks from). */
  choices?: Array<CreateDaemonPodAction | DeleteDaemonPodAction>
}
