// The planner's state kept up to date object by object, for watch mode: the same pod lookups and
// ReplicaSet groups planSnapshot builds once, updated by pod and controller adds, updates and
// deletes, so that an event re-plans only the controllers it can affect — through the same
// ReplicaSet sync and contested-adoption warnings planSnapshot uses (asked of the controllers'
// watch parts). At any moment, planning every controller of this state gives exactly
// planSnapshot's plans for a snapshot of the same objects.
//
// What an event can change (mirrors the event handlers of docs/replicaset-controller.md §1.6, widened to
// everything a plan shows, warnings included):
//   - a controller: its own plan; the plans of its sibling ReplicaSets (same controller owner),
//     whose deletion ranking counts pods matching its selector; the plans of the controllers that
//     match its pods (whether it releases one decides whether they may adopt it);
//   - a pod (old and new state): the plan of its controller; of every controller in its namespace
//     whose selector matches its labels (adoption, overlap warnings); and of their siblings that
//     are scaling down (co-location ranking);
//   - any adoption: the contested-adoption warnings of every other controller adopting that pod;
//   - a Deployment: its own plan. A ReplicaSet (old and new state): the plans of the Deployments
//     of its namespace that own it or whose selector matches it (adoption, release). A pod: the
//     plan of the Deployment owning its ReplicaSet (Recreate waits for old pods; the following step).
import type {DeploymentView, Labels, PodView, Workload} from '../model/objects.js'
import type {ControllerPlan, FeatureGates, PlannerOptions} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {addTo, PodIndex, removeFrom} from './pod-index.js'
import {byKindNamespaceName, planningWorld, type World} from './planner.js'
import {controllerOf, isPodActive} from './pods.js'
import {type CompiledSelector, compileLabelSelector, NOTHING, selectorMatches} from './selector.js'
import {objectTime, seconds} from './time.js'

/** `ReplicaSet/namespace/name`: how watch mode names a controller (the work queue's key). */
export function controllerKey(w: {kind: string; namespace: string; name: string}): string {
  return `${w.kind}/${w.namespace}/${w.name}`
}

export interface IncrementalOptions {
  featureGates: FeatureGates
  burstReplicas: number
  /** -l: only controllers whose own labels match are planned (all count as siblings). */
  selector?: CompiledSelector
}

/**
 * What the controllers' watch parts (src/watch/part.ts) tell the incremental planner: how one of
 * the objects it keeps pod by pod is planned (a ReplicaSet's sync) and the warnings of plans that
 * adopt one pod together; which objects it keeps grouped by their controller owner (every one, -l
 * or not, as planSnapshot's `snapshot.replicaSets`), and how an owner of grouped objects (a
 * Deployment) is planned.
 */
interface ObjectPlanners {
  plan(w: Workload, world: World): ControllerPlan
  adoptionWarnings(plans: readonly ControllerPlan[]): Map<ControllerPlan, string[]>
  grouped(w: Workload): boolean
  planOwner(owner: DeploymentView, owned: Workload[], world: World): ControllerPlan | undefined
}

function objectPlanners(): ObjectPlanners {
  const parts = CONTROLLERS.flatMap((c) => (c.watch?.by === 'object' ? [c.watch] : []))
  const one = <K extends 'planObject' | 'adoptionWarnings' | 'planOwner'>(field: K) => {
    const found = parts.flatMap((p) => (p[field] ? [p[field]] : []))
    if (found.length !== 1) throw new Error(`expected one watch part with ${field}, found ${found.length}`)
    return found[0]!
  }
  const planObject = one('planObject')
  const adoptionWarnings = one('adoptionWarnings')
  const planOwner = one('planOwner')
  return {
    plan: (w, world) => planObject(w, world),
    adoptionWarnings: (plans) => adoptionWarnings(plans),
    grouped: (w) => parts.some((p) => p.groupedByOwner?.(w) === true),
    planOwner: (owner, owned, world) => planOwner(owner, owned, world),
  }
}

/** A controller whose plan was worked out again: `previous` and `next` (undefined: not planned). */
export interface Replanned {
  key: string
  previous?: ControllerPlan
  next?: ControllerPlan
}

interface Entry {
  workload: Workload
  selector: CompiledSelector
  /** Planned (it passes -l); otherwise only kept as a sibling. */
  planned: boolean
  /** Its plan without contested-adoption warnings, and with them. */
  base?: ControllerPlan
  plan?: ControllerPlan
  /** UIDs of the pods `base` adopts. */
  adopts: readonly string[]
}

