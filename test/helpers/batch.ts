// Jobs, CronJobs and their pods for the batch planners' unit tests, written as the API holds them
// and read through the same normalizer as files, so the API server's defaults apply.
import {DEFAULT_FEATURE_GATES, type ControllerPlan, type ReconcilePlan} from '../../src/model/plan.js'
import {planSnapshot} from '../../src/reconcile/planner.js'
import {readParsedJsonList} from '../../src/sources/documents.js'
import {SourceFile} from '../../src/sources/files.js'
import {normalize} from '../../src/sources/normalize.js'

export const BATCH_NOW = '2026-11-23T12:00:00Z'
export type Obj = Record<string, any>

/** now − s seconds, as RFC 3339. */
export const before = (s: number, from = BATCH_NOW) => new Date(Date.parse(from) - s * 1000).toISOString().replace('.000Z', 'Z')

export function job(name: string, spec: Obj = {}, status: Obj = {}, meta: Obj = {}): Obj {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '1', creationTimestamp: before(3600), ...meta},
    spec: {template: {metadata: {labels: {app: name}}, spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'busybox'}]}}, ...spec},
    status: {active: 0, ready: 0, terminating: 0, ...status},
  }
}

export interface PodState {
  phase?: string
  ready?: boolean
  /** Exit code of container `main` and how long ago it finished. */
  exit?: number
  finishedAgo?: number
  index?: number
  failureCount?: number
  finalizer?: boolean
  node?: string
  created?: string
  readySince?: string
  deleting?: {at: string; grace: number}
  conditions?: Obj[]
  restarts?: number
}

export function jobPod(jobName: string, name: string, s: PodState = {}): Obj {
  const annotations: Obj = {}
  // The labels the Job's template carries (the API server's generated ones included), so its selector matches.
  const labels: Obj = {app: jobName, 'batch.kubernetes.io/controller-uid': `uid-${jobName}`, 'batch.kubernetes.io/job-name': jobName, 'controller-uid': `uid-${jobName}`, 'job-name': jobName}
  if (s.index !== undefined) {
    annotations['batch.kubernetes.io/job-completion-index'] = String(s.index)
    labels['batch.kubernetes.io/job-completion-index'] = String(s.index)
  }
  if (s.failureCount !== undefined) annotations['batch.kubernetes.io/job-index-failure-count'] = String(s.failureCount)
  const phase = s.phase ?? 'Running'
  const conditions: Obj[] = [...(s.conditions ?? [])]
  if (s.ready) conditions.push({type: 'Ready', status: 'True', lastTransitionTime: s.readySince ?? before(600)})
  const state =
    s.exit !== undefined ? {terminated: {exitCode: s.exit, finishedAt: before(s.finishedAgo ?? 0)}} : phase === 'Running' ? {running: {startedAt: before(600)}} : {waiting: {}}
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      resourceVersion: '1',
      creationTimestamp: s.created ?? before(900),
      labels,
      annotations,
      ...(s.finalizer === false ? {} : {finalizers: ['batch.kubernetes.io/job-tracking']}),
      ...(s.deleting ? {deletionTimestamp: s.deleting.at, deletionGracePeriodSeconds: s.deleting.grace} : {}),
      ownerReferences: [{apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: `uid-${jobName}`, controller: true, blockOwnerDeletion: true}],
    },
    spec: {nodeName: s.node ?? 'node1', restartPolicy: 'Never', containers: [{name: 'main', image: 'busybox'}]},
    status: {phase, conditions, containerStatuses: [{name: 'main', restartCount: s.restarts ?? 0, state}]},
  }
}

export function cronJob(name: string, spec: Obj = {}, status: Obj = {}, meta: Obj = {}): Obj {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '1', creationTimestamp: before(86400), ...meta},
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: {spec: {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'busybox'}]}}}},
      ...spec,
    },
    status,
  }
}

/** A CronJob's child Job: owned by it, finished or not. */
export function childJob(cj: string, name: string, o: {started?: string; complete?: string; failed?: boolean} = {}): Obj {
  const conditions: Obj[] = []
  if (o.complete) conditions.push({type: 'SuccessCriteriaMet', status: 'True'}, {type: 'Complete', status: 'True'})
  if (o.failed) conditions.push({type: 'FailureTarget', status: 'True'}, {type: 'Failed', status: 'True'})
  return job(name, {}, {...(o.started ? {startTime: o.started} : {}), ...(o.complete ? {completionTime: o.complete} : {}), conditions}, {
    ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: cj, uid: `uid-${cj}`, controller: true}],
  })
}

export function planObjects(objects: Obj[], now = BATCH_NOW): ReconcilePlan {
  const file = new SourceFile('test.json', undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects})))
  const snapshot = normalize(readParsedJsonList(file, objects), {paths: ['test.json'], serverDefaulted: false})
  return planSnapshot(snapshot, {now, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500})
}

/** The plan of the one Job or CronJob called `name`. */
export function planOne(objects: Obj[], name: string, now = BATCH_NOW): ControllerPlan {
  const cp = planObjects(objects, now).controllers.find((c) => c.name === name)
  if (!cp) throw new Error(`no plan for ${name}`)
  return cp
}

/** The actions in a compact form: `+pod:<generateName>`, `-pod:<name>`, `~fin:<name>`, `W1`, `W2`, `+job:<name>`, `-job:<name>`. */
export function steps(cp: ControllerPlan): string[] {
  return cp.actions.map((a) => {
    switch (a.type) {
      case 'createJobPod':
        return `+pod:${a.generateName}`
      case 'deleteJobPod':
        return `-pod:${a.pod}`
      case 'removeFinalizer':
        return `~fin:${a.pod}`
      case 'updateStatus':
        return 'write' in a ? `W${a.write}` : 'W'
      case 'createJob':
        return `+job:${a.name}`
      case 'deleteJob':
        return `-job:${a.name}`
      default:
        return a.type
    }
  })
}

/** The status a status write (`n`: 1 or 2) sends. */
export function written(cp: ControllerPlan, n: 1 | 2): Obj {
  const w = cp.actions.find((a) => a.type === 'updateStatus' && 'write' in a && a.write === n)
  if (!w || w.type !== 'updateStatus') throw new Error(`no write ${n}`)
  return w.to as Obj
}
