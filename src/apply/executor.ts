// Carries out one plan — one sync of every controller in it — through a PodControl, each by its
// controller's part (src/controllers/<controller>/apply.ts, in the phases the parts name: the
// deployment controller's syncs first, then the CronJob controller's, then the others'). A
// ReplicaSet's or ReplicationController's sync goes the way ReplicaSetController.syncReplicaSet
// does (pkg/controller/replicaset/replica_set.go), and more carefully, since the plan may be older
// than the world:
//   1. read the controller; if its uid or resourceVersion is not the plan's, do nothing for it;
//   2. adoptions and releases (claimPods), each a patch with the pod's uid as precondition; a
//      failed claim ends the sync there, as upstream's does (no create, delete or status write);
//   3. creates in slow-start batches 1, 2, 4 … (slowStartBatch), stopping after a batch with a
//      failure; or all deletes at once, each with the pod's uid and resourceVersion as preconditions;
//   4. the status write (calculateStatus + updateReplicaSetStatus) as a PUT on /status carrying the
//      resourceVersion the plan saw: a conflict is reported, never retried over someone else's write.
//      When a create or delete failed, the status carries the ReplicaFailure condition upstream adds.
// Every call goes through one limiter (bounded concurrency). After SIGINT (the signal) or a call
// that finds the world changed since planning, nothing new is started; calls in flight finish.
// Every planned action gets exactly one result.
import type {ActionResult, ControllerOutcome} from '../model/apply.js'
import type {ControllerPlan, ReconcilePlan} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {Limiter} from './limit.js'
import {type ExecuteOptions, Run, type SyncBase} from './sync.js'

export {DEFAULT_CONCURRENCY, type ExecuteOptions, SKIP} from './sync.js'

/** kube-controller-manager's --concurrent-replicaset-syncs default: controllers synced at once. */
export const DEFAULT_WORKERS = 5

/** The phase of a controller whose part names none: after the deployment and CronJob controllers'. */
const DEFAULT_PHASE = 2

export interface Execution {
  results: ActionResult[]
  controllers: ControllerOutcome[]
  interrupted: boolean
  /** What the first call refused by a precondition (or a changed controller) found. */
  conflict?: string
}

/**
 * Phase by phase (the parts' `phase`): Deployments first (the deployment controller's syncs, each
 * write in order), then CronJobs, then the other controllers' syncs — except those of objects an
 * earlier phase's writes overtook (ReplicaSets a Deployment's sync just wrote, Jobs a CronJob's sync
 * just deleted: the parts' `overtakes`): their plan describes the object before that write, and the
 * next round plans them again.
 */
export async function executePlan(plan: ReconcilePlan, opts: ExecuteOptions): Promise<Execution> {
  const run = new Run(opts)
  const workers = new Limiter(opts.workers ?? DEFAULT_WORKERS)
  const byKind = new Map(CONTROLLERS.flatMap((c) => c.kinds.map((k) => [k as string, c] as const)))
  const partOf = (cp: ControllerPlan) => {
    const c = byKind.get(cp.kind)
    if (!c?.apply) throw new Error(`internal: no controller carries out ${cp.kind}`)
    return c.apply
  }
  const phases = [...new Set(plan.controllers.map((cp) => partOf(cp).phase ?? DEFAULT_PHASE))].sort((a, b) => a - b)
  const synced: Array<{results: ActionResult[]; outcome: ControllerOutcome}> = []
  /** `Kind/namespace/name` of the objects an earlier phase's writes overtook. */
  const overtakenKeys = new Set<string>()
  const overtaken = (kind: string, namespace: string, name: string) => overtakenKeys.has(`${kind}/${namespace}/${name}`)
  for (const phase of phases) {
    const plans = plan.controllers.filter((cp) => (partOf(cp).phase ?? DEFAULT_PHASE) === phase)
    const done = await Promise.all(plans.map((cp) => workers.run(() => sync(partOf(cp).sync(run, cp, opts, overtaken)))))
    synced.push(...done)
    for (const [i, cp] of plans.entries()) {
      for (const key of partOf(cp).overtakes?.(done[i].results) ?? []) overtakenKeys.add(key)
      // Its own status write gave the object a new resourceVersion: a later phase's write that
      // names the version planned (an HPA's scale write to it) is overtaken too.
      if (done[i].results.some((r) => r.action === 'updateStatus' && r.outcome === 'ok')) overtakenKeys.add(`${cp.kind}/${cp.namespace}/${cp.name}`)
    }
  }
  const results = synced.flatMap((s) => s.results)
  // The executor's own check that no planned action went missing.
  const planned = plan.controllers.reduce((n, cp) => n + cp.actions.length, 0)
  const accounted = results.filter((r) => r.predicted !== undefined).length
  if (accounted !== planned) throw new Error(`internal: ${planned} actions planned but ${accounted} results`)
  return {
    results,
    controllers: synced.map((s) => s.outcome),
    interrupted: run.interrupted,
    ...(run.conflict ? {conflict: run.conflict} : {}),
  }
}

async function sync(s: SyncBase): Promise<{results: ActionResult[]; outcome: ControllerOutcome}> {
  await s.execute()
  return {results: s.allResults(), outcome: s.outcome()}
}
