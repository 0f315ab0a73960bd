// A shared informer (client-go tools/cache/shared_informer.go, controller.go processDeltas): one
// reflector and one cache per resource, whatever number of consumers listen to it. The cache
// holds objects as a transform made them (stripped to what planning reads) and never changes one:
// an update replaces the object. Handlers get, in order (docs/replicaset-controller.md §12.2):
//   onAdd(obj, initialList)         an object the cache did not have;
//   onUpdate(old, new, how)         one it had — from the watch, from a relist (same
//                                   resourceVersion when unchanged), or from a resync (old === new);
//   onDelete(obj, how)              one that is gone — from the watch, or missing from a relist
//                                   (client-go's DeletedFinalStateUnknown: the last state known).
import {type ListerWatcher, Reflector, type ReflectorOptions, type ReflectorStatus, type ReflectorStore, type RawObject} from './reflector.js'

export interface CachedObject {
  readonly namespace: string
  readonly name: string
  readonly resourceVersion: string
}

export type UpdateHow = 'watch' | 'relist' | 'resync'

export interface EventHandler<T> {
  onAdd?(obj: T, initialList: boolean): void
  onUpdate?(old: T, next: T, how: UpdateHow): void
  onDelete?(obj: T, how: 'watch' | 'relist'): void
}

/** An object the transform refused (the API server stored something kctl cannot read). */
export interface ObjectProblem {
  namespace?: string
  name?: string
  message: string
}

export type Transform<T> = (raws: RawObject[]) => {objects: T[]; problems: ObjectProblem[]}

export type InformerStatus =
  | (ReflectorStatus & {resource: string})
  | {type: 'relisted'; resource: string; resourceVersion: string; reason: string; added: number; updated: number; deleted: number}
  | {type: 'problem'; resource: string; message: string}

export interface InformerOptions extends Omit<ReflectorOptions, 'onStatus' | 'resource'> {
  onStatus?: (status: InformerStatus) => void
}

type Store<T> = Map<string, Map<string, T>>

export class SharedInformer<T extends CachedObject> implements ReflectorStore {
  private store: Store<T> = new Map()
  private listing?: Store<T>
  private readonly handlers: EventHandler<T>[] = []
  private readonly reflector: Reflector
  #size = 0
  private initialDone = false

  constructor(
    readonly resource: string,
    lw: ListerWatcher,
    private readonly transform: Transform<T>,
    private readonly options: InformerOptions = {},
  ) {
    this.reflector = new Reflector(lw, this, {...options, resource, onStatus: (s) => this.options.onStatus?.({...s, resource})})
  }

  get hasSynced(): boolean {
    return this.reflector.hasSynced
  }

