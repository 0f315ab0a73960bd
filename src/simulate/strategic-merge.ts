// The strategic merge patch of k8s.io/apimachinery's strategicpatch package, as kubectl apply
// computes it (CreateThreeWayMergePatch) and the API server applies it (StrategicMergeMapPatch),
// rule for rule; and JSON as Go's encoder writes it. apply-merge.ts says which strategy each kind
// has and runs `kubectl apply` with these; the rules themselves are listed there.
import {deepEqual} from '../reconcile/deep-equal.js'

type Obj = Record<string, any>
export type Path = Array<string | number>

/** A field's patch strategy: how its value merges (absent: maps merge, lists are replaced). */
export interface FieldStrategy {
  /** A list merged item by item; the key items are matched by ('' for a list of scalars). */
  mergeKey?: string
  /** Keys the patch does not name are cleared (`$retainKeys`); on a list, for each item. */
  retainKeys?: boolean
  /** The strategies of the fields inside (of each item, for a list). */
  fields?: Fields
}
export type Fields = Readonly<Record<string, FieldStrategy>>

/** A manifest, live object or annotation kubectl would refuse to merge; `path` is where, in the manifest when `inManifest`. */
export class MergeError extends Error {
  constructor(
    message: string,
    readonly path: Path,
    readonly inManifest: boolean,
  ) {
    super(message)
    this.name = 'MergeError'
  }
}

/**
 * CreateThreeWayMergePatch with overwrite (kubectl apply's default): the delta from `current` to
 * `modified` without deletions, merged with the deletions from `original` to `modified`.
 */
export function threeWayMergePatch(original: Obj | undefined, modified: Obj, current: Obj, strategy?: FieldStrategy): Obj {
  const delta = diffMaps(current, modified, strategy?.fields, {ignoreDeletions: true}, [])
  const deletions = diffMaps(original ?? {}, modified, strategy?.fields, {ignoreChangesAndAdditions: true}, [])
  // The halves hold parts of the inputs, and merging changes its arguments: copies.
  return mergeMap(structuredClone(deletions), structuredClone(delta), strategy?.fields, {}, [])
}

/** StrategicMergeMapPatch as the API server runs it: parallel lists applied, unmatched nulls dropped. */
export function strategicMergePatch(object: Obj, patch: Obj, strategy?: FieldStrategy): Obj {
  return mergeMap(structuredClone(object), structuredClone(patch), strategy?.fields, {mergeParallelList: true, ignoreUnmatchedNulls: true}, [])
}

// ---- the diff (the patch's two halves) ----

interface DiffOptions {
  ignoreDeletions?: boolean
  ignoreChangesAndAdditions?: boolean
  buildRetainKeys?: boolean
}

const DIRECTIVE = '$patch'
const RETAIN_KEYS = '$retainKeys'
const DELETE_FROM = '$deleteFromPrimitiveList/'
const SET_ORDER = '$setElementOrder/'

/** diffMaps: the patch that turns `original` into `modified`, within the options' limits. */
function diffMaps(original: Obj, modified: Obj, fields: Fields | undefined, o: DiffOptions, path: Path): Obj {
  const patch: Obj = {}
  const retain: string[] = []
  for (const [key, mod] of Object.entries(modified)) {
    if (o.buildRetainKeys && mod !== null) retain.push(key)
    if (!(key in original)) {
      if (!o.ignoreChangesAndAdditions) patch[key] = mod
      continue
    }
    const orig = original[key]
    if (key === DIRECTIVE) {
      if (orig !== mod) patch[key] = mod
      continue
    }
    if (kindOf(orig) !== kindOf(mod)) {
      if (!o.ignoreChangesAndAdditions) patch[key] = mod
      continue
    }
    const field = fields?.[key]
    if (isMap(orig)) {
      const sub = diffMaps(orig, mod, field?.fields, {...o, buildRetainKeys: field?.retainKeys === true}, [...path, key])
      if (Object.keys(sub).length > 0) patch[key] = sub
    } else if (Array.isArray(orig) && field?.mergeKey !== undefined) {
      const {items, deletions, order} = diffLists(orig, mod, field, {...o, buildRetainKeys: field.retainKeys === true}, [...path, key])
      if (items.length > 0) patch[key] = items
      if (deletions.length > 0) patch[DELETE_FROM + key] = deletions
      if (order.length > 0) patch[SET_ORDER + key] = order
    } else if (!o.ignoreChangesAndAdditions && !deepEqual(orig, mod)) {
      patch[key] = mod
    }
  }
  if (!o.ignoreDeletions) for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null
  // hasAdditionalNewField: keys to clear even when nothing else changed.
  const dropsKeys = Object.entries(original).some(([k, v]) => v !== null && !(k in modified))
  if (retain.length > 0 && (Object.keys(patch).length > 0 || dropsKeys)) patch[RETAIN_KEYS] = sortScalars(retain)
  return patch
}

