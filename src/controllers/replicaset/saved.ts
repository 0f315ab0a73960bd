// A ReplicaSet's or ReplicationController's write in a saved plan (`reconcile --plan`): what the executor sends is required.
import type {Action} from '../../model/plan.js'
import {type Fail, isObj} from '../../apply/saved-actions.js'

export function replicaSetAction(a: unknown, at: string, fail: Fail): Action {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const need = (fields: string[], type: string) => {
    for (const f of fields) if (typeof a[f] !== type) throw fail(`${at}.${f}`, `expected a ${type}`)
  }
  switch (a.type) {
    case 'create':
      need(['generateName'], 'string')
      if (!isObj(a.labels)) throw fail(`${at}.labels`, 'expected a mapping')
      if (!isObj(a.ownerReference) || typeof a.ownerReference.uid !== 'string') throw fail(`${at}.ownerReference`, 'expected the controller reference')
      return {
        ...a,
        nameBase: typeof a.nameBase === 'string' ? a.nameBase : a.generateName.slice(0, 58),
        annotations: isObj(a.annotations) ? a.annotations : {},
        finalizers: Array.isArray(a.finalizers) ? a.finalizers : [],
      } as Action
    case 'delete': {
      need(['pod', 'uid', 'resourceVersion'], 'string')
      if (!isObj(a.facts)) throw fail(`${at}.facts`, 'expected a mapping')
      const {reasons: _worded, ...rest} = a
      return {decidedBy: 'all', ...rest} as Action
    }
    case 'adopt':
    case 'release':
      need(['pod', 'uid', 'resourceVersion'], 'string')
      return {...a} as Action
    case 'updateStatus':
      if (!isObj(a.from) || !isObj(a.to)) throw fail(at, 'expected from and to')
      return {...a} as Action
    default:
      throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  }
}
