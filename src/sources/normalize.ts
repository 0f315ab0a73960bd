// Parsed objects → the Snapshot the planner reads, the way the API server would have stored them:
// validated (what it would reject is an error here, pointing at the field), and defaulted
// (pkg/apis/apps/v1/defaults.go, pkg/apis/core/v1/defaults.go). ReplicationControllers are turned
// into the ReplicaSet shape once, here (pkg/controller/replication/conversion.go).
import {createHash} from 'node:crypto'
import {isDeepStrictEqual} from 'node:util'
import {UserError} from '../errors.js'
import type {ContainerStatusView, ControllerRevisionView, DeploymentCondition, DeploymentStatusView, DeploymentStrategy, DeploymentView, Labels, LabelSelector, LabelSelectorRequirement, NodeView, ObjectMeta, Origin, OwnerReference, PodTemplateView, PodView, ReplicaSetStatusView, SelectorOperator, Snapshot, Workload, WorkloadCondition, WorkloadKind} from '../model/objects.js'
import {compileLabelSelector, labelKeyProblem, labelSelectorProblems, labelValueProblem, parseSelectorString, SelectorError, selectorMatches, type CompiledSelector} from '../reconcile/selector.js'
import type {CronJobView} from '../controllers/cronjob/model.js'
import type {JobView, PodBatchFields} from '../controllers/job/model.js'
import type {ClaimView, StatefulSetView} from '../controllers/statefulset/model.js'
import type {DaemonSetView} from '../controllers/daemonset/model.js'
import type {EndpointSliceView, EndpointsView, PodNetworkView, ServiceView} from '../controllers/service/model.js'
import type {Locator, Path, RawObject, SourceObject} from './documents.js'
import {podBatchFields, readCronJob, readJob} from '../controllers/job/read.js'
import {readEndpointSlice, readEndpoints, readPodNetwork, readService} from '../controllers/service/read.js'
import {type FieldReaders, podWorkloadFields, readDaemonSet, readNode, readStatefulSet} from '../controllers/statefulset/read.js'

export interface NormalizeOptions {
  /** -f values, as given: recorded in snapshot.source. */
  paths: string[]
  /** -n: the namespace of objects that name none, and (without allNamespaces) the only one kept. */
  namespace?: string
  allNamespaces?: boolean
  /** -l: only controllers whose own labels match (pods are all kept, for claiming). */
  selector?: string
  /** The objects come from the API server: already defaulted (pod templates included). */
  serverDefaulted?: boolean
}

/** Something the API server would have refused, at a field of an object. */
export interface Problem {
  readonly path: Path
  readonly message: string
  readonly hint?: string
  readonly kind: string
  readonly namespace?: string
  readonly name?: string
  /** The object's position in the input (SourceObject.ordinal): problems come in this order. */
  readonly ordinal: number
  /** The field's position (computed on demand: it reads the file again). */
  origin(): Origin
}

/** `spec.selector.matchExpressions[0].operator`, `metadata.labels["app.kubernetes.io/name"]`. */
export function formatPath(path: Path): string {
  let out = ''
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(step)) out += out === '' ? step : `.${step}`
    else out += `[${JSON.stringify(step)}]`
  }
  return out
}

/** The one line for a problem, as a UserError. */
export function problemError(problem: Problem, more = 0): UserError {
  const where = problem.path.length > 0 ? `${formatPath(problem.path)}: ` : ''
  const extra = more > 0 ? `${more} more problem${more === 1 ? '' : 's'} in the input` : ''
  const hint = [problem.hint, extra].filter(Boolean).join('; ') || undefined
  return new UserError(`${where}${problem.message}`, {origin: problem.origin(), hint})
}

// ---------------------------------------------------------------------------------------------
// Value checks. Go's JSON decoding decides what is accepted: a field of type int32 takes a JSON
// number with an integer value in range (YAML `3` and `3.0` both qualify), a string field takes
// only a string, a map[string]string only string values.

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  if (typeof v === 'string') return JSON.stringify(v)
  return String(v)
}

