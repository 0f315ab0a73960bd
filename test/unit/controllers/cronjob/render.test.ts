// The table lines of CronJob plans that the examples' goldens do not show.
import {describe, expect, it} from 'vitest'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {childJob, cronJob, planObjects} from '../../../helpers/batch.js'

const table = (objects: Record<string, any>[], now?: string) => renderPlanTable(planObjects(objects, now)).split('\n')

describe('CronJob table lines', () => {
  it('a CronJob with nothing due says when it runs next', () => {
    const lines = table([cronJob('c', {}, {}, {creationTimestamp: '2026-11-23T12:01:00Z'})], '2026-11-23T12:03:00Z')
    expect(lines[0]).toBe('CronJob ns/c  0 active Jobs, next run 2026-11-23T12:05:00Z  (in sync)')
    expect(lines[1]).toBe('  … syncs again in 2m0.1s (2026-11-23T12:05:00.1Z), at the next schedule time')
  })
  it('a due Job whose name is taken: the refused create and the retries', () => {
    const lines = table([cronJob('c', {}, {lastScheduleTime: '2026-11-23T12:00:00Z'}), childJob('c', 'c-29923925')], '2026-11-23T12:05:01Z')
    expect(lines[0]).toBe('CronJob ns/c  0 active Jobs, 2026-11-23T12:05:00Z: create of Job c-29923925 refused (AlreadyExists), retried with backoff  (in sync)')
    expect(lines.join('\n')).toContain("… syncs again in 5m27.7s (2026-11-23T12:10:28.675Z), at the first of the queue's retries after the next schedule time (the sync ends in an error; retries come 5 ms, 10 ms, 20 ms … at most 1000 s apart, and each one before then ends in the same error)")
  })
})
