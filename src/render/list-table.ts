// `kctl list` as a table: one row per controller, kubectl-style columns. A controller with a table
// of its own (Services) gets it after the shared one.
import {type ControllerPlan, readyAndAvailable, type ReconcilePlan} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {formatColumns} from './columns.js'
import {controllerOf, plannedKinds} from './dispatch.js'
import {updatedCount} from './list-wire.js'
import {signed} from './words.js'

const HEADER = ['KIND', 'NAMESPACE', 'NAME', 'DESIRED', 'ACTIVE', 'READY', 'AVAILABLE', 'DIFF', 'IN SYNC']

export function renderListTable(plan: ReconcilePlan): string {
  if (plan.controllers.length === 0) return `No ${plannedKinds('or')} found.\n`
  const own = CONTROLLERS.filter((d) => d.render.listTable !== undefined)
    .map((d) => ({d, plans: plan.controllers.filter((c) => (d.kinds as readonly string[]).includes(c.kind))}))
    .filter((t) => t.plans.length > 0)
  if (own.length === 0) return renderControllers(plan.controllers)
  const others = plan.controllers.filter((c) => controllerOf(c.kind)?.render.listTable === undefined)
  return [...(others.length > 0 ? [renderControllers(others)] : []), ...own.map((t) => t.d.render.listTable!(t.plans))].join('\n')
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
  if (controllers.some((c) => controllerOf(c.kind)?.render.listRollout)) {
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
