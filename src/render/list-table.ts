// `kctl list` as a table: one row per controller, kubectl-style columns.
import {type ControllerPlan, readyAndAvailable, type ReconcilePlan} from '../model/plan.js'
import {formatColumns} from './columns.js'
import {controllerListItem} from './wire.js'
import {signed} from './words.js'

const HEADER = ['KIND', 'NAMESPACE', 'NAME', 'DESIRED', 'ACTIVE', 'READY', 'AVAILABLE', 'DIFF', 'IN SYNC']

export const ROLLING_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'])

/** Replicas (nodes, for a DaemonSet) at the current template, as the status the sync writes says. */
export function updatedCount(c: ControllerPlan): number | undefined {
  if (!ROLLING_KINDS.has(c.kind)) return undefined
  if ('updatedNumberScheduled' in c.status) return c.status.updatedNumberScheduled
  return 'updatedReplicas' in c.status ? c.status.updatedReplicas : undefined
}

export function renderListTable(plan: ReconcilePlan): string {
  if (plan.controllers.length === 0) return 'No Deployments, ReplicaSets or ReplicationControllers found.\n'
  const services = plan.controllers.filter((c) => c.kind === 'Service')
  if (services.length === 0) return renderControllers(plan.controllers)
  const others = plan.controllers.filter((c) => c.kind !== 'Service')
  return [...(others.length > 0 ? [renderControllers(others)] : []), renderServices(services)].join('\n')
}

const SERVICE_HEADER = ['KIND', 'NAMESPACE', 'NAME', 'TYPE', 'PODS', 'ENDPOINTS', 'READY', 'SLICES', 'LOAD BALANCER', 'IN SYNC']

/** Services: selected pods, endpoints (and ready ones) and slices once the sync is done, the load balancer's state and the hosts it is given. */
function renderServices(services: readonly ControllerPlan[]): string {
  const rows = services.map((c) => {
    const item = controllerListItem(c)
    const hosts = item.loadBalancerHosts === undefined ? '' : ` → ${item.loadBalancerHosts} host${item.loadBalancerHosts === 1 ? '' : 's'}`
    return [c.kind, c.namespace, c.name, item.serviceType || '-', String(item.selectedPods ?? 0), String(item.endpoints ?? 0), String(item.readyEndpoints ?? 0), String(item.slices ?? 0), `${item.loadBalancer ?? '-'}${hosts}`, c.inSync ? 'yes' : 'no']
  })
  if (services.some((c) => c.applySet !== undefined)) return formatColumns([...SERVICE_HEADER, 'APPLY SET'], rows.map((r, i) => [...r, services[i].applySet || '-']))
  return formatColumns(SERVICE_HEADER, rows)
}

function renderControllers(controllers: readonly ControllerPlan[]): string {
  let rows = controllers.map((c) => [
    c.kind,
    c.namespace,
    c.name,
    String(c.desired),
    String(c.active),
    String(readyAndAvailable(c.status).ready),
    String(readyAndAvailable(c.status).available),
    signed(c.diff),
    c.inSync ? 'yes' : 'no',
  ])
  let header = HEADER
  // Deployments, StatefulSets, DaemonSets: how far the rollout is (updated replicas, and the step in words).
  if (controllers.some((c) => ROLLING_KINDS.has(c.kind))) {
    header = [...header.slice(0, 5), 'UPDATED', ...header.slice(5), 'ROLLOUT']
    rows = rows.map((r, i) => {
      const c = controllers[i]
      const n = updatedCount(c)
      const updated = n === undefined ? '-' : String(n)
      return [...r.slice(0, 5), updated, ...r.slice(5), c.rolloutStep ?? '-']
    })
  }
  // Several apply sets (kustomize roots read with -f): which one each row comes from.
  if (controllers.some((c) => c.applySet !== undefined)) {
    return formatColumns([...header, 'APPLY SET'], rows.map((r, i) => [...r, controllers[i].applySet || '-']))
  }
  return formatColumns(header, rows)
}
