// The Job controller (kube-controller-manager's `job`, pkg/controller/job).
import type {ControllerDescriptor} from '../descriptor.js'
import {planJobs} from './planner.js'
import {jobPodDeletes, jobReplaces, JobSync} from './apply.js'
import {batchAction} from './saved.js'

export const job: ControllerDescriptor = {
  name: 'job',
  kinds: ['Job'],
  plan: planJobs,
  apply: {
    resources: {Job: {apiPath: '/apis/batch/v1', resource: 'jobs.batch'}},
    // A CronJob's sync of this round deleted this Job: its plan is not carried out.
    sync: (run, cp, _opts, overtaken) => new JobSync(run, cp, overtaken('Job', cp.namespace, cp.name)),
    parseAction: batchAction,
    guard: {podDeletes: jobPodDeletes, replaces: jobReplaces, activeAfterSync: true},
  },
}
