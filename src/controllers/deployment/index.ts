// The Deployment controller (kube-controller-manager's `deployment`, pkg/controller/deployment).
// Its plan chains the ReplicaSet controller's next sync of the ReplicaSets it writes, as upstream's
// controllers chain through the API server.
import type {UpdateDeploymentStatusAction} from '../../model/plan.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {planController} from '../replicaset/sync.js'
import {DeploymentSync} from './apply.js'
import {deploymentScaleToZero, keptByRollout} from './guards.js'
import {deploymentWithStatus} from './objects.js'
import {planDeployments} from './planner.js'
import {DEPLOYMENT_READS} from './read.js'
import {applyLines, planBlock, showsUnder} from './render.js'
import {deploymentChecks} from './rules.js'
import {deploymentAction} from './saved.js'
import {deploymentSimulation} from './simulate.js'
import {deploymentWatch} from './watch.js'

export const deployment: ControllerDescriptor = {
  name: 'deployment',
  kinds: ['Deployment'],
  read: {
    kinds: DEPLOYMENT_READS,
  },
  plan: (snapshot, world) => planDeployments(snapshot.deployments ?? [], snapshot.replicaSets, world, planController),
  render: {
    planBlock,
    showsUnder,
    applyLines,
    listRollout: true,
  },
  apply: {
    resources: {Deployment: {apiPath: '/apis/apps/v1', resource: 'deployments.apps'}},
    phase: 0,
    // The ReplicaSets its writes changed: their controller acts on the new version in the next round.
    overtakes: (results) => results.filter((r) => r.replicaSet !== undefined && r.outcome === 'ok' && !r.done?.alreadyExists && !r.done?.alreadyGone).map((r) => `ReplicaSet/${r.controller.namespace}/${r.replicaSet}`),
    sync: (run, cp) => new DeploymentSync(run, cp),
    parseAction: deploymentAction,
    guard: {scales: 'ReplicaSet', scaleToZero: deploymentScaleToZero, keptByRollout},
    owned: (cp) => (cp.replicaSets ?? []).map((rs) => `ReplicaSet/${cp.namespace}/${rs.name}`),
    statusWritesAnnotations: true,
    settledStatus: {
      last: true,
      object: (write, raw) => {
        const {to, revision} = write as UpdateDeploymentStatusAction
        return deploymentWithStatus(raw, to, revision)
      },
    },
  },
  watch: deploymentWatch,
  simulate: deploymentSimulation,
  check: deploymentChecks,
}
