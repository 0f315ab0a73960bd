// How a Job's pod failures count: podFailurePolicy (pod_failure_policy.go), a pod's finish time
// and the re-creation backoff (backoff_utils.go).
import type {BackoffRecord, JobView, PodFailurePolicyRule} from './model.js'
import type {PodView} from '../../model/objects.js'
import {objectTime, seconds} from '../../reconcile/time.js'

/** onlyReplaceFailedPods: podReplacementPolicy Failed, or any podFailurePolicy. */
export function onlyReplaceFailedPods(job: JobView): boolean {
  return job.podReplacementPolicy === 'Failed' || job.podFailurePolicy !== undefined
}

/** isPodFailed: phase Failed; or, unless only failed pods are replaced, being deleted and not Succeeded. */
export function isPodFailed(pod: PodView, job: JobView): boolean {
  if (pod.phase === 'Failed') return true
  if (onlyReplaceFailedPods(job)) return false
  return pod.deletionTimestamp !== undefined && pod.phase !== 'Succeeded'
}

export interface PolicyMatch {
  action: PodFailurePolicyRule['action']
  rule: number
  /** FailJob: the condition message. */
  message?: string
}

/** matchPodFailurePolicy: the first rule that matches a failed pod, in order; undefined when none does. */
export function matchPodFailurePolicy(job: JobView, pod: PodView): PolicyMatch | undefined {
  const rules = job.podFailurePolicy
  if (!rules) return undefined
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]
    if (rule.onExitCodes) {
      const codes = rule.onExitCodes
      // Regular containers first, then init containers; only non-zero exits are looked at.
      const hit = [...(pod.batch?.terminated ?? [])]
        .sort((a, b) => Number(a.init) - Number(b.init))
        .find((c) => c.exitCode !== 0 && (!codes.containerName || codes.containerName === c.name) && codes.values.includes(c.exitCode) === (codes.operator === 'In'))
      if (hit) return {action: rule.action, rule: i, message: rule.action === 'FailJob' ? `Container ${hit.name} for pod ${pod.namespace}/${pod.name} failed with exit code ${hit.exitCode} matching FailJob rule at index ${i}` : undefined}
    } else if (rule.onPodConditions) {
      for (const c of pod.batch?.conditions ?? []) {
        if (rule.onPodConditions.some((p) => p.type === c.type && p.status === c.status)) {
          return {action: rule.action, rule: i, message: rule.action === 'FailJob' ? `Pod ${pod.namespace}/${pod.name} has condition ${c.type} matching FailJob rule at index ${i}` : undefined}
        }
      }
    }
  }
  return undefined
}

/** getFinishedTime: the last container's finishedAt, else Ready=False's transition, else deletion − grace, else creation. */
export function finishTime(pod: PodView): bigint {
  const b = pod.batch
  if (b?.allTerminated) {
    let latest: bigint | undefined
    for (const c of b.terminated) {
      const t = objectTime(c.finishedAt)
      if (t !== undefined && (latest === undefined || t > latest)) latest = t
    }
    if (latest !== undefined) return latest
  }
  const notReady = b?.conditions.find((c) => c.type === 'Ready')
  if (notReady && notReady.status === 'False') {
    const t = objectTime(notReady.lastTransitionTime)
    if (t !== undefined) return t
  }
  const deleted = objectTime(pod.deletionTimestamp)
  if (deleted !== undefined) return deleted - seconds(b?.deletionGracePeriodSeconds ?? 0)
  return objectTime(pod.creationTimestamp) ?? 0n
}

export const DEFAULT_POD_FAILURE_BACKOFF_S = 10
export const MAX_POD_FAILURE_BACKOFF_S = 600

/** The backoff after n consecutive failures: 10 s doubling, at most 10 min (n = 0: none). */
export function backoffDelay(n: number): bigint {
  if (n <= 0) return 0n
  const s = n >= 7 ? MAX_POD_FAILURE_BACKOFF_S : Math.min(DEFAULT_POD_FAILURE_BACKOFF_S * 2 ** (n - 1), MAX_POD_FAILURE_BACKOFF_S)
  return seconds(s)
}

/** getRemainingTimeForFailuresCount. */
export function remainingBackoff(n: number, lastFailure: bigint | undefined, now: bigint): bigint {
  if (n === 0 || lastFailure === undefined) return 0n
  const left = backoffDelay(n) - (now - lastFailure)
  return left > 0n ? left : 0n
}

/**
 * newBackoffRecord from a stored record: a new success resets it to the failures after the latest
 * success; otherwise the new failures add to it, the latest of them its last failure.
 */
export function nextBackoffRecord(stored: BackoffRecord, succeeded: readonly PodView[], failed: readonly PodView[]): BackoffRecord {
  if (succeeded.length > 0) return visibleBackoff(succeeded, failed)
  if (failed.length === 0) return stored
  return {failures: stored.failures + failed.length, lastFailure: failed.map(finishTime).reduce((a, b) => (b > a ? b : a))}
}

/**
 * The backoff record a sync builds from the pods it sees finish (newBackoffRecord), starting from
 * an empty record: failures after the latest success, and the time of the last one.
 */
export function visibleBackoff(succeeded: readonly PodView[], failed: readonly PodView[]): {failures: number; lastFailure?: bigint} {
  if (failed.length === 0) return {failures: 0}
  const lastSuccess = succeeded.reduce<bigint | undefined>((m, p) => {
    const t = finishTime(p)
    return m === undefined || t > m ? t : m
  }, undefined)
  const after = failed.map(finishTime).filter((t) => lastSuccess === undefined || t > lastSuccess)
  if (after.length === 0) return {failures: 0}
  return {failures: after.length, lastFailure: after.reduce((a, b) => (b > a ? b : a))}
}
