// What the StatefulSet and DaemonSet planners share: the plan a sync starts from, with the
// controller's selector compiled (a selector that does not compile stops every sync), and the
// grouping of a namespace's objects.
import type {TemplateOwnerView} from '../model/objects.js'
import type {ControllerPlan} from '../model/plan.js'
import {type CompiledSelector, compileLabelSelector, SelectorError} from './selector.js'

/** A plan with no actions yet, and the compiled selector (undefined, with a warning, when it does not compile). */
export function startPlan(o: TemplateOwnerView & Pick<ControllerPlan, 'kind' | 'status'>, desired: number): {plan: ControllerPlan; selector?: CompiledSelector} {
  const plan: ControllerPlan = {
    kind: o.kind,
    apiVersion: o.apiVersion,
    namespace: o.namespace,
    name: o.name,
    uid: o.uid,
    resourceVersion: o.resourceVersion,
    desired,
    active: 0,
    diff: 0,
    actions: [],
    pending: 0,
    status: o.status,
    warnings: [],
    inSync: true,
  }
  try {
    return {plan, selector: compileLabelSelector(o.selector)}
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error
    plan.warnings.push(`invalid selector (${error.message}): the controller skips every sync of it`)
    return {plan}
  }
}

export function byNamespace<T extends {namespace: string}>(items: readonly T[]): Map<string, T[]> {
  return groupBy(items, (item) => item.namespace)
}

/** `items` grouped by `keyOf`, each group in the items' order; an item whose key is undefined is left out. */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K | undefined): Map<K, T[]> {
  const out = new Map<K, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    if (key === undefined) continue
    const list = out.get(key)
    if (list) list.push(item)
    else out.set(key, [item])
  }
  return out
}
