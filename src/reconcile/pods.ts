// Pod predicates the controllers share (pkg/controller/controller_utils.go, pkg/api/v1/pod/util.go).
import type {OwnerReference, PodView} from '../model/objects.js'

/** IsPodActive: not Succeeded, not Failed, and not being deleted. An empty phase is active. */
export function isPodActive(pod: PodView): boolean {
  return pod.phase !== 'Succeeded' && pod.phase !== 'Failed' && pod.deletionTimestamp === undefined
}

/** IsPodTerminating: being deleted but not yet terminal (feeds status.terminatingReplicas). */
export function isPodTerminating(pod: PodView): boolean {
  return pod.phase !== 'Succeeded' && pod.phase !== 'Failed' && pod.deletionTimestamp !== undefined
}

/** metav1.GetControllerOf: the one ownerReference with controller: true. */
export function controllerOf(object: {ownerReferences: readonly OwnerReference[]}): OwnerReference | undefined {
  const refs = object.ownerReferences
  for (let i = 0; i < refs.length; i++) if (refs[i].controller === true) return refs[i]
  return undefined
}

/** What kube-controller-manager finds a controller's pods by. */
export interface ControllerIdentity {
  namespace: string
  kind: string
  name: string
  uid: string
}

/**
 * PodControllerIndexKey / FilterPodsByOwner (controller_utils.go): a controller's pods are those
 * whose controller reference names it by kind, name and uid, in its namespace. A reference with
 * its uid under another kind or name (a ReplicaSet's old name, an RC's kind) is in no list the
 * controller reads: not counted, released or deleted, never adopted (it has a controller).
 */
export function isControlledBy(pod: PodView, controller: ControllerIdentity): boolean {
  const ref = controllerOf(pod)
  return ref !== undefined && ref.uid === controller.uid && ref.kind === controller.kind && ref.name === controller.name && pod.namespace === controller.namespace
}

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost'

/**
 * GetDeletionCostFromPodAnnotations (pkg/apis/core/helper/helpers.go): a base-10 int32; a missing
 * or invalid value (empty, leading "+", leading zeros other than "0", out of range) counts as 0.
 */
export function deletionCost(annotations: Readonly<Record<string, string>>): {cost: number; invalid?: string} {
  const value = annotations[POD_DELETION_COST]
  if (value === undefined) return {cost: 0}
  const validFirst = value.length > 0 && (value[0] === '-' || value === '0' || (value[0] >= '1' && value[0] <= '9'))
  // strconv.ParseInt(value, 10, 32): optional sign, then decimal digits only.
  if (!validFirst || !/^-?\d+$/.test(value)) return {cost: 0, invalid: value}
  const n = Number(value)
  if (n < -2147483648 || n > 2147483647) return {cost: 0, invalid: value}
  return {cost: n === 0 ? 0 : n} // -0 → 0
}

/** podPhaseToOrdinal (controller_utils.go): Pending 0 < Unknown 1 < Running 2; anything else 0. */
export function phaseOrdinal(phase: string): number {
  return phase === 'Unknown' ? 1 : phase === 'Running' ? 2 : 0
}

/** maxContainerRestarts: the highest restart count of regular containers, then of sidecars. */
export function maxRestarts(pod: PodView): {regular: number; sidecar: number} {
  let regular = 0
  for (const c of pod.containerStatuses) regular = Math.max(regular, c.restartCount)
  let sidecar = 0
  for (const c of pod.sidecarStatuses) sidecar = Math.max(sidecar, c.restartCount)
  return {regular, sidecar}
}
