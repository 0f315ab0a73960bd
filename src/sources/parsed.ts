// Objects already parsed (a live cluster's lists, an in-memory world) turned into a Snapshot by the
// same reader and normalizer as files: they travel as one JSON List, exactly the document
// `kubectl get -o json` would print, which is there for positions (error lines), not parsed again.
//
// When the caller can give the objects again as they were read (`reread`: a live cluster's pages
// parsed a second time), that document is not even written unless a position is asked for (an
// error, a replaced duplicate): writing it costs more than reading the objects did, and is almost
// never needed.
import type {Origin, Snapshot} from '../model/objects.js'
import {Locator, readParsedJsonList, SourceObject, type Path, type RawObject} from './documents.js'
import {SourceFile} from './files.js'
import {SHARED_SET} from './layout.js'
import {firstProblem, normalize, Normalizer, problemError, type NormalizeOptions} from './normalize.js'
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
        n.add(new SourceObject(value, new LazyLocator(this.#list, this.#count), this.#count))
        this.#count++
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

/** A locator whose positions are those of its object in a LazyList, found only when first asked for. */
class LazyLocator extends Locator {
  constructor(
    private readonly list: LazyList,
    private readonly index: number,
  ) {
    super(list.placeholder, [])
  }

  override get file(): string {
    return this.list.name
  }

  override get format(): 'json' {
    return 'json'
  }

  override get applySet(): string {
    return SHARED_SET
  }

  override reread(): unknown {
    return this.list.at(this.index).reread()
  }

  override get origin(): Origin {
    return this.list.at(this.index).origin
  }

  override locate(path: Path, opts: {key?: boolean} = {}): Origin {
    return this.list.at(this.index).locate(path, opts)
  }
}
