// The request bodies of the CronJob controller's writes, built from the plan's action and the
// CronJob as read now (whose resourceVersion is the plan's, so its template is the one planned from).
import type {CreateJobAction, CronJobStatusView} from './model.js'
import type {SideObject} from '../../apply/pod-control.js'

type Obj = Record<string, any>

/** getJobFromTemplate2 (cronjob/utils.go): the template's spec under the plan's name, labels, annotations and owner. */
export function cronJobJobObject(action: CreateJobAction, namespace: string, cronJob: Obj): SideObject {
  const ref = action.ownerReference
  const metadata: SideObject['metadata'] = {
    name: action.name,
    namespace,
    labels: {...action.labels},
    annotations: {...action.annotations},
    ownerReferences: [{apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, controller: true, blockOwnerDeletion: true}],
  }
  return {apiVersion: 'batch/v1', kind: 'Job', metadata, spec: structuredClone(cronJob.spec?.jobTemplate?.spec ?? {})}
}

/** A CronJobStatus as the API stores it. */
export function cronJobStatusObject(view: CronJobStatusView): Obj {
  const status: Obj = {}
  if (view.active.length > 0) status.active = view.active.map((r) => ({...r}))
  if (view.lastScheduleTime !== undefined) status.lastScheduleTime = view.lastScheduleTime
  if (view.lastSuccessfulTime !== undefined) status.lastSuccessfulTime = view.lastSuccessfulTime
  return status
}
