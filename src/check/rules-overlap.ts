// overlapping-selectors: pairs of controllers in one namespace whose selectors some label set
// satisfies (intersect.ts decides it and builds the label set). Reported:
//   - pairs whose selectors constrain a common key and can both be satisfied (found without
//     comparing every pair: agreeingPairs), and
//   - pairs that a real label set in the input satisfies: a pod template (the pods a controller
//     creates) or a Pod. These pairs need not share a key (app=a and team=x, with a template
//     that carries both labels).
// Not reported: a controller and an object it owns (a Deployment's ReplicaSets extend its selector
// with pod-template-hash by design), and two copies of one object (duplicate-object says so).
import type {Labels} from '../model/objects.js'
import {describeObject, selectorAnchor, type Draft} from './draft.js'
import {agreeingPairs, intersection, pinnedValues, type Pinned} from './intersect.js'
import {identityOf, type CheckObject} from './objects.js'
import {formatLabels, matchesAll, type SourcedRequirement} from './selectors.js'

interface Ctrl extends Pinned {
  obj: CheckObject
  reqs: SourcedRequirement[]
}

interface LabelSet {
  labels: Labels
  /** The object whose template (or, for a Pod, own labels) these are. */
  source: CheckObject
}

export function overlapDrafts(objects: readonly CheckObject[]): Draft[] {
  const byNamespace = new Map<string, {ctrls: Ctrl[]; labelSets: LabelSet[]}>()
  const ns = (name: string) => {
    let g = byNamespace.get(name)
    if (!g) byNamespace.set(name, (g = {ctrls: [], labelSets: []}))
    return g
  }
  for (const obj of objects) {
    const s = obj.controller?.selector
    if (s?.state === 'ok' && s.requirements.length > 0) ns(obj.namespace).ctrls.push({obj, reqs: s.requirements, pins: pinnedValues(s.requirements)})
    if (obj.podLabels && Object.keys(obj.podLabels).length > 0) ns(obj.namespace).labelSets.push({labels: obj.podLabels, source: obj})
  }
  const drafts: Draft[] = []
  for (const [, {ctrls, labelSets}] of [...byNamespace].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (ctrls.length >= 2) drafts.push(...namespaceOverlaps(ctrls, labelSets))
  }
  return drafts
}

