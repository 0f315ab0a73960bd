// Status helpers more than one controller (or the executor) uses: IsPodAvailable
// (pkg/api/v1/pod/util.go) and the ReplicaFailure condition of a failed manageReplicas
// (pkg/controller/replicaset/replica_set_utils.go). The ReplicaSet status calculation itself is in
// src/controllers/replicaset/status.ts.
import type {PodView, WorkloadCondition} from '../model/objects.js'
import {objectTime, seconds} from './time.js'

/** IsPodAvailable: Ready, and either minReadySeconds is 0 or Ready since strictly before now − minReadySeconds. */
export function isPodAvailable(pod: PodView, minReadySeconds: number, now: bigint): boolean {
  if (!pod.ready) return false
  if (minReadySeconds === 0) return true
  const since = objectTime(pod.readySince)
  return since !== undefined && since + seconds(minReadySeconds) < now
}

/**
 * The conditions after a failed manageReplicas: a ReplicaFailure (FailedCreate when pods were
 * missing, FailedDelete when there were too many) added at `at` (whole seconds) when none exists;
 * an existing one is kept as it is. The plan's status and the executor's status write both use it.
 */
export function withReplicaFailure(current: readonly WorkloadCondition[], diff: number, message: string, at: string): WorkloadCondition[] {
  if (current.some((c) => c.type === 'ReplicaFailure')) return current.map((c) => ({...c}))
  const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : ''
  return [...current.map((c) => ({...c})), {type: 'ReplicaFailure', status: 'True', lastTransitionTime: at, reason, message}]
}
