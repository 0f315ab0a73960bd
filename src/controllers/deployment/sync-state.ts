// The state one sync of the Deployment controller holds (pkg/controller/deployment/sync.go), the
// writes it plans (a Deployment status update, ReplicaSet updates and scales: each a plan action,
// a stale one a conflict that ends the sync) and the status it calculates (D9). The rollout logic
// that drives them is in sync.ts.
import type {DeploymentCondition, DeploymentStatusView, DeploymentView, OwnerReference, PodView, Workload} from '../../model/objects.js'
import type {DeploymentAction, FeatureGates, ScaleRule, UpdateDeploymentStatusAction} from '../../model/plan.js'
import {formatRfc3339, objectTime, seconds, wholeSeconds} from '../../reconcile/time.js'
import {
  ANNOTATION,
  byCreation,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  hasProgressDeadline,
  maxSurge,
  maxUnavailable,
  revisionOf,
  type RsState,
  sumAvailable,
  sumSpec,
} from './util.js'

/** What one Deployment's sync reads besides the Deployment. */
export interface DeploymentWorld {
  /** Every ReplicaSet in the Deployment's namespace. */
  replicaSets: readonly Workload[]
  /** The ones its claim reads: those whose controller reference has its uid, and orphans. */
  claimCandidates: readonly Workload[]
  /** FilterPodsByOwner(rs, "ReplicaSet"): the pods whose controller reference names this ReplicaSet. */
  podsOf(rs: Workload): readonly PodView[]
  /** The controller's clock, in nanoseconds since the epoch. */
  now: bigint
  gates: FeatureGates
  /** controller.ComputeHash of the Deployment's template; a reason string when it cannot be computed here. */
  templateHash(d: DeploymentView, collisionCount: number | undefined): {hash: string} | {unknown: string}
  /** EqualIgnoreHash: the Deployment's pod template and the ReplicaSet's are equal once the pod-template-hash label is dropped. */
  sameTemplate(rs: Workload): boolean
}

export interface DeploymentSync {
  actions: DeploymentAction[]
  /** Events the controller records on the Deployment, in order (type and reason first). */
  events: string[]
  /** The status after this sync: the one written, or the one it had. */
  status: DeploymentStatusView
  /** The Deployment's revision annotation after this sync. */
  revision?: string
  /** The ReplicaSet matching the template (found or created here); undefined when there is none. */
  newReplicaSet?: {name: string | null; podTemplateHash: string | null; created: boolean}
  /** Claimed ReplicaSets with their sizes after this sync (created ones included, deleted ones not). */
  replicaSets: ReplicaSetAfter[]
  /** Why the sync ends early: a conflicting write, a hash collision, an error returned. */
  endedBy?: string
  /** What the controller does or cannot be known from here, worded. */
  warnings: string[]
  /** The path syncDeployment took. */
  path: 'deleting' | 'paused' | 'rollback' | 'scaling' | 'rolling' | 'recreate' | 'unknown-strategy'
}

export interface ReplicaSetAfter {
  name: string
  uid: string
  revision: string
  replicas: number
  /** Before this sync (equal to replicas when it was not scaled). */
  from: number
  available: number
  isNew: boolean
  created: boolean
}


/** A write failed (or the controller returned an error): the sync stops here. */
export class SyncEnded {
  constructor(readonly reason: string) {}
}

export interface Cached {
  rs: Workload
  state: RsState
  /** An update already went out with this object's resourceVersion. */
  stale: boolean
}

export const ownerRef = (d: DeploymentView): OwnerReference => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name: d.name,
  uid: d.uid,
  controller: true,
  blockOwnerDeletion: true,
})

export function stateOf(rs: Workload): RsState {
  return {
    name: rs.name,
    uid: rs.uid,
    resourceVersion: rs.resourceVersion,
    creationTimestamp: rs.creationTimestamp,
    deletionTimestamp: rs.deletionTimestamp,
    generation: rs.generation,
    replicas: rs.replicas,
    minReadySeconds: rs.minReadySeconds,
    annotations: {...rs.annotations},
    status: rs.status,
  }
}