/** diffLists for a list with the merge strategy: changed or added items, deletions, the new order. */
function diffLists(original: any[], modified: any[], field: FieldStrategy, o: DiffOptions, path: Path): {items: any[]; deletions: any[]; order: any[]} {
  const none = {items: [], deletions: [], order: []}
  if (original.length === 0) return modified.length === 0 || o.ignoreChangesAndAdditions ? none : {items: modified, deletions: [], order: []}
  const key = field.mergeKey!
  if (elementKind(path, original, modified) === 'map') {
    requireMergeKey(original, key, path, false)
    requireMergeKey(modified, key, path, true)
    const {items, deletions} = diffListsOfMaps(original, modified, field, o, path)
    const ordered = [...sortByOrder(items, modified, key), ...deletions]
    const orderSame = original.length === modified.length && modified.every((m, i) => original[i][key] === m[key])
    const wantOrder = (!o.ignoreChangesAndAdditions && (ordered.length > 0 || !orderSame)) || (!o.ignoreDeletions && ordered.length > 0)
    return {items: ordered, deletions: [], order: wantOrder ? modified.map((m) => ({[key]: m[key]})) : []}
  }
  const {items, deletions} = diffListsOfScalars(original, modified, o)
  const wantOrder = (!o.ignoreDeletions && deletions.length > 0) || (!o.ignoreChangesAndAdditions && !deepEqual(original, modified))
  return {items: sortByOrder(items, modified, ''), deletions, order: wantOrder ? modified : []}
}

/** diffListsOfMaps: items matched by merge key (compared as text, as %v prints them). */
function diffListsOfMaps(original: Obj[], modified: Obj[], field: FieldStrategy, o: DiffOptions, path: Path): {items: Obj[]; deletions: Obj[]} {
  const key = field.mergeKey!
  const before = new Map(original.map((item) => [String(item[key]), item]))
  const after = new Set(modified.map((item) => String(item[key])))
  const items: Obj[] = []
  for (const [i, item] of modified.entries()) {
    const was = before.get(String(item[key]))
    if (!was) {
      if (!o.ignoreChangesAndAdditions) items.push(item)
      continue
    }
    const sub = diffMaps(was, item, field.fields, o, [...path, i])
    if (Object.keys(sub).length > 0) items.push({...sub, [key]: item[key]})
  }
  // Deletions in merge-key order, as the upstream sorted walk finds them.
  const deletions = o.ignoreDeletions
    ? []
    : sortScalars(original.map((item) => item[key]).filter((v) => !after.has(String(v)))).map((v) => ({[DIRECTIVE]: 'delete', [key]: v}))
  return {items, deletions}
}

/** diffListsOfScalars: scalars added (in the modified list's order later) and removed. */
function diffListsOfScalars(original: any[], modified: any[], o: DiffOptions): {items: any[]; deletions: any[]} {
  const had = new Set(original.map(String))
  const has = new Set(modified.map(String))
  const items = o.ignoreChangesAndAdditions ? [] : sortScalars(modified.filter((v) => !had.has(String(v))))
  const deletions = o.ignoreDeletions ? [] : deduplicateScalars(sortScalars(original.filter((v) => !has.has(String(v)))))
  return {items, deletions}
}

// ---- the merge (a patch onto an object, or onto another patch) ----

interface MergeOptions {
  /** Apply `$deleteFromPrimitiveList` (the server); otherwise carry it along (merging two patches). */
  mergeParallelList?: boolean
  /** Drop nulls that match nothing (the server); otherwise keep them (merging two patches). */
  ignoreUnmatchedNulls?: boolean
}

