// Lookups the planner needs many times over one set of pods.
import type {PodView} from '../model/objects.js'
import type {PodLookup} from './planner.js'
import {controllerOf, isControlledBy, type ControllerIdentity} from './pods.js'
import {type CompiledSelector, selectorMatches} from './selector.js'

const byName = (a: PodView, b: PodView) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/**
 * The pod lookups one sync needs, over a pod set that can change pod by pod (watch mode) or be
 * built once (planSnapshot): by namespace and name, by controller UID, orphans by namespace, and by
 * `key=value` label, so planning 10,000 controllers over 150,000 pods never scans every pod per
 * controller. Results come sorted by name: the order the API server lists pods in.
 */
export class PodIndex implements PodLookup {
  /** namespace → name → pod. */
  private readonly byNamespace: Map<string, Map<string, PodView>>
  private readonly byController = new Map<string, Set<PodView>>()
  private readonly orphansByNamespace = new Map<string, Set<PodView>>()
  /**
   * namespace → label key → value → pods (no `key=value` string built per pod and label): built at
   * the first lookup by selector (a plan of controllers that claim by owner makes none), then kept.
   */
  private byLabel?: Map<string, Map<string, Map<string, Set<PodView>>>>
  /** claimCandidates' answers until the next change. */
  private readonly claimed = new Map<string, readonly PodView[]>()
  #size = 0

  constructor(pods: Iterable<PodView> = []) {
    const names = Array.isArray(pods) ? offered.get(pods) : undefined
    if (names === undefined || !offeredFits(pods as readonly PodView[], names)) {
      this.byNamespace = new Map()
      for (const pod of pods) this.set(pod)
      return
    }
    // The pods by namespace and name as their reader noted them (offerPodNames), in the list's order.
    offered.delete(pods as readonly PodView[])
    this.byNamespace = names
    this.#size = (pods as readonly PodView[]).length
    // A controller's pods mostly come in a row: its set is looked up once for them.
    let lastUid: string | undefined
    let lastSet: Set<PodView> | undefined
    for (const pod of pods) {
      const ref = controllerOf(pod)
      if (!ref) addTo(this.orphansByNamespace, pod.namespace, pod)
      else if (ref.uid === lastUid) lastSet!.add(pod)
      else {
        addTo(this.byController, ref.uid, pod)
        lastUid = ref.uid
        lastSet = this.byController.get(ref.uid)
      }
    }
  }

  get size(): number {
    return this.#size
  }

  get(namespace: string, name: string): PodView | undefined {
    return this.byNamespace.get(namespace)?.get(name)
  }

  /** Adds a pod, replacing the one of the same namespace and name. */
  set(pod: PodView): void {
    if (this.claimed.size > 0) this.claimed.clear() // (clearing makes a new table, even when empty)
    let names = this.byNamespace.get(pod.namespace)
    const old = names?.get(pod.name)
    if (old) {
      this.delete(old)
      names = this.byNamespace.get(pod.namespace) // (gone if old was its last pod)
    }
    if (!names) this.byNamespace.set(pod.namespace, (names = new Map()))
    names.set(pod.name, pod)
    this.#size++
    const ref = controllerOf(pod)
    if (ref) addTo(this.byController, ref.uid, pod)
    else addTo(this.orphansByNamespace, pod.namespace, pod)
    if (this.byLabel) indexLabels(this.byLabel, pod)
  }

  /** Removes the pod of that namespace and name, if it is this very object's entry. */
  delete(pod: PodView): void {
    const names = this.byNamespace.get(pod.namespace)
    const stored = names?.get(pod.name)
    if (!names || !stored) return
    if (this.claimed.size > 0) this.claimed.clear()
    names.delete(pod.name)
    if (names.size === 0) this.byNamespace.delete(pod.namespace)
    this.#size--
    const ref = controllerOf(stored)
    if (ref) removeFrom(this.byController, ref.uid, stored)
    else removeFrom(this.orphansByNamespace, stored.namespace, stored)
    const labels = this.byLabel?.get(stored.namespace)
    if (labels) {
      for (const key in stored.labels) {
        const values = labels.get(key)
        if (!values) continue
        removeFrom(values, stored.labels[key], stored)
        if (values.size === 0) labels.delete(key)
      }
      if (labels.size === 0) this.byLabel!.delete(stored.namespace)
    }
  }

