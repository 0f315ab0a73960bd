// The scheduler and kubelet a simulation stands in for: a small, explicit model of what happens to
// pods between the controllers' syncs. Nothing else changes pods; the controllers are the planners.
//   - a pod without a node is bound at once and starts Running, not Ready: a DaemonSet's pod to the
//     node its required node affinity names (the controller picked it), any other pod to one
//     notional node (no controller kctl simulates decides anything by which node a pod is on
//     beyond whether it has one, so a made-up placement would only look like a scheduler's);
//   - it becomes Ready `readyAfter` after it was created (or after the simulation started, for a pod
//     that was already there and not Ready), unless it is failing: then it never does
//     (CrashLoopBackOff);
//   - it counts as available once Ready for its controller's minReadySeconds (the controllers decide
//     that from the Ready condition's time; the model only says when to look again);
//   - a terminating pod is gone `terminateAfter` after its deletion started (default its grace
//     period, capped).
//   - a controller whose pods do more (a Job's run to completion) says so in its simulate part
//     (part.ts `pods`): kubeletAt and kubeletWakeAt hand such a pod to it, with this model.
// Times are nanoseconds since the epoch (bigint), as reconcile/time.ts counts them.
import {formatRfc3339, objectTime, seconds} from '../reconcile/time.js'
import {podWorkloadFields} from '../sources/pods.js'
import {simulatedControllers, simulationOf} from './controllers.js'
import type {PodModel} from './part.js'

type Obj = Record<string, any>

/** The node a pod is bound to when nothing names one (the controllers' rules only ask whether there is one). */
export const SIMULATED_NODE = 'simulated-node'

/** A pod's grace period when it states none (the API server's default). */
export const DEFAULT_GRACE_SECONDS = 30

/** The default time to terminate is the pod's grace period, but no longer than this. */
export const TERMINATE_CAP_SECONDS = 30

/** How long after Ready + minReadySeconds the model looks again (the first instant a pod counts as available). */
export const AVAILABLE_LAG = 1_000_000n

export interface KubeletModel {
  /** When the simulation starts: pods already there and not Ready count their readyAfter from here. */
  start: bigint
  readyAfter: bigint
  /** Absent: each pod's grace period, capped at TERMINATE_CAP_SECONDS. */
  terminateAfter?: bigint
  /** Images, or pod-template-hash or controller-revision-hash values, whose pods never become Ready (a Job's pods exit non-zero instead: controllers/job/simulate.ts). */
  fail: readonly string[]
  /** How long a Job's pod runs once Ready (controllers/job/simulate.ts); absent: 10s. */
  runFor?: bigint
}

/** How long a Job's pod runs once Ready when neither --run-for nor its annotation says. */
export const DEFAULT_RUN_FOR = '10s'

/** This model, as a controller's pod behaviour is handed it. */
const BASE: PodModel = {podAt, podWakeAt, isFailing}

/** The model at `now` for any pod: its controller's, when its controller's pods do more (they run to completion). */
export function kubeletAt(pod: Obj, now: bigint, model: KubeletModel): Obj | null | undefined {
  for (const c of simulatedControllers()) if (c.simulation.pods?.owns(pod)) return c.simulation.pods.at(pod, now, model, BASE)
  return podAt(pod, now, model)
}

/** The next instant after `now` the model changes this pod (its controller's, as kubeletAt). */
export function kubeletWakeAt(pod: Obj, now: bigint, model: KubeletModel, minReadySeconds: number): bigint | undefined {
  for (const c of simulatedControllers()) if (c.simulation.pods?.owns(pod)) return c.simulation.pods.wakeAt(pod, now, model, BASE)
  return podWakeAt(pod, now, model, minReadySeconds)
}

/** What the model makes of one pod at `now`: the changed pod, `null` when it is gone, or undefined (no change). */
export function podAt(pod: Obj, now: bigint, model: KubeletModel): Obj | null | undefined {
  const gone = goneAt(pod, model)
  if (gone !== undefined) return gone <= now ? null : undefined
  let next: Obj | undefined
  if (!pod.spec?.nodeName) {
    next = {...pod, spec: {...pod.spec, nodeName: scheduledNode(pod)}, status: startedStatus(pod, formatRfc3339(now), model)}
  } else if (pod.status?.phase !== 'Running' && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
    next = {...pod, status: startedStatus(pod, formatRfc3339(now), model)}
  }
  const current = next ?? pod
  const readyAt = readyTime(current, model)
  if (readyAt !== undefined && readyAt <= now) next = withReady(current, formatRfc3339(readyAt))
  return next
}

/** The next instant after `now` at which the model, or a controller's availability rule, changes something for this pod. */
export function podWakeAt(pod: Obj, now: bigint, model: KubeletModel, minReadySeconds: number): bigint | undefined {
  const gone = goneAt(pod, model)
  if (gone !== undefined) return gone > now ? gone : undefined
  const readyAt = readyTime(pod, model)
  if (readyAt !== undefined) return readyAt > now ? readyAt : undefined
  const since = readySince(pod)
  if (since === undefined || minReadySeconds <= 0) return undefined
  // IsPodAvailable wants Ready since strictly before now − minReadySeconds: look 1 ms after that.
  const available = since + seconds(minReadySeconds) + AVAILABLE_LAG
  return available > now ? available : undefined
}

