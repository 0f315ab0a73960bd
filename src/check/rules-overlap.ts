// overlapping-selectors: pairs of controllers in one namespace whose selectors some label set
// satisfies (intersect.ts decides it and builds the label set). Reported:
//   - pairs whose selectors constrain a common key and can both be satisfied (found without
//     comparing every pair: agreeingPairs), and
//   - pairs that a real label set in the input satisfies: a pod template (the pods a controller
//     creates) or a Pod. These pairs need not share a key (app=a and team=x, with a template
//     that carries both labels).
// Not reported: a Job without manualSelector (its selector is generated from its own uid), a
// controller and an object it owns (a Deployment's ReplicaSets extend its selector
// with pod-template-hash by design), and two copies of one object (duplicate-object says so).
import type {Labels} from '../model/objects.js'
import {sameItems} from '../same-items.js'
import {describeObject, selectorAnchor, type Draft} from './draft.js'
import {agreeingPairs, intersection, pinnedValues, type Pinned} from './intersect.js'
import {identityOf, type CheckObject} from './objects.js'
import {selectorPolicy} from './rules-selector.js'
import {formatLabels, matchesAll, type SourcedRequirement} from './selectors.js'

interface Ctrl extends Pinned {
  obj: CheckObject
  reqs: SourcedRequirement[]
  /** selectorKey(reqs), once worked out. */
  key?: string
  /** The label set its own template was put in (addLabelSet), if any. */
  own: LabelSet | undefined
}

/** One distinct set of pod labels in a namespace, and every object that carries it. */
interface LabelSet {
  labels: Labels
  key: string
  /** Controllers whose template carries these labels. */
  templates: CheckObject[]
  pods: CheckObject[]
}

export function overlapDrafts(objects: readonly CheckObject[]): Draft[] {
  const byNamespace = new Map<string, {ctrls: Ctrl[]; labelSets: Map<string, LabelSet>}>()
  const ns = (name: string) => {
    let g = byNamespace.get(name)
    if (!g) byNamespace.set(name, (g = {ctrls: [], labelSets: new Map()}))
    return g
  }
  for (const obj of objects) {
    const s = obj.controller?.selector
    // A selector the API server generates from the object's uid (a Job without manualSelector)
    // selects only that object's own pods: it never overlaps another.
    const generated = s?.state === 'ok' && selectorPolicy(obj).generated === true
    const own = obj.podLabels && hasKeys(obj.podLabels) ? addLabelSet(ns(obj.namespace).labelSets, obj) : undefined
    if (s?.state === 'ok' && s.requirements.length > 0 && !generated) ns(obj.namespace).ctrls.push({obj, reqs: s.requirements, pins: pinnedValues(s.requirements), key: undefined, own})
  }
  const drafts: Draft[] = []
  // In namespace order (as sort() orders strings); no entry destructured, a large part of this function to compile.
  for (const name of [...byNamespace.keys()].sort()) {
    const {ctrls, labelSets} = byNamespace.get(name)!
    if (ctrls.length < 2) continue
    for (const d of namespaceOverlaps(ctrls, [...labelSets.values()])) drafts.push(d)
  }
  return drafts
}

function hasKeys(labels: Labels): boolean {
  for (const _ in labels) return true
  return false
}

/**
 * The same labels written many times (copies of one template, pods of one controller) are matched
 * once. The set of a template (not of a Pod) is returned: the set its controller's own pods carry.
 */
function addLabelSet(sets: Map<string, LabelSet>, obj: CheckObject): LabelSet | undefined {
  const key = labelsKey(obj.podLabels!)
  let set = sets.get(key)
  if (!set) sets.set(key, (set = {labels: obj.podLabels!, key, templates: [], pods: []}))
  if (obj.kind === 'Pod') {
    set.pods.push(obj)
    return undefined
  }
  set.templates.push(obj)
  return set
}

