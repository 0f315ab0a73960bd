// The horizontal pod autoscaler controller's plans for a snapshot: for each HPA, the scale target
// as its scale subresource shows it, the pods its selector matches, the metrics fixtures' answers,
// then one sync (sync.ts) as a controller that has just started would run it; and, as the
// following step, the target's own controller's next sync at the new size.
import type {ControllerRevisionView, DeploymentView, LabelSelector, PodView, Snapshot, Workload} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {compileLabelSelector, parseSelectorString, selectorMatches, type CompiledSelector} from '../../reconcile/selector.js'
import {formatRfc3339} from '../../reconcile/time.js'
import {byNamespace} from '../../reconcile/workload-plan.js'
import {controllerOf} from '../../reconcile/pods.js'
import {
  type CustomMetricFixture,
  type ExternalMetricFixture,
  DEFAULT_HPA_CONFIG,
  DEFAULT_HPA_GATES,
  type HpaAction,
  type HpaHistory,
  type HpaLiveMetrics,
  type HpaObject,
  type HpaPlanDetail,
  type HpaPlanView,
  type HpaPod,
  type MetricAnswer,
  type MetricSpec,
  type PodMetricsFixture,
  type ScaleRead,
  type CustomScaleDefinition,
} from './model.js'
import {syncHpa} from './sync.js'
// The target's own controller plans the step after the scale write (asked inside functions only).
import {CONTROLLERS} from '../registry.js'

/** An object with a scale subresource, as the snapshot holds it. */
export interface ScaleTarget {
  kind: string
  apiVersion: string
  namespace: string
  name: string
  uid: string
  resourceVersion: string
  replicas: number
  selector: LabelSelector
  status: {replicas: number}
  /** The Snapshot list it came from (to plan its controller's next sync); `custom`: a custom resource. */
  from: 'deployments' | 'statefulSets' | 'replicaSets' | 'workloads' | 'custom'
  /** A custom resource's: its scale as read (the selector string, or the error the GET ends with), its resource and spec path. */
  custom?: {scale: ScaleRead; resource: string; specReplicasPath?: string}
}

/** Every scale target of a snapshot, and the custom-resource kinds its CustomResourceDefinitions define. */
export class ScaleTargets extends Map<string, ScaleTarget> {
  /** group|kind → the definition. */
  readonly definitions = new Map<string, CustomScaleDefinition>()
}

/** Kubernetes' version priority (version.CompareKubeAwareVersionStrings): GA, then beta, then alpha, newest first; others after, by name. */
function versionRank(v: string): [number, number, number, string] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v)
  if (!m) return [3, 0, 0, v]
  const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2
  return [stage, -Number(m[1]), -Number(m[3] ?? 0), v]
}
const byVersionPriority = (a: string, b: string) => {
  const x = versionRank(a)
  const y = versionRank(b)
  for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1
  return 0
}

/** unstructured.NestedInt64 / NestedString at a `.a.b` path: absent is the zero value, another type an error. */
function nested(o: unknown, path: string, type: 'int64' | 'string'): {value: number | string} | {error: string} {
  let at: unknown = o
  for (const f of path.replace(/^\./, '').split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return {value: type === 'int64' ? 0 : ''}
    at = (at as Record<string, unknown>)[f]
    if (at === undefined) return {value: type === 'int64' ? 0 : ''}
  }
  if (type === 'int64' ? typeof at === 'number' && Number.isInteger(at) : typeof at === 'string') return {value: at as number | string}
  const got = at === null ? '<nil>' : Array.isArray(at) ? '[]interface {}' : typeof at === 'object' ? 'map[string]interface {}' : typeof at === 'number' ? 'float64' : typeof at === 'boolean' ? 'bool' : 'string'
  return {error: `${path} accessor error: ${JSON.stringify(at)} is of the type ${got}, expected ${type}`}
}

/**
 * The custom resource's Scale as its /scale answers it (the apiextensions-apiserver's
 * scaleFromCustomResource): spec.replicas and status.replicas read at the version's paths (0 when
 * absent), the selector string at labelSelectorPath ('' without one). The version is the first of
 * the kind's mappings, by version priority, that serves /scale (scaleForResourceMappings).
 */
