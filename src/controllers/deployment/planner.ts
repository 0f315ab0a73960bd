// The Deployment controller's plans for a snapshot: one sync per Deployment (sync.ts), then, as
// the following step, the ReplicaSet controller's next sync of every ReplicaSet it creates or
// resizes — the same ReplicaSet planner, run on the world this sync leaves.
import type {DeploymentView, Labels, PodView, Workload} from '../../model/objects.js'
import type {ControllerPlan, DeploymentAction, ReplicaSetStep} from '../../model/plan.js'
import {deepEqual} from '../../reconcile/deep-equal.js'
import {controllerOf, isControlledBy} from '../../reconcile/pods.js'
import type {SiblingLookup, World} from '../../reconcile/planner.js'
import {formatRfc3339, wholeSeconds} from '../../reconcile/time.js'
import {imagesDiffer, templateKey} from '../../reconcile/revisions.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import {podTemplateHash, podTemplateHasher, UnhashableTemplate} from '../../reconcile/hash/index.js'
import {syncDeployment, type DeploymentSync, type DeploymentWorld} from './sync.js'
import {POD_TEMPLATE_HASH} from './util.js'

/** Plans the next sync of every Deployment; `planReplicaSet` plans one ReplicaSet in a given world (the following step). */
export function planDeployments(
  deployments: readonly DeploymentView[],
  replicaSets: readonly Workload[],
  world: World,
  planReplicaSet: (rs: Workload, world: World) => ControllerPlan,
): ControllerPlan[] {
  const inNamespaces = byNamespace(replicaSets)
  const claims = new ClaimCandidates(replicaSets)
  return deployments.map((d) => {
    const inNamespace = inNamespaces.get(d.namespace) ?? []
    const candidates = claims.of(d)
    const sync = syncDeployment(d, deploymentWorld(d, inNamespace, candidates, world))
    const plan = controllerPlan(d, sync)
    const then = followingStep(d, sync, candidates, world, planReplicaSet)
    const next = afterCollision(d, sync, inNamespace, candidates, world, planReplicaSet)
    if (next) then.unshift(next)
    if (then.length > 0) plan.then = then
    return plan
  })
}

/**
 * After a hash collision whose status write is stored, the Deployment's own next sync: the error
 * requeues it (getNewReplicaSet returns it) and the status update enqueues it again; that sync
 * hashes with the new collisionCount and creates the ReplicaSet under the new name. It runs on
 * the world this sync leaves (the Deployment's new status, its adoptions and releases), followed
 * by the ReplicaSet controller's syncs of what it creates or resizes.
 */
function afterCollision(
  d: DeploymentView,
  sync: DeploymentSync,
  inNamespace: readonly Workload[],
  candidates: readonly Workload[],
  world: World,
  planReplicaSet: (rs: Workload, world: World) => ControllerPlan,
): ControllerPlan | undefined {
  const at = sync.actions.findIndex((a) => a.type === 'createReplicaSet' && a.outcome === 'collision' && !a.conflict)
  if (at < 0) return undefined
  const written = sync.actions.slice(at + 1).find((a) => a.type === 'updateStatus')
  if (!written || written.conflict) return undefined
  const after = new Map(inNamespace.map((rs) => [rs.uid, rs]))
  for (const a of sync.actions) {
    const changed = a.conflict ? undefined : applied(a, d, after, world)
    if (changed) after.set(changed.uid, changed)
  }
  const now = (rs: Workload) => after.get(rs.uid) ?? rs
  const next: DeploymentView = {...d, status: sync.status}
  const nextCandidates = candidates.map(now).filter((rs) => controllerOf(rs) === undefined || controllerOf(rs)!.uid === d.uid)
  const nextSync = syncDeployment(next, deploymentWorld(next, inNamespace.map(now), nextCandidates, world))
  const plan = controllerPlan(next, nextSync)
  const then = followingStep(next, nextSync, nextCandidates, world, planReplicaSet)
  if (then.length > 0) plan.then = then
  return plan
}

/**
 * The ReplicaSets a Deployment's claim reads, in the snapshot's order: those whose controller
 * reference has its uid and the orphans of its namespace. Grouped once for all Deployments; a
 * ReplicaSet another controller holds is never one of them.
 */
class ClaimCandidates {
  private readonly byOwner = new Map<string, Workload[]>()
  private readonly orphans = new Map<string, Workload[]>()
  private readonly position = new Map<Workload, number>()

  constructor(replicaSets: readonly Workload[]) {
    replicaSets.forEach((rs, i) => {
      this.position.set(rs, i)
      const ref = controllerOf(rs)
      const [map, key] = ref ? [this.byOwner, ref.uid] : [this.orphans, rs.namespace]
      const list = map.get(key)
      if (list) list.push(rs)
      else map.set(key, [rs])
    })
  }

  of(d: DeploymentView): readonly Workload[] {
    const owned = (this.byOwner.get(d.uid) ?? []).filter((rs) => rs.namespace === d.namespace)
    const orphans = this.orphans.get(d.namespace) ?? []
    if (orphans.length === 0) return owned
    if (owned.length === 0) return orphans
    return [...owned, ...orphans].sort((a, b) => this.position.get(a)! - this.position.get(b)!)
  }
}

