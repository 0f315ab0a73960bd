// The CronJob controller's plans for a snapshot: one sync per CronJob (sync.ts) over the Jobs of
// its namespace that name it as their controller.
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import {jobsOf, planCronJob} from './sync.js'

export function planCronJobs(snapshot: Snapshot, world: World): ControllerPlan[] {
  const cronJobs = snapshot.cronJobs ?? []
  if (cronJobs.length === 0) return []
  const jobs = byNamespace(snapshot.jobs ?? [])
  return cronJobs.map((cj) =>
    planCronJob(cj, {
      jobs: jobsOf(cj, jobs.get(cj.namespace) ?? []),
      namespaceJobs: jobs.get(cj.namespace) ?? [],
      now: world.now,
      clearStartTimeOnSuspend: world.options.featureGates.MutableSchedulingDirectivesForSuspendedJobs,
    }),
  )
}