  claimCandidates(controller: ControllerIdentity): readonly PodView[] {
    // A Deployment's following step plans a ReplicaSet a second time: the same list, once sorted.
    const key = `${controller.namespace}/${controller.kind}/${controller.name}/${controller.uid}`
    let out = this.claimed.get(key)
    if (!out) {
      const pods: PodView[] = []
      for (const pod of this.byController.get(controller.uid) ?? []) if (isControlledBy(pod, controller)) pods.push(pod)
      for (const pod of this.orphansByNamespace.get(controller.namespace) ?? []) pods.push(pod)
      this.claimed.set(key, (out = pods.sort(byName)))
    }
    return out
  }

  misreferenced(controller: ControllerIdentity): PodView[] {
    const out: PodView[] = []
    for (const pod of this.byController.get(controller.uid) ?? []) if (pod.namespace === controller.namespace && !isControlledBy(pod, controller)) out.push(pod)
    return out.sort(byName)
  }

  /** Pods whose controller reference carries this uid (whatever kind and name it says). */
  referencing(uid: string): Iterable<PodView> {
    return this.byController.get(uid) ?? []
  }

  orphans(namespace: string): Iterable<PodView> {
    return this.orphansByNamespace.get(namespace) ?? []
  }

  controlledByOthers(namespace: string, controllerUid: string, selector: CompiledSelector): PodView[] {
    return this.matching(namespace, selector).filter((p) => {
      const ref = controllerOf(p)
      return ref !== undefined && ref.uid !== controllerUid
    })
  }

  private labelIndex(): Map<string, Map<string, Map<string, Set<PodView>>>> {
    if (!this.byLabel) {
      this.byLabel = new Map()
      for (const names of this.byNamespace.values()) for (const pod of names.values()) indexLabels(this.byLabel, pod)
    }
    return this.byLabel
  }

  matching(namespace: string, selector: CompiledSelector): PodView[] {
    if (selector.requirements === null) return []
    let candidates: Iterable<PodView> = this.byNamespace.get(namespace)?.values() ?? []
    let size = this.byNamespace.get(namespace)?.size ?? 0
    const labels = this.labelIndex().get(namespace)
    for (const req of selector.requirements) {
      if (req.operator !== 'In' || req.values.length !== 1) continue
      const narrowed = labels?.get(req.key)?.get(req.values[0])
      if (!narrowed) return []
      if (narrowed.size < size) {
        candidates = narrowed
        size = narrowed.size
      }
    }
    const out: PodView[] = []
    for (const pod of candidates) if (selectorMatches(selector, pod.labels)) out.push(pod)
    return out.sort(byName)
  }
}

function indexLabels(byLabel: Map<string, Map<string, Map<string, Set<PodView>>>>, pod: PodView): void {
  let labels = byLabel.get(pod.namespace)
  if (!labels) byLabel.set(pod.namespace, (labels = new Map()))
  for (const key in pod.labels) {
    let values = labels.get(key)
    if (!values) labels.set(key, (values = new Map()))
    addTo(values, pod.labels[key], pod)
  }
}

/** Pod lists whose names their reader has already put in maps by namespace (see offerPodNames). */
const offered = new WeakMap<readonly PodView[], Map<string, Map<string, PodView>>>()

/**
 * Offers the first index built over `pods` its names as they were read: namespace → name → pod,
 * each pod of the list once under its own name, in the list's order (namespaces in the order of
 * their first pod). The index takes the maps as they are (and may change them) instead of
 * hashing every name again; the list must not change meanwhile.
 */
export function offerPodNames(pods: readonly PodView[], byNamespace: Map<string, Map<string, PodView>>): void {
  offered.set(pods, byNamespace)
}

/** The offered maps hold as many pods as the list, the first and last of it among them. */
function offeredFits(pods: readonly PodView[], names: Map<string, Map<string, PodView>>): boolean {
  let n = 0
  for (const m of names.values()) n += m.size
  if (n !== pods.length) return false
  if (n === 0) return true
  const first = pods[0]
  const last = pods[n - 1]
  return names.get(first.namespace)?.get(first.name) === first && names.get(last.namespace)?.get(last.name) === last
}

export function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key)
  if (set) set.add(value)
  else map.set(key, new Set([value]))
}

export function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key)
  if (!set) return
  set.delete(value)
  if (set.size === 0) map.delete(key)
}

