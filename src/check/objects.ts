// Parsed objects → what the check rules look at: identity, selectors (as written, defaulted or
// generated, with the field each requirement came from), pod template labels, Services, HPAs.
// Reading here is tolerant: a field of the wrong type is simply not used (invalid-field reports it).
import type {Labels} from '../model/objects.js'
import {inventedUid} from '../sources/normalize.js'
import type {Path, RawObject, SourceObject} from '../sources/documents.js'
import {parseIgnore, IGNORE_ANNOTATION, type IgnoreEntry} from './ignore.js'
import {
  isEmptyLabelSelector,
  labelSelectorProblemsAt,
  labelSelectorRequirements,
  mapRequirements,
  mapSelectorProblemsAt,
  type SelectorProblemAt,
  type SourcedRequirement,
} from './selectors.js'

export type ControllerKind = 'ReplicationController' | 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job'

/** Kinds with a pod template but no selector of their own. */
type TemplateOnlyKind = 'CronJob' | 'PodTemplate'

/**
 * The selector as the API server would store it:
 *   invalid   — rejected by validation (problems say where);
 *   missing   — absent (or null), and nothing defaults it;
 *   empty     — present but selects everything ({} / no entries), nothing defaults it;
 *   ok        — requirements, `origin` telling whether they were written, defaulted from the
 *               template labels (RC, legacy apps versions) or generated (Job).
 */
export type SelectorState =
  | {state: 'invalid'; problems: SelectorProblemAt[]}
  | {state: 'missing'}
  | {state: 'empty'}
  | {state: 'ok'; requirements: SourcedRequirement[]; origin: 'written' | 'defaulted' | 'generated'}

export interface ControllerView {
  kind: ControllerKind
  selector: SelectorState
  /** The selector as written (for comparisons with a live object or a previous render). */
  rawSelector: unknown
  /** spec.template.metadata.labels as written (string values only); undefined without a template. */
  templateLabels?: Labels
  /** The labels pods get from the template, with what the API server adds (Job: uid and job-name). */
  podLabels: Labels
  /** spec.replicas as written (undefined when absent). */
  replicas: unknown
  /** Job: spec.manualSelector === true. */
  manualSelector: boolean
}

export interface ServiceView {
  /** spec.selector when it is a mapping of strings; undefined (or empty) when endpoints are managed by hand. */
  selector?: Labels
  selectorProblems: SelectorProblemAt[]
  type: string
}

export interface HpaView {
  target?: {apiVersion?: string; kind: string; name: string}
  minReplicas?: number
  maxReplicas?: number
}

export interface CheckObject {
  readonly src: SourceObject
  readonly apiVersion: string
  readonly kind: string
  /** The API group as written. */
  readonly group: string
  /** The group that identifies the resource (extensions Deployments are apps Deployments). */
  readonly resourceGroup: string
  readonly namespace: string
  /** Whether metadata.namespace was written (otherwise -n or "default" applies). */
  readonly explicitNamespace: boolean
  /** '' when missing or not a string. */
  readonly name: string
  readonly uid: string
  readonly annotations: Labels
  /** Owner references with controller: true. */
  readonly controllerRefs: ReadonlyArray<{apiVersion: string; kind: string; name: string}>
  readonly ignores: IgnoreEntry[]
  /** Problems of the kctl.io/ignore annotation (unknown rules, missing reasons). */
  readonly ignoreProblems: string[]
  controller?: ControllerView
  /** Labels of the pods this object stands for: its template's (with generated labels), or a Pod's own. */
  podLabels?: Labels
  /** Where those labels are written. */
  podLabelsPath?: Path
  service?: ServiceView
  hpa?: HpaView
}

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

function stringMap(v: unknown): Labels {
  if (!isMapping(v)) return {}
  const out: Record<string, string> = {}
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x
  return out
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}

/** Groups that served a kind before it moved (the object is the same resource). */
const MOVED: Record<string, Record<string, string>> = {
  extensions: {Deployment: 'apps', DaemonSet: 'apps', ReplicaSet: 'apps', NetworkPolicy: 'networking.k8s.io', Ingress: 'networking.k8s.io', PodSecurityPolicy: 'policy'},
}

export function resourceGroupOf(group: string, kind: string): string {
  return MOVED[group]?.[kind] ?? group
}

const CONTROLLER_GROUPS: Record<ControllerKind, readonly string[]> = {
  ReplicationController: [''],
  ReplicaSet: ['apps', 'extensions'],
  Deployment: ['apps', 'extensions'],
  StatefulSet: ['apps'],
  DaemonSet: ['apps', 'extensions'],
  Job: ['batch'],
}

/** extensions/v1beta1 and apps/v1beta1 defaulted a missing selector from the template labels. */
function defaultsSelectorFromTemplate(apiVersion: string): boolean {
  return apiVersion === 'extensions/v1beta1' || apiVersion === 'apps/v1beta1'
}

