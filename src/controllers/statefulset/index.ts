// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {ControllerDescriptor} from '../descriptor.js'
import {planStatefulSets} from './planner.js'
import {applyLines, planBlock} from './render.js'

export const statefulset: ControllerDescriptor = {
  name: 'statefulset',
  kinds: ['StatefulSet'],
  plan: planStatefulSets,
  planBlock,
  applyLines,
  listRollout: true,
}
