// The CronJob controller (kube-controller-manager's `cronjob`, pkg/controller/cronjob).
import type {ControllerDescriptor} from '../descriptor.js'
import {batchAction} from '../job/saved.js'
import {CronJobSync} from './apply.js'
import {planCronJobs} from './planner.js'
import {CRONJOB_READS} from './read.js'
import {applyLines, planBlock, showsUnder} from './render.js'
import {cronJobChecks} from './rules.js'
import {cronJobSimulation} from './simulate.js'
import {cronJobWatch} from './watch.js'

export const cronjob: ControllerDescriptor = {
  name: 'cronjob',
  kinds: ['CronJob'],
  read: {
    kinds: CRONJOB_READS,
  },
  plan: planCronJobs,
  render: {
    planBlock,
    showsUnder,
    applyLines,
    listRollout: true,
  },
  apply: {
    resources: {CronJob: {apiPath: '/apis/batch/v1', resource: 'cronjobs.batch'}},
    phase: 1,
    // The Jobs it deleted: their plans are of Jobs now gone.
    overtakes: (results) => results.filter((r) => r.action === 'deleteJob' && r.outcome === 'ok' && !r.done?.alreadyGone).map((r) => `Job/${r.controller.namespace}/${(r.predicted as {name: string}).name}`),
    sync: (run, cp) => new CronJobSync(run, cp),
    parseAction: batchAction,
  },
  watch: cronJobWatch,
  simulate: cronJobSimulation,
  check: cronJobChecks,
}
