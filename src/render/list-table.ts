// `kctl list` as a table: one row per controller, kubectl-style columns.
import {type ControllerPlan, readyAndAvailable, type ReconcilePlan} from '../model/plan.js'
import {formatColumns} from './columns.js'
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
  let rows = plan.controllers.map((c) => [
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
  if (plan.controllers.some((c) => ROLLING_KINDS.has(c.kind))) {
    header = [...header.slice(0, 5), 'UPDATED', ...header.slice(5), 'ROLLOUT']
    rows = rows.map((r, i) => {
      const c = plan.controllers[i]
      const n = updatedCount(c)
      const updated = n === undefined ? '-' : String(n)
      return [...r.slice(0, 5), updated, ...r.slice(5), c.rolloutStep ?? '-']
    })
  }
  // Several apply sets (kustomize roots read with -f): which one each row comes from.
  if (plan.controllers.some((c) => c.applySet !== undefined)) {
    return formatColumns([...header, 'APPLY SET'], rows.map((r, i) => [...r, plan.controllers[i].applySet || '-']))
  }
  return formatColumns(header, rows)
}
