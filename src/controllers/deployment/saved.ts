// A Deployment's write in a saved plan (`reconcile --plan`).
import type {Action} from '../../model/plan.js'
import {type Fail, isObj} from '../../apply/saved-actions.js'

/** A Deployment's write, as `kctl plan -o json` prints it: what the executor sends is required. */
export function deploymentAction(a: unknown, at: string, fail: Fail): Action {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const need = (fields: string[], type: string) => {
    for (const f of fields) if (typeof a[f] !== type) throw fail(`${at}.${f}`, `expected a ${type}`)
  }
  const mapping = (f: string) => {
    if (!isObj(a[f])) throw fail(`${at}.${f}`, 'expected a mapping')
  }
  if (a.conflict !== undefined && a.conflict !== true) throw fail(`${at}.conflict`, 'expected true or nothing')
  if (a.unchanged !== undefined && a.unchanged !== true) throw fail(`${at}.unchanged`, 'expected true or nothing')
  switch (a.type) {
    case 'adoptReplicaSet':
    case 'releaseReplicaSet':
    case 'deleteReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      break
    case 'scaleReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      need(['from', 'to'], 'number')
      mapping('annotations')
      break
    case 'updateReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      need(['minReadySeconds'], 'number')
      mapping('annotations')
      break
    case 'createReplicaSet':
      if (a.name !== null) need(['name'], 'string')
      need(['replicas', 'minReadySeconds'], 'number')
      need(['outcome'], 'string')
      for (const f of ['labels', 'selector', 'annotations', 'ownerReference']) mapping(f)
      break
    case 'updateStatus':
      if (!isObj(a.from) || !isObj(a.to) || !Array.isArray(a.to.conditions)) throw fail(at, 'expected from and to (a DeploymentStatus)')
      if (a.revision !== undefined && (!isObj(a.revision) || typeof a.revision.to !== 'string')) throw fail(`${at}.revision`, 'expected {to: string}')
      break
    case 'rollback':
      need(['toRevision', 'outcome'], 'string')
      break
    default:
      throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  }
  return {...a} as Action
}