function customScale(def: CustomScaleDefinition, cr: NonNullable<Snapshot['customResources']>[number]): {scale: ScaleRead; specReplicasPath?: string} {
  const version = [...def.versions].filter((v) => v.scale).sort((a, b) => byVersionPriority(a.name, b.name))[0]
  if (!version?.scale) return {scale: {error: 'the server could not find the requested resource'}}
  const paths = version.scale
  const spec = nested(cr.object, paths.specReplicasPath, 'int64')
  const status = nested(cr.object, paths.statusReplicasPath, 'int64')
  const selector = paths.labelSelectorPath ? nested(cr.object, paths.labelSelectorPath, 'string') : {value: ''}
  for (const r of [spec, status, selector]) if ('error' in r) return {scale: {error: r.error}, specReplicasPath: paths.specReplicasPath}
  const value = (r: typeof spec) => ('value' in r ? r.value : 0)
  return {
    scale: {scale: {kind: def.kind, apiVersion: `${def.group}/${version.name}`, name: cr.name, specReplicas: Number(value(spec)), statusReplicas: Number(value(status)), selector: String(value(selector))}},
    specReplicasPath: paths.specReplicasPath,
  }
}

/** The kinds whose scale subresource kctl reads, by API group and kind, with their resource name (RESTMapping). */
const SCALABLE: Readonly<Record<string, string>> = {
  'apps|Deployment': 'deployments.apps',
  'apps|StatefulSet': 'statefulsets.apps',
  'apps|ReplicaSet': 'replicasets.apps',
  '|ReplicationController': 'replicationcontrollers',
}

const groupOf = (apiVersion: string | undefined) => {
  const v = apiVersion ?? ''
  const i = v.indexOf('/')
  return i < 0 ? '' : v.slice(0, i)
}

/** Every object of the snapshot that serves /scale, keyed by group, kind, namespace and name. */
export function scaleTargets(snapshot: Snapshot): ScaleTargets {
  const out = new ScaleTargets()
  const add = (from: ScaleTarget['from'], objects: readonly Omit<ScaleTarget, 'from'>[] | undefined) => {
    for (const o of objects ?? []) {
      const key = `${groupOf(o.apiVersion)}|${o.kind}|${o.namespace}|${o.name}`
      if (!out.has(key)) out.set(key, {kind: o.kind, apiVersion: o.apiVersion, namespace: o.namespace, name: o.name, uid: o.uid, resourceVersion: o.resourceVersion, replicas: o.replicas, selector: o.selector, status: o.status, from})
    }
  }
  add('deployments', snapshot.deployments)
  add('statefulSets', snapshot.statefulSets)
  // Every ReplicaSet (also those a label filter leaves out), then the RCs among the planned workloads.
  add('replicaSets', snapshot.replicaSets)
  add('workloads', snapshot.workloads)
  // Custom resources: through their definitions (files), or as their /scale answered (live).
  for (const d of snapshot.scaleDefinitions ?? []) if (!out.definitions.has(`${d.group}|${d.kind}`)) out.definitions.set(`${d.group}|${d.kind}`, d)
  for (const cr of snapshot.customResources ?? []) {
    const group = groupOf(cr.apiVersion)
    const def = out.definitions.get(`${group}|${cr.kind}`)
    const key = `${group}|${cr.kind}|${cr.namespace}|${cr.name}`
    if (!def || out.has(key)) continue
    const {scale, specReplicasPath} = customScale(def, cr)
    const s = 'scale' in scale ? scale.scale : undefined
    out.set(key, {
      kind: cr.kind, apiVersion: s?.apiVersion ?? cr.apiVersion, namespace: cr.namespace, name: cr.name, uid: cr.uid, resourceVersion: cr.resourceVersion,
      replicas: s?.specReplicas ?? 0, selector: null, status: {replicas: s?.statusReplicas ?? 0}, from: 'custom',
      custom: {scale, resource: `${def.plural}.${def.group}`, ...(specReplicasPath ? {specReplicasPath} : {})},
    })
  }
  for (const c of snapshot.customScales ?? []) {
    const key = `${c.group}|${c.kind}|${c.namespace}|${c.name}`
    if (out.has(key)) continue
    if ('error' in c) {
      out.set(key, {kind: c.kind, apiVersion: '', namespace: c.namespace, name: c.name, uid: '', resourceVersion: '', replicas: 0, selector: null, status: {replicas: 0}, from: 'custom', custom: {scale: {error: c.error}, resource: ''}})
      continue
    }
    out.set(key, {
      kind: c.kind, apiVersion: c.apiVersion, namespace: c.namespace, name: c.name, uid: c.uid, resourceVersion: c.resourceVersion, replicas: c.specReplicas, selector: null, status: {replicas: c.statusReplicas}, from: 'custom',
      custom: {scale: {scale: {kind: c.kind, apiVersion: c.apiVersion, name: c.name, specReplicas: c.specReplicas, statusReplicas: c.statusReplicas, selector: c.selector}}, resource: c.resource},
    })
  }
  return out
}

