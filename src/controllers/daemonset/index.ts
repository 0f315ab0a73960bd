// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import {setStatusObject} from '../../apply/revisioned-objects.js'
import type {UpdateStatusAction} from '../../model/plan.js'
import type {ControllerDescriptor} from '../descriptor.js'
import {daemonSetNotes, daemonSetPodDeletes, daemonSetReplaces, DaemonSetSync} from './apply.js'
import {planDaemonSets} from './planner.js'
import {DAEMONSET_READS} from './read.js'
import {applyLines, planBlock} from './render.js'
import {daemonSetChecks} from './rules.js'
import {daemonSetAction} from './saved.js'
import {daemonSetSimulation} from './simulate.js'
import {daemonSetWatch} from './watch.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  read: {
    kinds: DAEMONSET_READS,
  },
  plan: planDaemonSets,
  render: {
    planBlock,
    applyLines,
    listRollout: true,
  },
  apply: {
    resources: {DaemonSet: {apiPath: '/apis/apps/v1', resource: 'daemonsets.apps'}},
    sync: (run, cp) => new DaemonSetSync(run, cp),
    parseAction: daemonSetAction,
    guard: {podDeletes: daemonSetPodDeletes, replaces: daemonSetReplaces},
    notes: daemonSetNotes,
    settledStatus: {object: (write, raw) => ({...raw, status: setStatusObject((write as UpdateStatusAction).to as object as Record<string, unknown>, (raw as {status?: Record<string, unknown>}).status)})},
  },
  watch: daemonSetWatch,
  simulate: daemonSetSimulation,
  check: daemonSetChecks,
}