function typeHint(v: unknown): string | undefined {
  if (typeof v === 'boolean') return 'YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value'
  if (typeof v === 'number') return 'quote the value to make it a string'
  return undefined
}

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const INT32_MAX = 2147483647

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const d2 = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48
const isDigits = (s: string, from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** The usual `2026-11-22T10:00:00Z`, checked without a regular expression (it is on every pod). */
function isPlainUtcTime(s: string): boolean {
  if (s.length !== 20 || s.charCodeAt(19) !== 90 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false
  if (!isDigits(s, 0, 4) || !isDigits(s, 5, 7) || !isDigits(s, 8, 10) || !isDigits(s, 11, 13) || !isDigits(s, 14, 16) || !isDigits(s, 17, 19)) return false
  const month = d2(s, 5)
  const day = d2(s, 8)
  return month >= 1 && month <= 12 && day >= 1 && day <= 28 && d2(s, 11) <= 23 && d2(s, 14) <= 59 && d2(s, 17) <= 59
}

/** Why `s` is not a time metav1.Time accepts (time.Parse with RFC 3339), or undefined. */
export function timestampProblem(s: string): string | undefined {
  if (isPlainUtcTime(s)) return undefined
  const m = RFC3339.exec(s)
  if (!m) return `expected an RFC 3339 time such as "2026-11-22T10:00:00Z", got ${JSON.stringify(s)}`
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number)
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (month < 1 || month > 12) return `month out of range in ${JSON.stringify(s)}`
  if (day < 1 || day > DAYS[month - 1] || (month === 2 && day === 29 && !leap)) return `day out of range in ${JSON.stringify(s)}`
  if (hour > 23 || minute > 59 || second > 59) return `time of day out of range in ${JSON.stringify(s)}`
  if (m[8] && (Number(m[9]) > 23 || Number(m[10]) > 59)) return `time zone offset out of range in ${JSON.stringify(s)}`
  if (m[7] && m[7].length > 9) return `at most 9 fractional digits are kept, in ${JSON.stringify(s)}`
  return undefined
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** A UUID derived from what identifies an object, so plans of UID-less fixtures are reproducible. */
export function inventedUid(group: string, kind: string, namespace: string, name: string): string {
  const h = createHash('sha1').update(`kctl.invented-uid/${group}/${kind}/${namespace}/${name}`).digest()
  h[6] = (h[6] & 0x0f) | 0x50 // version 5 (name-based, SHA-1)
  h[8] = (h[8] & 0x3f) | 0x80 // RFC 4122 variant
  const x = h.toString('hex', 0, 16)
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}

// ---------------------------------------------------------------------------------------------
// The views, with their origin computed only when read.

const EMPTY: Labels = Object.freeze({})

class PodRecord implements PodView {
  readonly #loc: Locator
  constructor(
    loc: Locator,
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
    workloadFields: {affinityNode?: string; claimVolumes?: Labels},
    batch: PodBatchFields | undefined,
    network: PodNetworkView | undefined,
  ) {
    if (batch) this.batch = batch
    this.#loc = loc
    if (network !== undefined) this.network = network
    // Set only when present, so that most pods carry no extra fields.
    if (workloadFields.affinityNode !== undefined) this.affinityNode = workloadFields.affinityNode
    if (workloadFields.claimVolumes !== undefined) this.claimVolumes = workloadFields.claimVolumes
  }

  declare readonly affinityNode?: string
  declare readonly claimVolumes?: Labels
  declare readonly batch?: PodBatchFields
  declare readonly network?: PodNetworkView

  get origin(): Origin {
    return this.#loc.origin
  }
}

class WorkloadRecord implements Workload {
  readonly #loc: Locator
  readonly kind: WorkloadKind
  readonly apiVersion: string
  readonly namespace: string
  readonly name: string
  readonly uid: string
  readonly resourceVersion: string
  readonly generation: number
  readonly labels: Labels
  readonly annotations: Labels
  readonly ownerReferences: readonly OwnerReference[]
  readonly creationTimestamp: string | undefined
  readonly deletionTimestamp: string | undefined
  readonly replicas: number
  readonly minReadySeconds: number
  readonly selector: LabelSelector
  readonly selectorDefaulted: boolean | undefined
  readonly template: PodTemplateView
  readonly rawTemplate: unknown
  readonly status: ReplicaSetStatusView

  constructor(loc: Locator, w: Omit<Workload, 'origin'>) {
    this.#loc = loc
    this.kind = w.kind
    this.apiVersion = w.apiVersion
    this.namespace = w.namespace
    this.name = w.name
    this.uid = w.uid
    this.resourceVersion = w.resourceVersion
    this.generation = w.generation
    this.labels = w.labels
    this.annotations = w.annotations
    this.ownerReferences = w.ownerReferences
    this.creationTimestamp = w.creationTimestamp
    this.deletionTimestamp = w.deletionTimestamp
    this.replicas = w.replicas
    this.minReadySeconds = w.minReadySeconds
    this.selector = w.selector
    this.selectorDefaulted = w.selectorDefaulted
    this.template = w.template
    this.rawTemplate = w.rawTemplate
    this.status = w.status
  }

  get origin(): Origin {
    return this.#loc.origin
  }
}

// ---------------------------------------------------------------------------------------------

/** Metadata as read, before it is placed on a PodView or Workload. */
type Meta = Omit<ObjectMeta, 'origin' | 'ownerReferences'> & {ownerReferences: OwnerReference[]}

const KINDS: Record<string, {group: string; version: string}> = {
  ReplicaSet: {group: 'apps', version: 'v1'},
  Deployment: {group: 'apps', version: 'v1'},
  ReplicationController: {group: '', version: 'v1'},
  Pod: {group: '', version: 'v1'},
  StatefulSet: {group: 'apps', version: 'v1'},
  DaemonSet: {group: 'apps', version: 'v1'},
  ControllerRevision: {group: 'apps', version: 'v1'},
  Node: {group: '', version: 'v1'},
  PersistentVolumeClaim: {group: '', version: 'v1'},
  Job: {group: 'batch', version: 'v1'},
  CronJob: {group: 'batch', version: 'v1'},
  Service: {group: '', version: 'v1'},
  Endpoints: {group: '', version: 'v1'},
  EndpointSlice: {group: 'discovery.k8s.io', version: 'v1'},
}
/** Groups that once served these kinds (before Kubernetes 1.16) and no longer do. */
const RETIRED_GROUPS: Record<string, string[]> = {ReplicaSet: ['extensions', 'apps'], Deployment: ['extensions', 'apps']}

/** Turns objects into a Snapshot; feed it in input order, then call finish(). */
export class Normalizer {
  readonly problems: Problem[] = []
  private readonly workloads: Workload[] = []
  private readonly deployments: DeploymentView[] = []
  private readonly replicaSets: Workload[] = []
  private readonly pods: PodView[] = []
  private readonly statefulSets: StatefulSetView[] = []
  private readonly daemonSets: DaemonSetView[] = []
  private readonly nodes: NodeView[] = []
  private readonly revisions: ControllerRevisionView[] = []
  private readonly claims: ClaimView[] = []
  private readonly jobs: JobView[] = []
  private readonly cronJobs: CronJobView[] = []
  private readonly services: ServiceView[] = []
  private readonly endpointSlices: EndpointSliceView[] = []
  private readonly endpoints: EndpointsView[] = []
  private readonly ignored: Record<string, number> = {}
  /** group|kind|namespace → name → where it was first seen. */
  private readonly seen = new Map<string, Map<string, Locator>>()
  /** group|kind|namespace|name → uid, of objects that may own others (everything but pods). */
  private readonly uids = new Map<string, string>()
  /** Owner references written without a uid: filled in from the owner once everything is read. */
  private readonly pendingOwners: Array<{ref: {uid: string; apiVersion: string; kind: string; name: string}; namespace: string}> = []
  private readonly defaultNamespace: string
  private readonly onlyNamespace?: string
  private readonly selector?: CompiledSelector
  objects = 0

  constructor(private readonly opts: NormalizeOptions) {
    this.defaultNamespace = opts.namespace ?? 'default'
    this.onlyNamespace = opts.allNamespaces ? undefined : opts.namespace
    if (opts.selector !== undefined) {
      try {
        this.selector = parseSelectorString(opts.selector)
      } catch (error) {
        if (error instanceof SelectorError) throw new UserError(`invalid -l/--selector: ${error.message}`, {hint: 'kubectl syntax, e.g. -l app=web,tier!=db'})
        throw error
      }
    }
  }

  add(obj: SourceObject): void {
    this.objects++
    const raw = obj.raw
    const kind = raw.kind as string
    const apiVersion = raw.apiVersion as string
    const group = groupOf(apiVersion)
    const known = KINDS[kind]
    const ctx = new Ctx(obj, this.problems, kind)
    if (!known || (group !== known.group && !RETIRED_GROUPS[kind]?.includes(group))) {
      // Not a kind kctl plans (a Deployment, a Service, a custom resource named like one).
      const key = known ? `${kind}.${group}` : kind
      if (!this.remember(ctx, group, kind, raw, undefined, false)) this.ignored[key] = (this.ignored[key] ?? 0) + 1
      return
    }
    if (apiVersion !== `${known.group === '' ? '' : `${known.group}/`}${known.version}`) {
      const want = `${known.group === '' ? '' : `${known.group}/`}${known.version}`
      ctx.fail(['apiVersion'], `${kind} is not served as ${apiVersion} by Kubernetes 1.36`, `use apiVersion: ${want}`)
      return
    }
    // Every field is checked even after a first problem, so that `kctl check` reports them all;
    // an object with any problem is not added to the snapshot.
    const before = this.problems.length
    const meta = this.meta(ctx, group, kind, raw)
    if (!meta) return
    if (kind === 'Pod') this.pod(ctx, obj.locator, meta, raw, before)
    else if (kind === 'Deployment') this.deployment(ctx, apiVersion, meta, raw, before)
    else if (kind === 'ReplicaSet' || kind === 'ReplicationController') this.workload(ctx, obj.locator, kind, apiVersion, meta, raw, before)
    else this.workloadObject(ctx, kind, apiVersion, meta, raw, before)
  }

  /** StatefulSets, DaemonSets and the objects only their controllers read. */
  private workloadObject(ctx: Ctx, kind: string, apiVersion: string, meta: Meta, raw: RawObject, before: number): void {
    const readers: FieldReaders = {
      labelSelector: (c, v, k) => this.labelSelector(c, v, k),
      template: (c, v) => this.template(c, v),
      intOrPercent: (c, v, path) => this.intOrPercent(c, v, path),
      serverDefaulted: this.opts.serverDefaulted === true,
    }
    const wanted = (m: Meta) => this.problems.length === before && this.keep(m.namespace)
    const planned = (m: Meta) => wanted(m) && (!this.selector || selectorMatches(this.selector, m.labels))
    const located = <T extends object>(v: T): T => {
      Object.defineProperty(v, 'origin', {get: () => ctx.obj.locator.origin, enumerable: false})
      return v
    }
    switch (kind) {
      case 'StatefulSet': {
        const set = readStatefulSet(ctx, readers, apiVersion, meta, raw)
        if (set && planned(meta)) this.statefulSets.push(located(set))
        return
      }
      case 'DaemonSet': {
        const ds = readDaemonSet(ctx, readers, apiVersion, meta, raw)
        if (ds && planned(meta)) this.daemonSets.push(located(ds))
        return
      }
      case 'Node': {
        const node = readNode(ctx, meta, raw)
        if (this.problems.length === before) this.nodes.push(node)
        return
      }
      case 'ControllerRevision': {
        const revision = ctx.int(raw.revision, ['revision'], 0, Number.MAX_SAFE_INTEGER) ?? 0
        if (wanted(meta)) this.revisions.push({...meta, revision, data: raw.data})
        return
      }
      case 'PersistentVolumeClaim':
        if (wanted(meta)) this.claims.push({...meta})
        return
      case 'Job': {
        const job = readJob(ctx, readers, apiVersion, meta, ctx.mapping(raw.spec, ['spec']) ?? EMPTY_RAW, ctx.mapping(raw.status, ['status']) ?? EMPTY_RAW)
        // Every Job is kept (a CronJob reads its Jobs whatever -l says); `planned` marks those planned.
        if (job && wanted(meta)) this.jobs.push(located(planned(meta) ? job : Object.assign(job, {notPlanned: true})))
        return
      }
      case 'CronJob': {
        const cj = readCronJob(ctx, readers, apiVersion, meta, raw)
        if (cj && planned(meta)) this.cronJobs.push(located(cj))
        return
      }
      case 'Service': {
        const svc = readService(ctx, meta, raw, readers.serverDefaulted)
        // Every Service is kept (its Endpoints object is not a leftover whatever -l says); `planned` marks those planned.
        if (wanted(meta)) this.services.push(located(planned(meta) ? svc : Object.assign(svc, {notPlanned: true as const})))
        return
      }
      case 'EndpointSlice': {
        const slice = readEndpointSlice(ctx, meta, raw)
        if (wanted(meta)) this.endpointSlices.push(slice)
        return
      }
      case 'Endpoints': {
        const endpoints = readEndpoints(ctx, meta, raw)
        if (wanted(meta)) this.endpoints.push(endpoints)
        return
      }
    }
  }

  finish(): {snapshot: Snapshot; problems: Problem[]} {
    for (const {ref, namespace} of this.pendingOwners) {
      const group = groupOf(ref.apiVersion)
      ref.uid = this.uids.get(`${group}|${ref.kind}|${namespace}|${ref.name}`) ?? inventedUid(group, ref.kind, namespace, ref.name)
    }
    const snapshot: Snapshot = {
      jobs: this.jobs,
      cronJobs: this.cronJobs,
      statefulSets: this.statefulSets,
      daemonSets: this.daemonSets,
      nodes: this.nodes,
      controllerRevisions: this.revisions,
      claims: this.claims,
      services: this.services,
      endpointSlices: this.endpointSlices,
      endpoints: this.endpoints,
      deployments: this.deployments,
      workloads: this.workloads,
      pods: this.pods,
      replicaSets: this.replicaSets,
      ignored: this.ignored,
      source: {type: 'fixtures', paths: [...this.opts.paths]},
    }
    return {snapshot, problems: this.problems}
  }

  private keep(namespace: string): boolean {
    return this.onlyNamespace === undefined || namespace === this.onlyNamespace
  }

  /**
   * Duplicate detection (and uid bookkeeping) for an object of any kind. Returns whether the
   * object is a copy of one read before: two identical objects are one object (an all-in-one file
   * beside the split files). Two different objects with one identity are an error only for the
   * kinds kctl plans (`planned`); of the others the first is kept, as nothing here reads them.
   */
  private remember(ctx: Ctx, group: string, kind: string, raw: RawObject, meta?: Meta, planned = true): boolean {
    const m = isMapping(raw.metadata) ? raw.metadata : undefined
    const name = meta?.name ?? m?.name
    if (typeof name !== 'string' || name === '') return false
    const namespace = meta?.namespace ?? (typeof m?.namespace === 'string' && m.namespace !== '' ? m.namespace : this.defaultNamespace)
    // Two levels (kind and namespace, then name): cheaper than one key string per object.
    const scope = `${group}|${kind}|${namespace}`
    let names = this.seen.get(scope)
    if (!names) this.seen.set(scope, (names = new Map()))
    const first = names.get(name)
    if (first) {
      if (sameObject(first, ctx.obj.locator)) return true
      if (!planned) return true
      const at = first.origin
      ctx.fail([], `duplicate ${kind} ${namespace}/${name}: already defined differently at ${at.file}:${at.line}:${at.column}`, 'each object may appear only once in what is applied together (see --apply-set)')
      return false
    }
    names.set(name, ctx.obj.locator)
    if (kind !== 'Pod') {
      const uid = meta?.uid ?? (typeof m?.uid === 'string' && m.uid !== '' ? m.uid : inventedUid(group, kind, namespace, name))
      this.uids.set(`${scope}|${name}`, uid)
    }
    return false
  }

  private meta(ctx: Ctx, group: string, kind: string, raw: RawObject): Meta | undefined {
    const m = raw.metadata
    if (!isMapping(m)) {
      ctx.fail(P.metadata, m === undefined ? 'required (with at least a name)' : `expected a mapping, got ${describe(m)}`)
      return undefined
    }
    const before = this.problems.length
    const name = ctx.string(m.name, P.name)
    if (name === undefined || name === '') {
      if (name === '' || m.name === undefined || m.name === null) {
        ctx.fail(P.name, 'a name is required', m.generateName !== undefined ? 'fixtures describe objects as they exist: give it the name the API server would have generated' : undefined)
      }
      return undefined
    }
    if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
      ctx.fail(P.name, `invalid name ${JSON.stringify(name)}: must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters)`)
    }
    let namespace = ctx.string(m.namespace, P.namespace)
    if (namespace === undefined || namespace === '') namespace = this.defaultNamespace
    else if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) {
      ctx.fail(P.namespace, `invalid namespace ${JSON.stringify(namespace)}: must be a lowercase RFC 1123 label (a-z, 0-9, '-'; at most 63 characters)`)
    }
    let uid = ctx.string(m.uid, P.uid)
    if (uid === undefined || uid === '') uid = inventedUid(group, kind, namespace, name)
    const resourceVersion = ctx.string(m.resourceVersion, P.resourceVersion) ?? ''
    const generation = ctx.int(m.generation, P.generation, 0, Number.MAX_SAFE_INTEGER) ?? 1
    const labels = ctx.labels(m.labels, P.labels)
    const annotations = ctx.stringMap(m.annotations, P.annotations)
    const ownerReferences = this.ownerReferences(ctx, m.ownerReferences, namespace)
    const creationTimestamp = ctx.time(m.creationTimestamp, P.creationTimestamp)
    const deletionTimestamp = ctx.time(m.deletionTimestamp, P.deletionTimestamp)
    const meta: Meta = {
      namespace: ctx.own(namespace),
      name: ctx.own(name),
      uid: ctx.own(uid),
      resourceVersion: ctx.own(resourceVersion),
      generation,
      labels: ctx.ownMap(labels),
      annotations: ctx.ownMap(annotations),
      ownerReferences,
      creationTimestamp: ctx.own(creationTimestamp),
      deletionTimestamp: ctx.own(deletionTimestamp),
    }
    if (this.problems.length === before && this.remember(ctx, group, kind, raw, meta)) return undefined // a copy
    return meta
  }

  private ownerReferences(ctx: Ctx, v: unknown, namespace: string): OwnerReference[] {
    if (v === undefined || v === null) return NO_OWNERS
    if (!Array.isArray(v)) {
      ctx.fail(P.ownerReferences, `expected a list, got ${describe(v)}`)
      return NO_OWNERS
    }
    const out: OwnerReference[] = []
    let controllers = 0
    for (let i = 0; i < v.length; i++) {
      const r = v[i]
      if (!isMapping(r)) {
        ctx.fail([...P.ownerReferences, i], `expected a mapping, got ${describe(r)}`)
        continue
      }
      const apiVersion = ctx.itemString(r, 'apiVersion', P.ownerReferences, i, true)
      const kind = ctx.itemString(r, 'kind', P.ownerReferences, i, true)
      const name = ctx.itemString(r, 'name', P.ownerReferences, i, true)
      const uid = ctx.itemString(r, 'uid', P.ownerReferences, i, false)
      const controller = r.controller
      const blockOwnerDeletion = r.blockOwnerDeletion
      if (controller !== undefined && controller !== null && typeof controller !== 'boolean') {
        ctx.fail([...P.ownerReferences, i, 'controller'], `expected true or false, got ${describe(controller)}`)
      }
      if (blockOwnerDeletion !== undefined && blockOwnerDeletion !== null && typeof blockOwnerDeletion !== 'boolean') {
        ctx.fail([...P.ownerReferences, i, 'blockOwnerDeletion'], `expected true or false, got ${describe(blockOwnerDeletion)}`)
      }
      if (!apiVersion || !kind || !name) continue
      const ref: OwnerReference = {apiVersion: ctx.own(apiVersion), kind: ctx.own(kind), name: ctx.own(name), uid: ctx.own(uid ?? '')}
      if (typeof controller === 'boolean') ref.controller = controller
      if (typeof blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = blockOwnerDeletion
      if (controller === true) controllers++
      // A fixture may leave the owner's uid out: it is the uid of the owner in the input (or the
      // one kctl invents for it), filled in once everything has been read.
      if (!uid) this.pendingOwners.push({ref, namespace})
      out.push(ref)
    }
    if (controllers > 1) ctx.fail(P.ownerReferences, 'only one reference can have controller set to true')
    return out
  }

  private pod(ctx: Ctx, loc: Locator, meta: Meta, raw: RawObject, before: number): void {
    const spec = ctx.mapping(raw.spec, P.spec) ?? EMPTY_RAW
    const status = ctx.mapping(raw.status, P.status) ?? EMPTY_RAW
    const nodeName = ctx.string(spec.nodeName, P.nodeName) ?? ''
    const phase = ctx.string(status.phase, P.phase) ?? ''
    let ready = false
    let readySince: string | undefined
    const conditions = status.conditions
    if (conditions !== undefined && conditions !== null) {
      if (!Array.isArray(conditions)) ctx.fail(P.conditions, `expected a list, got ${describe(conditions)}`)
      else {
        let seenReady = false
        for (let i = 0; i < conditions.length; i++) {
          const c = conditions[i]
          if (!isMapping(c)) {
            ctx.fail([...P.conditions, i], `expected a mapping, got ${describe(c)}`)
            continue
          }
          const type = ctx.itemString(c, 'type', P.conditions, i, false)
          const cstatus = ctx.itemString(c, 'status', P.conditions, i, false)
          const since = ctx.itemTime(c, 'lastTransitionTime', P.conditions, i)
          if (type === 'Ready' && !seenReady) {
            // podutil.GetPodCondition: the first Ready condition counts.
            seenReady = true
            ready = cstatus === 'True'
            if (ready) readySince = ctx.own(since)
          }
        }
      }
    }
    const containerStatuses = this.containerStatuses(ctx, status.containerStatuses, P.containerStatuses)
    let sidecarStatuses: ContainerStatusView[] = NO_STATUSES
    if (status.initContainerStatuses !== undefined && status.initContainerStatuses !== null) {
      const init = this.containerStatuses(ctx, status.initContainerStatuses, P.initContainerStatuses)
      const sidecars = new Set<string>()
      const specs = spec.initContainers
      if (Array.isArray(specs)) {
        for (let i = 0; i < specs.length; i++) {
          const c = specs[i]
          if (!isMapping(c)) continue
          const name = ctx.itemString(c, 'name', P.initContainers, i, false)
          const policy = ctx.itemString(c, 'restartPolicy', P.initContainers, i, false)
          if (name !== undefined && policy === 'Always') sidecars.add(name)
        }
      }
      sidecarStatuses = init.filter((s) => sidecars.has(s.name))
    }
    if (this.problems.length > before || !this.keep(meta.namespace)) return
    this.pods.push(
      new PodRecord(
        loc,
        meta.namespace,
        meta.name,
        meta.uid,
        meta.resourceVersion,
        meta.generation,
        meta.labels,
        meta.annotations,
        meta.ownerReferences,
        meta.creationTimestamp,
        meta.deletionTimestamp,
        ctx.own(nodeName),
        ctx.own(phase),
        ready,
        readySince,
        containerStatuses,
        sidecarStatuses,
        spec.affinity === undefined && spec.volumes === undefined ? NO_FIELDS : podWorkloadFields(spec),
        // Only the Job controller reads these: of its pods, and of orphans it may adopt.
        meta.ownerReferences.some((r) => r.kind === 'Job') || !meta.ownerReferences.some((r) => r.controller === true) ? podBatchFields(raw.metadata as RawObject, spec, status) : undefined,
        readPodNetwork(ctx, spec, status),
      ),
    )
  }

  private containerStatuses(ctx: Ctx, v: unknown, path: Path): ContainerStatusView[] {
    if (v === undefined || v === null) return NO_STATUSES
    if (!Array.isArray(v)) {
      ctx.fail(path, `expected a list, got ${describe(v)}`)
      return NO_STATUSES
    }
    const out: ContainerStatusView[] = []
    for (let i = 0; i < v.length; i++) {
      const s = v[i]
      if (!isMapping(s)) {
        ctx.fail([...path, i], `expected a mapping, got ${describe(s)}`)
        continue
      }
      const name = ctx.itemString(s, 'name', path, i, false) ?? ''
      let restartCount = s.restartCount
      if (typeof restartCount !== 'number' || !Number.isInteger(restartCount) || restartCount < 0 || restartCount > INT32_MAX) {
        restartCount = ctx.int(restartCount, [...path, i, 'restartCount'], 0, INT32_MAX) ?? 0
      }
      out.push({name: ctx.own(name), restartCount: restartCount as number})
    }
    return out
  }

  private workload(ctx: Ctx, loc: Locator, kind: WorkloadKind, apiVersion: string, meta: Meta, raw: RawObject, before: number): void {
    const isRC = kind === 'ReplicationController'
    const spec = ctx.mapping(raw.spec, P.spec) ?? EMPTY_RAW
    const status = ctx.mapping(raw.status, P.status) ?? EMPTY_RAW
    const replicas = ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX) ?? 1
    const minReadySeconds = ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0
    const rawTemplate = spec.template
    const template = this.template(ctx, rawTemplate)
    let labels = meta.labels
    let selector: LabelSelector = null
    let selectorDefaulted: boolean | undefined
    if (isRC) {
      // SetDefaults_ReplicationController: with template labels, an empty selector and empty
      // object labels are both taken from them.
      let map = ctx.labels(spec.selector, ['spec', 'selector'])
      if (rawTemplate === undefined || rawTemplate === null) {
        ctx.fail(['spec', 'template'], 'a ReplicationController needs a pod template', 'the API server rejects one without spec.template')
      } else if (Object.keys(template.labels).length > 0) {
        if (Object.keys(map).length === 0) {
          map = template.labels
          selectorDefaulted = true
        }
        if (Object.keys(labels).length === 0) labels = template.labels
      }
      if (Object.keys(map).length === 0 && rawTemplate !== undefined && rawTemplate !== null) {
        ctx.fail(['spec', 'selector'], 'a selector is required', 'give spec.selector, or labels in spec.template.metadata.labels to default it from')
      }
      selector = {matchLabels: map}
    } else {
      selector = this.labelSelector(ctx, spec.selector)
    }
    const statusView: ReplicaSetStatusView = {
      replicas: ctx.int(status.replicas, ['status', 'replicas'], 0, INT32_MAX) ?? 0,
      fullyLabeledReplicas: ctx.int(status.fullyLabeledReplicas, ['status', 'fullyLabeledReplicas'], 0, INT32_MAX) ?? 0,
      readyReplicas: ctx.int(status.readyReplicas, ['status', 'readyReplicas'], 0, INT32_MAX) ?? 0,
      availableReplicas: ctx.int(status.availableReplicas, ['status', 'availableReplicas'], 0, INT32_MAX) ?? 0,
      observedGeneration: ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER) ?? 0,
      conditions: this.workloadConditions(ctx, status.conditions),
    }
    if (!isRC) {
      // ReplicationControllerStatus has no terminatingReplicas (1.7: never for RC).
      const terminating = ctx.int(status.terminatingReplicas, ['status', 'terminatingReplicas'], 0, INT32_MAX)
      if (terminating !== undefined) statusView.terminatingReplicas = terminating
    }
    if (this.problems.length > before) return
    const w = new WorkloadRecord(loc, {
      kind,
      apiVersion,
      namespace: meta.namespace,
      name: meta.name,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      generation: meta.generation,
      labels,
      annotations: meta.annotations,
      ownerReferences: meta.ownerReferences,
      creationTimestamp: meta.creationTimestamp,
      deletionTimestamp: meta.deletionTimestamp,
      replicas,
      minReadySeconds,
      selector,
      selectorDefaulted,
      template,
      rawTemplate: rawTemplate ?? undefined,
      status: statusView,
    })
    if (kind === 'ReplicaSet') this.replicaSets.push(w)
    if (!this.keep(meta.namespace)) return
    if (this.selector && !selectorMatches(this.selector, labels)) return
    this.workloads.push(w)
  }

  /**
   * An apps/v1 Deployment, defaulted as SetDefaults_Deployment does (replicas 1, RollingUpdate with
   * 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600) and checked as
   * ValidateDeploymentSpec checks what the controller reads.
   */
  private deployment(ctx: Ctx, apiVersion: string, meta: Meta, raw: RawObject, before: number): void {
    const spec = ctx.mapping(raw.spec, P.spec) ?? EMPTY_RAW
    const status = ctx.mapping(raw.status, P.status) ?? EMPTY_RAW
    const replicas = ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX) ?? 1
    const minReadySeconds = ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0
    const selector = this.labelSelector(ctx, spec.selector, 'Deployment')
    const template = this.template(ctx, spec.template)
    if (spec.template === undefined || spec.template === null) ctx.fail(['spec', 'template'], 'a Deployment needs a pod template')
    else if (selector && !selectorMatches(compileLabelSelector(selector), template.labels)) {
      ctx.fail(['spec', 'template', 'metadata', 'labels'], '`selector` does not match template `labels`', 'the API server rejects a Deployment whose selector does not select its own template')
    }
    const strategy = this.strategy(ctx, spec.strategy)
    const revisionHistoryLimit = ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX) ?? 10
    const progressDeadlineSeconds = ctx.int(spec.progressDeadlineSeconds, ['spec', 'progressDeadlineSeconds'], 0, INT32_MAX) ?? 600
    if (progressDeadlineSeconds <= minReadySeconds && spec.progressDeadlineSeconds !== undefined) {
      ctx.fail(['spec', 'progressDeadlineSeconds'], 'must be greater than minReadySeconds')
    }
    const paused = ctx.bool(spec.paused, ['spec', 'paused']) ?? false
    const int = (field: string) => ctx.int(status[field], ['status', field], 0, INT32_MAX)
    const statusView: DeploymentStatusView = {
      observedGeneration: ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER) ?? 0,
      replicas: int('replicas') ?? 0,
      updatedReplicas: int('updatedReplicas') ?? 0,
      readyReplicas: int('readyReplicas') ?? 0,
      availableReplicas: int('availableReplicas') ?? 0,
      unavailableReplicas: int('unavailableReplicas') ?? 0,
      conditions: this.deploymentConditions(ctx, status.conditions),
    }
    const terminating = int('terminatingReplicas')
    if (terminating !== undefined) statusView.terminatingReplicas = terminating
    const collisionCount = int('collisionCount')
    if (collisionCount !== undefined) statusView.collisionCount = collisionCount
    if (this.problems.length > before || !selector) return
    const d: DeploymentView = {
      kind: 'Deployment',
      apiVersion,
      ...meta,
      replicas,
      minReadySeconds,
      selector,
      template,
      rawTemplate: spec.template,
      serverDefaulted: this.opts.serverDefaulted === true,
      strategy,
      revisionHistoryLimit,
      progressDeadlineSeconds,
      paused,
      status: statusView,
    }
    Object.defineProperty(d, 'origin', {get: () => ctx.obj.locator.origin, enumerable: false})
    if (!this.keep(meta.namespace)) return
    if (this.selector && !selectorMatches(this.selector, meta.labels)) return
    this.deployments.push(d)
  }

  private strategy(ctx: Ctx, v: unknown): DeploymentStrategy {
    const at = ['spec', 'strategy']
    const s = ctx.mapping(v, at) ?? EMPTY_RAW
    const type = ctx.string(s.type, [...at, 'type']) || 'RollingUpdate'
    if (type !== 'RollingUpdate' && type !== 'Recreate') ctx.fail([...at, 'type'], `unsupported value ${JSON.stringify(type)}`, 'use RollingUpdate or Recreate')
    const ru = ctx.mapping(s.rollingUpdate, [...at, 'rollingUpdate'])
    if (type === 'Recreate') {
      if (ru) ctx.fail([...at, 'rollingUpdate'], 'may not be specified when strategy `type` is \'Recreate\'')
      return {type}
    }
    const maxSurge = this.intOrPercent(ctx, ru?.maxSurge, [...at, 'rollingUpdate', 'maxSurge']) ?? '25%'
    const maxUnavailable = this.intOrPercent(ctx, ru?.maxUnavailable, [...at, 'rollingUpdate', 'maxUnavailable']) ?? '25%'
    if (isZero(maxSurge) && isZero(maxUnavailable)) {
      ctx.fail([...at, 'rollingUpdate', 'maxUnavailable'], 'may not be 0 when `maxSurge` is 0')
    }
    if (typeof maxUnavailable === 'string' && Number.parseInt(maxUnavailable, 10) > 100) {
      ctx.fail([...at, 'rollingUpdate', 'maxUnavailable'], 'must not be greater than 100%')
    }
    return {type, maxSurge, maxUnavailable}
  }

  /** ValidatePositiveIntOrPercent: a non-negative integer, or a string of digits and `%`. */
  intOrPercent(ctx: Ctx, v: unknown, path: Path): number | string | undefined {
    if (v === undefined || v === null) return undefined
    if (typeof v === 'string') {
      if (/^[0-9]+%$/.test(v)) return v
      ctx.fail(path, `${JSON.stringify(v)}: must be an integer or percentage (e.g '5%')`)
      return undefined
    }
    return ctx.int(v, path, 0, INT32_MAX)
  }

  private deploymentConditions(ctx: Ctx, v: unknown): DeploymentCondition[] {
    const base = this.workloadConditions(ctx, v)
    if (!Array.isArray(v)) return base
    return base.map((c, i) => {
      const raw = v[i] as RawObject
      const lastUpdateTime = ctx.time(raw.lastUpdateTime, ['status', 'conditions', i, 'lastUpdateTime'])
      return lastUpdateTime === undefined ? c : {...c, lastUpdateTime}
    })
  }

  /** An apps/v1 selector: required, valid (LabelSelectorAsSelector) and not empty. */
  labelSelector(ctx: Ctx, v: unknown, kind = 'ReplicaSet'): LabelSelector {
    const at = ['spec', 'selector']
    if (v === undefined || v === null) {
      ctx.fail(at, 'a selector is required', `the API server rejects an apps/v1 ${kind} without spec.selector`)
      return null
    }
    const problems = labelSelectorProblems(v)
    for (const p of problems) ctx.fail([...at, ...p.path], p.message, undefined, p.message.startsWith('invalid label key'))
    if (problems.length > 0) return null
    const sel = v as RawObject
    const out: {matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[]} = {}
    if (isMapping(sel.matchLabels)) out.matchLabels = sel.matchLabels as Record<string, string>
    if (Array.isArray(sel.matchExpressions)) {
      out.matchExpressions = (sel.matchExpressions as RawObject[]).map((e) => {
        const req: LabelSelectorRequirement = {key: e.key as string, operator: e.operator as SelectorOperator}
        if (Array.isArray(e.values)) req.values = e.values as string[]
        return req
      })
    }
    if (Object.keys(out.matchLabels ?? {}).length + (out.matchExpressions?.length ?? 0) === 0) {
      ctx.fail(at, 'an empty selector is invalid: it would select every pod in the namespace', 'give matchLabels or matchExpressions')
      return null
    }
    return out
  }

  template(ctx: Ctx, v: unknown, at: Path = ['spec', 'template']): PodTemplateView {
    const t = ctx.mapping(v, at) ?? EMPTY_RAW
    const m = ctx.mapping(t.metadata, [...at, 'metadata']) ?? EMPTY_RAW
    const labels = ctx.labels(m.labels, [...at, 'metadata', 'labels'])
    const annotations = ctx.stringMap(m.annotations, [...at, 'metadata', 'annotations'])
    let finalizers: string[] = []
    if (m.finalizers !== undefined && m.finalizers !== null) {
      if (!Array.isArray(m.finalizers)) ctx.fail([...at, 'metadata', 'finalizers'], `expected a list of strings, got ${describe(m.finalizers)}`)
      else {
        m.finalizers.forEach((f, i) => ctx.string(f, [...at, 'metadata', 'finalizers', i]))
        finalizers = m.finalizers.filter((f): f is string => typeof f === 'string')
      }
    }
    const spec = t.spec === undefined || t.spec === null ? {} : ctx.mapping(t.spec, [...at, 'spec']) ?? {}
    return {labels: ctx.ownMap(labels), annotations: ctx.ownMap(annotations), finalizers, spec}
  }

  private workloadConditions(ctx: Ctx, v: unknown): WorkloadCondition[] {
    if (v === undefined || v === null) return []
    if (!Array.isArray(v)) {
      ctx.fail(['status', 'conditions'], `expected a list, got ${describe(v)}`)
      return []
    }
    const out: WorkloadCondition[] = []
    for (let i = 0; i < v.length; i++) {
      const c = v[i]
      const at = ['status', 'conditions', i]
      if (!isMapping(c)) {
        ctx.fail(at, `expected a mapping, got ${describe(c)}`)
        continue
      }
      const cond: WorkloadCondition = {type: ctx.string(c.type, [...at, 'type']) ?? '', status: ctx.string(c.status, [...at, 'status']) ?? ''}
      const reason = ctx.string(c.reason, [...at, 'reason'])
      const message = ctx.string(c.message, [...at, 'message'])
      const lastTransitionTime = ctx.time(c.lastTransitionTime, [...at, 'lastTransitionTime'])
      if (reason !== undefined) cond.reason = reason
      if (message !== undefined) cond.message = message
      if (lastTransitionTime !== undefined) cond.lastTransitionTime = lastTransitionTime
      out.push(cond)
    }
    return out
  }
}

