// One sync of a ReplicaSet or ReplicationController, carried out as planned, the way
// ReplicaSetController.syncReplicaSet does it (pkg/controller/replicaset/replica_set.go): adoptions
// and releases, creates in slow-start batches or all deletes at once, then the status write (see
// apply/executor.ts for the steps and the preconditions).
import type {ActionResult} from '../../model/apply.js'
import type {Action, AdoptAction, ControllerPlan, CreateAction, ReleaseAction, StatusView, UpdateStatusAction} from '../../model/plan.js'
import {withReplicaFailure} from '../../reconcile/status.js'
import {type ControllerObject, actionError, adoptPatch, podFromTemplate, releasePatch} from '../../apply/pod-control.js'
import {type Run, SKIP, SyncBase} from '../../apply/sync.js'
import {statusObject} from './objects.js'

/** One sync of a ReplicaSet or ReplicationController. */
export class ReplicaSetSync extends SyncBase {
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

/** Pods an action takes away (the guards' count): a delete. */
export function replicaSetPodDeletes(a: Action): number {
  return a.type === 'delete' ? 1 : 0
}
