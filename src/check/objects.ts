// What the check rules look at in a parsed object: identity, selectors (as written, defaulted or
// generated, with the field each requirement came from), pod template labels, Services, HPAs.
// Reading is tolerant: a field of the wrong type is simply not used (invalid-field reports it).
// read.ts reads objects, asking each controller's check part (part.ts) for its kinds; this module
// holds the views and the reading helpers those parts share, and imports no controller.
import type {Labels} from '../model/objects.js'
import type {Path, RawObject, SourceObject} from '../sources/documents.js'
import type {IgnoreEntry} from './ignore.js'
import type {CheckedKind} from './part.js'
import {
  isEmptyLabelSelector,
  labelSelectorProblemsAt,
  labelSelectorRequirements,
  mapRequirements,
  type SelectorProblemAt,
  type SourcedRequirement,
} from './selectors.js'

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
  kind: string
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
  /** The fields of spec the rules over several objects read, as written; undefined when spec is not a mapping. */
  spec?: {ports: unknown; clusterIP: unknown; type: unknown; externalTrafficPolicy: unknown; publishNotReadyAddresses: unknown}
}

export interface HpaView {
  target?: {apiVersion?: string; kind: string; name: string}
  minReplicas?: number
  maxReplicas?: number
  /** The metrics it computes as a utilization of the pods' requests (hpa-missing-requests). */
  utilization: ReadonlyArray<{resource: string; container?: string; path: Path; atKey: boolean}>
}

/**
 * What the rules over several objects read of one container of a pod template (or of a Pod): the
 * values as written, kept apart so that the parsed object need not be kept to the end of a run.
 */
export interface ContainerView {
  /** The container was a mapping (the other fields are then read from it). */
  mapping: boolean
  name: unknown
  resources: unknown
  ports: unknown
  restartPolicy: unknown
  /** readinessProbe is a mapping. */
  readinessProbe: boolean
}

/** The pod spec of a template (or of a Pod), as the rules over several objects read it (PodSpecView). */
export interface PodSpecView {
  containers: ContainerView[]
  initContainers: ContainerView[]
  /** Pod-level resources as written. */
  resources: unknown
}

/** What a pod spec without such a list has (shared, never written to). */
const NO_CONTAINERS: ContainerView[] = []

const containerViews = (v: unknown): ContainerView[] =>
  Array.isArray(v) && v.length > 0
    ? v.map((c): ContainerView =>
        isMapping(c)
          ? {mapping: true, name: c.name, resources: c.resources, ports: c.ports, restartPolicy: c.restartPolicy, readinessProbe: isMapping(c.readinessProbe)}
          : {mapping: false, name: undefined, resources: undefined, ports: undefined, restartPolicy: undefined, readinessProbe: false},
      )
    : NO_CONTAINERS

/**
 * The first container of a pod spec that `test` accepts, in the order FindPort and the replica
 * calculator walk them: every container, then the sidecars (init containers that restart Always);
 * with the list it is in and its place there.
 */
export function findContainer(spec: PodSpecView, test: (c: ContainerView) => boolean): {c: ContainerView; list: 'containers' | 'initContainers'; index: number} | undefined {
  const {containers, initContainers} = spec
  for (let i = 0; i < containers.length; i++) if (test(containers[i])) return {c: containers[i], list: 'containers', index: i}
  for (let i = 0; i < initContainers.length; i++) {
    const c = initContainers[i]
    if (c.restartPolicy === 'Always' && test(c)) return {c, list: 'initContainers', index: i}
  }
  return undefined
}

/**
 * The pod spec beside the pod labels at `labelsPath` of a parsed object: that path with its last
 * two steps (`metadata`, `labels`) replaced by `spec` (only mappings are stepped into); undefined
 * when it is not a mapping.
 */
export function readPodSpec(raw: RawObject, labelsPath: Path): PodSpecView | undefined {
  let v: unknown = raw
  for (let i = 0; i < labelsPath.length - 2; i++) v = isMapping(v) ? v[labelsPath[i] as string] : undefined
  v = isMapping(v) ? v.spec : undefined
  if (!isMapping(v)) return undefined
  return {containers: containerViews(v.containers), initContainers: containerViews(v.initContainers), resources: v.resources}
}

