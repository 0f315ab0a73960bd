// The Deployment controller (kube-controller-manager's `deployment`, pkg/controller/deployment).
// Its plan chains the ReplicaSet controller's next sync of the ReplicaSets it writes, as upstream's
// controllers chain through the API server.
import {planController} from '../../reconcile/planner.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {planDeployments} from './planner.js'
import {applyLines, planBlock, showsUnder} from './render.js'

export const deployment: ControllerDescriptor = {
  name: 'deployment',
  kinds: ['Deployment'],
  plan: (snapshot, world) => planDeployments(snapshot.deployments ?? [], snapshot.replicaSets, world, planController),
  planBlock,
  showsUnder,
  applyLines,
  listRollout: true,
}
