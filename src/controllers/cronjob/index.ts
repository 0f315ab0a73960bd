// The CronJob controller (kube-controller-manager's `cronjob`, pkg/controller/cronjob).
import type {ControllerDescriptor} from '../descriptor.js'
import {planCronJobs} from './planner.js'
import {cronJobWatch} from './watch.js'
import {cronJobChecks} from './rules.js'
import {cronJobSimulation} from './simulate.js'
import {CRONJOB_READS} from './read.js'
import {applyLines, planBlock, showsUnder} from './render.js'

export const cronjob: ControllerDescriptor = {
  name: 'cronjob',
  kinds: ['CronJob'],
  plan: planCronJobs,
  watch: cronJobWatch,
  check: cronJobChecks,
  simulation: cronJobSimulation,
  reads: CRONJOB_READS,
  planBlock,
  showsUnder,
  applyLines,
  listRollout: true,
}
