// One sync of the ReplicaSet / ReplicationController controller: ReplicaSetController.syncReplicaSet
// and manageReplicas (pkg/controller/replicaset/replica_set.go). Pure: the clock and gates come in
// through the World (reconcile/planner.ts).
//
// Assumed, because a stateless reader cannot know them (docs/replicaset-controller.md Appendix C):
// expectations are satisfied, adoption/release patches and API calls succeed.
import type {PodView, Workload} from '../../model/objects.js'
import type {Action, ControllerPlan, DeleteAction, TieGroup} from '../../model/plan.js'
import {claimPods} from '../../reconcile/ownership.js'
import type {World} from '../../reconcile/planner.js'
import {controllerOf, isControlledBy, isPodActive} from '../../reconcile/pods.js'
import {choosePodsToDelete, type RankContext, rankPods} from '../../reconcile/rank.js'
import {type CompiledSelector, compileLabelSelector, SelectorError, selectorMatches} from '../../reconcile/selector.js'
import {createAction} from './create.js'
import {calculateStatus, currentStatus, statusToWrite} from './status.js'

/** One sync of one controller against the world (its plan before contested-adoption warnings). */
export function planController(workload: Workload, world: World): ControllerPlan {
  const {options, now, index} = world
  const warnings: string[] = []
  const base = {
    kind: workload.kind,
    apiVersion: workload.apiVersion,
    namespace: workload.namespace,
    name: workload.name,
    uid: workload.uid,
    resourceVersion: workload.resourceVersion,
    desired: workload.replicas,
  }

  let selector: CompiledSelector
  try {
    selector = compileLabelSelector(workload.selector)
  } catch (error) {
    // syncReplicaSet logs the conversion error and returns without requeue: nothing happens.
    if (!(error instanceof SelectorError)) throw error
    warnings.push(`invalid selector (${error.message}): the controller skips every sync of it`)
    return {...base, active: 0, diff: 0, actions: [], pending: 0, status: currentStatus(workload), warnings, inSync: true}
  }

  const candidates = index.claimCandidates(workload)
  const claim = claimPods(workload, selector, candidates.filter(isPodActive))
  const activePods = claim.claimed
  const diff = activePods.length - workload.replicas
  const deleting = workload.deletionTimestamp !== undefined

  const actions: Action[] = []
  for (const pod of claim.adopted) actions.push({type: 'adopt', pod: pod.name, uid: pod.uid, resourceVersion: pod.resourceVersion})
  for (const pod of claim.released) actions.push({type: 'release', pod: pod.name, uid: pod.uid, resourceVersion: pod.resourceVersion})

  const ties: TieGroup[] = []
  let pending = 0
  let manageError: string | undefined
  if (deleting) {
    // syncReplicaSet skips manageReplicas for good: the diff is never acted on, so none is pending.
    warnings.push('being deleted: the controller creates, deletes, adopts and releases nothing')
  } else if (diff < 0) {
    const n = Math.min(-diff, options.burstReplicas)
    const create = createAction(workload)
    if (create.error) {
      // slowStartBatch: the first batch (one pod) fails, so no further batch is tried.
      actions.push(create)
      manageError = create.error
      pending = -diff - 1
    } else {
      // Every pod is created from the same request: one value, listed once per pod.
      for (let i = 0; i < n; i++) actions.push(create)
      pending = -diff - n
    }
  } else if (diff > 0) {
    const n = Math.min(diff, options.burstReplicas)
    const deletes = deleteActions(workload, activePods, n, world)
    actions.push(...deletes.actions)
    if (deletes.tie) ties.push(deletes.tie)
    pending = diff - n
  }

  const computed = calculateStatus({
    workload,
    activePods,
    namespacePods: candidates,
    selector,
    manageError,
    now,
    terminatingReplicasGate: options.featureGates.DeploymentReplicaSetTerminatingReplicas,
  })
  const written = statusToWrite(workload, computed)
  if (written) actions.push({type: 'updateStatus', from: currentStatus(workload), to: written})

  warnings.push(...misreferenceWarnings(index.misreferenced(workload)))
  warnings.push(...overlapWarnings(index.controlledByOthers(workload.namespace, workload.uid, selector).filter(isPodActive), world))
  if (!selectorMatches(selector, workload.template.labels)) {
    warnings.push('the selector does not match the template\'s labels: pods it creates are never counted, so it keeps creating')
  }

  return {
    ...base,
    active: activePods.length,
    diff,
    actions,
    pending,
    status: written ?? currentStatus(workload),
    warnings,
    inSync: actions.length === 0 && pending === 0,
    ...(ties.length > 0 ? {ties} : {}),
  }
}

