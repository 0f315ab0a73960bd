// One sync of the Deployment controller for one Deployment: DeploymentController.syncDeployment
// and everything it calls (pkg/controller/deployment/{deployment_controller,sync,rolling,
// recreate,rollback,progress}.go). Pure: the world, the clock and the hash come in as arguments.
//
// A sync reads one snapshot and writes in program order. What the controller writes with a
// stale resourceVersion (a second write to the Deployment after one that stored something, a
// second update of the same cached ReplicaSet, a scale of a ReplicaSet adopted in this sync) fails
// with 409 Conflict: such a write is planned with `conflict: true`. It ends the sync where the
// caller returns the error, and not where the caller swallows it (reconcileOldReplicaSets).
import type {DeploymentView, Labels, Workload} from '../../model/objects.js'
import type {CreateReplicaSetAction} from '../../model/plan.js'
import {controllerOf} from '../../reconcile/pods.js'
import {compileLabelSelector, selectorMatches} from '../../reconcile/selector.js'
import {
  activeReplicaSets,
  ANNOTATION,
  byCreation,
  bySizeNewer,
  bySizeOlder,
  deploymentComplete,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  isSkippedAnnotation,
  MAX_REVISION_HISTORY_CHARS,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  parseInt64,
  POD_TEMPLATE_HASH,
  replicasAnnotation,
  replicaSetName,
  replicaSetProportion,
  revisionOf,
  type RsState,
  sumAvailable,
  sumSpec,
} from './util.js'
import {byRevision, type Cached, type DeploymentSync, type DeploymentWorld, lastRevision, ownerRef, type ReplicaSetAfter, stateOf, SyncEnded, SyncState} from './sync-state.js'

export {progressCheckAt, type DeploymentSync, type DeploymentWorld, type ReplicaSetAfter} from './sync-state.js'


/** Plans one sync of the Deployment controller for `deployment`. */
export function syncDeployment(deployment: DeploymentView, world: DeploymentWorld): DeploymentSync {
  return new Sync(deployment, world).run()
}

class Sync extends SyncState {
  run(): DeploymentSync {
    let endedBy: string | undefined
    try {
      this.syncDeployment()
    } catch (e) {
      if (!(e instanceof SyncEnded)) throw e
      endedBy = e.reason
    }
    const replicaSets: ReplicaSetAfter[] = []
    for (const c of this.rsList) {
      if (this.deleted.has(c.state.uid)) continue
      replicaSets.push(this.after(c.state, false))
    }
    if (this.newRS?.created) replicaSets.push(this.after(this.newRS, true))
    return {
      actions: this.actions,
      events: this.events,
      status: this.written ?? this.d.status,
      revision: this.annotations[ANNOTATION.revision],
      newReplicaSet: this.newRSInfo,
      replicaSets,
      endedBy,
      warnings: this.warnings,
      path: this.path,
    }
  }

  // ---- syncDeployment (D3) -------------------------------------------------------------------

