// The simulated controllers, from the registry: those whose descriptor has a simulate part.
// Read only inside functions (the registry imports every controller, which import shared modules).
import {CONTROLLERS} from '../controllers/registry.js'
import type {ReconcilePlan} from '../model/plan.js'
import type {RolloutVerdict, Simulation} from '../model/simulation.js'
import type {ControllerSimulation, ManifestKind, PlacedLoad, Report} from './part.js'
import {POD_STRATEGY} from './patch-strategies.js'

export interface Simulated {
  /** The registry name. */
  name: string
  kinds: readonly string[]
  simulation: ControllerSimulation
}

let simulated: readonly Simulated[] | undefined

/** In the registry's order; built on first use (the kubelet model asks for every pod at every instant). */
export function simulatedControllers(): readonly Simulated[] {
  simulated ??= CONTROLLERS.flatMap((c) => (c.simulate ? [{name: c.name, kinds: c.kinds, simulation: c.simulate}] : []))
  return simulated
}

/** The simulate part of the controller that syncs objects of `kind`. */
export function simulationOf(kind: string): ControllerSimulation | undefined {
  return simulatedControllers().find((c) => c.kinds.includes(kind))?.simulation
}

/** The reports of the simulated controllers, in their order (a CronJob's before its Jobs'). */
export function reports(): Report[] {
  return simulatedControllers()
    .flatMap((s) => (s.simulation.report ? [s.simulation.report] : []))
    .sort((a, b) => a.order - b.order)
}

/** The registry names of the controllers kctl plans but does not simulate (Services), or simulates only some objects of (HPAs: those under --load). */
export function unsimulatedControllers(): string[] {
  return CONTROLLERS.filter((c) => !c.simulate || c.simulate.leftAsRead).map((c) => c.name)
}

/**
 * The objects of `plan` (planned by the unsimulated controllers only, from the world at the start)
 * that the simulation leaves as read: each with what `kctl plan` plans for it now and why.
 */
export function notSimulatedObjects(plan: ReconcilePlan, loads: readonly PlacedLoad[] = []): string[] {
  return plan.controllers.flatMap((cp) => {
    const c = CONTROLLERS.find((x) => x.kinds.includes(cp.kind))
    const left = c?.simulate?.leftAsRead
    const why = left ? left(cp, loads) : (c?.notSimulated ?? `the ${c?.name ?? cp.kind} controller is not run in virtual time`)
    if (why === undefined) return []
    const n = cp.actions.length
    const now = n === 0 ? 'in sync now' : `${n} ${n === 1 ? 'action' : 'actions'} planned now`
    return [`${cp.kind} ${cp.namespace}/${cp.name}: ${now}; ${why}`]
  })
}

/** Every simulated workload's rollout verdict, in report order (`Deployment ns/name`). */
export function rolloutVerdicts(sim: Simulation): Array<{workload: string; verdict: RolloutVerdict}> {
  return reports().flatMap((r) => r.verdicts?.(sim) ?? [])
}

/** Pods: the one kind --apply-manifests takes that no controller syncs. */
const POD: ManifestKind = {group: '/api/v1', plural: 'pods', patchStrategy: POD_STRATEGY}

/** A kind --apply-manifests applies (a simulated controller's, or Pod); undefined for any other. */
export function manifestKind(kind: string): ManifestKind | undefined {
  if (kind === 'Pod') return POD
  for (const c of simulatedControllers()) {
    const m = c.simulation.manifests
    if (Object.hasOwn(m, kind)) return m[kind as keyof typeof m]
  }
  return undefined
}
