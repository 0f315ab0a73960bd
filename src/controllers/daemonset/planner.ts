// The DaemonSet controller's plans for a snapshot: one sync per DaemonSet (sync.ts) over every
// node read and the pods and revisions of its namespace.
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {revisionCandidates} from '../../reconcile/revisions.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import type {NodeDecision} from './nodes.js'
import {nodesByName, planDaemonSet} from './sync.js'

export function planDaemonSets(snapshot: Snapshot, world: World): ControllerPlan[] {
  const daemonSets = snapshot.daemonSets ?? []
  if (daemonSets.length === 0) return []
  const nodes = nodesByName(snapshot.nodes ?? [])
  const revisions = byNamespace(snapshot.controllerRevisions ?? [])
  const candidates = revisionCandidates(snapshot.controllerRevisions ?? [])
  const placements = new Map<string, ReadonlyMap<string, NodeDecision>>()
  return daemonSets.map((ds) => {
    const plan = planDaemonSet(ds, {
      nodes,
      candidates: world.index.claimCandidates({namespace: ds.namespace, kind: 'DaemonSet', name: ds.name, uid: ds.uid}),
      revisions: revisions.get(ds.namespace) ?? [],
      revisionCandidates: candidates(ds.namespace, ds.uid),
      now: world.now,
      placements,
    })
    if (nodes.length === 0) plan.warnings.push('no Node was read: with no nodes, the controller wants no pods (give kind: Node objects, or read the cluster)')
    return plan
  })
}
