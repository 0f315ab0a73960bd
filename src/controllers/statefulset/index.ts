// The StatefulSet controller (kube-controller-manager's `statefulset`, pkg/controller/statefulset).
import type {UpdateStatusAction} from '../../model/plan.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {statefulSetPodDeletes, statefulSetReplaces, StatefulSetSync} from './apply.js'
import {statefulSetStatusObject} from './objects.js'
import {planStatefulSets} from './planner.js'
import {STATEFULSET_READS} from './read.js'
import {applyLines, planBlock} from './render.js'
import {statefulSetChecks} from './rules.js'
import {statefulSetAction} from './saved.js'
import {statefulSetSimulation} from './simulate.js'
import {statefulSetWatch} from './watch.js'

export const statefulset: ControllerDescriptor = {
  name: 'statefulset',
  kinds: ['StatefulSet'],
  read: {
    kinds: STATEFULSET_READS,
  },
  plan: planStatefulSets,
  render: {
    planBlock,
    applyLines,
    listRollout: true,
  },
  apply: {
    resources: {StatefulSet: {apiPath: '/apis/apps/v1', resource: 'statefulsets.apps'}},
    sync: (run, cp) => new StatefulSetSync(run, cp),
    parseAction: statefulSetAction,
    guard: {podDeletes: statefulSetPodDeletes, replaces: statefulSetReplaces},
    settledStatus: {object: (write, raw) => ({...raw, status: statefulSetStatusObject((write as UpdateStatusAction).to as object as Record<string, unknown>, (raw as {status?: Record<string, unknown>}).status)})},
  },
  watch: statefulSetWatch,
  simulate: statefulSetSimulation,
  check: statefulSetChecks,
}