const isZero = (v: number | string) => v === 0 || (typeof v === 'string' && Number.parseInt(v, 10) === 0)

const EMPTY_RAW: RawObject = Object.freeze({}) as RawObject

// Paths of the fields read on every object, built once (not on every call).
const P = {
  metadata: ['metadata'],
  name: ['metadata', 'name'],
  namespace: ['metadata', 'namespace'],
  uid: ['metadata', 'uid'],
  resourceVersion: ['metadata', 'resourceVersion'],
  generation: ['metadata', 'generation'],
  labels: ['metadata', 'labels'],
  annotations: ['metadata', 'annotations'],
  ownerReferences: ['metadata', 'ownerReferences'],
  creationTimestamp: ['metadata', 'creationTimestamp'],
  deletionTimestamp: ['metadata', 'deletionTimestamp'],
  spec: ['spec'],
  status: ['status'],
  nodeName: ['spec', 'nodeName'],
  initContainers: ['spec', 'initContainers'],
  phase: ['status', 'phase'],
  conditions: ['status', 'conditions'],
  containerStatuses: ['status', 'containerStatuses'],
  initContainerStatuses: ['status', 'initContainerStatuses'],
} as const satisfies Record<string, Path>
const NO_STATUSES: ContainerStatusView[] = Object.freeze([]) as unknown as ContainerStatusView[]
const NO_FIELDS = Object.freeze({})
const NO_OWNERS: OwnerReference[] = Object.freeze([]) as unknown as OwnerReference[]