/** metav1.FormatLabelSelector: the selector's requirements as a string, keys in order (what scale.status.selector holds). */
export function formatSelector(selector: LabelSelector): string {
  if (selector === null) return ''
  const reqs: {key: string; text: string}[] = []
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) reqs.push({key: k, text: `${k}=${v}`})
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort()
    const text =
      e.operator === 'In' ? `${e.key} in (${values.join(',')})` : e.operator === 'NotIn' ? `${e.key} notin (${values.join(',')})` : e.operator === 'Exists' ? e.key : `!${e.key}`
    reqs.push({key: e.key, text})
  }
  if (reqs.length === 0) return ''
  return reqs
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',')
}

/**
 * scaleForResourceMappings: the Scale of the target, or the error the GET would end with. Only the
 * group of scaleTargetRef.apiVersion is read; a kind kctl knows no scale of, or a target not in
 * the input, is an error (the plan says which).
 */
export function readScale(hpa: HpaObject, targets: ScaleTargets): {scale: ScaleRead; target?: ScaleTarget; notInInput?: string; unknown?: true} {
  const ref = hpa.spec.scaleTargetRef
  const group = groupOf(ref.apiVersion)
  const resource = SCALABLE[`${group}|${ref.kind}`]
  if (resource === undefined) {
    // A custom resource: its Scale as read live, or through its definition.
    const target = targets.get(`${group}|${ref.kind}|${hpa.namespace}|${ref.name}`)
    if (target?.custom) {
      const scale = target.custom.scale
      return 'scale' in scale ? {scale, target} : {scale}
    }
    const def = targets.definitions.get(`${group}|${ref.kind}`)
    if (!def) {
      const what = `${ref.kind}${group ? `.${group}` : ''}`
      return {
        scale: {error: `no matches for kind "${ref.kind}" in group "${group}"`},
        notInInput: `the CustomResourceDefinition of ${what} (the kind of ${ref.kind}/${ref.name}, the scale target) is not in the input: kctl reads a custom resource's scale through its subresources.scale, and guesses none; nothing is planned`,
        unknown: true,
      }
    }
    return {scale: {error: `${def.plural}.${def.group} "${ref.name}" not found`}, notInInput: `the scale target ${ref.kind}/${ref.name} is not in the input`}
  }
  const target = targets.get(`${group}|${ref.kind}|${hpa.namespace}|${ref.name}`)
  if (!target) return {scale: {error: `${resource} "${ref.name}" not found`}, notInInput: `the scale target ${ref.kind}/${ref.name} is not in the input`}
  return {
    scale: {scale: {kind: target.kind, apiVersion: target.apiVersion, name: target.name, specReplicas: target.replicas, statusReplicas: target.status.replicas, selector: formatSelector(target.selector)}},
    target,
  }
}

/** The pod as the replica calculator reads it. */
function hpaPod(p: PodView): HpaPod {
  const a = p.autoscaling
  const pod: HpaPod = {name: p.name, namespace: p.namespace, labels: p.labels, phase: p.phase, containers: a?.containers ?? [], sidecars: a?.sidecars ?? []}
  if (p.deletionTimestamp !== undefined) pod.deletionTimestamp = p.deletionTimestamp
  if (a?.startTime !== undefined) pod.startTime = a.startTime
  if (a?.readyCondition) pod.readyCondition = a.readyCondition
  if (a?.podRequests) pod.podRequests = a.podRequests
  return pod
}

