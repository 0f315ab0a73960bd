// Builders shared by the Deployment tests (unit and oracle).

/** A Deployment's status once a rollout of `n` replicas has completed (as a previous sync left it). */
export function completedStatus(n: number) {
  return {
    observedGeneration: 1,
    replicas: n,
    updatedReplicas: n,
    readyReplicas: n,
    availableReplicas: n,
    conditions: [
      {type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z'},
      {type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web" has successfully progressed.', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z'},
    ],
  }
}

/** One of a Deployment's ReplicaSets as a test describes it (the unit tests' objects and the oracle's worlds). */
export interface ReplicaSetShape {
  /** status replicas / ready / available. */
  status?: [number, number, number]
  revision?: number
  /** desired-replicas / max-replicas annotations. */
  sized?: [number, number]
  /** false: no controller reference (an orphan). */
  owned?: boolean
  labels?: Record<string, any>
  name?: string
}

/** The deployment controller's annotations on such a ReplicaSet: revision, desired and max replicas. */
export function replicaSetAnnotations(shape: ReplicaSetShape): Record<string, string> {
  const annotations: Record<string, string> = {}
  if (shape.revision !== undefined) annotations['deployment.kubernetes.io/revision'] = String(shape.revision)
  if (shape.sized) {
    annotations['deployment.kubernetes.io/desired-replicas'] = String(shape.sized[0])
    annotations['deployment.kubernetes.io/max-replicas'] = String(shape.sized[1])
  }
  return annotations
}
