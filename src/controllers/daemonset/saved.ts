// A DaemonSet's write in a saved plan (`reconcile --plan`): what the executor sends is required;
// the rest kept as read.
import type {Action} from '../../model/plan.js'
import {type Fail, type Fields, REVISIONED_FIELDS, revisionedAction} from '../../apply/saved-actions.js'

const DAEMONSET_FIELDS: Record<string, Fields> = {
  ...REVISIONED_FIELDS,
  createDaemonPod: {strings: ['node', 'generateName'], mappings: ['labels', 'ownerReference'], lists: ['tolerations']},
  deleteDaemonPod: {strings: ['pod', 'uid', 'resourceVersion']},
  chooseDaemonPods: {strings: ['operation'], numbers: ['count'], lists: ['candidates']},
}

export function daemonSetAction(raw: unknown, at: string, fail: Fail): Action {
  const a = revisionedAction(raw, at, fail, DAEMONSET_FIELDS)
  if (a.type === 'chooseDaemonPods') {
    const choices = Array.isArray(a.choices) ? a.choices : []
    if (choices.length < (a.count as number)) throw fail(`${at}.choices`, 'expected the candidates\' writes (a plan saved by this version of kctl)')
    return {...a, choices: choices.map((c: unknown, j: number) => daemonSetAction(c, `${at}.choices[${j}]`, fail))} as Action
  }
  return {...a} as Action
}
