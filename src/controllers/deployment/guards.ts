// The guards' view of a Deployment's plan (apply/guards.ts): a Deployment removes pods through its
// ReplicaSets, so it loses every pod when its sync scales every ReplicaSet to 0, and a ReplicaSet a
// rollout empties while another still wants pods is the rollout moving them.
import type {ControllerPlan} from '../../model/plan.js'

/** The scale-to-zero check of a Deployment: every ReplicaSet scaled to 0. */
export function deploymentScaleToZero(c: ControllerPlan): string | undefined {
  const before = (c.replicaSets ?? []).reduce((n, rs) => n + rs.from, 0)
  const after = (c.replicaSets ?? []).reduce((n, rs) => n + rs.replicas, 0)
  if (before > 0 && after === 0 && c.actions.some((a) => a.type === 'scaleReplicaSet' && !a.conflict)) {
    return `Deployment ${c.namespace}/${c.name}: the plan scales every ReplicaSet to 0 (${before} replicas${c.desired === 0 ? ', desired 0' : ', a Recreate rollout'}); pass --allow-scale-to-zero to allow it`
  }
  return undefined
}

/**
 * ReplicaSets of a Deployment whose other ReplicaSets still want pods: emptying one of them is a
 * rollout moving its pods, not a workload losing all of them.
 */
export function keptByRollout(d: ControllerPlan): string[] {
  if (!d.replicaSets) return []
  const out: string[] = []
  const total = d.replicaSets.reduce((n, rs) => n + rs.replicas, 0)
  for (const rs of d.replicaSets) if (total - rs.replicas > 0) out.push(`${d.namespace}/${rs.name}`)
  return out
}
