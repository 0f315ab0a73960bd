// Lookups the planner needs many times over one snapshot: pods by namespace, by controller UID,
// orphans by namespace, and pods by label — so planning 10,000 controllers over 150,000 pods
// does not scan every pod per controller.
import type {PodView} from '../model/objects.js'
import {controllerOf} from './pods.js'
import {type CompiledSelector, selectorMatches} from './selector.js'

const byName = (a: PodView, b: PodView) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

export class PodIndex {
  private readonly byNamespace = new Map<string, PodView[]>()
  private readonly byController = new Map<string, PodView[]>()
  private readonly orphansByNamespace = new Map<string, PodView[]>()
  private readonly byLabel = new Map<string, Map<string, PodView[]>>()

  /** Pods are kept sorted by name: the order the API server lists them in. */
  constructor(pods: readonly PodView[]) {
    for (const pod of [...pods].sort(byName)) {
      push(this.byNamespace, pod.namespace, pod)
      const ref = controllerOf(pod)
      if (ref) push(this.byController, ref.uid, pod)
      else push(this.orphansByNamespace, pod.namespace, pod)
    }
  }

  inNamespace(namespace: string): readonly PodView[] {
    return this.byNamespace.get(namespace) ?? []
  }

  /**
   * The pods a controller's claim can touch: the ones it controls plus the namespace's orphans
   * (what the 1.34+ controller lists; pods controlled by others would be ignored anyway).
   */
  claimCandidates(namespace: string, controllerUid: string): PodView[] {
    const owned = (this.byController.get(controllerUid) ?? []).filter((p) => p.namespace === namespace)
    const orphans = this.orphansByNamespace.get(namespace) ?? []
    return merge(owned, orphans)
  }

  /** Pods of the namespace controlled by someone else whose labels match (overlap warnings). */
  controlledByOthers(namespace: string, controllerUid: string, selector: CompiledSelector): PodView[] {
    return this.matching(namespace, selector).filter((p) => {
      const ref = controllerOf(p)
      return ref !== undefined && ref.uid !== controllerUid
    })
  }

  /** podLister.Pods(ns).List(selector), using a label index when the selector has an equality. */
  matching(namespace: string, selector: CompiledSelector): PodView[] {
    if (selector.requirements === null) return []
    let candidates = this.inNamespace(namespace)
    for (const req of selector.requirements) {
      if (req.operator !== 'In' || req.values.length !== 1) continue
      const narrowed = this.labelIndex(namespace).get(`${req.key}=${req.values[0]}`) ?? []
      if (narrowed.length < candidates.length) candidates = narrowed
    }
    return candidates.filter((p) => selectorMatches(selector, p.labels))
  }

  private labelIndex(namespace: string): Map<string, PodView[]> {
    let index = this.byLabel.get(namespace)
    if (!index) {
      index = new Map()
      for (const pod of this.inNamespace(namespace)) {
        for (const [key, value] of Object.entries(pod.labels)) push(index, `${key}=${value}`, pod)
      }
      this.byLabel.set(namespace, index)
    }
    return index
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** Merges two name-sorted lists. */
function merge(a: readonly PodView[], b: readonly PodView[]): PodView[] {
  const out: PodView[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && byName(a[i], b[j]) <= 0)) out.push(a[i++])
    else out.push(b[j++])
  }
  return out
}
