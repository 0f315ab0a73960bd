// One sync of the Job controller, carried out as planned, in the controller's order, with the
// preconditions a person-driven tool owes.
//
// Job (Controller.syncJob, manageJob, trackJobStatusAndRemoveFinalizers in job_controller.go):
//   0. getPodsForJob's claim: orphans adopted (owner reference and tracking finalizer in one patch),
//      pods the selector no longer matches released (both removed); a failed claim ends the sync;
//   1. manageJob's pod writes: creates in slow-start batches 1, 2, 4 … (stopping after a batch with
//      a failure); or, per pod and all pods at once, the tracking finalizer patched away and then
//      the DELETE (deleteJobPods); or, for a Job that reached a terminal condition, a plain DELETE of
//      every active pod (deleteActivePods);
//   2. status write #1 (uncountedTerminatedPods, counts, the interim condition), a PUT on /status
//      with the resourceVersion the plan saw;
//   3. the finalizer removals that count finished pods, all at once;
//   4. status write #2 (uncounted UIDs moved into the counters, the terminal condition), over the
//      resourceVersion write #1 left.
//   As upstream, the status is written after a failed create or delete (`active` counts only what
//   was done), and a counting finalizer removal that failed leaves its pod uncounted and the Job
//   unfinished in write #2. A finishing Job's delete that failed ends the sync there (upstream
//   writes the status without the terminal condition then; kctl writes none).
//   5. A finished Job past its ttlSecondsAfterFinished is deleted (the ttl-after-finished controller).
// Pod deletes and finalizer patches carry the planned uid and resourceVersion (a pod changed since
// planning stops the run); a NotFound answer to either is "already done", as upstream treats it.
import type {ActionError, ActionResult} from '../../model/apply.js'
import type {DeleteJobAction} from './model.js'
import type {CreateJobPodAction, DeleteJobPodAction, JobStatusView, RemoveFinalizerAction, UpdateJobStatusAction} from './model.js'
import type {Action, AdoptAction, ControllerPlan, ReleaseAction} from '../../model/plan.js'
import {finalizerPatch, jobPodObject, jobStatusObject} from './objects.js'
import {type ControllerObject, actionError, adoptPatch, releasePatch} from '../../apply/pod-control.js'
import {type Run, SKIP, SyncBase} from '../../apply/sync.js'

type Obj = Record<string, any>

export class JobSync extends SyncBase {
  constructor(
    run: Run,
    cp: ControllerPlan,
    /** A CronJob's sync of this round deleted this Job: nothing of this plan is sent. */
    private readonly deleted = false,
  ) {
    super(run, cp)
  }

  private controller!: ControllerObject
  /** Pods whose finalizer this sync patched away: their resourceVersion now (the DELETE names it). */
  private readonly versions = new Map<string, string>()
  /** Creates that did not make a pod, and manageJob deletes that did not delete one. */
  private missedCreates = 0
  private missedDeletes = 0
  /** Counting finalizer removals that failed: their pods stay in uncountedTerminatedPods. */
  private readonly uncounted: RemoveFinalizerAction[] = []
  /** Pods whose finalizer this run already patched away before deleting them (deleteJobPods). */
  private readonly removedBeforeDelete = new Set<string>()

