// The controllers' check parts (part.ts), from the registry: which kind an object is, as the rules
// see it.
import {CONTROLLERS} from '../controllers/registry.js'
import type {CheckedKind, ControllerChecks} from './part.js'

/** group → kind → its check part. */
let byGroup: Map<string, Map<string, CheckedKind>> | undefined

function kinds(): Map<string, Map<string, CheckedKind>> {
  if (!byGroup) {
    byGroup = new Map()
    for (const k of CONTROLLERS.flatMap((c) => c.check.kinds)) {
      for (const group of k.groups) {
        let inGroup = byGroup.get(group)
        if (!inGroup) byGroup.set(group, (inGroup = new Map()))
        inGroup.set(k.kind, k)
      }
    }
  }
  return byGroup
}

/** The part of the controller that syncs objects of this kind (in the API group as written), if any. */
export function checkedKind(o: {kind: string; group: string}): CheckedKind | undefined {
  return kinds().get(o.group)?.get(o.kind)
}

/** Every controller's check part, in registry order. */
export function controllerChecks(): ControllerChecks[] {
  return CONTROLLERS.map((c) => c.check)
}

/**
 * Whether a controller's reader takes objects of this kind (in this API group): kctl's own inputs
 * that no API server schema describes, such as the metrics an HPA is planned with, are validated
 * by that reader when planned, not reported as unvalidated.
 */
export function readByController(o: {kind: string; group: string}): boolean {
  return CONTROLLERS.some((c) => c.read.kinds.some((r) => r.kind === o.kind && r.group === o.group))
}