interface DeploymentEntry {
  deployment: DeploymentView
  selector: CompiledSelector
  planned: boolean
  plan?: ControllerPlan
}

/** Controllers of one namespace, indexed by one equality of their selector. */
interface NamespaceControllers {
  byPair: Map<string, Set<string>>
  /** Controllers whose selector has no single-value equality: checked against every pod. */
  rest: Set<string>
}

/**
 * The incremental planner. Feed it objects (`setPod`, `deletePod`, `setWorkload`,
 * `deleteWorkload`: each returns the keys of the controllers to plan again), then `plan(keys, now)`.
 */
export class IncrementalPlanner {
  readonly pods = new PodIndex()
  private readonly entries = new Map<string, Entry>()
  private readonly keyByUid = new Map<string, string>()
  /** ReplicaSets by controller-owner UID (every one, planned or not), as planSnapshot groups them. */
  private readonly siblings = new Map<string, Workload[]>()
  private readonly controllersByNamespace = new Map<string, NamespaceControllers>()
  /** Pod UID → keys of controllers whose plan adopts it. */
  private readonly adopters = new Map<string, Set<string>>()
  /** Controllers deleted since the last plan() that covered them, with their last state. */
  private readonly removed = new Map<string, Entry>()
  /** Deployments by key, and the ReplicaSets of each namespace (what a Deployment's sync reads). */
  private readonly deployments = new Map<string, DeploymentEntry>()
  private readonly removedDeployments = new Map<string, DeploymentEntry>()
  private readonly replicaSetsByNamespace = new Map<string, Set<Workload>>()
  private readonly groups: ObjectPlanners = objectPlanners()

  constructor(private readonly options: IncrementalOptions) {}

  get controllerCount(): number {
    let n = 0
    for (const e of this.entries.values()) if (e.planned) n++
    for (const e of this.deployments.values()) if (e.planned) n++
    return n
  }

  workload(key: string): Workload | undefined {
    return this.entries.get(key)?.workload
  }

  /** The object a key names (a Deployment, or a ReplicaSet or ReplicationController). */
  object(key: string): DeploymentView | Workload | undefined {
    return this.deployments.get(key)?.deployment ?? this.entries.get(key)?.workload
  }

  /** The current plan of a controller (after the last `plan` that covered it). */
  planOf(key: string): ControllerPlan | undefined {
    return this.deployments.get(key)?.plan ?? this.entries.get(key)?.plan
  }

  /** Every planned controller's current plan, in plan order (kind, namespace, name). */
  plans(): ControllerPlan[] {
    const out: ControllerPlan[] = []
    for (const e of this.entries.values()) if (e.planned && e.plan) out.push(e.plan)
    for (const e of this.deployments.values()) if (e.planned && e.plan) out.push(e.plan)
    return out.sort(byKindNamespaceName)
  }

  /** Keys of every planned controller. */
  plannedKeys(): string[] {
    const out: string[] = []
    for (const [key, e] of this.entries) if (e.planned) out.push(key)
    for (const [key, e] of this.deployments) if (e.planned) out.push(key)
    return out
  }

  setDeployment(deployment: DeploymentView): Set<string> {
    const key = controllerKey(deployment)
    this.removedDeployments.delete(key)
    const old = this.deployments.get(key)
    if (old && old.deployment.uid !== deployment.uid) this.keyByUid.delete(old.deployment.uid)
    let selector: CompiledSelector
    try {
      selector = compileLabelSelector(deployment.selector)
    } catch {
      selector = NOTHING
    }
    const planned = this.options.selector === undefined || selectorMatches(this.options.selector, deployment.labels)
    this.deployments.set(key, {deployment, selector, planned, plan: old?.plan})
    this.keyByUid.set(deployment.uid, key)
    return new Set([key])
  }

  deleteDeployment(deployment: DeploymentView): Set<string> {
    const key = controllerKey(deployment)
    const old = this.deployments.get(key)
    if (!old) return new Set()
    this.deployments.delete(key)
    if (this.keyByUid.get(old.deployment.uid) === key) this.keyByUid.delete(old.deployment.uid)
    this.removedDeployments.set(key, old)
    return new Set([key])
  }

  /** The Deployments whose next sync reads this ReplicaSet: its owner, and those whose selector matches it. */
  private deploymentsOf(rs: Workload, affected: Set<string>): void {
    if (!this.groups.grouped(rs) || this.deployments.size === 0) return
    const owner = controllerOf(rs)
    for (const [key, e] of this.deployments) {
      if (e.deployment.namespace !== rs.namespace) continue
      if (owner?.uid === e.deployment.uid || (!owner && selectorMatches(e.selector, rs.labels))) affected.add(key)
    }
  }