/** Where the scheduler model binds a pod: the node a DaemonSet pod's affinity names, else the notional node. */
export function scheduledNode(pod: Obj): string {
  return podWorkloadFields(pod.spec ?? {}).affinityNode || SIMULATED_NODE
}

/**
 * Whether a pod is failing by the --fail list: an image of one of its containers, its
 * pod-template-hash (a Deployment's revision), or its controller-revision-hash (a StatefulSet's
 * revision name, a DaemonSet's revision hash or name).
 */
export function isFailing(pod: Obj, fail: readonly string[]): boolean {
  if (fail.length === 0) return false
  const labels = pod.metadata?.labels ?? {}
  for (const key of ['pod-template-hash', 'controller-revision-hash']) if (labels[key] !== undefined && fail.includes(labels[key])) return true
  // A controller may name its revisions otherwise than its pods' label (a DaemonSet's is <set>-<hash>; its pods carry only the hash).
  const owner = (pod.metadata?.ownerReferences as Obj[] | undefined)?.find((r) => r.controller === true && simulationOf(String(r.kind))?.podRevisionName !== undefined)
  const named = owner && simulationOf(String(owner.kind))?.podRevisionName
  if (owner && named && labels['controller-revision-hash'] !== undefined && fail.includes(named({name: String(owner.name)}, labels['controller-revision-hash']))) return true
  const containers: Obj[] = Array.isArray(pod.spec?.containers) ? pod.spec.containers : []
  return containers.some((c) => fail.includes(String(c.image)))
}

/** When a terminating pod is gone; undefined for a pod not being deleted. */
function goneAt(pod: Obj, model: KubeletModel): bigint | undefined {
  const deletion = objectTime(pod.metadata?.deletionTimestamp)
  if (deletion === undefined) return undefined
  const grace = typeof pod.metadata?.deletionGracePeriodSeconds === 'number' ? pod.metadata.deletionGracePeriodSeconds : graceOf(pod)
  const started = deletion - seconds(grace)
  return started + (model.terminateAfter ?? seconds(Math.min(grace, TERMINATE_CAP_SECONDS)))
}

function graceOf(pod: Obj): number {
  const g = pod.spec?.terminationGracePeriodSeconds
  return typeof g === 'number' && g >= 0 ? g : DEFAULT_GRACE_SECONDS
}

/** When a Running pod that is not Ready becomes Ready; undefined when it is Ready, failing or not Running. */
function readyTime(pod: Obj, model: KubeletModel): bigint | undefined {
  if (pod.status?.phase !== 'Running' || readySince(pod) !== undefined || isReady(pod)) return undefined
  if (isFailing(pod, model.fail)) return undefined
  const created = objectTime(pod.metadata?.creationTimestamp) ?? model.start
  return (created > model.start ? created : model.start) + model.readyAfter
}

function isReady(pod: Obj): boolean {
  const conditions: Obj[] = Array.isArray(pod.status?.conditions) ? pod.status.conditions : []
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True')
}

function readySince(pod: Obj): bigint | undefined {
  const conditions: Obj[] = Array.isArray(pod.status?.conditions) ? pod.status.conditions : []
  const ready = conditions.find((c) => c.type === 'Ready' && c.status === 'True')
  return ready ? (objectTime(ready.lastTransitionTime) ?? objectTime(pod.metadata?.creationTimestamp)) : undefined
}

/** Running, containers started and not ready; a failing pod's containers wait in CrashLoopBackOff. */
function startedStatus(pod: Obj, now: string, model: KubeletModel): Obj {
  const failing = isFailing(pod, model.fail)
  const containers: Obj[] = Array.isArray(pod.spec?.containers) ? pod.spec.containers : []
  return {
    phase: 'Running',
    startTime: now,
    conditions: [
      {type: 'PodScheduled', status: 'True', lastTransitionTime: now},
      {type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: now},
    ],
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      ready: false,
      restartCount: 0,
      state: failing ? {waiting: {reason: 'CrashLoopBackOff'}} : {running: {startedAt: now}},
    })),
  }
}

function withReady(pod: Obj, at: string): Obj {
  const conditions: Obj[] = (Array.isArray(pod.status?.conditions) ? pod.status.conditions : []).filter((c: Obj) => c.type !== 'Ready')
  const containerStatuses = Array.isArray(pod.status?.containerStatuses) ? pod.status.containerStatuses.map((c: Obj) => ({...c, ready: true})) : undefined
  return {...pod, status: {...pod.status, conditions: [...conditions, {type: 'Ready', status: 'True', lastTransitionTime: at}], ...(containerStatuses ? {containerStatuses} : {})}}
}
