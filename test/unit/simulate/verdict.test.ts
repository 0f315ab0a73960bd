// A rollout's verdict from what the simulation saw at each instant (simulate/verdict.ts), and the
// exit code `kctl simulate --detailed-exitcode` gives for the verdicts.
import {describe, expect, it} from 'vitest'

import {detailedExitCode} from '../../../src/commands/simulate.js'
import type {Simulation} from '../../../src/model/simulation.js'
import {seconds} from '../../../src/reconcile/time.js'
import {aboveBound, belowBound, RolloutWatch, verdictPasses, type LoopEnd} from '../../../src/simulate/verdict.js'

const START = seconds(1_700_000_000)
const at = (s: number) => START + seconds(s)
const quietAt = (s: number): LoopEnd => ({start: START, end: at(s), endedBy: 'quiet'})

function watched(samples: Array<[number, {complete: boolean; terminating: number; deadlineExceeded?: boolean}]>): RolloutWatch {
  const w = new RolloutWatch()
  for (const [t, s] of samples) w.sample('uid', at(t), s)
  return w
}

describe('RolloutWatch', () => {
  it('complete since the first instant of the last complete stretch; the old pods gone at the first instant none terminates', () => {
    const w = watched([
      [0, {complete: false, terminating: 0}],
      [10, {complete: true, terminating: 1}],
      [20, {complete: false, terminating: 1}],
      [30, {complete: true, terminating: 2}],
      [40, {complete: true, terminating: 1}],
      [60, {complete: true, terminating: 0}],
    ])
    expect(w.verdict('uid', quietAt(60), 'x', [])).toEqual({result: 'complete', completeAtSeconds: 30, podsGoneAtSeconds: 60, boundsBroken: [], text: 'complete at t+30s (pods gone at t+1m)'})
  })

  it('complete with nothing terminating: no pods-gone time', () => {
    const w = watched([[0, {complete: true, terminating: 0}]])
    expect(w.verdict('uid', quietAt(0), 'x', [])).toEqual({result: 'complete', completeAtSeconds: 0, boundsBroken: [], text: 'complete at t+0s'})
  })

  it('complete, but pods still terminating at --until', () => {
    const w = watched([[5, {complete: true, terminating: 2}]])
    const v = w.verdict('uid', {start: START, end: at(8), endedBy: 'until'}, 'x', [])
    expect(v).toEqual({result: 'complete', completeAtSeconds: 5, boundsBroken: [], text: 'complete at t+5s (2 pods still terminating)'})
    expect(verdictPasses(v)).toBe(true)
  })

  it('stalled: where it ended, and why the clock stopped', () => {
    const w = watched([[0, {complete: false, terminating: 0}]])
    expect(w.verdict('uid', {start: START, end: at(60), endedBy: 'until'}, '2 of 4 updated, 3 available', [])).toEqual({
      result: 'stalled',
      boundsBroken: [],
      text: 'stalled at t+1m (--until): 2 of 4 updated, 3 available',
    })
    expect(w.verdict('uid', quietAt(30), '1 of 3 updated', []).text).toBe('stalled at t+30s (nothing left to happen): 1 of 3 updated')
    expect(verdictPasses(w.verdict('uid', quietAt(30), '', []))).toBe(false)
  })

  it('ProgressDeadlineExceeded since it was first reported, over complete or stalled', () => {
    const w = watched([
      [0, {complete: false, terminating: 0}],
      [601, {complete: false, terminating: 0, deadlineExceeded: true}],
      [700, {complete: false, terminating: 0, deadlineExceeded: true}],
    ])
    const v = w.verdict('uid', quietAt(700), '2 of 4 updated, 3 available', [])
    expect(v).toEqual({result: 'progressDeadlineExceeded', deadlineExceededAtSeconds: 601, boundsBroken: [], text: 'ProgressDeadlineExceeded at t+10m1s: 2 of 4 updated, 3 available'})
    expect(verdictPasses(v)).toBe(false)
    // Progress again (the condition gone): no longer exceeded.
    w.sample('uid', at(800), {complete: true, terminating: 0})
    expect(w.verdict('uid', quietAt(800), '', []).result).toBe('complete')
  })

  it('a bound broken: said after the verdict, and the verdict does not pass', () => {
    const broken = [...belowBound('min available', 2, 3, false), ...aboveBound('max pods', 6, 5)]
    expect(broken).toEqual(['min available 2 < 3', 'max pods 6 > 5'])
    const v = watched([[0, {complete: true, terminating: 0}]]).verdict('uid', quietAt(0), '', broken)
    expect(v.text).toBe('complete at t+0s; bounds broken: min available 2 < 3, max pods 6 > 5')
    expect(verdictPasses(v)).toBe(false)
    expect([...belowBound('min available', 3, 3, true), ...aboveBound('max pods', 5, 5), ...aboveBound('max pods', 6, 5, true)]).toEqual([])
  })
})

describe('--detailed-exitcode', () => {
  const sim = (steps: number, incomplete: string[]) => ({summary: {steps, incomplete}}) as unknown as Simulation
  it('0 complete and nothing done, 2 complete with changes, 3 a rollout not complete (with or without changes)', () => {
    expect(detailedExitCode(sim(0, []))).toBe(0)
    expect(detailedExitCode(sim(5, []))).toBe(2)
    expect(detailedExitCode(sim(5, ['Deployment a/b']))).toBe(3)
    expect(detailedExitCode(sim(0, ['StatefulSet a/b']))).toBe(3)
  })
})
