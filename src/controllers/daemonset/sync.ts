// One sync of the DaemonSet controller (syncDaemonSet in pkg/controller/daemon/daemon_controller.go,
// rollingUpdate and the history functions in update.go). Pure: the clock comes in; expectations
// are assumed satisfied, failed pods are assumed out of backoff, API calls succeed.
import type {ControllerRevisionView, IntOrString, Labels, NodeView, OwnerReference, PodView, Toleration} from '../../model/objects.js'
import type {Action, ControllerPlan} from '../../model/plan.js'
import type {ChooseDaemonPodsAction, CreateDaemonPodAction, DaemonDeleteReason, DaemonNode, DaemonSetStatusView, DaemonSetView, DeleteDaemonPodAction} from './model.js'
import {GENERATED_BASE_LENGTH} from '../../reconcile/create.js'
import {podTemplateHash, podTemplateHasher, UnhashableTemplate} from '../../reconcile/hash/index.js'
import {claimPods} from '../../reconcile/ownership.js'
import {isServerShaped, maxRevision, recordsTemplate, REVISION_HASH_LABEL, revisionTemplate, sortRevisions, statefulSetRevisionData, storedRevisionData} from '../../reconcile/revisions.js'
import type {CompiledSelector} from '../../reconcile/selector.js'
import {isPodAvailable} from '../../reconcile/status.js'
import {startPlan} from '../../reconcile/workload-plan.js'
import {objectTime} from '../../reconcile/time.js'
import {daemonNodeTest, daemonPodAffinity, daemonTolerations, type NodeDecision} from './nodes.js'

/** BurstReplicas of the DaemonSet controller (cmd/kube-controller-manager: 250). */
export const DAEMON_BURST = 250
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation'
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation'

export interface DaemonSetWorld {
  nodes: readonly NodeView[]
  /** Pods in the DaemonSet's namespace that name it as controller, and orphans (FilterPodsByOwner). */
  candidates: readonly PodView[]
  /** Every ControllerRevision in its namespace. */
  revisions: readonly ControllerRevisionView[]
  /** Of those, the ones it controls and the orphans, when known (it claims no other). */
  revisionCandidates?: readonly ControllerRevisionView[]
  now: bigint
  /**
   * Node decisions already made for other DaemonSets of the same sync over the same nodes, by what
   * they depend on (the template's nodeName, nodeSelector, node affinity and tolerations).
   */
  placements?: Map<string, ReadonlyMap<string, NodeDecision>>
}

const byName = (a: {name: string}, b: {name: string}) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/** The nodes by name: the list itself when it is in order already (the planner sorts them once for every DaemonSet). */
export function sortedByName<T extends {name: string}>(nodes: readonly T[]): readonly T[] {
  if (sortedLists.has(nodes)) return nodes
  for (let i = 1; i < nodes.length; i++) if (nodes[i - 1].name > nodes[i].name) return [...nodes].sort(byName)
  return nodes
}

/** A sorted copy of the nodes that sortedByName then takes as it is (no one else holds it to change it). */
export function nodesByName<T extends {name: string}>(nodes: readonly T[]): readonly T[] {
  const sorted = [...nodes].sort(byName)
  sortedLists.add(sorted)
  return sorted
}

const sortedLists = new WeakSet<readonly unknown[]>()
const NO_PODS: readonly PodView[] = Object.freeze([])

/** podByCreationTimestampAndPhase (DS3.3): bound before unbound, then older, then by name. */
export function daemonPodOrder(a: PodView, b: PodView): number {
  if ((a.nodeName !== '') !== (b.nodeName !== '')) return a.nodeName !== '' ? -1 : 1
  const ta = objectTime(a.creationTimestamp) ?? 0n
  const tb = objectTime(b.creationTimestamp) ?? 0n
  if (ta !== tb) return ta < tb ? -1 : 1
  return byName(a, b)
}

/** GetScaledValueFromIntOrPercent rounding up, as the DaemonSet's update counts use it. */
export function scaledUp(v: IntOrString | undefined, total: number): number {
  if (v === undefined) return 0
  if (typeof v === 'number') return v
  return Math.ceil((Number.parseInt(v, 10) * total) / 100)
}

