// `kctl list -o json|yaml`: the ControllerList document (`kctl/v1alpha1`, docs/output.md). Each
// item's counts are the same for every controller; a controller's render part adds its own
// fields (a Service's endpoints and load balancer) and says whether an updated count applies.
import {type ControllerPlan, PLAN_API_VERSION, readyAndAvailable, type ReconcilePlan} from '../model/plan.js'
import {controllerOf} from './dispatch.js'
import {CONTROLLER_LIST_KIND, type ControllerListItem, type Json, ordered, source} from './wire.js'

const LIST_ITEM_ORDER = ['kind', 'apiVersion', 'namespace', 'name', 'uid', 'desired', 'active', 'ready', 'available', 'diff', 'pending', 'inSync', 'updated', 'rolloutStep', 'serviceType', 'selectedPods', 'endpoints', 'readyEndpoints', 'slices', 'loadBalancer', 'loadBalancerHosts']

/** Replicas (nodes, for a DaemonSet) at the current template, as the status the sync writes says. */
export function updatedCount(c: ControllerPlan): number | undefined {
  if (!controllerOf(c.kind)?.render.listRollout) return undefined
  if ('updatedNumberScheduled' in c.status) return c.status.updatedNumberScheduled
  return 'updatedReplicas' in c.status ? c.status.updatedReplicas : undefined
}

export function controllerListItem(c: ControllerPlan): ControllerListItem {
  return {
    kind: c.kind,
    apiVersion: c.apiVersion,
    namespace: c.namespace,
    name: c.name,
    uid: c.uid,
    desired: c.desired,
    active: c.active,
    ...readyAndAvailable(c.status),
    diff: c.diff,
    pending: c.pending,
    inSync: c.inSync,
    ...(c.applySet !== undefined ? {applySet: c.applySet} : {}),
    ...(updatedCount(c) !== undefined ? {updated: updatedCount(c)} : {}),
    ...(c.rolloutStep !== undefined ? {rolloutStep: c.rolloutStep} : {}),
    ...controllerOf(c.kind)?.render.listFields?.(c),
  }
}

/** `kctl list -o json|yaml`: `{apiVersion, kind: ControllerList, now, source, items}`. */
export function controllerListToWire(plan: ReconcilePlan): Json {
  return {
    apiVersion: PLAN_API_VERSION,
    kind: CONTROLLER_LIST_KIND,
    now: plan.now,
    source: source(plan.source),
    items: plan.controllers.map((c) => ordered(controllerListItem(c), LIST_ITEM_ORDER)),
    ...(plan.ignoredByFilter ? {ignoredByFilter: ordered(plan.ignoredByFilter, ['controllers', 'namespaces'])} : {}),
    ...(plan.errors ? {errors: plan.errors.map((e) => ordered(e, ['file', 'line', 'column', 'message']))} : {}),
  }
}
