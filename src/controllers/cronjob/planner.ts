// The CronJob controller's plans for a snapshot: one sync per CronJob (sync.ts) over the Jobs of
// its namespace that name it as their controller.
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {byNamespace, groupBy} from '../../reconcile/workload-plan.js'
import {controllerOf} from '../../reconcile/pods.js'
import {planCronJob} from './sync.js'

export function planCronJobs(snapshot: Snapshot, world: World): ControllerPlan[] {
  const cronJobs = snapshot.cronJobs ?? []
  if (cronJobs.length === 0) return []
  const jobs = byNamespace(snapshot.jobs ?? [])
  // The Jobs a CronJob's sync lists: its namespace's Jobs whose controller reference carries its
  // name, in order; grouped once for every CronJob.
  const byController = new Map([...jobs].map(([namespace, list]) => [namespace, groupBy(list, (j) => controllerOf(j)?.name)]))
  return cronJobs.map((cj) =>
    planCronJob(cj, {
      jobs: [...(byController.get(cj.namespace)?.get(cj.name) ?? [])],
      namespaceJobs: jobs.get(cj.namespace) ?? [],
      now: world.now,
      clearStartTimeOnSuspend: world.options.featureGates.MutableSchedulingDirectivesForSuspendedJobs,
    }),
  )
}