export function isControllerKind(kind: string, group: string): kind is ControllerKind {
  return (CONTROLLER_GROUPS as Record<string, readonly string[]>)[kind]?.includes(group) ?? false
}

/** Built-in kinds that live outside namespaces, by API group ('' is the core group). */
const CLUSTER_SCOPED: Record<string, readonly string[]> = {
  '': ['Namespace', 'Node', 'PersistentVolume', 'ComponentStatus'],
  'rbac.authorization.k8s.io': ['ClusterRole', 'ClusterRoleBinding'],
  'apiextensions.k8s.io': ['CustomResourceDefinition'],
  'apiregistration.k8s.io': ['APIService'],
  'admissionregistration.k8s.io': ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'],
  'storage.k8s.io': ['StorageClass', 'CSIDriver', 'CSINode', 'VolumeAttachment', 'VolumeAttributesClass'],
  'scheduling.k8s.io': ['PriorityClass'],
  'node.k8s.io': ['RuntimeClass'],
  'networking.k8s.io': ['IngressClass', 'IPAddress', 'ServiceCIDR'],
  'certificates.k8s.io': ['CertificateSigningRequest', 'ClusterTrustBundle'],
  'flowcontrol.apiserver.k8s.io': ['FlowSchema', 'PriorityLevelConfiguration'],
  'resource.k8s.io': ['DeviceClass', 'ResourceSlice'],
  'policy': ['PodSecurityPolicy'],
  'extensions': ['PodSecurityPolicy'],
}

/** Whether objects of this kind have no namespace (a metadata.namespace on them is ignored by the server). */
export function isClusterScoped(group: string, kind: string): boolean {
  return CLUSTER_SCOPED[group]?.includes(kind) ?? false
}

/** The identity duplicates are judged by: resource group, kind, namespace, name. */
export function identityOf(o: {resourceGroup: string; kind: string; namespace: string; name: string}): string {
  return `${o.resourceGroup}|${o.kind}|${o.namespace}|${o.name}`
}

/** Labels the API server adds to a Job's template when it generates the selector (docs/replicaset-controller.md §5.4.6). */
export const JOB_UID_LABEL = 'batch.kubernetes.io/controller-uid'
const JOB_LABELS = (uid: string, name: string): Labels => ({
  [JOB_UID_LABEL]: uid,
  'batch.kubernetes.io/job-name': name,
  'controller-uid': uid,
  'job-name': name,
})

export function readCheckObject(src: SourceObject, defaultNamespace: string): CheckObject {
  const raw = src.raw
  const apiVersion = src.apiVersion
  const kind = src.kind
  const group = groupOf(apiVersion)
  const meta = isMapping(raw.metadata) ? raw.metadata : {}
  const explicitNamespace = typeof meta.namespace === 'string' && meta.namespace !== ''
  const namespace = isClusterScoped(group, kind) ? '' : explicitNamespace ? (meta.namespace as string) : defaultNamespace
  const name = typeof meta.name === 'string' ? meta.name : ''
  const resourceGroup = resourceGroupOf(group, kind)
  const uid = typeof meta.uid === 'string' && meta.uid !== '' ? meta.uid : inventedUid(resourceGroup, kind, namespace, name)
  const annotations = stringMap(meta.annotations)
  const controllerRefs: Array<{apiVersion: string; kind: string; name: string}> = []
  if (Array.isArray(meta.ownerReferences)) {
    for (const r of meta.ownerReferences) {
      if (isMapping(r) && r.controller === true && typeof r.kind === 'string' && typeof r.name === 'string') {
        controllerRefs.push({apiVersion: typeof r.apiVersion === 'string' ? r.apiVersion : '', kind: r.kind, name: r.name})
      }
    }
  }
  const ignoreValue = annotations[IGNORE_ANNOTATION]
  const {entries, problems} = ignoreValue === undefined ? {entries: [], problems: []} : parseIgnore(ignoreValue)
  const obj: CheckObject = {
    src,
    apiVersion,
    kind,
    group,
    resourceGroup,
    namespace,
    explicitNamespace,
    name,
    uid,
    annotations,
    controllerRefs,
    ignores: entries,
    ignoreProblems: problems,
  }
  const spec = isMapping(raw.spec) ? raw.spec : undefined
  if (isControllerKind(kind, group)) {
    obj.controller = readController(kind, apiVersion, spec ?? {}, name, uid)
    obj.podLabels = obj.controller.podLabels
    obj.podLabelsPath = ['spec', 'template', 'metadata', 'labels']
  } else if ((kind as TemplateOnlyKind) === 'CronJob' && group === 'batch') {
    const jobSpec = isMapping(spec?.jobTemplate) && isMapping(spec.jobTemplate.spec) ? spec.jobTemplate.spec : undefined
    const template = jobSpec && isMapping(jobSpec.template) ? jobSpec.template : undefined
    if (template) {
      obj.podLabels = stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined)
      obj.podLabelsPath = ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels']
    }
  } else if ((kind as TemplateOnlyKind) === 'PodTemplate' && group === '') {
    const template = isMapping(raw.template) ? raw.template : undefined
    if (template) {
      obj.podLabels = stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined)
      obj.podLabelsPath = ['template', 'metadata', 'labels']
    }
  } else if (kind === 'Pod' && group === '') {
    obj.podLabels = stringMap(meta.labels)
    obj.podLabelsPath = ['metadata', 'labels']
  } else if (kind === 'Service' && group === '') {
    const selectorProblems = mapSelectorProblemsAt(spec?.selector, ['spec', 'selector'])
    obj.service = {
      selector: selectorProblems.length === 0 && isMapping(spec?.selector) ? (spec.selector as Labels) : undefined,
      selectorProblems,
      type: typeof spec?.type === 'string' ? spec.type : 'ClusterIP',
    }
  } else if (kind === 'HorizontalPodAutoscaler' && group === 'autoscaling') {
    const ref = isMapping(spec?.scaleTargetRef) ? spec.scaleTargetRef : undefined
    obj.hpa = {
      target:
        ref && typeof ref.kind === 'string' && typeof ref.name === 'string'
          ? {kind: ref.kind, name: ref.name, apiVersion: typeof ref.apiVersion === 'string' ? ref.apiVersion : undefined}
          : undefined,
      minReplicas: typeof spec?.minReplicas === 'number' ? spec.minReplicas : undefined,
      maxReplicas: typeof spec?.maxReplicas === 'number' ? spec.maxReplicas : undefined,
    }
  }
  return obj
}