  /** The Deployment owning the ReplicaSet that controls this pod. */
  private deploymentOfPod(pod: PodView, affected: Set<string>): void {
    if (this.deployments.size === 0) return
    const rsKey = this.keyByUid.get(controllerOf(pod)?.uid ?? '')
    const rs = rsKey === undefined ? undefined : this.entries.get(rsKey)?.workload
    const owner = rs && controllerOf(rs)
    const key = owner && this.keyByUid.get(owner.uid)
    if (key !== undefined && this.deployments.has(key)) affected.add(key)
  }

  /** A pod was added or changed (`old`: its previous state, if known). */
  setPod(pod: PodView, old?: PodView): Set<string> {
    const affected = new Set<string>()
    if (old) {
      this.pods.delete(old)
      this.podAffects(old, affected)
    } else {
      const stored = this.pods.get(pod.namespace, pod.name)
      if (stored) {
        this.pods.delete(stored)
        this.podAffects(stored, affected)
      }
    }
    this.pods.set(pod)
    this.podAffects(pod, affected)
    this.deploymentOfPod(pod, affected)
    return affected
  }

  deletePod(pod: PodView): Set<string> {
    const affected = new Set<string>()
    const stored = this.pods.get(pod.namespace, pod.name) ?? pod
    this.pods.delete(stored)
    this.podAffects(stored, affected)
    this.deploymentOfPod(stored, affected)
    return affected
  }

  setWorkload(workload: Workload): Set<string> {
    const key = controllerKey(workload)
    const affected = new Set<string>()
    const current = this.entries.get(key)
    if (current) this.removeEntry(key, current, affected)
    // Deleted and created again before a plan(): it carries on from the deleted one's last plan.
    const old = current ?? this.removed.get(key)
    this.removed.delete(key)
    let selector: CompiledSelector
    try {
      selector = compileLabelSelector(workload.selector)
    } catch {
      selector = NOTHING // planController reports the invalid selector; it matches no pod
    }
    const planned = this.options.selector === undefined || selectorMatches(this.options.selector, workload.labels)
    const entry: Entry = {workload, selector, planned, base: old?.base, plan: old?.plan, adopts: old?.adopts ?? []}
    this.entries.set(key, entry)
    this.keyByUid.set(workload.uid, key)
    this.indexSelector(key, workload.namespace, selector)
    if (this.groups.grouped(workload)) {
      const owner = controllerOf(workload)
      if (owner) {
        const group = this.siblings.get(owner.uid)
        if (group) group.push(workload)
        else this.siblings.set(owner.uid, [workload])
      }
      let inNamespace = this.replicaSetsByNamespace.get(workload.namespace)
      if (!inNamespace) this.replicaSetsByNamespace.set(workload.namespace, (inNamespace = new Set()))
      inNamespace.add(workload)
      this.deploymentsOf(workload, affected)
    }
    affected.add(key)
    this.siblingsOf(workload, affected, false)
    this.releaseAffects(workload, affected)
    return affected
  }

  /**
   * Whether a controller releases a pod shows in the plans of the controllers that match it (they
   * may adopt it): a controller's change re-plans them.
   */
  private releaseAffects(w: Workload, affected: Set<string>): void {
    for (const pod of this.pods.referencing(w.uid)) for (const key of this.controllersMatching(pod.namespace, pod.labels)) affected.add(key)
  }

  deleteWorkload(workload: Workload): Set<string> {
    const key = controllerKey(workload)
    const affected = new Set<string>()
    const old = this.entries.get(key)
    if (!old) return affected
    this.removeEntry(key, old, affected)
    this.entries.delete(key)
    affected.add(key)
    this.releaseAffects(workload, affected)
    // Its plan goes with it: a later plan() reports it as no longer planned.
    this.removed.set(key, old)
    return affected
  }

