// A rollout's verdict at the end of a simulation: complete (and when), stalled, or
// ProgressDeadlineExceeded, and the bounds it broke. Each workload's simulate part samples its
// objects with a RolloutWatch at every instant the loop looks, saying whether the rollout is
// complete as `kubectl rollout status` reads the status (the controller's own words, not the
// pods'), how many of its pods are terminating, and whether its progress deadline was reported;
// the verdict is built from that at the end. `kctl simulate --detailed-exitcode` exits 3 when any
// verdict is not a complete rollout within its bounds.
import type {RolloutVerdict} from '../model/simulation.js'
import {offset} from './report.js'

/** Where the loop ended, as the timelines are built. */
export interface LoopEnd {
  start: bigint
  end: bigint
  endedBy: 'quiet' | 'until'
}

/** One workload at one instant. */
export interface RolloutSample {
  /** The rollout is complete as its status says (observedGeneration caught up, every replica updated and available). */
  complete: boolean
  /** Its pods being deleted, not gone yet. */
  terminating: number
  /** Progressing=False with reason ProgressDeadlineExceeded (Deployments). */
  deadlineExceeded?: boolean
}

interface Seen {
  completeSince?: bigint
  goneAt?: bigint
  deadlineSince?: bigint
  terminating: number
}

const seconds = (t: bigint, start: bigint) => Number(t - start) / 1e9

/** Per workload (by uid): since when its rollout has been complete, when its terminating pods were gone, since when its deadline has been exceeded. */
export class RolloutWatch {
  private readonly seen = new Map<string, Seen>()

  sample(uid: string, now: bigint, s: RolloutSample): void {
    let seen = this.seen.get(uid)
    if (!seen) this.seen.set(uid, (seen = {terminating: 0}))
    seen.terminating = s.terminating
    if (!s.complete) {
      seen.completeSince = undefined
      seen.goneAt = undefined
    } else if (seen.completeSince === undefined) {
      seen.completeSince = now
      seen.goneAt = s.terminating === 0 ? now : undefined
    } else if (s.terminating > 0) seen.goneAt = undefined
    else seen.goneAt ??= now
    if (!s.deadlineExceeded) seen.deadlineSince = undefined
    else seen.deadlineSince ??= now
  }

  /**
   * The verdict: `progress` says where a rollout that did not complete stands (`2 of 4 updated, 3
   * available`); `boundsBroken` what it broke (`max pods 6 > 5`).
   */
  verdict(uid: string, end: LoopEnd, progress: string, boundsBroken: string[]): RolloutVerdict {
    const seen = this.seen.get(uid) ?? {terminating: 0}
    const broken = boundsBroken.length > 0 ? `; bounds broken: ${boundsBroken.join(', ')}` : ''
    if (seen.deadlineSince !== undefined) {
      const at = seconds(seen.deadlineSince, end.start)
      return {result: 'progressDeadlineExceeded', deadlineExceededAtSeconds: at, boundsBroken, text: `ProgressDeadlineExceeded at ${offset(at)}: ${progress}${broken}`}
    }
    if (seen.completeSince !== undefined) {
      const at = seconds(seen.completeSince, end.start)
      const gone = seen.goneAt === undefined ? undefined : seconds(seen.goneAt, end.start)
      const pods =
        gone === undefined ? ` (${seen.terminating} ${seen.terminating === 1 ? 'pod' : 'pods'} still terminating)` : gone > at ? ` (pods gone at ${offset(gone)})` : ''
      return {
        result: 'complete',
        completeAtSeconds: at,
        ...(gone !== undefined && gone > at ? {podsGoneAtSeconds: gone} : {}),
        boundsBroken,
        text: `complete at ${offset(at)}${pods}${broken}`,
      }
    }
    const where = `${offset(seconds(end.end, end.start))} (${end.endedBy === 'until' ? '--until' : 'nothing left to happen'})`
    return {result: 'stalled', boundsBroken, text: `stalled at ${where}: ${progress}${broken}`}
  }
}

/** Whether a verdict lets a CI gate pass: a complete rollout within its bounds. */
export function verdictPasses(v: RolloutVerdict): boolean {
  return v.result === 'complete' && v.boundsBroken.length === 0
}

/** A lower bound's breach in words, or nothing: `min available 2 < 3`. */
export function belowBound(what: string, observed: number, limit: number, kept: boolean): string[] {
  return kept ? [] : [`${what} ${observed} < ${limit}`]
}

/** An upper bound's breach in words, or nothing: `max pods 6 > 5`. */
export function aboveBound(what: string, observed: number, limit: number, kept = observed <= limit): string[] {
  return kept ? [] : [`${what} ${observed} > ${limit}`]
}
