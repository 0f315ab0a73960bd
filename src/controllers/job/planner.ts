// The Job controller's plans for a snapshot: one sync per Job (sync.ts) over the pods it controls
// and the orphans of its namespace it may adopt.
import type {PodView, Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {isControlledBy} from '../../reconcile/pods.js'
import {type JobSyncInput, planJob} from './sync.js'

export function planJobs(snapshot: Snapshot, world: World): ControllerPlan[] {
  // A namespace's orphans, listed once for all of its Jobs (a sync only reads them).
  const orphansOf = new Map<string, readonly PodView[]>()
  const orphans = (namespace: string) => {
    let list = orphansOf.get(namespace)
    if (list === undefined) orphansOf.set(namespace, (list = [...world.index.orphans(namespace)]))
    return list
  }
  const {now} = world
  const clearStartTimeOnSuspend = world.options.featureGates.MutableSchedulingDirectivesForSuspendedJobs
  const backoff = world.options.jobBackoff
  return (snapshot.jobs ?? [])
    .filter((job) => !job.notPlanned)
    .map((job) => {
      const identity = {namespace: job.namespace, kind: 'Job', name: job.name, uid: job.uid}
      // Found by owner, as the controller's indexer finds them (in the lister's order), then the orphans.
      const pods: PodView[] = []
      for (const p of world.index.referencing(job.uid)) if (isControlledBy(p, identity)) pods.push(p)
      const input: JobSyncInput = {pods, orphans: orphans(job.namespace), now, clearStartTimeOnSuspend}
      if (backoff) input.backoffRecord = backoff.get(job.uid) ?? {failures: 0}
      return planJob(job, input)
    })
}