  /**
   * Plans the controllers `keys` at `now` (RFC 3339) and refreshes the contested-adoption warnings
   * their new plans touch. Returns every controller whose plan was worked out again, with its
   * previous and next plan (next undefined: deleted, or no longer planned); `failed` holds the
   * controllers whose planning threw (a bug), which keep their previous plan.
   */
  plan(keys: Iterable<string>, now: string): {replanned: Replanned[]; failed: Map<string, unknown>} {
    const options: PlannerOptions = {now, featureGates: this.options.featureGates, burstReplicas: this.options.burstReplicas}
    // The controllers a snapshot holds: those planned, and every ReplicaSet (planSnapshot's lookup).
    const world = planningWorld(this.pods, this.siblings, options, (uid) => {
      const entry = this.entries.get(this.keyByUid.get(uid) ?? '')
      return entry && (entry.planned || this.groups.grouped(entry.workload)) ? entry.workload : undefined
    })
    const failed = new Map<string, unknown>()
    const previous = new Map<string, ControllerPlan | undefined>()
    const touchedPods = new Set<string>()
    const warn = new Set<string>()
    for (const key of keys) {
      if (this.deployments.has(key) || this.removedDeployments.has(key)) {
        this.planDeployment(key, world, previous, failed)
        continue
      }
      const entry = this.entries.get(key)
      if (!entry) {
        const gone = this.removed.get(key)
        if (gone) {
          previous.set(key, gone.plan)
          for (const uid of gone.adopts) touchedPods.add(uid)
        }
        continue
      }
      if (!previous.has(key)) previous.set(key, entry.plan)
      warn.add(key)
      let base: ControllerPlan | undefined
      if (entry.planned) {
        try {
          base = this.groups.plan(entry.workload, world)
        } catch (error) {
          failed.set(key, error)
          continue
        }
      }
      const adopts = base ? base.actions.flatMap((a) => (a.type === 'adopt' ? [a.uid] : [])) : []
      for (const uid of entry.adopts) {
        touchedPods.add(uid)
        this.adopters.get(uid)?.delete(key)
        if (this.adopters.get(uid)?.size === 0) this.adopters.delete(uid)
      }
      for (const uid of adopts) {
        touchedPods.add(uid)
        let set = this.adopters.get(uid)
        if (!set) this.adopters.set(uid, (set = new Set()))
        set.add(key)
      }
      entry.base = base
      entry.adopts = adopts
    }
    for (const [key, gone] of this.removed) {
      if (!previous.has(key)) continue
      for (const uid of gone.adopts) {
        this.adopters.get(uid)?.delete(key)
        if (this.adopters.get(uid)?.size === 0) this.adopters.delete(uid)
      }
      this.removed.delete(key)
    }
    // Contested adoptions: a changed adoption changes the warnings of every adopter of that pod.
    for (const uid of touchedPods) for (const key of this.adopters.get(uid) ?? []) warn.add(key)
    for (const key of warn) {
      const entry = this.entries.get(key)
      if (!entry || failed.has(key)) continue
      if (!previous.has(key)) previous.set(key, entry.plan)
      entry.plan = entry.base ? this.withContestedWarnings(key, entry) : undefined
    }
    const replanned: Replanned[] = []
    for (const [key, prev] of previous) {
      if (failed.has(key)) continue
      replanned.push({key, previous: prev, next: this.planOf(key)})
    }
    return {replanned, failed}
  }

  /** One Deployment's next sync, through the same planDeployments planSnapshot uses (the Deployment controller's watch part). */
  private planDeployment(key: string, world: World, previous: Map<string, ControllerPlan | undefined>, failed: Map<string, unknown>): void {
    const entry = this.deployments.get(key)
    if (!entry) {
      previous.set(key, this.removedDeployments.get(key)?.plan)
      this.removedDeployments.delete(key)
      return
    }
    if (!previous.has(key)) previous.set(key, entry.plan)
    if (!entry.planned) {
      entry.plan = undefined
      return
    }
    try {
      const replicaSets = [...(this.replicaSetsByNamespace.get(entry.deployment.namespace) ?? [])]
      entry.plan = this.groups.planOwner(entry.deployment, replicaSets, world)
    } catch (error) {
      failed.set(key, error)
    }
  }

  /**
   * When a controller's next sync may change by the clock alone: the moment (ns since the epoch) a
   * Ready pod it counts becomes available (minReadySeconds, docs/replicaset-controller.md §1.1 step 12).
   */
  nextAvailabilityCheck(key: string, now: bigint): bigint | undefined {
    const entry = this.entries.get(key)
    const plan = entry?.plan
    if (!entry || !plan || entry.workload.minReadySeconds <= 0) return undefined
    if (!('readyReplicas' in plan.status) || plan.status.readyReplicas === plan.status.availableReplicas) return undefined
    const min = seconds(entry.workload.minReadySeconds)
    let next: bigint | undefined
    for (const pod of this.pods.claimCandidates(entry.workload)) {
      if (!pod.ready || !isPodActive(pod) || !selectorMatches(entry.selector, pod.labels)) continue
      const since = objectTime(pod.readySince)
      if (since === undefined) continue
      const at = since + min + 1n
      if (at > now && (next === undefined || at < next)) next = at
    }
    return next
  }

