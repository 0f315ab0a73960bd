// The Deployment controller (kube-controller-manager's `deployment`, pkg/controller/deployment).
// Its plan chains the ReplicaSet controller's next sync of the ReplicaSets it writes, as upstream's
// controllers chain through the API server.
import {planController} from '../replicaset/sync.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {planDeployments} from './planner.js'
import {deploymentWatch} from './watch.js'
import {deploymentChecks} from './rules.js'
import {deploymentSimulation} from './simulate.js'
import {DEPLOYMENT_READS} from './read.js'
import {applyLines, planBlock, showsUnder} from './render.js'

export const deployment: ControllerDescriptor = {
  name: 'deployment',
  kinds: ['Deployment'],
  plan: (snapshot, world) => planDeployments(snapshot.deployments ?? [], snapshot.replicaSets, world, planController),
  watch: deploymentWatch,
  check: deploymentChecks,
  simulation: deploymentSimulation,
  reads: DEPLOYMENT_READS,
  planBlock,
  showsUnder,
  applyLines,
  listRollout: true,
}
