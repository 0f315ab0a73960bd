// The Deployment controller's plans for a snapshot: one sync per Deployment (sync.ts), then, as
// the following step, the ReplicaSet controller's next sync of every ReplicaSet it creates or
// resizes — the same ReplicaSet planner, run on the world this sync leaves.
import type {DeploymentView, Labels, Workload} from '../../model/objects.js'
import type {ControllerPlan, DeploymentAction, ReplicaSetStep} from '../../model/plan.js'
import {controllerOf, isControlledBy} from '../pods.js'
import type {World} from '../planner.js'
import {formatRfc3339, wholeSeconds} from '../time.js'
import {templateKey} from '../revisions.js'
import {byNamespace} from '../workload-plan.js'
import {podTemplateHash, UnhashableTemplate} from './hash/index.js'
import {syncDeployment, type DeploymentSync, type DeploymentWorld} from './sync.js'
import {POD_TEMPLATE_HASH} from './util.js'

/** Plans the next sync of every Deployment; `planReplicaSet` plans one ReplicaSet in a given world (the following step). */
export function planDeployments(
  deployments: readonly DeploymentView[],
  replicaSets: readonly Workload[],
  world: World,
  planReplicaSet: (rs: Workload, world: World) => ControllerPlan,
): ControllerPlan[] {
  const inNamespaces = new Map([...byNamespace(replicaSets)].map(([ns, list]) => [ns, new NamespaceReplicaSets(list)]))
  const empty = new NamespaceReplicaSets([])
  const templates = new TemplateCache()
  return deployments.map((d) => {
    const inNamespace = inNamespaces.get(d.namespace) ?? empty
    const claimable = inNamespace.claimable(d.uid)
    const sync = syncDeployment(d, deploymentWorld(d, inNamespace.all, claimable, world, templates))
    const plan = controllerPlan(d, sync)
    // Its writes touch only ReplicaSets it could claim (its own, and orphans it adopts).
    const then = followingStep(d, sync, claimable, world, planReplicaSet)
    if (then.length > 0) plan.then = then
    return plan
  })
}

/**
 * One namespace's ReplicaSets, indexed once for all its Deployments: each Deployment's claim looks
 * at its own and the orphans, not at every ReplicaSet of the namespace.
 */
class NamespaceReplicaSets {
  private readonly byController = new Map<string, Workload[]>()
  private readonly orphans: Workload[] = []

  constructor(readonly all: readonly Workload[]) {
    for (const rs of all) {
      const ref = controllerOf(rs)
      if (!ref) this.orphans.push(rs)
      else {
        const list = this.byController.get(ref.uid)
        if (list) list.push(rs)
        else this.byController.set(ref.uid, [rs])
      }
    }
  }

  /** Controlled by `uid`, or by nothing; by name, as ClaimReplicaSets meets them. */
  claimable(uid: string): Workload[] {
    return [...(this.byController.get(uid) ?? []), ...this.orphans].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }
}

function deploymentWorld(d: DeploymentView, replicaSets: readonly Workload[], claimable: readonly Workload[], world: World, templates: TemplateCache): DeploymentWorld {
  const stale = d.serverDefaulted ? templates.staleHashes(d, claimable) : undefined
  return {
    replicaSets,
    claimable,
    podsOf: (rs) => [...world.index.referencing(rs.uid)].filter((p) => isControlledBy(p, rs)),
    now: world.now,
    gates: world.options.featureGates,
    templateHash: (dep, collisionCount) => {
      if (stale) return {unknown: stale}
      try {
        return {hash: podTemplateHash(dep.rawTemplate, collisionCount)}
      } catch (error) {
        if (error instanceof UnhashableTemplate) return {unknown: `its pod template cannot be hashed here (${error.message})`}
        throw error
      }
    },
    sameTemplate: (dep, rs) => templates.same(dep, rs),
  }
}

/** Pod templates compared as the controller compares them (EqualIgnoreHash), each printed once. */
class TemplateCache {
  private readonly dumps = new WeakMap<object, string>()

  /** The template's print with the pod-template-hash label dropped: equal prints, equal templates. */
  private key(owner: object, template: unknown): string {
    let k = this.dumps.get(owner)
    if (k === undefined) {
      k = templateKey(withoutHashLabel(template))
      this.dumps.set(owner, k)
    }
    return k
  }

  same(d: DeploymentView, rs: Workload): boolean {
    return this.key(d, d.rawTemplate) === this.key(rs, rs.rawTemplate ?? templateOf(rs))
  }

  /**
   * Live objects only: a ReplicaSet of this Deployment whose pod-template-hash label is not the
   * hash of its own template (for any collision count up to the Deployment's) means kctl hashes
   * differently from this cluster's controller. The name of a new ReplicaSet is then unknown.
   */
  staleHashes(d: DeploymentView, replicaSets: readonly Workload[]): string | undefined {
    for (const rs of replicaSets) {
      if (controllerOf(rs)?.uid !== d.uid) continue
      const label = rs.labels[POD_TEMPLATE_HASH]
      if (label === undefined) continue
      let hashes: string[]
      try {
        const t = withoutHashLabel(rs.rawTemplate ?? templateOf(rs))
        hashes = [podTemplateHash(t, undefined)]
        for (let cc = 0; cc <= (d.status.collisionCount ?? 0); cc++) hashes.push(podTemplateHash(t, cc))
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
  // The world as this sync leaves it: this Deployment's ReplicaSets replaced, the rest read through.
  const siblings: World['siblingsByOwner'] = {get: (uid) => (uid === d.uid ? owned : world.siblingsByOwner.get(uid))}
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

