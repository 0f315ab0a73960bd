// Which controller's render part draws a plan: the registry's controller whose kinds hold the
// plan's kind. The renderers that ask this (plan, list, reconcile and watch tables) are the
// dispatching modules of the render layer; a controller folder never imports them.
import {CONTROLLERS, type ControllerDescriptor} from '../controllers/registry.js'

/** The controller that plans objects of `kind`; undefined for a kind kctl does not plan. */
export function controllerOf(kind: string): ControllerDescriptor | undefined {
  return CONTROLLERS.find((d) => (d.kinds as readonly string[]).includes(kind))
}
