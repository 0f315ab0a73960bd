// The CronJob planner against the scenarios of the batch semantics (C1–C14) and the schedule
// grammar it accepts (robfig/cron ParseStandard), each named by its rule (CJ…).
import {describe, expect, it} from 'vitest'
import {CronError, formatInZone, parseSchedule} from '../../../../src/controllers/cronjob/cron.js'
import {formatRfc3339, parseRfc3339} from '../../../../src/reconcile/time.js'
import {childJob, cronJob, planOne, steps} from '../../../helpers/batch.js'

const at = (s: string) => parseRfc3339(s)!
const next = (spec: string, from: string) => formatRfc3339(parseSchedule(spec).next(at(from))!)
const statusTo = (cp: ReturnType<typeof planOne>) => {
  const w = cp.actions.find((a) => a.type === 'updateStatus')
  return w && w.type === 'updateStatus' ? (w.to as Record<string, any>) : undefined
}

describe('CJ4–CJ5 the schedule due, the Job created, the requeue', () => {
  it('C1 (CJ7) the due time names the Job in minutes since the epoch and is annotated in the zone', () => {
    const cp = planOne([cronJob('c1', {}, {}, {creationTimestamp: '2026-11-23T12:00:30Z'})], 'c1', '2026-11-23T12:05:10Z')
    expect(steps(cp)).toEqual(['+job:c1-29923925', 'W'])
    const create = cp.actions[0]
    expect(create.type === 'createJob' && create.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2026-11-23T12:05:00Z')
    expect(statusTo(cp)).toMatchObject({lastScheduleTime: '2026-11-23T12:05:00Z'})
    expect(statusTo(cp)!.active.map((r: {name: string}) => r.name)).toEqual(['c1-29923925'])
    expect(cp.requeue).toMatchObject({seconds: 290.1, reason: 'next-schedule'})
  })
  it('C2 nothing due: a requeue at the next time', () => {
    const cp = planOne([cronJob('c2', {}, {}, {creationTimestamp: '2026-11-23T12:01:00Z'})], 'c2', '2026-11-23T12:03:00Z')
    expect(cp.actions).toEqual([])
    expect(cp.requeue?.seconds).toBe(120.1)
  })
  it('C3 (CJ3.8) a schedule older than startingDeadlineSeconds is not started', () => {
    const cp = planOne([cronJob('c3', {startingDeadlineSeconds: 10}, {}, {creationTimestamp: '2026-11-23T12:01:00Z'})], 'c3', '2026-11-23T12:05:30Z')
    expect(cp.actions).toEqual([])
    expect(cp.requeue?.seconds).toBe(270.1)
  })
  it('C3b within startingDeadlineSeconds it is', () => {
    const cp = planOne([cronJob('c3', {startingDeadlineSeconds: 60}, {}, {creationTimestamp: '2026-11-23T12:01:00Z'})], 'c3', '2026-11-23T12:05:30Z')
    expect(steps(cp)).toEqual(['+job:c3-29923925', 'W'])
    expect(cp.requeue?.seconds).toBe(270.1)
  })
  it('C4 (CJ4) more than 100 missed: the TooManyMissedTimes event, and only the latest time is started', () => {
    const cp = planOne([cronJob('c4', {schedule: '* * * * *'}, {lastScheduleTime: '2026-11-23T09:00:00Z'})], 'c4', '2026-11-23T12:00:20Z')
    expect(steps(cp)).toEqual(['+job:c4-29923920', 'W'])
    expect(cp.events).toContain('Warning TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew')
    expect(cp.requeue?.seconds).toBe(40.1)
  })
  it('C4b a few missed: no warning', () => {
    const cp = planOne([cronJob('c4', {schedule: '* * * * *'}, {lastScheduleTime: '2026-11-23T11:55:00Z'})], 'c4', '2026-11-23T12:00:20Z')
    expect(steps(cp)).toEqual(['+job:c4-29923920', 'W'])
    expect(cp.warnings).toEqual([])
    expect(cp.events!.join(' ')).not.toMatch(/TooManyMissedTimes/)
  })
  it('C9 (CJ7) a timeZone: the wall clock of the zone decides; the name is still UTC minutes', () => {
    const cp = planOne([cronJob('c9', {schedule: '0 9 * * *', timeZone: 'America/New_York'}, {lastScheduleTime: '2026-11-22T14:00:00Z'})], 'c9', '2026-11-23T14:00:05Z')
    expect(steps(cp)).toEqual(['+job:c9-29924040', 'W'])
    const create = cp.actions[0]
    expect(create.type === 'createJob' && create.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2026-11-23T09:00:00-05:00')
    expect(cp.requeue?.seconds).toBe(86395.1)
  })
  it('C12 @every 2h counts from the last time (the creation time here)', () => {
    const cp = planOne([cronJob('c12', {schedule: '@every 2h'}, {}, {creationTimestamp: '2026-11-23T11:59:00Z'})], 'c12', '2026-11-23T14:00:30Z')
    expect(steps(cp)).toEqual(['+job:c12-29924039', 'W'])
    expect(cp.requeue?.at).toBe('2026-11-23T15:59:00.1Z')
  })
  it('C13 a TZ prefix in the schedule still works, with a warning', () => {
    const cp = planOne([cronJob('c13', {schedule: 'CRON_TZ=UTC */5 * * * *'}, {}, {creationTimestamp: '2026-11-23T12:00:30Z'})], 'c13', '2026-11-23T12:05:10Z')
    expect(steps(cp)).toEqual(['+job:c13-29923925', 'W'])
    expect(cp.warnings.join(' ')).toMatch(/UnsupportedSchedule/)
  })
  it('C11 an unparseable schedule: a warning, nothing else, no requeue', () => {
    const cp = planOne([cronJob('c11', {schedule: '61 * * * *'})], 'c11')
    expect(cp.actions).toEqual([])
    expect(cp.requeue).toBeUndefined()
    expect(cp.warnings.join(' ')).toMatch(/UnparseableSchedule/)
  })
  it('C7 suspended: nothing, no requeue', () => {
    const cp = planOne([cronJob('c7', {suspend: true}, {}, {creationTimestamp: '2026-11-23T12:00:30Z'})], 'c7', '2026-11-23T12:05:10Z')
    expect(cp.actions).toEqual([])
    expect(cp.requeue).toBeUndefined()
  })
  it('CJ3.4 an unknown timeZone: nothing, with a warning', () => {
    const cp = planOne([cronJob('tz', {timeZone: 'Mars/Olympus'})], 'tz')
    expect(cp.actions).toEqual([])
    expect(cp.warnings.join(' ')).toMatch(/unknown timeZone/)
  })
  it('CJ3.7 a schedule that never fires is an invalid schedule', () => {
    const cp = planOne([cronJob('feb', {schedule: '0 0 31 2 *'})], 'feb')
    expect(cp.actions).toEqual([])
    expect(cp.warnings.join(' ')).toMatch(/InvalidSchedule/)
  })
})

describe('CJ3 concurrencyPolicy and the children', () => {
  const running = childJob('cj', 'cj-29923920', {started: '2026-11-23T12:00:01Z'})
  const status = {lastScheduleTime: '2026-11-23T12:00:00Z', active: [{name: 'cj-29923920', uid: 'uid-cj-29923920', kind: 'Job', namespace: 'ns', apiVersion: 'batch/v1'}]}
  it('C5 Forbid with a Job running: no create, no write', () => {
    const cp = planOne([cronJob('cj', {concurrencyPolicy: 'Forbid'}, status), running], 'cj', '2026-11-23T12:05:01Z')
    expect(cp.actions).toEqual([])
    expect(cp.events?.join(' ')).toMatch(/JobAlreadyActive/)
    expect(cp.requeue?.seconds).toBe(299.1)
  })
  it('C6 Replace deletes the running Job (Background) and creates the new one', () => {
    const cp = planOne([cronJob('cj', {concurrencyPolicy: 'Replace'}, status), running], 'cj', '2026-11-23T12:05:01Z')
    expect(steps(cp)).toEqual(['-job:cj-29923920', '+job:cj-29923925', 'W'])
    expect(statusTo(cp)!.active.map((r: {name: string}) => r.name)).toEqual(['cj-29923925'])
  })
  it('C6b Allow keeps both', () => {
    const cp = planOne([cronJob('cj', {}, status), running], 'cj', '2026-11-23T12:05:01Z')
    expect(statusTo(cp)!.active.map((r: {name: string}) => r.name)).toEqual(['cj-29923920', 'cj-29923925'])
  })
  it('C8 (CJ6) history limits: oldest finished first, Jobs without startTime kept; lastSuccessfulTime is the latest completion', () => {
    const done = (n: string, h: number) => childJob('h', n, {started: `2026-11-23T0${h}:00:00Z`, complete: `2026-11-23T0${h}:01:00Z`})
    const cp = planOne(
      [
        cronJob('h', {schedule: '0 * * * *'}, {lastScheduleTime: '2026-11-23T11:00:00Z'}),
        done('s1', 6),
        done('s2', 7),
        done('s3', 8),
        done('s4', 9),
        childJob('h', 's5', {complete: '2026-11-23T05:00:00Z'}),
        childJob('h', 'f1', {started: '2026-11-23T10:00:00Z', failed: true}),
        childJob('h', 'f2', {started: '2026-11-23T11:00:00Z', failed: true}),
      ],
      'h',
      '2026-11-23T11:30:00Z',
    )
    expect(steps(cp)).toEqual(['-job:s1', '-job:s2', '-job:f1', 'W'])
    expect(statusTo(cp)!.lastSuccessfulTime).toBe('2026-11-23T09:01:00Z')
    expect(cp.requeue?.seconds).toBe(1800.1)
  })
  it('C10 a completed child leaves active; a missing one too', () => {
    const cp = planOne(
      [
        cronJob('m', {}, {lastScheduleTime: '2026-11-23T12:00:00Z', active: [{name: 'm-1', uid: 'uid-m-1'}, {name: 'gone', uid: 'uid-gone'}]}),
        childJob('m', 'm-1', {started: '2026-11-23T12:00:01Z', complete: '2026-11-23T12:00:30Z'}),
      ],
      'm',
      '2026-11-23T12:01:00Z',
    )
    expect(steps(cp)).toEqual(['W'])
    expect(statusTo(cp)).toMatchObject({active: [], lastSuccessfulTime: '2026-11-23T12:00:30Z'})
    expect(cp.events?.join(' ')).toMatch(/SawCompletedJob.*MissingJob/)
  })
  it('C14 an unfinished child missing from active is not taken in', () => {
    const cp = planOne([cronJob('u', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'}), childJob('u', 'u-x')], 'u', '2026-11-23T12:01:00Z')
    expect(cp.actions).toEqual([])
    expect(cp.warnings.join(' ')).toMatch(/UnexpectedJob/)
  })
  // CJ3.12: whoever holds the due name, the create fails (AlreadyExists), the read of the existing
  // Job goes without a namespace and fails NotFound, and the sync ends in that error.
  const retries = {reason: 'retries-until-next-schedule', at: '2026-11-23T12:10:28.675Z', seconds: 327.675}
  it('CJ3.12 a Job of the due name that the CronJob controls but does not list is not taken in: no write, retried with backoff', () => {
    const cp = planOne([cronJob('cj', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'}), childJob('cj', 'cj-29923925')], 'cj', '2026-11-23T12:05:01Z')
    expect(steps(cp)).toEqual([])
    expect(cp.inSync).toBe(true)
    expect(cp.status).toEqual({lastScheduleTime: '2026-11-23T12:00:00Z', active: []})
    expect(cp.events).toBeUndefined()
    // 5 ms · (2^16 − 1) = 327.675 s: the first retry at or after 12:10:00.
    expect(cp.requeue).toEqual(retries)
    expect(cp.rolloutStep).toBe('2026-11-23T12:05:00Z: create of Job cj-29923925 refused (AlreadyExists), retried with backoff')
    expect(cp.warnings).toHaveLength(2)
    expect(cp.warnings[0]).toMatch(/UnexpectedJob/)
    expect(cp.warnings[1]).toMatch(/^Job cj-29923925 exists \(this CronJob's, not in status\.active\): the create fails with AlreadyExists, .* fails NotFound, .* not taken in, status\.active and lastScheduleTime stay; the queue retries with backoff \(5 ms, doubling to 1000 s\), each retry refused the same way, until the first retry after the next schedule time \(2026-11-23T12:10:28\.675Z/)
    expect(cp.assumes).toEqual(["the queue's backoff for this CronJob starts at this sync (its failure count is the controller's memory)"])
  })
  it('CJ3.12 with the due Job not taken in, only what cleanup changed is written: a finished child leaves active, lastScheduleTime stays', () => {
    const cp = planOne(
      [
        cronJob('cj', {}, {lastScheduleTime: '2026-11-23T12:00:00Z', active: [{name: 'cj-29923920', uid: 'uid-cj-29923920'}]}),
        childJob('cj', 'cj-29923920', {started: '2026-11-23T12:00:01Z', complete: '2026-11-23T12:01:00Z'}),
        childJob('cj', 'cj-29923925'),
      ],
      'cj',
      '2026-11-23T12:05:01Z',
    )
    expect(steps(cp)).toEqual(['W'])
    expect(statusTo(cp)).toEqual({active: [], lastScheduleTime: '2026-11-23T12:00:00Z', lastSuccessfulTime: '2026-11-23T12:01:00Z'})
    expect(cp.events).toEqual(['Normal SawCompletedJob: Saw completed job: cj-29923920, condition: Complete'])
    expect(cp.requeue).toEqual(retries)
  })
  it('CJ3.12 the controller adopts no orphan Job: one of the due name ends the sync in the same error, retried with backoff', () => {
    const orphan = childJob('o', 'o-29923925', {started: '2026-11-23T12:05:00Z'})
    orphan.metadata.ownerReferences = []
    const cp = planOne([cronJob('o', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'}), orphan], 'o', '2026-11-23T12:05:01Z')
    expect(steps(cp)).toEqual([])
    expect(cp.requeue).toEqual(retries)
    expect(cp.warnings.join(' ')).toMatch(/Job o-29923925 exists \(an orphan, never adopted\): the create fails with AlreadyExists/)
    expect(cp.warnings.join(' ')).not.toMatch(/waits for the next event/)
  })
  it('CJ3.12 a Replace delete before the failed create is still written', () => {
    const orphan = childJob('cj', 'cj-29923925')
    orphan.metadata.ownerReferences = [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'other', uid: 'uid-other', controller: true}]
    const cp = planOne([cronJob('cj', {concurrencyPolicy: 'Replace'}, status), running, orphan], 'cj', '2026-11-23T12:05:01Z')
    expect(steps(cp)).toEqual(['-job:cj-29923920', 'W'])
    expect(statusTo(cp)!.active).toEqual([])
    expect(statusTo(cp)!.lastScheduleTime).toBe('2026-11-23T12:00:00Z')
    expect(cp.warnings.join(' ')).toMatch(/controlled by CronJob other/)
    expect(cp.requeue).toEqual(retries)
  })
  it('C16c (CJ3.12, CJ6) a finished Job of the due name that the history limit deletes first no longer holds the name: the create goes through', () => {
    const holder = childJob('cj', 'cj-29923925', {started: '2026-11-23T12:05:00Z', complete: '2026-11-23T12:05:00Z'})
    const cp = planOne([cronJob('cj', {successfulJobsHistoryLimit: 0}, {lastScheduleTime: '2026-11-23T12:00:00Z'}), holder], 'cj', '2026-11-23T12:05:01Z')
    expect(steps(cp)).toEqual(['-job:cj-29923925', '+job:cj-29923925', 'W'])
    expect(cp.requeue?.reason).toBe('next-schedule')
  })
  it('CJ3.12 the retries are at most 1000 s apart: a yearly schedule is retried within 1000 s after its next time', () => {
    const cp = planOne([cronJob('y', {schedule: '0 0 1 1 *'}, {lastScheduleTime: '2025-01-01T00:00:00Z'}), childJob('y', `y-${Date.parse('2026-01-01T00:00:00Z') / 60_000}`)], 'y', '2026-11-23T12:05:01Z')
    expect(cp.requeue?.reason).toBe('retries-until-next-schedule')
    const at = Date.parse(cp.requeue!.at)
    expect(at).toBeGreaterThanOrEqual(Date.parse('2027-01-01T00:00:00Z'))
    expect(at - Date.parse('2027-01-01T00:00:00Z')).toBeLessThan(1_000_000)
  })
  it('CJ7 the created Job is planned next: its first pods', () => {
    const cp = planOne([cronJob('t', {}, {}, {creationTimestamp: '2026-11-23T12:00:30Z'})], 't', '2026-11-23T12:05:10Z')
    expect(cp.then?.[0]).toMatchObject({kind: 'Job', name: 't-29923925'})
    expect(steps(cp.then![0])).toEqual(['+pod:t-29923925-', 'W1'])
  })
})

describe('CJ3.6 the schedule grammar (robfig/cron ParseStandard)', () => {
  it('fields: lists, ranges, steps, names, ? and N/step', () => {
    expect(next('*/15 * * * *', '2026-11-23T12:07:00Z')).toBe('2026-11-23T12:15:00Z')
    expect(next('5,35 9-17 * * mon-fri', '2026-11-21T18:00:00Z')).toBe('2026-11-23T09:05:00Z') // Saturday → Monday
    expect(next('0 0 1 jan ?', '2026-11-23T00:00:00Z')).toBe('2027-01-01T00:00:00Z')
    expect(next('10/20 * * * *', '2026-11-23T12:31:00Z')).toBe('2026-11-23T12:50:00Z')
  })
  it('day of month and day of week: either matches when both are restricted, both when one is *', () => {
    expect(next('0 0 13 * 5', '2026-11-01T00:00:00Z')).toBe('2026-11-06T00:00:00Z') // Friday 6th before the 13th
    expect(next('0 0 * * 5', '2026-11-01T00:00:00Z')).toBe('2026-11-06T00:00:00Z')
  })
  it('descriptors', () => {
    expect(next('@hourly', '2026-11-23T12:07:00Z')).toBe('2026-11-23T13:00:00Z')
    expect(next('@daily', '2026-11-23T12:07:00Z')).toBe('2026-11-24T00:00:00Z')
    expect(next('@weekly', '2026-11-23T12:07:00Z')).toBe('2026-11-29T00:00:00Z')
    expect(next('@monthly', '2026-11-23T12:07:00Z')).toBe('2026-12-01T00:00:00Z')
    expect(next('@yearly', '2026-11-23T12:07:00Z')).toBe('2027-01-01T00:00:00Z')
    expect(next('@every 90m', '2026-11-23T12:07:00.5Z')).toBe('2026-11-23T13:37:00Z')
  })
  it('refuses what the parser refuses', () => {
    for (const bad of ['61 * * * *', '* * * *', '* * * * 7', '*/0 * * * *', '@every x', '@often', '5-1 * * * *']) expect(() => parseSchedule(bad), bad).toThrow(CronError)
  })
  it('a zone: wall-clock times, across a daylight-saving change', () => {
    expect(next('TZ=America/New_York 0 9 * * *', '2026-11-01T12:00:00Z')).toBe('2026-11-01T14:00:00Z') // EST, the day DST ends
    expect(next('TZ=Europe/Berlin 30 2 * * *', '2026-03-28T12:00:00Z')).toBe('2026-03-30T00:30:00Z') // 02:30 does not exist on the 29th: skipped
    expect(formatInZone(at('2026-07-01T13:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01T15:00:00+02:00')
  })
})

describe('CJ4 the schedule time is due at its exact second (mostRecentScheduleTime)', () => {
  it('now exactly at the next schedule time: that time is due', () => {
    const cp = planOne([cronJob('b1', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'})], 'b1', '2026-11-23T12:05:00Z')
    expect(steps(cp)).toEqual(['+job:b1-29923925', 'W'])
    expect(cp.requeue?.at).toBe('2026-11-23T12:10:00.1Z')
  })
  it('one second before it: nothing is due, the requeue is 1.1 s away', () => {
    const cp = planOne([cronJob('b2', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'})], 'b2', '2026-11-23T12:04:59Z')
    expect(cp.actions).toEqual([])
    expect(cp.requeue?.seconds).toBe(1.1)
  })
  it('several missed, now exactly at the latest: the latest is the one started', () => {
    const cp = planOne([cronJob('b3', {}, {lastScheduleTime: '2026-11-23T11:40:00Z'})], 'b3', '2026-11-23T12:05:00Z')
    expect(steps(cp)).toEqual(['+job:b3-29923925', 'W'])
  })
  it('more than 100 missed, now exactly at the latest: the latest is the one started', () => {
    const cp = planOne([cronJob('b4', {schedule: '* * * * *'}, {lastScheduleTime: '2026-11-23T09:00:00Z'})], 'b4', '2026-11-23T12:00:00Z')
    expect(steps(cp)).toEqual(['+job:b4-29923920', 'W'])
  })
  it('startingDeadlineSeconds: a schedule time exactly that old no longer counts (the search starts after now − deadline)', () => {
    const cp = planOne([cronJob('b5', {startingDeadlineSeconds: 10}, {lastScheduleTime: '2026-11-23T12:00:00Z'})], 'b5', '2026-11-23T12:05:09Z')
    expect(steps(cp)).toEqual(['+job:b5-29923925', 'W'])
    const late = planOne([cronJob('b6', {startingDeadlineSeconds: 10}, {lastScheduleTime: '2026-11-23T12:00:00Z'})], 'b6', '2026-11-23T12:05:10Z')
    expect(late.actions).toEqual([])
  })
})
