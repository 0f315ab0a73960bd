// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import type {ControllerDescriptor} from '../descriptor.js'
import {planDaemonSets} from './planner.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  plan: planDaemonSets,
}
