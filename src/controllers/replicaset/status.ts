// The status a ReplicaSet sync writes: calculateStatus and updateReplicaSetStatus
// (pkg/controller/replicaset/replica_set_utils.go).
import type {PodView, Workload, WorkloadCondition} from '../../model/objects.js'
import type {StatusView} from '../../model/plan.js'
import {controllerOf, isPodTerminating} from '../../reconcile/pods.js'
import {type CompiledSelector, compileMapSelector, selectorMatches} from '../../reconcile/selector.js'
import {isPodAvailable, withReplicaFailure} from '../../reconcile/status.js'
import {formatRfc3339, objectTime, wholeSeconds} from '../../reconcile/time.js'

export interface StatusInputs {
  workload: Workload
  /** The claimed active pods before this sync's creates and deletes. */
  activePods: readonly PodView[]
  /** Every pod of the namespace that could count as terminating for this controller. */
  namespacePods: readonly PodView[]
  selector: CompiledSelector
  /** The error manageReplicas returns, if any (e.g. a create refused client-side). */
  manageError?: string
  now: bigint
  terminatingReplicasGate: boolean
}

/** calculateStatus: counts from the pre-action pod list, plus the ReplicaFailure condition. */
export function calculateStatus(input: StatusInputs): StatusView {
  const {workload, activePods, now} = input
  const templateSelector = compileMapSelector(workload.template.labels)
  let fullyLabeled = 0
  let ready = 0
  let available = 0
  for (const pod of activePods) {
    if (selectorMatches(templateSelector, pod.labels)) fullyLabeled++
    if (pod.ready) {
      ready++
      if (isPodAvailable(pod, workload.minReadySeconds, now)) available++
    }
  }
  const status: StatusView = {
    replicas: activePods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: workload.status.observedGeneration,
    conditions: nextConditions(input),
  }
  // status.terminatingReplicas: ReplicaSet only, behind DeploymentReplicaSetTerminatingReplicas.
  if (input.terminatingReplicasGate && workload.kind === 'ReplicaSet') {
    status.terminatingReplicas = input.namespacePods.filter(
      (pod) => isPodTerminating(pod) && controllerOf(pod)?.uid === workload.uid && selectorMatches(input.selector, pod.labels),
    ).length
  }
  return status
}

/**
 * ReplicaFailure: added (reason by the sign of the diff) when manageReplicas failed and none exists;
 * an existing one is kept as is on later failures; removed after a sync without error.
 */
function nextConditions(input: StatusInputs): WorkloadCondition[] {
  const current = input.workload.status.conditions
  if (input.manageError !== undefined) {
    return withReplicaFailure(current, input.activePods.length - input.workload.replicas, input.manageError, formatRfc3339(wholeSeconds(input.now)))
  }
  return current.filter((c) => c.type !== 'ReplicaFailure')
}

/**
 * updateReplicaSetStatus: the write is skipped when every count, terminatingReplicas (nil vs set
 * included), the conditions and observedGeneration == generation are unchanged; otherwise the new
 * status is written with observedGeneration = generation.
 */
export function statusToWrite(workload: Workload, next: StatusView): StatusView | undefined {
  const cur = workload.status
  const unchanged =
    cur.replicas === next.replicas &&
    cur.fullyLabeledReplicas === next.fullyLabeledReplicas &&
    cur.readyReplicas === next.readyReplicas &&
    cur.availableReplicas === next.availableReplicas &&
    cur.terminatingReplicas === next.terminatingReplicas &&
    workload.generation === cur.observedGeneration &&
    conditionsEqual(cur.conditions, next.conditions ?? [])
  if (unchanged) return undefined
  return {...next, observedGeneration: workload.generation}
}

export function currentStatus(workload: Workload): StatusView {
  const s = workload.status
  const view: StatusView = {
    replicas: s.replicas,
    fullyLabeledReplicas: s.fullyLabeledReplicas,
    readyReplicas: s.readyReplicas,
    availableReplicas: s.availableReplicas,
    observedGeneration: s.observedGeneration,
    conditions: [...s.conditions],
  }
  if (s.terminatingReplicas !== undefined) view.terminatingReplicas = s.terminatingReplicas
  return view
}

function conditionsEqual(a: readonly WorkloadCondition[], b: readonly WorkloadCondition[]): boolean {
  if (a.length !== b.length) return false
  return a.every((c, i) => {
    const d = b[i]
    return c.type === d.type && c.status === d.status && (c.reason ?? '') === (d.reason ?? '') &&
      (c.message ?? '') === (d.message ?? '') && objectTime(c.lastTransitionTime) === objectTime(d.lastTransitionTime)
  })
}