/** updatedDesiredNodeCounts: maxSurge and maxUnavailable against the desired nodes; both 0 means one unavailable. */
export function daemonUpdateBudget(ds: DaemonSetView, desired: number): {maxSurge: number; maxUnavailable: number} {
  const maxSurge = scaledUp(ds.updateStrategy.maxSurge, desired)
  const maxUnavailable = scaledUp(ds.updateStrategy.maxUnavailable, desired)
  return {maxSurge, maxUnavailable: desired > 0 && maxUnavailable === 0 && maxSurge === 0 ? 1 : maxUnavailable}
}

export function planDaemonSet(ds: DaemonSetView, world: DaemonSetWorld): ControllerPlan {
  const {plan, selector} = startPlan(ds, 0)
  if (!selector) return plan
  const {actions, warnings} = plan
  const tolerations = daemonTolerations(ds.template.spec)
  const nodes = sortedByName(world.nodes)
  const decisions = nodeDecisions(ds, nodes, tolerations, world.placements)
  const along = alongNodes(decisions, nodes)
  const desired = along.desired
  const claim = claimPods(ds, selector, world.candidates)
  const byNode = podsByNode(claim.claimed, nodes)
  // Each node's decision (the last made for its name) and pods, in the nodes' order.
  const on: NodeStates = {nodes, d: along.list, pods: byNode.along, allRead: byNode.elsewhere === undefined}
  plan.nodes = nodeEntries(along, on)
  plan.desired = desired
  if (ds.deletionTimestamp !== undefined) {
    // syncDaemonSet returns before anything, status included.
    warnings.push('being deleted: the controller does nothing more for it')
    plan.active = countScheduled(on)
    plan.diff = plan.active - plan.desired
    return plan
  }

  // constructHistory: claim the revisions, find the current one or create it.
  const history = constructHistory(ds, world.revisions, world.revisionCandidates ?? world.revisions, selector, actions)
  plan.updateRevision = {name: history.name, hash: history.hash, created: history.created}
  if (history.unknown) warnings.push(history.unknown)
  for (const pod of claim.adopted) actions.push({type: 'adopt', pod: pod.name, uid: pod.uid, resourceVersion: pod.resourceVersion})
  for (const pod of claim.released) actions.push({type: 'release', pod: pod.name, uid: pod.uid, resourceVersion: pod.resourceVersion})
  if (history.collision) {
    plan.endedBy = history.collision
    warnings.push(`this sync ends early: ${history.collision}`)
    writeStatus(plan, ds, {...ds.status, collisionCount: (ds.status.collisionCount ?? 0) + 1})
    return finish(plan, on)
  }
  const hash = history.hash
  const generation = ds.annotations[TEMPLATE_GENERATION_ANNOTATION]
  const isUpdated = (p: PodView) => (hash !== null && p.labels[REVISION_HASH_LABEL] === hash) || (generation !== undefined && p.labels[TEMPLATE_GENERATION_LABEL] === generation)
  const surge = ds.updateStrategy.type === 'RollingUpdate' && scaledUp(ds.updateStrategy.maxSurge, 1) !== 0
  const newPod = (node: string, reason: CreateDaemonPodAction['reason']): CreateDaemonPodAction => createDaemonPod(ds, node, hash, tolerations, reason)

  // manage: what each node needs, then unbound pods whose node is gone.
  const creates: CreateDaemonPodAction[] = []
  const deletes: DeleteDaemonPodAction[] = []
  const manage: ManageContext = {surge, hash, minReadySeconds: ds.minReadySeconds, now: world.now}
  manageNodes(on, manage, creates, deletes, newPod)
  // Pods of nodes not read, by node name.
  if (byNode.elsewhere) {
    for (const [node, pods] of [...byNode.elsewhere].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const p of pods) if (p.nodeName === '') deletes.push(deleteOf(p, node, 'no-node'))
    }
  }
  const created = creates.slice(0, DAEMON_BURST)
  const deleted = deletes.slice(0, DAEMON_BURST)
  plan.pending = creates.length - created.length + deletes.length - deleted.length
  actions.push(...created, ...deleted)

  // The rolling update runs only when manage had nothing to do (its expectations would be pending).
  if (created.length === 0 && deleted.length === 0 && ds.updateStrategy.type === 'RollingUpdate') {
    rollingUpdate(ds, on, decisions, byNode.elsewhere, {isUpdated, newPod, now: world.now}, plan)
  }
  cleanupHistory(ds, history.old, claim.claimed, actions)
  const status = daemonStatus(ds, on, isUpdated, world.now)
  writeStatus(plan, ds, status)
  return finish(plan, on)
}

