// Objects already parsed (a live cluster's lists, an in-memory world) turned into a Snapshot by the
// same reader and normalizer as files: they travel as one JSON List, exactly the document
// `kubectl get -o json` would print, which is there for positions (error lines), not parsed again.
//
// When the caller can give the objects again as they were read (`reread`: a live cluster's pages
// parsed a second time), that document is not even written unless a position is asked for (an
// error, a replaced duplicate): writing it costs more than reading the objects did, and is almost
// never needed.
import type {Origin, Snapshot} from '../model/objects.js'
import {InnerLocator, Locator, readParsedJsonList, SourceObject, type Path, type RawObject} from './documents.js'
import {SourceFile} from './files.js'
import {SHARED_SET} from './layout.js'
import {firstProblem, groupOf, normalize, Normalizer, problemError, type NormalizeOptions} from './normalize.js'
import type {SnapshotList} from './part.js'
import {Chunk, isListKind, isMapping} from './source-object.js'

export function normalizeParsed(name: string, objects: RawObject[], options: NormalizeOptions, reread?: () => RawObject[]): Snapshot {
  if (!reread) return normalizeWhole(name, objects, options)
  const stream = new ParsedStream(name, options, reread)
  stream.add(objects)
  return stream.finish()
}

/** The List document written, and read as a file is. */
function normalizeWhole(name: string, objects: RawObject[], options: NormalizeOptions): Snapshot {
  // No kind hint (ReadInput.mayHold) but the caller's: a live read tells which lists ended empty,
  // known before any object is read, so both ways of reading them give the same Snapshot.
  return normalize(readParsedJsonList(listFile(name, objects), objects), options)
}

/** The document the objects travel as: one pretty-printed JSON List. */
function listFile(name: string, objects: RawObject[]): SourceFile {
  return new SourceFile(name, undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects}, null, 1)))
}

/**
 * An object the list reader hands out as it is (no list to unpack, no apiVersion or kind to
 * report): anything else takes the reader's own path, which says what is wrong with it.
 */
function plainObject(v: unknown): v is RawObject {
  return isMapping(v) && typeof v.apiVersion === 'string' && v.apiVersion !== '' && typeof v.kind === 'string' && v.kind !== '' && !(isListKind(v.kind) && (Array.isArray(v.items) || v.items === null || v.items === undefined))
}

/**
 * Objects handed over a batch at a time as they are read (a live cluster's pages, in list order)
 * and normalized at once, as the list reader would hand them out (in order, managedFields dropped),
 * so that what the Snapshot does not keep is let go while the rest is still being read. Each has a
 * locator that writes the List document (from `reread`: the objects as they were before anything
 * read them) the first time any position is asked for, and then answers as reading it would.
 * Anything this does not cover (an object the list reader would report, objects handed over again
 * after a list started over, options the Normalizer refuses) is read again whole, the usual way, by
 * finish().
 */
export class ParsedStream {
  #normalizer?: Normalizer
  readonly #list: LazyList
  #count = 0

  constructor(
    private readonly name: string,
    private readonly options: NormalizeOptions,
    private readonly reread: () => RawObject[],
  ) {
    this.#list = new LazyList(name, reread)
    try {
      this.#normalizer = new Normalizer(options)
    } catch {
      this.#normalizer = undefined // finish() reads everything again and says what is wrong
    }
  }

  /** The next objects, in order. */
  add(objects: readonly RawObject[]): void {
    const n = this.#normalizer
    if (!n) return
    try {
      for (const value of objects) {
        if (!plainObject(value)) return this.readAgain()
        const meta = value.metadata
        if (isMapping(meta) && meta.managedFields !== undefined) delete meta.managedFields
        const list = this.#list
        const index = this.#count++
        n.add(new SourceObject(value, new DeferredLocator(list.name, list.placeholder, () => list.at(index)), index))
      }
    } catch {
      // A position asked for while reading (a replaced duplicate names both), or anything else
      // unexpected: the whole read meets it again, at the same object.
      this.readAgain()
    }
  }

  /** What was handed over is not what finish() reads: everything is read again then. */
  readAgain(): void {
    this.#normalizer = undefined
  }

  /** The Snapshot; throws the first problem (in input order) as a UserError. */
  finish(): Snapshot {
    const n = this.#normalizer
    if (!n) return normalizeWhole(this.name, this.reread(), this.options)
    this.#list.count = this.#count
    this.#list.complete = true
    const {snapshot, problems} = n.finish()
    if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1)
    return snapshot
  }
}

/** The List document of objects read, written and read for positions the first time one is asked for. */
class LazyList {
  /** What the locators of the objects pass to Locator (never read: they answer from `at`). */
  readonly placeholder: Chunk
  #located?: Locator[]

  /** Every object was read, and how many there are. */
  complete = false
  count = 0

  constructor(
    readonly name: string,
    private readonly reread: () => RawObject[],
  ) {
    this.placeholder = new Chunk(new SourceFile(name, undefined, 'json', Buffer.alloc(0)), 0, 0)
  }

  /** The locator reading the document gives the `index`th object (once all are read: see ParsedStream.finish). */
  at(index: number): Locator {
    if (!this.#located) {
      if (!this.complete) throw new Error(`${this.name}: a position was asked for before every object was read`)
      const again = this.reread()
      const located = [...readParsedJsonList(listFile(this.name, again), again)].map((o) => o.locator)
      if (located.length !== this.count) throw new Error(`${this.name}: ${this.count} objects were read, but ${located.length} when read again`)
      this.#located = located
    }
    return this.#located[index]
  }
}

