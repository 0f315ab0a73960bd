// Which controller's render part draws a plan: the registry's controller whose kinds hold the
// plan's kind. The renderers that ask this (plan, list, reconcile and watch tables) are the
// dispatching modules of the render layer; a controller folder never imports them.
import {CONTROLLERS, type ControllerDescriptor} from '../controllers/registry.js'
import {joinWords} from './words.js'

/** The controller that plans objects of `kind`; undefined for a kind kctl does not plan. */
export function controllerOf(kind: string): ControllerDescriptor | undefined {
  return CONTROLLERS.find((d) => (d.kinds as readonly string[]).includes(kind))
}

/**
 * The kinds kctl plans, in the registry's order, as words: `ReplicaSets, …, CronJobs and Services`
 * (`or` for "none of them"). Help texts and empty results name them from here, so a controller
 * added to the registry is named too.
 */
export function plannedKinds(last: 'and' | 'or' = 'and'): string {
  return joinWords(
    CONTROLLERS.flatMap((d) => d.kinds).map((k) => `${k}s`),
    last,
  )
}