/**
 * A string that holds no reference to the text it was cut from. js-yaml builds scalars as slices
 * of the document text, and V8 keeps a slice of 13 characters or more as a view of the whole text:
 * a pod's uid would keep its whole document alive. Strings kept in the snapshot are detached.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1)
}

function detachMap(map: Labels): Labels {
  let copy: Record<string, string> | undefined
  for (const key in map) {
    copy ??= {}
    copy[key] = detach(map[key])
  }
  return copy ?? EMPTY
}

/**
 * Label keys and values already found valid: the same few keys (and many values) repeat on every
 * pod, and checking a set is cheaper than the label syntax. Bounded, so memory stays small.
 */
const VALID_LABEL_KEYS = new Set<string>()
const VALID_LABEL_VALUES = new Set<string>()
function cacheValid(set: Set<string>, s: string): void {
  if (set.size >= 50_000) set.clear()
  set.add(detach(s)) // (a slice would keep its whole document text alive)
}

/**
 * Type checks for one object; each failure becomes a Problem at the field. Exported for `kctl check`,
 * which applies the same checks to the kinds the planner does not read (Deployment, Job, ...).
 */
export class Ctx {
  /** Whether strings must be detached before they are kept (see detach). */
  readonly copy: boolean
  constructor(
    readonly obj: SourceObject,
    private readonly problems: Problem[],
    private readonly kind: string,
  ) {
    this.copy = obj.locator.format === 'yaml'
  }

