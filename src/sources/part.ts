// What a controller gives the reading layer (sources → model): the kinds it reads, each validated
// and defaulted as the API server stores it, and where in the Snapshot each object goes. The
// Normalizer (normalize.ts) finds the reader that claims an object's apiVersion and kind among the
// shared ones (Pods, Nodes, ControllerRevisions: shared.ts) and the registry's controllers, and
// never names a kind itself.
import type {ObjectMeta, OwnerReference, PodView, Snapshot} from '../model/objects.js'
import type {Ctx} from './context.js'
import type {Locator, RawObject} from './documents.js'
import type {FieldReaders} from './fields.js'

/** Metadata as read, before it is placed on a view. */
export type Meta = Omit<ObjectMeta, 'origin' | 'ownerReferences'> & {ownerReferences: OwnerReference[]}

/**
 * A view of an object: its metadata, field by field in Meta's order, then `rest`'s fields. Made
 * as {...meta, ...rest}, nearly every view would get a hidden class of its own (a spread that
 * starts a literal, once it has seen metadata of more than one hidden class, gives each copy a
 * fresh one), so that every read of a view's field in a planner would look it up by name; these
 * all share one. A field added to Meta and not copied here fails to compile.
 */
export function viewOf<T extends object>(meta: Meta, rest: T): Meta & T {
  const copy: {[K in keyof Required<Meta>]: Meta[K]} = {
    namespace: meta.namespace,
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    generation: meta.generation,
    labels: meta.labels,
    annotations: meta.annotations,
    ownerReferences: meta.ownerReferences,
    creationTimestamp: meta.creationTimestamp,
    deletionTimestamp: meta.deletionTimestamp,
  }
  return Object.assign(copy, rest)
}

/**
 * The Snapshot's lists an object can be collected into (load balancers come from the cloud provider, the HPAs'
 * live metrics from the metrics APIs, not from objects).
 */
export type SnapshotList = Exclude<{[F in keyof Snapshot]-?: NonNullable<Snapshot[F]> extends readonly unknown[] ? F : never}[keyof Snapshot], 'loadBalancers' | 'hpaMetrics' | 'customScales'>
export type SnapshotItem<F extends SnapshotList> = NonNullable<Snapshot[F]>[number]

/** One object to read, with what the Normalizer knows about it. */
export interface ReadInput {
  readonly ctx: Ctx
  readonly fields: FieldReaders
  readonly apiVersion: string
  readonly meta: Meta
  readonly raw: RawObject
  readonly locator: Locator
  /** No problem was found in the object so far. */
  clean(): boolean
  /** Clean, and in the namespace read (-n). */
  wanted(): boolean
  /** Wanted, and its labels match -l (its controller plans it). */
  planned(): boolean
  /** The given labels match -l (or there is none). */
  selected(labels: ObjectMeta['labels']): boolean
  /** The view, with its origin (read on demand) as a non-enumerable property. */
  located<T extends object>(view: T): T
  /** Puts the view in one of the Snapshot's lists. */
  collect<F extends SnapshotList>(into: F, item: SnapshotItem<F>): void
  /**
   * Whether the world read may hold an object of this kind, as far as its source could tell before
   * reading it (NormalizeOptions.mayHold); true when it cannot tell.
   */
  mayHold(kind: string): boolean
}

/** The reader of one kind. */
export interface KindReader {
  kind: string
  /** The API group and version it is served as ('' for the core group). */
  group: string
  version: string
  /** Groups that once served the kind (before Kubernetes 1.16) and no longer do: read, then refused. */
  retiredGroups?: readonly string[]
  /** Other versions of the kind the API server still serves: read too (the reader converts them). */
  servedVersions?: readonly string[]
  /** Its objects carry no metadata (a metrics API's values): read as they are, in the default namespace. */
  unnamed?: true
  /** Reads, validates and defaults one object (problems go to input.ctx), and collects what it keeps. */
  read(input: ReadInput): void
  /** Whether its controller plans this object (as listed) with the nodes: a live read lists them only then. */
  readsNodes?: (raw: RawObject) => boolean
}

/**
 * The fields of a pod one controller alone reads, given after the pod is read without a problem
 * (`input`: the pod's ReadInput, e.g. to ask whether the world may hold the controller's objects).
 */
export type PodFieldsReader = (ctx: Ctx, meta: Meta, raw: RawObject, spec: RawObject, status: RawObject, input: ReadInput) => Partial<PodView> | undefined

/** How a controller's objects are read into the Snapshot. */
export interface ControllerRead {
  /** The kinds this controller reads into the Snapshot (its own, and the objects only it reads). */
  kinds: readonly KindReader[]
  /** The pod fields only this controller reads, set on every PodView it returns some for. */
  podFields?: PodFieldsReader
  /**
   * What only a live cluster answers beside its objects (a metrics API's values), read once the Snapshot is
   * built from them; the lists returned are added to it.
   */
  live?: (get: LiveGet, snapshot: Snapshot) => Promise<Partial<Snapshot>>
}

/** One GET against the cluster: the decoded body, or the API's refusal (its code and message). */
export type LiveGet = (path: string, query?: Record<string, string | undefined>) => Promise<{ok: true; body: unknown} | {ok: false; code: number; message: string}>

export interface ReadPart {
  read: ControllerRead
}