  protected async steps(): Promise<void> {
    if (this.deleted) return this.stop(SKIP.ownerDeleted)
    const controller = await this.readController()
    if (!controller) return
    this.controller = controller
    // 0. getPodsForJob's claim: an adoption adds the tracking finalizer in its patch, a release removes it.
    const patchOf = (a: AdoptAction | ReleaseAction) => (a.type === 'adopt' ? adoptPatch(a.uid, this.cp, a.finalizer) : releasePatch(a.uid, this.cp.uid, a.finalizer))
    if (!(await this.claimPods(this.versions, patchOf))) return this.stop(this.run.stopReason() ?? SKIP.claimFailed)
    const actions = this.cp.actions
    const creates = this.indexes('createJobPod')
    const pairs: Array<[number, number]> = []
    const finishing: number[] = []
    const counting: number[] = []
    for (const [i, a] of actions.entries()) {
      if (a.type === 'deleteJobPod' && !a.finalizerRemovedFirst) finishing.push(i)
      if (a.type !== 'removeFinalizer') continue
      const next = actions[i + 1]
      if (next?.type === 'deleteJobPod' && next.finalizerRemovedFirst && next.uid === a.uid) pairs.push([i, i + 1])
      else counting.push(i)
    }
    const writes = this.indexes('updateStatus')

    // 1. manageJob, or the deletes of a finishing Job.
    if (creates.length > 0) await this.creates(creates)
    await Promise.all(pairs.map((p) => this.removeAndDelete(p)))
    const finished = await Promise.all(finishing.map((i) => this.deletePod(i)))
    const halt = this.run.stopReason()
    if (halt) return this.stop(halt)
    if (!finished.every(Boolean)) return this.stop(SKIP.afterFailedWrite)

    // 2–4. Status write #1, the counting finalizer removals, status write #2.
    let resourceVersion = this.cp.resourceVersion
    const first = writes.find((i) => (actions[i] as UpdateJobStatusAction).write === 1)
    const second = writes.find((i) => (actions[i] as UpdateJobStatusAction).write === 2)
    if (first !== undefined) {
      const written = await this.writeStatus(first, resourceVersion)
      if (written === undefined) return this.stop(this.run.stopReason() ?? SKIP.afterFailedWrite)
      resourceVersion = written
    }
    await Promise.all(counting.map((i) => this.removeFinalizer(i)))
    if (this.run.stopReason()) return this.stop(this.run.stopReason()!)
    if (second !== undefined) await this.writeStatus(second, resourceVersion)

    // 5. The ttl-after-finished controller's delete of a finished Job (processJob): Foreground, uid as precondition.
    for (const i of this.indexes('deleteJob')) {
      const a = actions[i] as DeleteJobAction
      await this.send(this.results[i], `Job ${this.cp.namespace}/${a.name}`, () =>
        this.control.deleteObject('Job', this.cp.namespace, a.name, {uid: a.uid, propagationPolicy: a.propagationPolicy}),
      )
    }
  }

  private async creates(idx: number[]): Promise<void> {
    const made = await this.createPods(idx, (i) => jobPodObject(this.cp.actions[i] as CreateJobPodAction, this.cp.namespace, this.controller.raw as Obj))
    this.missedCreates = idx.length - made
  }

  /** deleteJobPods for one pod: the finalizer patched away, then the DELETE. */
  private async removeAndDelete([remove, del]: [number, number]): Promise<boolean> {
    if (!(await this.removeFinalizer(remove))) {
      this.missedDeletes++
      if (!this.run.stopReason()) this.results[del].skipReason = SKIP.afterFailedWrite
      return false
    }
    this.removedBeforeDelete.add((this.cp.actions[remove] as RemoveFinalizerAction).uid)
    const ok = await this.deletePod(del)
    if (!ok) this.missedDeletes++
    return ok
  }

  private async removeFinalizer(i: number): Promise<boolean> {
    const a = this.cp.actions[i] as RemoveFinalizerAction
    const r = this.results[i]
    return this.send(r, `pod ${this.cp.namespace}/${a.pod}`, async () => {
      // A pod deleted earlier in this run is patched again when the Job then finishes (the sync walks
      // the pods as listed before it): it changed since planning, so no resourceVersion precondition.
      const version = this.removedBeforeDelete.has(a.uid) ? undefined : a.resourceVersion
      const patched = await this.control.patchObject('Pod', this.cp.namespace, a.pod, finalizerPatch(a.uid, version), 'strategic')
      if (!this.control.dryRun && patched.resourceVersion) this.versions.set(a.uid, patched.resourceVersion)
    }, () => {
      if (a.counts !== 'none') this.uncounted.push(a)
    })
  }

