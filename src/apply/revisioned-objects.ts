// The request bodies the StatefulSet and DaemonSet controllers' writes share: their
// ControllerRevisions (controller_history.go), pods from a template with the controller reference
// (GetPodFromTemplate), and the status as such a set stores it. Each controller's objects.ts builds
// the rest.
import type {OwnerReference} from '../model/objects.js'
import type {CreateControllerRevisionAction} from '../model/revisions.js'
import {statefulSetRevisionData} from '../reconcile/revisions.js'
import type {PodManifest, SideObject} from './pod-control.js'

type Obj = Record<string, any>

export const controllerRef = (ref: OwnerReference): OwnerReference => ({apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, controller: true, blockOwnerDeletion: true})

/**
 * A ControllerRevision as history.NewControllerRevision (StatefulSets) or constructHistory
 * (DaemonSets, which also copy the set's annotations: `copyAnnotations`) build it. `data` is returned apart, as the
 * exact bytes getPatch produces: the controllers compare revisions by those bytes.
 */
export function revisionObject(action: CreateControllerRevisionAction & {name: string}, namespace: string, owner: Obj, copyAnnotations: boolean): {object: SideObject; data: string} {
  const metadata: SideObject['metadata'] = {name: action.name, namespace, labels: {...action.labels}, ownerReferences: [controllerRef(action.ownerReference)]}
  const annotations = owner.metadata?.annotations
  if (copyAnnotations && annotations && Object.keys(annotations).length > 0) metadata.annotations = {...annotations}
  const data = statefulSetRevisionData(owner.spec?.template ?? {})
  return {object: {apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, revision: action.revision}, data}
}

/** The JSON of a revision with its data spliced in byte for byte. */
export function revisionJson(object: SideObject, data: string): string {
  const text = JSON.stringify(object)
  return `${text.slice(0, -1)},"data":${data}}`
}

/** GetPodFromTemplate: the template's annotations and finalizers, our labels, the controller reference. */
export function podManifest(p: {generateName: string; name?: string; namespace: string; labels: Record<string, string>; template: Obj; owner: OwnerReference; spec: unknown}): PodManifest {
  const metadata: PodManifest['metadata'] = {
    generateName: p.generateName,
    ...(p.name === undefined ? {} : {name: p.name}),
    namespace: p.namespace,
    labels: p.labels,
    ownerReferences: [controllerRef(p.owner)],
  }
  const annotations = p.template.metadata?.annotations
  if (annotations && Object.keys(annotations).length > 0) metadata.annotations = {...annotations}
  const finalizers = p.template.metadata?.finalizers
  if (Array.isArray(finalizers) && finalizers.length > 0) metadata.finalizers = [...finalizers]
  return {apiVersion: 'v1', kind: 'Pod', metadata, spec: p.spec}
}

/**
 * The status as a StatefulSet or DaemonSet stores it (StatefulSetStatus, DaemonSetStatus): the one
 * read, with the planned fields written over it (`leaveAsRead`: fields whose planned value is not written).
 */
export function setStatusObject(view: Obj, before: Obj | undefined, leaveAsRead?: (field: string, value: unknown) => boolean): Obj {
  const status: Obj = {...(before ?? {})}
  for (const [k, v] of Object.entries(view)) {
    if (v === undefined) continue
    if (leaveAsRead?.(k, v)) continue
    status[k] = v
  }
  return status
}
