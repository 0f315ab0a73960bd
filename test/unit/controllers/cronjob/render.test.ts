// The table lines of CronJob plans that the examples' goldens do not show.
import {describe, expect, it} from 'vitest'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {cronJob, planObjects} from '../../../helpers/batch.js'

const table = (objects: Record<string, any>[], now?: string) => renderPlanTable(planObjects(objects, now)).split('\n')

describe('CronJob table lines', () => {
  it('a CronJob with nothing due says when it runs next', () => {
    const lines = table([cronJob('c', {}, {}, {creationTimestamp: '2026-11-23T12:01:00Z'})], '2026-11-23T12:03:00Z')
    expect(lines[0]).toBe('CronJob ns/c  0 active Jobs, next run 2026-11-23T12:05:00Z  (in sync)')
    expect(lines[1]).toBe('  … syncs again in 2m0.1s (2026-11-23T12:05:00.1Z), at the next schedule time')
  })
})
