// API objects → what the watch cache keeps: the Normalizer's views (the one normalizer, validation
// and defaulting included), cut down to the fields planning reads and frozen. The shared pieces
// live here: the Interner (shared, frozen copies of what objects repeat), the one way raw objects
// go through the Normalizer, the helpers that strip raw objects, and the resources every
// controller may read (Nodes, ControllerRevisions). Pods are kept by watch/pods.ts; what a
// controller's own kinds keep is its watch part's (src/controllers/<controller>/watch.ts).
//
// Dropped everywhere: managedFields and every field no rule reads.
import type {ControllerRevisionView, Labels, NodeView, Snapshot} from '../model/objects.js'
import {readDocuments, SourceFile} from '../sources/documents.js'
import {formatPath, Normalizer} from '../sources/normalize.js'
import type {WatchedResource} from '../sources/cluster-watch.js'
import type {ObjectProblem} from './informer.js'
import type {WatchedResourcePart} from './part.js'
import type {RawObject} from './reflector.js'

export const EMPTY: Labels = Object.freeze({})
export const NONE: readonly never[] = Object.freeze([])

/** Shared, frozen copies of values many objects repeat. Forgets everything past `limit` entries. */
export class Interner {
  private strings = new Map<string, string>()
  private values = new Map<string, unknown>()
  constructor(private readonly limit = 500_000) {}

  string(s: string): string
  string(s: string | undefined): string | undefined
  string(s: string | undefined): string | undefined {
    if (s === undefined) return undefined
    const known = this.strings.get(s)
    if (known !== undefined) return known
    if (this.strings.size >= this.limit) this.strings = new Map()
    this.strings.set(s, s)
    return s
  }

  /** The shared value for `key`, made by `make` (then frozen) the first time. */
  value<V>(key: string, make: () => V): V {
    const known = this.values.get(key)
    if (known !== undefined) return known as V
    if (this.values.size >= this.limit) this.values = new Map()
    const v = deepFreeze(make())
    this.values.set(key, v)
    return v
  }

  labels(map: Labels): Labels {
    let key = ''
    for (const k in map) key += `${k}\u0000${map[k]}\u0000`
    if (key === '') return EMPTY
    return this.value(`L${key}`, () => {
      const out: Record<string, string> = {}
      for (const k in map) out[this.string(k)] = this.string(map[k])
      return out
    })
  }
}

export interface NormalizeResult<T> {
  objects: T[]
  problems: ObjectProblem[]
}

/**
 * Raw objects of one kind, stripped to what the cache keeps, through the Normalizer: the snapshot
 * it builds, and the objects it refused (as the informer reports them).
 */
export function normalizeStripped(kind: string, stripped: readonly RawObject[]): {snapshot: Snapshot; problems: ObjectProblem[]} {
  const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: stripped})
  const file = new SourceFile(`the API server's ${kind}`, undefined, 'json', Buffer.from(text))
  // Every object keeps its own namespace (-n is applied by what is listed), and -l is applied by
  // the planner, which needs the ReplicaSets it filters out as siblings.
  // Templates read from the API server are defaulted already (what pod-template-hash is computed from).
  const normalizer = new Normalizer({paths: [], allNamespaces: true, serverDefaulted: true})
  for (const obj of readDocuments([file])) normalizer.add(obj)
  const {snapshot, problems} = normalizer.finish()
  return {
    snapshot,
    problems: problems.map((p) => ({
      namespace: p.namespace,
      name: p.name,
      message: `${p.kind}: ${p.path.length > 0 ? `${formatPath(p.path)}: ` : ''}${p.message}`,
    })),
  }
}

/**
 * Objects a controller's sync reads besides pods (and, for the namespace-planned controllers,
 * their own), kept whole but for managedFields, through the Normalizer, frozen: `take` picks them
 * out of the snapshot it builds.
 */
export function normalizeWhole<T>(kind: string, apiVersion: string, raws: readonly RawObject[], take: (snapshot: Snapshot) => readonly unknown[] | undefined): NormalizeResult<T> {
  const items = raws.map((raw) => {
    const {managedFields: _, ...metadata} = isMap(raw.metadata) ? raw.metadata : {}
    return {...raw, apiVersion: raw.apiVersion ?? apiVersion, kind: raw.kind ?? kind, metadata}
  })
  const {snapshot, problems} = normalizeStripped(kind, items)
  return {objects: (take(snapshot) ?? []).map((o) => deepFreeze({...(o as object)}) as T), problems}
}

/** A resource whose objects the cache keeps whole but for managedFields (normalizeWhole). */
export function wholeObjects<T extends {namespace: string; name: string; resourceVersion: string}>(
  resource: WatchedResource,
  kind: string,
  apiVersion: string,
  take: (snapshot: Snapshot) => readonly T[] | undefined,
): WatchedResourcePart<T> {
  return {resource, kind, normalize: (raws) => normalizeWhole<T>(kind, apiVersion, raws, take)}
}

/** Nodes: the DaemonSet controller's and the load balancers' hosts. */
export const NODES: WatchedResourcePart<NodeView> = {...wholeObjects<NodeView>('nodes', 'Node', 'v1', (s) => s.nodes), clusterScoped: true}
/** ControllerRevisions: the StatefulSet and DaemonSet controllers' history. */
export const CONTROLLER_REVISIONS = wholeObjects<ControllerRevisionView>('controllerrevisions', 'ControllerRevision', 'apps/v1', (s) => s.controllerRevisions)

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

// --- stripping raw objects to the fields the Normalizer reads -----------------------------------

export const isMap = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

export function pick(from: unknown, keys: readonly string[]): RawObject | undefined {
  if (!isMap(from)) return from === undefined ? undefined : (from as RawObject)
  const out: RawObject = {}
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k]
  return out
}

const META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'labels', 'creationTimestamp', 'deletionTimestamp']

/** Metadata the rules read: with one annotation (`keepAnnotation`), every one (true), or none. */
export function stripMeta(meta: unknown, keepAnnotation?: string | true): unknown {
  if (!isMap(meta)) return meta
  const out = pick(meta, META)!
  if (Array.isArray(meta.ownerReferences)) out.ownerReferences = meta.ownerReferences
  if (keepAnnotation === true && meta.annotations !== undefined) out.annotations = meta.annotations
  else if (typeof keepAnnotation === 'string' && isMap(meta.annotations) && meta.annotations[keepAnnotation] !== undefined) {
    out.annotations = {[keepAnnotation]: meta.annotations[keepAnnotation]}
  }
  return out
}

