// Jobs as the API server stores them (SetDefaults_Job in pkg/apis/batch/v1/defaults.go), the pod
// fields only the Job controller reads, and the writes of one Job sync (pkg/controller/job) as plan actions.
import type {LabelSelector, Labels, ObjectMeta, OwnerReference, PodTemplateView} from '../../model/objects.js'

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking'

export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index'

export const JOB_INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count'

export const JOB_INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count'

export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller'

/** A container that has terminated: what podFailurePolicy and the finish time read. */
export interface TerminatedContainer {
  name: string
  exitCode: number
  finishedAt?: string
  /** An init container (checked after the regular ones). */
  init: boolean
}

/** What the Job controller reads of a pod beyond what every controller reads. */
export interface PodBatchFields {
  finalizers: readonly string[]
  /** Each condition's type and status; a transition time only on the first Ready condition, when False (getFinishedTime reads no other). */
  conditions: readonly {type: string; status: string; lastTransitionTime?: string}[]
  terminated: readonly TerminatedContainer[]
  /** Every regular container and sidecar has terminated (getFinishedTime's first rule applies). */
  allTerminated: boolean
  deletionGracePeriodSeconds?: number
  /** Restart counts of every container and init container, summed (the OnFailure limit). */
  totalRestarts: number
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'Ignore' | 'Count' | 'FailIndex'
  onExitCodes?: {containerName?: string; operator: 'In' | 'NotIn'; values: number[]}
  onPodConditions?: {type: string; status: string}[]
}

export interface SuccessPolicyRule {
  succeededIndexes?: string
  succeededCount?: number
}

export interface JobCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastProbeTime?: string
  lastTransitionTime?: string
}

/**
 * An empty list made to hold strings (a literal `[]` or an empty map() starts as a list of small
 * integers): lists of uids copied from it are all of one kind, before and after a uid is pushed,
 * and the planner's optimised code is not thrown out when the kind changes.
 */
const NO_UID_LIST: readonly string[] = ['uid'].slice(1)

/** A copy of a list of uids, made to hold strings even when empty. */
export const uidList = (uids: readonly string[] | undefined): string[] => [...(uids !== undefined && uids.length > 0 ? uids : NO_UID_LIST)]

export interface JobStatusView {
  conditions: readonly JobCondition[]
  startTime?: string
  completionTime?: string
  active: number
  succeeded: number
  failed: number
  /** Absent when unset (a nil pointer: the controller then writes it). */
  terminating?: number
  ready?: number
  completedIndexes?: string
  failedIndexes?: string
  /** Absent: nil (the controller writes `{}` at least). */
  uncountedTerminatedPods?: {succeeded: readonly string[]; failed: readonly string[]}
}

export interface JobView extends ObjectMeta {
  kind: 'Job'
  apiVersion: string
  parallelism: number
  /** Absent: nil (a work-queue Job). */
  completions?: number
  completionMode: string
  backoffLimit: number
  backoffLimitPerIndex?: number
  maxFailedIndexes?: number
  activeDeadlineSeconds?: number
  suspend: boolean
  managedBy?: string
  podReplacementPolicy: 'TerminatingOrFailed' | 'Failed'
  podFailurePolicy?: readonly PodFailurePolicyRule[]
  successPolicy?: readonly SuccessPolicyRule[]
  ttlSecondsAfterFinished?: number
  selector: LabelSelector
  template: PodTemplateView
  restartPolicy: string
  status: JobStatusView
  /** Read (a CronJob's child) but left out of the plan by -l. */
  notPlanned?: boolean
}

export interface CreateJobPodAction {
  type: 'createJobPod'
  generateName: string
  nameBase: string
  /** Indexed Jobs: the completion index (also the label, annotation, hostname and JOB_COMPLETION_INDEX). */
  index?: number
  hostname?: string
  labels: Labels
  annotations: Labels
  finalizers: string[]
  ownerReference: OwnerReference
}

export type JobDeleteReason =
  | 'finished' // the Job reached a terminal condition: its active pods go (finalizer kept, counted)
  | 'suspended' // the Job is suspended (finalizer removed first, never counted)
  | 'excess' // more active pods than wanted (ranked by ActivePods)
  | 'duplicate-index' // a second pod of one completion index
  | 'invalid-index' // no valid completion index, or one ≥ completions

export interface DeleteJobPodAction {
  type: 'deleteJobPod'
  pod: string
  uid: string
  resourceVersion: string
  reason: JobDeleteReason
  /** manageJob's deletes patch the tracking finalizer away first; a finishing Job's keep it for counting. */
  finalizerRemovedFirst: boolean
}

export interface RemoveFinalizerAction {
  type: 'removeFinalizer'
  pod: string
  uid: string
  resourceVersion: string
  /** What the removal counts the pod as (`none`: not counted — Ignored by podFailurePolicy, a duplicate index, a finished Job's leftover). */
  counts: 'succeeded' | 'failed' | 'none'
  /** `orphan-worker`: syncOrphanPod, for a finished Job's pods (not the Job's sync). */
  by?: 'orphan-worker'
}

export interface UpdateJobStatusAction {
  type: 'updateStatus'
  /** Which of the sync's status writes: 1 before the finalizer patches, 2 after. */
  write: 1 | 2
  from: JobStatusView
  to: JobStatusView
}

/** The Job controller's memory of failures since the last success (backoffRecord in backoff_utils.go). */
export interface BackoffRecord {
  failures: number
  /** Nanoseconds since the epoch. */
  lastFailure?: bigint
}

/** ttlSecondsAfterFinished of a finished Job: when the ttl-after-finished controller deletes it. */
export interface JobTtl {
  /** The first True Complete or Failed condition's lastTransitionTime + the TTL (RFC 3339). */
  expireAt: string
  seconds: number
}

/** A Job deleted: by a CronJob (its history limits, concurrencyPolicy Replace) or by the ttl-after-finished controller. */
export interface DeleteJobAction {
  type: 'deleteJob'
  name: string
  uid: string
  /**
   * `replace`: concurrencyPolicy Replace; `history-limit`: beyond successful/failedJobsHistoryLimit
   * (both the CronJob's); `ttl-after-finished`: the Job's own ttlSecondsAfterFinished has passed.
   */
  reason: 'replace' | 'history-limit' | 'ttl-after-finished'
  /** Background for the CronJob's deletes, Foreground for the ttl-after-finished controller's. */
  propagationPolicy: 'Background' | 'Foreground'
  /** `ttl-after-finished`: the ttl-after-finished controller deletes it, not the Job's own sync. */
  by?: 'ttl-after-finished'
}
