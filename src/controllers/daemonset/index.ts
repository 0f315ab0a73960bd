// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import type {ControllerDescriptor} from '../descriptor.js'
import {planDaemonSets} from './planner.js'
import {applyLines, planBlock} from './render.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  plan: planDaemonSets,
  planBlock,
  applyLines,
  listRollout: true,
}
