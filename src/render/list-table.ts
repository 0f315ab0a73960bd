// `kctl list` as a table: one row per controller, kubectl-style columns.
import type {ReconcilePlan} from '../model/plan.js'
import {formatColumns} from './columns.js'
import {signed} from './words.js'

const HEADER = ['KIND', 'NAMESPACE', 'NAME', 'DESIRED', 'ACTIVE', 'READY', 'AVAILABLE', 'DIFF', 'IN SYNC']

export function renderListTable(plan: ReconcilePlan): string {
  if (plan.controllers.length === 0) return 'No ReplicaSets or ReplicationControllers found.\n'
  const rows = plan.controllers.map((c) => [
    c.kind,
    c.namespace,
    c.name,
    String(c.desired),
    String(c.active),
    String(c.status.readyReplicas),
    String(c.status.availableReplicas),
    signed(c.diff),
    c.inSync ? 'yes' : 'no',
  ])
  // Several apply sets (kustomize roots read with -f): which one each row comes from.
  if (plan.controllers.some((c) => c.applySet !== undefined)) {
    return formatColumns([...HEADER, 'APPLY SET'], rows.map((r, i) => [...r, plan.controllers[i].applySet || '-']))
  }
  return formatColumns(HEADER, rows)
}
