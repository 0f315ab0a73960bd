// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {ControllerDescriptor} from '../descriptor.js'
import {planStatefulSets} from './planner.js'
import {statefulSetWatch} from './watch.js'
import {statefulSetChecks} from './rules.js'
import {statefulSetSimulation} from './simulate.js'
import {STATEFULSET_READS} from './read.js'
import {applyLines, planBlock} from './render.js'
import type {UpdateStatusAction} from '../../model/plan.js'
import {statefulSetPodDeletes, statefulSetReplaces, StatefulSetSync} from './apply.js'
import {statefulSetStatusObject} from './objects.js'
import {statefulSetAction} from './saved.js'

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
  apply: {
    resources: {StatefulSet: {apiPath: '/apis/apps/v1', resource: 'statefulsets.apps'}},
    sync: (run, cp) => new StatefulSetSync(run, cp),
    parseAction: statefulSetAction,
    guard: {podDeletes: statefulSetPodDeletes, replaces: statefulSetReplaces},
    settledStatus: {object: (write, raw) => ({...raw, status: statefulSetStatusObject((write as UpdateStatusAction).to as object as Record<string, unknown>, (raw as {status?: Record<string, unknown>}).status)})},
  },
}
