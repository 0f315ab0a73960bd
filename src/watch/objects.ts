// API objects → what the watch cache keeps: the Normalizer's PodView / Workload (the one
// normalizer, validation and defaulting included), cut down to the fields planning reads and
// frozen. A cached pod is a small record of its own strings (name, uid, resourceVersion) and
// shared, frozen values for everything pods repeat (namespace, node, phase, labels, owner
// reference, container statuses, timestamps), so 150,000 pods fit in well under 1 KB each.
//
// A pod keeps what the endpoint controllers read too: its IPs, hostname, subdomain and the named
// ports of its containers and sidecars.
//
// Dropped: managedFields and every field no rule reads — annotations other than
// controller.kubernetes.io/pod-deletion-cost, owner references other than the controller's, pod
// conditions other than Ready, container statuses other than name and restartCount, the pod
// ReplicationController template's spec (watch never creates pods), a ReplicationController's
// annotations. A Job's pod, and a pod no controller owns (a Job may adopt it), keep what the Job
// controller reads besides: finalizers, the batch.kubernetes.io annotations, every condition, and
// how each container ended. A ReplicaSet keeps its annotations and its template as the server stores it, and a
// Deployment is kept whole but for managedFields: the Deployment planner compares templates and
// reads the revision annotations.
import type {PodBatchFields} from '../controllers/job/model.js'
import type {ContainerStatusView, DeploymentView, Labels, OwnerReference, PodTemplateView, PodView, Workload} from '../model/objects.js'
import type {ContainerPortView, PodNetworkView} from '../controllers/service/model.js'
import {POD_DELETION_COST} from '../reconcile/pods.js'
import {readDocuments, SourceFile} from '../sources/documents.js'
import {formatPath, Normalizer} from '../sources/normalize.js'
import type {ObjectProblem} from './informer.js'
import type {RawObject} from './reflector.js'

export type WatchedKind = 'Pod' | 'ReplicaSet' | 'ReplicationController' | 'Deployment'

/**
 * The kinds a StatefulSet's, DaemonSet's, Job's, CronJob's or Service's sync reads besides pods,
 * kept whole but for managedFields.
 */
export type WorkloadKind = 'StatefulSet' | 'DaemonSet' | 'ControllerRevision' | 'PersistentVolumeClaim' | 'Node' | 'Job' | 'CronJob' | 'Service' | 'EndpointSlice' | 'Endpoints'

export const API_VERSIONS: Record<WatchedKind, string> = {Pod: 'v1', ReplicaSet: 'apps/v1', ReplicationController: 'v1', Deployment: 'apps/v1'}

const EMPTY: Labels = Object.freeze({})
const NONE: readonly never[] = Object.freeze([])

/** Shared, frozen copies of values many objects repeat. Forgets everything past `limit` entries. */
export class Interner {
  private strings = new Map<string, string>()
  private values = new Map<string, unknown>()
  constructor(private readonly limit = 500_000) {}

  string(s: string): string
  string(s: string | undefined): string | undefined
  string(s: string | undefined): string | undefined {
    if (s === undefined) return undefined
    const known = this.strings.get(s)
    if (known !== undefined) return known
    if (this.strings.size >= this.limit) this.strings = new Map()
    this.strings.set(s, s)
    return s
  }

  /** The shared value for `key`, made by `make` (then frozen) the first time. */
  value<V>(key: string, make: () => V): V {
    const known = this.values.get(key)
    if (known !== undefined) return known as V
    if (this.values.size >= this.limit) this.values = new Map()
    const v = deepFreeze(make())
    this.values.set(key, v)
    return v
  }

  labels(map: Labels): Labels {
    let key = ''
    for (const k in map) key += `${k}\u0000${map[k]}\u0000`
    if (key === '') return EMPTY
    return this.value(`L${key}`, () => {
      const out: Record<string, string> = {}
      for (const k in map) out[this.string(k)] = this.string(map[k])
      return out
    })
  }
}