/** The nodes read, in order, with each one's decision (the one for its name) and the pods on it. */
interface NodeStates {
  nodes: readonly NodeView[]
  d: readonly NodeDecision[]
  pods: (PodView[] | undefined)[]
  /** Every pod's node is among them. */
  allRead: boolean
}

/** getNodesToDaemonPods (DS3.2) along a list of nodes: each one's pods, and those of nodes not in the list by node name (undefined: none). */
interface PodsByNode {
  along: (PodView[] | undefined)[]
  elsewhere: Map<string, PodView[]> | undefined
}

/** Each node's pods and those of nodes not read, by node name (the rolling update's view when some node was not read). */
function podsByNodeName(on: NodeStates, elsewhere: ReadonlyMap<string, PodView[]> | undefined): Map<string, PodView[]> {
  const out = new Map(elsewhere)
  for (let i = 0; i < on.nodes.length; i++) {
    const pods = on.pods[i]
    if (pods) out.set(on.nodes[i].name, pods)
  }
  return out
}

/** shouldRunDaemonPod for every node: made once for the DaemonSets alike in what it depends on. */
function nodeDecisions(ds: DaemonSetView, nodes: readonly NodeView[], tolerations: readonly Toleration[], placements: DaemonSetWorld['placements']): ReadonlyMap<string, NodeDecision> {
  const spec = ds.template.spec as {nodeName?: unknown; nodeSelector?: unknown; affinity?: {nodeAffinity?: {requiredDuringSchedulingIgnoredDuringExecution?: unknown}}}
  const required = typeof spec.affinity === 'object' && spec.affinity !== null && typeof spec.affinity.nodeAffinity === 'object' && spec.affinity.nodeAffinity !== null ? spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined
  const key = placements ? JSON.stringify([spec.nodeName ?? null, spec.nodeSelector ?? null, required ?? null, tolerations], exactly) : ''
  const known = placements?.get(key)
  if (known) return known
  const test = daemonNodeTest(ds.template.spec, tolerations)
  const decisions = new Map<string, NodeDecision>()
  for (const n of nodes) decisions.set(n.name, test(n))
  placements?.set(key, decisions)
  return decisions
}

// The walks over every node are functions of their own: the sync itself, called once per
// DaemonSet, is then optimised only once the helpers it calls once have their type feedback.

/** Each node's entry in the plan, in the nodes' order. */
function nodeEntries(along: AlongNodes, on: NodeStates): DaemonNode[] {
  const {nodes, pods} = on
  const entries: DaemonNode[] = new Array(nodes.length)
  for (let i = 0; i < nodes.length; i++) {
    const list = pods[i]
    entries[i] = list === undefined ? podless(along, i, nodes[i]) : daemonNode(nodes[i], along.list[i], list)
  }
  return entries
}

/** manage's walk: podsShouldBeOnNode for every node. */
function manageNodes(
  on: NodeStates,
  c: ManageContext,
  creates: CreateDaemonPodAction[],
  deletes: DeleteDaemonPodAction[],
  newPod: (node: string, reason: CreateDaemonPodAction['reason']) => CreateDaemonPodAction,
): void {
  for (let i = 0; i < on.nodes.length; i++) podsShouldBeOnNode(on.nodes[i].name, on.d[i], on.pods[i], c, creates, deletes, newPod)
}

/** Of one set of decisions over one list of nodes: each node's decision, how many should run one, and the nodes' entries when they hold no pod. */
interface AlongNodes {
  nodes: readonly NodeView[]
  list: NodeDecision[]
  desired: number
  podless: (DaemonNode | undefined)[]
}

/** Made once for the DaemonSets that share their decisions (and the nodes). */
const alongNodesOf = new WeakMap<ReadonlyMap<string, NodeDecision>, AlongNodes>()

function alongNodes(decisions: ReadonlyMap<string, NodeDecision>, nodes: readonly NodeView[]): AlongNodes {
  const known = alongNodesOf.get(decisions)
  if (known && known.nodes === nodes) return known
  let desired = 0
  for (const d of decisions.values()) if (d.shouldRun) desired++
  const along: AlongNodes = {nodes, list: nodes.map((n) => decisions.get(n.name)!), desired, podless: new Array(nodes.length).fill(undefined)}
  alongNodesOf.set(decisions, along)
  return along
}

