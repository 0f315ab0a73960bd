// One plan of a snapshot: the state every controller's sync reads (the World: an index over the
// pods, ReplicaSets grouped by owner, the clock and gates), each registered controller's plan of
// its objects in it, and the plan's summary. Pure: the clock and gates come in as options. The
// ReplicaSet controller's own sync is in src/controllers/replicaset/sync.ts.
import type {PodView, Snapshot, Workload} from '../model/objects.js'
import {type Action, type ControllerPlan, PLAN_API_VERSION, podChange, type PlannerOptions, type PlanSummary, type ReconcilePlan} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {PodIndex} from './pod-index.js'
import {controllerOf, type ControllerIdentity} from './pods.js'
import type {CompiledSelector} from './selector.js'
import {byKindNamespaceName} from './order.js'
import {parseRfc3339} from './time.js'

export {byKindNamespaceName} from './order.js'

// Watch mode's incremental planner (incremental.ts) plans ReplicaSets one at a time with these.

/** `only`: the controllers (registry names) to plan; all of them when absent. */
export function planSnapshot(snapshot: Snapshot, options: PlannerOptions, only?: readonly string[]): ReconcilePlan {
  // Build the state (an index over the snapshot's pods, ReplicaSets grouped by owner), then plan
  // every controller in it. Watch mode keeps the same state up to date instead and plans only the
  // controllers an event touched (incremental.ts), through the same ReplicaSet sync.
  // Every controller the snapshot holds: those planned, and every ReplicaSet (some outside -l).
  const byUid = new Map([...snapshot.replicaSets, ...snapshot.workloads].map((w) => [w.uid, w]))
  const world = planningWorld(new PodIndex(snapshot.pods), groupByController(snapshot.replicaSets), options, (uid) => byUid.get(uid))
  const controllers = CONTROLLERS.filter((c) => !only || only.includes(c.name))
    .flatMap((c) => c.plan(snapshot, world))
    .sort(byKindNamespaceName)
  return {
    apiVersion: PLAN_API_VERSION,
    kind: 'ReconcilePlan',
    now: options.now,
    source: snapshot.source,
    controllers,
    summary: summarize(controllers),
    ignored: {...snapshot.ignored},
    options,
  }
}

/** The pod lookups planning needs (PodIndex: built once by planSnapshot, kept up to date in watch mode). */
export interface PodLookup {
  /** FilterPodsByOwner with orphans: the pods this controller's sync reads. */
  claimCandidates(controller: ControllerIdentity): readonly PodView[]
  /** Pods whose controller reference carries this uid (whatever kind and name it says). */
  referencing(uid: string): Iterable<PodView>
  /** Pods of the namespace that no controller owns (those a controller may adopt). */
  orphans(namespace: string): Iterable<PodView>
  /** Pods whose controller reference has this controller's uid under another kind or name. */
  misreferenced(controller: ControllerIdentity): PodView[]
  controlledByOthers(namespace: string, controllerUid: string, selector: CompiledSelector): PodView[]
  matching(namespace: string, selector: CompiledSelector): PodView[]
}

/** ReplicaSets by the UID of their controller owner (a Map serves). */
export interface SiblingLookup {
  get(ownerUid: string): readonly Workload[] | undefined
}

/** Everything one sync of one controller reads besides the controller itself. */
export interface World {
  index: PodLookup
  /** The controllers being planned, by uid (whose next sync may release a pod another one matches). */
  controllerByUid: (uid: string) => Workload | undefined
  /** ReplicaSets by the UID of their controller owner: the siblings of getReplicaSetsWithSameController. */
  siblingsByOwner: SiblingLookup
  options: PlannerOptions
  now: bigint
}

export function planningWorld(
  index: PodLookup,
  siblingsByOwner: SiblingLookup,
  options: PlannerOptions,
  controllerByUid: (uid: string) => Workload | undefined,
): World {
  const now = parseRfc3339(options.now)
  if (now === undefined) throw new RangeError(`options.now is not RFC 3339: ${options.now}`)
  return {index, controllerByUid, siblingsByOwner, options, now}
}

function groupByController(workloads: readonly Workload[]): Map<string, Workload[]> {
  const groups = new Map<string, Workload[]>()
  for (const w of workloads) {
    const ref = controllerOf(w)
    if (!ref) continue
    const group = groups.get(ref.uid)
    if (group) group.push(w)
    else groups.set(ref.uid, [w])
  }
  return groups
}

/** Action types counted under their own name (pod creates and deletes count as `create`, `delete`). */
type SummaryCounted = Exclude<Action['type'], 'createStatefulPod' | 'createDaemonPod' | 'deleteStatefulPod' | 'deleteDaemonPod' | 'createJobPod' | 'deleteJobPod'>

/** The counts of a plan's summary (docs/output.md). */
export function summarize(controllers: readonly ControllerPlan[]): PlanSummary {
  const summary: PlanSummary = {
    controllers: controllers.length,
    inSync: 0,
    create: 0,
    delete: 0,
    adopt: 0,
    release: 0,
    updateStatus: 0,
    pending: 0,
    createReplicaSet: 0,
    scaleReplicaSet: 0,
    deleteReplicaSet: 0,
    adoptReplicaSet: 0,
    releaseReplicaSet: 0,
    updateReplicaSet: 0,
    rollback: 0,
    updatePod: 0,
    createClaim: 0,
    updateClaim: 0,
    chooseDaemonPods: 0,
    createControllerRevision: 0,
    updateControllerRevision: 0,
    deleteControllerRevision: 0,
    adoptControllerRevision: 0,
    releaseControllerRevision: 0,
    removeFinalizer: 0,
    createJob: 0,
    deleteJob: 0,
    createEndpointSlice: 0,
    updateEndpointSlice: 0,
    deleteEndpointSlice: 0,
    writeEndpoints: 0,
    deleteEndpoints: 0,
    addLoadBalancerFinalizer: 0,
    removeLoadBalancerFinalizer: 0,
    ensureLoadBalancer: 0,
    updateLoadBalancerHosts: 0,
    ensureLoadBalancerDeleted: 0,
    writeLoadBalancerStatus: 0,
  }
  for (const c of controllers) {
    if (c.inSync) summary.inSync++
    summary.pending += c.pending
    for (const a of c.actions) {
      if ('conflict' in a && a.conflict) continue
      const key = podChange(a) ?? (a.type as SummaryCounted)
      summary[key] = (summary[key] ?? 0) + 1
    }
  }
  return summary
}

