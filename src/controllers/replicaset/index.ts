// The ReplicaSet controller (kube-controller-manager's `replicaset`), which also runs
// ReplicationControllers in the ReplicaSet shape (pkg/controller/replication).
import type {UpdateStatusAction} from '../../model/plan.js'
import {byKindNamespaceName} from '../../reconcile/order.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {replicaSetPodDeletes, ReplicaSetSync} from './apply.js'
import {statusObject} from './objects.js'
import {REPLICASET_READS} from './read.js'
import {planBlock, SHORT_NAMES} from './render.js'
import {replicaSetChecks} from './rules.js'
import {replicaSetAction} from './saved.js'
import {replicaSetSimulation} from './simulate.js'
import {contestedAdoptions, planController} from './sync.js'
import {replicaSetWatch} from './watch.js'

export const replicaset: ControllerDescriptor = {
  name: 'replicaset',
  kinds: ['ReplicaSet', 'ReplicationController'],
  read: {
    kinds: REPLICASET_READS,
  },
  plan(snapshot, world) {
    const plans = [...snapshot.workloads].sort(byKindNamespaceName).map((w) => planController(w, world))
    for (const [plan, warnings] of contestedAdoptions(plans)) plan.warnings.push(...warnings)
    return plans
  },
  render: {
    planBlock,
    shortNames: SHORT_NAMES,
  },
  apply: {
    resources: {ReplicaSet: {apiPath: '/apis/apps/v1', resource: 'replicasets.apps'}, ReplicationController: {apiPath: '/api/v1', resource: 'replicationcontrollers'}},
    // A Deployment's sync of this round wrote the ReplicaSet of this name: its plan is not carried out.
    sync: (run, cp, _opts, overtaken) => new ReplicaSetSync(run, cp, overtaken('ReplicaSet', cp.namespace, cp.name)),
    parseAction: replicaSetAction,
    guard: {podDeletes: replicaSetPodDeletes},
    settledStatus: {object: (write, raw) => ({...raw, status: statusObject((write as UpdateStatusAction).to)})},
  },
  watch: replicaSetWatch,
  simulate: replicaSetSimulation,
  check: replicaSetChecks,
}