/** mergeMap: `patch` onto `original` (both may be changed). */
function mergeMap(original: Obj, patch: Obj, fields: Fields | undefined, o: MergeOptions, path: Path): Obj {
  if (DIRECTIVE in patch) {
    const directive = patch[DIRECTIVE]
    if (directive === 'replace') {
      delete patch[DIRECTIVE]
      return patch
    }
    if (directive === 'delete') return {}
    throw new MergeError(`unknown $patch directive "${directive}"`, path, true)
  }
  applyRetainKeys(original, patch, o, path)
  mergeOrderedLists(original, patch, fields, o, path)
  for (let [key, value] of Object.entries(patch)) {
    let deleteList = false
    if (key.startsWith(DELETE_FROM)) {
      if (!o.mergeParallelList) {
        original[key] = value
        continue
      }
      key = key.slice(DELETE_FROM.length)
      deleteList = true
    }
    if (value === null) {
      delete original[key]
      if (o.ignoreUnmatchedNulls) continue
    }
    if (!(key in original) || kindOf(original[key]) !== kindOf(value)) {
      if (deleteList) continue
      if (o.ignoreUnmatchedNulls) discardNulls(value)
      const kept = withoutDirectives(value)
      if (kept === DROP) delete original[key]
      else original[key] = kept
      continue
    }
    const field = fields?.[key]
    if (isMap(value)) original[key] = mergeMap(original[key], value, field?.fields, o, [...path, key])
    else if (Array.isArray(value)) original[key] = field?.mergeKey !== undefined || deleteList ? mergeSlice(original[key], value, field ?? {}, o, deleteList, [...path, key]).merged : value
    else original[key] = value
  }
  return original
}

/** applyRetainKeysDirective: clear the keys the directive does not name (or, merging patches, carry it). */
function applyRetainKeys(original: Obj, patch: Obj, o: MergeOptions, path: Path): void {
  if (!(RETAIN_KEYS in patch)) return
  const keep = patch[RETAIN_KEYS]
  delete patch[RETAIN_KEYS]
  if (!o.mergeParallelList) {
    if (!(RETAIN_KEYS in original)) original[RETAIN_KEYS] = keep
    return
  }
  if (!Array.isArray(keep)) throw new MergeError('$retainKeys is not a list', path, false)
  const named = new Set(keep)
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM) || k.startsWith(SET_ORDER)) continue
    if (!named.has(k)) throw new MergeError(`$retainKeys does not name "${k}", which the patch sets`, path, false)
  }
  for (const k of Object.keys(original)) if (!named.has(k)) delete original[k]
}

/** mergePatchIntoOriginal: the lists a `$setElementOrder` names, merged and put in that order. */
function mergeOrderedLists(original: Obj, patch: Obj, fields: Fields | undefined, o: MergeOptions, path: Path): void {
  for (const [directive, order] of Object.entries(patch)) {
    if (!directive.startsWith(SET_ORDER)) continue
    if (!o.mergeParallelList && !(directive in original)) original[directive] = order
    delete patch[directive]
    const key = directive.slice(SET_ORDER.length)
    const field = fields?.[key] ?? {}
    const had = key in original ? original[key] : undefined
    const given = key in patch ? patch[key] : undefined
    if (!Array.isArray(order) || (had !== undefined && !Array.isArray(had)) || (given !== undefined && !Array.isArray(given))) {
      throw new MergeError(`${directive} and ${key} must be lists`, [...path, key], false)
    }
    let merged: any[]
    let seen: any[] = had ?? []
    if (had === undefined && given === undefined) continue
    else if (given === undefined) merged = had
    else if (had === undefined) merged = withoutDirectives(given) as any[]
    else if (field.mergeKey !== undefined) ({merged, seen} = mergeSlice(had, given, field, o, false, [...path, key]))
    else merged = given
    const mergeKey = field.mergeKey ?? ''
    const [patchItems, serverOnly] = partition(merged, order, mergeKey)
    original[key] = normalizeElementOrder(patchItems, serverOnly, order, seen, mergeKey, elementKind([...path, key], had ?? [], given ?? []))
    delete patch[key]
  }
}

/**
 * mergeSlice: a merge-strategy list of the patch onto the object's. `seen` is the object's list as
 * the caller then reads it for ordering: upstream deletes and appends in place on the same backing
 * array (Go slices), so after a deletion the caller's view holds shifted items and what was
 * appended after them, up to the list's old length. The API server's live lists are exactly their
 * length (converted from the Go type), which is what this reproduces.
 */
