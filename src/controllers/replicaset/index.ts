// The ReplicaSet controller (kube-controller-manager's `replicaset`), which also runs
// ReplicationControllers in the ReplicaSet shape (pkg/controller/replication).
import {byKindNamespaceName, contestedAdoptions, planController} from '../../reconcile/planner.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {replicaSetPodDeletes, ReplicaSetSync} from './apply.js'
import {statusObject} from './objects.js'
import {replicaSetAction} from './saved.js'
import type {UpdateStatusAction} from '../../model/plan.js'

export const replicaset: ControllerDescriptor = {
  name: 'replicaset',
  kinds: ['ReplicaSet', 'ReplicationController'],
  plan(snapshot, world) {
    const plans = [...snapshot.workloads].sort(byKindNamespaceName).map((w) => planController(w, world))
    for (const [plan, warnings] of contestedAdoptions(plans)) plan.warnings.push(...warnings)
    return plans
  },
  apply: {
    resources: {ReplicaSet: {apiPath: '/apis/apps/v1', resource: 'replicasets.apps'}, ReplicationController: {apiPath: '/api/v1', resource: 'replicationcontrollers'}},
    // A Deployment's sync of this round wrote the ReplicaSet of this name: its plan is not carried out.
    sync: (run, cp, _opts, overtaken) => new ReplicaSetSync(run, cp, overtaken('ReplicaSet', cp.namespace, cp.name)),
    parseAction: replicaSetAction,
    guard: {podDeletes: replicaSetPodDeletes},
    settledStatus: {object: (write, raw) => ({...raw, status: statusObject((write as UpdateStatusAction).to)})},
  },
}