  own(s: string): string
  own(s: string | undefined): string | undefined
  own(s: string | undefined): string | undefined {
    return this.copy && s !== undefined ? detach(s) : s
  }

  ownMap(map: Labels): Labels {
    return this.copy ? detachMap(map) : map
  }

  fail(path: Path, message: string, hint?: string, atKey = false): void {
    const obj = this.obj
    const meta = isMapping(obj.raw.metadata) ? obj.raw.metadata : undefined
    const name = typeof meta?.name === 'string' ? meta.name : undefined
    const namespace = typeof meta?.namespace === 'string' ? meta.namespace : undefined
    const locator = obj.locator
    let origin: Origin | undefined
    this.problems.push({
      path,
      message,
      hint,
      kind: this.kind,
      name,
      namespace,
      ordinal: obj.ordinal,
      origin: () => (origin ??= path.length === 0 ? locator.origin : locator.locate(path, {key: atKey})),
    })
  }

  string(v: unknown, path: Path): string | undefined {
    if (typeof v === 'string') return v
    if (v === undefined || v === null) return undefined
    this.fail(path, `expected a string, got ${describe(v)}`, typeHint(v))
    return undefined
  }

  /** A string field of a list item (`base[i].field`); the path is built only on failure. */
  itemString(item: RawObject, field: string, base: Path, i: number, required: boolean): string | undefined {
    const v = item[field]
    if (typeof v === 'string') {
      if (v === '' && required) this.fail([...base, i, field], `${field} is required`)
      return v
    }
    if (v === undefined || v === null) {
      if (required) this.fail([...base, i, field], `${field} is required`)
      return undefined
    }
    this.fail([...base, i, field], `expected a string, got ${describe(v)}`, typeHint(v))
    return undefined
  }

