// The request bodies of the ReplicaSet controller's writes (besides the pods, built by
// apply/pod-control.ts podFromTemplate).
import type {StatusView} from '../../model/plan.js'

/** The status as the API stores it (RC has no terminatingReplicas; unset stays unset). */
export function statusObject(view: StatusView): Record<string, unknown> {
  const status: Record<string, unknown> = {
    replicas: view.replicas,
    fullyLabeledReplicas: view.fullyLabeledReplicas,
    readyReplicas: view.readyReplicas,
    availableReplicas: view.availableReplicas,
  }
  if (view.terminatingReplicas !== undefined) status.terminatingReplicas = view.terminatingReplicas
  status.observedGeneration = view.observedGeneration
  if (view.conditions && view.conditions.length > 0) status.conditions = view.conditions.map((c) => ({...c}))
  return status
}
