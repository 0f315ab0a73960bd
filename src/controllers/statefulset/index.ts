// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {ControllerDescriptor} from '../descriptor.js'
import {planStatefulSets} from './planner.js'
import {statefulSetChecks} from './rules.js'

export const statefulset: ControllerDescriptor = {
  name: 'statefulset',
  kinds: ['StatefulSet'],
  plan: planStatefulSets,
  check: statefulSetChecks,
}
