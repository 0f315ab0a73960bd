// One sync of the deployment controller, carried out as planned (DeploymentController.syncDeployment,
// pkg/controller/deployment/): every write in the plan's order, one at a time, as the controller
// sends them, with preconditions a person-driven tool owes:
//   - adopt / release a ReplicaSet: the owner-reference patch with the ReplicaSet's uid;
//   - create the new ReplicaSet by its exact name (AlreadyExists is the answer the plan predicts
//     for a collision or a ReplicaSet that exists already);
//   - scale a ReplicaSet or update its annotations: a patch carrying its uid and resourceVersion
//     (the controller's Update is conditional on the resourceVersion in the same way);
//   - delete an old ReplicaSet: DeleteOptions.preconditions with its uid and resourceVersion;
//   - the Deployment's status (and revision annotation): a PUT on /status with the resourceVersion
//     the plan saw.
// A second write to the same ReplicaSet goes out with the resourceVersion the first returned, as
// the controller's does with the object its Update returned. A write the plan marks `conflict`
// (the controller's own sync loses it) is not sent; a write that fails ends the sync, as the
// controller's returns its error.
import type {ActionError, ActionResult} from '../../model/apply.js'
import type {CreateReplicaSetAction, DeploymentAction, UpdateDeploymentStatusAction} from '../../model/plan.js'
import {type ControllerObject, type ReplicaSetPatch, actionError, adoptPatch, releasePatch} from '../../apply/pod-control.js'
import {deploymentWithStatus, replicaSetFromPlan} from './objects.js'
import {SKIP, SyncBase} from '../../apply/sync.js'

type Obj = Record<string, any>

export class DeploymentSync extends SyncBase {
  /** ReplicaSets this sync wrote: their uid and resourceVersion now (a later write to one names them). */
  private readonly versions = new Map<string, {uid: string; resourceVersion: string}>()

  protected async steps(): Promise<void> {
    const deployment = await this.readController()
    if (!deployment) return
    for (const [i, action] of (this.cp.actions as DeploymentAction[]).entries()) {
      const r = this.results[i]
      if (action.conflict) {
        r.skipReason = SKIP.plannedConflict
        continue
      }
      if (this.stopped) continue
      const halt = this.run.stopReason()
      if (halt) return this.stop(halt)
      if (!(await this.write(action, r, deployment))) this.stop(r.outcome === 'skipped' ? SKIP.afterUnsent : SKIP.afterFailedWrite)
    }
  }

  /** Sends one write; false when the sync ends here. */
  private async write(action: DeploymentAction, r: ActionResult, deployment: ControllerObject): Promise<boolean> {
    const ns = this.cp.namespace
    try {
      switch (action.type) {
        case 'adoptReplicaSet':
        case 'releaseReplicaSet': {
          const patch = action.type === 'adoptReplicaSet' ? adoptPatch(action.uid, this.cp) : releasePatch(action.uid, this.cp.uid)
          const done = await this.call(() => this.control.patchReplicaSet(ns, action.replicaSet, patch))
          this.wrote(action.replicaSet, action.uid, done.resourceVersion)
          break
        }
        case 'createReplicaSet':
          return await this.create(action, r, deployment)
        case 'scaleReplicaSet':
        case 'updateReplicaSet': {
          const now = this.versions.get(action.replicaSet) ?? {uid: action.uid, resourceVersion: action.resourceVersion}
          const patch: ReplicaSetPatch =
            action.type === 'scaleReplicaSet'
              ? {metadata: {...now, annotations: {...action.annotations}}, spec: {replicas: action.to}}
              : {metadata: {...now, annotations: {...action.annotations}}, spec: {minReadySeconds: action.minReadySeconds}}
          const done = await this.call(() => this.control.patchReplicaSet(ns, action.replicaSet, patch))
          this.wrote(action.replicaSet, now.uid, done.resourceVersion)
          break
        }
        case 'deleteReplicaSet': {
          const now = this.versions.get(action.replicaSet) ?? {uid: action.uid, resourceVersion: action.resourceVersion}
          await this.call(() => this.control.deleteReplicaSet(ns, action.replicaSet, now))
          break
        }
        case 'updateStatus':
          await this.status(action, r, deployment)
          break
        case 'rollback':
          r.skipReason = SKIP.rollback
          return false
      }
    } catch (e) {
      return this.failed(action, r, actionError(e))
    }
    this.settle(r, 'ok')
    return true
  }

  private async create(action: CreateReplicaSetAction, r: ActionResult, deployment: ControllerObject): Promise<boolean> {
    if (action.name === null) {
      r.skipReason = SKIP.nameUnknown
      return false
    }
    const manifest = replicaSetFromPlan({...action, name: action.name}, this.cp.namespace, (deployment.raw as Obj).spec?.template)
    try {
      const made = await this.call(() => this.control.createReplicaSet(manifest))
      r.done = {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      if (made.uid && made.resourceVersion) this.wrote(made.name, made.uid, made.resourceVersion)
    } catch (e) {
      const error = actionError(e)
      // The controller's create fails the same way when the name is taken; the plan said so.
      if (error.code === 409 && error.reason === 'AlreadyExists' && action.outcome !== 'created') r.done = {alreadyExists: true}
      else return this.failed(action, r, error)
    }
    this.settle(r, 'ok')
    return true
  }

  private async status(action: UpdateDeploymentStatusAction, r: ActionResult, deployment: ControllerObject): Promise<void> {
    const object = deploymentWithStatus(deployment.raw, action.to, action.revision, this.cp.resourceVersion)
    const written = await this.call(() => this.control.updateStatus(this.cp, object))
    r.done = {status: action.to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return this.run.calls.run(fn)
  }

  private wrote(replicaSet: string, uid: string, resourceVersion: string | undefined): void {
    // A dry run changed nothing: the next write names the version the plan saw.
    if (!this.control.dryRun && resourceVersion) this.versions.set(replicaSet, {uid, resourceVersion})
  }

  /**
   * A refused write: done after all (a ReplicaSet to release or delete that is gone — the
   * controller ignores NotFound there and goes on: true), a precondition that found the world
   * changed since planning, or another failure (both end the sync: false).
   */
  private failed(action: DeploymentAction, r: ActionResult, error: ActionError): boolean {
    if ((action.type === 'releaseReplicaSet' || action.type === 'deleteReplicaSet') && error.code === 404) {
      r.done = {alreadyGone: true}
      this.settle(r, 'ok')
      return true
    }
    const whole = action.type === 'updateStatus' || action.type === 'rollback'
    const target = whole ? this.label : `ReplicaSet ${this.cp.namespace}/${r.replicaSet ?? ''}`
    // 409: a resourceVersion or uid precondition, or a name taken; 404 and 422 (a uid in a patch): the object is gone or another.
    const preconditionFailed = error.code === 409 || (action.type !== 'createReplicaSet' && (error.code === 404 || (!whole && error.code === 422)))
    if (preconditionFailed) this.conflicted(r, error, `${target} changed since planning`)
    else this.settle(r, 'failed', error)
    return false
  }
}