function mergeSlice(original: any[], patch: any[], field: FieldStrategy, o: MergeOptions, deleteList: boolean, path: Path): {merged: any[]; seen: any[]} {
  if (original.length === 0 && patch.length === 0) return {merged: original, seen: original}
  const kind = elementKind(path, original, patch)
  const key = field.mergeKey ?? ''
  if (kind !== 'map') {
    if (o.mergeParallelList && deleteList) {
      const gone = new Set(patch)
      return {merged: original.filter((v) => !gone.has(v)), seen: original}
    }
    const merged = deduplicateScalars([...original, ...patch])
    const [patchItems, serverOnly] = partition(merged, patch, key)
    return {merged: normalizeElementOrder(patchItems, serverOnly, patch, original, key, kind), seen: original}
  }
  if (key === '') throw new MergeError('a list of objects without a merge key cannot be merged', path, false)
  const special = specialItems(patch, key, path)
  const seen = [...original]
  let length = seen.length
  for (const gone of special.deleted) {
    // append(s[:at], s[at+1:]...): the rest moves down one; the old last slot keeps its item.
    for (let at = indexIn(seen.slice(0, length), {[key]: gone}, key); at >= 0; at = indexIn(seen.slice(0, length), {[key]: gone}, key)) {
      seen.copyWithin(at, at + 1, length)
      length--
    }
  }
  if (special.replace) {
    const [, serverOnly] = partition(special.plain, [], key)
    return {merged: normalizeElementOrder([], serverOnly, [], special.plain, key, kind), seen}
  }
  const merged = seen.slice(0, length)
  const serverOrder = [...merged]
  for (const item of special.plain) {
    if (!(key in item)) throw new MergeError(`an item has no "${key}", the key this list merges by`, path, true)
    const at = indexIn(merged, item, key)
    if (at >= 0) merged[at] = mergeMap(merged[at], item, field.fields, o, [...path, at])
    else {
      // While the backing array has room, an append lands in the caller's view.
      if (length < seen.length && length === merged.length) seen[length++] = item
      merged.push(item)
    }
  }
  const [patchItems, serverOnly] = partition(merged, special.plain, key)
  return {merged: normalizeElementOrder(patchItems, serverOnly, special.plain, serverOrder, key, kind), seen}
}

/** mergeSliceWithSpecialElements: `$patch: delete` items name what goes; `$patch: replace` replaces the list. */
function specialItems(patch: Obj[], key: string, path: Path): {plain: Obj[]; deleted: unknown[]; replace: boolean} {
  const plain: Obj[] = []
  const deleted: unknown[] = []
  let replace = false
  for (const item of patch) {
    if (!(DIRECTIVE in item)) {
      plain.push(item)
      continue
    }
    const directive = item[DIRECTIVE]
    if (directive === 'delete') {
      if (!(key in item)) throw new MergeError(`a $patch: delete item has no "${key}"`, path, true)
      deleted.push(item[key])
    } else if (directive === 'replace') replace = true
    else throw new MergeError(`unknown $patch directive "${directive}" in a list`, path, true)
  }
  return {plain, deleted, replace}
}

/** Items of `merged` named in `by` (by merge key, or by value for scalars), and the others. */
function partition(merged: any[], by: any[], key: string): [any[], any[]] {
  const named = new Set(by.map((v) => (key === '' ? v : v?.[key])))
  const inPatch: any[] = []
  const serverOnly: any[] = []
  for (const v of merged) (named.has(key === '' ? v : v?.[key]) ? inPatch : serverOnly).push(v)
  return [inPatch, serverOnly]
}

/**
 * normalizeElementOrder: the patch's items in the patch's order, the server's other items in the
 * server's order, then the two interleaved keeping each one's relative order (mergeSortedSlice).
 */