  private async deletePod(i: number): Promise<boolean> {
    const a = this.cp.actions[i] as DeleteJobPodAction
    return this.send(this.results[i], `pod ${this.cp.namespace}/${a.pod}`, () =>
      this.control.deletePod(this.cp.namespace, a.pod, {uid: a.uid, resourceVersion: this.versions.get(a.uid) ?? a.resourceVersion}),
    )
  }

  /** One pod write: ok, already gone (404, done), changed since planning (409/422: the run stops), or failed. */
  private send(r: ActionResult, what: string, call: () => Promise<void>, onFailure?: () => void): Promise<boolean> {
    return this.run.calls.run(async () => {
      if (this.run.stopReason()) return false
      try {
        await call()
        this.settle(r, 'ok')
        return true
      } catch (e) {
        const error = actionError(e)
        if (error.code === 404) {
          r.done = {alreadyGone: true}
          this.settle(r, 'ok')
          return true
        }
        onFailure?.()
        if (error.code === 409 || error.code === 422) this.conflicted(r, error, `${what} changed since planning`)
        else this.settle(r, 'failed', error)
        return false
      }
    })
  }

  /** A status write over `resourceVersion`; resolves to the version it left, or undefined when it was not written. */
  private async writeStatus(i: number, resourceVersion: string): Promise<string | undefined> {
    const r = this.results[i]
    const halt = this.run.stopReason()
    if (halt) return void (r.skipReason = halt)
    const to = this.adjusted((this.cp.actions[i] as UpdateJobStatusAction).to)
    const object = structuredClone(this.controller.raw) as Obj
    object.metadata = {...(object.metadata ?? {}), resourceVersion}
    object.status = jobStatusObject(to)
    try {
      const written = await this.run.calls.run(() => this.control.updateStatus(this.cp, object))
      r.done = {status: to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
      this.settle(r, 'ok')
      return this.control.dryRun ? resourceVersion : (written.resourceVersion ?? resourceVersion)
    } catch (e) {
      this.statusFailed(r, actionError(e))
      return undefined
    }
  }

  /**
   * The planned status, corrected for what did not happen: creates that made no pod and deletes
   * that deleted none are not active/terminating; a pod whose finalizer stayed stays uncounted,
   * and a Job with an uncounted pod is not finished yet (enactJobFinished waits for it).
   */
  private adjusted(planned: JobStatusView): JobStatusView {
    if (this.missedCreates === 0 && this.missedDeletes === 0 && this.uncounted.length === 0) return planned
    const to: {-readonly [K in keyof JobStatusView]: JobStatusView[K]} = {...planned, active: planned.active - this.missedCreates + this.missedDeletes}
    if (this.missedDeletes > 0 && to.terminating !== undefined) to.terminating = Math.max(0, to.terminating - this.missedDeletes)
    if (this.uncounted.length > 0) {
      const u = {succeeded: [...(planned.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(planned.uncountedTerminatedPods?.failed ?? [])]}
      for (const a of this.uncounted) {
        const list = a.counts === 'succeeded' ? u.succeeded : u.failed
        if (list.includes(a.uid)) continue
        list.push(a.uid)
        if (a.counts === 'succeeded') to.succeeded--
        else to.failed--
      }
      to.uncountedTerminatedPods = u
      to.conditions = planned.conditions.filter((c) => c.type !== 'Complete' && c.type !== 'Failed')
      delete to.completionTime
    }
    return to
  }

  private statusFailed(r: ActionResult, error: ActionError): void {
    if (error.code === 409) this.conflicted(r, error, `${this.label} changed since planning`)
    else this.settle(r, 'failed', error)
  }
}

/** Pods an action takes away (the guards' count): a pod delete. */
export function jobPodDeletes(a: Action): number {
  return a.type === 'deleteJobPod' ? 1 : 0
}

/** A Job that reached its end stops its pods; a pod of a duplicate or invalid index is a stray: not the Job losing it. */
export function jobReplaces(a: Action): boolean {
  return a.type === 'deleteJobPod' && a.reason !== 'suspended' && a.reason !== 'excess'
}
