// The table view of a CronJob's plan: the header with its active Jobs, one line per write (the Job
// it creates with that Job's first sync under it), the requeue; then the Jobs it owns, each in the
// Job controller's block. CronJobs create Jobs, so this draws with the Job's lines.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../../model/apply.js'
import type {AdoptAction, BatchAction, ControllerPlan, ReleaseAction} from '../../model/plan.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote, indent} from '../../render/plan-lines.js'
import {applyLines as batchApplyLines, batchActionLine, jobHead, renderBatch} from '../job/render.js'

const DELETE_JOB_WORDS: Record<string, string> = {
  replace: 'concurrencyPolicy Replace',
  'history-limit': 'beyond the history limit',
  'ttl-after-finished': 'its ttlSecondsAfterFinished has passed (by the ttl-after-finished controller, propagation Foreground)',
}

/** One line of a CronJob's write (also reconcile's report of it). */
export function cronJobActionLine(a: BatchAction | AdoptAction | ReleaseAction, c: ChalkInstance): string {
  switch (a.type) {
    case 'createJob':
      return c.green(`  + create Job ${a.name}  (scheduled ${a.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? a.scheduledTime})`)
    case 'deleteJob':
      return c.red(`  - delete Job ${a.name}  because: ${DELETE_JOB_WORDS[a.reason]}`)
    default:
      return batchActionLine(a, c)
  }
}

function cronJobHead(cp: ControllerPlan, c: ChalkInstance): string {
  const what = `${cp.active} active ${cp.active === 1 ? 'Job' : 'Jobs'}`
  return `${c.bold(`${cp.kind} ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}  ${what}${cp.rolloutStep ? `, ${cp.rolloutStep}` : ''}`
}

/** A CronJob's block: its writes, a created Job's first sync under the create. */
export function renderCronJob(cp: ControllerPlan, head: string, c: ChalkInstance): string {
  return renderBatch(cp, head, c, cronJobActionLine, (a) =>
    a.type === 'createJob' && cp.then ? cp.then.map((job) => indent(renderBatch(job, `${c.dim('then, in the Job controller\'s first sync of it:')}`, c), '    ')) : [],
  )
}

/** Its block of `kctl plan`'s table, with the Jobs it owns under it. */
export const planBlock = (cp: ControllerPlan, {c, under}: PlanBlockContext): string =>
  [renderCronJob(cp, cronJobHead(cp, c), c), ...under.map((j) => indent(renderBatch(j, jobHead(j, c), c), '  '))].join('\n')

/** A CronJob's Jobs are shown under it, indented, rather than on their own. */
export const showsUnder = {kind: 'Job', uids: (cj: ControllerPlan) => (cj.jobs ?? []).map((j) => j.uid)} as const

/** Its lines of `kctl reconcile`'s report. */
export const applyLines = (r: ActionResult, ctx: ApplyLineContext): string[] | undefined => batchApplyLines(r, ctx, cronJobActionLine)
