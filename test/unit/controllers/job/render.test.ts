// The table lines of Job plans that the examples' goldens do not show.
import {describe, expect, it} from 'vitest'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {before, job, jobPod, planObjects} from '../../../helpers/batch.js'

const table = (objects: Record<string, any>[], now?: string) => renderPlanTable(planObjects(objects, now)).split('\n')

describe('Job table lines', () => {
  it('a suspended Job: each pod loses its finalizer, then is deleted, not counted', () => {
    const lines = table([job('s', {suspend: true}, {active: 1, startTime: before(60)}), jobPod('s', 'a')])
    expect(lines).toContain('  ~ remove finalizer of pod a')
    expect(lines).toContain('  - delete pod a  because: the Job is suspended (finalizer removed first: not counted)')
    expect(lines[0]).toBe('Job ns/s  0 active, want 0, suspended')
  })
  it('a finishing Job deletes with the finalizer kept; the backoff and deadline requeues are said', () => {
    expect(table([job('d', {activeDeadlineSeconds: 60}, {active: 1, startTime: before(100)}), jobPod('d', 'a')])).toContain(
      '  - delete pod a  because: the Job is finishing: its active pods go (finalizer kept, so the pod is counted)',
    )
    expect(table([job('b', {}, {startTime: before(60)}), jobPod('b', 'a', {phase: 'Failed', exit: 1, finishedAgo: 5})])).toContain(
      '  … syncs again in 5s (2026-11-23T12:00:05Z), when the pod-failure backoff ends',
    )
  })
  it("a finished Job's leftover finalizer goes through the orphan worker", () => {
    const lines = table([job('f', {}, {succeeded: 1, conditions: [{type: 'SuccessCriteriaMet', status: 'True'}, {type: 'Complete', status: 'True'}]}), jobPod('f', 'a', {phase: 'Succeeded', exit: 0})])
    expect(lines).toContain('  ~ remove finalizer of pod a  (by the orphan worker)')
  })
})
