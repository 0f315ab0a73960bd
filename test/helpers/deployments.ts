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
