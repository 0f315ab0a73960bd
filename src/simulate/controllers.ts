// The simulated controllers, from the registry: those whose descriptor has a simulate part.
// Read only inside functions (the registry imports every controller, which import shared modules).
import {CONTROLLERS} from '../controllers/registry.js'
import type {ControllerSimulation, Report} from './part.js'

export interface Simulated {
  /** The registry name. */
  name: string
  kinds: readonly string[]
  simulation: ControllerSimulation
}

export function simulatedControllers(): Simulated[] {
  return CONTROLLERS.flatMap((c) => (c.simulation ? [{name: c.name, kinds: c.kinds, simulation: c.simulation}] : []))
}

/** The simulate part of the controller that syncs objects of `kind`. */
export function simulationOf(kind: string): ControllerSimulation | undefined {
  return CONTROLLERS.find((c) => c.kinds.includes(kind as never))?.simulation
}

/** The reports of the simulated controllers, in their order (a CronJob's before its Jobs'). */
export function reports(): Report[] {
  return simulatedControllers()
    .flatMap((s) => (s.simulation.report ? [s.simulation.report] : []))
    .sort((a, b) => a.order - b.order)
}
