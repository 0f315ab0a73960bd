// Parsed objects → the Snapshot the planner reads, the way the API server would have stored them:
// validated (what it would reject is an error here, pointing at the field), and defaulted
// (pkg/apis/apps/v1/defaults.go, pkg/apis/core/v1/defaults.go). What is common to every object is
// read here (metadata, owner references, duplicates); each kind's fields are read by the reader that
// claims it: the shared ones (pods.ts, shared.ts) or a controller's read part (src/controllers/<name>/read.ts).
import {createHash} from 'node:crypto'
import {isDeepStrictEqual} from 'node:util'
import {UserError} from '../errors.js'
import type {Origin, OwnerReference, PodView, Snapshot} from '../model/objects.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {offerPodNames} from '../reconcile/pod-index.js'
import {parseSelectorString, SelectorError, selectorMatches, type CompiledSelector} from '../reconcile/selector.js'
import {Ctx, describe, isMapping, type Problem, problemError} from './context.js'
import type {Locator, Path, RawObject, SourceObject} from './documents.js'
import {intOrPercent, labelSelector, template, type FieldReaders} from './fields.js'
import type {KindReader, Meta, ReadInput, SnapshotItem, SnapshotList} from './part.js'
import {podReader} from './pods.js'
import {controllerRevisionReader, nodeReader} from './shared.js'

export {Ctx, formatPath, problemError, timestampProblem, type Problem} from './context.js'

export interface NormalizeOptions {
  /** -f values, as given: recorded in snapshot.source. */
  paths: string[]
  /** -n: the namespace of objects that name none, and (without allNamespaces) the only one kept. */
  namespace?: string
  allNamespaces?: boolean
  /** -l: only controllers whose own labels match (pods are all kept, for claiming). */
  selector?: string
  /** The objects come from the API server: already defaulted (pod templates included). */
  serverDefaulted?: boolean
  /**
   * Whether the input may hold an object of a kind, told before it is read (e.g. by a scan of its
   * text), so that readers can leave out what only such objects need (ReadInput.mayHold). A kind
   * it denies that is read all the same sets Normalizer.hintMissed. Absent: any kind may be there.
   */
  mayHold?: (kind: string) => boolean
  /**
   * Pods are assumed to be defined once each: their names are only noted (one set per namespace),
   * not kept with where each was defined, so a copy or a later definition is not handled as it is
   * read. A name read twice sets Normalizer.podsRepeated, and the input must then be read again
   * without the assumption (what kubectl apply would leave: see `remember`).
   */
  podsOnce?: boolean
}

/** An earlier definition of an object that a later one in the same apply set replaced. */
export interface Replacement {
  kind: string
  namespace: string
  name: string
  /** The replaced definition (its ordinal in the input, and where it is). */
  replaced: {ordinal: number; origin: Origin}
  by: {ordinal: number; origin: Origin}
}

/** Controllers that -n or -l left out: how many, by namespace. */
export interface LeftOut {
  count: number
  namespaces: Record<string, number>
}

/** An object that gave only metadata.generateName, planned under a placeholder name. */
export interface Generated {
  kind: string
  namespace: string
  generateName: string
  name: string
}

/**
 * A lowercase RFC 1123 subdomain (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`),
 * or with `label`, a single label (no dots); checked a character at a time (it is on every object).
 */
export function isDns1123(s: string, label = false): boolean {
  if (s.length === 0) return false
  let previous = 0x2e // as if after a dot: a label starts
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) previous = c
    else if (c === 0x2d && previous !== 0x2e) previous = c // '-', not first in a label
    else if (c === 0x2e && !label && previous !== 0x2e && previous !== 0x2d) previous = c // '.', after a label ending alphanumeric
    else return false
  }
  return previous !== 0x2e && previous !== 0x2d
}

/** A UUID derived from what identifies an object, so plans of UID-less fixtures are reproducible. */
export function inventedUid(group: string, kind: string, namespace: string, name: string): string {
  const h = createHash('sha1').update(`kctl.invented-uid/${group}/${kind}/${namespace}/${name}`).digest()
  h[6] = (h[6] & 0x0f) | 0x50 // version 5 (name-based, SHA-1)
  h[8] = (h[8] & 0x3f) | 0x80 // RFC 4122 variant
  const x = h.toString('hex', 0, 16)
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}