/** manageReplicas, diff > 0: rank against related pods, delete the first n; the tie at the cut, if any. */
function deleteActions(workload: Workload, activePods: PodView[], n: number, world: World): {actions: DeleteAction[]; tie?: TieGroup} {
  const ctx: RankContext = {now: world.now, gates: world.options.featureGates}
  const related = relatedPods(workload, world)
  const ranked = rankPods(activePods, related, ctx)
  const choice = choosePodsToDelete(ranked, n, ctx)
  const inTie = new Set(choice.tie)
  const tie: TieGroup | undefined = choice.tie.length > 0 ? {id: 1, pods: choice.tie.map((p) => p.pod.name), delete: choice.victims.filter((v) => inTie.has(v)).length} : undefined
  const actions = choice.victims.map((victim) => {
    const action: DeleteAction = {
      type: 'delete',
      pod: victim.pod.name,
      uid: victim.pod.uid,
      resourceVersion: victim.pod.resourceVersion,
      decidedBy: choice.decidedBy.get(victim.pod.uid) ?? 'all',
      facts: victim.facts,
    }
    if (choice.decidedAgainst) action.decidedAgainst = choice.decidedAgainst.pod.name
    if (tie && inTie.has(victim)) {
      action.tieGroup = tie.id // the tie's pods are listed once, in the controller plan's `ties`
    }
    return action
  })
  return {actions, tie}
}

/**
 * getIndirectlyRelatedPods: pods matching the selector of any ReplicaSet with the same controller
 * owner (normally the Deployment), de-duplicated by UID. None for a controller without an owner.
 */
function relatedPods(workload: Workload, world: World): PodView[] {
  const owner = controllerOf(workload)
  if (!owner) return []
  const seen = new Set<string>()
  const related: PodView[] = []
  for (const sibling of world.siblingsByOwner.get(owner.uid) ?? []) {
    if (sibling.kind !== workload.kind) continue
    let selector: CompiledSelector
    try {
      selector = compileLabelSelector(sibling.selector)
    } catch {
      continue // an invalid selector matches no pods
    }
    for (const pod of world.index.matching(sibling.namespace, selector)) {
      if (seen.has(pod.uid)) continue
      seen.add(pod.uid)
      related.push(pod)
    }
  }
  return related
}

/**
 * Pods our selector matches that another controller holds: the controllers overlap
 * (kubernetes#2210). A pod its controller releases in its own next sync is different: once
 * released it is an orphan we may adopt, if our sync comes after its release.
 */
function overlapWarnings(foreign: readonly PodView[], world: World): string[] {
  const owners = new Map<string, string[]>()
  const released: string[] = []
  for (const pod of foreign) {
    const ref = controllerOf(pod)!
    const key = `${ref.kind}/${ref.name}`
    const owner = world.controllerByUid(ref.uid)
    if (owner && releases(owner, pod)) {
      released.push(`pod ${pod.name} matches the selector but is controlled by ${key}, which releases it in its next sync: this controller may adopt it once it is released (which of the two syncs first decides)`)
      continue
    }
    owners.set(key, [...(owners.get(key) ?? []), pod.name])
  }
  return [
    ...[...owners].map(
      ([owner, pods]) =>
        `${pods.length} active pod${pods.length === 1 ? '' : 's'} matching the selector ${pods.length === 1 ? 'is' : 'are'} controlled by ${owner} (${pods.join(', ')}): overlapping controllers; they are ignored here`,
    ),
    ...released,
  ]
}

/** Whether `owner`'s next sync releases `pod` (claimPods rule 3: controlled, no longer matching, owner not being deleted). */
function releases(owner: Workload, pod: PodView): boolean {
  if (owner.deletionTimestamp !== undefined || !isControlledBy(pod, owner)) return false
  let selector: CompiledSelector
  try {
    selector = compileLabelSelector(owner.selector)
  } catch {
    return false // an invalid selector: the owner skips its syncs
  }
  return !selectorMatches(selector, pod.labels)
}

/** Pods that name this controller's uid under another kind or name: the controller never sees them. */
function misreferenceWarnings(pods: readonly PodView[]): string[] {
  return pods.map((pod) => {
    const ref = controllerOf(pod)!
    return `pod ${pod.name} names this controller's uid with kind/name ${ref.kind}/${ref.name}: the controller will not see it (it finds its pods by kind, name and uid), so it neither counts, releases nor deletes it`
  })
}

/**
 * An orphan two controllers both match goes to whichever syncs first (the loser's adoption patch is
 * refused because a controller ref exists); each plan counts it, so say so on both. Returns the
 * warnings to append to each plan concerned, in order; `controllers` must be sorted by kind,
 * namespace and name, and only the plans of controllers that adopt a pod matter.
 */
export function contestedAdoptions(controllers: readonly ControllerPlan[]): Map<ControllerPlan, string[]> {
  const adopters = new Map<string, ControllerPlan[]>()
  for (const c of controllers) {
    for (const a of c.actions) if (a.type === 'adopt') adopters.set(a.uid, [...(adopters.get(a.uid) ?? []), c])
  }
  const out = new Map<ControllerPlan, string[]>()
  for (const [uid, plans] of adopters) {
    if (plans.length < 2) continue
    for (const plan of plans) {
      const pod = plan.actions.find((a) => a.type === 'adopt' && a.uid === uid) as {pod: string}
      const others = plans.filter((p) => p !== plan).map((p) => `${p.kind}/${p.name}`).join(', ')
      const warnings = out.get(plan)
      const warning = `orphan pod ${pod.pod} also matches ${others}: whichever controller syncs first adopts it, and the other's plan changes`
      if (warnings) warnings.push(warning)
      else out.set(plan, [warning])
    }
  }
  return out
}
