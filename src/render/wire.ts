// The versioned wire form (`kctl/v1alpha1`, docs/output.md) of the values kctl prints as
// JSON or YAML, described in this one place (as a copy, or written as JSON straight away). Keys come out in a fixed order: the contract's fields
// first, then any field the model gained later (sorted), so adding a field never reorders old
// ones and the same plan always serializes to the same bytes. Maps of labels, annotations and
// gates are sorted, as Go's encoding/json sorts map keys.
import type {PlanSource} from '../model/objects.js'
import type {Action, ControllerPlan, ReconcilePlan} from '../model/plan.js'
import {type ByteSink, isArrayIndex, JsonWriter, outputOrder, unwritable} from './json-writer.js'
import {deleteReasons} from './reasons.js'

export type Json = null | boolean | number | string | Json[] | {[key: string]: Json}
type JsonObject = {[key: string]: Json}

/**
 * How an object takes its wire form: the contract's fields in `order`, then any other field
 * sorted; `fields` shapes some of them (a shape given a list shapes each item), `computed` gives
 * a field its value from the whole object, `context` what its fields are shaped with. Everything
 * not shaped is plain data, written with its object keys sorted. One description serves the copy
 * (toWire: YAML, watch, simulate) and the JSON written straight from the plan (writeShaped).
 */
export interface Shape {
  readonly order: readonly string[]
  readonly fields?: Readonly<Record<string, Field>>
  readonly computed?: Readonly<Record<string, (value: never, ctx: WireContext) => unknown>>
  readonly context?: (value: never, ctx: WireContext) => WireContext
  /** Consecutive items of a list that are one value take one copy (a controller's creates). */
  readonly shareRepeats?: boolean
}

/**
 * Plain data written by a function of its own: the bytes JsonWriter.sorted gives (it knows the
 * keys and their order), copied as plain data.
 */
export interface Written {
  readonly write: (w: JsonWriter, value: never, depth: number) => void
  readonly shareRepeats?: boolean
}

/** A shape, a shape chosen by the value, or plain data with a writer of its own. */
export type Field = Shape | {readonly pick: (value: never) => Shape; readonly shareRepeats?: boolean} | Written

/** What a field's wire form may depend on beyond its value: the controller it is in, and the plan's clock. */
export interface WireContext {
  readonly cp?: ControllerPlan
  readonly now: string
}

/** The parts of every field description: each is made with all of them, in this order (see `described`). */
interface Parts {
  readonly order?: readonly string[]
  readonly fields?: Readonly<Record<string, Field>>
  readonly computed?: Readonly<Record<string, (value: never, ctx: WireContext) => unknown>>
  readonly context?: (value: never, ctx: WireContext) => WireContext
  readonly shareRepeats?: boolean
  readonly pick?: (value: never) => Shape
  readonly write?: (w: JsonWriter, value: never, depth: number) => void
}

/**
 * A field description with every part, unset ones undefined: all of them are then of one hidden
 * class, and the writer's reads of them do not meet a new one (and throw out its optimised code)
 * as it goes from one controller's fields to another's.
 */
function described<T extends Field>(p: Parts): T {
  return {order: p.order ?? [], fields: p.fields, computed: p.computed, context: p.context, shareRepeats: p.shareRepeats, pick: p.pick, write: p.write} as Parts as T
}

const writerOf = (field: Field): Written['write'] | undefined => (field as Parts).write

const shapeOf = (field: Field, v: unknown): Shape => {
  const pick = (field as Parts).pick
  return pick ? pick(v as never) : (field as Shape)
}

const orderSets = new WeakMap<readonly string[], Set<string>>()

/** The fields of `source` that `order` does not list, in output order (for-in: own fields, then inherited ones). */
function restKeys(source: object, order: readonly string[]): string[] | undefined {
  let listed = orderSets.get(order)
  if (!listed) orderSets.set(order, (listed = new Set(order)))
  let rest: string[] | undefined
  for (const key in source) if (!listed.has(key)) (rest ??= []).push(key)
  return rest && outputOrder(rest)
}

/**
 * The keys of `v`'s wire form under `shape`, in the order JSON.stringify writes its copy: the
 * listed fields, then the rest sorted (array indices, which lead any object, first of all).
 */
