// The DaemonSet controller (kube-controller-manager's `daemonset`, pkg/controller/daemon).
import type {ControllerDescriptor} from '../descriptor.js'
import {planDaemonSets} from './planner.js'
import type {UpdateStatusAction} from '../../model/plan.js'
import {setStatusObject} from '../../apply/revisioned-objects.js'
import {daemonSetNotes, daemonSetPodDeletes, daemonSetReplaces, DaemonSetSync} from './apply.js'
import {daemonSetAction} from './saved.js'

export const daemonset: ControllerDescriptor = {
  name: 'daemonset',
  kinds: ['DaemonSet'],
  plan: planDaemonSets,
  apply: {
    resources: {DaemonSet: {apiPath: '/apis/apps/v1', resource: 'daemonsets.apps'}},
    sync: (run, cp) => new DaemonSetSync(run, cp),
    parseAction: daemonSetAction,
    guard: {podDeletes: daemonSetPodDeletes, replaces: daemonSetReplaces},
    notes: daemonSetNotes,
    settledStatus: {object: (write, raw) => ({...raw, status: setStatusObject((write as UpdateStatusAction).to as object as Record<string, unknown>, (raw as {status?: Record<string, unknown>}).status)})},
  },
}