function selectorOf(m: {selector?: LabelSelector}): CompiledSelector | undefined {
  try {
    return m.selector ? compileLabelSelector(m.selector) : undefined
  } catch {
    return undefined
  }
}

type ClaimView = NonNullable<Snapshot['claims']>[number]
type StatefulSetView = NonNullable<Snapshot['statefulSets']>[number]

/**
 * The snapshot grouped once per plan, so that each HPA reads only its own namespace: the metrics
 * fixtures by namespace (and the custom metrics' described objects by kind and name), the
 * external metrics by name, the live answers by HPA; the objects its target's controller reads
 * in the following step by namespace, and the scalable objects by uid. Each group keeps the
 * snapshot's order. Built lazily, one group at a time.
 */
export class HpaPlanIndex {
  private podMetricsIn?: Map<string, PodMetricsFixture[]>
  private podMetricsByLabel?: Map<string, {labelled: Map<string, PodMetricsFixture[]>; unlabelled: PodMetricsFixture[]; position: Map<PodMetricsFixture, number>}>
  private customOf?: Map<string, CustomMetricFixture[]>
  private customPosition?: Map<CustomMetricFixture, number>
  private customAsked = new Map<CustomMetricFixture, string>()
  private externalNamed?: Map<string, ExternalMetricFixture[]>
  private live?: Map<string, HpaLiveMetrics>
  private replicaSetsIn?: Map<string, Workload[]>
  private replicaSetsBy?: {position: Map<Workload, number>; owned: Map<string, Workload[]>; orphans: Map<string, Workload[]>}
  private revisionsIn?: Map<string, ControllerRevisionView[]>
  private claimsIn?: Map<string, ClaimView[]>
  private byUid?: {deployments: Map<string, DeploymentView[]>; statefulSets: Map<string, StatefulSetView[]>; workloads: Map<string, Workload[]>}

  constructor(readonly snapshot: Snapshot) {}

  podMetrics(namespace: string): readonly PodMetricsFixture[] {
    this.podMetricsIn ??= byNamespace(this.snapshot.podMetrics ?? [])
    return this.podMetricsIn.get(namespace) ?? []
  }

  /**
   * The PodMetrics of a namespace that may match a selector, in the snapshot's order: with an
   * equality (`In`) requirement, those labelled with one of its values and those without labels
   * (which the caller checks by name); otherwise all of them.
   */
  podMetricsFor(namespace: string, selector: CompiledSelector | undefined): readonly PodMetricsFixture[] {
    const all = this.podMetrics(namespace)
    const eq = selector?.requirements?.find((r) => r.operator === 'In')
    if (!eq || all.length < 16) return all
    this.podMetricsByLabel ??= new Map()
    let byLabel = this.podMetricsByLabel.get(namespace)
    if (!byLabel) {
      byLabel = {labelled: new Map(), unlabelled: [], position: new Map()}
      for (const [at, i] of all.entries()) {
        byLabel.position.set(i, at)
        if (!i.labels) {
          byLabel.unlabelled.push(i)
          continue
        }
        for (const [k, v] of Object.entries(i.labels)) {
          const key = `${k}\0${v}`
          const list = byLabel.labelled.get(key)
          if (list) list.push(i)
          else byLabel.labelled.set(key, [i])
        }
      }
      this.podMetricsByLabel.set(namespace, byLabel)
    }
    const lists = [...new Set(eq.values)].map((v) => byLabel.labelled.get(`${eq.key}\0${v}`) ?? [])
    if (byLabel.unlabelled.length > 0) lists.push(byLabel.unlabelled)
    const nonEmpty = lists.filter((l) => l.length > 0)
    if (nonEmpty.length <= 1) return nonEmpty[0] ?? []
    const position = byLabel.position
    return nonEmpty.flat().sort((a, b) => position.get(a)! - position.get(b)!)
  }