  itemTime(item: RawObject, field: string, base: Path, i: number): string | undefined {
    const v = item[field]
    if (typeof v === 'string' && isPlainUtcTime(v)) return v
    return this.time(v, [...base, i, field])
  }

  bool(v: unknown, path: Path): boolean | undefined {
    if (typeof v === 'boolean' || v === undefined || v === null) return (v ?? undefined) as boolean | undefined
    this.fail(path, `expected true or false, got ${describe(v)}`)
    return undefined
  }

  /** An integer field (int32/int64 in Go) within [min, max]; undefined when absent or null. */
  int(v: unknown, path: Path, min: number, max: number): number | undefined {
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v
    if (v === undefined || v === null) return undefined
    const what = min === 0 ? 'a non-negative integer' : 'an integer'
    if (typeof v === 'number' && Number.isInteger(v) && v > max) this.fail(path, `expected ${what} of at most ${max}, got ${v}`)
    else this.fail(path, `expected ${what}, got ${describe(v)}`, typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? 'remove the quotes' : undefined)
    return undefined
  }

  mapping(v: unknown, path: Path): RawObject | undefined {
    if (isMapping(v)) return v
    if (v === undefined || v === null) return undefined
    this.fail(path, `expected a mapping, got ${describe(v)}`)
    return undefined
  }