function deploymentWorld(d: DeploymentView, replicaSets: readonly Workload[], claimCandidates: readonly Workload[], world: World): DeploymentWorld {
  // Checked only when a new ReplicaSet is to be named (most syncs name none).
  let stale: {unknown?: string} | undefined
  const templates = new TemplateComparison(d)
  return {
    replicaSets,
    claimCandidates,
    podsOf: (rs) => {
      const pods: PodView[] = []
      for (const p of world.index.referencing(rs.uid)) if (isControlledBy(p, rs)) pods.push(p)
      return pods
    },
    now: world.now,
    gates: world.options.featureGates,
    templateHash: (dep, collisionCount) => {
      stale ??= {unknown: d.serverDefaulted ? staleHashes(d, claimCandidates) : undefined}
      if (stale.unknown) return {unknown: stale.unknown}
      try {
        return {hash: podTemplateHash(dep.rawTemplate, collisionCount)}
      } catch (error) {
        if (error instanceof UnhashableTemplate) return {unknown: `its pod template cannot be hashed here (${error.message})`}
        throw error
      }
    },
    sameTemplate: (rs) => templates.same(rs),
  }
}

/**
 * One Deployment's pod template compared with its ReplicaSets' as the controller compares them
 * (EqualIgnoreHash): printed with the pod-template-hash label dropped, equal prints being equal
 * templates. Each print is made once per sync and kept only as long as the sync.
 */
class TemplateComparison {
  private deploymentPrint?: string
  private readonly results = new Map<Workload, boolean>()

  constructor(private readonly d: DeploymentView) {}

  same(rs: Workload): boolean {
    let same = this.results.get(rs)
    if (same === undefined) {
      same = this.compare(rs.rawTemplate ?? templateOf(rs))
      this.results.set(rs, same)
    }
    return same
  }

  private compare(template: unknown): boolean {
    const a = withoutHashLabel(this.d.rawTemplate)
    const b = withoutHashLabel(template)
    // A container's image is never defaulted: another image at the same place is another template.
    if (imagesDiffer(a, b)) return false
    // Equal values print alike: no print needed (a ReplicaSet the controller made from this template).
    if (deepEqual(a, b)) return true
    this.deploymentPrint ??= templateKey(a)
    return this.deploymentPrint === templateKey(b)
  }
}

/**
 * Live objects only: a ReplicaSet of this Deployment whose pod-template-hash label is not the
 * hash of its own template (for any collision count up to the Deployment's) means kctl hashes
 * differently from this cluster's controller. The name of a new ReplicaSet is then unknown.
 */
function staleHashes(d: DeploymentView, replicaSets: readonly Workload[]): string | undefined {
  for (const rs of replicaSets) {
    if (controllerOf(rs)?.uid !== d.uid) continue
    const label = rs.labels[POD_TEMPLATE_HASH]
    if (label === undefined) continue
    let hashes: string[]
    try {
      // The template is printed once for every collision count.
      const hash = podTemplateHasher(withoutHashLabel(rs.rawTemplate ?? templateOf(rs)))
      hashes = [hash(undefined)]
      for (let cc = 0; cc <= (d.status.collisionCount ?? 0); cc++) hashes.push(hash(cc))
    } catch (error) {
      if (error instanceof UnhashableTemplate) continue
      throw error
    }
    if (!hashes.includes(label)) {
      return `ReplicaSet ${rs.name}'s pod-template-hash ${label} is not what kctl computes for its template (${hashes[0]}): this cluster's controller hashes templates differently (another Kubernetes version?), so the name is not guessed`
    }
  }
  return undefined
}

function templateOf(rs: Workload): unknown {
  return {metadata: {labels: rs.template.labels, annotations: rs.template.annotations, finalizers: rs.template.finalizers}, spec: rs.template.spec}
}

function withoutHashLabel(template: unknown): unknown {
  if (typeof template !== 'object' || template === null) return template
  const t = template as {metadata?: {labels?: Labels}}
  if (!t.metadata?.labels || !(POD_TEMPLATE_HASH in t.metadata.labels)) return template
  const {[POD_TEMPLATE_HASH]: _, ...labels} = t.metadata.labels
  return {...t, metadata: {...t.metadata, labels}}
}


function controllerPlan(d: DeploymentView, sync: DeploymentSync): ControllerPlan {
  const replicaSets: ReplicaSetStep[] = sync.replicaSets.map((rs) => ({...rs}))
  const active = replicaSets.reduce((n, rs) => n + rs.replicas, 0)
  const warnings = [...sync.warnings]
  if (sync.endedBy) warnings.push(`this sync ends early: ${sync.endedBy}`)
  const plan: ControllerPlan = {
    kind: 'Deployment',
    apiVersion: d.apiVersion,
    namespace: d.namespace,
    name: d.name,
    uid: d.uid,
    resourceVersion: d.resourceVersion,
    desired: d.replicas,
    active: d.status.replicas,
    diff: d.status.replicas - d.replicas,
    actions: sync.actions,
    pending: 0,
    status: sync.status,
    warnings,
    inSync: sync.actions.length === 0,
    replicaSets,
    rolloutStep: rolloutStep(d, sync, active),
    syncPath: sync.path,
  }
  if (sync.newReplicaSet) plan.newReplicaSet = sync.newReplicaSet
  if (sync.endedBy) plan.endedBy = sync.endedBy
  if (sync.events.length > 0) plan.events = sync.events
  return plan
}