function readController(kind: ControllerKind, apiVersion: string, spec: RawObject, name: string, uid: string): ControllerView {
  const template = isMapping(spec.template) ? spec.template : undefined
  const templateLabels = template ? stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined) : undefined
  const rawSelector = spec.selector
  const at: Path = ['spec', 'selector']
  const manualSelector = kind === 'Job' && spec.manualSelector === true
  let podLabels: Labels = templateLabels ?? {}
  let selector: SelectorState

  if (kind === 'ReplicationController') {
    const problems = mapSelectorProblemsAt(rawSelector, at)
    if (problems.length > 0) selector = {state: 'invalid', problems}
    else if (isMapping(rawSelector) && Object.keys(rawSelector).length > 0) {
      selector = {state: 'ok', requirements: mapRequirements(rawSelector as Labels, at), origin: 'written'}
    } else if (templateLabels && Object.keys(templateLabels).length > 0) {
      // SetDefaults_ReplicationController (§5.5).
      selector = {state: 'ok', requirements: mapRequirements(templateLabels, ['spec', 'template', 'metadata', 'labels']), origin: 'defaulted'}
    } else selector = rawSelector === undefined || rawSelector === null ? {state: 'missing'} : {state: 'empty'}
  } else {
    const problems = labelSelectorProblemsAt(rawSelector, at)
    if (problems.length > 0) selector = {state: 'invalid', problems}
    else if (kind === 'Job' && !manualSelector) {
      // generateSelector (pkg/registry/batch/job/strategy.go): the uid label is added to the
      // selector, uid and job-name labels to the template (labels written by hand are kept).
      const written = isMapping(rawSelector) ? labelSelectorRequirements(rawSelector, at) : []
      const generated: SourcedRequirement = {key: JOB_UID_LABEL, operator: 'In', values: [uid], path: isMapping(rawSelector) ? at : ['spec'], atKey: true}
      selector = {
        state: 'ok',
        requirements: written.some((r) => r.key === JOB_UID_LABEL && r.operator === 'In') ? written : [...written, generated],
        origin: written.length > 0 ? 'written' : 'generated',
      }
      podLabels = {...JOB_LABELS(uid, name), ...templateLabels}
    } else if (rawSelector === undefined || rawSelector === null) {
      selector =
        defaultsSelectorFromTemplate(apiVersion) && templateLabels && Object.keys(templateLabels).length > 0
          ? {state: 'ok', requirements: mapRequirements(templateLabels, ['spec', 'template', 'metadata', 'labels']), origin: 'defaulted'}
          : {state: 'missing'}
    } else if (isEmptyLabelSelector(rawSelector as RawObject)) {
      selector = {state: 'empty'}
    } else {
      selector = {state: 'ok', requirements: labelSelectorRequirements(rawSelector as RawObject, at), origin: 'written'}
    }
  }
  return {kind, selector, rawSelector, templateLabels, podLabels, replicas: spec.replicas ?? undefined, manualSelector}
}
