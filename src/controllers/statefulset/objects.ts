// The request bodies of the StatefulSet controller's creates, built from the plan's action and the
// controller as read now (whose resourceVersion is the plan's, so its template is the one planned
// from); what it shares with the DaemonSet controller is in apply/revisioned-objects.ts.
import type {CreateClaimAction, CreateStatefulPodAction} from './model.js'
import {REVISION_HASH_LABEL} from '../../reconcile/revisions.js'
import {POD_INDEX_LABEL, POD_NAME_LABEL} from './sync.js'
import type {PodManifest, SideObject} from '../../apply/pod-control.js'
import {podManifest, setStatusObject} from '../../apply/revisioned-objects.js'

type Obj = Record<string, any>

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

/** The template a revision records (`data.spec.template` without `$patch`). */
export function templateOfRevision(revision: Obj): Obj {
  const t = revision.data?.spec?.template
  if (!t || typeof t !== 'object') return {}
  const {$patch: _, ...template} = t as Obj
  return template
}

/** The status as a StatefulSet stores it (StatefulSetStatus). */
export function statefulSetStatusObject(view: Obj, before: Obj | undefined): Obj {
  // A StatefulSet's revision names that could not be computed here are left as they were.
  return setStatusObject(view, before, (k, v) => (k === 'currentRevision' || k === 'updateRevision') && typeof v === 'string' && v.includes('<'))
}