function namespaceOverlaps(ctrls: Ctrl[], labelSets: LabelSet[]): Draft[] {
  const n = ctrls.length
  const pairKey = (i: number, j: number) => i * n + j
  const candidates = new Set<number>()

  // Pairs that constrain a common key and agree wherever both pin a value.
  const byKey = new Map<string, number[]>()
  ctrls.forEach((c, i) => {
    for (const key of new Set(c.reqs.map((r) => r.key))) {
      let members = byKey.get(key)
      if (!members) byKey.set(key, (members = []))
      members.push(i)
    }
  })
  for (const members of byKey.values()) {
    if (members.length >= 2) agreeingPairs(ctrls, members, (i, j) => candidates.add(pairKey(i, j)))
  }

  // Real label sets that several selectors match. Each selector is indexed under its rarest
  // pinned label (a label set can only match it if it carries that label), or kept aside when it
  // pins nothing.
  const pinCount = new Map<string, number>()
  for (const c of ctrls) for (const [k, v] of c.pins) pinCount.set(`${k}=${v}`, (pinCount.get(`${k}=${v}`) ?? 0) + 1)
  const index = new Map<string, number[]>()
  const unpinned: number[] = []
  ctrls.forEach((c, i) => {
    let best: string | undefined
    for (const [k, v] of c.pins) {
      const key = `${k}=${v}`
      if (best === undefined || pinCount.get(key)! < pinCount.get(best)!) best = key
    }
    if (best === undefined) unpinned.push(i)
    else {
      let list = index.get(best)
      if (!list) index.set(best, (list = []))
      list.push(i)
    }
  })
  const evidence = new Map<number, LabelSet>()
  const podsMatching = new Map<number, number>()
  for (const set of labelSets) {
    const matched = new Set<number>()
    for (const i of unpinned) if (matchesAll(ctrls[i].reqs, set.labels)) matched.add(i)
    for (const [k, v] of Object.entries(set.labels)) {
      for (const i of index.get(`${k}=${v}`) ?? []) if (matchesAll(ctrls[i].reqs, set.labels)) matched.add(i)
    }
    if (matched.size < 2) continue
    const list = [...matched].sort((a, b) => a - b)
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const key = pairKey(list[x], list[y])
        candidates.add(key)
        if (set.source.kind === 'Pod') podsMatching.set(key, (podsMatching.get(key) ?? 0) + 1)
        const known = evidence.get(key)
        // Prefer a template over a pod, and a template of one of the two controllers.
        if (!known || rank(set, ctrls[list[x]], ctrls[list[y]]) < rank(known, ctrls[list[x]], ctrls[list[y]])) evidence.set(key, set)
      }
    }
  }

  const pairs: Array<{i: number; j: number; key: number; labels: Labels; seen?: LabelSet}> = []
  const degree = new Array<number>(n).fill(0)
  for (const key of [...candidates].sort((a, b) => a - b)) {
    const i = Math.floor(key / n)
    const j = key % n
    if (related(ctrls[i].obj, ctrls[j].obj)) continue
    const seen = evidence.get(key)
    const labels = seen?.labels ?? intersection(ctrls[i].reqs, ctrls[j].reqs, [ctrls[i].obj.podLabels ?? {}, ctrls[j].obj.podLabels ?? {}])
    if (!labels) continue
    pairs.push({i, j, key, labels, seen})
    degree[i]++
    degree[j]++
  }
  const drafts: Draft[] = []
  for (const {i, j, key, labels, seen} of pairs) {
    // The report goes on the controller that overlaps more others (a broad selector is where the
    // fix is), else on the later of the two in input order; it names the other one.
    let [a, b] = [ctrls[i], ctrls[j]]
    if (b.obj.src.ordinal < a.obj.src.ordinal) [a, b] = [b, a]
    const da = degree[a === ctrls[i] ? i : j]
    const db = degree[b === ctrls[i] ? i : j]
    if (da > db) [a, b] = [b, a]
    const how = seen ? evidenceWords(seen, b.obj) : `a pod labelled ${formatLabels(labels)} would match both`
    const pods = podsMatching.get(key) ?? 0
    const others = seen?.source.kind === 'Pod' ? pods - 1 : pods
    const podWords = others > 0 ? `; ${pods === 1 ? '1 pod in the input matches' : `${pods} pods in the input match`} both` : ''
    drafts.push({
      rule: 'overlapping-selectors',
      message: `selector overlaps the selector of ${describeObject(a.obj)}${a.obj.src.file === b.obj.src.file ? '' : ` (${a.obj.src.file})`}: ${how}${podWords}; the two controllers would fight over such pods`,
      subject: b.obj,
      ...selectorAnchor(b.obj),
      related: [{object: a.obj, ...selectorAnchor(a.obj), message: `the selector of ${describeObject(a.obj)}`}],
      also: [a.obj],
    })
  }
  return drafts
}

function rank(set: LabelSet, a: Ctrl, b: Ctrl): number {
  if (set.source === a.obj || set.source === b.obj) return 0
  return set.source.kind === 'Pod' ? 2 : 1
}

function evidenceWords(set: LabelSet, subject: CheckObject): string {
  if (set.source.kind === 'Pod') return `pod ${set.source.name} (${formatLabels(set.labels)}) matches both`
  const whose = set.source === subject ? 'its own pods' : `the pods of ${describeObject(set.source)}`
  return `${whose} (${formatLabels(set.labels)}) match both`
}

/** One controls the other (owner reference), or they are two copies of one object. */
function related(a: CheckObject, b: CheckObject): boolean {
  if (a.name !== '' && identityOf(a) === identityOf(b)) return true
  const owns = (owner: CheckObject, owned: CheckObject) => owned.controllerRefs.some((r) => r.kind === owner.kind && r.name === owner.name)
  return owns(a, b) || owns(b, a)
}
