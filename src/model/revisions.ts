// The ControllerRevision writes shared by the StatefulSet and DaemonSet controllers
// (controller_history.go), as plan actions.
import type {Labels, OwnerReference} from './objects.js'

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
