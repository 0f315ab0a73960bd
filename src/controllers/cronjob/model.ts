// CronJobs as the API server stores them (SetDefaults_CronJob in pkg/apis/batch/v1/defaults.go) and
// the writes of one CronJob sync (pkg/controller/cronjob) as plan actions.
import type {JobView} from '../job/model.js'
import type {Labels, ObjectMeta, OwnerReference} from '../../model/objects.js'

export const CRONJOB_SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp'

export interface CronJobStatusView {
  active: readonly {apiVersion?: string; kind?: string; name: string; namespace?: string; uid: string; resourceVersion?: string}[]
  lastScheduleTime?: string
  lastSuccessfulTime?: string
}

export interface CronJobView extends ObjectMeta {
  kind: 'CronJob'
  apiVersion: string
  schedule: string
  timeZone?: string
  startingDeadlineSeconds?: number
  concurrencyPolicy: 'Allow' | 'Forbid' | 'Replace'
  suspend: boolean
  successfulJobsHistoryLimit?: number
  failedJobsHistoryLimit?: number
  /** The Job template: its metadata, and its spec read as a Job's (the name and uid are the created Job's). */
  jobTemplate: {labels: Labels; annotations: Labels; job?: JobView}
  status: CronJobStatusView
}

// ---- Actions ----

export interface CreateJobAction {
  type: 'createJob'
  name: string
  scheduledTime: string
  labels: Labels
  annotations: Labels
  ownerReference: OwnerReference
}

export interface UpdateCronJobStatusAction {
  type: 'updateStatus'
  from: CronJobStatusView
  to: CronJobStatusView
}
