// The ReplicaSet controller (kube-controller-manager's `replicaset`), which also runs
// ReplicationControllers in the ReplicaSet shape (pkg/controller/replication).
import {byKindNamespaceName, contestedAdoptions, planController} from '../../reconcile/planner.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {planBlock, SHORT_NAMES} from './render.js'

export const replicaset: ControllerDescriptor = {
  name: 'replicaset',
  kinds: ['ReplicaSet', 'ReplicationController'],
  plan(snapshot, world) {
    const plans = [...snapshot.workloads].sort(byKindNamespaceName).map((w) => planController(w, world))
    for (const [plan, warnings] of contestedAdoptions(plans)) plan.warnings.push(...warnings)
    return plans
  },
  planBlock,
  shortNames: SHORT_NAMES,
}