/** `k=v` for each label, by key, joined with commas. */
function labelsKey(labels: Labels): string {
  const keys = Object.keys(labels)
  sortStrings(keys)
  let out = ''
  for (let i = 0; i < keys.length; i++) out += i > 0 ? `,${keys[i]}=${labels[keys[i]]}` : `${keys[i]}=${labels[keys[i]]}`
  return out
}

/** Sorts in place as Array.prototype.sort() does (by UTF-16 code units); a few entries without the copy sort() makes. */
function sortStrings(a: string[]): void {
  if (a.length > 8) {
    a.sort()
    return
  }
  for (let i = 1; i < a.length; i++) {
    const x = a[i]
    let j = i - 1
    while (j >= 0 && a[j] > x) {
      a[j + 1] = a[j]
      j--
    }
    a[j + 1] = x
  }
}

/** Selectors written alike (same requirements, in any order) select the same pods. */
function selectorKey(c: Ctrl): string {
  if (c.key !== undefined) return c.key
  const {reqs} = c
  const parts: string[] = new Array(reqs.length)
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i]
    const values = r.values === undefined ? '' : r.values.length === 0 ? '' : r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',')
    parts[i] = `${r.key} ${r.operator} ${values}`
  }
  sortStrings(parts)
  return (c.key = parts.length === 1 ? parts[0] : parts.join(';'))
}

/**
 * Controllers are first grouped by selector: members of one group overlap each other by
 * definition, so each later member gets one finding naming the first, which keeps the report (and
 * the work) linear when many objects share a selector. Pairs of different selectors are then
 * found among the groups' first members only.
 */
function namespaceOverlaps(all: Ctrl[], labelSets: LabelSet[]): Draft[] {
  const groups = new Map<string, Ctrl[]>()
  for (const c of all) {
    const key = selectorKey(c)
    const group = groups.get(key)
    if (group) group.push(c)
    else groups.set(key, [c])
  }
  const drafts: Draft[] = []
  const ctrls: Ctrl[] = []
  for (const group of groups.values()) {
    ctrls.push(group[0])
    sameSelectorDrafts(group, labelSets, drafts)
  }
  if (ctrls.length >= 2) pairDrafts(ctrls, labelSets, groups, drafts)
  return drafts
}

function sameSelectorDrafts(group: Ctrl[], labelSets: LabelSet[], drafts: Draft[]): void {
  if (group.length < 2) return // (most selectors are one controller's own)
  const first = group[0]
  const others = group.filter((c, i) => i > 0 && !related(first.obj, c.obj))
  if (others.length === 0) return
  const labels = intersection(first.reqs, first.reqs, [first.obj.podLabels ?? {}])
  if (!labels) return // a selector nothing satisfies overlaps nothing
  const pods = labelSets.reduce((n, set) => n + (matchesAll(first.reqs, set.labels) ? set.pods.length : 0), 0)
  const shared = others.length + 1 > 2 ? `; ${others.length + 1} controllers in this namespace have this selector` : ''
  const podWords = pods > 0 ? `; ${pods === 1 ? '1 pod in the input matches' : `${pods} pods in the input match`} it` : ''
  for (const c of others) {
    drafts.push({
      rule: 'overlapping-selectors',
      message: `selector is the same as the selector of ${describeObject(first.obj)}${first.obj.src.file === c.obj.src.file ? '' : ` (${first.obj.src.file})`}${shared}${podWords}; the controllers would fight over every pod either creates`,
      subject: c.obj,
      ...selectorAnchor(c.obj),
      related: [{object: first.obj, ...selectorAnchor(first.obj), message: `the selector of ${describeObject(first.obj)}`}],
      also: [first.obj],
    })
  }
}

/**
 * The pairs of different selectors that overlap, found in phases, each a function of its own: the
 * hot loops are optimized apart, small, and the wording of the few findings stays out of them.
 */
function pairDrafts(ctrls: Ctrl[], labelSets: LabelSet[], groups: Map<string, Ctrl[]>, drafts: Draft[]): void {
  const candidates = new Set<number>()
  keyPairs(ctrls, candidates)
  const found = labelSetPairs(ctrls, labelSets, candidates)
  const pairs = overlappingPairs(ctrls, candidates, found.evidence)
  for (const pair of pairs.list) drafts.push(pairDraft(ctrls, pair, pairs.degree, found.podsMatching.get(pair.key) ?? 0, groups))
}