/** A pod as the watch cache keeps it. */
class CachedPod implements PodView {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly uid: string,
    readonly resourceVersion: string,
    readonly generation: number,
    readonly labels: Labels,
    readonly annotations: Labels,
    readonly ownerReferences: readonly OwnerReference[],
    readonly creationTimestamp: string | undefined,
    readonly deletionTimestamp: string | undefined,
    readonly nodeName: string,
    readonly phase: string,
    readonly ready: boolean,
    readonly readySince: string | undefined,
    readonly containerStatuses: readonly ContainerStatusView[],
    readonly sidecarStatuses: readonly ContainerStatusView[],
    /** What the DaemonSet and StatefulSet controllers read of the spec (absent when not set). */
    readonly affinityNode?: string,
    readonly claimVolumes?: Readonly<Record<string, string>>,
    /** What the endpoint controllers read: IPs, hostname and subdomain, named ports (absent when none). */
    readonly network?: PodNetworkView,
    /** What the Job controller reads: of a Job's pods and of orphans (which a Job may adopt). */
    readonly batch?: PodBatchFields,
  ) {
    Object.freeze(this)
  }
}

export interface NormalizeResult<T> {
  objects: T[]
  problems: ObjectProblem[]
}

/**
 * Normalizes raw objects of one kind (as the API server serves them: list items may lack kind and
 * apiVersion) through the Normalizer, and returns what the cache keeps.
 */
export function normalizeObjects(kind: 'Pod', raws: readonly RawObject[], interner: Interner): NormalizeResult<PodView>
export function normalizeObjects(kind: 'ReplicaSet' | 'ReplicationController', raws: readonly RawObject[], interner: Interner): NormalizeResult<Workload>
export function normalizeObjects(kind: 'Deployment', raws: readonly RawObject[], interner: Interner): NormalizeResult<DeploymentView>
export function normalizeObjects(kind: WatchedKind, raws: readonly RawObject[], interner: Interner): NormalizeResult<PodView | Workload | DeploymentView> {
  const stripped = raws.map((raw) => (kind === 'Pod' ? stripPod(raw) : kind === 'Deployment' ? stripDeployment(raw) : stripWorkload(kind, raw)))
  const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: stripped})
  const file = new SourceFile(`the API server's ${kind}`, undefined, 'json', Buffer.from(text))
  // Every object keeps its own namespace (-n is applied by what is listed), and -l is applied by
  // the planner, which needs the ReplicaSets it filters out as siblings.
  // Templates read from the API server are defaulted already (what pod-template-hash is computed from).
  const normalizer = new Normalizer({paths: [], allNamespaces: true, serverDefaulted: true})
  for (const obj of readDocuments([file])) normalizer.add(obj)
  const {snapshot, problems} = normalizer.finish()
  const objects: Array<PodView | Workload | DeploymentView> =
    kind === 'Pod'
      ? snapshot.pods.map((p) => compactPod(p, interner))
      : kind === 'Deployment'
        ? (snapshot.deployments ?? []).map((d) => deepFreeze({...d}))
        : [...snapshot.workloads].map((w) => compactWorkload(w, interner))
  return {
    objects,
    problems: problems.map((p) => ({
      namespace: p.namespace,
      name: p.name,
      message: `${p.kind}: ${p.path.length > 0 ? `${formatPath(p.path)}: ` : ''}${p.message}`,
    })),
  }
}

