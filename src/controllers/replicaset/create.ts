// The pods the ReplicaSet controller creates: GetPodFromTemplate, getPodsPrefix and
// RealPodControl.createPods (pkg/controller/controller_utils.go).
import type {OwnerReference, Workload} from '../../model/objects.js'
import type {CreateAction} from '../../model/plan.js'
import {GENERATED_BASE_LENGTH} from '../../reconcile/create.js'

/** getPodsPrefix: "<name>-" when that is a valid name prefix (≤ 253 characters), else the bare name. */
export function podsPrefix(controllerName: string): string {
  const prefix = `${controllerName}-`
  return prefix.length <= 253 ? prefix : controllerName
}

/** metav1.NewControllerRef: the owner reference every created pod carries. */
export function controllerRef(workload: Workload): OwnerReference {
  return {
    apiVersion: workload.apiVersion,
    kind: workload.kind,
    name: workload.name,
    uid: workload.uid,
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** The create the controller issues, once per missing pod; `error` when createPods refuses it locally. */
export function createAction(workload: Workload): CreateAction {
  const {template} = workload
  const generateName = podsPrefix(workload.name)
  const action: CreateAction = {
    type: 'create',
    generateName,
    nameBase: generateName.slice(0, GENERATED_BASE_LENGTH),
    labels: {...template.labels},
    annotations: {...template.annotations},
    finalizers: [...template.finalizers],
    ownerReference: controllerRef(workload),
  }
  if (Object.keys(template.labels).length === 0) action.error = 'unable to create pods, no labels'
  return action
}
