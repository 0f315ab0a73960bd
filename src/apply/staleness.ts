// Is a plan still about the world it will be applied to? A plan is applied verbatim or not at all
// (no silent re-planning): it is stale when a controller or pod it names is gone, was re-created
// (another uid) or changed (another resourceVersion), or when a controller now counts another
// number of active pods than the plan did (someone created or deleted pods meanwhile, which
// changes how many this sync should create or delete). For a Deployment: the Deployment itself,
// every ReplicaSet its writes name (uid, resourceVersion), and the name of a ReplicaSet it creates
// (taken meanwhile). For a Job: the pods it deletes or un-finalizes; for a CronJob: the Jobs it
// deletes (by uid) and the name of the Job it creates (taken meanwhile). For an Endpoints object no
// Service owns (E12.1): that the Service is still absent, and the object's uid and resourceVersion.
// For an HPA: the HPA itself, and its scale target (uid, resourceVersion).
import type {PodView, Snapshot, Workload} from '../model/objects.js'
import type {Action, ControllerPlan, ReconcilePlan} from '../model/plan.js'
import {deepEqual} from '../reconcile/deep-equal.js'
import {CONTROLLERS} from '../controllers/registry.js'

/**
 * What changed, one line each (empty: the plan is fresh). `fresh` is a plan of `world` by the same
 * planner (only its `active` counts are compared; time-dependent fields are not).
 */
export function staleness(plan: ReconcilePlan, world: Snapshot, fresh: ReconcilePlan): string[] {
  const workloads = new Map<string, {uid: string; resourceVersion: string}>(
    [...world.workloads, ...(world.deployments ?? []), ...(world.statefulSets ?? []), ...(world.daemonSets ?? []), ...(world.jobs ?? []), ...(world.cronJobs ?? []), ...(world.services ?? []), ...(world.hpas ?? [])].map((w) => [`${w.kind}/${w.namespace}/${w.name}`, w]),
  )
  const others = new Map<string, {uid: string; resourceVersion: string}>([
    ...(world.controllerRevisions ?? []).map((r) => [`ControllerRevision/${r.namespace}/${r.name}`, r] as const),
    ...(world.claims ?? []).map((c) => [`PersistentVolumeClaim/${c.namespace}/${c.name}`, c] as const),
    ...(world.endpointSlices ?? []).map((e) => [`EndpointSlice/${e.namespace}/${e.name}`, e] as const),
    ...(world.endpoints ?? []).map((e) => [`Endpoints/${e.namespace}/${e.name}`, e] as const),
    ...(world.jobs ?? []).map((j) => [`Job/${j.namespace}/${j.name}`, j] as const),
    // An HPA's scale target, whatever its kind (a ReplicaSet a label filter leaves out included).
    ...world.replicaSets.map((r) => [`ReplicaSet/${r.namespace}/${r.name}`, r] as const),
    ...workloads,
  ])
  const replicaSets = new Map<string, Workload>(world.replicaSets.map((w) => [`${w.namespace}/${w.name}`, w]))
  const pods = new Map<string, PodView>(world.pods.map((p) => [`${p.namespace}/${p.name}`, p]))
  const freshPlans = new Map<string, ControllerPlan>(fresh.controllers.map((c) => [`${c.kind}/${c.namespace}/${c.name}`, c]))
  const mustMatch = new Set<string>(CONTROLLERS.filter((c) => c.apply?.replannedWritesMustMatch).flatMap((c) => c.kinds))
  const out: string[] = []
  for (const cp of plan.controllers) {
    if (cp.actions.length === 0 && cp.pending === 0) continue
    const key = `${cp.kind}/${cp.namespace}/${cp.name}`
    const label = `${cp.kind} ${cp.namespace}/${cp.name}`
    const w = workloads.get(key)
    const before = out.length
    if (cp.service?.absent) {
      if (w) out.push(`${label} exists now`)
    } else if (!w) out.push(`${label} no longer exists`)
    else if (w.uid !== cp.uid) out.push(`${label} was deleted and re-created (uid ${cp.uid} → ${w.uid})`)
    else if (w.resourceVersion !== cp.resourceVersion) out.push(`${label} changed (resourceVersion ${cp.resourceVersion} → ${w.resourceVersion})`)
    for (const a of cp.actions) {
      if ('conflict' in a && a.conflict) continue
      if (a.type === 'createReplicaSet') {
        if (a.outcome === 'created' && a.name !== null && replicaSets.has(`${cp.namespace}/${a.name}`)) out.push(`ReplicaSet ${cp.namespace}/${a.name} (to create) exists now`)
        continue
      }
      if ('replicaSet' in a) {
        const rs = replicaSets.get(`${cp.namespace}/${a.replicaSet}`)
        const what = `ReplicaSet ${cp.namespace}/${a.replicaSet} (to ${WORDS[a.type]})`
        if (!rs) out.push(`${what} no longer exists`)
        else if (rs.uid !== a.uid) out.push(`${what} was deleted and re-created (uid ${a.uid} → ${rs.uid})`)
        else if (rs.resourceVersion !== a.resourceVersion) out.push(`${what} changed (resourceVersion ${a.resourceVersion} → ${rs.resourceVersion})`)
        continue
      }
      for (const t of workloadTargets(a, cp.namespace)) {
        const now = t.kind === 'pod' ? pods.get(`${cp.namespace}/${t.name}`) : others.get(`${t.kind}/${cp.namespace}/${t.name}`)
        const what = `${t.kind} ${cp.namespace}/${t.name} (to ${t.verb})`
        if (!t.uid) {
          if (now) out.push(`${what} exists now`)
        } else if (!now) out.push(`${what} no longer exists`)
        else if (now.uid !== t.uid) out.push(`${what} was deleted and re-created (uid ${t.uid} → ${now.uid})`)
        else if (t.resourceVersion !== undefined && now.resourceVersion !== t.resourceVersion) out.push(`${what} changed (resourceVersion ${t.resourceVersion} → ${now.resourceVersion})`)
      }
    }
    if (out.length > before) continue
    const now = freshPlans.get(key)
    // A Service's writes follow its pods and nodes, which carry no precondition: planned again, they
    // must be the same (its part's replannedWritesMustMatch).
    if (now && mustMatch.has(cp.kind) && !deepEqual(now.actions, cp.actions)) out.push(`${label}: its pods, nodes or load balancer changed, so its writes are not the ones planned`)
    else if (now && now.active !== cp.active) out.push(`${label} now has ${now.active} active pods; the plan counted ${cp.active}`)
  }
  // One line per object, though several writes name it.
  return [...new Set(out)]
}

