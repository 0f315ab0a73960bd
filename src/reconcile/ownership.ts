// Claiming pods: adoption and release (pkg/controller/controller_ref_manager.go,
// BaseControllerRefManager.ClaimObject and PodControllerRefManager.ClaimPods).
import type {ObjectMeta, PodView} from '../model/objects.js'
import {controllerOf} from './pods.js'
import {type CompiledSelector, selectorMatches} from './selector.js'

export interface ClaimResult<T = PodView> {
  /** Pods this controller counts, in input order (adopted ones included). */
  claimed: T[]
  adopted: T[]
  released: T[]
}

/** What claiming reads of the owner. */
export type Claimant = Pick<ObjectMeta, 'uid' | 'namespace' | 'deletionTimestamp'>

/**
 * ClaimObject for each pod, in order:
 *   1. controlled by another owner → ignored;
 *   2. controlled by us and matching → claimed (even while we or it are being deleted);
 *   3. controlled by us, not matching → released, unless we are being deleted (then left alone);
 *   4. orphan → adopted if we are not being deleted, it matches, it is not being deleted and it is
 *      in our namespace. Non-controller ownerReferences do not make a pod owned.
 * Adoption and release patches are assumed to succeed (CanAdopt's fresh GET included).
 */
export function claimPods<T extends Pick<ObjectMeta, 'labels' | 'ownerReferences' | 'deletionTimestamp' | 'namespace'> = PodView>(
  controller: Claimant,
  selector: CompiledSelector,
  pods: readonly T[],
  /** Further conditions of a match (the StatefulSet's: the name belongs to it). */
  filter?: (object: T) => boolean,
): ClaimResult<T> {
  const result: ClaimResult<T> = {claimed: [], adopted: [], released: []}
  const deleting = controller.deletionTimestamp !== undefined
  for (const pod of pods) {
    const matches = selectorMatches(selector, pod.labels) && (filter === undefined || filter(pod))
    const ref = controllerOf(pod)
    if (ref) {
      if (ref.uid !== controller.uid) continue
      if (matches) result.claimed.push(pod)
      else if (!deleting) result.released.push(pod)
      continue
    }
    if (deleting || !matches || pod.deletionTimestamp !== undefined || pod.namespace !== controller.namespace) continue
    result.adopted.push(pod)
    result.claimed.push(pod)
  }
  return result
}