/** The key of the pair (i, j), i < j, of n controllers. */
const pairKey = (n: number, i: number, j: number) => i * n + j

/** Pairs that constrain a common key and agree wherever both pin a value. */
function keyPairs(ctrls: Ctrl[], candidates: Set<number>): void {
  const n = ctrls.length
  const byKey = new Map<string, number[]>()
  for (let i = 0; i < n; i++) {
    for (const {key} of ctrls[i].reqs) {
      let members = byKey.get(key)
      if (!members) byKey.set(key, (members = []))
      // (a key constrained twice, as in `In` and `NotIn`, makes the controller a member once)
      if (members[members.length - 1] !== i) members.push(i)
    }
  }
  // Keys constrained by the same controllers (most selectors of an application name the same
  // keys) give the same pairs: they are looked for once.
  const searched: number[][] = []
  for (const members of byKey.values()) {
    if (members.length < 2 || searched.some((s) => sameItems(s, members))) continue
    searched.push(members)
    agreeingPairs(ctrls, members, (i, j) => candidates.add(pairKey(n, i, j)))
  }
}

/**
 * Each selector indexed under its rarest pinned label (a label set can only match it if it
 * carries that label), or kept aside when it pins nothing. Pinned labels are looked up by key,
 * then value (no `k=v` string built for each label).
 */
function pinIndex(ctrls: Ctrl[]): {index: Map<string, Map<string, number[]>>; unpinned: number[]} {
  const pinCount = new Map<string, Map<string, number>>()
  // Entries are read by index, not destructured: destructuring is an iteration of its own, a large part of what this loop compiles to.
  for (const c of ctrls) {
    for (const pin of c.pins) {
      let values = pinCount.get(pin[0])
      if (!values) pinCount.set(pin[0], (values = new Map()))
      values.set(pin[1], (values.get(pin[1]) ?? 0) + 1)
    }
  }
  const index = new Map<string, Map<string, number[]>>()
  const unpinned: number[] = []
  for (let i = 0; i < ctrls.length; i++) {
    let best: [string, string] | undefined
    let bestCount = 0
    for (const pin of ctrls[i].pins) {
      const count = pinCount.get(pin[0])!.get(pin[1])!
      if (best === undefined || count < bestCount) {
        best = pin
        bestCount = count
      }
    }
    if (best === undefined) unpinned.push(i)
    else {
      let values = index.get(best[0])
      if (!values) index.set(best[0], (values = new Map()))
      let list = values.get(best[1])
      if (!list) values.set(best[1], (list = []))
      list.push(i)
    }
  }
  return {index, unpinned}
}

/** Pairs that a real label set matches both selectors of, with the best evidence of each and the pods that match both. */
function labelSetPairs(ctrls: Ctrl[], labelSets: LabelSet[], candidates: Set<number>): {evidence: Map<number, Evidence>; podsMatching: Map<number, number>} {
  const n = ctrls.length
  const {index, unpinned} = pinIndex(ctrls)
  const evidence = new Map<number, Evidence>()
  const podsMatching = new Map<number, number>()
  // Each selector is in `unpinned` or under one label of the index: it is met at most once per set.
  const matched: number[] = []
  // Index loops: this runs for every label set, and for-of loops made it several times larger to compile.
  for (let s = 0; s < labelSets.length; s++) {
    const set = labelSets[s]
    matched.length = 0
    for (let u = 0; u < unpinned.length; u++) if (matchesAll(ctrls[unpinned[u]].reqs, set.labels)) matched.push(unpinned[u])
    for (const k in set.labels) {
      if (!Object.hasOwn(set.labels, k)) continue
      const under = index.get(k)?.get(set.labels[k])
      if (under) for (let u = 0; u < under.length; u++) if (matchesAll(ctrls[under[u]].reqs, set.labels)) matched.push(under[u])
    }
    if (matched.length < 2) continue
    const list = [...matched].sort((a, b) => a - b)
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const key = pairKey(n, list[x], list[y])
        candidates.add(key)
        if (set.pods.length > 0) podsMatching.set(key, (podsMatching.get(key) ?? 0) + set.pods.length)
        const best = bestEvidence(set, ctrls[list[x]], ctrls[list[y]])
        const known = evidence.get(key)
        // Prefer a template over a pod, and a template of one of the two controllers.
        if (!known || best.rank < known.rank) evidence.set(key, best)
      }
    }
  }
  return {evidence, podsMatching}
}