  private syncDeployment(): void {
    const d = this.d
    this.claimReplicaSets()
    if (d.deletionTimestamp !== undefined) {
      this.path = 'deleting'
      const {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(false)
      this.syncDeploymentStatus([...oldRSs, newRS], newRS)
      return
    }
    this.checkPausedConditions()
    if (d.paused) {
      this.path = 'paused'
      this.sync()
      return
    }
    const rollbackTo = this.rollbackTo()
    if (rollbackTo !== undefined) {
      this.path = 'rollback'
      this.rollback(rollbackTo)
      return
    }
    if (this.isScalingEvent()) {
      this.path = 'scaling'
      this.sync()
      return
    }
    if (d.strategy.type === 'Recreate') {
      this.path = 'recreate'
      this.rolloutRecreate()
    } else if (d.strategy.type === 'RollingUpdate') {
      this.path = 'rolling'
      this.rolloutRolling()
    } else {
      this.path = 'unknown-strategy'
      throw new SyncEnded(`unexpected deployment strategy type: ${d.strategy.type}`)
    }
  }

  /** getReplicaSetsForDeployment → ClaimReplicaSets (D4.1): by uid, labels against the selector. */
  private claimReplicaSets(): void {
    const d = this.d
    const selector = compileLabelSelector(d.selector)
    const deleting = d.deletionTimestamp !== undefined
    // In the order the API server lists them: by name.
    const candidates = [...this.world.claimCandidates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const rs of candidates) {
      const ref = controllerOf(rs)
      const matches = selectorMatches(selector, rs.labels)
      if (ref) {
        if (ref.uid !== d.uid) continue
        if (matches) this.claim(rs)
        else if (!deleting) this.actions.push({type: 'releaseReplicaSet', replicaSet: rs.name, uid: rs.uid, resourceVersion: rs.resourceVersion})
        continue
      }
      if (deleting || !matches || rs.deletionTimestamp !== undefined || rs.namespace !== d.namespace) continue
      this.actions.push({type: 'adoptReplicaSet', replicaSet: rs.name, uid: rs.uid, resourceVersion: rs.resourceVersion})
      // ClaimReplicaSets hands on the object it read, not the one the adoption patch returned:
      // an Update of it later in this sync names a resourceVersion the patch replaced.
      this.claim(rs).stale = true
      this.staleStates.add(this.cache.get(rs.uid)!.state)
    }
  }

  private claim(rs: Workload): Cached {
    const c: Cached = {rs, state: stateOf(rs), stale: false}
    this.cache.set(rs.uid, c)
    this.rsList.push(c)
    return c
  }

  private rollbackTo(): bigint | undefined {
    const v = this.annotations[ANNOTATION.rollbackTo]
    if (v === undefined || v === '') return undefined
    return parseInt64(v)
  }

  // ---- finding and creating the new ReplicaSet (D4.2–D4.6) -----------------------------------

  /** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's, hash label aside. */
  private findNewReplicaSet(): Cached | undefined {
    const sorted = [...this.rsList].sort((a, b) => byCreation(a.state, b.state))
    return sorted.find((c) => this.world.sameTemplate(c.rs))
  }

  private getAllReplicaSetsAndSyncRevision(create: boolean): {newRS?: RsState; oldRSs: RsState[]} {
    const existing = this.findNewReplicaSet()
    const oldRSs = [...this.rsList].sort((a, b) => byCreation(a.state, b.state)).filter((c) => c !== existing).map((c) => c.state)
    const newRS = this.getNewReplicaSet(existing, oldRSs, create)
    return {newRS, oldRSs}
  }

  private getNewReplicaSet(existing: Cached | undefined, oldRSs: RsState[], create: boolean): RsState | undefined {
    const d = this.d
    let maxOld = 0n
    for (const rs of oldRSs) {
      const v = revisionOf(rs.annotations)
      if (v !== undefined && v > maxOld) maxOld = v
    }
    const newRevision = String(maxOld + 1n)
    if (existing) {
      const copy: RsState = {...existing.state, annotations: {...existing.state.annotations}}
      const changed = this.setNewReplicaSetAnnotations(copy, newRevision, true)
      if (changed || copy.minReadySeconds !== d.minReadySeconds) {
        copy.minReadySeconds = d.minReadySeconds
        this.updateReplicaSet(existing, copy)
        this.newRS = copy
        this.noteNew(copy.name, false)
        return copy
      }
      if (this.staleStates.has(existing.state)) this.staleStates.add(copy)
      const revisionChanged = this.setRevision(copy.annotations[ANNOTATION.revision])
      let needsUpdate = revisionChanged
      if (hasProgressDeadline(d) && !this.condition('Progressing')) {
        this.setCondition({type: 'Progressing', status: 'True', reason: 'FoundNewReplicaSet', message: `Found new replica set "${copy.name}"`})
        needsUpdate = true
      }
      if (needsUpdate) this.writeStatus(this.status)
      this.newRS = copy
      this.noteNew(copy.name, false)
      return copy
    }
    if (!create) return undefined
    return this.createNewReplicaSet(oldRSs, newRevision)
  }

  private noteNew(name: string | null, created: boolean, hash?: string | null): void {
    const label = name === null ? undefined : this.cacheByName(name)?.rs.labels[POD_TEMPLATE_HASH]
    this.newRSInfo = {name, podTemplateHash: hash !== undefined ? hash : (label ?? null), created}
  }

  /** SetNewReplicaSetAnnotations (D4.4): copy annotations, raise the revision, keep its history. */
  private setNewReplicaSetAnnotations(rs: RsState, newRevision: string, exists: boolean): boolean {
    let changed = false
    for (const [k, v] of Object.entries(this.annotations)) {
      if (isSkippedAnnotation(k) || rs.annotations[k] === v) continue
      rs.annotations[k] = v
      changed = true
    }
    const had = Object.hasOwn(rs.annotations, ANNOTATION.revision)
    const oldRevision = rs.annotations[ANNOTATION.revision] ?? ''
    let oldInt = parseInt64(oldRevision)
    if (oldInt === undefined) {
      if (oldRevision !== '') return false
      oldInt = 0n
    }
    const newInt = BigInt(newRevision)
    if (oldInt < newInt) {
      rs.annotations[ANNOTATION.revision] = newRevision
      changed = true
      if (had) this.appendRevisionHistory(rs, oldRevision)
    }
    if (!exists) {
      const desired = String(this.d.replicas)
      const max = String(this.d.replicas + maxSurge(this.d))
      if (rs.annotations[ANNOTATION.desiredReplicas] !== desired || rs.annotations[ANNOTATION.maxReplicas] !== max) changed = true
      rs.annotations[ANNOTATION.desiredReplicas] = desired
      rs.annotations[ANNOTATION.maxReplicas] = max
    }
    return changed
  }

  private appendRevisionHistory(rs: RsState, oldRevision: string): void {
    const history = rs.annotations[ANNOTATION.revisionHistory] ?? ''
    const old = history.split(',')
    if (old[0].length === 0) {
      rs.annotations[ANNOTATION.revisionHistory] = oldRevision
      return
    }
    let total = history.length + oldRevision.length + 1
    let start = 0
    while (total > MAX_REVISION_HISTORY_CHARS && start < old.length) total -= old[start++].length + 1
    if (total <= MAX_REVISION_HISTORY_CHARS) rs.annotations[ANNOTATION.revisionHistory] = [...old.slice(start), oldRevision].join(',')
  }

  private createNewReplicaSet(oldRSs: RsState[], newRevision: string): RsState | undefined {
    const d = this.d
    const hashed = this.world.templateHash(d, this.status.collisionCount)
    const labels = (hash: string): Labels => ({...d.template.labels, [POD_TEMPLATE_HASH]: hash})
    const selector = (hash: string) => ({...d.selector!, matchLabels: {...(d.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash}})
    const draft: RsState = {
      name: '',
      uid: '',
      resourceVersion: '',
      generation: 1,
      replicas: 0,
      minReadySeconds: d.minReadySeconds,
      annotations: {},
      status: {replicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0, conditions: []},
      created: true,
    }
    draft.replicas = newRSNewReplicas(d, [...oldRSs, draft], draft)
    this.setNewReplicaSetAnnotations(draft, newRevision, false)
    const base = {
      type: 'createReplicaSet' as const,
      replicas: draft.replicas,
      minReadySeconds: d.minReadySeconds,
      annotations: draft.annotations,
      ownerReference: ownerRef(d),
    }
    if ('unknown' in hashed) {
      this.warnings.push(`the new ReplicaSet's name is unknown: ${hashed.unknown}`)
      this.actions.push({...base, name: null, podTemplateHash: null, labels: d.template.labels, selector: d.selector, outcome: 'created'})
      this.noteNew(null, true, null)
      throw new SyncEnded('the name of the ReplicaSet it creates is unknown here, so what follows is not planned')
    }
    const hash = hashed.hash
    const name = replicaSetName(d.name, hash)
    const action: CreateReplicaSetAction = {...base, name, podTemplateHash: hash, labels: labels(hash), selector: selector(hash), outcome: 'created'}
    const clash = this.world.replicaSets.find((rs) => rs.name === name)
    if (clash) {
      const ref = controllerOf(clash)
      // The AlreadyExists branch reads the ReplicaSet from the lister after the create's answer, by
      // which time the release patch of this sync has come back through the watch: it is no longer ours.
      const released = this.actions.some((a) => a.type === 'releaseReplicaSet' && a.uid === clash.uid && !a.conflict)
      if (ref?.uid === d.uid && !released && this.world.sameTemplate(clash)) {
        // A slow cache: the ReplicaSet is ours already; no event, no NewReplicaSetCreated.
        this.actions.push({...action, outcome: 'exists'})
        const state = this.cache.get(clash.uid)?.state ?? stateOf(clash)
        this.newRS = state
        this.noteNew(name, false, hash)
        this.setRevision(newRevision) && this.writeStatus(this.status)
        return state
      }
      this.actions.push({...action, outcome: 'collision'})
      this.status = {...this.status, collisionCount: (this.status.collisionCount ?? 0) + 1}
      this.writeStatus(this.status)
      throw new SyncEnded(`ReplicaSet ${name} already exists with another template (a hash collision): collisionCount becomes ${this.status.collisionCount} and the next sync hashes again`)
    }
    if (draft.replicas > 0) action.event = `Scaled up replica set ${name} from 0 to ${draft.replicas}`
    this.actions.push(action)
    if (action.event) this.events.push(`Normal ScalingReplicaSet ${action.event}`)
    const created: RsState = {...draft, name, uid: `(new ${name})`}
    this.newRS = created
    this.noteNew(name, true, hash)
    let needsUpdate = this.setRevision(newRevision)
    if (hasProgressDeadline(d)) {
      this.setCondition({type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${name}"`})
      needsUpdate = true
    }
    if (needsUpdate) this.writeStatus(this.status)
    return created
  }

  private isScalingEvent(): boolean {
    const {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(false)
    for (const rs of activeReplicaSets([...oldRSs, newRS])) {
      const desired = replicasAnnotation(rs.annotations, ANNOTATION.desiredReplicas)
      if (desired !== undefined && desired !== this.d.replicas) return true
    }
    return false
  }

  /** sync(): scale, clean up when paused, then syncDeploymentStatus. */
  private sync(): void {
    const {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(false)
    const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a))
    this.scale(newRS, newestFirst)
    if (this.d.paused && this.rollbackTo() === undefined) this.cleanupDeployment(oldRSs)
    this.syncDeploymentStatus([...newestFirst, newRS], newRS)
  }

  private scale(newRS: RsState | undefined, oldNewestFirst: RsState[]): void {
    const d = this.d
    // FindActiveOrLatest
    if (newRS !== undefined || oldNewestFirst.length > 0) {
      const active = activeReplicaSets([...oldNewestFirst, newRS])
      const target = active.length === 0 ? (newRS ?? oldNewestFirst[0]) : active.length === 1 ? active[0] : undefined
      if (target) {
        if (target.replicas !== d.replicas) this.scaleReplicaSet(target, d.replicas, 'active-or-latest', false)
        return
      }
    }
    if (isSaturated(d, newRS)) {
      for (const old of activeReplicaSets(oldNewestFirst)) this.scaleReplicaSet(old, 0, 'saturated', false)
      return
    }
    if (!isRollingUpdate(d)) return
    const all = activeReplicaSets([...oldNewestFirst, newRS])
    const allowed = d.replicas > 0 ? d.replicas + maxSurge(d) : 0
    const toAdd = allowed - sumSpec(all)
    if (toAdd > 0) all.sort(bySizeNewer)
    else if (toAdd < 0) all.sort(bySizeOlder)
    let added = 0
    const size = new Map<RsState, number>()
    for (const rs of all) {
      if (toAdd !== 0) {
        const proportion = replicaSetProportion(rs, d, toAdd, added)
        size.set(rs, rs.replicas + proportion)
        added += proportion
      } else size.set(rs, rs.replicas)
    }
    all.forEach((rs, i) => {
      if (i === 0 && toAdd !== 0) size.set(rs, Math.max(0, size.get(rs)! + toAdd - added))
      this.scaleReplicaSet(rs, size.get(rs)!, 'proportional', true)
    })
  }

  // ---- RollingUpdate (D5) --------------------------------------------------------------------

  private rolloutRolling(): void {
    const {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(true)
    const all = [...oldRSs, newRS!]
    if (this.reconcileNewReplicaSet(all, newRS!)) return this.syncRolloutStatus(all, newRS)
    if (this.reconcileOldReplicaSets(all, activeReplicaSets(oldRSs), newRS!)) return this.syncRolloutStatus(all, newRS)
    if (deploymentComplete(this.d, this.d.status)) this.cleanupDeployment(oldRSs)
    this.syncRolloutStatus(all, newRS)
  }

  private reconcileNewReplicaSet(all: RsState[], newRS: RsState): boolean {
    const d = this.d
    if (newRS.replicas === d.replicas) return false
    if (newRS.replicas > d.replicas) return this.scaleReplicaSet(newRS, d.replicas, 'new-replica-set', false).scaled
    return this.scaleReplicaSet(newRS, newRSNewReplicas(d, all, newRS), 'new-replica-set', false).scaled
  }

  private reconcileOldReplicaSets(all: RsState[], activeOld: RsState[], newRS: RsState): boolean {
    const d = this.d
    if (sumSpec(activeOld) === 0) return false
    const minAvailable = d.replicas - maxUnavailable(d)
    const newUnavailable = newRS.replicas - newRS.status.availableReplicas
    const maxScaledDown = sumSpec(all) - minAvailable - newUnavailable
    if (maxScaledDown <= 0) return false
    // A refused scale in either step (an adopted ReplicaSet scaled through the copy read before
    // its adoption) is swallowed here: reconcileOldReplicaSets answers "nothing scaled, no error",
    // so rolloutRolling goes on to the history cleanup and the rollout status.
    try {
      return this.scaleDownOld(activeOld, newRS, minAvailable, maxScaledDown)
    } catch (e) {
      if (!(e instanceof SyncEnded)) throw e
      this.warnings.push(`${e.reason}; reconcileOldReplicaSets swallows the error and the sync goes on as if nothing was scaled down`)
      return false
    }
  }

  /** cleanupUnhealthyReplicas, then scaleDownOldReplicaSetsForRollingUpdate: whether either scaled. */
  private scaleDownOld(activeOld: RsState[], newRS: RsState, minAvailable: number, maxScaledDown: number): boolean {
    // cleanupUnhealthyReplicas: replicas asked for but not available go first, oldest ReplicaSet first.
    const old = [...activeOld].sort(byCreation)
    let cleaned = 0
    for (let i = 0; i < old.length; i++) {
      const rs = old[i]
      if (cleaned >= maxScaledDown) break
      if (rs.replicas === 0 || rs.replicas === rs.status.availableReplicas) continue
      const n = Math.min(maxScaledDown - cleaned, rs.replicas - rs.status.availableReplicas)
      // More available than asked for makes n negative: upstream refuses ("invalid request") and
      // reconcileOldReplicaSets swallows the error, ending this step.
      if (n < 0) return false
      old[i] = this.scaleReplicaSet(rs, rs.replicas - n, 'unhealthy', false).rs
      cleaned += n
    }
    // scaleDownOldReplicaSetsForRollingUpdate: bounded by availability alone.
    const available = sumAvailable([...old, newRS])
    let scaledDown = 0
    if (available > minAvailable) {
      const total = available - minAvailable
      for (const rs of old) {
        if (scaledDown >= total) break
        if (rs.replicas === 0) continue
        const n = Math.min(rs.replicas, total - scaledDown)
        this.scaleReplicaSet(rs, rs.replicas - n, 'availability', false)
        scaledDown += n
      }
    }
    return cleaned + scaledDown > 0
  }

  // ---- Recreate (D6) -------------------------------------------------------------------------

  private rolloutRecreate(): void {
    const d = this.d
    let {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(false)
    let all = [...oldRSs, newRS]
    let scaledDown = false
    for (const rs of activeReplicaSets(oldRSs)) if (this.scaleReplicaSet(rs, 0, 'recreate', false).scaled) scaledDown = true
    if (scaledDown) return this.syncRolloutStatus(all, newRS)
    if (this.oldPodsRunning(newRS, oldRSs)) {
      this.warnings.push('waiting for the old pods to be gone before the new ReplicaSet is created or scaled up')
      return this.syncRolloutStatus(all, newRS)
    }
    if (!newRS) {
      ;({newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(true))
      all = [...oldRSs, newRS]
    }
    this.scaleReplicaSet(newRS!, d.replicas, 'recreate', false)
    if (deploymentComplete(d, d.status)) this.cleanupDeployment(oldRSs)
    this.syncRolloutStatus(all, newRS)
  }

  /** oldPodsRunning: old ReplicaSets report pods, or a pod of theirs is not Failed or Succeeded. */
  private oldPodsRunning(newRS: RsState | undefined, oldRSs: RsState[]): boolean {
    if (oldRSs.reduce((n, rs) => n + rs.status.replicas, 0) > 0) return true
    for (const c of this.rsList) {
      if (newRS !== undefined && c.state.uid === newRS.uid) continue
      if (this.world.podsOf(c.rs).some((p) => p.phase !== 'Failed' && p.phase !== 'Succeeded')) return true
    }
    return false
  }

  // ---- rollback (D8) -------------------------------------------------------------------------

  private rollback(target: bigint): void {
    const {newRS, oldRSs} = this.getAllReplicaSetsAndSyncRevision(true)
    const all = [...oldRSs, ...(newRS ? [newRS] : [])]
    let revision = target
    if (revision === 0n) {
      revision = lastRevision(all)
      if (revision === 0n) return this.clearRollback(String(target), 'revision-not-found', 'Warning DeploymentRollbackRevisionNotFound Unable to find last revision.')
    }
    for (const rs of all) {
      if (revisionOf(rs.annotations) !== revision) continue
      const cached = this.cache.get(rs.uid)
      if (cached && this.world.sameTemplate(cached.rs)) {
        return this.clearRollback(String(revision), 'template-unchanged', `Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "${this.d.name}"`)
      }
      return this.clearRollback(String(revision), 'rolled-back', `Normal DeploymentRollback Rolled back deployment "${this.d.name}" to revision ${revision}`)
    }
    this.clearRollback(String(revision), 'revision-not-found', 'Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.')
  }

  /** updateDeploymentAndClearRollbackTo: an Update of the Deployment (it conflicts after a status write). */
  private clearRollback(toRevision: string, outcome: 'rolled-back' | 'revision-not-found' | 'template-unchanged', event: string): void {
    // The Update always stores something (the rollback annotation goes), so it replaces the resourceVersion.
    const conflicts = this.deploymentStale
    this.deploymentStale = true
    // The event of a rollback is recorded only when the Update succeeds; the warnings before it.
    if (outcome !== 'rolled-back' || !conflicts) this.events.push(event)
    this.actions.push({type: 'rollback', toRevision, outcome, event: event.split(' ').slice(2).join(' '), ...(conflicts ? {conflict: true as const} : {})})
    if (conflicts) throw new SyncEnded('the rollback is an Update of the Deployment after this sync already wrote it: it conflicts, and the next sync retries it')
  }

  // ---- history cleanup (D10) -----------------------------------------------------------------

  private cleanupDeployment(oldRSs: RsState[]): void {
    const d = this.d
    if (!hasRevisionHistoryLimit(d)) return
    const cleanable = oldRSs.filter((rs) => rs.deletionTimestamp === undefined)
    const diff = cleanable.length - d.revisionHistoryLimit!
    if (diff <= 0) return
    cleanable.sort(byRevision)
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i]
      if (rs.status.replicas !== 0 || rs.replicas !== 0 || rs.generation > rs.status.observedGeneration || rs.deletionTimestamp !== undefined) continue
      this.actions.push({type: 'deleteReplicaSet', replicaSet: rs.name, uid: rs.uid, resourceVersion: rs.resourceVersion, revision: rs.annotations[ANNOTATION.revision] ?? '', reason: 'history-limit'})
      this.deleted.add(rs.uid)
    }
  }

}
