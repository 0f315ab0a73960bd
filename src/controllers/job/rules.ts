// Rules about Jobs and CronJobs on their own:
//   cronjob-schedule              a schedule the controller cannot parse, or one that never fires;
//   cronjob-time-zone             a timeZone that is no zone name;
//   cronjob-forbid-overlap        Forbid with Jobs allowed to run longer than the time between runs;
//   pod-failure-policy-unmatchable  a podFailurePolicy rule no failed pod can match.
import {CronError, checkZone, parseSchedule} from '../cronjob/cron.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import type {CheckObject} from '../../check/objects.js'

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** The findings for one Job or CronJob. */
export function batchDrafts(o: CheckObject): Draft[] {
  if (o.group !== 'batch' || (o.kind !== 'Job' && o.kind !== 'CronJob')) return []
  const raw = o.src.raw
  const drafts: Draft[] = []
  const jobSpec: Path = o.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : ['spec']
  const draft = (rule: Draft['rule'], path: Path, message: string) => drafts.push({rule, message, subject: o, path, atKey: false})
  if (o.kind === 'CronJob') {
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
  }
  // podFailurePolicy rules that no failed pod can match (matchPodFailurePolicy).
  const containers = new Set(
    [...list(at(raw, [...jobSpec, 'template', 'spec', 'containers'])), ...list(at(raw, [...jobSpec, 'template', 'spec', 'initContainers']))].map((c) => at(c, ['name'])).filter((n) => typeof n === 'string'),
  )
  list(at(raw, [...jobSpec, 'podFailurePolicy', 'rules'])).forEach((rule, i) => {
    const rp: Path = [...jobSpec, 'podFailurePolicy', 'rules', i]
    const codes = at(rule, ['onExitCodes'])
    if (!isMapping(codes)) return
    const values = list(codes.values)
    if (codes.operator === 'In' && values.length > 0 && values.every((v) => v === 0)) {
      draft('pod-failure-policy-unmatchable', [...rp, 'onExitCodes', 'values'], 'onExitCodes In [0] never matches: only containers that exit with a non-zero code are looked at')
    }
    if (typeof codes.containerName === 'string' && !containers.has(codes.containerName)) {
      draft('pod-failure-policy-unmatchable', [...rp, 'onExitCodes', 'containerName'], `containerName ${codes.containerName} names no container of the pod template: the rule never matches`)
    }
  })
  return drafts
}
