// The versioned wire form (`kctl/v1alpha1`, docs/output.md) of the values kctl prints as
// JSON or YAML, built in this one place. Keys come out in a fixed order: the contract's fields
// first, then any field the model gained later (sorted), so adding a field never reorders old
// ones and the same plan always serializes to the same bytes. Maps of labels, annotations and
// gates are sorted, as Go's encoding/json sorts map keys.
import type {DeploymentCondition, DeploymentStatusView, OwnerReference, PlanSource, WorkloadCondition} from '../model/objects.js'
import type {Action, ControllerPlan, RankFacts, ReconcilePlan, StatusView} from '../model/plan.js'
import {PLAN_API_VERSION, readyAndAvailable} from '../model/plan.js'
import {LazyList} from './document.js'
import {deleteReasons} from './reasons.js'

export type Json = null | boolean | number | string | Json[] | {[key: string]: Json}
type JsonObject = {[key: string]: Json}

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

/**
 * Whether plain data whose keys are in order already may be given as it is rather than copied:
 * only while a JSON document is written (JSON.stringify gives the same bytes either way), never
 * for YAML, where a value met twice would be written as an alias.
 */
let shareOrdered = false

/** `convert(item)` with plain data that is in order already shared, not copied (for JSON only). */
export function sharingOrdered<T>(convert: () => T): T {
  const before = shareOrdered
  shareOrdered = true
  try {
    return convert()
  } finally {
    shareOrdered = before
  }
}

/** A deep copy of plain data with object keys sorted (for maps and anything not listed above). */
function plain(v: unknown): Json {
  if (v === null || typeof v !== 'object') return v as Json
  if (shareOrdered) return orderedOrCopy(v)
  if (Array.isArray(v)) return v.map((x) => plain(x))
  const out: JsonObject = {}
  for (const key of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[key]
    if (x !== undefined) out[key] = plain(x)
  }
  return out
}

/**
 * `v` itself when every object in it has its keys in sorted order already (JSON.stringify then
 * writes what it would write of plain(v): keys whose value is undefined are left out either way),
 * else a copy in which only what is out of order was rebuilt.
 */
function orderedOrCopy(v: object): Json {
  if (Array.isArray(v)) {
    let out: Json[] | undefined
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as unknown
      const y = x !== null && typeof x === 'object' ? orderedOrCopy(x) : (x as Json)
      if (y !== x && !out) out = v.slice(0, i) as Json[]
      if (out) out.push(y)
    }
    return out ?? (v as Json)
  }
  const source = v as Record<string, unknown>
  // One walk with for-in (no list of keys built): most objects are in order and unchanged, and
  // are given as they are. (An object with toJSON would be written as what it returns, its copy
  // as its fields.) for-in also visits inherited enumerable fields, after the own ones: they can
  // only send an object to the copy below, which reads its own fields alone.
  let sorted = typeof source.toJSON !== 'function'
  let previous: string | undefined
  /** The fields whose values had to be rebuilt, and their copies. */
  let rebuilt: Map<string, unknown> | undefined
  for (const key in source) {
    if (previous !== undefined && previous > key) sorted = false
    previous = key
    const x = source[key]
    if (x !== null && typeof x === 'object') {
      const y = orderedOrCopy(x)
      if (y !== x) (rebuilt ??= new Map()).set(key, y)
    }
  }
  if (sorted && !rebuilt) return v as Json
  const out: JsonObject = {}
  // (The default sort compares code units, as `<` does; keys are distinct.)
  for (const key of Object.keys(source).sort()) {
    const y = rebuilt?.has(key) ? rebuilt.get(key) : source[key]
    if (y !== undefined) out[key] = y as Json
  }
  return out
}

