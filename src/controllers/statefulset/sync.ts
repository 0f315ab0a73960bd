// One sync of the StatefulSet controller: StatefulSetController.sync (stateful_set.go) and
// defaultStatefulSetControl.UpdateStatefulSet (stateful_set_control.go), in its order: revisions,
// then each ordinal (processReplica), the condemned ones (processCondemned), the rolling update,
// the status, and the history limit. Pure: the clock comes in; MaxUnavailableStatefulSet is off
// (its 1.36 default), so a rolling update replaces one pod at a time.
import type {ControllerRevisionView, Labels, OwnerReference, PodView} from '../../model/objects.js'
import type {Action, BlockReason, ControllerPlan} from '../../model/plan.js'
import type {ClaimView, StatefulSetStatusView, StatefulSetView} from './model.js'
import {claimPods} from '../../reconcile/ownership.js'
import {controllerOf} from '../../reconcile/pods.js'
import {isServerShaped, maxRevision, recordsTemplate, REVISION_HASH_LABEL, sortRevisions, statefulSetRevisionData, statefulSetRevisionHash, storedRevisionData} from '../../reconcile/revisions.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {isPodAvailable} from '../../reconcile/status.js'
import {startPlan} from '../../reconcile/workload-plan.js'
import {claimIsStale, claimLabels, claimName, claimOwnersToWrite, podOwner} from './claims.js'

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name'
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index'

export interface StatefulSetWorld {
  /** Pods of its namespace that name it as controller, and orphans (FilterPodsByOwner). */
  candidates: readonly PodView[]
  /** Every ControllerRevision and PersistentVolumeClaim of its namespace. */
  revisions: readonly ControllerRevisionView[]
  /** Of those revisions, the ones it controls and the orphans, when known (the others are never listed). */
  revisionCandidates?: readonly ControllerRevisionView[]
  claims: ReadonlyMap<string, ClaimView>
  now: bigint
  /** The MaxUnavailableStatefulSet feature gate (off in 1.36). */
  maxUnavailableGate: boolean
}

/** getParentNameAndOrdinal: `<parent>-<ordinal>`, or ordinal −1 when the name does not parse. */
export function parseOrdinal(name: string): {parent: string; ordinal: number} {
  const dash = ordinalDash(name)
  const ordinal = ordinalAfter(name, dash)
  return ordinal < 0 ? {parent: '', ordinal: -1} : {parent: name.slice(0, dash), ordinal}
}

/** Where the digits that end the name start, less one (where their `-` must be). */
function ordinalDash(name: string): number {
  let i = name.length
  while (i > 0 && name.charCodeAt(i - 1) >= 48 && name.charCodeAt(i - 1) <= 57) i--
  return i - 1
}

/**
 * The ordinal of `<parent>-<digits>` with its `-` at `dash`, as the pattern `^(.*)-([0-9]+)$`
 * reads it (the parent free of line breaks, which `.` does not match), at most MaxInt32; −1 otherwise.
 */
function ordinalAfter(name: string, dash: number): number {
  if (dash < 0 || dash === name.length - 1 || name.charCodeAt(dash) !== 45) return -1
  for (let i = 0; i < dash; i++) {
    const c = name.charCodeAt(i)
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return -1
  }
  let ordinal = 0
  for (let i = dash + 1; i < name.length; i++) {
    ordinal = ordinal * 10 + (name.charCodeAt(i) - 48)
    if (ordinal > 2147483647) return -1
  }
  return ordinal
}

/** parseOrdinal(name).ordinal. */
const ordinalOf = (name: string): number => ordinalAfter(name, ordinalDash(name))

/** Whether the name is `<parent>-<ordinal>` (parseOrdinal's parent is `parent`). */
function isOrdinalOf(name: string, parent: string): boolean {
  if (name.length <= parent.length + 1 || !name.startsWith(parent)) return false
  const dash = ordinalDash(name)
  return dash === parent.length && ordinalAfter(name, dash) >= 0
}

/** A pod slot: a pod that exists, or the placeholder of one this sync would create. */
interface Slot {
  ordinal: number
  pod?: PodView
  /** The revision name a created pod gets (null: not computable here), and which template. */
  revision: string | null
  template: 'current' | 'update'
}

interface Revisions {
  current: {name: string | null}
  update: {name: string | null; hash: string | null; created: boolean}
  collisionCount: number
  listed: ControllerRevisionView[]
}