/** The rollout in a few words, after this sync. */
function rolloutStep(d: DeploymentView, sync: DeploymentSync, total: number): string {
  if (d.deletionTimestamp !== undefined) return 'being deleted'
  if (d.paused) return 'paused'
  const newRS = sync.replicaSets.find((rs) => rs.isNew)
  const updated = newRS?.replicas ?? 0
  const old = total - updated
  if (!newRS) return sync.newReplicaSet ? 'creating the new ReplicaSet' : 'no ReplicaSet matches the template'
  if (old === 0 && updated === d.replicas && newRS.available === d.replicas) return 'complete'
  if (old === 0 && updated === d.replicas) return `${newRS.available} of ${d.replicas} available`
  return `${d.strategy.type === 'Recreate' ? 'recreating' : 'rolling'}: ${updated} of ${d.replicas} updated, ${old} old`
}

/**
 * The following step: each ReplicaSet this sync creates or resizes, as it stands afterwards,
 * planned by the ReplicaSet controller. Writes that conflict never happen, so they change nothing.
 * `replicaSets`: the Deployment's claim candidates (the only ReplicaSets its writes touch).
 */
function followingStep(
  d: DeploymentView,
  sync: DeploymentSync,
  replicaSets: readonly Workload[],
  world: World,
  planReplicaSet: (rs: Workload, world: World) => ControllerPlan,
): ControllerPlan[] {
  const touched: Workload[] = []
  const after = new Map(replicaSets.map((rs) => [rs.uid, rs]))
  for (const a of sync.actions) {
    if (a.conflict) continue
    const changed = applied(a, d, after, world)
    if (changed) {
      after.set(changed.uid, changed)
      if (a.type === 'createReplicaSet' || a.type === 'scaleReplicaSet') touched.push(changed)
    }
    if (a.type === 'deleteReplicaSet') after.delete(a.uid)
  }
  if (touched.length === 0) return []
  const owned = [...after.values()].filter((rs) => controllerOf(rs)?.uid === d.uid)
  // This Deployment's ReplicaSets as the sync leaves them; every other owner's as they were.
  const siblings: SiblingLookup = {get: (uid) => (uid === d.uid ? owned : world.siblingsByOwner.get(uid))}
  const next: World = {...world, siblingsByOwner: siblings, controllerByUid: (uid) => after.get(uid) ?? world.controllerByUid(uid)}
  const latest = new Map(touched.map((rs) => [rs.uid, after.get(rs.uid) ?? rs]))
  return [...latest.values()].map((rs) => planReplicaSet(rs, next))
}

/** A ReplicaSet as the write `a` leaves it (a create makes one), or undefined for writes to others. */
function applied(a: DeploymentAction, d: DeploymentView, rss: ReadonlyMap<string, Workload>, world: World): Workload | undefined {
  switch (a.type) {
    case 'createReplicaSet': {
      if (a.outcome !== 'created' || a.name === null) return undefined
      const created = formatRfc3339(wholeSeconds(world.now))
      return {
        kind: 'ReplicaSet',
        apiVersion: 'apps/v1',
        namespace: d.namespace,
        name: a.name,
        uid: `(new ${a.name})`,
        resourceVersion: '',
        generation: 1,
        labels: a.labels,
        annotations: a.annotations,
        ownerReferences: [a.ownerReference],
        creationTimestamp: created,
        replicas: a.replicas,
        minReadySeconds: a.minReadySeconds,
        selector: a.selector,
        template: {...d.template, labels: a.labels},
        rawTemplate: d.rawTemplate,
        status: {replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0, conditions: []},
      }
    }
    case 'scaleReplicaSet': {
      const rs = rss.get(a.uid)
      return rs && {...rs, replicas: a.to, annotations: {...rs.annotations, ...a.annotations}}
    }
    case 'updateReplicaSet': {
      const rs = rss.get(a.uid)
      return rs && {...rs, annotations: a.annotations, minReadySeconds: a.minReadySeconds}
    }
    case 'adoptReplicaSet': {
      const rs = rss.get(a.uid)
      const ref = {apiVersion: 'apps/v1', kind: 'Deployment', name: d.name, uid: d.uid, controller: true, blockOwnerDeletion: true}
      return rs && {...rs, ownerReferences: [...rs.ownerReferences, ref]}
    }
    case 'releaseReplicaSet': {
      const rs = rss.get(a.uid)
      return rs && {...rs, ownerReferences: rs.ownerReferences.filter((r) => r.uid !== d.uid)}
    }
    default:
      return undefined
  }
}