/** The state one sync holds, its writes (each a plan action) and the status it calculates. */
export class SyncState {
  readonly actions: DeploymentAction[] = []
  readonly events: string[] = []
  readonly warnings: string[] = []
  /** The Deployment as this sync holds it in memory (status and annotations change as it goes). */
  status: DeploymentStatusView
  annotations: Record<string, string>
  written?: DeploymentStatusView
  /**
   * The Deployment as the API server stores it now: its status and revision annotation. A write
   * that would store exactly this is not stored, and leaves the resourceVersion as it was.
   */
  protected stored: {status: DeploymentStatusView; revision: string | undefined}
  /** A write of this sync stored a new version: the in-memory Deployment names a replaced resourceVersion. */
  protected deploymentStale = false
  protected readonly nowText: string
  protected readonly cache = new Map<string, Cached>()
  protected rsList: Cached[] = []
  protected newRS?: RsState
  protected newRSInfo?: DeploymentSync['newReplicaSet']
  protected readonly sizes = new Map<string, number>()
  protected readonly deleted = new Set<string>()
  /** ReplicaSet objects whose resourceVersion a write of this sync (an adoption) replaced. */
  protected readonly staleStates = new WeakSet<RsState>()
  path: DeploymentSync['path'] = 'rolling'

  constructor(
    readonly d: DeploymentView,
    readonly world: DeploymentWorld,
  ) {
    this.status = {...d.status, conditions: d.status.conditions.map((c) => ({...c}))}
    this.annotations = {...d.annotations}
    this.stored = {status: d.status, revision: d.annotations[ANNOTATION.revision]}
    // metav1.Time keeps seconds: a condition written now reads back truncated.
    this.nowText = formatRfc3339(wholeSeconds(world.now))
  }

  protected after(s: RsState, created: boolean): ReplicaSetAfter {
    const isNew = this.newRS?.uid === s.uid
    const annotations = isNew ? this.newRS!.annotations : s.annotations
    return {
      name: s.name,
      uid: s.uid,
      revision: annotations[ANNOTATION.revision] ?? '',
      replicas: this.sizes.get(s.uid) ?? s.replicas,
      from: created ? 0 : s.replicas,
      available: s.status.availableReplicas,
      isNew,
      created,
    }
  }

  protected cacheByName(name: string): Cached | undefined {
    return this.rsList.find((c) => c.state.name === name)
  }

  /** SetDeploymentRevision: whether the Deployment's revision annotation changes. */
  protected setRevision(revision: string | undefined): boolean {
    if (revision === undefined || this.annotations[ANNOTATION.revision] === revision) return false
    this.annotations[ANNOTATION.revision] = revision
    return true
  }

  // ---- writes -------------------------------------------------------------------------------

  /** The new ReplicaSet's Update in getNewReplicaSet: a second one from the same cached object conflicts. */
  protected updateReplicaSet(cached: Cached, to: RsState): void {
    const action = {
      type: 'updateReplicaSet' as const,
      replicaSet: cached.state.name,
      uid: cached.state.uid,
      resourceVersion: cached.state.resourceVersion,
      annotations: to.annotations,
      minReadySeconds: to.minReadySeconds,
    }
    if (cached.stale) {
      this.actions.push({...action, conflict: true})
      throw new SyncEnded(`an update of ReplicaSet ${cached.state.name} in this sync is sent with a resourceVersion an earlier write of this sync (an update, or its adoption) replaced, and conflicts`)
    }
    cached.stale = true
    this.actions.push(action)
  }