  /** The custom metric values of one described object (kind, namespace, name). */
  customMetricsOf(kind: string, namespace: string, name: string): readonly CustomMetricFixture[] {
    this.customOf ??= groupBy(this.snapshot.customMetrics ?? [], (i) => objectKey(i.describedObject.kind, i.describedObject.namespace, i.describedObject.name))
    return this.customOf.get(objectKey(kind, namespace, name)) ?? []
  }

  /** The custom metric values of some pods of a namespace, in the snapshot's order. */
  customMetricsOfPods(namespace: string, names: ReadonlySet<string>): readonly CustomMetricFixture[] {
    const lists = [...names].map((name) => this.customMetricsOf('Pod', namespace, name)).filter((l) => l.length > 0)
    if (lists.length <= 1) return lists[0] ?? []
    if (this.customPosition === undefined) {
      this.customPosition = new Map()
      for (const [at, i] of (this.snapshot.customMetrics ?? []).entries()) this.customPosition.set(i, at)
    }
    const position = this.customPosition
    return lists.flat().sort((a, b) => position.get(a)! - position.get(b)!)
  }

  /** The metric selector a custom metric value was asked with, formatted (formatSelector), once per value. */
  askedSelector(i: CustomMetricFixture): string {
    let s = this.customAsked.get(i)
    if (s === undefined) {
      s = formatSelector(i.selector ?? null)
      this.customAsked.set(i, s)
    }
    return s
  }

  externalMetrics(metricName: string): readonly ExternalMetricFixture[] {
    this.externalNamed ??= groupBy(this.snapshot.externalMetrics ?? [], (i) => i.metricName)
    return this.externalNamed.get(metricName) ?? []
  }

  /** What the metrics APIs answered this HPA when read live (the first answer listed for it). */
  liveAnswers(hpa: HpaObject): HpaLiveMetrics | undefined {
    if (this.live === undefined) {
      this.live = new Map()
      for (const h of this.snapshot.hpaMetrics ?? []) {
        const key = objectKey('', h.namespace, h.name)
        if (!this.live.has(key)) this.live.set(key, h)
      }
    }
    return this.live.get(objectKey('', hpa.namespace, hpa.name))
  }

  /** The ReplicaSets, ControllerRevisions and claims of some namespaces, in the snapshot's order within each. */
  inNamespaces(namespaces: ReadonlySet<string>): {replicaSets: Workload[]; controllerRevisions: ControllerRevisionView[]; claims: ClaimView[]} {
    this.replicaSetsIn ??= byNamespace(this.snapshot.replicaSets)
    this.revisionsIn ??= byNamespace(this.snapshot.controllerRevisions ?? [])
    this.claimsIn ??= byNamespace(this.snapshot.claims ?? [])
    const of = <T>(m: Map<string, T[]>): T[] => [...namespaces].flatMap((ns) => m.get(ns) ?? [])
    return {replicaSets: of(this.replicaSetsIn), controllerRevisions: of(this.revisionsIn), claims: of(this.claimsIn)}
  }

  /**
   * The ReplicaSets the Deployment controller's sync of these Deployments (all with this uid)
   * reads, in the snapshot's order: its claim candidates (the ReplicaSets it controls, the
   * orphans of its namespace), and those of its namespace that may bear the name of the
   * ReplicaSet it would create (`<name>-<hash>`, the name cut to leave room for the hash: never
   * shorter than 200 characters of it) — all the others are neither claimed nor clash by name.
   */
  replicaSetsOfDeployments(deployments: readonly DeploymentView[], uid: string): Workload[] {
    if (this.replicaSetsBy === undefined) {
      const position = new Map<Workload, number>()
      const owned = new Map<string, Workload[]>()
      const orphans = new Map<string, Workload[]>()
      for (const [at, rs] of this.snapshot.replicaSets.entries()) {
        position.set(rs, at)
        const ref = controllerOf(rs)
        const [map, key] = ref ? [owned, ref.uid] : [orphans, rs.namespace]
        const list = map.get(key)
        if (list) list.push(rs)
        else map.set(key, [rs])
      }
      this.replicaSetsBy = {position, owned, orphans}
    }
    this.replicaSetsIn ??= byNamespace(this.snapshot.replicaSets)
    const {position, owned, orphans} = this.replicaSetsBy
    const picked = new Set<Workload>(owned.get(uid) ?? [])
    for (const d of deployments) {
      for (const rs of orphans.get(d.namespace) ?? []) picked.add(rs)
      const prefix = d.name.slice(0, 200)
      for (const rs of this.replicaSetsIn.get(d.namespace) ?? []) if (rs.uid === uid || rs.name.startsWith(prefix)) picked.add(rs)
    }
    return [...picked].sort((a, b) => position.get(a)! - position.get(b)!)
  }

