// Carries out one plan — one sync of every controller in it — through a PodControl: first every
// Deployment's sync (deployment-sync.ts), then every StatefulSet's and DaemonSet's
// (workload-sync.ts), Job's and CronJob's (batch-sync.ts) and every ReplicaSet's and ReplicationController's, the
// way ReplicaSetController.syncReplicaSet does (pkg/controller/replicaset/replica_set.go), and
// more carefully, since the plan may be older than the world:
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
import type {Action, AdoptAction, ControllerPlan, CreateAction, ReleaseAction, ReconcilePlan, StatusView, UpdateStatusAction} from '../model/plan.js'
import {withReplicaFailure} from '../reconcile/status.js'
import {CronJobSync, JobSync} from '../controllers/job/apply.js'
import {DeploymentSync} from '../controllers/deployment/apply.js'
import {Limiter} from './limit.js'
import {type ControllerObject, actionError, adoptPatch, podFromTemplate, releasePatch, statusObject} from './pod-control.js'
import {type ExecuteOptions, Run, SKIP, SyncBase} from './sync.js'
import {ServiceSync} from '../controllers/service/apply.js'
import {WorkloadSync} from '../controllers/statefulset/apply.js'

export {DEFAULT_CONCURRENCY, type ExecuteOptions, SKIP} from './sync.js'

/** kube-controller-manager's --concurrent-replicaset-syncs default: controllers synced at once. */
export const DEFAULT_WORKERS = 5

export interface Execution {
  results: ActionResult[]
  controllers: ControllerOutcome[]
  interrupted: boolean
  /** What the first call refused by a precondition (or a changed controller) found. */
  conflict?: string
}

/**
 * Deployments first (the deployment controller's syncs, each write in order), then CronJobs, then
 * the other controllers' syncs — except those of ReplicaSets a Deployment's sync just wrote, and of
 * Jobs a CronJob's sync just deleted: their plan describes the object before that write, and the
 * next round plans them again.
 */