export function planStatefulSet(set: StatefulSetView, world: StatefulSetWorld): ControllerPlan {
  const {plan, selector} = startPlan(set, set.replicas)
  if (!selector) return plan
  const {actions, warnings} = plan
  const now = world.now
  const available = (p: PodView) => isPodAvailable(p, set.minReadySeconds, now)
  const runningAndReady = (p: PodView) => p.phase === 'Running' && p.ready
  const terminating = (p: PodView) => p.deletionTimestamp !== undefined
  const unavailable = (p: PodView) => !available(p) || terminating(p)

  // adoptOrphanRevisions: the revisions it lists (matching, owned or orphan); orphans are adopted.
  const listed = (world.revisionCandidates ?? world.revisions).filter((r) => {
    const ref = controllerOf(r)
    return (ref === undefined || ref.uid === set.uid) && selectorMatches(selector, r.labels)
  })
  for (const r of [...listed].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!controllerOf(r)) actions.push({type: 'adoptControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion})
  }
  // getPodsForStatefulSet: the selector, and a name of this set.
  const isMember = (p: PodView) => isOrdinalOf(p.name, set.name)
  const claim = claimPods(set, selector, world.candidates, isMember)
  for (const p of claim.adopted) actions.push({type: 'adopt', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion})
  for (const p of claim.released) actions.push({type: 'release', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion})

  const revs = revisions(set, sortRevisions(listed), world.revisions, actions, warnings)
  plan.updateRevision = revs.update
  const currentName = revs.current.name
  const updateName = revs.update.name
  const unknownName = `${set.name}-<hash unknown here>`

  // Slots: in-range pods by ordinal, placeholders for missing ones; condemned highest first.
  const start = set.ordinalsStart
  const end = start + set.replicas - 1
  const pods = claim.claimed
  const {inRange, condemned} = podsByOrdinal(pods, start, end, set.replicas)
  condemned.sort((a, b) => parseOrdinal(b.name).ordinal - parseOrdinal(a.name).ordinal)
  const ru = set.updateStrategy.rollingUpdate
  const slots = podSlots(set, inRange, currentName, updateName)
  // firstUnavailablePod: the lowest slot not available (a placeholder counts), else the lowest condemned one.
  const firstSlot = slots.find((s) => !s.pod || unavailable(s.pod))
  const firstUnavailable = firstSlot ? firstSlot.pod : [...condemned].reverse().find((p) => unavailable(p))

  const status = (currentReplicasDelta = 0): StatefulSetStatusView => {
    const s: StatefulSetStatusView = {
      observedGeneration: set.generation,
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      currentRevision: currentName ?? unknownName,
      updateRevision: updateName ?? unknownName,
      collisionCount: revs.collisionCount,
    }
    const count = (p: PodView | undefined) => {
      if (p === undefined) return
      if (p.phase !== '') s.replicas++
      if (runningAndReady(p)) {
        s.readyReplicas++
        if (available(p)) s.availableReplicas++
      }
      if (p.phase !== '' && !terminating(p)) {
        const r = p.labels[REVISION_HASH_LABEL]
        if (currentName !== null && r === currentName) s.currentReplicas++
        if (updateName !== null && r === updateName) s.updatedReplicas++
      }
    }
    for (const p of inRange) count(p)
    for (const p of condemned) count(p)
    s.currentReplicas += currentReplicasDelta
    return s
  }

  const ended = (pod: string, reason: BlockReason) => {
    plan.blockedBy = {pod, reason}
  }
  const monotonic = set.podManagementPolicy !== 'Parallel'
  let deltaCurrent = 0
  const done = () => {
    writeStatus(plan, set, status(deltaCurrent))
    truncateHistory(set, revs, pods, actions)
    let active = 0
    for (const p of pods) if (!terminating(p)) active++
    plan.active = active
    plan.diff = plan.active - set.replicas
    plan.inSync = actions.length === 0
    plan.rolloutStep = rolloutStep(plan.status as StatefulSetStatusView, set)
    return plan
  }
  if (set.deletionTimestamp !== undefined) {
    warnings.push('being deleted: the controller writes its status and nothing else')
    return done()
  }

  // processReplica for each slot, lowest ordinal first (S6.4).
  const checks: Checks = {runningAndReady, available, terminating}
  const stop = processSlots(set, slots, world.claims, monotonic, checks, actions, warnings)
  if (stop) {
    ended(nameOf(set, stop.ordinal), stop.blocked)
    return done()
  }

  // fixPodClaim for every condemned pod, then processCondemned, highest ordinal first.
  for (const p of condemned) fixClaims(set, p.name, p.uid, parseOrdinal(p.name).ordinal, false, world.claims, actions)
  for (const p of condemned) {
    if (terminating(p)) {
      if (monotonic) {
        ended(p.name, 'terminating')
        return done()
      }
      continue
    }
    if (monotonic && p !== firstUnavailable && (!runningAndReady(p) || !available(p))) {
      ended(p.name, !runningAndReady(p) ? 'not-running-and-ready' : 'not-available')
      return done()
    }
    actions.push({type: 'deleteStatefulPod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, ordinal: parseOrdinal(p.name).ordinal, reason: 'condemned'})
    if (monotonic) return done()
  }

  if (set.updateStrategy.type === 'OnDelete') return done()
  if (world.maxUnavailableGate) {
    deltaCurrent -= rollingUpdateWithinBudget(set, slots, updateName, unavailable, terminating, actions)
    return done()
  }
  if (ru?.maxUnavailable !== undefined) {
    warnings.push('rollingUpdate.maxUnavailable is used only with the MaxUnavailableStatefulSet feature gate, off in Kubernetes 1.36: pods are replaced one at a time')
  }
  // The rolling update (S6.8): from the highest ordinal down to the partition, one pod per sync.
  const min = ru?.partition ?? 0
  for (let t = slots.length - 1; t >= min; t--) {
    const p = slots[t].pod
    if (!p) break
    if ((updateName === null || p.labels[REVISION_HASH_LABEL] !== updateName) && !terminating(p)) {
      actions.push({type: 'deleteStatefulPod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, ordinal: slots[t].ordinal, reason: 'update'})
      deltaCurrent--
      break
    }
    if (unavailable(p)) {
      ended(p.name, terminating(p) ? 'terminating' : !runningAndReady(p) ? 'not-running-and-ready' : 'not-available')
      break
    }
  }
  return done()
}

const nameOf = (set: StatefulSetView, ordinal: number) => `${set.name}-${ordinal}`

// The walks over a set's pods and slots are functions of their own: the sync itself, called once
// per set, is then optimised only once the helpers it calls once have their type feedback.

/** In-range pods by ordinal − start (of two with one ordinal, the later); the others with an ordinal are condemned, in the pods' order. */
function podsByOrdinal(pods: readonly PodView[], start: number, end: number, replicas: number): {inRange: (PodView | undefined)[]; condemned: PodView[]} {
  const inRange: (PodView | undefined)[] = new Array(replicas).fill(undefined)
  const condemned: PodView[] = []
  for (const p of pods) {
    const ord = ordinalOf(p.name)
    if (ord >= start && ord <= end) inRange[ord - start] = p
    else if (ord >= 0) condemned.push(p)
  }
  return {inRange, condemned}
}

/** A slot for each ordinal in range: its pod, or the revision and template a pod created there gets. */
function podSlots(set: StatefulSetView, inRange: readonly (PodView | undefined)[], currentName: string | null, updateName: string | null): Slot[] {
  const start = set.ordinalsStart
  const end = start + set.replicas - 1
  const ru = set.updateStrategy.rollingUpdate
  const slots: Slot[] = []
  for (let ord = start; ord <= end; ord++) {
    // newVersionedStatefulSetPod (S4.4), with Go's operator precedence kept.
    const atCurrent =
      (set.updateStrategy.type === 'RollingUpdate' && ru === undefined && ord < start + set.status.currentReplicas) || (ru !== undefined && ord < start + ru.partition)
    slots.push({ordinal: ord, pod: inRange[ord - start], revision: atCurrent ? currentName : updateName, template: atCurrent ? 'current' : 'update'})
  }
  return slots
}

/** processReplica for each slot until one stops the pass: that slot's ordinal and why (an error is also warned). */
function processSlots(
  set: StatefulSetView,
  slots: readonly Slot[],
  claims: ReadonlyMap<string, ClaimView>,
  monotonic: boolean,
  c: Checks,
  actions: Action[],
  warnings: string[],
): {ordinal: number; blocked: BlockReason} | undefined {
  for (const slot of slots) {
    const r = processReplica(set, slot, claims, monotonic, c, actions)
    if (r.error) {
      warnings.push(r.error)
      return {ordinal: slot.ordinal, blocked: r.blocked!}
    }
    if (r.blocked && monotonic) return {ordinal: slot.ordinal, blocked: r.blocked}
  }
  return undefined
}

/** getStatefulSetMaxUnavailable: rollingUpdate.maxUnavailable (default 1), a percentage of replicas rounded down, at least 1. */
export function statefulSetMaxUnavailable(set: StatefulSetView): number {
  const v = set.updateStrategy.rollingUpdate?.maxUnavailable ?? 1
  return Math.max(1, typeof v === 'number' ? v : Math.floor((Number.parseInt(v, 10) * set.replicas) / 100))
}

/**
 * updateStatefulSetAfterInvariantEstablished (S6.9, MaxUnavailableStatefulSet on): with fewer
 * unavailable slots than maxUnavailable (a percentage of replicas rounded down, at least 1), delete
 * out-of-date pods from the highest ordinal down to the partition, up to the difference. Returns how many.
 */
function rollingUpdateWithinBudget(
  set: StatefulSetView,
  slots: readonly Slot[],
  updateName: string | null,
  unavailable: (p: PodView) => boolean,
  terminating: (p: PodView) => boolean,
  actions: Action[],
): number {
  const ru = set.updateStrategy.rollingUpdate
  const maxUnavailable = statefulSetMaxUnavailable(set)
  const down = slots.filter((s) => !s.pod || unavailable(s.pod)).length
  let budget = maxUnavailable - down
  let deleted = 0
  for (let t = slots.length - 1; t >= (ru?.partition ?? 0) && budget > 0; t--) {
    const p = slots[t].pod
    if (!p || terminating(p) || (updateName !== null && p.labels[REVISION_HASH_LABEL] === updateName)) continue
    actions.push({type: 'deleteStatefulPod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, ordinal: slots[t].ordinal, reason: 'update'})
    budget--
    deleted++
  }
  return deleted
}

interface Checks {
  runningAndReady: (p: PodView) => boolean
  available: (p: PodView) => boolean
  terminating: (p: PodView) => boolean
}

/** processReplica (S6.4) for one slot: its writes, and why the pass stops there (monotonic). */
function processReplica(
  set: StatefulSetView,
  slot: Slot,
  claims: ReadonlyMap<string, ClaimView>,
  monotonic: boolean,
  c: Checks,
  actions: Action[],
): {blocked?: BlockReason; error?: string} {
  const p = slot.pod
  if (p && (p.phase === 'Failed' || p.phase === 'Succeeded')) {
    if (!c.terminating(p)) actions.push({type: 'deleteStatefulPod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, ordinal: slot.ordinal, reason: p.phase === 'Failed' ? 'failed' : 'succeeded'})
    return {blocked: 'failed'}
  }
  if (!p || p.phase === '') {
    if (p) return {blocked: 'created', error: `pod ${p.name} has no status.phase: the controller takes it for one not yet created and its create fails (AlreadyExists)`}
    const name = nameOf(set, slot.ordinal)
    for (const t of set.volumeClaimTemplates) {
      const existing = claims.get(claimName(t.name, set, slot.ordinal))
      if (existing && claimIsStale(set, existing, podOwner(name, ''))) return {blocked: 'stale-claim'}
    }
    const error = createClaims(set, name, slot.ordinal, claims, actions)
    if (error) return {blocked: 'claim-deleting', error}
    const claimVolumes: Record<string, string> = {}
    for (const t of set.volumeClaimTemplates) claimVolumes[t.name] = claimName(t.name, set, slot.ordinal)
    const labels: Record<string, string> = {...set.template.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(slot.ordinal)}
    if (slot.revision !== null) labels[REVISION_HASH_LABEL] = slot.revision
    actions.push({
      type: 'createStatefulPod',
      pod: name,
      ordinal: slot.ordinal,
      revision: slot.revision,
      template: slot.template,
      labels: labels as Labels,
      hostname: name,
      subdomain: set.serviceName,
      claims: claimVolumes,
      ownerReference: {apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.name, uid: set.uid, controller: true, blockOwnerDeletion: true},
    })
    // Claims already in the cache get their references now; new ones in a later pass.
    fixClaims(set, name, '', slot.ordinal, true, claims, actions)
    return monotonic ? {blocked: 'created'} : GOES_ON
  }
  if (p.phase === 'Pending') {
    const error = createClaims(set, nameOf(set, slot.ordinal), slot.ordinal, claims, actions)
    if (error) return {blocked: 'claim-deleting', error}
    fixClaims(set, p.name, p.uid, slot.ordinal, true, claims, actions)
  }
  // Only an OrderedReady pass waits here; a Parallel one puts every pod's identity, storage and
  // claim owners right, terminating or not ready as it may be.
  if (monotonic) {
    if (c.terminating(p)) return {blocked: 'terminating'}
    if (!c.runningAndReady(p)) return {blocked: 'not-running-and-ready'}
    if (!c.available(p)) return {blocked: 'not-available'}
  }
  // identityMatches, storageMatches, claim references (UpdateStatefulPod): claims are created and
  // their owners fixed first, then the pod is written (even when only its claims were off).
  let fixes: string[] | undefined
  if (p.labels[POD_NAME_LABEL] !== p.name) fixes = ['pod-name-label']
  if (fixes && p.labels[POD_INDEX_LABEL] !== String(slot.ordinal)) fixes.push('pod-index-label')
  if (set.volumeClaimTemplates.length > 0 && set.volumeClaimTemplates.some((t) => p.claimVolumes?.[t.name] !== claimName(t.name, set, slot.ordinal))) {
    ;(fixes ??= []).push('volumes')
    createClaims(set, p.name, slot.ordinal, claims, actions)
  }
  // A Pending pod's claims were put right above; the cache does not show it yet.
  if (p.phase !== 'Pending' && set.volumeClaimTemplates.length > 0 && fixClaims(set, p.name, p.uid, slot.ordinal, true, claims, actions) > 0) (fixes ??= []).push('claim-owners')
  if (fixes) actions.push({type: 'updatePod', pod: p.name, uid: p.uid, resourceVersion: p.resourceVersion, fixes})
  return GOES_ON
}

/** processReplica's answer when the pass goes on (shared: it is only read). */
const GOES_ON: {blocked?: BlockReason; error?: string} = Object.freeze({})

/** createPersistentVolumeClaims: the missing ones; one being deleted is an error (no pod this sync). */
function createClaims(set: StatefulSetView, pod: string, ordinal: number, claims: ReadonlyMap<string, ClaimView>, actions: Action[]): string | undefined {
  const deleting: string[] = []
  for (const t of set.volumeClaimTemplates) {
    const name = claimName(t.name, set, ordinal)
    const existing = claims.get(name)
    if (!existing) actions.push({type: 'createClaim', claim: name, template: t.name, pod, labels: claimLabels(set, t.labels), annotations: t.annotations})
    else if (existing.deletionTimestamp !== undefined) deleting.push(name)
  }
  return deleting.length > 0 ? deleting.map((n) => `pvc ${n} is being deleted: the pod is not created this sync`).join('; ') : undefined
}

/** UpdatePodClaimForRetentionPolicy over the claims that exist (S5.3). */
function fixClaims(set: StatefulSetView, pod: string, podUid: string, ordinal: number, inRange: boolean, claims: ReadonlyMap<string, ClaimView>, actions: Action[]): number {
  let updated = 0
  for (const t of set.volumeClaimTemplates) {
    const claim = claims.get(claimName(t.name, set, ordinal))
    if (!claim) continue
    const to = claimOwnersToWrite(claim, set, podOwner(pod, podUid), inRange)
    if (!to) continue
    actions.push({type: 'updateClaim', claim: claim.name, uid: claim.uid, resourceVersion: claim.resourceVersion, pod, from: [...claim.ownerReferences] as OwnerReference[], to})
    updated++
  }
  return updated
}

/** getStatefulSetRevisions (S3.4): the update revision (reused, bumped or created) and the current one. */
/** `all`: every revision of the namespace, which a new revision's name may clash with (AlreadyExists). */
function revisions(set: StatefulSetView, listed: ControllerRevisionView[], all: readonly ControllerRevisionView[], actions: Action[], warnings: string[]): Revisions {
  let collisionCount = set.status.collisionCount
  const compared = new Map<ControllerRevisionView, boolean>()
  const recordsIt = recordsTemplate(set.rawTemplate)
  const sameTemplate = (r: ControllerRevisionView) => {
    let same = compared.get(r)
    if (same === undefined) {
      same = recordsIt(r)
      compared.set(r, same)
    }
    return same
  }
  // FindEqualRevisions compares the stored bytes with the new revision's; they are known when the
  // template is the API server's own JSON (otherwise the templates are compared). Only the latest
  // revision is also compared by meaning (StatefulSetSemanticRevisionComparison).
  const exact = set.serverDefaulted || isServerShaped(set.rawTemplate) ? statefulSetRevisionData(set.rawTemplate) : undefined
  const isEqual = (r: ControllerRevisionView) => (exact !== undefined ? storedRevisionData(r) === exact : sameTemplate(r))
  const equal = listed.filter(isEqual)
  const latest = listed.at(-1)
  const next = maxRevision(listed) + 1
  let update: Revisions['update']
  const reuseLatest = (equal.length > 0 && equal.at(-1) === latest) || (equal.length === 0 && latest !== undefined && sameTemplate(latest))
  if (reuseLatest) update = {name: latest!.name, hash: latest!.labels[REVISION_HASH_LABEL] ?? null, created: false}
  else if (equal.length > 0) {
    const r = equal.at(-1)!
    actions.push({type: 'updateControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion, from: r.revision, to: next})
    update = {name: r.name, hash: r.labels[REVISION_HASH_LABEL] ?? null, created: false}
  } else {
    let hash: string | null = null
    let name: string | null = null
    let exists = false
    if (exact !== undefined) {
      // The data is exact only from the API server's own JSON of the template (S3.2).
      const data = exact
      for (;;) {
        hash = statefulSetRevisionHash(data, collisionCount)
        name = `${set.name.slice(0, 223)}-${hash}`
        // CreateControllerRevision: a name taken by other data bumps the collision count and tries again.
        const taken = all.find((r) => r.name === name)
        exists = taken !== undefined && isEqual(taken)
        if (!taken || exists) break
        collisionCount++
      }
    } else {
      warnings.push('the new revision\'s name is not computed here: it hashes the template exactly as the API server stores it, defaults included (read the set from a cluster, or from its `kubectl get -o yaml`)')
    }
    // One of that name with this very template (not listed: another owner's) is used as it is.
    if (!exists) {
      actions.push({
        type: 'createControllerRevision',
        name,
        hash,
        revision: next,
        labels: hash === null ? set.template.labels : {...set.template.labels, [REVISION_HASH_LABEL]: hash},
        ownerReference: {apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.name, uid: set.uid, controller: true, blockOwnerDeletion: true},
      })
    }
    update = {name, hash, created: !exists}
  }
  const current = listed.find((r) => r.name === set.status.currentRevision)
  return {current: current ? {name: current.name} : {name: update.name}, update, collisionCount, listed}
}

/** truncateHistory (S3.6): revisions no pod or status uses, oldest first, beyond revisionHistoryLimit. */
function truncateHistory(set: StatefulSetView, revs: Revisions, pods: readonly PodView[], actions: Action[]): void {
  if (set.revisionHistoryLimit < 0) return
  const live = new Set<string>([revs.current.name, revs.update.name].filter((n): n is string => n !== null))
  for (const p of pods) live.add(p.labels[REVISION_HASH_LABEL] ?? '')
  const history = revs.listed.filter((r) => !live.has(r.name))
  for (const r of history.slice(0, Math.max(0, history.length - set.revisionHistoryLimit))) {
    actions.push({type: 'deleteControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion, revision: r.revision, reason: 'history-limit'})
  }
}

/** completeRollingUpdate, then updateStatefulSetStatus's comparison (S8.3, S8.4). */
function writeStatus(plan: ControllerPlan, set: StatefulSetView, to: StatefulSetStatusView): void {
  if (set.updateStrategy.type === 'RollingUpdate' && to.updatedReplicas === set.replicas && to.readyReplicas === set.replicas && to.replicas === set.replicas) {
    to.currentReplicas = to.updatedReplicas
    to.currentRevision = to.updateRevision
  }
  const from = set.status
  const changed =
    to.observedGeneration > from.observedGeneration ||
    (['replicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas', 'currentRevision', 'availableReplicas', 'updateRevision'] as const).some((k) => to[k] !== from[k])
  plan.status = changed ? to : from
  if (changed) plan.actions.push({type: 'updateStatus', from, to})
}

function rolloutStep(s: StatefulSetStatusView, set: StatefulSetView): string {
  if (s.replicas !== set.replicas) return `scaling: ${s.replicas} pods for ${set.replicas} replicas, ${s.readyReplicas} ready`
  if (s.currentRevision === s.updateRevision) return `${s.readyReplicas} of ${set.replicas} ready`
  return `${s.updatedReplicas} of ${set.replicas} updated, ${s.readyReplicas} ready`
}
