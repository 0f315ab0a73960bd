// What `kctl check` knows about CronJobs: their pod template's labels (a CronJob has no selector of
// its own), and
//   cronjob-schedule              a schedule the controller cannot parse, or one that never fires;
//   cronjob-time-zone             a timeZone that is no zone name;
//   cronjob-forbid-overlap        Forbid with Jobs allowed to run longer than the time between runs;
//   pod-failure-policy-unmatchable  (its Jobs' podFailurePolicy, the Job controller's rule);
// and invalid-field's checks of its fields.
import {CronError, checkZone, parseSchedule} from './cron.js'
import {jobSpec, podFailurePolicyDrafts} from '../job/rules.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import {isMapping, stringMap, type CheckObject} from '../../check/objects.js'
import {INT32_MAX, metadata, oneOf, specOf} from '../../check/fields.js'
import type {ControllerChecks} from '../../check/part.js'
import type {Ctx} from '../../sources/normalize.js'

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** The findings for one CronJob. */
function cronJobDrafts(o: CheckObject): Draft[] {
  const raw = o.src.raw
  const drafts: Draft[] = []
  const jobSpec: Path = ['spec', 'jobTemplate', 'spec']
  const draft = (rule: Draft['rule'], path: Path, message: string) => drafts.push({rule, message, subject: o, path, atKey: false})
  const schedule = at(raw, ['spec', 'schedule'])
  const zone = at(raw, ['spec', 'timeZone'])
  let zoneOk = true
  if (typeof zone === 'string') {
    try {
      checkZone(zone)
    } catch {
      zoneOk = false
      draft('cronjob-time-zone', ['spec', 'timeZone'], `timeZone ${JSON.stringify(zone)} is not a time zone name (an IANA name like Europe/Berlin): the controller records UnknownTimeZone and never starts a Job`)
    }
  }
  if (typeof schedule === 'string' && zoneOk) {
    try {
      const s = parseSchedule(typeof zone === 'string' && !/TZ/.test(schedule) ? `TZ=${zone} ${schedule}` : schedule)
      const t1 = s.next(0n)
      const t2 = t1 === undefined ? undefined : s.next(t1)
      if (t2 === undefined) draft('cronjob-schedule', ['spec', 'schedule'], `schedule ${JSON.stringify(schedule)} never fires (no such date within five years): the controller records InvalidSchedule`)
      else {
        // The shortest time between two runs over a year decides whether a Forbid Job can overlap the next run.
        let shortest = t2 - t1!
        for (let t = t2, i = 0; i < 2000; i++) {
          const n = s.next(t)
          if (n === undefined || n > 366n * 86_400_000_000_000n) break
          if (n - t < shortest) shortest = n - t
          t = n
        }
        const deadline = at(raw, [...jobSpec, 'activeDeadlineSeconds'])
        if (at(raw, ['spec', 'concurrencyPolicy']) === 'Forbid' && typeof deadline === 'number' && BigInt(deadline) * 1_000_000_000n > shortest) {
          draft(
            'cronjob-forbid-overlap',
            [...jobSpec, 'activeDeadlineSeconds'],
            `a Job may run ${deadline} s, longer than the ${Number(shortest / 1_000_000_000n)} s between runs: with concurrencyPolicy Forbid, a run that is due while one is active is skipped (JobAlreadyActive)`,
          )
        }
      }
    } catch (error) {
      if (!(error instanceof CronError)) throw error
      draft('cronjob-schedule', ['spec', 'schedule'], `schedule ${JSON.stringify(schedule)} cannot be parsed (${error.message}): the controller records UnparseableSchedule and never starts a Job`)
    }
  }

  drafts.push(...podFailurePolicyDrafts(o, jobSpec))
  return drafts
}

/** Its Jobs' pod template: the labels their pods get. */
function readCronJob(obj: CheckObject, spec: RawObject | undefined): void {
  const jobSpec = isMapping(spec?.jobTemplate) && isMapping(spec.jobTemplate.spec) ? spec.jobTemplate.spec : undefined
  const template = jobSpec && isMapping(jobSpec.template) ? jobSpec.template : undefined
  if (template) {
    obj.podLabels = stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined)
    obj.podLabelsPath = ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels']
  }
}

/** invalid-field: a CronJob's fields (its Job template's are the Job's). */
function cronJob(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  const schedule = ctx.string(spec.schedule, ['spec', 'schedule'])
  if (schedule === undefined || schedule.trim() === '') ctx.fail(['spec', 'schedule'], 'a schedule is required')
  if (spec.concurrencyPolicy !== undefined) oneOf(ctx, spec.concurrencyPolicy, ['spec', 'concurrencyPolicy'], ['Allow', 'Forbid', 'Replace'])
  ctx.bool(spec.suspend, ['spec', 'suspend'])
  ctx.int(spec.successfulJobsHistoryLimit, ['spec', 'successfulJobsHistoryLimit'], 0, INT32_MAX)
  ctx.int(spec.failedJobsHistoryLimit, ['spec', 'failedJobsHistoryLimit'], 0, INT32_MAX)
  const jt = ctx.mapping(spec.jobTemplate, ['spec', 'jobTemplate'])
  if (!jt) {
    if (spec.jobTemplate === undefined || spec.jobTemplate === null) ctx.fail(['spec', 'jobTemplate'], 'a job template is required')
    return
  }
  jobSpec(ctx, ctx.mapping(jt.spec, ['spec', 'jobTemplate', 'spec']) ?? {}, ['spec', 'jobTemplate', 'spec'])
}

export const cronJobChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'CronJob',
      groups: ['batch'],
      read: readCronJob,
      podTemplate: ['spec', 'jobTemplate', 'spec', 'template'],
      drafts: cronJobDrafts,
      validate: cronJob,
    },
  ],
}