/** A locator whose positions are found only when first asked for, from the locator `located` gives then. */
class DeferredLocator extends InnerLocator {
  constructor(
    private readonly name: string,
    placeholder: Chunk,
    /** The real locator, found only when a position is asked for. */
    private readonly located: () => Locator,
  ) {
    super(placeholder, [])
  }

  override get file(): string {
    return this.name
  }

  override get format(): 'json' {
    return 'json'
  }

  override get applySet(): string {
    return SHARED_SET
  }

  override reread(): unknown {
    return this.located().reread()
  }

  /** Its text is not written yet: not told. */
  override textLacks(): boolean {
    return false
  }

  override get origin(): Origin {
    return this.located().origin
  }

  override locate(path: Path, opts: {key?: boolean} = {}): Origin {
    return this.located().locate(path, opts)
  }
}

/** What one object read alone put in the Snapshot: its items by list, its count among the ignored, and its identity (for copies). */
interface ReadAlone {
  lists: Array<[SnapshotList, object[]]>
  ignored: Array<[string, number]>
  /** group|kind|namespace|name, as the normalizer tells copies apart; undefined when it has no name. */
  identity?: string
}

/**
 * Snapshots of a world that changes a few objects at a time (the simulation's memory world, whose
 * changed objects replace the ones read, never change them in place): each object is read alone,
 * once, the first time it is seen, and a Snapshot is its items put together in the objects' order,
 * as reading the whole List (normalizeParsed) gives them. Whatever reading alone cannot answer the
 * same way is read whole, the usual way: an object with a problem, one named by generateName, an
 * owner reference without a uid (filled in from the other objects), two objects with the same
 * identity (copies, or a later definition replacing an earlier), a List among the objects.
 */
export function snapshotReader(name: string, options: NormalizeOptions): (objects: RawObject[]) => Snapshot {
  const read = new WeakMap<RawObject, ReadAlone | null>()
  const list = new WorldList(name)
  const empty = new Normalizer(options).finish().snapshot
  const defaultNamespace = options.namespace ?? 'default'
  const whole = (objects: RawObject[]) => normalizeWhole(name, objects, options)
  return (objects) => {
    list.objects = objects
    const reads: ReadAlone[] = []
    const identities = new Set<string>()
    for (const o of objects) {
      let r = read.get(o)
      if (r === undefined) read.set(o, (r = readAlone(o, new DeferredLocator(list.name, list.placeholder, () => list.locatorOf(o)), options, defaultNamespace)))
      if (r === null) return whole(objects)
      if (r.identity !== undefined) {
        if (identities.has(r.identity)) return whole(objects)
        identities.add(r.identity)
      }
      reads.push(r)
    }
    const lists: Record<string, object[]> = {}
    for (const key of Object.keys(empty)) if (Array.isArray((empty as unknown as Record<string, unknown>)[key])) lists[key] = []
    const ignored: Record<string, number> = {}
    for (const r of reads) {
      for (const [into, items] of r.lists) for (const item of items) lists[into].push(item)
      for (const [kind, n] of r.ignored) ignored[kind] = (ignored[kind] ?? 0) + n
    }
    return {...empty, ...lists, ignored, source: {type: 'fixtures', paths: [...options.paths]}} as Snapshot
  }
}

/** One object read by a normalizer of its own; null when that is not what the whole read would give. */
function readAlone(raw: RawObject, locator: Locator, options: NormalizeOptions, defaultNamespace: string): ReadAlone | null {
  if (!plainObject(raw)) return null
  try {
    // As the List reader hands out an object it is given (a large List's items): the object itself,
    // never changed in place, minus managedFields.
    let copy = raw
    if (isMapping(raw.metadata) && raw.metadata.managedFields !== undefined) {
      const {managedFields: _, ...metadata} = raw.metadata
      copy = {...raw, metadata}
    }
    const meta = copy.metadata
    const n = new Normalizer(options)
    n.add(new SourceObject(copy, locator, 0))
    if (n.generated.length > 0 || n.replacements.length > 0 || n.ownersPending > 0) return null
    const {snapshot, problems} = n.finish()
    if (problems.length > 0) return null
    const lists: ReadAlone['lists'] = []
    for (const [key, v] of Object.entries(snapshot)) if (Array.isArray(v) && v.length > 0) lists.push([key as SnapshotList, v as object[]])
    const m = isMapping(meta) ? meta : undefined
    const named = typeof m?.name === 'string' && m.name !== ''
    const namespace = typeof m?.namespace === 'string' && m.namespace !== '' ? m.namespace : defaultNamespace
    const identity = named ? `${groupOf(String(copy.apiVersion))}|${String(copy.kind)}|${namespace}|${String(m!.name)}` : undefined
    return {lists, ignored: Object.entries(snapshot.ignored), identity}
  } catch {
    return null
  }
}

/** The objects of the latest Snapshot, as the List document whose positions their items' locators answer with. */
class WorldList {
  objects: RawObject[] = []
  readonly placeholder: Chunk
  #located?: {objects: RawObject[]; locators: Locator[]}

  constructor(readonly name: string) {
    this.placeholder = new Chunk(new SourceFile(name, undefined, 'json', Buffer.alloc(0)), 0, 0)
  }

  /** The locator reading the List document of the latest objects gives `raw`. */
  locatorOf(raw: RawObject): Locator {
    const objects = this.objects
    if (this.#located?.objects !== objects) {
      const copies = objects.map((o) => JSON.parse(JSON.stringify(o)) as RawObject)
      this.#located = {objects, locators: [...readParsedJsonList(listFile(this.name, copies), copies)].map((o) => o.locator)}
    }
    const at = objects.indexOf(raw)
    if (at < 0 || at >= this.#located.locators.length) throw new Error(`${this.name}: a position was asked for an object no longer in the world`)
    return this.#located.locators[at]
  }
}

