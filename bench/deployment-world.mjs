// The pieces of the Deployment benchmarks' worlds (bench/deployments.mjs, bench/simulate.mjs): a
// Deployment's pod template and one of its ReplicaSets with that ReplicaSet's Ready pods, named and
// labelled as the deployment controller names them (pod-template-hash from kctl's own hash).

/** A pod template at `version`: one container `main` running the app's image, plus `container`'s fields. */
export const podTemplate = (app, version, container = {}) => ({
  metadata: {labels: {app}},
  spec: {containers: [{name: 'main', image: `registry.example.com/${app}:v${version}`, ...container}]},
})

/** The uid of Deployment number `index`. */
export const deploymentUid = (index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`

/**
 * Revision `revision` of Deployment number `index` (named `app`): its ReplicaSet at `size` of
 * `replicas`, owned by the Deployment, and `size` Running, Ready pods owned by it.
 */
export function replicaSetWithPods({app, index, namespace, revision, template, size, replicas, created, resourceVersion, podTemplateHash}) {
  const hash = podTemplateHash(template, undefined)
  const name = `${app}-${hash}`
  const tag = `4${String(revision).padStart(3, '0')}`
  const d12 = String(index).padStart(12, '0')
  const uid = `00000000-0000-${tag}-8000-${d12}`
  const labels = {app, 'pod-template-hash': hash}
  const items = [
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace,
        uid,
        generation: 1,
        resourceVersion,
        creationTimestamp: created,
        labels,
        annotations: {'deployment.kubernetes.io/revision': String(revision), 'deployment.kubernetes.io/desired-replicas': String(replicas), 'deployment.kubernetes.io/max-replicas': String(replicas + Math.ceil(replicas / 4))},
        ownerReferences: [{apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: deploymentUid(index), controller: true, blockOwnerDeletion: true}],
      },
      spec: {replicas: size, selector: {matchLabels: labels}, template: {...template, metadata: {labels}}},
      status: {replicas: size, fullyLabeledReplicas: size, readyReplicas: size, availableReplicas: size, observedGeneration: 1, terminatingReplicas: 0},
    },
  ]
  for (let p = 0; p < size; p++) {
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: `${name}-${p}`, namespace, uid: `${String(p).padStart(8, '0')}-0000-${tag}-9000-${d12}`, resourceVersion, creationTimestamp: '2026-11-20T00:00:00Z', labels, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid, controller: true}]},
      spec: {nodeName: `node-${p % 40}`, containers: template.spec.containers},
      status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-20T00:01:00Z'}]},
    })
  }
  return items
}
