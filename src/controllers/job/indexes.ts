// Completion indexes of Indexed Jobs (pkg/controller/job/indexed_job_utils.go): the pod's index,
// and the interval strings of status.completedIndexes / failedIndexes.
import {JOB_COMPLETION_INDEX} from './model.js'
import type {PodView} from '../../model/objects.js'

export interface Interval {
  first: number
  last: number
}

/** getCompletionIndex: the annotation as a non-negative decimal, -1 when missing or invalid. */
export function completionIndex(pod: PodView): number {
  const v = pod.annotations[JOB_COMPLETION_INDEX]
  if (v === undefined || !/^\+?\d+$/.test(v)) return -1
  const n = Number(v)
  return n > 2147483647 ? -1 : n
}

/**
 * parseIndexesFromString: parts that do not parse are skipped, parsing stops at the first part that
 * starts at or beyond `completions`, ends are clipped, and a part starting right after the previous
 * one merges into it (parts are not re-sorted).
 */
export function parseIndexes(s: string | undefined, completions: number): Interval[] {
  const out: Interval[] = []
  if (!s) return out
  for (const part of s.split(',')) {
    const bounds = part.split('-')
    const num = (x: string | undefined) => (x !== undefined && /^\d+$/.test(x) ? Number(x) : undefined)
    const first = num(bounds[0])
    if (first === undefined || bounds.length > 2) continue
    let last = first
    if (bounds.length === 2) {
      const l = num(bounds[1])
      if (l === undefined) continue
      last = l
    }
    if (first >= completions) break
    last = Math.min(last, completions - 1)
    const prev = out.at(-1)
    if (prev && prev.last + 1 === first) prev.last = last
    else out.push({first, last})
  }
  return out
}

/** orderedIntervals.String: runs of three or more as `a-b`, of two as `a,b`. */
export function formatIndexes(set: ReadonlySet<number>): string {
  const sorted = [...set].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++
    if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`)
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]))
    i = j + 1
  }
  return parts.join(',')
}

export function intervalSet(intervals: readonly Interval[]): Set<number> {
  const out = new Set<number>()
  for (const {first, last} of intervals) for (let i = first; i <= last; i++) out.add(i)
  return out
}
