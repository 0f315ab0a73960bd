// The CronJob controller (kube-controller-manager's `cronjob`, pkg/controller/cronjob).
import type {ControllerDescriptor} from '../descriptor.js'
import {planCronJobs} from './planner.js'
import {CRONJOB_READS} from './read.js'

export const cronjob: ControllerDescriptor = {
  name: 'cronjob',
  kinds: ['CronJob'],
  plan: planCronJobs,
  reads: CRONJOB_READS,
}
