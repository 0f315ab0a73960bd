// The writes of one StatefulSet or DaemonSet sync (pkg/controller/statefulset,
// pkg/controller/daemon), as plan actions. Pod creates and deletes count as `create` and `delete`
// in the plan's summary.
import type {Labels, OwnerReference} from './objects.js'
import type {Toleration} from './workloads.js'

// ---- ControllerRevisions (both controllers) ----

export interface CreateControllerRevisionAction {
  type: 'createControllerRevision'
  /** `<owner>-<hash>`; null when the hash cannot be computed here. */
  name: string | null
  hash: string | null
  revision: number
  labels: Labels
  ownerReference: OwnerReference
}

/** A revision whose template is the owner's again (a rollback) gets the next revision number. */
export interface UpdateControllerRevisionAction {
  type: 'updateControllerRevision'
  name: string
  uid: string
  resourceVersion: string
  from: number
  to: number
}

export interface DeleteControllerRevisionAction {
  type: 'deleteControllerRevision'
  name: string
  uid: string
  resourceVersion: string
  revision: number
  /** `history-limit`: beyond revisionHistoryLimit and not in use; `duplicate`: a second revision of the current template (DaemonSets). */
  reason: 'history-limit' | 'duplicate'
}

export interface AdoptControllerRevisionAction {
  type: 'adoptControllerRevision' | 'releaseControllerRevision'
  name: string
  uid: string
  resourceVersion: string
}

// ---- StatefulSets ----

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

export type WorkloadAction =
  | CreateControllerRevisionAction
  | UpdateControllerRevisionAction
  | DeleteControllerRevisionAction
  | AdoptControllerRevisionAction
  | CreateStatefulPodAction
  | DeleteStatefulPodAction
  | UpdateStatefulPodAction
  | CreateClaimAction
  | UpdateClaimAction
  | CreateDaemonPodAction
  | DeleteDaemonPodAction
  | ChooseDaemonPodsAction