/** The reader of every kind read, by kind: the shared ones and the registry's (built on first use). */
let READERS: Map<string, KindReader> | undefined
function readerOf(kind: string): KindReader | undefined {
  if (!READERS) {
    const podFields = CONTROLLERS.flatMap((c) => (c.read.podFields ? [c.read.podFields] : []))
    READERS = new Map()
    for (const reader of [podReader(podFields), nodeReader, controllerRevisionReader, ...CONTROLLERS.flatMap((c) => c.read.kinds)]) READERS.set(reader.kind, reader)
  }
  return READERS.get(kind)
}

/** The apiVersions a reader reads its kind as: its version, then the others still served. */
const SERVED = new Map<KindReader, readonly string[]>()
function servedAs(reader: KindReader): readonly string[] {
  let out = SERVED.get(reader)
  if (!out) {
    const prefix = reader.group === '' ? '' : `${reader.group}/`
    SERVED.set(reader, (out = [reader.version, ...(reader.servedVersions ?? [])].map((v) => `${prefix}${v}`)))
  }
  return out
}

type Lists = {[F in SnapshotList]: SnapshotItem<F>[]}

/** Turns objects into a Snapshot; feed it in input order, then call finish(). */
export class Normalizer {
  readonly problems: Problem[] = []
  /** The Snapshot's lists, in the Snapshot's order. */
  private readonly lists: Lists = {
    jobs: [],
    cronJobs: [],
    statefulSets: [],
    daemonSets: [],
    nodes: [],
    controllerRevisions: [],
    claims: [],
    services: [],
    endpointSlices: [],
    endpoints: [],
    deployments: [],
    hpas: [],
    podMetrics: [],
    customMetrics: [],
    externalMetrics: [],
    scaleDefinitions: [],
    customResources: [],
    workloads: [],
    pods: [],
    replicaSets: [],
  }
  private readonly ignored: Record<string, number> = {}
  /** kind → group → namespace → name → where it was last defined, and what its reading collected. */
  private readonly seen = new Map<string, Map<string, Map<string, Map<string, Definition>>>>()
  /** The scope of the object read last and its names (see `remember`). */
  private lastScope?: {group: string; kind: string; namespace: string; names: Map<string, Definition>}
  /** The namespace found valid last: objects of one namespace mostly come in a row. */
  private lastNamespace?: string
  /** The list of the one owner reference read last (see `ownerReferences`). */
  private lastOwner?: OwnerReference[]
  /**
   * What the object being read has collected so far (see `add`): its first item, and the others
   * (most objects collect one item, which is kept without a list).
   */
  private collectedFirst?: object
  private collectedMore?: object[]
  /** Items of replaced definitions, dropped from the lists by finish(). */
  private readonly dropped = new Set<object>()
  /** Earlier definitions that a later one replaced (kubectl apply: the later one wins). */
  readonly replacements: Replacement[] = []
  /** Objects that had only metadata.generateName. */
  readonly generated: Generated[] = []
  /** Controllers left out by -n or -l. */
  readonly leftOut: LeftOut = {count: 0, namespaces: {}}
  /** group|kind|namespace|name → uid, of objects that may own others (everything but pods). */
  private readonly uids = new Map<string, string>()
  /** Owner references written without a uid: filled in from the owner once everything is read. */
  private readonly pendingOwners: Array<{ref: {uid: string; apiVersion: string; kind: string; name: string}; namespace: string}> = []
  private readonly defaultNamespace: string
  private readonly onlyNamespace?: string
  private readonly selector?: CompiledSelector
  objects = 0
  /** What opts.mayHold answered, by kind; and the kinds read, kept only when it is given. */
  private readonly mayHoldAnswers = new Map<string, boolean>()
  private readonly kindsRead = new Set<string>()
  /** The kind of the object read last, and its reader. */
  private lastKind?: string
  private lastReader?: KindReader
  /**
   * With opts.podsOnce: namespace → the names of the pods read in it, each followed by its view
   * once it is collected (undefined until then), as they were read; and the last namespace's list.
   * They are hashed once all is read (see podNameMaps): pods are hashed faster in one walk than
   * each as it is read, among the allocations of its reading.
   */
  private readonly podNames = new Map<string, (string | PodView | undefined)[]>()
  private lastPodNames?: {namespace: string; names: (string | PodView | undefined)[]}
  /**
   * The names noted, by namespace, each with its view (see podNames), once hashed; undefined when a
   * name was read twice in one namespace. When every pod noted was collected and kept, the pod
   * index takes these maps as they are (offerPodNames) rather than hashing every name again.
   */
  #podNameMaps?: Map<string, Map<string, PodView | undefined>> | undefined
  #podNamesHashed = false
  /** With opts.podsOnce: the pods noted, and those noted with their view. */
  private podsNoted = 0
  private podsCollected = 0
  /** With opts.podsOnce: the namespace and name of the pod being read, until they are noted (see notePod). */
  private podNamespace?: string
  private podName?: string
  /** With opts.podsOnce: a pod's name was read twice in one namespace (see NormalizeOptions.podsOnce). */
  get podsRepeated(): boolean {
    return this.podNameMaps() === undefined
  }

