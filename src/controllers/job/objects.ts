// The request bodies of the Job controller's writes, built from the plan's action and
// the controller as read now (whose resourceVersion is the plan's, so its template is the one
// planned from).
import {JOB_COMPLETION_INDEX, JOB_TRACKING_FINALIZER, type CreateJobPodAction, type JobStatusView} from './model.js'
import type {ObjectPatch, PodManifest} from '../../apply/pod-control.js'

type Obj = Record<string, any>

/** The environment variable an Indexed Job's containers read their index from. */
const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX'

/**
 * manageJob's pod (job_controller.go): GetPodFromTemplate of the Job's template with the plan's
 * labels, annotations and finalizers (the tracking finalizer, and for an Indexed Job the index
 * label and annotation); an Indexed Job's pod also gets its hostname and, in every container and
 * init container that lacks it, JOB_COMPLETION_INDEX from the index label
 * (addCompletionIndexEnvVariables).
 */
export function jobPodObject(action: CreateJobPodAction, namespace: string, job: Obj): PodManifest {
  const spec = structuredClone(job.spec?.template?.spec ?? {}) as Obj
  if (action.index !== undefined) {
    for (const list of ['initContainers', 'containers']) {
      if (!Array.isArray(spec[list])) continue
      spec[list] = spec[list].map((c: Obj) => {
        const env: Obj[] = Array.isArray(c.env) ? c.env : []
        if (env.some((e) => e?.name === COMPLETION_INDEX_ENV)) return c
        return {...c, env: [...env, {name: COMPLETION_INDEX_ENV, valueFrom: {fieldRef: {fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX}']`}}}]}
      })
    }
    if (action.hostname !== undefined) spec.hostname = action.hostname
  }
  const ref = action.ownerReference
  const metadata: PodManifest['metadata'] = {
    generateName: action.generateName,
    namespace,
    labels: {...action.labels},
    ownerReferences: [{apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, controller: true, blockOwnerDeletion: true}],
  }
  if (Object.keys(action.annotations).length > 0) metadata.annotations = {...action.annotations}
  if (action.finalizers.length > 0) metadata.finalizers = [...action.finalizers]
  return {apiVersion: 'v1', kind: 'Pod', metadata, spec}
}

/**
 * removeTrackingFinalizerPatch: a strategic-merge patch taking the tracking finalizer off a pod,
 * with the pod's uid and the resourceVersion the plan saw as preconditions (upstream sends none).
 */
export function finalizerPatch(uid: string, resourceVersion: string | undefined): ObjectPatch {
  return {metadata: {uid, ...(resourceVersion === undefined ? {} : {resourceVersion}), '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER]}}
}

/** A JobStatus as the API stores it: the counters, the pointers (ready, terminating, failedIndexes) and uncountedTerminatedPods as planned. */
export function jobStatusObject(view: JobStatusView): Obj {
  const status: Obj = {}
  if (view.conditions.length > 0) status.conditions = view.conditions.map((c) => ({...c}))
  for (const k of ['startTime', 'completionTime', 'completedIndexes', 'failedIndexes'] as const) if (view[k] !== undefined) status[k] = view[k]
  for (const k of ['active', 'succeeded', 'failed'] as const) if (view[k] !== 0) status[k] = view[k]
  if (view.terminating !== undefined) status.terminating = view.terminating
  if (view.ready !== undefined) status.ready = view.ready
  const u = view.uncountedTerminatedPods ?? {succeeded: [], failed: []}
  status.uncountedTerminatedPods = {...(u.succeeded.length > 0 ? {succeeded: [...u.succeeded]} : {}), ...(u.failed.length > 0 ? {failed: [...u.failed]} : {})}
  return status
}