  /**
   * UpdateStatus of the Deployment (D2.4). Every write of one sync names the resourceVersion the
   * sync read (the controller throws away what UpdateStatus returns): once a write of this sync has
   * stored a new version, the next one conflicts. A write that would store exactly what is stored
   * (GuaranteedUpdate finds the new bytes equal to the old) is not stored and keeps the
   * resourceVersion: it succeeds, marked `unchanged`, and the next write goes through too.
   */
  protected writeStatus(to: DeploymentStatusView): true {
    const revisionBefore = this.d.annotations[ANNOTATION.revision]
    const revisionNow = this.annotations[ANNOTATION.revision]
    const action: UpdateDeploymentStatusAction = {type: 'updateStatus', from: this.d.status, to}
    if (revisionNow !== undefined && revisionNow !== revisionBefore) action.revision = revisionBefore === undefined ? {to: revisionNow} : {from: revisionBefore, to: revisionNow}
    if (this.deploymentStale) {
      this.actions.push({...action, conflict: true})
      throw new SyncEnded('a second write to the Deployment in this sync is sent with its old resourceVersion and conflicts')
    }
    if (sameStatus(this.stored.status, to) && this.stored.revision === revisionNow) {
      this.actions.push({...action, unchanged: true})
      this.written = to
      return true
    }
    this.actions.push(action)
    this.stored = {status: to, revision: revisionNow}
    this.deploymentStale = true
    this.written = to
    return true
  }

  /** scaleReplicaSet (D11): writes when the size (or, forced, the replica annotations) differ. */
  protected scaleReplicaSet(rs: RsState, to: number, rule: ScaleRule, force: boolean): {scaled: boolean; rs: RsState} {
    const d = this.d
    if (!force && rs.replicas === to) return {scaled: false, rs}
    const desired = String(d.replicas)
    const max = String(d.replicas + maxSurge(d))
    const sizeChanges = rs.replicas !== to
    const annotationsChange = rs.annotations[ANNOTATION.desiredReplicas] !== desired || rs.annotations[ANNOTATION.maxReplicas] !== max
    if (!sizeChanges && !annotationsChange) return {scaled: false, rs}
    // A scale goes through an object this sync has not written yet (getNewReplicaSet hands on the
    // copy it updated; a second getNewReplicaSet conflicts first) — except one it adopted.
    const sized = {[ANNOTATION.desiredReplicas]: desired, [ANNOTATION.maxReplicas]: max}
    const annotations = {...rs.annotations, ...sized}
    const action: DeploymentAction = {type: 'scaleReplicaSet', replicaSet: rs.name, uid: rs.uid, resourceVersion: rs.resourceVersion, from: rs.replicas, to, rule, annotations: sized}
    if (this.staleStates.has(rs)) {
      this.actions.push({...action, conflict: true})
      throw new SyncEnded(`ReplicaSet ${rs.name} was adopted in this sync, and its update is sent with the resourceVersion from before the adoption: it conflicts`)
    }
    if (sizeChanges) {
      action.event = `Scaled ${rs.replicas < to ? 'up' : 'down'} replica set ${rs.name} from ${rs.replicas} to ${to}`
      this.events.push(`Normal ScalingReplicaSet ${action.event}`)
    }
    this.actions.push(action)
    this.sizes.set(rs.uid, to)
    // What the API server returns: the new spec and annotations, the status as it was.
    const updated: RsState = {...rs, replicas: to, annotations}
    if (this.newRS?.uid === rs.uid) this.newRS.annotations = annotations
    return {scaled: sizeChanges, rs: updated}
  }

  // ---- paused, scaling events, proportional scaling (D7) -------------------------------------

  // ---- status (D9) ---------------------------------------------------------------------------

  protected condition(type: string): DeploymentCondition | undefined {
    return this.status.conditions.find((c) => c.type === type)
  }

  /** SetDeploymentCondition on the in-memory Deployment's status. */
  protected setCondition(c: DeploymentCondition): void {
    this.status = {...this.status, conditions: withCondition(this.status.conditions, {...c, lastUpdateTime: this.nowText, lastTransitionTime: this.nowText})}
  }

