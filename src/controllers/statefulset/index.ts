// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {ControllerDescriptor} from '../descriptor.js'
import {planStatefulSets} from './planner.js'
import {statefulSetWatch} from './watch.js'
import {statefulSetChecks} from './rules.js'
import {statefulSetSimulation} from './simulate.js'
import {STATEFULSET_READS} from './read.js'
import {applyLines, planBlock} from './render.js'

export const statefulset: ControllerDescriptor = {
  name: 'statefulset',
  kinds: ['StatefulSet'],
  plan: planStatefulSets,
  watch: statefulSetWatch,
  check: statefulSetChecks,
  simulation: statefulSetSimulation,
  reads: STATEFULSET_READS,
  planBlock,
  applyLines,
  listRollout: true,
}
