// The Deployment controller's arithmetic and annotation rules, pure
// (pkg/controller/deployment/util/deployment_util.go, pkg/controller/controller_utils.go).
import type {DeploymentStatusView, DeploymentView, IntOrString} from '../../model/objects.js'
import {objectTime, seconds} from '../../reconcile/time.js'

export const ANNOTATION = {
  revision: 'deployment.kubernetes.io/revision',
  revisionHistory: 'deployment.kubernetes.io/revision-history',
  desiredReplicas: 'deployment.kubernetes.io/desired-replicas',
  maxReplicas: 'deployment.kubernetes.io/max-replicas',
  rollbackTo: 'deprecated.deployment.rollback.to',
} as const

/** The label that tells a Deployment's ReplicaSets (and their pods) apart (DefaultDeploymentUniqueLabelKey). */
export const POD_TEMPLATE_HASH = 'pod-template-hash'

/** annotationsToSkip: never copied from the Deployment to its new ReplicaSet. */
const SKIPPED_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  ANNOTATION.revision,
  ANNOTATION.revisionHistory,
  ANNOTATION.desiredReplicas,
  ANNOTATION.maxReplicas,
  ANNOTATION.rollbackTo,
])
export const isSkippedAnnotation = (key: string) => SKIPPED_ANNOTATIONS.has(key)

/** revision-history is capped at this many characters (maxRevHistoryLengthInChars). */
export const MAX_REVISION_HISTORY_CHARS = 2000
const INT32_MAX = 2147483647

/** strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits, within int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined
  const n = BigInt(s)
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined
}

/** Revision(): the revision annotation; absent counts as 0, unparsable is an error (undefined). */
export function revisionOf(annotations: Readonly<Record<string, string>>): bigint | undefined {
  const v = annotations[ANNOTATION.revision]
  return v === undefined ? 0n : parseInt64(v)
}

/** getNonNegativeInt32FromAnnotation: strconv.ParseUint within int32, else missing. */
export function replicasAnnotation(annotations: Readonly<Record<string, string>>, key: string): number | undefined {
  const v = annotations[key]
  if (v === undefined || !/^[0-9]+$/.test(v)) return undefined
  const n = Number(v)
  return n <= INT32_MAX ? n : undefined
}

/** strconv.Atoi, as IsSaturated parses desired-replicas. */
export function atoi(s: string | undefined): number | undefined {
  if (s === undefined || !/^[+-]?[0-9]+$/.test(s)) return undefined
  return Number(s)
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an integer as given, or a percentage of `total` rounded
 * up or down. float64(pct) * float64(total) / 100 in that order: JS doubles give the same bits.
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0
  if (typeof v === 'number') return v
  const pct = Number.parseInt(v.slice(0, -1), 10)
  const x = (pct * total) / 100
  return roundUp ? Math.ceil(x) : Math.floor(x)
}

/** ResolveFenceposts: surge rounds up, unavailability down; both 0 makes unavailability 1 (D5.1). */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, replicas: number): {surge: number; unavailable: number} {
  const surge = scaledValue(maxSurge, replicas, true)
  let unavailable = scaledValue(maxUnavailable, replicas, false)
  if (surge === 0 && unavailable === 0) unavailable = 1
  return {surge, unavailable}
}

export const isRollingUpdate = (d: DeploymentView) => d.strategy.type === 'RollingUpdate'

/** MaxSurge(d): 0 unless RollingUpdate. */
export function maxSurge(d: DeploymentView): number {
  if (!isRollingUpdate(d)) return 0
  return resolveFenceposts(d.strategy.maxSurge, d.strategy.maxUnavailable, d.replicas).surge
}

/** MaxUnavailable(d): 0 unless RollingUpdate with replicas > 0; never more than replicas. */
export function maxUnavailable(d: DeploymentView): number {
  if (!isRollingUpdate(d) || d.replicas === 0) return 0
  return Math.min(resolveFenceposts(d.strategy.maxSurge, d.strategy.maxUnavailable, d.replicas).unavailable, d.replicas)
}

/** The part of a ReplicaSet the Deployment's rules read and write, as one sync sees it. */
export interface RsState {
  name: string
  uid: string
  resourceVersion: string
  creationTimestamp?: string
  deletionTimestamp?: string
  generation: number
  replicas: number
  minReadySeconds: number
  annotations: Record<string, string>
  status: {replicas: number; readyReplicas: number; availableReplicas: number; observedGeneration: number; terminatingReplicas?: number; conditions: readonly {type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string}[]}
  /** Not in the API server yet: the ReplicaSet this sync creates. */
  created?: boolean
}

/**
 * NewRSNewReplicas (D5.2): RollingUpdate grows the new ReplicaSet within replicas + surge (the
 * surge's ceiling, no fencepost); Recreate sizes it to replicas at once.
 */
