// The request bodies of the deployment controller's writes: the new ReplicaSet and the Deployment's
// status, built from the plan's action and the Deployment as read now.
import type {DeploymentStatusView} from '../../model/objects.js'
import type {CreateReplicaSetAction} from '../../model/plan.js'
import type {ReplicaSetManifest} from '../../apply/pod-control.js'
import {ANNOTATION} from './util.js'

/**
 * getNewReplicaSet's new ReplicaSet (deployment/sync.go): the exact name, labels, selector,
 * annotations, size and owner the plan holds, and the Deployment's template (as read now) with the
 * plan's labels (pod-template-hash added).
 */
export function replicaSetFromPlan(action: CreateReplicaSetAction & {name: string}, namespace: string, deploymentTemplate: unknown): ReplicaSetManifest {
  const template = structuredClone((deploymentTemplate ?? {}) as Record<string, any>)
  template.metadata = {...(template.metadata ?? {}), labels: {...action.labels}}
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: action.name,
      namespace,
      labels: {...action.labels},
      annotations: {...action.annotations},
      ownerReferences: [{...action.ownerReference, controller: true, blockOwnerDeletion: true}],
    },
    spec: {replicas: action.replicas, minReadySeconds: action.minReadySeconds, selector: structuredClone(action.selector), template},
  }
}

/**
 * The Deployment as the controller's UpdateStatus sends it: the object as read, with the status,
 * the revision annotation when the sync changes it, and (when given) the resourceVersion to write over.
 */
export function deploymentWithStatus(raw: Record<string, unknown>, to: DeploymentStatusView, revision?: {to: string}, resourceVersion?: string): Record<string, unknown> {
  const object = structuredClone(raw) as Record<string, any>
  object.metadata = {...(object.metadata ?? {})}
  if (resourceVersion !== undefined) object.metadata.resourceVersion = resourceVersion
  if (revision) object.metadata.annotations = {...(object.metadata.annotations ?? {}), [ANNOTATION.revision]: revision.to}
  object.status = deploymentStatusObject(to)
  return object
}

/** The DeploymentStatus as the API stores it (unset stays unset). */
export function deploymentStatusObject(view: DeploymentStatusView): Record<string, unknown> {
  const status: Record<string, unknown> = {observedGeneration: view.observedGeneration}
  for (const k of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const) if (view[k] !== 0) status[k] = view[k]
  if (view.terminatingReplicas !== undefined) status.terminatingReplicas = view.terminatingReplicas
  if (view.conditions.length > 0) status.conditions = view.conditions.map((c) => ({...c}))
  if (view.collisionCount !== undefined) status.collisionCount = view.collisionCount
  return status
}