  /** The names noted (podNames) hashed, by namespace; undefined when one was read twice in a namespace. */
  private podNameMaps(): Map<string, Map<string, PodView | undefined>> | undefined {
    if (this.#podNamesHashed) return this.#podNameMaps
    this.#podNamesHashed = true
    const maps = new Map<string, Map<string, PodView | undefined>>()
    for (const [namespace, noted] of this.podNames) {
      const names = new Map<string, PodView | undefined>()
      for (let i = 0; i < noted.length; i += 2) names.set(noted[i] as string, noted[i + 1] as PodView | undefined)
      if (2 * names.size !== noted.length) return undefined
      maps.set(namespace, names)
    }
    return (this.#podNameMaps = maps)
  }
  /** With opts.podsOnce: the problem count before the pod being read, or -1 (see `add`). */
  private podProblemsBefore = -1

  constructor(private readonly opts: NormalizeOptions) {
    this.defaultNamespace = opts.namespace ?? 'default'
    this.onlyNamespace = opts.allNamespaces ? undefined : opts.namespace
    if (opts.selector !== undefined) {
      try {
        this.selector = parseSelectorString(opts.selector)
      } catch (error) {
        if (error instanceof SelectorError) throw new UserError(`invalid -l/--selector: ${error.message}`, {hint: 'kubectl syntax, e.g. -l app=web,tier!=db'})
        throw error
      }
    }
  }

  add(obj: SourceObject): void {
    this.objects++
    this.collectedFirst = undefined
    this.collectedMore = undefined
    this.pending = undefined
    this.addObject(obj)
    const pending = this.pending as Pending | undefined
    if (pending) this.commit(pending, obj)
    else if (this.podProblemsBefore >= 0) {
      // A pod noted by name only (opts.podsOnce): what it collected goes if it had a problem.
      if (this.podName !== undefined) this.namePod(undefined) // (not collected)
      if (this.problems.length !== this.podProblemsBefore) this.drop(this.collectedFirst, this.collectedMore)
      this.podProblemsBefore = -1
    }
  }

  /** The identity the object being read claims, and the definition it replaces (if any). */
  private pending?: Pending

  /**
   * A later definition of an object replaces the earlier one in what is applied together, as
   * `kubectl apply` leaves it (the objects are applied in input order). Only a definition the API
   * server would accept replaces anything: a rejected one leaves the earlier in place.
   */
  private commit(p: Pending, obj: SourceObject): void {
    const clean = this.problems.length === p.problemsBefore
    if (!clean) {
      this.drop(this.collectedFirst, this.collectedMore)
      return
    }
    const earlier = p.earlier
    p.names.set(p.name, new Definition(obj.locator, obj.ordinal, this.collectedFirst, this.collectedMore))
    if (!earlier) return
    this.drop(earlier.first, earlier.more)
    this.replacements.push({kind: p.kind, namespace: p.namespace, name: p.name, replaced: {ordinal: earlier.ordinal, origin: earlier.locator.origin}, by: {ordinal: obj.ordinal, origin: obj.locator.origin}})
  }

  private addObject(obj: SourceObject): void {
    const raw = obj.raw
    const kind = raw.kind as string
    const apiVersion = raw.apiVersion as string
    const group = groupOf(apiVersion)
    // Objects of one kind mostly come in a row: the kind is noted, and its reader found, once for them.
    let known: KindReader | undefined
    if (kind === this.lastKind) known = this.lastReader
    else {
      if (this.opts.mayHold) this.kindsRead.add(kind)
      known = readerOf(kind)
      this.lastKind = kind
      this.lastReader = known
    }
    const ctx = new Ctx(obj, this.problems, kind)
    if (!known || (group !== known.group && !known.retiredGroups?.includes(group))) {
      // Not a kind kctl plans (a Deployment, a Service, a custom resource named like one).
      const key = known ? `${kind}.${group}` : kind
      if (!this.remember(ctx, group, kind, raw) && !this.pending?.names.has(this.pending.name)) {
        this.ignored[key] = (this.ignored[key] ?? 0) + 1
        // A custom resource (a group, no reader): kept whole, for a controller that reads it through a definition.
        if (group !== '' && this.pending) {
          const {namespace, name} = this.pending
          const m = raw.metadata as RawObject
          const uid = this.uids.get(`${group}|${kind}|${namespace}|${name}`) ?? ''
          const item = {apiVersion, kind, namespace, name, uid, resourceVersion: typeof m.resourceVersion === 'string' ? m.resourceVersion : '', object: raw}
          this.lists.customResources.push(item)
          this.keepCollected({into: 'customResources', item})
        }
      }
      return
    }
    if (!servedAs(known).includes(apiVersion)) {
      const want = `${known.group === '' ? '' : `${known.group}/`}${known.version}`
      ctx.fail(['apiVersion'], `${kind} is not served as ${apiVersion} by Kubernetes 1.36`, `use apiVersion: ${want}`)
      return
    }
    // Every field is checked even after a first problem, so that `kctl check` reports them all;
    // an object with any problem is not added to the snapshot.
    const before = this.problems.length
    if (known.unnamed) {
      // A metrics API's value (MetricValue, ExternalMetricValue) carries no metadata.
      const namespace = this.defaultNamespace
      const meta: Meta = {namespace, name: '', uid: '', resourceVersion: '', generation: 0, labels: {}, annotations: {}, ownerReferences: NO_OWNERS}
      known.read(this.input(ctx, apiVersion, meta, raw, before))
      return
    }
    const meta = this.meta(ctx, group, kind, raw)
    if (!meta) return
    known.read(this.input(ctx, apiVersion, meta, raw, before))
  }

  /** What a reader is given about one object: where its result goes, and whether it is kept. */
  private input(ctx: Ctx, apiVersion: string, meta: Meta, raw: RawObject, before: number): ReadInput {
    return new ObjectInput(this, ctx, apiVersion, meta, raw, before)
  }

  /** The labels match -l (or there is none). */
  selects(labels: Meta['labels']): boolean {
    return !this.selector || selectorMatches(this.selector, labels)
  }

  /** Counts a controller that -n or -l left out. */
  countLeftOut(namespace: string): void {
    this.leftOut.count++
    this.leftOut.namespaces[namespace] = (this.leftOut.namespaces[namespace] ?? 0) + 1
  }

  get problemCount(): number {
    return this.problems.length
  }

  /** Puts an item in one of the Snapshot's lists, as collected by the object being read. */
  collectInto<F extends SnapshotList>(into: F, item: SnapshotItem<F>): void {
    ;(this.lists[into as keyof typeof this.lists] as SnapshotItem<F>[]).push(item)
    this.keepCollected(item as object)
    if (into === 'pods' && this.podName !== undefined) {
      this.namePod(item as PodView)
      this.podsCollected++
    }
  }

  private keepCollected(item: object): void {
    if (this.collectedFirst === undefined) this.collectedFirst = item
    else (this.collectedMore ??= []).push(item)
  }

  private drop(first: object | undefined, more: readonly object[] | undefined): void {
    if (first !== undefined) this.dropped.add(first)
    if (more !== undefined) for (const item of more) this.dropped.add(item)
  }

  /** Whether the input may hold objects of a kind (see NormalizeOptions.mayHold). */
  mayHold(kind: string): boolean {
    const hint = this.opts.mayHold
    if (!hint || this.kindsRead.has(kind)) return true
    let answer = this.mayHoldAnswers.get(kind)
    if (answer === undefined) this.mayHoldAnswers.set(kind, (answer = hint(kind)))
    return answer
  }

  /**
   * An object of a kind opts.mayHold denied was read after all (its text spelt the kind with
   * escapes): what readers left out for it is missing, and the input must be read again without the hint.
   */
  get hintMissed(): boolean {
    for (const [kind, answer] of this.mayHoldAnswers) if (!answer && this.kindsRead.has(kind)) return true
    return false
  }

  /** The shared field readers, as the controllers' readers receive them. */
  get fields(): FieldReaders {
    // The template reader is given no path, as before readers moved to the controllers: a pod
    // template read at another path (a CronJob's jobTemplate) is reported at spec.template. Kept
    // so that the move changes no output; passing `at` on would point at the field itself.
    return (this.#fields ??= {labelSelector, template: (c, v) => template(c, v), intOrPercent, serverDefaulted: this.opts.serverDefaulted === true})
  }
  #fields?: FieldReaders

  /** Owner references read without a uid, waiting for their owners' (finish() fills them in from everything read). */
  get ownersPending(): number {
    return this.pendingOwners.length
  }

  finish(): {snapshot: Snapshot; problems: Problem[]} {
    for (const {ref, namespace} of this.pendingOwners) {
      const group = groupOf(ref.apiVersion)
      ref.uid = this.uids.get(`${group}|${ref.kind}|${namespace}|${ref.name}`) ?? inventedUid(group, ref.kind, namespace, ref.name)
    }
    if (this.dropped.size > 0) {
      for (const key of Object.keys(this.lists) as SnapshotList[]) {
        const list = this.lists[key] as object[]
        if (list.some((item) => this.dropped.has(item))) (this.lists as Record<string, object[]>)[key] = list.filter((item) => !this.dropped.has(item))
      }
    }
    const snapshot: Snapshot = {
      ...this.lists,
      ignored: this.ignored,
      source: {type: 'fixtures', paths: [...this.opts.paths]},
    }
    // Every pod noted is in the list, each under its own name: the index can take the names as they are.
    if (this.opts.podsOnce && this.dropped.size === 0 && this.podsNoted === this.podsCollected && this.lists.pods.length === this.podsNoted) {
      const names = this.podNameMaps()
      if (names !== undefined) offerPodNames(this.lists.pods, names as Map<string, Map<string, PodView>>)
    }
    return {snapshot, problems: this.problems}
  }

  /** The namespace is read (-n). */
  keep(namespace: string): boolean {
    return this.onlyNamespace === undefined || namespace === this.onlyNamespace
  }

  /**
   * Duplicate detection (and uid bookkeeping) for an object of any kind. Returns whether the
   * object is a copy of the one read before it: two identical objects are one object (an
   * all-in-one file beside the split files). A different object with the same identity replaces
   * the earlier one once it has been read without a problem (`commit`), as `kubectl apply` of the
   * same inputs would leave it.
   */
  private remember(ctx: Ctx, group: string, kind: string, raw: RawObject, meta?: Meta): boolean {
    const m = isMapping(raw.metadata) ? raw.metadata : undefined
    const name = meta?.name ?? m?.name
    if (typeof name !== 'string' || name === '') return false
    const namespace = meta?.namespace ?? (typeof m?.namespace === 'string' && m.namespace !== '' ? m.namespace : this.defaultNamespace)
    // By scope (kind, group, namespace), then name: cheaper than one key string per object; and
    // objects of one kind and namespace mostly come in a row, which need no lookup of the scope at all.
    let names: Map<string, Definition>
    const last = this.lastScope
    if (last !== undefined && last.namespace === namespace && last.kind === kind && last.group === group) names = last.names
    else {
      // Keyed by the strings as read (no key built: a joined string is hashed anew each time).
      let groups = this.seen.get(kind)
      if (!groups) this.seen.set(kind, (groups = new Map()))
      let namespaces = groups.get(group)
      if (!namespaces) groups.set(group, (namespaces = new Map()))
      let found = namespaces.get(namespace)
      if (!found) namespaces.set(namespace, (found = new Map()))
      names = found
      this.lastScope = {group, kind, namespace, names}
    }
    const earlier = names.get(name)
    if (earlier && sameObject(earlier.locator, ctx.obj.locator)) return true
    this.pending = {names, name, kind, namespace, problemsBefore: this.problems.length, earlier}
    if (kind !== 'Pod') {
      const uid = meta?.uid ?? (typeof m?.uid === 'string' && m.uid !== '' ? m.uid : inventedUid(group, kind, namespace, name))
      this.uids.set(`${group}|${kind}|${namespace}|${name}`, uid)
    }
    return false
  }

  /**
   * A pod's identity under opts.podsOnce: its name is noted in its namespace's list (nothing else
   * kept per pod) once the pod is read, with its view when it is collected (namePod); a name noted
   * twice in one namespace is found once all is read (podsRepeated).
   */
  private notePod(namespace: string, name: string): void {
    this.podNamespace = namespace
    this.podName = name
    this.podProblemsBefore = this.problems.length
  }

  private namePod(pod: PodView | undefined): void {
    const namespace = this.podNamespace!
    let last = this.lastPodNames
    if (last === undefined || last.namespace !== namespace) {
      let names = this.podNames.get(namespace)
      if (!names) this.podNames.set(namespace, (names = []))
      this.lastPodNames = last = {namespace, names}
    }
    last.names.push(this.podName!, pod)
    this.#podNamesHashed = false
    this.podsNoted++
    this.podName = undefined
  }

  private meta(ctx: Ctx, group: string, kind: string, raw: RawObject): Meta | undefined {
    const m = raw.metadata
    if (!isMapping(m)) {
      ctx.fail(P.metadata, m === undefined ? 'required (with at least a name)' : `expected a mapping, got ${describe(m)}`)
      return undefined
    }
    const before = this.problems.length
    let name = ctx.string(m.name, P.name)
    if ((name === undefined || name === '') && (name === '' || m.name === undefined || m.name === null) && typeof m.generateName === 'string' && m.generateName !== '') {
      // The API server would pick a random suffix (names.SimpleNameGenerator): plan the object
      // under a placeholder that is the same on every run.
      name = placeholderName(m.generateName, raw)
      this.generated.push({kind, namespace: typeof m.namespace === 'string' && m.namespace !== '' ? m.namespace : this.defaultNamespace, generateName: m.generateName, name})
    }
    if (name === undefined || name === '') {
      if (name === '' || m.name === undefined || m.name === null) ctx.fail(P.name, 'a name is required')
      return undefined
    }
    if (name.length > 253 || !isDns1123(name)) {
      ctx.fail(P.name, `invalid name ${JSON.stringify(name)}: must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters)`)
    }
    let namespace = ctx.string(m.namespace, P.namespace)
    if (namespace === undefined || namespace === '') namespace = this.defaultNamespace
    else if (namespace !== this.lastNamespace) {
      if (namespace.length > 63 || !isDns1123(namespace, true)) {
        ctx.fail(P.namespace, `invalid namespace ${JSON.stringify(namespace)}: must be a lowercase RFC 1123 label (a-z, 0-9, '-'; at most 63 characters)`)
      } else this.lastNamespace = ctx.own(namespace)
    }
    let uid = ctx.string(m.uid, P.uid)
    if (uid === undefined || uid === '') uid = inventedUid(group, kind, namespace, name)
    const resourceVersion = ctx.string(m.resourceVersion, P.resourceVersion) ?? ''
    const generation = ctx.int(m.generation, P.generation, 0, Number.MAX_SAFE_INTEGER) ?? 1
    const labels = ctx.labels(m.labels, P.labels)
    const annotations = ctx.stringMap(m.annotations, P.annotations)
    const ownerReferences = this.ownerReferences(ctx, m.ownerReferences, namespace)
    const creationTimestamp = ctx.time(m.creationTimestamp, P.creationTimestamp)
    const deletionTimestamp = ctx.time(m.deletionTimestamp, P.deletionTimestamp)
    const meta: Meta = {
      namespace: ctx.own(namespace),
      name: ctx.own(name),
      uid: ctx.own(uid),
      resourceVersion: ctx.own(resourceVersion),
      generation,
      labels: ctx.ownMap(labels),
      annotations: ctx.ownMap(annotations),
      ownerReferences,
      creationTimestamp: ctx.own(creationTimestamp),
      deletionTimestamp: ctx.own(deletionTimestamp),
    }
    if (this.problems.length === before) {
      if (kind === 'Pod' && this.opts.podsOnce && group === '') this.notePod(meta.namespace, meta.name)
      else if (this.remember(ctx, group, kind, raw, meta)) return undefined // a copy
    }
    return meta
  }

  private ownerReferences(ctx: Ctx, v: unknown, namespace: string): OwnerReference[] {
    if (v === undefined || v === null) return NO_OWNERS
    if (!Array.isArray(v)) {
      ctx.fail(P.ownerReferences, `expected a list, got ${describe(v)}`)
      return NO_OWNERS
    }
    // The pods of one controller come in a row, each naming the same owner: they share one list
    // (nothing changes an owner reference that has its uid once it has been read).
    const last = this.lastOwner?.[0]
    const only = v.length === 1 ? v[0] : undefined
    if (last !== undefined && isMapping(only) && only.uid === last.uid && only.name === last.name && only.kind === last.kind && only.apiVersion === last.apiVersion && only.controller === last.controller && only.blockOwnerDeletion === last.blockOwnerDeletion) {
      return this.lastOwner!
    }
    const problemsBefore = this.problems.length
    const out: OwnerReference[] = new Array(v.length) // of its exact size (see readContainerStatuses)
    let kept = 0
    let controllers = 0
    for (let i = 0; i < v.length; i++) {
      const r = v[i]
      if (!isMapping(r)) {
        ctx.fail([...P.ownerReferences, i], `expected a mapping, got ${describe(r)}`)
        continue
      }
      const apiVersion = ctx.itemString(r, 'apiVersion', P.ownerReferences, i, true)
      const kind = ctx.itemString(r, 'kind', P.ownerReferences, i, true)
      const name = ctx.itemString(r, 'name', P.ownerReferences, i, true)
      const uid = ctx.itemString(r, 'uid', P.ownerReferences, i, false)
      const controller = r.controller
      const blockOwnerDeletion = r.blockOwnerDeletion
      if (controller !== undefined && controller !== null && typeof controller !== 'boolean') {
        ctx.fail([...P.ownerReferences, i, 'controller'], `expected true or false, got ${describe(controller)}`)
      }
      if (blockOwnerDeletion !== undefined && blockOwnerDeletion !== null && typeof blockOwnerDeletion !== 'boolean') {
        ctx.fail([...P.ownerReferences, i, 'blockOwnerDeletion'], `expected true or false, got ${describe(blockOwnerDeletion)}`)
      }
      if (!apiVersion || !kind || !name) continue
      const ref: OwnerReference = {apiVersion: ctx.own(apiVersion), kind: ctx.own(kind), name: ctx.own(name), uid: ctx.own(uid ?? '')}
      if (typeof controller === 'boolean') ref.controller = controller
      if (typeof blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = blockOwnerDeletion
      if (controller === true) controllers++
      // A fixture may leave the owner's uid out: it is the uid of the owner in the input (or the
      // one kctl invents for it), filled in once everything has been read.
      if (!uid) this.pendingOwners.push({ref, namespace})
      out[kept++] = ref
    }
    if (kept < out.length) out.length = kept
    if (controllers > 1) ctx.fail(P.ownerReferences, 'only one reference can have controller set to true')
    if (out.length === 1 && out[0].uid !== '' && this.problems.length === problemsBefore) this.lastOwner = out
    return out
  }
}

/**
 * What a reader is given about one object (ReadInput). Readers take its functions apart
 * (`read({ctx, clean, collect})`), so each is a getter that makes the function when it is taken:
 * an object read makes only the few its reader uses, not one of each.
 */
class ObjectInput implements ReadInput {
  private counted = false
  readonly fields: FieldReaders
  readonly locator: Locator
  constructor(
    private readonly n: Normalizer,
    readonly ctx: Ctx,
    readonly apiVersion: string,
    readonly meta: Meta,
    readonly raw: RawObject,
    private readonly before: number,
  ) {
    this.fields = n.fields
    this.locator = ctx.obj.locator
  }

  get clean(): () => boolean {
    return () => this.n.problemCount === this.before
  }

  get wanted(): () => boolean {
    return () => this.n.problemCount === this.before && this.n.keep(this.meta.namespace)
  }

  get planned(): () => boolean {
    return () => {
      if (this.n.problemCount !== this.before) return false
      const ok = this.n.keep(this.meta.namespace) && this.n.selects(this.meta.labels)
      if (!ok && !this.counted) {
        this.counted = true
        this.n.countLeftOut(this.meta.namespace)
      }
      return ok
    }
  }

  get selected(): (labels: Meta['labels']) => boolean {
    return (labels) => this.n.selects(labels)
  }

  get located(): <T extends object>(v: T) => T {
    const locator = this.locator
    return (v) => {
      // One getter for every view, its locator beside it: views then share their hidden classes
      // (a getter of its own per view would turn each into a slow dictionary of properties).
      Object.defineProperty(v, LOCATOR, {value: locator, enumerable: false})
      Object.defineProperty(v, 'origin', {get: originOfView, enumerable: false})
      return v
    }
  }

  get collect(): <F extends SnapshotList>(into: F, item: SnapshotItem<F>) => void {
    return (into, item) => this.n.collectInto(into, item)
  }

  get mayHold(): (kind: string) => boolean {
    return (kind) => this.n.mayHold(kind)
  }
}

const LOCATOR = Symbol('locator')
function originOfView(this: {[LOCATOR]: Locator}): Origin {
  return this[LOCATOR].origin
}

/** Where an object was last defined, and what its reading put in the Snapshot's lists (the first item, and any others). */
class Definition {
  constructor(
    readonly locator: Locator,
    readonly ordinal: number,
    readonly first: object | undefined,
    readonly more: readonly object[] | undefined,
  ) {}
}

interface Pending {
  names: Map<string, Definition>
  name: string
  kind: string
  namespace: string
  problemsBefore: number
  /** The definition it replaces (nothing else is defined while an object is read). */
  earlier: Definition | undefined
}

/** The characters the API server's name generator draws from (k8s.io/apimachinery rand.String). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/**
 * `<generateName><5 characters>`, the characters taken from a hash of the whole object: the same
 * object gets the same name on every run, two different ones get different names.
 */
export function placeholderName(generateName: string, raw: RawObject): string {
  const h = createHash('sha256').update(JSON.stringify(raw)).digest()
  let suffix = ''
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[h[i] % NAME_ALPHABET.length]
  // The generator cuts the prefix so that the whole name fits in 63 characters (names.go: maxGeneratedNameLength).
  return `${generateName.slice(0, 58)}${suffix}`
}

// Paths of the metadata fields read on every object, built once (not on every call).
const P = {
  metadata: ['metadata'],
  name: ['metadata', 'name'],
  namespace: ['metadata', 'namespace'],
  uid: ['metadata', 'uid'],
  resourceVersion: ['metadata', 'resourceVersion'],
  generation: ['metadata', 'generation'],
  labels: ['metadata', 'labels'],
  annotations: ['metadata', 'annotations'],
  ownerReferences: ['metadata', 'ownerReferences'],
  creationTimestamp: ['metadata', 'creationTimestamp'],
  deletionTimestamp: ['metadata', 'deletionTimestamp'],
} as const satisfies Record<string, Path>
const NO_OWNERS: OwnerReference[] = Object.freeze([]) as unknown as OwnerReference[]

/**
 * Two objects read from the input are the same object. Compared on their text parsed again, so
 * that the first one's parsed form need not be kept alive for this rare case.
 */
export function sameObject(a: Locator, b: Locator): boolean {
  const x = a.reread()
  return x !== undefined && isDeepStrictEqual(x, b.reread())
}

/** Normalizes all objects; throws the first problem (in input order) as a UserError. */
export function normalize(objects: Iterable<SourceObject>, opts: NormalizeOptions): Snapshot {
  const n = new Normalizer(opts)
  for (const obj of objects) n.add(obj)
  const {snapshot, problems} = n.finish()
  if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1)
  return snapshot
}

/** The first problem in input order: objects come in order; within one object, the earliest field. */
export function firstProblem(problems: readonly Problem[]): Problem {
  let best = problems[0]
  let bestAt = best.origin()
  for (let i = 1; i < problems.length && problems[i].ordinal === best.ordinal; i++) {
    const at = problems[i].origin()
    if (at.line < bestAt.line || (at.line === bestAt.line && at.column < bestAt.column)) {
      best = problems[i]
      bestAt = at
    }
  }
  return best
}