export function newRSNewReplicas(d: DeploymentView, all: readonly RsState[], newRS: RsState): number {
  if (!isRollingUpdate(d)) return d.replicas
  const surge = scaledValue(d.strategy.maxSurge, d.replicas, true)
  const maxTotal = d.replicas + surge
  const current = sumSpec(all)
  if (current >= maxTotal) return newRS.replicas
  return newRS.replicas + Math.min(maxTotal - current, d.replicas - newRS.replicas)
}

export const sumSpec = (rss: readonly RsState[]) => rss.reduce((n, rs) => n + rs.replicas, 0)
export const sumAvailable = (rss: readonly RsState[]) => rss.reduce((n, rs) => n + rs.status.availableReplicas, 0)
export const activeReplicaSets = (rss: readonly (RsState | undefined)[]) => rss.filter((rs): rs is RsState => rs !== undefined && rs.replicas > 0)

const created = (rs: RsState) => objectTime(rs.creationTimestamp) ?? 0n

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: RsState, b: RsState): number {
  const x = created(a)
  const y = created(b)
  if (x !== y) return x < y ? -1 : 1
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/** ReplicaSetsBySizeNewer: larger first; ties newer first. */
export const bySizeNewer = (a: RsState, b: RsState) => (a.replicas !== b.replicas ? b.replicas - a.replicas : byCreation(b, a))
/** ReplicaSetsBySizeOlder: larger first; ties older first. */
export const bySizeOlder = (a: RsState, b: RsState) => (a.replicas !== b.replicas ? b.replicas - a.replicas : byCreation(a, b))

/** IsSaturated: the new ReplicaSet is at full size, annotated so, and all of it available. */
export function isSaturated(d: DeploymentView, rs: RsState | undefined): boolean {
  if (!rs) return false
  const desired = atoi(rs.annotations[ANNOTATION.desiredReplicas])
  return desired !== undefined && rs.replicas === d.replicas && desired === d.replicas && rs.status.availableReplicas === d.replicas
}

/** GetReplicaSetProportion with getReplicaSetFraction (D7.2). */
export function replicaSetProportion(rs: RsState, d: DeploymentView, toAdd: number, added: number): number {
  if (rs.replicas === 0 || toAdd === 0 || toAdd === added) return 0
  const fraction = replicaSetFraction(rs, d)
  const allowed = toAdd - added
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed)
}

function replicaSetFraction(rs: RsState, d: DeploymentView): number {
  if (d.replicas === 0) return -rs.replicas
  const deploymentMax = d.replicas + maxSurge(d)
  let before = replicasAnnotation(rs.annotations, ANNOTATION.maxReplicas)
  if (before === undefined || before === 0) {
    before = d.status.replicas
    if (before === 0) return 0
  }
  // int32 product, then float division and math.Round (half away from zero; operands are >= 0).
  const product = Math.imul(rs.replicas, deploymentMax)
  return roundHalfAway(product / before) - rs.replicas
}

const roundHalfAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x))

/** DeploymentComplete: every replica updated, present and available, and the spec observed. */
export function deploymentComplete(d: DeploymentView, s: DeploymentStatusView): boolean {
  return s.updatedReplicas === d.replicas && s.replicas === d.replicas && s.availableReplicas === d.replicas && s.observedGeneration >= d.generation
}

/** DeploymentProgressing: compared with the status before this sync. */
export function deploymentProgressing(d: DeploymentView, s: DeploymentStatusView): boolean {
  const old = d.status
  return (
    s.updatedReplicas > old.updatedReplicas ||
    s.replicas - s.updatedReplicas < old.replicas - old.updatedReplicas ||
    s.readyReplicas > old.readyReplicas ||
    s.availableReplicas > old.availableReplicas
  )
}

/** HasProgressDeadline: set and not MaxInt32. */
export const hasProgressDeadline = (d: DeploymentView) => d.progressDeadlineSeconds !== undefined && d.progressDeadlineSeconds !== INT32_MAX
/** HasRevisionHistoryLimit: set and not MaxInt32. */
export const hasRevisionHistoryLimit = (d: DeploymentView) => d.revisionHistoryLimit !== undefined && d.revisionHistoryLimit !== INT32_MAX

/** DeploymentTimedOut: the Progressing condition's lastUpdateTime plus the deadline is before now. */
export function deploymentTimedOut(d: DeploymentView, s: DeploymentStatusView, now: bigint): boolean {
  if (!hasProgressDeadline(d)) return false
  const cond = s.conditions.find((c) => c.type === 'Progressing')
  if (!cond) return false
  if (cond.reason === 'NewReplicaSetAvailable') return false
  if (cond.reason === 'ProgressDeadlineExceeded') return true
  const from = objectTime(cond.lastUpdateTime) ?? 0n
  return from + seconds(d.progressDeadlineSeconds!) < now
}

/** generateReplicaSetName: the Deployment's name, cut to fit, a dash and the hash. */
export function replicaSetName(deploymentName: string, hash: string): string {
  const room = 253 - 1 - hash.length
  return `${deploymentName.length > room ? deploymentName.slice(0, room) : deploymentName}-${hash}`
}
