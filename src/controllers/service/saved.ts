// A Service's write in a saved plan (`reconcile --plan`).
import type {Action} from '../../model/plan.js'
import {checkedAction, type Fail, type Fields} from '../../apply/saved-actions.js'

/** What the executor sends for each Service write: required; the rest kept as read. */
const SERVICE_FIELDS: Record<string, Fields> = {
  createEndpointSlice: {strings: ['generateName', 'addressType'], mappings: ['labels', 'ownerReference'], lists: ['ports', 'endpoints']},
  updateEndpointSlice: {strings: ['name', 'uid', 'resourceVersion', 'addressType'], mappings: ['labels'], lists: ['ports', 'endpoints']},
  deleteEndpointSlice: {strings: ['name', 'uid', 'resourceVersion']},
  writeEndpoints: {strings: ['verb', 'name'], mappings: ['labels'], lists: ['subsets']},
  deleteEndpoints: {strings: ['name', 'uid', 'resourceVersion']},
  addLoadBalancerFinalizer: {strings: ['finalizer']},
  removeLoadBalancerFinalizer: {strings: ['finalizer']},
  ensureLoadBalancer: {strings: ['loadBalancer'], lists: ['hosts']},
  updateLoadBalancerHosts: {strings: ['loadBalancer'], lists: ['hosts']},
  ensureLoadBalancerDeleted: {strings: ['loadBalancer']},
  writeLoadBalancerStatus: {strings: ['ingress'], lists: ['from']},
}

/** A Service's write, as `kctl plan -o json` prints it. */
export function serviceAction(a: unknown, at: string, fail: Fail): Action {
  return checkedAction(a, at, fail, SERVICE_FIELDS)
}