/** An object as the check rules read it. Some of its fields are getters (read.ts ReadObject): never copy one with a spread, which leaves them out. */
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
  /** Owner references with controller: true. */
  readonly controllerRefs: ReadonlyArray<{apiVersion: string; kind: string; name: string}>
  readonly ignores: IgnoreEntry[]
  /** Problems of the kctl.io/ignore annotation (unknown rules, missing reasons). */
  readonly ignoreProblems: string[]
  /** The check part of its kind's controller (null: none), when known at reading (controllers.ts checkedKind). */
  readonly part?: CheckedKind | null
  controller?: ControllerView
  /** Labels of the pods this object stands for: its template's (with generated labels), or a Pod's own. */
  podLabels?: Labels
  /** Where those labels are written. */
  podLabelsPath?: Path
  /** The pod spec beside those labels (podLabelsPath's template, or a Pod's spec), when it is a mapping. */
  podSpec?: PodSpecView
  service?: ServiceView
  hpa?: HpaView
}

/** What the objects replace, for the rules that compare them (immutable fields). */
export interface Previous {
  /** What the objects are: the live cluster, or a directory of an earlier render. */
  source: {type: 'cluster'; context: string} | {type: 'directory'; path: string}
  /** identityOf(object) → the earlier object. */
  objects: ReadonlyMap<string, CheckObject>
}

export const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

export function stringMap(v: unknown): Labels {
  if (!isMapping(v)) return {}
  const out: Record<string, string> = {}
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue
    const x = v[k]
    if (typeof x === 'string') out[k] = x
  }
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

/** extensions/v1beta1 and apps/v1beta1 defaulted a missing selector from the template labels. */
function defaultsSelectorFromTemplate(apiVersion: string): boolean {
  return apiVersion === 'extensions/v1beta1' || apiVersion === 'apps/v1beta1'
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
  return CLUSTER_SCOPED_KINDS.get(group)?.has(kind) ?? false
}

const CLUSTER_SCOPED_KINDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries(CLUSTER_SCOPED).map(([group, kinds]) => [group, new Set(kinds)]))

/** The identity duplicates are judged by: resource group, kind, namespace, name. */
export function identityOf(o: {resourceGroup: string; kind: string; namespace: string; name: string}): string {
  return `${o.resourceGroup}|${o.kind}|${o.namespace}|${o.name}`
}


/** A kind's own reading of its selector, in place of the LabelSelector one (readControllerView). */
export interface SelectorReading {
  selector: SelectorState
  /** The labels its pods get, when the API server adds some to the template's. */
  podLabels?: Labels
}

export interface OwnSelector {
  /** undefined: read it as a LabelSelector. */
  read(rawSelector: unknown, templateLabels: Labels | undefined, at: Path): SelectorReading | undefined
  /** Job: spec.manualSelector === true. */
  manualSelector?: boolean
}

/**
 * A workload's controller view: its pod template's labels and its selector as the API server would
 * store it — an apps/v1 LabelSelector unless the kind reads its own (`own`: a ReplicationController's
 * map, a Job's generated selector).
 */
export function readWorkload(obj: CheckObject, spec: RawObject | undefined, own?: OwnSelector): void {
  obj.controller = readControllerView(obj.kind, obj.apiVersion, spec ?? {}, own)
  obj.podLabels = obj.controller.podLabels
  obj.podLabelsPath = TEMPLATE_LABELS
}

const TEMPLATE_LABELS: Path = ['spec', 'template', 'metadata', 'labels']

function readControllerView(kind: string, apiVersion: string, spec: RawObject, own: OwnSelector | undefined): ControllerView {
  const template = isMapping(spec.template) ? spec.template : undefined
  const templateLabels = template ? stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined) : undefined
  const rawSelector = spec.selector
  const at: Path = ['spec', 'selector']
  const manualSelector = own?.manualSelector ?? false
  let podLabels: Labels = templateLabels ?? {}
  let selector: SelectorState

  const reading = own?.read(rawSelector, templateLabels, at)
  if (reading) {
    selector = reading.selector
    if (reading.podLabels) podLabels = reading.podLabels
  } else {
    const problems = labelSelectorProblemsAt(rawSelector, at)
    if (problems.length > 0) selector = {state: 'invalid', problems}
    else if (rawSelector === undefined || rawSelector === null) {
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