  /** checkPausedConditions (D9.7). */
  protected checkPausedConditions(): void {
    const d = this.d
    if (!hasProgressDeadline(d)) return
    const cond = this.condition('Progressing')
    if (cond?.reason === 'ProgressDeadlineExceeded') return
    const pausedNoted = cond?.reason === 'DeploymentPaused'
    if (d.paused && !pausedNoted) this.setCondition({type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused'})
    else if (!d.paused && pausedNoted) this.setCondition({type: 'Progressing', status: 'Unknown', reason: 'DeploymentResumed', message: 'Deployment is resumed'})
    else return
    this.writeStatus(this.status)
  }

  /** calculateStatus (D9.1). */
  protected calculateStatus(all: readonly (RsState | undefined)[], newRS: RsState | undefined): DeploymentStatusView {
    const d = this.d
    const rss = all.filter((rs): rs is RsState => rs !== undefined)
    const available = sumAvailable(rss)
    const status: DeploymentStatusView = {
      observedGeneration: d.generation,
      replicas: rss.reduce((n, rs) => n + rs.status.replicas, 0),
      updatedReplicas: newRS?.status.replicas ?? 0,
      readyReplicas: rss.reduce((n, rs) => n + rs.status.readyReplicas, 0),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, sumSpec(rss) - available),
      conditions: this.status.conditions,
    }
    if (this.status.collisionCount !== undefined) status.collisionCount = this.status.collisionCount
    if (this.world.gates.DeploymentReplicaSetTerminatingReplicas) {
      const terminating = terminatingReplicas(rss)
      if (terminating !== undefined) status.terminatingReplicas = terminating
    }
    const availableCondition: DeploymentCondition =
      available >= d.replicas - maxUnavailable(d)
        ? {type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.'}
        : {type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.'}
    status.conditions = withCondition(status.conditions, {...availableCondition, lastUpdateTime: this.nowText, lastTransitionTime: this.nowText})
    return status
  }

  /** syncDeploymentStatus: paused, scaling and deleting syncs; Progressing is left alone. */
  protected syncDeploymentStatus(all: readonly (RsState | undefined)[], newRS: RsState | undefined): void {
    const next = this.calculateStatus(all, newRS)
    if (!sameStatus(this.status, next)) this.writeStatus(next)
  }

  /** syncRolloutStatus (D9.3): Progressing and ReplicaFailure too. */
  protected syncRolloutStatus(all: readonly (RsState | undefined)[], newRS: RsState | undefined): void {
    const d = this.d
    let next = this.calculateStatus(all, newRS)
    const set = (c: DeploymentCondition) => {
      next = {...next, conditions: withCondition(next.conditions, {lastUpdateTime: this.nowText, lastTransitionTime: this.nowText, ...c})}
    }
    if (!hasProgressDeadline(d)) next = {...next, conditions: next.conditions.filter((c) => c.type !== 'Progressing')}
    const current = this.condition('Progressing')
    const complete = next.replicas === next.updatedReplicas && current?.reason === 'NewReplicaSetAvailable'
    const subject = newRS ? `ReplicaSet "${newRS.name}"` : `Deployment "${d.name}"`
    if (hasProgressDeadline(d) && !complete) {
      if (deploymentComplete(d, next)) {
        set({type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `${subject} has successfully progressed.`})
      } else if (deploymentProgressing(d, next)) {
        const c: DeploymentCondition = {type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `${subject} is progressing.`, lastUpdateTime: this.nowText, lastTransitionTime: this.nowText}
        if (current) {
          if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime
          next = {...next, conditions: next.conditions.filter((x) => x.type !== 'Progressing')}
        }
        next = {...next, conditions: withCondition(next.conditions, c)}
      } else if (deploymentTimedOut(d, next, this.world.now)) {
        set({type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `${subject} has timed out progressing.`})
      }
    }
    const failure = replicaFailure(all, newRS)
    if (failure) set(failure)
    else next = {...next, conditions: next.conditions.filter((c) => c.type !== 'ReplicaFailure')}
    if (sameStatus(this.status, next)) {
      const wake = progressCheckAt(d, next)
      if (wake !== undefined) this.warnings.push(`no write now; the controller checks progress again at ${wake} (progressDeadlineSeconds ${d.progressDeadlineSeconds})`)
      return
    }
    this.writeStatus(next)
  }
}

/** SetDeploymentCondition: same status and reason is no change; otherwise replace, appended last. */
export function withCondition(conditions: readonly DeploymentCondition[], c: DeploymentCondition): DeploymentCondition[] {
  const current = conditions.find((x) => x.type === c.type)
  if (current && current.status === c.status && current.reason === c.reason) return [...conditions]
  const next = {...c}
  if (current && current.status === c.status) {
    if (current.lastTransitionTime === undefined) delete next.lastTransitionTime
    else next.lastTransitionTime = current.lastTransitionTime
  }
  return [...conditions.filter((x) => x.type !== c.type), next]
}

/** reflect.DeepEqual of two statuses (absent and undefined fields alike). */
export function sameStatus(a: DeploymentStatusView, b: DeploymentStatusView): boolean {
  return JSON.stringify(canonicalStatus(a)) === JSON.stringify(canonicalStatus(b))
}

export function canonicalStatus(s: DeploymentStatusView): unknown {
  return [
    s.observedGeneration,
    s.replicas,
    s.updatedReplicas,
    s.readyReplicas,
    s.availableReplicas,
    s.unavailableReplicas,
    s.terminatingReplicas ?? null,
    s.collisionCount ?? null,
    s.conditions.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '', c.lastUpdateTime ?? '', c.lastTransitionTime ?? '']),
  ]
}

/** GetTerminatingReplicaCountForReplicaSets (D9.8). */
export function terminatingReplicas(rss: readonly RsState[]): number | undefined {
  let sum = 0
  for (const rs of rss) {
    if (rs.status.observedGeneration === 0 && rs.status.terminatingReplicas === undefined) continue
    if (rs.status.terminatingReplicas === undefined) return undefined
    sum += rs.status.terminatingReplicas
  }
  return sum
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition, else the first of any. */
export function replicaFailure(all: readonly (RsState | undefined)[], newRS: RsState | undefined): DeploymentCondition | undefined {
  for (const rs of [newRS, ...all]) {
    const c = rs?.status.conditions.find((x) => x.type === 'ReplicaFailure')
    if (c) return {type: 'ReplicaFailure', status: c.status, reason: c.reason, message: c.message, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime}
  }
  return undefined
}

/** requeueStuckDeployment (D2.3): when the controller looks at a stuck rollout again, if it does. */
export function progressCheckAt(d: DeploymentView, s: DeploymentStatusView): string | undefined {
  if (!hasProgressDeadline(d)) return undefined
  const c = s.conditions.find((x) => x.type === 'Progressing')
  if (!c || c.reason === 'NewReplicaSetAvailable' || c.reason === 'ProgressDeadlineExceeded') return undefined
  const from = objectTime(c.lastUpdateTime)
  if (deploymentComplete(d, s) || from === undefined) return undefined
  return formatRfc3339(from + seconds(d.progressDeadlineSeconds! + 1))
}

/** LastRevision: the second-highest revision. */
export function lastRevision(rss: readonly RsState[]): bigint {
  let max = 0n
  let second = 0n
  for (const rs of rss) {
    const v = revisionOf(rs.annotations)
    if (v === undefined) continue
    if (v >= max) {
      second = max
      max = v
    } else if (v > second) second = v
  }
  return second
}

/** ReplicaSetsByRevision: by revision; unparsable or equal revisions by creation, then name. */
export function byRevision(a: RsState, b: RsState): number {
  const x = revisionOf(a.annotations)
  const y = revisionOf(b.annotations)
  if (x === undefined || y === undefined || x === y) return byCreation(a, b)
  return x < y ? -1 : 1
}