/** A node's entry when the DaemonSet has no pod on it: the same for every DaemonSet of those decisions (a plan only reads it). */
function podless(along: AlongNodes, i: number, node: NodeView): DaemonNode {
  return (along.podless[i] ??= daemonNode(node, along.list[i], undefined))
}

/** A JSON replacer that keeps apart what JSON would write alike (non-finite numbers, dates, undefined). */
function exactly(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key]
  if (raw instanceof Date) return {date: value}
  if (typeof value === 'number' && !Number.isFinite(value)) return {number: String(value)}
  if (value === undefined) return {undefined: true}
  return value
}

function finish(plan: ControllerPlan, on: NodeStates): ControllerPlan {
  plan.active = countScheduled(on)
  plan.diff = plan.active - plan.desired
  plan.inSync = plan.actions.length === 0
  const s = plan.status as DaemonSetStatusView
  plan.rolloutStep = `${s.updatedNumberScheduled} of ${s.desiredNumberScheduled} updated, ${s.numberAvailable} available`
  return plan
}

function countScheduled(on: NodeStates): number {
  let n = 0
  for (const pods of on.pods) if (pods !== undefined && pods.length > 0) n++
  return n
}

/** Where each node name first comes in a list of nodes sorted by name: made once for the DaemonSets planned over the list. */
const placesOf = new WeakMap<readonly NodeView[], ReadonlyMap<string, number>>()

function nodePlaces(nodes: readonly NodeView[]): ReadonlyMap<string, number> {
  let places = placesOf.get(nodes)
  if (!places) {
    const made = new Map<string, number>()
    for (let i = nodes.length - 1; i >= 0; i--) made.set(nodes[i].name, i)
    placesOf.set(nodes, (places = made))
  }
  return places
}

/** getNodesToDaemonPods (DS3.2): by spec.nodeName or the affinity's node; terminal pods being deleted left out; each node's oldest first (DS3.3). */
function podsByNode(claimed: readonly PodView[], nodes: readonly NodeView[]): PodsByNode {
  const places = nodePlaces(nodes)
  const along: (PodView[] | undefined)[] = new Array(nodes.length).fill(undefined)
  let elsewhere: Map<string, PodView[]> | undefined
  for (const p of claimed) {
    if ((p.phase === 'Failed' || p.phase === 'Succeeded') && p.deletionTimestamp !== undefined) continue
    const node = p.nodeName || p.affinityNode
    if (!node) continue
    const i = places.get(node)
    const list = i === undefined ? elsewhere?.get(node) : along[i]
    if (list) list.push(p)
    else if (i !== undefined) along[i] = [p]
    else (elsewhere ??= new Map()).set(node, [p])
  }
  for (let i = 0; i < along.length; i++) {
    const list = along[i]
    if (list === undefined) continue
    if (list.length > 1) list.sort(daemonPodOrder)
    // Nodes of one name (read twice) have the same pods.
    for (let j = i + 1; j < nodes.length && nodes[j].name === nodes[i].name; j++) along[j] = list
  }
  if (elsewhere) for (const list of elsewhere.values()) if (list.length > 1) list.sort(daemonPodOrder)
  return {along, elsewhere}
}

/** Keys in sorted order, as the plan writes them (it then need not copy the node). */
function daemonNode(node: NodeView, d: NodeDecision, pods: readonly PodView[] | undefined): DaemonNode {
  const names = pods === undefined ? [] : pods.length === 1 ? [pods[0].name] : pods.map((p) => p.name)
  const out: DaemonNode = d.excludedBy
    ? {excludedBy: d.excludedBy, node: node.name, pods: names, shouldContinueRunning: d.shouldContinueRunning, shouldRun: d.shouldRun}
    : {node: node.name, pods: names, shouldContinueRunning: d.shouldContinueRunning, shouldRun: d.shouldRun}
  if (d.taint) out.taint = d.taint
  return out
}

interface History {
  name: string | null
  hash: string | null
  created: boolean
  /** Revisions of other templates, as listed at the start of the sync. */
  old: ControllerRevisionView[]
  collision?: string
  /** Why the new revision's name is not known here. */
  unknown?: string
}

