// The CronJob controller (kube-controller-manager's `cronjob`, pkg/controller/cronjob).
import type {ControllerDescriptor} from '../descriptor.js'
import {planCronJobs} from './planner.js'
import {applyLines, planBlock, showsUnder} from './render.js'

export const cronjob: ControllerDescriptor = {
  name: 'cronjob',
  kinds: ['CronJob'],
  plan: planCronJobs,
  planBlock,
  showsUnder,
  applyLines,
  listRollout: true,
}
