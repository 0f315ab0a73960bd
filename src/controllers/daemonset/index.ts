// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import type {ControllerDescriptor} from '../descriptor.js'
import {planDaemonSets} from './planner.js'
import {daemonSetWatch} from './watch.js'
import {daemonSetChecks} from './rules.js'
import {daemonSetSimulation} from './simulate.js'
import {DAEMONSET_READS} from './read.js'
import {applyLines, planBlock} from './render.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  plan: planDaemonSets,
  watch: daemonSetWatch,
  check: daemonSetChecks,
  simulation: daemonSetSimulation,
  reads: DAEMONSET_READS,
  planBlock,
  applyLines,
  listRollout: true,
}