  get lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion
  }

  get size(): number {
    return this.#size
  }

  get(namespace: string, name: string): T | undefined {
    return this.store.get(namespace)?.get(name)
  }

  /** The objects of one namespace ('' for cluster-scoped ones). */
  *listNamespace(namespace: string): Generator<T> {
    const names = this.store.get(namespace)
    if (names) yield* names.values()
  }

  /** Namespaces that hold an object. */
  namespaces(): IterableIterator<string> {
    return this.store.keys()
  }

  *list(): Generator<T> {
    for (const names of this.store.values()) yield* names.values()
  }

  /** Adds a consumer; one added after the first list gets every cached object as an add. */
  addEventHandler(handler: EventHandler<T>): void {
    this.handlers.push(handler)
    if (this.initialDone) for (const obj of this.list()) handler.onAdd?.(obj, true)
  }

  run(signal: AbortSignal): Promise<void> {
    return this.reflector.run(signal)
  }

  /** Replays every cached object as an update to itself (a periodic resync). */
  resync(): void {
    for (const obj of [...this.list()]) for (const h of this.handlers) h.onUpdate?.(obj, obj, 'resync')
  }

  // --- ReflectorStore ---------------------------------------------------------------------------

  beginList(): void {
    this.listing = new Map()
  }

  listPage(items: RawObject[]): void {
    const into = this.listing ?? (this.listing = new Map())
    const {objects, problems} = this.transform(items)
    for (const obj of objects) put(into, obj)
    for (const p of problems) this.problem(p)
  }

  endList(resourceVersion: string, relist: {reason: string} | undefined): void {
    const previous = this.store
    const next = this.listing ?? new Map()
    this.listing = undefined
    this.store = next
    this.#size = count(next)
    let added = 0
    let updated = 0
    let deleted = 0
    const initial = !this.initialDone
    this.initialDone = true
    for (const [namespace, names] of next) {
      for (const [name, obj] of names) {
        const old = previous.get(namespace)?.get(name)
        if (old === undefined) {
          added++
          for (const h of this.handlers) h.onAdd?.(obj, initial)
        } else {
          if (old.resourceVersion !== obj.resourceVersion) updated++
          for (const h of this.handlers) h.onUpdate?.(old, obj, 'relist')
        }
      }
    }
    for (const [namespace, names] of previous) {
      for (const [name, old] of names) {
        if (next.get(namespace)?.has(name)) continue
        deleted++
        for (const h of this.handlers) h.onDelete?.(old, 'relist')
      }
    }
    if (relist) this.options.onStatus?.({type: 'relisted', resource: this.resource, resourceVersion, reason: relist.reason, added, updated, deleted})
  }

  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', raw: RawObject): void {
    const meta = (raw.metadata ?? {}) as {namespace?: string; name?: string}
    const namespace = meta.namespace ?? ''
    const name = meta.name ?? ''
    const old = this.store.get(namespace)?.get(name)
    if (type === 'DELETED') {
      if (old) this.remove(old, 'watch')
      return
    }
    const {objects, problems} = this.transform([raw])
    for (const p of problems) this.problem(p)
    const obj = objects[0]
    if (!obj) {
      // It can no longer be read: as far as planning goes, it is gone.
      if (old) this.remove(old, 'watch')
      return
    }
    if (put(this.store, obj)) this.#size++
    if (old) for (const h of this.handlers) h.onUpdate?.(old, obj, 'watch')
    else for (const h of this.handlers) h.onAdd?.(obj, false)
  }

  private remove(old: T, how: 'watch' | 'relist'): void {
    const names = this.store.get(old.namespace)
    names?.delete(old.name)
    if (names?.size === 0) this.store.delete(old.namespace)
    this.#size--
    for (const h of this.handlers) h.onDelete?.(old, how)
  }

  private problem(p: ObjectProblem): void {
    const what = p.name ? `${p.namespace ? `${p.namespace}/` : ''}${p.name}: ` : ''
    this.options.onStatus?.({type: 'problem', resource: this.resource, message: `${what}${p.message}`})
  }
}

/** Stores `obj`; true when it is new to the store. */
function put<T extends CachedObject>(store: Store<T>, obj: T): boolean {
  let names = store.get(obj.namespace)
  if (!names) store.set(obj.namespace, (names = new Map()))
  const had = names.has(obj.name)
  names.set(obj.name, obj)
  return !had
}

function count<T>(store: Store<T>): number {
  let n = 0
  for (const names of store.values()) n += names.size
  return n
}

/**
 * One informer per resource, shared by every consumer that asks for it (client-go's
 * SharedInformerFactory): `informer(resource, make)` returns the existing one when there is.
 */
export class InformerFactory {
  private readonly informers = new Map<string, SharedInformer<CachedObject>>()

  informer<T extends CachedObject>(resource: string, make: () => SharedInformer<T>): SharedInformer<T> {
    let informer = this.informers.get(resource) as SharedInformer<T> | undefined
    if (!informer) {
      informer = make()
      this.informers.set(resource, informer as unknown as SharedInformer<CachedObject>)
    }
    return informer
  }

  all(): SharedInformer<CachedObject>[] {
    return [...this.informers.values()]
  }

  get synced(): boolean {
    return this.all().every((i) => i.hasSynced)
  }

  /** Runs every informer until `signal` aborts; rejects with the first error none can recover from. */
  run(signal: AbortSignal): Promise<void> {
    return Promise.all(this.all().map((i) => i.run(signal))).then(() => undefined)
  }
}