interface Pair {
  i: number
  j: number
  key: number
  labels: Labels
  seen?: Evidence
}

/** The candidates that are neither related nor disjoint, in order, and how many others each controller overlaps. */
function overlappingPairs(ctrls: Ctrl[], candidates: Set<number>, evidence: Map<number, Evidence>): {list: Pair[]; degree: number[]} {
  const n = ctrls.length
  const list: Pair[] = []
  const degree = new Array<number>(n).fill(0)
  for (const key of [...candidates].sort((a, b) => a - b)) {
    const i = Math.floor(key / n)
    const j = key % n
    if (related(ctrls[i].obj, ctrls[j].obj)) continue
    const seen = evidence.get(key)
    const labels = seen?.labels ?? intersection(ctrls[i].reqs, ctrls[j].reqs, [ctrls[i].obj.podLabels ?? {}, ctrls[j].obj.podLabels ?? {}])
    if (!labels) continue
    list.push({i, j, key, labels, seen})
    degree[i]++
    degree[j]++
  }
  return {list, degree}
}

/** The finding on one overlapping pair. */
function pairDraft(ctrls: Ctrl[], {i, j, labels, seen}: Pair, degree: number[], pods: number, groups: Map<string, Ctrl[]>): Draft {
  // The report goes on the controller that overlaps more others (a broad selector is where the
  // fix is), else on the later of the two in input order; it names the other one.
  let [a, b] = [ctrls[i], ctrls[j]]
  if (b.obj.src.ordinal < a.obj.src.ordinal) [a, b] = [b, a]
  const da = degree[a === ctrls[i] ? i : j]
  const db = degree[b === ctrls[i] ? i : j]
  if (da > db) [a, b] = [b, a]
  const how = seen ? evidenceWords(seen, b.obj) : `a pod labelled ${formatLabels(labels)} would match both`
  const others = seen?.source.kind === 'Pod' ? pods - 1 : pods
  const podWords = others > 0 ? `; ${pods === 1 ? '1 pod in the input matches' : `${pods} pods in the input match`} both` : ''
  const alike = groups.get(selectorKey(a))!.length - 1
  const alikeWords = alike > 0 ? ` (and ${alike} more with the same selector)` : ''
  return {
    rule: 'overlapping-selectors',
    message: `selector overlaps the selector of ${describeObject(a.obj)}${a.obj.src.file === b.obj.src.file ? '' : ` (${a.obj.src.file})`}${alikeWords}: ${how}${podWords}; the two controllers would fight over such pods`,
    subject: b.obj,
    ...selectorAnchor(b.obj),
    related: [{object: a.obj, ...selectorAnchor(a.obj), message: `the selector of ${describeObject(a.obj)}`}],
    also: [a.obj],
  }
}

interface Evidence {
  labels: Labels
  /** The template (or pod) that carries the labels. */
  source: CheckObject
  /** 0: a template of one of the two controllers, 1: another template, 2: a pod. */
  rank: number
}

function bestEvidence(set: LabelSet, a: Ctrl, b: Ctrl): Evidence {
  if (a.own === set) return {labels: set.labels, source: a.obj, rank: 0}
  if (b.own === set) return {labels: set.labels, source: b.obj, rank: 0}
  if (set.templates.length > 0) return {labels: set.labels, source: set.templates[0], rank: 1}
  return {labels: set.labels, source: set.pods[0], rank: 2}
}

function evidenceWords(set: Evidence, subject: CheckObject): string {
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
