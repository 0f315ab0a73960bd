// The horizontal pod autoscaler controller's plans for a snapshot: for each HPA, the scale target
// as its scale subresource shows it, the pods its selector matches, the metrics fixtures' answers,
// then one sync (sync.ts) as a controller that has just started would run it; and, as the
// following step, the target's own controller's next sync at the new size.
import type {LabelSelector, PodView, Snapshot} from '../../model/objects.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {World} from '../../reconcile/planner.js'
import {compileLabelSelector, parseSelectorString, selectorMatches, type CompiledSelector} from '../../reconcile/selector.js'
import {formatRfc3339} from '../../reconcile/time.js'
import {
  type CustomMetricFixture,
  DEFAULT_HPA_CONFIG,
  DEFAULT_HPA_GATES,
  type HpaAction,
  type HpaHistory,
  type HpaObject,
  type HpaPlanDetail,
  type HpaPlanView,
  type HpaPod,
  type MetricAnswer,
  type MetricSpec,
  type ScaleRead,
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
  /** The Snapshot list it came from (to plan its controller's next sync). */
  from: 'deployments' | 'statefulSets' | 'replicaSets' | 'workloads'
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
export function scaleTargets(snapshot: Snapshot): Map<string, ScaleTarget> {
  const out = new Map<string, ScaleTarget>()
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
export function readScale(hpa: HpaObject, targets: Map<string, ScaleTarget>): {scale: ScaleRead; target?: ScaleTarget; notInInput?: string} {
  const ref = hpa.spec.scaleTargetRef
  const group = groupOf(ref.apiVersion)
  const resource = SCALABLE[`${group}|${ref.kind}`]
  if (resource === undefined) return {scale: {error: `no matches for kind "${ref.kind}" in group "${group}"`}, notInInput: `kctl reads the scale of Deployments, StatefulSets, ReplicaSets and ReplicationControllers only: ${ref.kind} in group "${group}" is taken to have none`}
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

/**
 * A custom metric value answers the HPA's request only if it was asked with the same metric
 * selector (metricLabelSelector): a value without one answers a metric without one.
 */
const askedWith = (i: CustomMetricFixture, id: {selector?: LabelSelector}) => formatSelector(i.selector ?? null) === formatSelector(id.selector ?? null)

/**
 * What each metrics API would answer, from the fixtures: the samples of the pods the target's
 * selector matches, the object's value, the external metric's values. Nothing found is `missing`:
 * the proposal is then reported as not made, never guessed.
 */
export function metricAnswers(hpa: HpaObject, snapshot: Snapshot, podSelector: string, pods: readonly PodView[]): MetricAnswer[] {
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
        const items = (snapshot.podMetrics ?? []).filter((i) => i.namespace === ns && selectedPod(i.name, i.labels))
        return items.length === 0 ? {kind: 'missing'} : {kind: 'podMetrics', items: items.map(({name, timestamp, windowSeconds, containers}) => ({name, timestamp, windowSeconds, containers}))}
      }
      case 'Pods': {
        const id = (m as Extract<MetricSpec, {type: 'Pods'}>).pods.metric
        const items = (snapshot.customMetrics ?? []).filter(
          (i) => i.metric === id.name && askedWith(i, id) && i.describedObject.kind === 'Pod' && i.describedObject.namespace === ns && podNames.has(i.describedObject.name),
        )
        return items.length === 0 ? {kind: 'missing'} : {kind: 'podValues', items: items.map((i) => ({pod: i.describedObject.name, value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      case 'Object': {
        const o = (m as Extract<MetricSpec, {type: 'Object'}>).object
        const items = (snapshot.customMetrics ?? []).filter(
          (i) => i.metric === o.metric.name && askedWith(i, o.metric) && i.describedObject.kind === o.describedObject.kind && i.describedObject.name === o.describedObject.name && i.describedObject.namespace === ns,
        )
        return items.length === 0 ? {kind: 'missing'} : {kind: 'objectValues', items: items.map((i) => ({value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      case 'External': {
        const e = (m as Extract<MetricSpec, {type: 'External'}>).external
        const sel = selectorOf(e.metric)
        const items = (snapshot.externalMetrics ?? []).filter((i) => i.metricName === e.metric.name && (i.namespace === '' || i.namespace === ns) && (!sel || selectorMatches(sel, i.metricLabels)))
        return items.length === 0 ? {kind: 'missing'} : {kind: 'externalValues', items: items.map((i) => ({value: i.value, ...(i.timestamp ? {timestamp: i.timestamp} : {})}))}
      }
      default:
        return {kind: 'missing'}
    }
  })
}

/** The plan's detail: the sync's decision, the metrics not found, the controller's memory in words. */
function planView(d: HpaPlanDetail, hpa: HpaObject, answers: readonly MetricAnswer[]): HpaPlanView {
  const {history, status: _status, events: _events, assumes: _assumes, requeue: _requeue, ...rest} = d
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
 * controller's and the fixtures'.
 */
export function planHpa(
  hpa: HpaObject,
  snapshot: Snapshot,
  world: World,
  targets = scaleTargets(snapshot),
  memory?: {history?: HpaHistory; answers?: (selector: string, pods: readonly PodView[]) => MetricAnswer[]},
): {plan: ControllerPlan; target?: ScaleTarget; detail: HpaPlanDetail} {
  const {scale, target, notInInput} = readScale(hpa, targets)
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
    const live = snapshot.hpaMetrics?.find((h) => h.namespace === hpa.namespace && h.name === hpa.name)
    answers = memory?.answers ? memory.answers(scale.scale.selector, pods) : live ? [...live.answers] : metricAnswers(hpa, snapshot, scale.scale.selector, pods)
  }
  const d = syncHpa({hpa, scale, pods: pods.map(hpaPod), metrics: answers, history: memory?.history, now: world.now, config: DEFAULT_HPA_CONFIG, gates: DEFAULT_HPA_GATES})
  const warnings: string[] = []
  if (notInInput) warnings.push(notInInput)
  for (const e of d.events) if (e.type === 'Warning') warnings.push(`${e.reason}: ${e.message}`)
  const actions: HpaAction[] = []
  if (d.scaleWrite && d.target) actions.push({type: 'scaleTarget', target: d.target, ...(target ? {uid: target.uid, resourceVersion: target.resourceVersion} : {}), from: d.scaleWrite.from, to: d.scaleWrite.to, reason: d.rescaleReason})
  if (d.statusChanged) actions.push({type: 'updateHpaStatus', from: hpa.status, to: d.status})
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
export function followingStep(target: ScaleTarget, replicas: number, snapshot: Snapshot, world: World): ControllerPlan[] {
  const controller = CONTROLLERS.find((c) => c.name !== OWN_NAME && (c.kinds as readonly string[]).includes(target.kind))
  if (!controller) return []
  type Sized = {uid: string; replicas: number}
  const resize = <T extends Sized>(list: readonly T[] | undefined): T[] => (list ?? []).map((o) => (o.uid === target.uid ? {...o, replicas} : o))
  const only = <T extends Sized>(list: readonly T[] | undefined): T[] => resize(list).filter((o) => o.uid === target.uid)
  const resized: Snapshot = {
    ...snapshot,
    deployments: only(snapshot.deployments),
    statefulSets: only(snapshot.statefulSets),
    workloads: only(snapshot.workloads),
    replicaSets: resize(snapshot.replicaSets),
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
  return hpas.map((hpa) => {
    const {plan, target} = planHpa(hpa, snapshot, world, targets)
    const write = plan.actions.find((a) => a.type === 'scaleTarget')
    if (target && write && write.type === 'scaleTarget') {
      const then = followingStep(target, write.to, snapshot, world)
      if (then.length > 0) plan.then = then
    }
    return plan
  })
}
