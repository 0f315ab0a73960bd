// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {ControllerDescriptor} from '../descriptor.js'
import {planStatefulSets} from './planner.js'
import {statefulSetSimulation} from './simulate.js'

export const statefulset: ControllerDescriptor = {
  name: 'statefulset',
  kinds: ['StatefulSet'],
  plan: planStatefulSets,
  simulation: statefulSetSimulation,
}
