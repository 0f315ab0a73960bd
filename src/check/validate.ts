// invalid-field and duplicate-object. ReplicaSets, ReplicationControllers and Pods go through the
// same Normalizer `kctl plan` uses (one check, one wording); the other kinds the rules read get the
// same type checks (its Ctx) on the fields the API server validates and the controllers read: each
// controller's check part validates its kinds (CheckedKind.validate), with the shared checks of fields.ts.
// Selectors are left to the selector rules (invalid-selector, empty-selector), and apiVersions to
// deprecated-api.
import type {Problem} from '../sources/normalize.js'
import {Ctx, formatPath, Normalizer, sameObject} from '../sources/normalize.js'
import {SourceObject, type Path, type RawObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import {servedAs} from './deprecations.js'
import type {Draft} from './draft.js'
import {describeObject} from './draft.js'
import {identityOf, type CheckObject} from './objects.js'
import {Scope} from './scope.js'

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

const startsWith = (path: Path, prefix: Path) => prefix.every((step, i) => path[i] === step)

/** invalid-field and duplicate-object drafts for all objects, in input order. */
export function fieldDrafts(objects: readonly CheckObject[], defaultNamespace: string, scope: Scope = new Scope(objects)): Draft[] {
  const pass = new FieldPass(defaultNamespace, (o) => scope.setOf(o))
  for (const obj of objects) pass.add(obj)
  return pass.finish()
}

/** An identity seen more than once (FieldPass): its first object, and how many so far. */
class Seen {
  constructor(
    readonly first: CheckObject,
    public count: number,
  ) {}
}

/** An identity as the index holds it: its object while it has been seen once (most are), else Seen. */
type Identity = CheckObject | Seen

/** The identities of one name (other kinds, namespaces, groups): one, or a list of its exact length. */
type Named = Identity | Identity[]

const firstOf = (id: Identity): CheckObject => (id instanceof Seen ? id.first : id)

/**
 * invalid-field and duplicate-object, one object at a time in input order (each is judged against
 * the ones before it), then the problems the Normalizers find over all of them.
 */
export class FieldPass {
  private readonly drafts: Draft[] = []
  /**
   * Per apply set, by name, each identity seen (identityOf): its first object and how many so far
   * (a Normalizer per occurrence). By name, not by an identity string: such a key, built for every
   * object and kept to the end, costs more than comparing the few objects that share a name. An
   * object with a `|` in a field of its identity (two such may read alike) is found by its whole
   * identity, in `odd`.
   */
  private readonly bySet = new Map<string, {plain: Map<string, Named>; odd: Map<string, Seen>}>()
  /** One Normalizer per apply set and occurrence of an identity: a Normalizer never sees a duplicate. */
  private readonly normalizers = new Map<string, Normalizer>()
  private readonly problems: Problem[] = []
  private readonly objects: CheckObject[] = []

  constructor(
    private readonly defaultNamespace: string,
    /** The apply set of an object (scope.ts). */
    private readonly setOf: (o: CheckObject) => string,
  ) {}

  add(obj: CheckObject): void {
    this.objects.push(obj)
    let nth = 0
    const setKey = this.setOf(obj)
    if (obj.name !== '') {
      // Within one apply set: alternatives (a base and its overlays) define the same objects on purpose.
      let seen = this.bySet.get(setKey)
      if (!seen) this.bySet.set(setKey, (seen = {plain: new Map(), odd: new Map()}))
      const plain = !(obj.name.includes('|') || obj.namespace.includes('|') || obj.kind.includes('|') || obj.resourceGroup.includes('|'))
      const known = plain ? seenPlain(seen.plain, obj) : seenOdd(seen.odd, obj)
      if (known) {
        nth = known.count++
        const earlier = known.first
        if (sameObject(earlier.src.locator, obj.src.locator)) return // a copy is the same object
        this.drafts.push({
          rule: 'duplicate-object',
          message: `${describeObject(obj)} is already defined differently ${earlier.src.file === obj.src.file ? 'earlier in this file' : `in ${earlier.src.file}`}; kubectl apply would apply both, and the last one wins${earlier.src.file === obj.src.file ? '' : ' (if the files are alternatives, applied one at a time, check with --apply-set file)'}`,
          subject: obj,
          path: ['metadata', 'name'],
          atKey: true,
          related: [{object: earlier, path: ['metadata', 'name'], atKey: true, message: 'first defined here'}],
        })
      }
    }
    // The kind's own field checks, from its controller's check part (part.ts).
    const checked = checkedKind(obj)
    if (checked?.normalized || (obj.kind === 'Pod' && obj.group === '')) {
      const key = `${nth}|${setKey}`
      let normalizer = this.normalizers.get(key)
      if (!normalizer) this.normalizers.set(key, (normalizer = new Normalizer({paths: [], namespace: this.defaultNamespace, allNamespaces: true})))
      normalizer.add(asServed(obj))
    }
    checked?.validate?.(new Ctx(obj.src, this.problems, obj.kind), obj.src.raw)
  }

  /** The drafts: duplicates, then the problems of the fields, in input order. */
  finish(): Draft[] {
    const {drafts, problems} = this
    for (const n of this.normalizers.values()) {
      for (const p of n.finish().problems) {
        // Selectors: invalid-selector / empty-selector say it, pointing at the requirement.
        if (startsWith(p.path, ['spec', 'selector'])) continue
        problems.push(p)
      }
    }
    // Problems are few: the objects are looked up by ordinal only when there are some.
    const byOrdinal = new Map<number, CheckObject>()
    if (problems.length > 0) for (const obj of this.objects) byOrdinal.set(obj.src.ordinal, obj)
    for (const p of problems) {
      const subject = byOrdinal.get(p.ordinal)!
      const where = p.path.length > 0 ? `${formatPath(p.path)}: ` : ''
      drafts.push({
        rule: 'invalid-field',
        message: `${where}${p.message}${p.hint ? ` (${p.hint})` : ''}`,
        subject,
        path: p.path,
        atKey: false,
        lazyOrigin: () => p.origin(),
      })
    }
    return drafts
  }
}

/**
 * The identity of `obj` among those seen of its name, when it has been seen (made a Seen, if it was
 * its object); otherwise undefined, after recording it.
 */
function seenPlain(byName: Map<string, Named>, obj: CheckObject): Seen | undefined {
  const named = byName.get(obj.name)
  if (named === undefined) {
    byName.set(obj.name, obj)
    return undefined
  }
  const list = Array.isArray(named) ? named : [named]
  for (let i = 0; i < list.length; i++) {
    const id = list[i]
    const first = firstOf(id)
    if (first.kind === obj.kind && first.namespace === obj.namespace && first.resourceGroup === obj.resourceGroup) {
      if (id instanceof Seen) return id
      const seen = (list[i] = new Seen(first, 1))
      if (list !== named) byName.set(obj.name, seen)
      return seen
    }
  }
  const grown: Identity[] = new Array(list.length + 1)
  for (let i = 0; i < list.length; i++) grown[i] = list[i]
  grown[list.length] = obj
  byName.set(obj.name, grown)
  return undefined
}

function seenOdd(odd: Map<string, Seen>, obj: CheckObject): Seen | undefined {
  const key = identityOf(obj)
  const known = odd.get(key)
  if (!known) odd.set(key, new Seen(obj, 1))
  return known
}
/**
 * What the Normalizer is given: the object as its current apiVersion (deprecated-api reports the
 * version; the fields are still checked), with a placeholder name when only generateName is set
 * (manifests for `kubectl create` may rely on it). The locator stays: positions are the object's.
 */
function asServed(obj: CheckObject): SourceObject {
  const raw = obj.src.raw
  const current = servedAs(obj.apiVersion, obj.kind)
  const meta = isMapping(raw.metadata) ? raw.metadata : undefined
  const generated = meta && (meta.name === undefined || meta.name === null) && typeof meta.generateName === 'string'
  if (!current && !generated) return obj.src
  const copy: RawObject = {...raw}
  if (current) copy.apiVersion = current
  if (generated) copy.metadata = {...meta, name: `${meta.generateName as string}${obj.src.ordinal}`}
  return new SourceObject(copy, obj.src.locator, obj.src.ordinal)
}
