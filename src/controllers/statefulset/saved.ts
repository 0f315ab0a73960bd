// A StatefulSet's write in a saved plan (`reconcile --plan`): what the executor sends is required;
// the rest kept as read.
import type {Action} from '../../model/plan.js'
import {type Fail, type Fields, REVISIONED_FIELDS, revisionedAction} from '../../apply/saved-actions.js'

const STATEFULSET_FIELDS: Record<string, Fields> = {
  ...REVISIONED_FIELDS,
  createStatefulPod: {strings: ['pod', 'template', 'hostname', 'subdomain'], numbers: ['ordinal'], mappings: ['labels', 'claims', 'ownerReference']},
  deleteStatefulPod: {strings: ['pod', 'uid', 'resourceVersion']},
  updatePod: {strings: ['pod', 'uid', 'resourceVersion'], lists: ['fixes']},
  createClaim: {strings: ['claim', 'template', 'pod'], mappings: ['labels', 'annotations']},
  updateClaim: {strings: ['claim', 'uid', 'resourceVersion'], lists: ['to']},
}

export function statefulSetAction(raw: unknown, at: string, fail: Fail): Action {
  return {...revisionedAction(raw, at, fail, STATEFULSET_FIELDS)} as Action
}