const ownerReference = (ref: OwnerReference): Json =>
  ordered(ref, ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'])

const condition = (c: WorkloadCondition): Json => ordered(c, ['type', 'status', 'reason', 'message', 'lastTransitionTime'])

const deploymentCondition = (c: DeploymentCondition): Json => ordered(c, ['type', 'status', 'reason', 'message', 'lastUpdateTime', 'lastTransitionTime'])

/** A ReplicaSet's, Deployment's, StatefulSet's or DaemonSet's status, in the API's field order. */
export const status = (s: ControllerPlan['status']): Json =>
  'readyEndpoints' in s
    ? ordered(s, ['loadBalancer', 'readyEndpoints'])
    : 'succeeded' in s
    ? ordered(s, ['conditions', 'startTime', 'completionTime', 'active', 'succeeded', 'failed', 'terminating', 'completedIndexes', 'failedIndexes', 'uncountedTerminatedPods', 'ready'], {
        conditions: (cs: object[]) => cs.map((c) => ordered(c, ['type', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'])),
        uncountedTerminatedPods: (u: object) => ordered(u, ['succeeded', 'failed']),
      })
    : Array.isArray((s as {active?: unknown}).active)
    ? ordered(s, ['active', 'lastScheduleTime', 'lastSuccessfulTime'], {active: (rs: object[]) => rs.map((r) => ordered(r, ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion']))})
    : 'currentRevision' in s
    ? ordered(s, ['observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'availableReplicas'])
    : 'numberReady' in s
      ? ordered(s, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'])
      : 'updatedReplicas' in s
    ? ordered(
        s,
        ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount', 'conditions'],
        {conditions: (cs: DeploymentCondition[]) => cs.map((c) => deploymentCondition(c))},
      )
    : ordered(
        s,
        ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration', 'conditions'],
        {conditions: (cs: WorkloadCondition[]) => cs.map((c) => condition(c))},
      )

const REPLICA_SET_REF = ['type', 'replicaSet', 'uid', 'resourceVersion']

const facts = (f: RankFacts): Json =>
  ordered(f, [
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

export function actionToWire(a: Action, cp: ControllerPlan, now: string): Json {
  switch (a.type) {
    case 'create':
      return ordered(a, ['type', 'generateName', 'nameBase', 'labels', 'annotations', 'finalizers', 'ownerReference', 'error'], {
        ownerReference,
      })
    case 'delete':
      return ordered({...a, reasons: deleteReasons(a, cp, now)}, ['type', 'pod', 'uid', 'resourceVersion', 'decidedBy', 'reasons', 'tie', 'facts'], {facts})
    case 'adopt':
    case 'release':
      return ordered(a, ['type', 'pod', 'uid', 'resourceVersion', 'finalizer'])
    case 'updateStatus':
      return ordered(a, ['type', 'write', 'from', 'to', 'revision', 'conflict'], {from: status, to: status})
    case 'createReplicaSet':
      return ordered(a, ['type', 'name', 'podTemplateHash', 'replicas', 'outcome', 'labels', 'selector', 'annotations', 'minReadySeconds', 'ownerReference', 'event', 'conflict'], {ownerReference})
    case 'scaleReplicaSet':
      return ordered(a, [...REPLICA_SET_REF, 'from', 'to', 'rule', 'annotations', 'event', 'conflict'])
    case 'deleteReplicaSet':
      return ordered(a, [...REPLICA_SET_REF, 'revision', 'reason', 'conflict'])
    case 'updateReplicaSet':
      return ordered(a, [...REPLICA_SET_REF, 'annotations', 'minReadySeconds', 'conflict'])
    case 'adoptReplicaSet':
    case 'releaseReplicaSet':
      return ordered(a, [...REPLICA_SET_REF, 'conflict'])
    case 'rollback':
      return ordered(a, ['type', 'toRevision', 'outcome', 'event', 'conflict'])
    default:
      // StatefulSet and DaemonSet writes: the type first, then the fields sorted.
      return ordered(a, ['type'])
  }
}

export function controllerToWire(c: ControllerPlan, now: string): Json {
  return ordered(
    c,
    ['kind', 'apiVersion', 'namespace', 'name', 'uid', 'resourceVersion', 'desired', 'active', 'diff', 'pending', 'inSync', 'status', 'warnings', 'actions', 'newReplicaSet', 'rolloutStep', 'syncPath', 'endedBy', 'replicaSets', 'events', 'then', 'updateRevision', 'blockedBy', 'nodes', 'scheduledTime', 'requeue', 'ttl', 'assumes', 'jobs', 'service'],
    {
      status,
      actions: (as: Action[]) => {
        // A controller's creates are one value listed once per pod: converted once.
        let previous: Action | undefined
        let wire: Json = null
        return as.map((a) => {
          if (a !== previous) wire = actionToWire(a, c, now)
          previous = a
          return wire
        })
      },
      newReplicaSet: (n: object) => ordered(n, ['name', 'podTemplateHash', 'created']),
      replicaSets: (rs: object[]) => rs.map((r) => ordered(r, ['name', 'uid', 'revision', 'from', 'replicas', 'available', 'isNew', 'created'])),
      then: (cs: ControllerPlan[]) => cs.map((x) => controllerToWire(x, now)),
      ties: (ts: object[]) => ts.map((t) => ordered(t, ['id', 'delete', 'pods'])),
    },
  )
}

export const source = (s: PlanSource): Json => ordered(s, ['type', 'paths', 'context', 'server'])

/**
 * `kctl plan -o json|yaml`: the ReconcilePlan document. `lazy`: its controllers as a LazyList,
 * each converted only as it is written (renderDocumentChunks), for JSON.
 */
export function planToWire(plan: ReconcilePlan, {lazy = false} = {}): Json {
  return ordered(plan, ['apiVersion', 'kind', 'now', 'source', 'controllers', 'summary', 'ignored', 'ignoredByFilter', 'errors', 'options'], {
    source,
    controllers: (cs: ControllerPlan[]) => {
      if (!lazy) return cs.map((c) => controllerToWire(c, plan.now))
      // Not Json itself: it stringifies as the same list (toJSON).
      return new LazyList(cs, (c) => sharingOrdered(() => controllerToWire(c, plan.now))) as unknown as Json
    },
    summary: (s: object) =>
      ordered(s, ['controllers', 'inSync', 'create', 'delete', 'adopt', 'release', 'updateStatus', 'pending', 'createReplicaSet', 'scaleReplicaSet', 'deleteReplicaSet', 'adoptReplicaSet', 'releaseReplicaSet', 'updateReplicaSet', 'rollback', 'updatePod', 'createClaim', 'updateClaim', 'chooseDaemonPods', 'createControllerRevision', 'updateControllerRevision', 'deleteControllerRevision', 'adoptControllerRevision', 'releaseControllerRevision', 'createJob', 'deleteJob', 'removeFinalizer', 'createEndpointSlice', 'updateEndpointSlice', 'deleteEndpointSlice', 'writeEndpoints', 'deleteEndpoints', 'addLoadBalancerFinalizer', 'removeLoadBalancerFinalizer', 'ensureLoadBalancer', 'updateLoadBalancerHosts', 'ensureLoadBalancerDeleted', 'writeLoadBalancerStatus']),
    options: (o: object) => ordered(o, ['now', 'featureGates', 'burstReplicas']),
    errors: (es: object[]) => es.map((e) => ordered(e, ['file', 'line', 'column', 'message'])),
  })
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