  /** The Deployments, StatefulSets and planned workloads with this uid. */
  withUid(uid: string): {deployments: readonly DeploymentView[]; statefulSets: readonly StatefulSetView[]; workloads: readonly Workload[]} {
    this.byUid ??= {
      deployments: groupBy(this.snapshot.deployments ?? [], (o) => o.uid),
      statefulSets: groupBy(this.snapshot.statefulSets ?? [], (o) => o.uid),
      workloads: groupBy(this.snapshot.workloads ?? [], (o) => o.uid),
    }
    return {deployments: this.byUid.deployments.get(uid) ?? [], statefulSets: this.byUid.statefulSets.get(uid) ?? [], workloads: this.byUid.workloads.get(uid) ?? []}
  }
}

const objectKey = (kind: string, namespace: string, name: string) => `${kind}\0${namespace}\0${name}`

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const list = out.get(k)
    if (list) list.push(item)
    else out.set(k, [item])
  }
  return out
}

// A custom metric value answers the HPA's request only if it was asked with the same metric
// selector (metricLabelSelector): a value without one answers a metric without one. Both sides
// are compared as formatSelector prints them.

/**
 * What each metrics API would answer, from the fixtures: the samples of the pods the target's
 * selector matches, the object's value, the external metric's values. Nothing found is `missing`:
 * the proposal is then reported as not made, never guessed.
 */
