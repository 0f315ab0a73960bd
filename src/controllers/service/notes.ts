// What `kctl reconcile` says about a Service's writes: the warning its plan carries when no cloud
// provider was given, and the report's notes its results call for.
import type {ActionResult} from '../../model/apply.js'
import type {Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import {LOAD_BALANCER_ACTIONS, SERVICE_SKIP} from './apply.js'

const NOTES = {
  noCloud:
    'load balancers: no cloud provider was given, so the service controller\'s writes (finalizer, provider call, status) were not sent; pass --lb-pool CIDR (the built-in local provider) or --cloud-provider-exec PATH',
  drawn:
    'a Service\'s pool (service.pools): the controller puts the pool\'s endpoints into the slices in Go\'s map order, so which slice gets which cannot be known; reconcile filled them in the plan\'s order with the pods in name order (done.chosen says which went where)',
  noCloudPlanned: 'no cloud provider given (--lb-pool or --cloud-provider-exec): the load-balancer writes will not be sent',
  fixtureServices: 'Services: their endpoint and load-balancer writes are carried out against a cluster only; on files they are planned (kctl plan -f) but not carried out',
} as const

/** Without a provider, a Service plan with load-balancer writes says, before anything is sent, that they will not be. */
export function servicePlanWarnings(c: ControllerPlan, cloud: boolean): string[] {
  return !cloud && !c.inSync && c.actions.some((a) => LOAD_BALANCER_ACTIONS.has(a.type)) ? [NOTES.noCloudPlanned] : []
}

/** The report's notes about Services (`results`: the Services' results; `fixtures`: the files' world). */
export function serviceNotes(results: readonly ActionResult[], fixtures: Snapshot | undefined): string[] {
  const out: string[] = []
  if (results.some((r) => r.done?.chosen)) out.push(NOTES.drawn)
  if (results.some((r) => r.skipReason === SERVICE_SKIP.noCloud)) out.push(NOTES.noCloud)
  if (fixtures?.services?.some((s) => !s.notPlanned)) out.push(NOTES.fixtureServices)
  return out
}