function normalizeElementOrder(patchItems: any[], serverOnly: any[], patchOrder: any[], serverOrder: any[], key: string, kind: string): any[] {
  const k = kind === 'map' ? key : ''
  const fromPatch = normalizeSliceOrder(patchItems, patchOrder, k, kind)
  const fromServer = normalizeSliceOrder(serverOnly, serverOrder, k, kind)
  const out: any[] = []
  let i = 0
  let j = 0
  while (i < fromServer.length || j < fromPatch.length) {
    if (i >= fromServer.length) out.push(fromPatch[j++])
    else if (j >= fromPatch.length) out.push(fromServer[i++])
    else {
      const li = indexIn(serverOrder, fromServer[i], k)
      const ri = indexIn(serverOrder, fromPatch[j], k)
      if (li >= 0 && ri >= 0 && li < ri) out.push(fromServer[i++])
      else out.push(fromPatch[j++])
    }
  }
  return out
}

/** normalizeSliceOrder: sorted by position in `order`; `$patch: delete` items last. */
function normalizeSliceOrder(items: any[], order: any[], key: string, kind: string): any[] {
  const deletes = kind === 'map' ? items.filter((v) => v[DIRECTIVE] === 'delete') : []
  const rest = kind === 'map' ? items.filter((v) => v[DIRECTIVE] !== 'delete') : [...items]
  return [...sortByOrder(rest, order, key), ...deletes]
}

/** A stable sort by position in `order`; items `order` does not hold keep their place. */
function sortByOrder(items: any[], order: any[], key: string): any[] {
  const at = items.map((v, i) => ({v, i, o: indexIn(order, v, key)}))
  if (at.some((x) => x.o < 0)) return items
  return at.sort((a, b) => a.o - b.o || a.i - b.i).map((x) => x.v)
}

function indexIn(list: any[], v: any, key: string): number {
  const want = key === '' ? v : v?.[key]
  return list.findIndex((x) => (key === '' ? x : x?.[key]) === want)
}

// ---- small helpers ----

const DROP = Symbol('drop')

/** removeDirectives: a value with its `$patch` items and maps left out (DROP: the value itself is one). */
function withoutDirectives(v: any): any {
  if (Array.isArray(v)) return v.map(withoutDirectives).filter((x) => x !== DROP)
  if (!isMap(v)) return v
  if (DIRECTIVE in v) return DROP
  for (const [k, x] of Object.entries(v)) {
    const kept = withoutDirectives(x)
    if (kept === DROP) delete v[k]
    else v[k] = kept
  }
  return v
}

function discardNulls(v: any): void {
  if (Array.isArray(v)) v.forEach(discardNulls)
  else if (isMap(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k]
      else discardNulls(x)
    }
  }
}

function requireMergeKey(list: Obj[], key: string, path: Path, inManifest: boolean): void {
  const i = list.findIndex((item) => !(key in item))
  if (i >= 0) throw new MergeError(`this item has no "${key}", the key the list merges by`, [...path, i], inManifest)
}

/** sliceElementType: every item the same kind, not a list. */
function elementKind(path: Path, ...lists: any[][]): string {
  let kind: string | undefined
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v)
      if (k === 'list') throw new MergeError('lists of lists cannot be merged', path, true)
      if (kind !== undefined && kind !== k) throw new MergeError('the items of this list are not all of one type', path, true)
      kind = k
    }
  }
  return kind ?? 'none'
}

function kindOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'list'
  if (typeof v === 'object') return 'map'
  // JSON numbers decode to int64 or float64 in Go: different types, so a change between them replaces.
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  return typeof v
}

export function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** sortScalars: by the text %v prints. */
function sortScalars<T>(list: T[]): T[] {
  return [...list].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0))
}

/** deduplicateScalars, with its order: a later duplicate is replaced by the list's last item. */
function deduplicateScalars(list: any[]): any[] {
  const s = [...list]
  let last = s.length - 1
  for (let i = 0; i < last; i++) {
    for (let j = i + 1; j <= last; j++) {
      if (s[i] === s[j]) {
        s[j] = s[last]
        s.length = last
        last--
        j--
      }
    }
  }
  return s
}

/** JSON as Go's encoder writes a decoded object: map keys sorted, <, > and & escaped, a newline at the end. */
export function goJson(v: unknown): string {
  return `${encode(v)}\n`
}

function encode(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`
  if (isMap(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort()
    return `{${keys.map((k) => `${quote(k)}:${encode(v[k])}`).join(',')}}`
  }
  if (typeof v === 'string') return quote(v)
  return JSON.stringify(v ?? null)
}

function quote(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