const WORDS = {adoptReplicaSet: 'adopt', releaseReplicaSet: 'release', scaleReplicaSet: 'scale', updateReplicaSet: 'update', deleteReplicaSet: 'delete'} as const

/** The objects a pod write, or a StatefulSet's or DaemonSet's write, names: by uid and version, or (creates by name) none. */
function workloadTargets(a: Action, namespace: string): Array<{kind: string; name: string; verb: string; uid?: string; resourceVersion?: string}> {
  switch (a.type) {
    case 'delete':
    case 'adopt':
    case 'release':
    case 'deleteStatefulPod':
    case 'deleteDaemonPod':
    case 'updatePod':
      return [{kind: 'pod', name: a.pod, verb: a.type === 'adopt' || a.type === 'release' ? a.type : a.type === 'updatePod' ? 'update' : 'delete', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'createStatefulPod':
      return [{kind: 'pod', name: a.pod, verb: 'create'}]
    case 'createClaim':
      return [{kind: 'PersistentVolumeClaim', name: a.claim, verb: 'create'}]
    case 'updateClaim':
      return [{kind: 'PersistentVolumeClaim', name: a.claim, verb: 'update', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'createControllerRevision':
      return a.name === null ? [] : [{kind: 'ControllerRevision', name: a.name, verb: 'create'}]
    case 'updateControllerRevision':
    case 'deleteControllerRevision':
    case 'adoptControllerRevision':
    case 'releaseControllerRevision':
      return [{kind: 'ControllerRevision', name: a.name, verb: a.type.replace('ControllerRevision', ''), uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'deleteJobPod':
    case 'removeFinalizer':
      return [{kind: 'pod', name: a.pod, verb: a.type === 'deleteJobPod' ? 'delete' : 'remove the finalizer of', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'createJob':
      return [{kind: 'Job', name: a.name, verb: 'create'}]
    case 'deleteJob':
      // By uid alone: a Job's status moves on while its pods run.
      return [{kind: 'Job', name: a.name, verb: 'delete', uid: a.uid}]
    case 'chooseDaemonPods':
      return (a.choices ?? []).flatMap((c) => workloadTargets(c, namespace))
    case 'updateEndpointSlice':
    case 'deleteEndpointSlice':
      return [{kind: 'EndpointSlice', name: a.name, verb: a.type === 'updateEndpointSlice' ? 'update' : 'delete', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'scaleTarget':
      // The HPA's scale write names its target by uid and resourceVersion.
      return [{kind: a.target.kind, name: a.target.name, verb: 'scale', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'deleteEndpoints':
      return [{kind: 'Endpoints', name: a.name, verb: 'delete', uid: a.uid, resourceVersion: a.resourceVersion}]
    case 'writeEndpoints':
      return a.verb === 'create' ? [{kind: 'Endpoints', name: a.name, verb: 'create'}] : []
    default:
      return []
  }
}
