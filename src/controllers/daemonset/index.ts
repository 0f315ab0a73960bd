// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import type {ControllerDescriptor} from '../descriptor.js'
import {planDaemonSets} from './planner.js'
import {DAEMONSET_READS} from './read.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  plan: planDaemonSets,
  reads: DAEMONSET_READS,
}
