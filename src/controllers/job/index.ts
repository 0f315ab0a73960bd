// The Job controller (kube-controller-manager's `job`, pkg/controller/job).
import type {ControllerDescriptor} from '../descriptor.js'
import {jobPodDeletes, jobReplaces, JobSync} from './apply.js'
import {planJobs} from './planner.js'
import {JOB_READS, readJobPodFields} from './read.js'
import {applyLines, planBlock} from './render.js'
import {jobChecks} from './rules.js'
import {batchAction} from './saved.js'
import {jobSimulation} from './simulate.js'
import {jobWatch} from './watch.js'

export const job: ControllerDescriptor = {
  name: 'job',
  kinds: ['Job'],
  read: {
    kinds: JOB_READS,
    podFields: readJobPodFields,
  },
  plan: planJobs,
  render: {
    planBlock,
    applyLines,
    listRollout: true,
  },
  apply: {
    resources: {Job: {apiPath: '/apis/batch/v1', resource: 'jobs.batch'}},
    // A CronJob's sync of this round deleted this Job: its plan is not carried out.
    sync: (run, cp, _opts, overtaken) => new JobSync(run, cp, overtaken('Job', cp.namespace, cp.name)),
    parseAction: batchAction,
    guard: {podDeletes: jobPodDeletes, replaces: jobReplaces, activeAfterSync: true},
  },
  watch: jobWatch,
  simulate: jobSimulation,
  check: jobChecks,
}
