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

/** The last kind asked for, and its part: each object is asked about several times in a row. */
let lastKind: string | undefined
let lastGroup = ''
let lastPart: CheckedKind | undefined

/**
 * The part of the controller that syncs objects of this kind (in the API group as written), if
 * any. An object read by read.ts carries it (`part`, null for none): it is asked for many times.
 */
export function checkedKind(o: {kind: string; group: string; readonly part?: CheckedKind | null}): CheckedKind | undefined {
  const known = o.part
  if (known !== undefined) return known ?? undefined
  if (o.kind === lastKind && o.group === lastGroup) return lastPart
  lastPart = kinds().get(o.group)?.get(o.kind)
  lastKind = o.kind
  lastGroup = o.group
  return lastPart
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
