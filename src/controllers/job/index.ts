// The Job controller (kube-controller-manager's `job`, pkg/controller/job).
import type {ControllerDescriptor} from '../descriptor.js'
import {planJobs} from './planner.js'
import {jobWatch} from './watch.js'
import {jobChecks} from './rules.js'
import {jobSimulation} from './simulate.js'
import {JOB_READS, readJobPodFields} from './read.js'
import {applyLines, planBlock} from './render.js'

export const job: ControllerDescriptor = {
  name: 'job',
  kinds: ['Job'],
  plan: planJobs,
  watch: jobWatch,
  check: jobChecks,
  simulation: jobSimulation,
  reads: JOB_READS,
  podFields: readJobPodFields,
  planBlock,
  applyLines,
  listRollout: true,
}