function shapedKeys(v: object, shape: Shape): readonly string[] {
  const rest = restKeys(v, shape.order)
  if (!rest) return shape.order
  const indices = rest.filter((k) => isArrayIndex(k))
  return indices.length === 0 ? [...shape.order, ...rest] : [...indices, ...shape.order, ...rest.slice(indices.length)]
}

/** A field's value in the wire form: computed, or the object's own. */
const fieldValue = (v: object, shape: Shape, key: string, ctx: WireContext): unknown => {
  const compute = shape.computed?.[key]
  return compute ? compute(v as never, ctx) : (v as Record<string, unknown>)[key]
}

/** The wire form of `v` under `field`: a copy, undefined fields left out. */
export function toWire(v: unknown, field: Field, ctx: WireContext): Json {
  if (Array.isArray(v)) {
    let previous: unknown
    let wire: Json = null
    return v.map((x, i) => {
      if (i === 0 || x !== previous || !field.shareRepeats) wire = toWire(x, field, ctx)
      previous = x
      return wire
    })
  }
  if (v === null || typeof v !== 'object') return v as Json
  if (writerOf(field)) return plain(v)
  const shape = shapeOf(field, v)
  const inner = shape.context ? shape.context(v as never, ctx) : ctx
  const out: JsonObject = {}
  for (const key of shapedKeys(v, shape)) {
    const x = fieldValue(v, shape, key, inner)
    if (x === undefined) continue
    const sub = shape.fields?.[key]
    out[key] = sub ? toWire(x, sub, inner) : plain(x)
  }
  return out
}

/** JSON text of `v` under `field` at `depth`: the bytes JSON.stringify(toWire(v, field, ctx), null, 2) gives there, without the copy. */
export function writeShaped(w: JsonWriter, v: unknown, field: Field, ctx: WireContext, depth: number): void {
  if (Array.isArray(v)) {
    const n = v.length
    for (let i = 0; i < n; i++) {
      w.item(i === 0, depth + 1)
      writeShaped(w, v[i], field, ctx, depth + 1)
    }
    return w.endList(n === 0, depth)
  }
  if (v === null || typeof v !== 'object') return w.scalar(v)
  const write = writerOf(field)
  if (write) return write(w, v as never, depth)
  const shape = shapeOf(field, v)
  const inner = shape.context ? shape.context(v as never, ctx) : ctx
  let first = true
  for (const key of shapedKeys(v, shape)) {
    const x = fieldValue(v, shape, key, inner)
    if (unwritable(x)) continue
    w.field(first, key, depth + 1)
    first = false
    const sub = shape.fields?.[key]
    if (sub) writeShaped(w, x, sub, inner, depth + 1)
    else w.sorted(x, depth + 1)
  }
  w.endObject(first, depth)
}

/** Copies `value`'s defined fields: `order` first, then the rest sorted; `convert` may reshape some. */
export function ordered<T extends object>(
  value: T,
  order: readonly string[],
  convert: Partial<Record<string, (v: never) => Json>> = {},
): JsonObject {
  const source = value as Record<string, unknown>
  const out: JsonObject = {}
  const copy = (key: string) => {
    const v = source[key]
    if (v === undefined) return
    const fn = convert[key] as ((v: unknown) => Json) | undefined
    out[key] = fn ? fn(v) : plain(v)
  }
  for (const key of order) copy(key)
  let rest: string[] | undefined
  for (const key in source) if (!order.includes(key)) (rest ??= []).push(key)
  if (rest) for (const key of rest.sort()) copy(key)
  return out
}

/** A deep copy of plain data with object keys sorted (for maps and anything not listed above). */
function plain(v: unknown): Json {
  if (v === null || typeof v !== 'object') return v as Json
  if (Array.isArray(v)) return v.map((x) => plain(x))
  const out: JsonObject = {}
  for (const key of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[key]
    if (x !== undefined) out[key] = plain(x)
  }
  return out
}

const shape = (order: readonly string[], more: Omit<Shape, 'order'> = {}): Shape => described({order, ...more})

