// The Job controller's plans for a snapshot: one sync per Job (sync.ts) over the pods it controls.
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../planner.js'
import {isControlledBy} from '../pods.js'
import {planJob} from './sync.js'

export function planJobs(snapshot: Snapshot, world: World): ControllerPlan[] {
  return (snapshot.jobs ?? [])
    .filter((job) => !job.notPlanned)
    .map((job) =>
      planJob(job, {
        // Found by owner, as the controller's indexer finds them (in the lister's order).
        pods: [...world.index.referencing(job.uid)].filter((p) => isControlledBy(p, {namespace: job.namespace, kind: 'Job', name: job.name, uid: job.uid})),
        now: world.now,
        clearStartTimeOnSuspend: world.options.featureGates.MutableSchedulingDirectivesForSuspendedJobs,
        ...(world.options.jobBackoff ? {backoffRecord: world.options.jobBackoff.get(job.uid) ?? {failures: 0}} : {}),
      }),
    )
}