/** constructHistory and dedupCurHistories (DS7.1–DS7.3). */
function constructHistory(ds: DaemonSetView, revisions: readonly ControllerRevisionView[], candidates: readonly ControllerRevisionView[], selector: CompiledSelector, actions: Action[]): History {
  const claim = claimPods(ds, selector, [...candidates].sort(byName))
  for (const r of claim.adopted) actions.push({type: 'adoptControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion})
  for (const r of claim.released) actions.push({type: 'releaseControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion})
  // The controller takes a revision as current only when its stored bytes are getPatch's (the
  // same JSON as a StatefulSet's revision data), with no semantic fallback: a revision of the same
  // template written otherwise is an old one, and the new one's name then collides with it. Those
  // bytes are known when the template is the API server's own JSON; otherwise templates are compared.
  const exact = ds.serverDefaulted || isServerShaped(ds.rawTemplate) ? statefulSetRevisionData(ds.rawTemplate) : undefined
  const recordsIt = recordsTemplate(ds.rawTemplate)
  const isCurrent = (r: ControllerRevisionView) => (exact !== undefined ? storedRevisionData(r) === exact : recordsIt(r))
  const current: ControllerRevisionView[] = []
  const old: ControllerRevisionView[] = []
  for (const r of claim.claimed) (isCurrent(r) ? current : old).push(r)
  const next = maxRevision(old) + 1
  if (current.length > 0) {
    // The highest revision is kept; the others of the same template go.
    const keep = sortRevisions(current).at(-1)!
    for (const r of current) {
      if (r !== keep) actions.push({type: 'deleteControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion, revision: r.revision, reason: 'duplicate'})
    }
    if (keep.revision < next) actions.push({type: 'updateControllerRevision', name: keep.name, uid: keep.uid, resourceVersion: keep.resourceVersion, from: keep.revision, to: next})
    return {name: keep.name, hash: keep.labels[REVISION_HASH_LABEL] ?? keep.name, created: false, old}
  }
  let hash: string | null = null
  let unknown: string | undefined
  const foreign = otherHashing(ds, claim.claimed)
  if (foreign) unknown = `ControllerRevision ${foreign.name}'s hash ${foreign.labels[REVISION_HASH_LABEL]} is not what kctl computes for its template: this cluster's controller hashes templates differently (another Kubernetes version?), so the new revision's name is not guessed`
  else {
    try {
      hash = podTemplateHash(ds.rawTemplate, ds.status.collisionCount)
    } catch (error) {
      if (!(error instanceof UnhashableTemplate)) throw error
      unknown = `the new revision's name is not computed: ${error.message}`
    }
  }
  const name = hash === null ? null : `${ds.name}-${hash}`
  const clash = name === null ? undefined : revisions.find((r) => r.name === name)
  if (clash) {
    return {name, hash, created: false, old, collision: `ControllerRevision ${name} exists with another template: the create fails, collisionCount goes up and the next sync tries another name`}
  }
  actions.push({
    type: 'createControllerRevision',
    name,
    hash,
    revision: next,
    labels: hash === null ? ds.template.labels : {...ds.template.labels, [REVISION_HASH_LABEL]: hash},
    ownerReference: ownerRef(ds),
  })
  return {name, hash, created: true, old, unknown}
}

/**
 * Whether an existing revision's hash label is not what kctl computes for its template (for any
 * collision count up to the set's): this cluster's controller hashes differently (another
 * Kubernetes version), so a new revision's name is not guessed.
 */
function otherHashing(ds: DaemonSetView, revisions: readonly ControllerRevisionView[]): ControllerRevisionView | undefined {
  const counts = [undefined, ...Array.from({length: (ds.status.collisionCount ?? 0) + 1}, (_, i) => i)]
  return revisions.find((r) => {
    const label = r.labels[REVISION_HASH_LABEL]
    if (label === undefined || label === r.name) return false
    try {
      const hashOf = podTemplateHasher(revisionTemplate(r)) // the template printed once for every count
      return !counts.some((cc) => hashOf(cc) === label)
    } catch (error) {
      if (error instanceof UnhashableTemplate) return false
      throw error
    }
  })
}

function ownerRef(ds: DaemonSetView): OwnerReference {
  return {apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.name, uid: ds.uid, controller: true, blockOwnerDeletion: true}
}

/** util.CreatePodTemplate plus the node's affinity (DS5.1–DS5.3). */
function createDaemonPod(ds: DaemonSetView, node: string, hash: string | null, tolerations: Toleration[], reason: CreateDaemonPodAction['reason']): CreateDaemonPodAction {
  const labels: Record<string, string> = {...ds.template.labels}
  const generation = ds.annotations[TEMPLATE_GENERATION_ANNOTATION]
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation
  if (hash !== null) labels[REVISION_HASH_LABEL] = hash
  const spec = ds.template.spec as {affinity?: unknown}
  const generateName = `${ds.name}-`
  return {
    type: 'createDaemonPod',
    node,
    generateName,
    nameBase: generateName.slice(0, GENERATED_BASE_LENGTH),
    labels: labels as Labels,
    ownerReference: ownerRef(ds),
    affinity: daemonPodAffinity(spec.affinity, node),
    tolerations: tolerations.map(asWritten),
    reason,
  }
}

/** A toleration as the pod carries it: empty fields left out (omitempty). */
function asWritten(t: Toleration): Partial<Toleration> {
  const out: Partial<Toleration> = {}
  for (const k of ['key', 'operator', 'value', 'effect'] as const) if (t[k] !== '') out[k] = t[k]
  if (t.tolerationSeconds !== undefined) out.tolerationSeconds = t.tolerationSeconds
  return out
}

/** Keys in sorted order, as the plan writes them (a rolling update's choices list thousands of these as plain data). */
function deleteOf(p: PodView, node: string, reason: DaemonDeleteReason, kept?: PodView): DeleteDaemonPodAction {
  return kept
    ? {kept: kept.name, node, pod: p.name, reason, resourceVersion: p.resourceVersion, type: 'deleteDaemonPod', uid: p.uid}
    : {node, pod: p.name, reason, resourceVersion: p.resourceVersion, type: 'deleteDaemonPod', uid: p.uid}
}

interface ManageContext {
  surge: boolean
  hash: string | null
  minReadySeconds: number
  now: bigint
}

/** podsShouldBeOnNode (DS4.1–DS4.4). `pods` are sorted oldest first. */
function podsShouldBeOnNode(
  node: string,
  d: NodeDecision,
  pods: readonly PodView[] | undefined,
  c: ManageContext,
  creates: CreateDaemonPodAction[],
  deletes: DeleteDaemonPodAction[],
  newPod: (node: string, reason: CreateDaemonPodAction['reason']) => CreateDaemonPodAction,
): void {
  if (d.shouldRun && pods === undefined) {
    creates.push(newPod(node, 'missing'))
    return
  }
  if (!d.shouldContinueRunning) {
    for (const p of pods ?? []) if (p.deletionTimestamp === undefined) deletes.push(deleteOf(p, node, 'not-eligible'))
    return
  }
  // One live pod, the usual case: it stays, with or without surge.
  if (pods !== undefined && pods.length === 1 && pods[0].deletionTimestamp === undefined && pods[0].phase !== 'Failed' && pods[0].phase !== 'Succeeded') return
  const running: PodView[] = []
  for (const p of pods ?? []) {
    if (p.deletionTimestamp !== undefined) continue
    if (p.phase === 'Failed') deletes.push(deleteOf(p, node, 'failed'))
    else if (p.phase === 'Succeeded') deletes.push(deleteOf(p, node, 'succeeded'))
    else running.push(p)
  }
  if (!c.surge) {
    for (let i = 1; i < running.length; i++) deletes.push(deleteOf(running[i], node, 'duplicate', running[0]))
    return
  }
  if (running.length <= 1) {
    if (running.length === 0 && d.shouldRun) creates.push(newPod(node, 'missing'))
    return
  }
  // With surge: keep the oldest pod of the current hash and the oldest other one.
  let oldestNew: PodView | undefined
  let oldestOld: PodView | undefined
  for (const p of running) {
    const isNew = c.hash !== null && p.labels[REVISION_HASH_LABEL] === c.hash
    if (isNew && !oldestNew) oldestNew = p
    else if (!isNew && !oldestOld) oldestOld = p
    else deletes.push(deleteOf(p, node, 'duplicate', isNew ? oldestNew : oldestOld))
  }
  if (oldestNew && oldestOld && (!oldestOld.ready || isPodAvailable(oldestNew, c.minReadySeconds, c.now))) {
    deletes.push(deleteOf(oldestOld, node, 'surge-replaced', oldestNew))
  }
}

interface UpdateContext {
  isUpdated: (p: PodView) => boolean
  newPod: (node: string, reason: CreateDaemonPodAction['reason']) => CreateDaemonPodAction
  now: bigint
}

/** findUpdatedPodsOnNode: at most one new and one old live pod, or undefined when there are more. */
function updatedPodsOnNode(pods: readonly PodView[], isUpdated: (p: PodView) => boolean): {newPod?: PodView; oldPod?: PodView} | undefined {
  let newPod: PodView | undefined
  let oldPod: PodView | undefined
  for (const p of pods) {
    if (p.deletionTimestamp !== undefined) continue
    if (isUpdated(p)) {
      if (newPod) return undefined
      newPod = p
    } else {
      if (oldPod) return undefined
      oldPod = p
    }
  }
  return {newPod, oldPod}
}

/**
 * rollingUpdate (DS6). Upstream walks a Go map, so when the budget allows fewer than all the
 * candidates, which ones go first is random: the plan then says how many of which (chooseDaemonPods).
 */
function rollingUpdate(
  ds: DaemonSetView,
  on: NodeStates,
  decisions: ReadonlyMap<string, NodeDecision>,
  elsewhere: ReadonlyMap<string, PodView[]> | undefined,
  c: UpdateContext,
  plan: ControllerPlan,
): void {
  let desired = 0
  for (const d of on.d) if (d.shouldRun) desired++
  const {maxSurge, maxUnavailable} = daemonUpdateBudget(ds, desired)
  const available = (p: PodView) => isPodAvailable(p, ds.minReadySeconds, c.now)
  const {names, lists} = nodesToUpdate(on, elsewhere)
  const actions = plan.actions

  if (maxSurge === 0) {
    let unavailable = 0
    const candidates: DeleteDaemonPodAction[] = []
    for (let k = 0; k < names.length; k++) {
      const node = names[k]
      const found = updatedPodsOnNode(lists[k], c.isUpdated)
      if (!found || (!found.newPod && !found.oldPod) || (found.newPod && found.oldPod)) unavailable++
      else if (found.newPod) {
        if (!available(found.newPod)) unavailable++
      } else if (!available(found.oldPod!)) {
        actions.push(deleteOf(found.oldPod!, node, 'update'))
        unavailable++
      } else candidates.push(deleteOf(found.oldPod!, node, 'update'))
    }
    pick(Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length), candidates, 'delete', actions, (a) => a.pod)
    return
  }

  let numSurge = 0
  let numAvailable = 0
  const allowedNew: CreateDaemonPodAction[] = []
  const candidateNew: CreateDaemonPodAction[] = []
  const shouldNotRun: DeleteDaemonPodAction[] = []
  for (let k = 0; k < names.length; k++) {
    const node = names[k]
    const found = updatedPodsOnNode(lists[k], c.isUpdated)
    if (!found) {
      numSurge++
      continue
    }
    const {newPod, oldPod} = found
    if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++
    if (!oldPod) continue
    if (!newPod) {
      const d = decisions.get(node)
      if (!d) {
        plan.endedBy = `node ${node} of pod ${oldPod.name} is not in the node list: the rolling update fails this sync`
        plan.warnings.push(`this sync ends early: ${plan.endedBy}`)
        return
      }
      if (!available(oldPod)) {
        if (!d.shouldRun) actions.push(deleteOf(oldPod, node, 'not-eligible'))
        else allowedNew.push(c.newPod(node, 'surge'))
      } else if (!d.shouldRun) shouldNotRun.push(deleteOf(oldPod, node, 'not-eligible'))
      else if (numSurge < maxSurge) candidateNew.push(c.newPod(node, 'surge'))
    } else if (!available(newPod)) numSurge++
    else actions.push(deleteOf(oldPod, node, 'surge-replaced', newPod))
  }
  // Pods on nodes that no longer run it go only as far as pods elsewhere are available.
  pick(Math.min(Math.max(0, numAvailable - desired), shouldNotRun.length), shouldNotRun, 'delete', actions, (a) => a.pod)
  actions.push(...allowedNew)
  pick(Math.min(Math.max(0, maxSurge - numSurge), candidateNew.length), candidateNew, 'create', actions, (a) => a.node)
}

/** The nodes with daemon pods and those that should run one, by name: their names, and each one's pods at the same place. */
function nodesToUpdate(on: NodeStates, elsewhere: ReadonlyMap<string, PodView[]> | undefined): {names: string[]; lists: PodView[][]} {
  const {nodes, d, pods} = on
  if (!on.allRead) {
    const map = podsByNodeName(on, elsewhere)
    for (let i = 0; i < nodes.length; i++) if (d[i].shouldRun && !map.has(nodes[i].name)) map.set(nodes[i].name, [])
    const sorted = [...map].sort(([a], [b]) => (a < b ? -1 : 1))
    return {names: sorted.map(([name]) => name), lists: sorted.map(([, list]) => list)}
  }
  // Every pod's node was read: the nodes' own order (by name) serves.
  const names: string[] = []
  const lists: PodView[][] = []
  for (let i = 0; i < nodes.length; i++) {
    const name = nodes[i].name
    if (names.length > 0 && names[names.length - 1] === name) continue
    const list = pods[i] ?? (d[i].shouldRun ? [] : undefined)
    if (list === undefined) continue
    names.push(name)
    lists.push(list)
  }
  return {names, lists}
}

/** All of them, none, or "count of these" when the controller's map order decides. */
function pick<A extends Action>(count: number, candidates: A[], operation: ChooseDaemonPodsAction['operation'], actions: Action[], id: (a: A) => string): void {
  if (count === 0) return
  if (count === candidates.length) {
    actions.push(...candidates)
    return
  }
  actions.push({type: 'chooseDaemonPods', operation, count, candidates: candidates.map(id), choices: candidates as Array<CreateDaemonPodAction | DeleteDaemonPodAction>})
}

/** cleanupHistory (DS7.4): the oldest old revisions beyond the limit, unless a pod still carries their hash. */
function cleanupHistory(ds: DaemonSetView, old: readonly ControllerRevisionView[], claimed: readonly PodView[], actions: Action[]): void {
  let toKill = old.length - ds.revisionHistoryLimit
  if (toKill <= 0) return
  const live = new Set(claimed.map((p) => p.labels[REVISION_HASH_LABEL]).filter((h) => h))
  for (const r of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break
    if (live.has(r.labels[REVISION_HASH_LABEL])) continue
    actions.push({type: 'deleteControllerRevision', name: r.name, uid: r.uid, resourceVersion: r.resourceVersion, revision: r.revision, reason: 'history-limit'})
    toKill--
  }
}

/** updateDaemonSetStatus (DS8): from the pods as read, the first pod of each node after DS3.3 ordering. */
function daemonStatus(ds: DaemonSetView, on: NodeStates, isUpdated: (p: PodView) => boolean, now: bigint): DaemonSetStatusView {
  const s = {desired: 0, current: 0, misscheduled: 0, ready: 0, updated: 0, available: 0}
  for (let i = 0; i < on.d.length; i++) {
    const pods = on.pods[i] ?? NO_PODS
    if (on.d[i].shouldRun) {
      s.desired++
      if (pods.length === 0) continue
      s.current++
      const first = pods[0]
      if (first.ready) {
        s.ready++
        if (isPodAvailable(first, ds.minReadySeconds, now)) s.available++
      }
      if (isUpdated(first)) s.updated++
    } else if (pods.length > 0) s.misscheduled++
  }
  const status: DaemonSetStatusView = {
    currentNumberScheduled: s.current,
    numberMisscheduled: s.misscheduled,
    desiredNumberScheduled: s.desired,
    numberReady: s.ready,
    observedGeneration: ds.generation,
    updatedNumberScheduled: s.updated,
    numberAvailable: s.available,
    numberUnavailable: s.desired - s.available,
  }
  if (ds.status.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount
  return status
}

/** storeDaemonSetStatus: written when a count differs or observedGeneration is behind. */
function writeStatus(plan: ControllerPlan, ds: DaemonSetView, to: DaemonSetStatusView): void {
  const from = ds.status
  const changed = (Object.keys(to) as (keyof DaemonSetStatusView)[]).some((k) => k !== 'observedGeneration' && to[k] !== from[k]) || from.observedGeneration < to.observedGeneration
  plan.status = changed ? to : from
  if (changed) plan.actions.push({type: 'updateStatus', from, to})
}