function compactPod(p: PodView, interner: Interner): PodView {
  const ref = p.ownerReferences.find((r) => r.controller === true)
  const owners = ref
    ? interner.value(`O${ref.apiVersion}\u0000${ref.kind}\u0000${ref.name}\u0000${ref.uid}\u0000${ref.blockOwnerDeletion}`, () => [{...ref}])
    : (NONE as readonly OwnerReference[])
  const cost = p.annotations[POD_DELETION_COST]
  const annotations = p.batch ? deepFreeze({...p.annotations}) : cost === undefined ? EMPTY : interner.value(`A${cost}`, () => ({[POD_DELETION_COST]: cost}))
  return new CachedPod(
    interner.string(p.namespace),
    p.name,
    p.uid,
    p.resourceVersion,
    p.generation,
    interner.labels(p.labels),
    annotations,
    owners,
    interner.string(p.creationTimestamp),
    interner.string(p.deletionTimestamp),
    interner.string(p.nodeName),
    interner.string(p.phase),
    p.ready,
    interner.string(p.readySince),
    statuses(p.containerStatuses, interner),
    statuses(p.sidecarStatuses, interner),
    p.affinityNode === undefined ? undefined : interner.string(p.affinityNode),
    p.claimVolumes === undefined ? undefined : interner.value(`V${JSON.stringify(p.claimVolumes)}`, () => ({...p.claimVolumes})),
    p.network === undefined ? undefined : compactNetwork(p.network, interner),
    p.batch === undefined ? undefined : deepFreeze({...p.batch}),
  )
}

/** A pod's IPs are its own; its hostname, subdomain and ports are shared with its siblings'. */
function compactNetwork(n: PodNetworkView, interner: Interner): PodNetworkView {
  const ports = n.ports.length === 0 ? (NONE as readonly ContainerPortView[]) : interner.value(`P${JSON.stringify(n.ports)}`, () => n.ports.map((p) => ({...p})))
  return Object.freeze({podIPs: Object.freeze([...n.podIPs]), hostname: interner.string(n.hostname), subdomain: interner.string(n.subdomain), ports})
}

function statuses(list: readonly ContainerStatusView[], interner: Interner): readonly ContainerStatusView[] {
  if (list.length === 0) return NONE as readonly ContainerStatusView[]
  let key = 'C'
  for (const s of list) key += `${s.name}\u0000${s.restartCount}\u0000`
  return interner.value(key, () => list.map((s) => ({name: s.name, restartCount: s.restartCount})))
}

function compactWorkload(w: Workload, interner: Interner): Workload {
  const replicaSet = w.kind === 'ReplicaSet'
  const template: PodTemplateView = {
    labels: interner.labels(w.template.labels),
    annotations: interner.labels(w.template.annotations),
    finalizers: [...w.template.finalizers],
    spec: EMPTY,
  }
  const out: Workload = {
    kind: w.kind,
    apiVersion: w.apiVersion,
    namespace: interner.string(w.namespace),
    name: w.name,
    uid: w.uid,
    resourceVersion: w.resourceVersion,
    generation: w.generation,
    labels: interner.labels(w.labels),
    annotations: replicaSet ? interner.labels(w.annotations) : EMPTY,
    ownerReferences: w.ownerReferences.map((r) => ({...r})),
    creationTimestamp: w.creationTimestamp,
    deletionTimestamp: w.deletionTimestamp,
    replicas: w.replicas,
    minReadySeconds: w.minReadySeconds,
    selector: w.selector,
    template,
    status: {...w.status, conditions: w.status.conditions.map((c) => ({...c}))},
  }
  if (replicaSet && w.rawTemplate !== undefined) out.rawTemplate = w.rawTemplate
  if (w.selectorDefaulted !== undefined) out.selectorDefaulted = w.selectorDefaulted
  if (w.deletionTimestamp === undefined) delete out.deletionTimestamp
  if (w.creationTimestamp === undefined) delete out.creationTimestamp
  return deepFreeze(out)
}

const DEFAULT_API_VERSIONS: Record<WorkloadKind, string> = {
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ControllerRevision: 'apps/v1',
  PersistentVolumeClaim: 'v1',
  Node: 'v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Service: 'v1',
  EndpointSlice: 'discovery.k8s.io/v1',
  Endpoints: 'v1',
}

