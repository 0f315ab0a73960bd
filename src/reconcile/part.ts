// What a controller's planning part looks like. The shared layers each define the part of a
// controller they drive (sources: reading, render: tables, apply: writes, watch, simulate, check);
// src/controllers/descriptor.ts joins them into one descriptor, and src/controllers/registry.ts
// lists one per controller. The layers never import a controller folder; they iterate the registry.
import type {Snapshot} from '../model/objects.js'
import type {ControllerKind, ControllerPlan} from '../model/plan.js'
import type {World} from './planner.js'

export interface PlanPart {
  /** kube-controller-manager's name for the controller (its --controllers value). */
  name: string
  /** The kinds whose objects it syncs. */
  kinds: readonly ControllerKind[]
  /** One sync of every object of its kinds in the snapshot. */
  plan(snapshot: Snapshot, world: World): ControllerPlan[]
  /** Planned only: `kctl reconcile` leaves its objects out (it cannot carry out their writes yet). */
  planOnly?: true
}
