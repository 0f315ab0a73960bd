// A Job's or CronJob's write in a saved plan (`reconcile --plan`); the CronJob controller's part
// uses the same check (its actions and the Job controller's are checked by one table, as before).
import type {Action} from '../../model/plan.js'
import {checkedAction, type Fail, type Fields} from '../../apply/saved-actions.js'

/** What the executor sends for each Job or CronJob write: required; the rest kept as read. */
const BATCH_FIELDS: Record<string, Fields> = {
  createJobPod: {strings: ['generateName'], mappings: ['labels', 'annotations', 'ownerReference'], lists: ['finalizers']},
  deleteJobPod: {strings: ['pod', 'uid', 'resourceVersion', 'reason']},
  removeFinalizer: {strings: ['pod', 'uid', 'resourceVersion', 'counts']},
  createJob: {strings: ['name', 'scheduledTime'], mappings: ['labels', 'annotations', 'ownerReference']},
  deleteJob: {strings: ['name', 'uid']},
  updateStatus: {mappings: ['from', 'to']},
}

/** A Job's or CronJob's write, as `kctl plan -o json` prints it. */
export function batchAction(raw: unknown, at: string, fail: Fail): Action {
  const a = checkedAction(raw, at, fail, BATCH_FIELDS)
  if (a.type === 'deleteJobPod' && typeof a.finalizerRemovedFirst !== 'boolean') throw fail(`${at}.finalizerRemovedFirst`, 'expected true or false')
  if (a.type === 'updateStatus' && a.write !== undefined && a.write !== 1 && a.write !== 2) throw fail(`${at}.write`, 'expected 1 or 2')
  return a
}