  time(v: unknown, path: Path): string | undefined {
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'string') {
      this.fail(path, `expected an RFC 3339 time string, got ${describe(v)}`)
      return undefined
    }
    const problem = timestampProblem(v)
    if (problem) {
      this.fail(path, problem)
      return undefined
    }
    return v
  }

  /** map[string]string. */
  stringMap(v: unknown, path: Path): Labels {
    if (v === undefined || v === null) return EMPTY
    if (!isMapping(v)) {
      this.fail(path, `expected a mapping of strings, got ${describe(v)}`)
      return EMPTY
    }
    let nulls: Record<string, string> | undefined
    for (const key in v) {
      const value = v[key]
      if (value === null) (nulls ??= {})[key] = ''
      else if (typeof value !== 'string') this.fail([...path, key], `expected a string, got ${describe(value)}`, typeHint(value))
    }
    // `app:` with no value is null in YAML; the API server decodes null into a map[string]string
    // entry as the empty string, so the label exists with value "".
    return nulls ? {...(v as Labels), ...nulls} : (v as Labels)
  }

  /** Labels: a string map whose keys and values are valid label keys and values. */
  labels(v: unknown, path: Path): Labels {
    const map = this.stringMap(v, path)
    for (const key in map) {
      const value = map[key]
      if (typeof value !== 'string') continue
      if (VALID_LABEL_KEYS.has(key) && VALID_LABEL_VALUES.has(value)) continue
      const keyProblem = labelKeyProblem(key)
      if (keyProblem) this.fail([...path, key], keyProblem, undefined, true)
      else {
        const valueProblem = labelValueProblem(value)
        if (valueProblem) this.fail([...path, key], valueProblem)
        else cacheValid(VALID_LABEL_VALUES, value)
        cacheValid(VALID_LABEL_KEYS, key)
      }
    }
    return map
  }
}

/**
 * Two objects read from the input are the same object. Compared on their text parsed again, so
 * that the first one's parsed form need not be kept alive for this rare case.
 */
export function sameObject(a: Locator, b: Locator): boolean {
  const x = a.reread()
  return x !== undefined && isDeepStrictEqual(x, b.reread())
}

/** Normalizes all objects; throws the first problem (in input order) as a UserError. */
export function normalize(objects: Iterable<SourceObject>, opts: NormalizeOptions): Snapshot {
  const n = new Normalizer(opts)
  for (const obj of objects) n.add(obj)
  const {snapshot, problems} = n.finish()
  if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1)
  return snapshot
}

/** The first problem in input order: objects come in order; within one object, the earliest field. */
export function firstProblem(problems: readonly Problem[]): Problem {
  let best = problems[0]
  let bestAt = best.origin()
  for (let i = 1; i < problems.length && problems[i].ordinal === best.ordinal; i++) {
    const at = problems[i].origin()
    if (at.line < bestAt.line || (at.line === bestAt.line && at.column < bestAt.column)) {
      best = problems[i]
      bestAt = at
    }
  }
  return best
}