  private withContestedWarnings(key: string, entry: Entry): ControllerPlan {
    const base = entry.base!
    const group = new Set<string>([key])
    for (const uid of entry.adopts) for (const other of this.adopters.get(uid) ?? []) group.add(other)
    if (group.size === 1) return base
    const plans = [...group].map((k) => this.entries.get(k)?.base).filter((p): p is ControllerPlan => p !== undefined)
    plans.sort(byKindNamespaceName)
    const warnings = this.groups.adoptionWarnings(plans).get(base)
    return warnings ? {...base, warnings: [...base.warnings, ...warnings]} : base
  }

  private removeEntry(key: string, entry: Entry, affected: Set<string>): void {
    const w = entry.workload
    if (this.keyByUid.get(w.uid) === key) this.keyByUid.delete(w.uid)
    this.unindexSelector(key, w.namespace, entry.selector)
    if (this.groups.grouped(w)) {
      const inNamespace = this.replicaSetsByNamespace.get(w.namespace)
      inNamespace?.delete(w)
      if (inNamespace?.size === 0) this.replicaSetsByNamespace.delete(w.namespace)
      this.deploymentsOf(w, affected)
      const owner = controllerOf(w)
      if (owner) {
        const group = this.siblings.get(owner.uid)
        const at = group?.indexOf(w) ?? -1
        if (group && at >= 0) {
          group.splice(at, 1)
          if (group.length === 0) this.siblings.delete(owner.uid)
        }
      }
    }
    this.siblingsOf(w, affected, false)
  }

  /** Everything a pod in this state can change the plan of (see the header). */
  private podAffects(pod: PodView, affected: Set<string>): void {
    const ref = controllerOf(pod)
    if (ref) {
      const key = this.keyByUid.get(ref.uid)
      if (key) affected.add(key)
    }
    for (const key of this.controllersMatching(pod.namespace, pod.labels)) {
      affected.add(key)
      const entry = this.entries.get(key)
      if (entry) this.siblingsOf(entry.workload, affected, true)
    }
  }

  /**
   * The ReplicaSets sharing `w`'s controller owner: their deletion ranking counts pods matching
   * w's selector. With `scalingDownOnly`, only those whose last plan deletes (or that have none yet).
   */
  private siblingsOf(w: Workload, affected: Set<string>, scalingDownOnly: boolean): void {
    if (!this.groups.grouped(w)) return
    const owner = controllerOf(w)
    if (!owner) return
    for (const sibling of this.siblings.get(owner.uid) ?? []) {
      const key = controllerKey(sibling)
      if (affected.has(key)) continue
      if (scalingDownOnly) {
        const plan = this.entries.get(key)?.base
        if (plan && plan.diff <= 0) continue
      }
      affected.add(key)
    }
  }

  private *controllersMatching(namespace: string, labels: Labels): Generator<string> {
    const index = this.controllersByNamespace.get(namespace)
    if (!index) return
    const check = (key: string) => {
      const entry = this.entries.get(key)
      return entry !== undefined && selectorMatches(entry.selector, labels)
    }
    for (const key of index.rest) if (check(key)) yield key
    for (const label in labels) {
      for (const key of index.byPair.get(`${label}=${labels[label]}`) ?? []) if (check(key)) yield key
    }
  }

  private indexSelector(key: string, namespace: string, selector: CompiledSelector): void {
    if (selector.requirements === null) return // matches nothing
    let index = this.controllersByNamespace.get(namespace)
    if (!index) this.controllersByNamespace.set(namespace, (index = {byPair: new Map(), rest: new Set()}))
    const pair = indexPair(selector)
    if (pair === undefined) index.rest.add(key)
    else addTo(index.byPair, pair, key)
  }

  private unindexSelector(key: string, namespace: string, selector: CompiledSelector): void {
    const index = this.controllersByNamespace.get(namespace)
    if (!index || selector.requirements === null) return
    const pair = indexPair(selector)
    if (pair === undefined) index.rest.delete(key)
    else removeFrom(index.byPair, pair, key)
    if (index.rest.size === 0 && index.byPair.size === 0) this.controllersByNamespace.delete(namespace)
  }
}

/** The first single-value equality of a selector, as `key=value`: every pod it matches has that label. */
function indexPair(selector: CompiledSelector): string | undefined {
  for (const req of selector.requirements ?? []) if (req.operator === 'In' && req.values.length === 1) return `${req.key}=${req.values[0]}`
  return undefined
}