/** StatefulSets, DaemonSets, ControllerRevisions, claims, Nodes, Jobs, CronJobs, Services, EndpointSlices and Endpoints through the Normalizer, frozen. */
export function normalizeWorkloadObjects<T>(kind: WorkloadKind, raws: readonly RawObject[]): NormalizeResult<T> {
  const items = raws.map((raw) => {
    const {managedFields: _, ...metadata} = isMap(raw.metadata) ? raw.metadata : {}
    return {...raw, apiVersion: raw.apiVersion ?? DEFAULT_API_VERSIONS[kind], kind: raw.kind ?? kind, metadata}
  })
  const file = new SourceFile(`the API server's ${kind}`, undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items})))
  const normalizer = new Normalizer({paths: [], allNamespaces: true, serverDefaulted: true})
  for (const obj of readDocuments([file])) normalizer.add(obj)
  const {snapshot, problems} = normalizer.finish()
  const objects = {
    StatefulSet: snapshot.statefulSets,
    DaemonSet: snapshot.daemonSets,
    ControllerRevision: snapshot.controllerRevisions,
    PersistentVolumeClaim: snapshot.claims,
    Node: snapshot.nodes,
    Job: snapshot.jobs,
    CronJob: snapshot.cronJobs,
    Service: snapshot.services,
    EndpointSlice: snapshot.endpointSlices,
    Endpoints: snapshot.endpoints,
  }[kind] ?? []
  return {
    objects: objects.map((o) => deepFreeze({...o}) as T),
    problems: problems.map((p) => ({namespace: p.namespace, name: p.name, message: `${p.kind}: ${p.path.length > 0 ? `${formatPath(p.path)}: ` : ''}${p.message}`})),
  }
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

// --- stripping raw objects to the fields the Normalizer reads -----------------------------------

const isMap = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

function pick(from: unknown, keys: readonly string[]): RawObject | undefined {
  if (!isMap(from)) return from === undefined ? undefined : (from as RawObject)
  const out: RawObject = {}
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k]
  return out
}

const META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'labels', 'creationTimestamp', 'deletionTimestamp']

/** Metadata the rules read: with one annotation (`keepAnnotation`), every one (true), or none. */
function stripMeta(meta: unknown, keepAnnotation?: string | true): unknown {
  if (!isMap(meta)) return meta
  const out = pick(meta, META)!
  if (Array.isArray(meta.ownerReferences)) out.ownerReferences = meta.ownerReferences
  if (keepAnnotation === true && meta.annotations !== undefined) out.annotations = meta.annotations
  else if (typeof keepAnnotation === 'string' && isMap(meta.annotations) && meta.annotations[keepAnnotation] !== undefined) {
    out.annotations = {[keepAnnotation]: meta.annotations[keepAnnotation]}
  }
  return out
}

function stripDeployment(raw: RawObject): RawObject {
  const out: RawObject = {...raw, apiVersion: raw.apiVersion ?? API_VERSIONS.Deployment, kind: raw.kind ?? 'Deployment', metadata: stripMeta(raw.metadata, true)}
  if (isMap(raw.metadata) && raw.metadata.finalizers !== undefined) (out.metadata as RawObject).finalizers = raw.metadata.finalizers
  return out
}

/** A Job's pod, or an orphan a Job may adopt: the Job controller reads more of it (podBatchFields). */
function readByJobController(meta: unknown): boolean {
  const refs = isMap(meta) && Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isMap) : []
  const owner = refs.find((r) => r.controller === true)
  return owner === undefined || owner.kind === 'Job'
}

