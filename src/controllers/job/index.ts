// The Job controller (kube-controller-manager's `job`, pkg/controller/job).
import type {ControllerDescriptor} from '../descriptor.js'
import {planJobs} from './planner.js'
import {applyLines, planBlock} from './render.js'

export const job: ControllerDescriptor = {
  name: 'job',
  kinds: ['Job'],
  plan: planJobs,
  planBlock,
  applyLines,
  listRollout: true,
}