export async function executePlan(plan: ReconcilePlan, opts: ExecuteOptions): Promise<Execution> {
  const run = new Run(opts)
  const workers = new Limiter(opts.workers ?? DEFAULT_WORKERS)
  const deployments = plan.controllers.filter((cp) => cp.kind === 'Deployment')
  const synced = await Promise.all(deployments.map((cp) => workers.run(() => sync(new DeploymentSync(run, cp)))))
  const wrote = (r: ActionResult) => r.replicaSet !== undefined && r.outcome === 'ok' && !r.done?.alreadyExists && !r.done?.alreadyGone
  const written = new Set(synced.flatMap((s) => s.results.filter(wrote).map((r) => `${r.controller.namespace}/${r.replicaSet}`)))
  // CronJobs next: a Job one of them deletes in this round is not synced after it (its plan is of a Job now gone).
  const cronJobs = plan.controllers.filter((cp) => cp.kind === 'CronJob')
  synced.push(...(await Promise.all(cronJobs.map((cp) => workers.run(() => sync(new CronJobSync(run, cp)))))))
  const deletedJobs = new Set(synced.flatMap((s) => s.results.filter((r) => r.action === 'deleteJob' && r.outcome === 'ok' && !r.done?.alreadyGone).map((r) => `${r.controller.namespace}/${(r.predicted as {name: string}).name}`)))
  const others = plan.controllers.filter((cp) => cp.kind !== 'Deployment' && cp.kind !== 'CronJob')
  const syncOf = (cp: ControllerPlan): SyncBase => {
    if (cp.kind === 'Service') return new ServiceSync(run, cp, opts.services, opts.cloud)
    if (cp.kind === 'StatefulSet' || cp.kind === 'DaemonSet') return new WorkloadSync(run, cp)
    if (cp.kind === 'Job') return new JobSync(run, cp, deletedJobs.has(`${cp.namespace}/${cp.name}`))
    return new ControllerSync(run, cp, written.has(`${cp.namespace}/${cp.name}`))
  }
  synced.push(...(await Promise.all(others.map((cp) => workers.run(() => sync(syncOf(cp)))))))
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

/** One sync of a ReplicaSet or ReplicationController. */
class ControllerSync extends SyncBase {
  /** manageReplicas' error: the first failed create, or the first failed delete. */
  private manageError?: string
  /** Pods this sync patched itself (adopted): their resourceVersion now, for a delete of the same pod. */
  private readonly patchedVersions = new Map<string, string>()

  constructor(
    run: Run,
    cp: ControllerPlan,
    /** A Deployment's sync of this round wrote this ReplicaSet: nothing of this plan is sent. */
    private readonly superseded = false,
  ) {
    super(run, cp)
  }

  protected async steps(): Promise<void> {
    if (this.superseded) return this.stop(SKIP.ownerWrote)
    // 1. The controller as it is now: the template for creates, the object for the status write.
    const controller = await this.readController()
    if (!controller) return

    // 2. claimPods: adoptions and releases.
    const patchOf = (a: AdoptAction | ReleaseAction) => (a.type === 'adopt' ? adoptPatch(a.uid, this.cp) : releasePatch(a.uid, this.cp.uid))
    if (!(await this.claimPods(this.patchedVersions, patchOf))) return this.stop(this.run.stopReason() ?? SKIP.claimFailed)

    // 3. manageReplicas: creates or deletes.
    await this.creates(controller)
    await this.deletes()

    // 4. The status write.
    await this.status(controller)
  }

  private async creates(controller: ControllerObject): Promise<void> {
    const idx = this.indexes('create')
    if (idx.length === 0) return
    const first = this.cp.actions[idx[0]] as CreateAction
    if (first.error) {
      // createPods refuses it before any request (e.g. "unable to create pods, no labels").
      this.manageError = first.error
      this.settle(this.results[idx[0]], 'failed', {message: first.error})
      for (const i of idx.slice(1)) this.results[i].skipReason = SKIP.afterFailedBatch
      return
    }
    await this.createPods(idx, (i) => podFromTemplate(this.cp.actions[i] as CreateAction, this.cp.namespace, controller.templateSpec), (error) => {
      this.manageError ??= error.message
    })
  }

  private async deletes(): Promise<void> {
    const idx = this.indexes('delete')
    // manageReplicas sends every delete at once (no slow start).
    await Promise.all(
      idx.map((i) =>
        this.run.calls.run(async () => {
          if (this.run.stopReason()) return
          const action = this.cp.actions[i] as Extract<Action, {type: 'delete'}>
          const r = this.results[i]
          try {
            const resourceVersion = this.patchedVersions.get(action.uid) ?? action.resourceVersion
            await this.control.deletePod(this.cp.namespace, action.pod, {uid: action.uid, resourceVersion})
            this.settle(r, 'ok')
          } catch (e) {
            const error = actionError(e)
            if (error.code === 404) {
              // Already gone: upstream's DeletePod treats NotFound as done.
              r.done = {alreadyGone: true}
              this.settle(r, 'ok')
              return
            }
            this.manageError ??= `unable to delete pods: ${error.message}`
            if (error.code === 409) this.conflicted(r, error, `pod ${this.cp.namespace}/${action.pod} changed since planning`)
            else this.settle(r, 'failed', error)
          }
        }),
      ),
    )
  }

  private async status(controller: ControllerObject): Promise<void> {
    const i = this.cp.actions.findIndex((a) => a.type === 'updateStatus')
    const planned = i >= 0 ? (this.cp.actions[i] as UpdateStatusAction) : undefined
    let to = planned?.to
    if (this.manageError !== undefined) to = withFailure(planned?.from ?? (this.cp.status as StatusView), to ?? (this.cp.status as StatusView), this.cp.diff, this.manageError, this.run.opts.now())
    if (!to) return
    const halt = this.run.stopReason()
    // A write the plan did not predict is only reported when it is sent.
    if (halt && !planned) return
    let r: ActionResult
    if (planned) r = this.results[i]
    else {
      r = {round: this.run.round, controller: this.id, action: 'updateStatus', outcome: 'skipped'}
      this.extra.push(r)
    }
    if (halt) {
      r.skipReason = halt
      return
    }
    const object = structuredClone(controller.raw) as Record<string, any>
    object.metadata = {...(object.metadata ?? {}), resourceVersion: this.cp.resourceVersion}
    object.status = statusObject(to)
    try {
      const written = await this.run.calls.run(() => this.control.updateStatus(this.cp, object))
      r.done = {status: to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
      this.settle(r, 'ok')
    } catch (e) {
      const error = actionError(e)
      if (error.code === 409) this.conflicted(r, error, `${this.label} changed since planning`)
      else this.settle(r, 'failed', error)
    }
  }
}

/**
 * calculateStatus with manageReplicasErr set: a ReplicaFailure condition (FailedCreate when pods
 * were missing, FailedDelete when there were too many) is added when none exists; an existing one
 * is kept as it is.
 */
export function withFailure(from: StatusView, to: StatusView, diff: number, message: string, now: string): StatusView {
  return {...to, conditions: withReplicaFailure(from.conditions ?? [], diff, message, wholeSeconds(now))}
}

/** metav1.Time keeps whole seconds. */
function wholeSeconds(time: string): string {
  return time.replace(/\.\d+Z$/, 'Z')
}