/** The metadata and status a Job's sync reads of a pod: finalizers, the batch annotations, every condition, how containers ended. */
function stripBatchPod(raw: RawObject, out: RawObject): RawObject {
  const meta = raw.metadata as RawObject
  const m = out.metadata as RawObject
  if (meta.finalizers !== undefined) m.finalizers = meta.finalizers
  if (meta.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = meta.deletionGracePeriodSeconds
  if (isMap(meta.annotations)) {
    const kept = Object.entries(meta.annotations).filter(([k]) => k.startsWith('batch.kubernetes.io/') || k === POD_DELETION_COST)
    if (kept.length > 0) m.annotations = Object.fromEntries(kept)
  }
  const status = raw.status
  if (isMap(status) && isMap(out.status)) {
    const s = out.status
    if (Array.isArray(status.conditions)) s.conditions = status.conditions.map((c) => pick(c, ['type', 'status', 'lastTransitionTime']))
    for (const key of ['containerStatuses', 'initContainerStatuses']) {
      const v = status[key]
      if (!Array.isArray(v)) continue
      s[key] = v.map((c) => {
        const kept = pick(c, ['name', 'restartCount'])!
        const ended = isMap(c) && isMap(c.state) && isMap(c.state.terminated) ? c.state.terminated : undefined
        kept.state = ended ? {terminated: pick(ended, ['exitCode', 'finishedAt'])} : {}
        return kept
      })
    }
  }
  return out
}

function stripPod(raw: RawObject): RawObject {
  const out = stripOtherPod(raw)
  return isMap(raw.metadata) && readByJobController(raw.metadata) ? stripBatchPod(raw, out) : out
}

function stripOtherPod(raw: RawObject): RawObject {
  const out: RawObject = {apiVersion: raw.apiVersion ?? 'v1', kind: raw.kind ?? 'Pod', metadata: stripMeta(raw.metadata, POD_DELETION_COST)}
  const spec = raw.spec
  if (isMap(spec)) {
    const s: RawObject = {}
    if (spec.nodeName !== undefined) s.nodeName = spec.nodeName
    // What the endpoint controllers read: the pod's DNS name parts and its named ports.
    for (const key of ['hostname', 'subdomain']) if (spec[key] !== undefined) s[key] = spec[key]
    if (Array.isArray(spec.containers)) s.containers = spec.containers.map((c) => pick(c, ['name', 'ports']))
    // The DaemonSet's node (its required node affinity) and the StatefulSet's claims.
    const required = isMap(spec.affinity) && isMap(spec.affinity.nodeAffinity) ? spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined
    if (required !== undefined) s.affinity = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: required}}
    if (Array.isArray(spec.volumes)) {
      const claims = spec.volumes.filter((v) => isMap(v) && v.persistentVolumeClaim !== undefined)
      if (claims.length > 0) s.volumes = claims
    }
    if (Array.isArray(spec.initContainers)) s.initContainers = spec.initContainers.map((c) => pick(c, ['name', 'restartPolicy', 'ports']))
    out.spec = s
  } else if (spec !== undefined) out.spec = spec
  const status = raw.status
  if (isMap(status)) {
    const s: RawObject = {}
    if (status.phase !== undefined) s.phase = status.phase
    for (const key of ['podIP', 'podIPs']) if (status[key] !== undefined) s[key] = status[key]
    if (Array.isArray(status.conditions)) s.conditions = status.conditions.filter((c) => !isMap(c) || c.type === 'Ready').map((c) => pick(c, ['type', 'status', 'lastTransitionTime']))
    else if (status.conditions !== undefined) s.conditions = status.conditions
    for (const key of ['containerStatuses', 'initContainerStatuses']) {
      const v = status[key]
      if (Array.isArray(v)) s[key] = v.map((c) => pick(c, ['name', 'restartCount']))
      else if (v !== undefined) s[key] = v
    }
    out.status = s
  } else if (status !== undefined) out.status = status
  return out
}

function stripWorkload(kind: WatchedKind, raw: RawObject): RawObject {
  const out: RawObject = {apiVersion: raw.apiVersion ?? API_VERSIONS[kind], kind: raw.kind ?? kind, metadata: stripMeta(raw.metadata, kind === 'ReplicaSet' || undefined)}
  const spec = raw.spec
  if (isMap(spec)) {
    const s = pick(spec, ['replicas', 'minReadySeconds', 'selector'])!
    const t = spec.template
    if (isMap(t) && kind !== 'ReplicaSet') s.template = {metadata: pick(t.metadata, ['labels', 'annotations', 'finalizers'])}
    else if (t !== undefined) s.template = t
    out.spec = s
  } else if (spec !== undefined) out.spec = spec
  if (raw.status !== undefined) out.status = raw.status
  return out
}
