// One sync of the CronJob controller, carried out as planned (ControllerV2.sync, cleanupFinishedJobs,
// syncCronJob in cronjob_controllerv2.go): the Job deletes (history limits, then Replace), one at a
// time, propagationPolicy Background with the Job's uid as precondition; the Job create by its exact
// name; then one status write, whose `active` names the created Job by the uid and resourceVersion
// the server gave it.
// A Job changed or re-created, or a name taken since planning, stops the run; a Job already gone is
// "already done", as upstream treats it.
import type {Action} from '../../model/plan.js'
import type {CreateJobAction, CronJobStatusView, UpdateCronJobStatusAction} from './model.js'
import type {DeleteJobAction} from '../job/model.js'
import {cronJobJobObject, cronJobStatusObject} from './objects.js'
import {type ControllerObject, actionError} from '../../apply/pod-control.js'
import {SKIP, SyncBase} from '../../apply/sync.js'

type Obj = Record<string, any>

export class CronJobSync extends SyncBase {
  protected async steps(): Promise<void> {
    const controller = await this.readController()
    if (!controller) return
    const ns = this.cp.namespace
    // The created Job's reference in status.active: the server's uid and resourceVersion.
    let created: {name: string; uid: string; resourceVersion: string} | undefined
    for (const [i, a] of this.cp.actions.entries()) {
      const halt = this.run.stopReason()
      if (halt) return this.stop(halt)
      if (this.stopped) return
      const r = this.results[i]
      try {
        created = (await this.run.calls.run(() => this.write(a, controller, created))) ?? created
        this.settle(r, 'ok')
      } catch (e) {
        const error = actionError(e)
        if (a.type === 'deleteJob' && error.code === 404) {
          r.done = {alreadyGone: true}
          this.settle(r, 'ok')
          continue
        }
        // A Job changed or re-created (uid precondition), a name taken since planning, or the CronJob written meanwhile.
        if (error.code === 409 || error.code === 422) this.conflicted(r, error, `${a.type === 'updateStatus' ? this.label : `Job ${ns}/${(a as DeleteJobAction | CreateJobAction).name}`} changed since planning`)
        else this.settle(r, 'failed', error)
        return this.stop(this.run.stopReason() ?? SKIP.afterFailedWrite)
      }
    }
  }

  private async write(a: Action, controller: ControllerObject, created: {name: string; uid: string; resourceVersion: string} | undefined) {
    const ns = this.cp.namespace
    const r = this.results[this.cp.actions.indexOf(a)]
    switch (a.type) {
      case 'deleteJob':
        await this.control.deleteObject('Job', ns, a.name, {uid: a.uid, propagationPolicy: 'Background'})
        return undefined
      case 'createJob': {
        const made = await this.control.createObject(cronJobJobObject(a, ns, controller.raw as Obj))
        r.done = {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
        return {name: made.name, uid: made.uid ?? '', resourceVersion: made.resourceVersion ?? ''}
      }
      case 'updateStatus': {
        const planned = (a as UpdateCronJobStatusAction).to
        const to: CronJobStatusView = {...planned, active: planned.active.map((ref) => (created && ref.name === created.name && ref.uid === '' ? {...ref, uid: created.uid, resourceVersion: created.resourceVersion} : ref))}
        const object = structuredClone(controller.raw) as Obj
        object.metadata = {...(object.metadata ?? {}), resourceVersion: this.cp.resourceVersion}
        object.status = cronJobStatusObject(to)
        const written = await this.control.updateStatus(this.cp, object)
        r.done = {status: to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
        return undefined
      }
      default:
        throw new Error(`internal: ${a.type} is not a CronJob write`)
    }
  }
}
