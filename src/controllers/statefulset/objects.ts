// The request bodies of the StatefulSet and DaemonSet controllers' creates, built from the plan's
// action and the controller as read now (whose resourceVersion is the plan's, so its template is
// the one planned from).
import type {OwnerReference} from '../../model/objects.js'
import type {CreateClaimAction, CreateStatefulPodAction} from './model.js'
import type {CreateControllerRevisionAction} from '../../model/revisions.js'
import type {CreateDaemonPodAction} from '../daemonset/model.js'
import {REVISION_HASH_LABEL, statefulSetRevisionData} from '../../reconcile/revisions.js'
import {POD_INDEX_LABEL, POD_NAME_LABEL} from './sync.js'
import type {PodManifest, SideObject} from '../../apply/pod-control.js'

type Obj = Record<string, any>

const controllerRef = (ref: OwnerReference): OwnerReference => ({apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, controller: true, blockOwnerDeletion: true})

/**
 * A ControllerRevision as history.NewControllerRevision (StatefulSets) or constructHistory
 * (DaemonSets, which also copy the set's annotations) build it. `data` is returned apart, as the
 * exact bytes getPatch produces: the controllers compare revisions by those bytes.
 */
export function revisionObject(action: CreateControllerRevisionAction & {name: string}, namespace: string, owner: Obj): {object: SideObject; data: string} {
  const metadata: SideObject['metadata'] = {name: action.name, namespace, labels: {...action.labels}, ownerReferences: [controllerRef(action.ownerReference)]}
  const annotations = owner.metadata?.annotations
  if (owner.kind === 'DaemonSet' && annotations && Object.keys(annotations).length > 0) metadata.annotations = {...annotations}
  const data = statefulSetRevisionData(owner.spec?.template ?? {})
  return {object: {apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, revision: action.revision}, data}
}

/** The JSON of a revision with its data spliced in byte for byte. */
export function revisionJson(object: SideObject, data: string): string {
  const text = JSON.stringify(object)
  return `${text.slice(0, -1)},"data":${data}}`
}

/** getPersistentVolumeClaims: the set's volumeClaimTemplate, named for the pod, with the set's selector labels. */
export function claimObject(action: CreateClaimAction, namespace: string, set: Obj): SideObject {
  const templates: Obj[] = Array.isArray(set.spec?.volumeClaimTemplates) ? set.spec.volumeClaimTemplates : []
  const template = structuredClone(templates.find((t) => t?.metadata?.name === action.template) ?? {}) as Obj
  const {metadata: templateMeta = {}, status: _status, ...rest} = template
  const metadata: SideObject['metadata'] = {...templateMeta, name: action.claim, namespace, labels: {...action.labels}}
  if (Object.keys(action.annotations).length > 0) metadata.annotations = {...action.annotations}
  return {...rest, apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata}
}

/**
 * newVersionedStatefulSetPod: GetPodFromTemplate of the revision's template (`template`: the set's
 * own for the update revision, the current revision's otherwise), then initIdentity (name, the
 * pod-name and pod-index labels, hostname, subdomain) and updateStorage (a volume per claim
 * template, replacing a template volume of the same name), and the revision label.
 */
export function statefulPodObject(action: CreateStatefulPodAction, namespace: string, set: Obj, template: Obj): PodManifest {
  const labels: Record<string, string> = {...(template.metadata?.labels ?? {}), [POD_NAME_LABEL]: action.pod, [POD_INDEX_LABEL]: String(action.ordinal)}
  if (action.revision !== null) labels[REVISION_HASH_LABEL] = action.revision
  const spec = structuredClone(template.spec ?? {}) as Obj
  spec.hostname = action.hostname
  spec.subdomain = action.subdomain
  const claimVolumes = Object.entries(action.claims).map(([name, claimName]) => ({name, persistentVolumeClaim: {claimName}}))
  const kept = ((spec.volumes ?? []) as Obj[]).filter((v) => !(v?.name in action.claims))
  if (claimVolumes.length + kept.length > 0) spec.volumes = [...claimVolumes, ...kept]
  return podManifest({generateName: `${set.metadata?.name ?? ''}-`, name: action.pod, namespace, labels, template, owner: action.ownerReference, spec})
}

/** CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity: the template with the planned labels, node affinity and tolerations. */
export function daemonPodObject(action: CreateDaemonPodAction, namespace: string, set: Obj): PodManifest {
  const template = (set.spec?.template ?? {}) as Obj
  const spec = structuredClone(template.spec ?? {}) as Obj
  spec.affinity = structuredClone(action.affinity)
  if (action.tolerations.length > 0) spec.tolerations = action.tolerations.map((t) => ({...t}))
  return podManifest({generateName: action.generateName, namespace, labels: {...action.labels}, template, owner: action.ownerReference, spec})
}

/** GetPodFromTemplate: the template's annotations and finalizers, our labels, the controller reference. */
function podManifest(p: {generateName: string; name?: string; namespace: string; labels: Record<string, string>; template: Obj; owner: OwnerReference; spec: unknown}): PodManifest {
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

/** The template a revision records (`data.spec.template` without `$patch`). */
export function templateOfRevision(revision: Obj): Obj {
  const t = revision.data?.spec?.template
  if (!t || typeof t !== 'object') return {}
  const {$patch: _, ...template} = t as Obj
  return template
}

/** The status as a StatefulSet or DaemonSet stores it (StatefulSetStatus, DaemonSetStatus). */
export function workloadStatusObject(kind: 'StatefulSet' | 'DaemonSet', view: Obj, before: Obj | undefined): Obj {
  const status: Obj = {...(before ?? {})}
  for (const [k, v] of Object.entries(view)) {
    if (v === undefined) continue
    // A StatefulSet's revision names that could not be computed here are left as they were.
    if (kind === 'StatefulSet' && (k === 'currentRevision' || k === 'updateRevision') && typeof v === 'string' && v.includes('<')) continue
    status[k] = v
  }
  return status
}