export function metricAnswers(hpa: HpaObject, snapshot: Snapshot, podSelector: string, pods: readonly PodView[], index = new HpaPlanIndex(snapshot)): MetricAnswer[] {
  let selector: CompiledSelector | undefined
  try {
    selector = podSelector === '' ? undefined : parseSelectorString(podSelector)
  } catch {
    selector = undefined
  }
  const podNames = new Set(pods.map((p) => p.name))
  const selectedPod = (name: string, labels?: Readonly<Record<string, string>>) => (labels && selector ? selectorMatches(selector, labels) : podNames.has(name))
  const ns = hpa.namespace
  return hpa.spec.metrics.map((m: MetricSpec): MetricAnswer => {
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource': {
        // GET metrics.k8s.io/v1beta1/namespaces/<ns>/pods?labelSelector=<the target's selector>.
        const items = index.podMetricsFor(ns, selector).filter((i) => selectedPod(i.name, i.labels))
        return items.length === 0 ? {kind: 'missing'} : {kind: 'podMetrics', items: items.map(({name, timestamp, windowSeconds, containers}) => ({name, timestamp, windowSeconds, containers}))}
      }
      case 'Pods': {
        const id = (m as Extract<MetricSpec, {type: 'Pods'}>).pods.metric
        const asked = formatSelector(id.selector ?? null)
        const items = index.customMetricsOfPods(ns, podNames).filter((i) => i.metric === id.name && index.askedSelector(i) === asked)
        return items.length === 0 ? {kind: 'missing'} : {kind: 'podValues', items: items.map((i) => ({pod: i.describedObject.name, value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      case 'Object': {
        const o = (m as Extract<MetricSpec, {type: 'Object'}>).object
        const asked = formatSelector(o.metric.selector ?? null)
        const items = index.customMetricsOf(o.describedObject.kind, ns, o.describedObject.name).filter((i) => i.metric === o.metric.name && index.askedSelector(i) === asked)
        return items.length === 0 ? {kind: 'missing'} : {kind: 'objectValues', items: items.map((i) => ({value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      case 'External': {
        const e = (m as Extract<MetricSpec, {type: 'External'}>).external
        const sel = selectorOf(e.metric)
        const items = index.externalMetrics(e.metric.name).filter((i) => (i.namespace === '' || i.namespace === ns) && (!sel || selectorMatches(sel, i.metricLabels)))
        return items.length === 0 ? {kind: 'missing'} : {kind: 'externalValues', items: items.map((i) => ({value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      default:
        return {kind: 'missing'}
    }
  })
}

/** The plan's detail: the sync's decision, the metrics not found, the controller's memory in words. */
function planView(d: HpaPlanDetail, hpa: HpaObject, answers: readonly MetricAnswer[]): HpaPlanView {
  const {history, status: _status, events: _events, assumes: _assumes, requeue: _requeue, selector: _selector, ...rest} = d
  const missing = hpa.spec.metrics.flatMap((m, index) =>
    answers[index]?.kind === 'missing' && d.proposals.some((p) => p.index === index) ? [{index, type: m.type, name: metricName(m)}] : [],
  )
  return {
    ...rest,
    min: hpa.spec.minReplicas,
    max: hpa.spec.maxReplicas,
    missing,
    memory: {
      recommendations: (history.recommendations ?? []).map((r) => ({replicas: r.replicas, at: formatRfc3339(r.at)})),
      scaleUpEvents: history.scaleUpEvents.length,
      scaleDownEvents: history.scaleDownEvents.length,
    },
  }
}

/** The metric's name as the plan names a missing one. */
export function metricName(m: MetricSpec): string {
  const s = m as Record<string, {name?: string; metric?: {name: string}} | undefined>
  const src = s.resource ?? s.containerResource ?? s.pods ?? s.object ?? s.external
  return src?.metric?.name ?? src?.name ?? ''
}

/**
 * One HPA's plan, without the following step. `memory`: a controller that has been running (the
 * simulation's): its history for this HPA and the metrics it reads now, instead of a fresh
 * controller's and the fixtures'. `index`: the snapshot's metrics and objects, found once per plan.
 */
export function planHpa(
  hpa: HpaObject,
  snapshot: Snapshot,
  world: World,
  targets = scaleTargets(snapshot),
  memory?: {
    history?: HpaHistory
    answers?: (selector: string, pods: readonly PodView[]) => MetricAnswer[]
    /** The selectors the controller has registered for the namespace's other HPAs (hpaSelectors). */
    otherHpaSelectors?: readonly {key: string; selector: string}[]
  },
  index = new HpaPlanIndex(snapshot),
): {plan: ControllerPlan; target?: ScaleTarget; detail: HpaPlanDetail} {
  const {scale, target, notInInput, unknown} = readScale(hpa, targets)
  let pods: PodView[] = []
  let answers: MetricAnswer[] = []
  if ('scale' in scale) {
    try {
      pods = world.index.matching(hpa.namespace, parseSelectorString(scale.scale.selector))
    } catch {
      pods = []
    }
    if (scale.scale.selector === '') pods = []
    // Read live: the metrics APIs' own answers; from files: the fixtures, filtered as the APIs would.
    // A running controller's (the simulation's) metrics come from its memory, read as it syncs.
    const live = memory?.answers ? undefined : index.liveAnswers(hpa)
    answers = memory?.answers ? memory.answers(scale.scale.selector, pods) : live ? [...live.answers] : metricAnswers(hpa, snapshot, scale.scale.selector, pods, index)
  }
  const d = syncHpa({hpa, scale, pods: pods.map(hpaPod), metrics: answers, history: memory?.history, now: world.now, config: DEFAULT_HPA_CONFIG, gates: DEFAULT_HPA_GATES, otherHpaSelectors: memory?.otherHpaSelectors})
  const warnings: string[] = []
  if (notInInput) warnings.push(notInInput)
  for (const e of d.events) if (e.type === 'Warning') warnings.push(`${e.reason}: ${e.message}`)
  const actions: HpaAction[] = []
  const custom = target?.custom ? {resource: target.custom.resource, ...(target.custom.specReplicasPath ? {specReplicasPath: target.custom.specReplicasPath} : {})} : {}
  if (d.scaleWrite && d.target) actions.push({type: 'scaleTarget', target: {...d.target, ...custom}, ...(target ? {uid: target.uid, resourceVersion: target.resourceVersion} : {}), from: d.scaleWrite.from, to: d.scaleWrite.to, reason: d.rescaleReason})
  if (d.statusChanged) actions.push({type: 'updateHpaStatus', from: hpa.status, to: d.status})
  // A custom-resource kind whose definition is not in the input: how its scale reads is unknown, so no write is planned.
  if (unknown) actions.length = 0
  const assumes = memory ? [] : [...d.assumes, 'no other HPA of the namespace has synced yet (a controller started afresh): no AmbiguousSelector check against them']
  const current = d.currentReplicas ?? hpa.status.currentReplicas
  const plan: ControllerPlan = {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: hpa.apiVersion,
    namespace: hpa.namespace,
    name: hpa.name,
    uid: hpa.uid,
    resourceVersion: hpa.resourceVersion,
    desired: d.desired,
    active: current,
    diff: current - d.desired,
    actions,
    pending: 0,
    status: d.status,
    warnings,
    inSync: actions.length === 0,
    assumes,
    events: d.events.map((e) => `${e.type} ${e.reason}: ${e.message}`),
    requeue: {at: d.requeue.at, seconds: d.requeue.seconds, reason: 'sync-period'},
    hpa: planView(d, hpa, answers),
  }
  return {plan, target, detail: d}
}

const OWN_NAME = 'horizontalpodautoscaling'

/**
 * The following step: the target's controller's next sync with spec.replicas at the size the HPA
 * wrote, planned by that controller's own planner on the snapshot with the target resized.
 */
export function followingStep(target: ScaleTarget, replicas: number, snapshot: Snapshot, world: World, index = new HpaPlanIndex(snapshot)): ControllerPlan[] {
  const controller = CONTROLLERS.find((c) => c.name !== OWN_NAME && (c.kinds as readonly string[]).includes(target.kind))
  if (!controller) return []
  type Sized = {uid: string; replicas: number; namespace: string}
  const resize = <T extends Sized>(list: readonly T[]): T[] => list.map((o) => (o.uid === target.uid ? {...o, replicas} : o))
  // The objects with the target's uid, and what their controllers read of their namespaces: a
  // controller plans an object from its own namespace only.
  const own = index.withUid(target.uid)
  const namespaces = new Set([target.namespace, ...[...own.deployments, ...own.statefulSets, ...own.workloads].map((o) => o.namespace)])
  const read = index.inNamespaces(namespaces)
  const resized: Snapshot = {
    ...snapshot,
    deployments: resize(own.deployments),
    statefulSets: resize(own.statefulSets),
    workloads: resize(own.workloads),
    // For a Deployment, only the ReplicaSets its sync reads (its claim candidates and the names it may clash with).
    replicaSets: resize(target.from === 'deployments' && own.statefulSets.length === 0 && own.workloads.length === 0 ? index.replicaSetsOfDeployments(own.deployments, target.uid) : read.replicaSets),
    controllerRevisions: read.controllerRevisions,
    claims: read.claims,
    daemonSets: [],
    jobs: [],
    cronJobs: [],
    services: [],
    hpas: [],
  }
  return controller.plan(resized, world).filter((p) => p.uid === target.uid)
}

/** Plans the next sync of every HPA in the snapshot, each followed by its target's next sync at the new size. */
export function planHpas(snapshot: Snapshot, world: World): ControllerPlan[] {
  const hpas = snapshot.hpas ?? []
  if (hpas.length === 0) return []
  const targets = scaleTargets(snapshot)
  const index = new HpaPlanIndex(snapshot)
  return hpas.map((hpa) => {
    const {plan, target} = planHpa(hpa, snapshot, world, targets, undefined, index)
    const write = plan.actions.find((a) => a.type === 'scaleTarget')
    if (target && write && write.type === 'scaleTarget') {
      const then = followingStep(target, write.to, snapshot, world, index)
      if (then.length > 0) plan.then = then
    }
    return plan
  })
}
