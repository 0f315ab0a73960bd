// Helpers the controllers' report parts share (render/simulation.ts lays the report out; each
// controller's simulate.ts writes its timelines' lines with these).
import type {WorkloadObserved} from '../model/simulation.js'
import {formatDuration} from '../watch/duration.js'

/** `t+0s`, `t+1m30s`. */
export function offset(seconds: number): string {
  return `t+${seconds === 0 ? '0s' : formatDuration(seconds * 1000)}`
}

/** `3 (≥ 3)`: a lower bound, and whether it was broken. */
export function lowerBound(observed: number, limit: number, ok: boolean): string {
  return `${observed} (≥ ${limit}${ok ? '' : ': broken'})`
}

/** `5 (≤ 5)`: an upper bound, and whether it was broken. */
export function upperBound(observed: number, limit: number, ok = observed <= limit): string {
  return `${observed} (≤ ${limit}${ok ? '' : ': broken'})`
}

/** Availability never went below the bound, or below where it started when it started below. */
export function availabilityKept(d: {observed: {minAvailable: number; startAvailable: number}; bounds: {minAvailable: number}}): boolean {
  return d.observed.minAvailable >= Math.min(d.bounds.minAvailable, d.observed.startAvailable)
}

/** A workload's timeline (Deployment, StatefulSet or DaemonSet), as far as its bounds lines read it. */
interface SetTimeline {
  observed: WorkloadObserved
  bounds: {minAvailable: number; maxPods: number; maxUnavailable: number}
}

export function minAvailableLine(d: SetTimeline, of: string): string {
  return `  min available ${lowerBound(d.observed.minAvailable, d.bounds.minAvailable, availabilityKept(d))} = ${of} - maxUnavailable ${d.bounds.maxUnavailable}${d.observed.startAvailable < d.bounds.minAvailable ? `; it started with ${d.observed.startAvailable}` : ''}`
}

/** No more pods than the bound, or than at the start when it started above. */
export function podsLine(d: SetTimeline, of: string): string {
  const o = d.observed
  const terminating = `${o.maxPodsWithTerminating} with terminating pods`
  if (o.startPods <= d.bounds.maxPods) return `  max pods ${upperBound(o.maxPods, d.bounds.maxPods)} = ${of}; ${terminating}`
  return `  max pods ${o.maxPods} (≤ the ${o.startPods} it started with${o.maxPods <= o.startPods ? '' : ': broken'}; ${of} = ${d.bounds.maxPods}); ${terminating}`
}

export function conditionsText(conditions: ReadonlyArray<{type: string; status: string; reason?: string}>): string {
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')
}

/** The markdown table StatefulSets and DaemonSets share (one row per set). */
export const SET_TABLE_HEADER = ['| set | strategy | steps | duration | min available (bound) | max pods (bound) | final | status |', '| --- | --- | --- | --- | --- | --- | --- | --- |'] as const

/** A set's markdown row. */
export function setRow(
  kind: string,
  t: {namespace: string; name: string; strategy: string; steps: number; durationSeconds: number; observed: WorkloadObserved; bounds: {minAvailable: number; maxPods: number}; final: {replicasStatus: {available: number; updated: number}; rollout?: string}},
  final: string,
): string {
  const st = t.final.replicasStatus
  return `| ${kind} ${t.namespace}/${t.name} | ${t.strategy} | ${t.steps} | ${formatDuration(t.durationSeconds * 1000)} | ${t.observed.minAvailable} (≥ ${t.bounds.minAvailable}) | ${t.observed.maxPods} (≤ ${t.bounds.maxPods}) | ${final || 'no pods'} | ${st.available} available, ${st.updated} updated${t.final.rollout ? ` (${t.final.rollout})` : ''} |`
}
