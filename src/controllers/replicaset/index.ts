// The ReplicaSet controller (kube-controller-manager's `replicaset`), which also runs
// ReplicationControllers in the ReplicaSet shape (pkg/controller/replication).
import {byKindNamespaceName} from '../../reconcile/order.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {replicaSetWatch} from './watch.js'
import {replicaSetChecks} from './rules.js'
import {replicaSetSimulation} from './simulate.js'
import {REPLICASET_READS} from './read.js'
import {contestedAdoptions, planController} from './sync.js'
import {planBlock, SHORT_NAMES} from './render.js'

export const replicaset: ControllerDescriptor = {
  name: 'replicaset',
  kinds: ['ReplicaSet', 'ReplicationController'],
  plan(snapshot, world) {
    const plans = [...snapshot.workloads].sort(byKindNamespaceName).map((w) => planController(w, world))
    for (const [plan, warnings] of contestedAdoptions(plans)) plan.warnings.push(...warnings)
    return plans
  },
  watch: replicaSetWatch,
  check: replicaSetChecks,
  simulation: replicaSetSimulation,
  reads: REPLICASET_READS,
  planBlock,
  shortNames: SHORT_NAMES,
}