const OWNER_REFERENCE = shape(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'])

const WORKLOAD_CONDITION = shape(['type', 'status', 'reason', 'message', 'lastTransitionTime'])

const DEPLOYMENT_CONDITION = shape(['type', 'status', 'reason', 'message', 'lastUpdateTime', 'lastTransitionTime'])

const SERVICE_STATUS = shape(['loadBalancer', 'readyEndpoints'])
const JOB_STATUS = shape(['conditions', 'startTime', 'completionTime', 'active', 'succeeded', 'failed', 'terminating', 'completedIndexes', 'failedIndexes', 'uncountedTerminatedPods', 'ready'], {
  fields: {conditions: shape(['type', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message']), uncountedTerminatedPods: shape(['succeeded', 'failed'])},
})
const CRON_JOB_STATUS = shape(['active', 'lastScheduleTime', 'lastSuccessfulTime'], {fields: {active: shape(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion'])}})
const STATEFUL_SET_STATUS = shape(['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'availableReplicas'])
const DAEMON_SET_STATUS = shape(['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'])
const DEPLOYMENT_STATUS = shape(['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount', 'conditions'], {
  fields: {conditions: DEPLOYMENT_CONDITION},
})
const REPLICA_SET_STATUS = shape(['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration', 'conditions'], {
  fields: {conditions: WORKLOAD_CONDITION},
})

/** A ReplicaSet's, Deployment's, StatefulSet's, DaemonSet's, Job's, CronJob's or Service's status, in the API's field order. */
const STATUS: Field = described({
  pick: (s: ControllerPlan['status']) =>
    'readyEndpoints' in s
      ? SERVICE_STATUS
      : 'succeeded' in s
      ? JOB_STATUS
      : Array.isArray((s as {active?: unknown}).active)
      ? CRON_JOB_STATUS
      : 'currentRevision' in s
      ? STATEFUL_SET_STATUS
      : 'numberReady' in s
      ? DAEMON_SET_STATUS
      : 'updatedReplicas' in s
      ? DEPLOYMENT_STATUS
      : REPLICA_SET_STATUS,
})

export const status = (s: ControllerPlan['status']): Json => toWire(s, STATUS, {now: ''})

const REPLICA_SET_REF = ['type', 'replicaSet', 'uid', 'resourceVersion']

const FACTS: Shape = shape([
  'nodeName',
  'phase',
  'ready',
  'deletionCost',
  'invalidDeletionCost',
  'colocationRank',
  'readySince',
  'readyBucket',
  'restarts',
  'sidecarRestarts',
  'creationTimestamp',
  'createdBucket',
])

const ACTIONS: Record<string, Shape> = {
  create: shape(['type', 'generateName', 'nameBase', 'labels', 'annotations', 'finalizers', 'ownerReference', 'error'], {fields: {ownerReference: OWNER_REFERENCE}}),
  delete: shape(['type', 'pod', 'uid', 'resourceVersion', 'decidedBy', 'reasons', 'tie', 'facts'], {
    fields: {facts: FACTS},
    computed: {reasons: (a: Action, ctx: WireContext) => deleteReasons(a as never, ctx.cp!, ctx.now)},
  }),
  adopt: shape(['type', 'pod', 'uid', 'resourceVersion', 'finalizer']),
  updateStatus: shape(['type', 'write', 'from', 'to', 'revision', 'conflict'], {fields: {from: STATUS, to: STATUS}}),
  createReplicaSet: shape(['type', 'name', 'podTemplateHash', 'replicas', 'outcome', 'labels', 'selector', 'annotations', 'minReadySeconds', 'ownerReference', 'event', 'conflict'], {
    fields: {ownerReference: OWNER_REFERENCE},
  }),
  scaleReplicaSet: shape([...REPLICA_SET_REF, 'from', 'to', 'rule', 'annotations', 'event', 'conflict']),
  deleteReplicaSet: shape([...REPLICA_SET_REF, 'revision', 'reason', 'conflict']),
  updateReplicaSet: shape([...REPLICA_SET_REF, 'annotations', 'minReadySeconds', 'conflict']),
  adoptReplicaSet: shape([...REPLICA_SET_REF, 'conflict']),
  rollback: shape(['type', 'toRevision', 'outcome', 'event', 'conflict']),
}
ACTIONS.release = ACTIONS.adopt
ACTIONS.releaseReplicaSet = ACTIONS.adoptReplicaSet
// StatefulSet and DaemonSet writes (and every other): the type first, then the fields sorted.
const OTHER_ACTION = shape(['type'])

/** An action: a controller's creates are one value listed once per pod, copied once. */
const ACTION: Field = described({pick: (a: Action) => (Object.hasOwn(ACTIONS, a.type) ? ACTIONS[a.type] : OTHER_ACTION), shareRepeats: true})

export function actionToWire(a: Action, cp: ControllerPlan, now: string): Json {
  return toWire(a, ACTION, {cp, now})
}

type DaemonNode = NonNullable<ControllerPlan['nodes']>[number]

/** The fields a DaemonSet's node entry may have. */
const isDaemonNodeKey = (k: string): boolean => k === 'node' || k === 'pods' || k === 'shouldRun' || k === 'shouldContinueRunning' || k === 'excludedBy' || k === 'taint'

/** A DaemonSet's node entry: from its fixed bytes when it has the usual fields, else as JsonWriter.sorted writes any plain data (the same bytes). */
function writeDaemonNode(w: JsonWriter, n: DaemonNode, depth: number): void {
  if (!writeDaemonNodeBytes(w, n, depth)) w.sorted(n, depth)
}

/** The fixed bytes around a node entry's values at one depth. */
interface DaemonNodeBytes {
  /** Up to the node's name, or to the reason it is excluded. */
  head: Uint8Array
  excludedHead: Uint8Array
  /** After the reason, up to the node's name. */
  node: Uint8Array
  /** After the node's name, up to the first pod's. */
  podsOpen: Uint8Array
  /** Between two pods' names. */
  podNext: Uint8Array
  /** After the last pod's name (or the node's), to the end: by [pods, shouldContinueRunning, shouldRun] as bits. */
  tails: Uint8Array[]
}

const daemonNodeBytes: DaemonNodeBytes[] = []

function daemonNodeBytesAt(depth: number): DaemonNodeBytes {
  const made = daemonNodeBytes[depth]
  if (made) return made
  const at = (d: number) => `\n${' '.repeat(2 * d)}`
  const key = (k: string) => `${at(depth + 1)}"${k}": `
  const bytes = (s: string) => Buffer.from(s, 'latin1')
  const tails: Uint8Array[] = []
  for (let bits = 0; bits < 8; bits++) {
    const pods = bits & 4 ? `${at(depth + 1)}]` : `,${key('pods')}[]`
    tails.push(bytes(`${pods},${key('shouldContinueRunning')}${Boolean(bits & 2)},${key('shouldRun')}${Boolean(bits & 1)}${at(depth)}}`))
  }
  return (daemonNodeBytes[depth] = {
    head: bytes(`{${key('node')}`),
    excludedHead: bytes(`{${key('excludedBy')}`),
    node: bytes(`,${key('node')}`),
    podsOpen: bytes(`,${key('pods')}[${at(depth + 2)}`),
    podNext: bytes(`,${at(depth + 2)}`),
    tails,
  })
}

/** A node entry of the usual fields and types (no taint), from its fixed bytes and its strings; false (nothing written) for any other. */
function writeDaemonNodeBytes(w: JsonWriter, n: DaemonNode, depth: number): boolean {
  for (const key in n) if (!isDaemonNodeKey(key)) return false
  const {excludedBy, node, pods, shouldContinueRunning: keeps, shouldRun: runs} = n
  if (n.taint !== undefined || typeof node !== 'string' || !Array.isArray(pods) || typeof keeps !== 'boolean' || typeof runs !== 'boolean') return false
  if (excludedBy !== undefined && typeof excludedBy !== 'string') return false
  const count = pods.length
  for (let i = 0; i < count; i++) if (typeof pods[i] !== 'string') return false
  const b = daemonNodeBytesAt(depth)
  if (excludedBy === undefined) w.raw(b.head)
  else {
    w.raw(b.excludedHead)
    w.string(excludedBy)
    w.raw(b.node)
  }
  w.string(node)
  if (count > 0) {
    w.raw(b.podsOpen)
    w.string(pods[0])
    for (let i = 1; i < count; i++) {
      w.raw(b.podNext)
      w.string(pods[i])
    }
  }
  w.raw(b.tails[(count > 0 ? 4 : 0) | (keeps ? 2 : 0) | (runs ? 1 : 0)])
  return true
}

const DAEMON_NODE: Written = described({write: writeDaemonNode as Written['write']})

const CONTROLLER: Shape = shape(
  ['kind', 'apiVersion', 'namespace', 'name', 'uid', 'resourceVersion', 'desired', 'active', 'diff', 'pending', 'inSync', 'status', 'warnings', 'actions', 'newReplicaSet', 'rolloutStep', 'syncPath', 'endedBy', 'replicaSets', 'events', 'then', 'updateRevision', 'blockedBy', 'nodes', 'scheduledTime', 'requeue', 'ttl', 'assumes', 'jobs', 'service'],
  {
    context: (c: ControllerPlan, ctx: WireContext) => ({cp: c, now: ctx.now}),
    fields: {
      status: STATUS,
      actions: ACTION,
      newReplicaSet: shape(['name', 'podTemplateHash', 'created']),
      replicaSets: shape(['name', 'uid', 'revision', 'from', 'replicas', 'available', 'isNew', 'created']),
      // (Filled in below: a following step is a controller plan itself.)
      ties: shape(['id', 'delete', 'pods']),
      nodes: DAEMON_NODE,
    },
  },
)
;(CONTROLLER.fields as Record<string, Field>).then = CONTROLLER

export function controllerToWire(c: ControllerPlan, now: string): Json {
  return toWire(c, CONTROLLER, {now})
}

const SOURCE = shape(['type', 'paths', 'context', 'server'])

export const source = (s: PlanSource): Json => toWire(s, SOURCE, {now: ''})

const PLAN: Shape = shape(['apiVersion', 'kind', 'now', 'source', 'controllers', 'summary', 'ignored', 'ignoredByFilter', 'errors', 'options'], {
  fields: {
    source: SOURCE,
    controllers: CONTROLLER,
    summary: shape(['controllers', 'inSync', 'create', 'delete', 'adopt', 'release', 'updateStatus', 'pending', 'createReplicaSet', 'scaleReplicaSet', 'deleteReplicaSet', 'adoptReplicaSet', 'releaseReplicaSet', 'updateReplicaSet', 'rollback', 'updatePod', 'createClaim', 'updateClaim', 'chooseDaemonPods', 'createControllerRevision', 'updateControllerRevision', 'deleteControllerRevision', 'adoptControllerRevision', 'releaseControllerRevision', 'createJob', 'deleteJob', 'removeFinalizer', 'createEndpointSlice', 'updateEndpointSlice', 'deleteEndpointSlice', 'writeEndpoints', 'deleteEndpoints', 'addLoadBalancerFinalizer', 'removeLoadBalancerFinalizer', 'ensureLoadBalancer', 'updateLoadBalancerHosts', 'ensureLoadBalancerDeleted', 'writeLoadBalancerStatus']),
    options: shape(['now', 'featureGates', 'burstReplicas']),
    errors: shape(['file', 'line', 'column', 'message']),
  },
})

/** `kctl plan -o yaml` (and tests): the ReconcilePlan document's wire form. */
export function planToWire(plan: ReconcilePlan): Json {
  return toWire(plan, PLAN, {now: plan.now})
}

/**
 * `kctl plan -o json`: the ReconcilePlan document as UTF-8, the bytes of
 * renderDocument(planToWire(plan), 'json'), written straight from the plan into `sink`.
 */
export function writePlanJson(plan: ReconcilePlan, sink: ByteSink, chunk?: number): void {
  const w = new JsonWriter(sink, chunk)
  writeShaped(w, plan, PLAN, {now: plan.now}, 0)
  w.byte(10)
  w.end()
}

export const CONTROLLER_LIST_KIND = 'ControllerList'

/** One row of `kctl list`: the controller and the counts a reader scans for. */
export interface ControllerListItem {
  kind: string
  apiVersion: string
  namespace: string
  name: string
  uid: string
  desired: number
  active: number
  ready: number
  available: number
  diff: number
  pending: number
  inSync: boolean
  /** The apply set it was read in, when the input held several. */
  applySet?: string
  /** Deployments: replicas of the new ReplicaSet, and the rollout's state in words. */
  updated?: number
  rolloutStep?: string
  /** Services: the type, the pods the selector picks, slices after the sync, and the load balancer's state in a word or two. */
  serviceType?: string
  selectedPods?: number
  /** Endpoints, and ready ones, once the sync is done (the same counts as desired and ready). */
  endpoints?: number
  readyEndpoints?: number
  slices?: number
  loadBalancer?: string
  /** The nodes EnsureLoadBalancer is given, when the controller ensures one. */
  loadBalancerHosts?: number
}
