// The StatefulSet controller's plans for a snapshot: one sync per StatefulSet (sync.ts) over the
// pods, ControllerRevisions and PersistentVolumeClaims of its namespace.
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {ClaimView} from './model.js'
import {revisionCandidates} from '../../reconcile/revisions.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import type {World} from '../../reconcile/planner.js'
import {planStatefulSet} from './sync.js'

export function planStatefulSets(snapshot: Snapshot, world: World): ControllerPlan[] {
  const sets = snapshot.statefulSets ?? []
  if (sets.length === 0) return []
  const revisions = byNamespace(snapshot.controllerRevisions ?? [])
  const candidates = revisionCandidates(snapshot.controllerRevisions ?? [])
  const claims = new Map<string, Map<string, ClaimView>>()
  for (const [ns, list] of byNamespace(snapshot.claims ?? [])) claims.set(ns, new Map(list.map((c) => [c.name, c])))
  return sets.map((set) =>
    planStatefulSet(set, {
      candidates: world.index.claimCandidates({namespace: set.namespace, kind: 'StatefulSet', name: set.name, uid: set.uid}),
      revisions: revisions.get(set.namespace) ?? [],
      revisionCandidates: candidates(set.namespace, set.uid),
      claims: claims.get(set.namespace) ?? new Map(),
      now: world.now,
      maxUnavailableGate: world.options.featureGates.MaxUnavailableStatefulSet,
    }),
  )
}
