// HorizontalPodAutoscalers as the API server stores them, and the metrics APIs' answers as
// `kubectl get --raw` prints them. autoscaling/v2 is validated as ValidateHorizontalPodAutoscaler
// does (pkg/apis/autoscaling/validation) and defaulted as SetDefaults_HorizontalPodAutoscaler does;
// autoscaling/v1 is converted first (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_...).
import {parseQuantity} from '../../reconcile/hash/quantity.js'
import type {PodView} from '../../model/objects.js'
import {type Ctx, EMPTY_RAW as EMPTY, INT32_MAX, isMapping, timestampProblem} from '../../sources/context.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {KindReader, Meta, PodFieldsReader} from '../../sources/part.js'
import {parseDuration} from '../../watch/duration.js'
import {defaultHpaSpec, milliValue, type HpaSpecInput, type ScalingRulesInput} from './defaults.js'
import type {
  ContainerRequests,
  CustomMetricFixture,
  CustomScaleDefinition,
  ExternalMetricFixture,
  HpaCondition,
  HpaObject,
  HpaPodFields,
  HpaStatus,
  MetricIdentifier,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
  PodMetricsFixture,
  ScalePaths,
  ScalingPolicy,
} from './model.js'

const V1_CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions'
const V1_METRICS = 'autoscaling.alpha.kubernetes.io/metrics'
const V1_BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior'
const V1_CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics'

const mappingOf = (v: unknown): RawObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as RawObject) : undefined)
const defined = (o: RawObject): RawObject => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null))

/**
 * Convert_v1_MetricSpec_To_autoscaling_MetricSpec: one metric of the v1 object's metrics annotation
 * (the v2beta1 shape: targetAverageUtilization, metricName, targetValue…) in the v2 shape readMetric
 * reads. The target type follows from which value is set, as the conversion decides it.
 */
export function convertV1Metric(m: RawObject): RawObject {
  const type = m.type
  const src = (f: string) => mappingOf(m[f]) ?? {}
  switch (type) {
    case 'Resource':
    case 'ContainerResource': {
      const field = type === 'Resource' ? 'resource' : 'containerResource'
      const r = src(field)
      const utilization = r.targetAverageUtilization
      const target = defined({type: utilization === undefined || utilization === null ? 'AverageValue' : 'Utilization', averageUtilization: utilization, averageValue: r.targetAverageValue})
      return {type, [field]: defined({name: r.name, container: r.container, target})}
    }
    case 'Pods': {
      const r = src('pods')
      return {type, pods: {metric: defined({name: r.metricName, selector: r.selector}), target: defined({type: 'AverageValue', averageValue: r.targetAverageValue})}}
    }
    case 'Object': {
      const r = src('object')
      const average = r.averageValue !== undefined && r.averageValue !== null
      // The v1 field cannot be omitted: a zero value beside an average value is dropped.
      const value = average && (r.targetValue === '0' || r.targetValue === 0) ? undefined : r.targetValue
      return {type, object: {describedObject: r.target, metric: defined({name: r.metricName, selector: r.selector}), target: defined({type: average ? 'AverageValue' : 'Value', value, averageValue: r.averageValue})}}
    }
    case 'External': {
      const r = src('external')
      const hasValue = r.targetValue !== undefined && r.targetValue !== null
      return {type, external: {metric: defined({name: r.metricName, selector: r.metricSelector}), target: defined({type: hasValue ? 'Value' : 'AverageValue', value: r.targetValue, averageValue: r.targetAverageValue})}}
    }
    default:
      return m
  }
}

/** A quantity of a v1 status; Go's zero Quantity (`0`) when absent. */
const v1Quantity = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '0')
const zeroQuantity = (v: unknown): boolean => {
  try {
    return milliValue(v1Quantity(v)) === 0n
  } catch {
    return false
  }
}

/**
 * Convert_v1_MetricStatus_To_autoscaling_MetricStatus: one entry of the v1 object's current-metrics
 * annotation (currentAverageValue, currentValue, metricName…) in the v2 shape. The v1 value fields
 * cannot be omitted, so the conversion always sets them (`0` when absent). The v1 form is a view of
 * the stored v2 status (Convert_autoscaling_HorizontalPodAutoscaler_To_v1 wrote the annotation), in
 * which an Object or External status holds a value or an average value, never both: a zero
 * currentValue beside an average value is the view's filler and is dropped, as for the targets.
 */
export function convertV1MetricStatus(m: RawObject): MetricStatus {
  const src = (f: string) => mappingOf(m[f])
  const id = (name: unknown, selector: unknown): MetricIdentifier => {
    const out: MetricIdentifier = {name: typeof name === 'string' ? name : ''}
    const sel = mappingOf(selector)
    if (sel) out.selector = sel as unknown as MetricIdentifier['selector']
    return out
  }
  const averaged = (r: RawObject, average: unknown) => {
    const current: MetricValueStatus = {}
    const hasAverage = average !== undefined && average !== null
    if (!(hasAverage && zeroQuantity(r.currentValue))) current.value = v1Quantity(r.currentValue)
    if (hasAverage) current.averageValue = v1Quantity(average)
    return current
  }
  const resourceCurrent = (r: RawObject) => {
    const current: {averageValue: string; averageUtilization?: number} = {averageValue: v1Quantity(r.currentAverageValue)}
    if (typeof r.currentAverageUtilization === 'number') current.averageUtilization = r.currentAverageUtilization
    return current
  }
  const out: MetricStatus = {type: typeof m.type === 'string' ? m.type : ''}
  const resource = src('resource')
  if (resource) out.resource = {name: String(resource.name ?? ''), current: resourceCurrent(resource)}
  const container = src('containerResource')
  if (container) out.containerResource = {name: String(container.name ?? ''), container: String(container.container ?? ''), current: resourceCurrent(container)}
  const pods = src('pods')
  if (pods) out.pods = {metric: id(pods.metricName, pods.selector), current: {averageValue: v1Quantity(pods.currentAverageValue)}}
  const object = src('object')
  if (object) {
    const t = mappingOf(object.target) ?? {}
    const describedObject: {kind: string; name: string; apiVersion?: string} = {kind: String(t.kind ?? ''), name: String(t.name ?? '')}
    if (typeof t.apiVersion === 'string' && t.apiVersion !== '') describedObject.apiVersion = t.apiVersion
    out.object = {metric: id(object.metricName, object.selector), describedObject, current: averaged(object, object.averageValue)}
  }
  const external = src('external')
  if (external) out.external = {metric: id(external.metricName, external.metricSelector), current: averaged(external, external.currentAverageValue)}
  return out
}

/** A JSON annotation, or undefined when it is absent or does not decode (the conversion then ignores it). */
function jsonAnnotation(meta: Meta, key: string): unknown {
  const text = meta.annotations[key]
  if (typeof text !== 'string') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Go's json.Unmarshal into the internal behavior type matches field names without regard to case. */
function caseFold(v: unknown, names: readonly string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => caseFold(x, names))
  const m = mappingOf(v)
  if (!m) return v
  return Object.fromEntries(Object.entries(m).map(([k, x]) => [names.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k, caseFold(x, names)]))
}
const BEHAVIOR_FIELDS = ['scaleUp', 'scaleDown', 'stabilizationWindowSeconds', 'selectPolicy', 'policies', 'type', 'value', 'periodSeconds', 'tolerance']

/** What the HPA controller reads: its HPAs, and the metrics fixtures its metric answers come from. */
export const HPA_READS: readonly KindReader[] = [
  {
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    version: 'v2',
    // autoscaling/v1 is still served: read and converted by readHpa.
    servedVersions: ['v1'],
    read({ctx, apiVersion, meta, raw, planned, located, collect}) {
      const hpa = readHpa(ctx, apiVersion, meta, raw)
      if (hpa && planned()) collect('hpas', located(hpa))
    },
  },
  {
    // A custom resource's scale subresource: where the HPA reads and writes its replicas.
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    version: 'v1',
    read({raw, clean, collect}) {
      const d = readScaleDefinition(raw)
      if (d && clean()) collect('scaleDefinitions', d)
    },
  },
  {
    kind: 'PodMetrics',
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    read({ctx, meta, raw, clean, collect}) {
      const m = readPodMetrics(ctx, meta, raw)
      if (m && clean()) collect('podMetrics', m)
    },
  },
  {
    kind: 'MetricValue',
    group: 'custom.metrics.k8s.io',
    version: 'v1beta2',
    unnamed: true,
    read({ctx, meta, raw, clean, collect}) {
      const m = readMetricValue(ctx, meta, raw)
      if (m && clean()) collect('customMetrics', m)
    },
  },
  {
    kind: 'ExternalMetricValue',
    group: 'external.metrics.k8s.io',
    version: 'v1beta1',
    unnamed: true,
    read({ctx, raw, clean, collect}) {
      const m = readExternalValue(ctx, raw)
      if (m && clean()) collect('externalMetrics', m)
    },
  },
]

/** A CustomResourceDefinition's group, kind, plural, and each served version's subresources.scale. */
function readScaleDefinition(raw: RawObject): CustomScaleDefinition | undefined {
  const spec = mappingOf(raw.spec)
  const names = mappingOf(spec?.names)
  if (!spec || !names || typeof spec.group !== 'string' || typeof names.kind !== 'string' || typeof names.plural !== 'string') return undefined
  const versions = (Array.isArray(spec.versions) ? spec.versions : []).flatMap((v: unknown) => {
    const m = mappingOf(v)
    if (!m || typeof m.name !== 'string' || m.served === false) return []
    const scale = mappingOf(mappingOf(m.subresources)?.scale)
    if (!scale || typeof scale.specReplicasPath !== 'string' || typeof scale.statusReplicasPath !== 'string') return [{name: m.name}]
    const paths: ScalePaths = {specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath}
    if (typeof scale.labelSelectorPath === 'string') paths.labelSelectorPath = scale.labelSelectorPath
    return [{name: m.name, scale: paths}]
  })
  return {group: spec.group, kind: names.kind, plural: names.plural, versions}
}

// ---- The HPA ----

function list(ctx: Ctx, v: unknown, path: Path): {item: RawObject; path: Path}[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(path, 'expected a list')
    return []
  }
  return v.flatMap((x, i) => {
    const m = ctx.mapping(x, [...path, i])
    return m ? [{item: m, path: [...path, i]}] : []
  })
}

function quantity(ctx: Ctx, v: unknown, path: Path): string | undefined {
  if (typeof v === 'number') v = String(v)
  const s = ctx.string(v, path)
  if (s === undefined) return undefined
  try {
    parseQuantity(s)
    return s
  } catch {
    ctx.fail(path, `${JSON.stringify(s)} is not a quantity`)
    return undefined
  }
}

function requireString(ctx: Ctx, v: unknown, path: Path, what: string): string {
  const s = ctx.string(v, path)
  if (s === undefined || s === '') ctx.fail(path, `${what} is required`)
  return s ?? ''
}

/** validateMetricTarget: the type names which value is read, and that value must be positive. */
function readTarget(ctx: Ctx, v: unknown, path: Path, allowed: readonly string[]): MetricTarget {
  const m = ctx.mapping(v, path)
  if (!m) {
    ctx.fail(path, 'target is required')
    return {type: ''}
  }
  const type = requireString(ctx, m.type, [...path, 'type'], 'type')
  if (type !== '' && !allowed.includes(type)) ctx.fail([...path, 'type'], `must be one of ${allowed.join(', ')}`)
  const t: MetricTarget = {type}
  const value = quantity(ctx, m.value, [...path, 'value'])
  const averageValue = quantity(ctx, m.averageValue, [...path, 'averageValue'])
  const utilization = ctx.int(m.averageUtilization, [...path, 'averageUtilization'], 1, INT32_MAX)
  if (value !== undefined) t.value = value
  if (averageValue !== undefined) t.averageValue = averageValue
  if (utilization !== undefined) t.averageUtilization = utilization
  const needs = type === 'Utilization' ? 'averageUtilization' : type === 'Value' ? 'value' : type === 'AverageValue' ? 'averageValue' : undefined
  if (needs && m[needs] === undefined) ctx.fail([...path, needs], `must be set when type is ${type}`)
  return t
}

function readIdentifier(ctx: Ctx, v: unknown, path: Path): MetricIdentifier {
  const m = ctx.mapping(v, path) ?? EMPTY
  const id: MetricIdentifier = {name: requireString(ctx, m.name, [...path, 'name'], 'metric name')}
  if (m.selector !== undefined && m.selector !== null) {
    const sel = ctx.mapping(m.selector, [...path, 'selector'])
    if (sel) id.selector = sel as unknown as MetricIdentifier['selector']
  }
  return id
}

/** validateMetricSpec: the source field its type names, and only that one. */
function readMetric(ctx: Ctx, item: RawObject, path: Path): MetricSpec | undefined {
  const type = requireString(ctx, item.type, [...path, 'type'], 'type')
  const at = (f: string) => [...path, f]
  const source = (f: string) => {
    const m = ctx.mapping(item[f], at(f))
    if (!m) ctx.fail(at(f), `must be set when type is ${type}`)
    return m ?? EMPTY
  }
  switch (type) {
    case 'Resource': {
      const s = source('resource')
      return {type, resource: {name: requireString(ctx, s.name, [...at('resource'), 'name'], 'resource name'), target: readTarget(ctx, s.target, [...at('resource'), 'target'], ['Utilization', 'AverageValue'])}}
    }
    case 'ContainerResource': {
      const s = source('containerResource')
      const p = at('containerResource')
      return {
        type,
        containerResource: {
          name: requireString(ctx, s.name, [...p, 'name'], 'resource name'),
          container: requireString(ctx, s.container, [...p, 'container'], 'container'),
          target: readTarget(ctx, s.target, [...p, 'target'], ['Utilization', 'AverageValue']),
        },
      }
    }
    case 'Pods': {
      const s = source('pods')
      return {type, pods: {metric: readIdentifier(ctx, s.metric, [...at('pods'), 'metric']), target: readTarget(ctx, s.target, [...at('pods'), 'target'], ['AverageValue'])}}
    }
    case 'Object': {
      const s = source('object')
      const p = at('object')
      const d = ctx.mapping(s.describedObject, [...p, 'describedObject']) ?? EMPTY
      const describedObject = {kind: requireString(ctx, d.kind, [...p, 'describedObject', 'kind'], 'kind'), name: requireString(ctx, d.name, [...p, 'describedObject', 'name'], 'name')} as {kind: string; name: string; apiVersion?: string}
      const av = ctx.string(d.apiVersion, [...p, 'describedObject', 'apiVersion'])
      if (av !== undefined) describedObject.apiVersion = av
      return {type, object: {describedObject, metric: readIdentifier(ctx, s.metric, [...p, 'metric']), target: readTarget(ctx, s.target, [...p, 'target'], ['Value', 'AverageValue'])}}
    }
    case 'External': {
      const s = source('external')
      return {type, external: {metric: readIdentifier(ctx, s.metric, [...at('external'), 'metric']), target: readTarget(ctx, s.target, [...at('external'), 'target'], ['Value', 'AverageValue'])}}
    }
    case '':
      return undefined
    default:
      ctx.fail(at('type'), 'must be one of Resource, ContainerResource, Pods, Object, External')
      return undefined
  }
}

/**
 * validateScalingRules: window 0–3600 s, a known selectPolicy, at least one policy (whatever the
 * selectPolicy), each positive with a period of 1–1800 s. `defaulted`: absent policies get the
 * defaults first (v2); the v1 behavior annotation is validated as written.
 */
function readRules(ctx: Ctx, v: unknown, path: Path, defaulted = true): ScalingRulesInput | undefined {
  const m = ctx.mapping(v, path)
  if (!m) return undefined
  const out: ScalingRulesInput = {}
  const window = ctx.int(m.stabilizationWindowSeconds, [...path, 'stabilizationWindowSeconds'], 0, 3600)
  if (window !== undefined) out.stabilizationWindowSeconds = window
  const select = ctx.string(m.selectPolicy, [...path, 'selectPolicy'])
  if (select !== undefined) {
    if (select === 'Max' || select === 'Min' || select === 'Disabled') out.selectPolicy = select
    else ctx.fail([...path, 'selectPolicy'], 'must be one of Max, Min, Disabled')
  }
  if (m.policies !== undefined && m.policies !== null) {
    const policies: ScalingPolicy[] = []
    for (const {item, path: p} of list(ctx, m.policies, [...path, 'policies'])) {
      const type = requireString(ctx, item.type, [...p, 'type'], 'type')
      if (type !== '' && type !== 'Pods' && type !== 'Percent') ctx.fail([...p, 'type'], 'must be Pods or Percent')
      const value = ctx.int(item.value, [...p, 'value'], 1, INT32_MAX)
      if (item.value === undefined) ctx.fail([...p, 'value'], 'must be greater than zero')
      const periodSeconds = ctx.int(item.periodSeconds, [...p, 'periodSeconds'], 1, 1800)
      if (item.periodSeconds === undefined) ctx.fail([...p, 'periodSeconds'], 'must be greater than zero')
      policies.push({type: type as ScalingPolicy['type'], value: value ?? 0, periodSeconds: periodSeconds ?? 0})
    }
    if (policies.length === 0) ctx.fail([...path, 'policies'], 'must specify at least one Policy')
    out.policies = policies
  } else if (!defaulted) ctx.fail([...path, 'policies'], 'must specify at least one Policy')
  const tolerance = quantity(ctx, m.tolerance, [...path, 'tolerance'])
  if (tolerance !== undefined) out.tolerance = tolerance
  return out
}

function readConditions(ctx: Ctx, v: unknown, path: Path): HpaCondition[] {
  return list(ctx, v, path).map(({item, path: p}) => {
    const c: HpaCondition = {type: ctx.string(item.type, [...p, 'type']) ?? '', status: ctx.string(item.status, [...p, 'status']) ?? ''}
    for (const f of ['reason', 'message'] as const) {
      const s = ctx.string(item[f], [...p, f])
      if (s !== undefined) c[f] = s
    }
    const t = ctx.time(item.lastTransitionTime, [...p, 'lastTransitionTime'])
    if (t !== undefined) c.lastTransitionTime = t
    return c
  })
}

function readMetricStatuses(ctx: Ctx, v: unknown, path: Path): MetricStatus[] | null {
  if (v === undefined || v === null) return null
  // Kept as stored: the sync only compares them with what it computes.
  return list(ctx, v, path).map(({item}) => item as unknown as MetricStatus)
}

/** One HPA, v2 or v1, validated and defaulted; undefined when it has a problem. */
export function readHpa(ctx: Ctx, apiVersion: string, meta: Meta, raw: RawObject): HpaObject | undefined {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY
  const v1 = apiVersion === 'autoscaling/v1'
  const refRaw = ctx.mapping(spec.scaleTargetRef, ['spec', 'scaleTargetRef'])
  if (!refRaw) ctx.fail(['spec', 'scaleTargetRef'], 'required: the workload to scale (kind and name)')
  const ref = refRaw ?? EMPTY
  const scaleTargetRef = {kind: requireString(ctx, ref.kind, ['spec', 'scaleTargetRef', 'kind'], 'kind'), name: requireString(ctx, ref.name, ['spec', 'scaleTargetRef', 'name'], 'name')} as HpaSpecInput['scaleTargetRef']
  const refVersion = ctx.string(ref.apiVersion, ['spec', 'scaleTargetRef', 'apiVersion'])
  if (refVersion !== undefined) scaleTargetRef.apiVersion = refVersion
  const min = ctx.int(spec.minReplicas, ['spec', 'minReplicas'], 0, INT32_MAX)
  // minReplicas 0 needs the alpha HPAScaleToZero gate, off in 1.36 (validateMinReplicas).
  if (min === 0) ctx.fail(['spec', 'minReplicas'], 'must be greater than or equal to 1 (0 needs the alpha HPAScaleToZero feature gate)')
  if (spec.maxReplicas === undefined || spec.maxReplicas === null) ctx.fail(['spec', 'maxReplicas'], 'required')
  const max = ctx.int(spec.maxReplicas, ['spec', 'maxReplicas'], 1, INT32_MAX)
  if (max !== undefined && (min ?? 1) > max) ctx.fail(['spec', 'minReplicas'], `must be less than or equal to maxReplicas (${max})`)
  const input: HpaSpecInput = {scaleTargetRef, maxReplicas: max ?? 0}
  if (min !== undefined) input.minReplicas = min
  let currentMetrics: MetricStatus[] | null
  if (v1) {
    // The v1 object's CPU target becomes one Resource metric; without it the v2 default (80%) applies.
    // Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: the metrics annotation's
    // metrics first, then the CPU target; the behavior annotation when it decodes to a non-empty behavior.
    const cpu = ctx.int(spec.targetCPUUtilizationPercentage, ['spec', 'targetCPUUtilizationPercentage'], 1, INT32_MAX)
    const annotated = jsonAnnotation(meta, V1_METRICS)
    const metrics: MetricSpec[] = []
    if (Array.isArray(annotated)) {
      annotated.forEach((m, i) => {
        const raw = mappingOf(m)
        const read = raw ? readMetric(ctx, convertV1Metric(raw), ['metadata', 'annotations', V1_METRICS, i]) : undefined
        if (read) metrics.push(read)
      })
    }
    if (cpu !== undefined) metrics.push({type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: cpu}}})
    if (metrics.length > 0) input.metrics = metrics
    const behavior = mappingOf(caseFold(jsonAnnotation(meta, V1_BEHAVIOR), BEHAVIOR_FIELDS))
    if (behavior && (mappingOf(behavior.scaleUp) || mappingOf(behavior.scaleDown))) {
      input.behavior = {}
      const up = readRules(ctx, behavior.scaleUp, ['metadata', 'annotations', V1_BEHAVIOR, 'scaleUp'], false)
      const down = readRules(ctx, behavior.scaleDown, ['metadata', 'annotations', V1_BEHAVIOR, 'scaleDown'], false)
      if (up) input.behavior.scaleUp = up
      if (down) input.behavior.scaleDown = down
    }
    const current = ctx.int(status.currentCPUUtilizationPercentage, ['status', 'currentCPUUtilizationPercentage'], 0, INT32_MAX)
    currentMetrics = current === undefined ? null : [{type: 'Resource', resource: {name: 'cpu', current: {averageUtilization: current}}}]
    // The current-metrics annotation, when it decodes to a list, replaces the CPU status: it holds them all.
    const annotatedStatus = jsonAnnotation(meta, V1_CURRENT_METRICS)
    if (Array.isArray(annotatedStatus) || (annotatedStatus === null && meta.annotations[V1_CURRENT_METRICS] !== undefined)) {
      currentMetrics = (annotatedStatus ?? []).map((m: unknown) => convertV1MetricStatus(mappingOf(m) ?? {}))
    }
  } else {
    const metrics = list(ctx, spec.metrics, ['spec', 'metrics']).flatMap(({item, path}) => {
      const m = readMetric(ctx, item, path)
      return m ? [m] : []
    })
    if (metrics.length > 0) input.metrics = metrics
    const behavior = ctx.mapping(spec.behavior, ['spec', 'behavior'])
    if (behavior) {
      input.behavior = {}
      const up = readRules(ctx, behavior.scaleUp, ['spec', 'behavior', 'scaleUp'])
      const down = readRules(ctx, behavior.scaleDown, ['spec', 'behavior', 'scaleDown'])
      if (up) input.behavior.scaleUp = up
      if (down) input.behavior.scaleDown = down
    }
    currentMetrics = readMetricStatuses(ctx, status.currentMetrics, ['status', 'currentMetrics'])
  }
  let conditions = readConditions(ctx, status.conditions, ['status', 'conditions'])
  if (v1) {
    // v1 keeps the conditions in an annotation (JSON), which the conversion reads back when it
    // decodes to a list (`null` decodes to none); otherwise it is ignored, as the conversion ignores it.
    const annotated = jsonAnnotation(meta, V1_CONDITIONS)
    if (Array.isArray(annotated)) conditions = readConditions(ctx, annotated, ['metadata', 'annotations', V1_CONDITIONS])
    else if (annotated === null && meta.annotations[V1_CONDITIONS] !== undefined) conditions = []
  }
  const hpaStatus: HpaStatus = {
    currentReplicas: ctx.int(status.currentReplicas, ['status', 'currentReplicas'], 0, INT32_MAX) ?? 0,
    desiredReplicas: ctx.int(status.desiredReplicas, ['status', 'desiredReplicas'], 0, INT32_MAX) ?? 0,
    currentMetrics,
    conditions,
  }
  const og = ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER)
  if (og !== undefined) hpaStatus.observedGeneration = og
  const lst = ctx.time(status.lastScaleTime, ['status', 'lastScaleTime'])
  if (lst !== undefined) hpaStatus.lastScaleTime = lst
  return {kind: 'HorizontalPodAutoscaler', apiVersion, ...meta, spec: defaultHpaSpec(input), status: hpaStatus}
}

// ---- The pods' fields the replica calculator reads ----

function requestsOf(ctx: Ctx, c: RawObject, path: Path): Record<string, string> {
  const resources = ctx.mapping(c.resources, [...path, 'resources']) ?? EMPTY
  const req = ctx.mapping(resources.requests, [...path, 'resources', 'requests']) ?? EMPTY
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(req)) {
    const q = quantity(ctx, v, [...path, 'resources', 'requests', k])
    if (q !== undefined) out[k] = q
  }
  return out
}

/**
 * startTime, the Ready condition and the requests (regular containers, sidecars, pod-level), kept
 * only in a world that may hold an HPA: elsewhere no pod carries them. The fields are checked on
 * every pod all the same (the API server refuses a pod whose request is not a quantity): when the
 * quick look below cannot tell that they are sound, they are read and dropped, for the problems.
 */
export const readHpaPodFields: PodFieldsReader = (ctx, _meta, _raw, spec, status, input) => {
  if (input.mayHold('HorizontalPodAutoscaler')) return readPodFields(ctx, spec, status)
  if (!plainlySound(spec, status)) readPodFields(ctx, spec, status)
  return undefined
}

/** Valid quantities, as parsed once (pods of one template repeat the same few). */
const SOUND_QUANTITIES = new Set<string>()
function soundQuantity(v: unknown): boolean {
  if (typeof v !== 'string') return false
  if (SOUND_QUANTITIES.has(v)) return true
  try {
    parseQuantity(v)
  } catch {
    return false
  }
  if (SOUND_QUANTITIES.size < 1024) SOUND_QUANTITIES.add(v)
  return true
}

const soundTime = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && timestampProblem(v) === undefined)
const soundRequests = (c: RawObject) => {
  const resources = c.resources
  if (resources === undefined || resources === null) return true
  if (!isMapping(resources)) return false
  const requests = resources.requests
  if (requests === undefined || requests === null) return true
  if (!isMapping(requests)) return false
  for (const k in requests) if (!soundQuantity(requests[k])) return false
  return true
}
const soundContainers = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.every((c) => isMapping(c) && soundRequests(c)))

/**
 * Whether readPodFields would certainly find no problem in these fields; false when it might (it is
 * then run). Pod-level resources are left to it.
 */
function plainlySound(spec: RawObject, status: RawObject): boolean {
  if (spec.resources !== undefined || !soundContainers(spec.containers) || !soundContainers(spec.initContainers) || !soundTime(status.startTime)) return false
  const conditions = status.conditions
  if (conditions === undefined || conditions === null) return true
  return Array.isArray(conditions) && conditions.every((c) => isMapping(c) && soundTime(c.lastTransitionTime))
}

function readPodFields(ctx: Ctx, spec: RawObject, status: RawObject): Partial<PodView> {
  const containers: ContainerRequests[] = list(ctx, spec.containers, ['spec', 'containers']).map(({item, path}) => ({name: typeof item.name === 'string' ? item.name : '', requests: requestsOf(ctx, item, path)}))
  const sidecars: ContainerRequests[] = list(ctx, spec.initContainers, ['spec', 'initContainers'])
    .filter(({item}) => item.restartPolicy === 'Always')
    .map(({item, path}) => ({name: typeof item.name === 'string' ? item.name : '', requests: requestsOf(ctx, item, path)}))
  const fields: HpaPodFields = {containers, sidecars}
  const start = ctx.time(status.startTime, ['status', 'startTime'])
  if (start !== undefined) fields.startTime = start
  const ready = list(ctx, status.conditions, ['status', 'conditions']).find(({item}) => item.type === 'Ready')
  if (ready) {
    fields.readyCondition = {status: typeof ready.item.status === 'string' ? ready.item.status : ''}
    const t = ctx.time(ready.item.lastTransitionTime, [...ready.path, 'lastTransitionTime'])
    if (t !== undefined) fields.readyCondition.lastTransitionTime = t
  }
  const podRequests = podLevelRequests(ctx, spec)
  if (podRequests) fields.podRequests = podRequests
  return {autoscaling: fields}
}

/** IsSupportedPodLevelResource: cpu, memory and hugepages. */
const podLevel = (name: string) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-')

/**
 * resourcehelpers.PodRequests, when IsPodLevelRequestsSet (a cpu, memory or hugepages request at the
 * pod level): the containers' aggregate (AggregateContainerRequests: regular containers and sidecars
 * summed, then at least each init container's use with the sidecars started before it), the
 * pod-level requests over it, then the overhead added. In milli, as the replica calculator reads them.
 */
function podLevelRequests(ctx: Ctx, spec: RawObject): Record<string, string> | undefined {
  const podResources = ctx.mapping(spec.resources, ['spec', 'resources'])
  const own = podResources ? requestsOf(ctx, spec, ['spec']) : {}
  if (!Object.keys(own).some(podLevel)) return undefined
  const milli = (q: string) => {
    try {
      return milliValue(q)
    } catch {
      return 0n
    }
  }
  const add = (to: Map<string, bigint>, from: Iterable<[string, bigint]>) => {
    for (const [k, v] of from) to.set(k, (to.get(k) ?? 0n) + v)
  }
  const asMilli = (r: Record<string, string>): [string, bigint][] => Object.entries(r).map(([k, v]) => [k, milli(v)])
  const reqs = new Map<string, bigint>()
  for (const {item, path} of list(ctx, spec.containers, ['spec', 'containers'])) add(reqs, asMilli(requestsOf(ctx, item, path)))
  const sidecars = new Map<string, bigint>()
  const initMax = new Map<string, bigint>()
  for (const {item, path} of list(ctx, spec.initContainers, ['spec', 'initContainers'])) {
    const r = asMilli(requestsOf(ctx, item, path))
    let use: Map<string, bigint>
    if (item.restartPolicy === 'Always') {
      add(reqs, r)
      add(sidecars, r)
      use = sidecars
    } else {
      use = new Map(r)
      add(use, sidecars)
    }
    for (const [k, v] of use) if (!initMax.has(k) || v > initMax.get(k)!) initMax.set(k, v)
  }
  for (const [k, v] of initMax) if (!reqs.has(k) || v > reqs.get(k)!) reqs.set(k, v)
  for (const [k, v] of asMilli(own)) if (podLevel(k)) reqs.set(k, v)
  const overhead = ctx.mapping(spec.overhead, ['spec', 'overhead'])
  if (overhead) add(reqs, asMilli(requestsOf(ctx, {resources: {requests: overhead}}, ['spec', 'overhead'])))
  return Object.fromEntries([...reqs].map(([k, v]) => [k, `${v}m`]))
}

// ---- Metrics fixtures ----

/** A metrics.k8s.io/v1beta1 PodMetrics: timestamp, window, each container's usage. */
function readPodMetrics(ctx: Ctx, meta: Meta, raw: RawObject): PodMetricsFixture | undefined {
  const timestamp = ctx.time(raw.timestamp, ['timestamp'])
  if (timestamp === undefined) ctx.fail(['timestamp'], 'required')
  const windowText = ctx.string(raw.window, ['window']) ?? '0s'
  const ms = parseDuration(windowText)
  if (ms === undefined) ctx.fail(['window'], `${JSON.stringify(windowText)} is not a duration`)
  const containers = list(ctx, raw.containers, ['containers']).map(({item, path}) => {
    const usage: Record<string, string> = {}
    for (const [k, v] of Object.entries(ctx.mapping(item.usage, [...path, 'usage']) ?? EMPTY)) {
      const q = quantity(ctx, v, [...path, 'usage', k])
      if (q !== undefined) usage[k] = q
    }
    return {name: requireString(ctx, item.name, [...path, 'name'], 'name'), usage}
  })
  const out: PodMetricsFixture = {namespace: meta.namespace, name: meta.name, timestamp: timestamp ?? '', windowSeconds: (ms ?? 0) / 1000, containers}
  if (Object.keys(meta.labels).length > 0) out.labels = meta.labels
  return out
}

/** A custom.metrics.k8s.io/v1beta2 MetricValue: the object it describes, the metric's name, the value. */
function readMetricValue(ctx: Ctx, meta: Meta, raw: RawObject): CustomMetricFixture | undefined {
  const d = ctx.mapping(raw.describedObject, ['describedObject']) ?? EMPTY
  const metric = ctx.mapping(raw.metric, ['metric']) ?? EMPTY
  const value = quantity(ctx, raw.value, ['value'])
  if (value === undefined) ctx.fail(['value'], 'required')
  const ns = ctx.string(d.namespace, ['describedObject', 'namespace'])
  const out: CustomMetricFixture = {
    describedObject: {kind: requireString(ctx, d.kind, ['describedObject', 'kind'], 'kind'), namespace: ns || meta.namespace, name: requireString(ctx, d.name, ['describedObject', 'name'], 'name')},
    metric: requireString(ctx, metric.name, ['metric', 'name'], 'metric name'),
    value: value ?? '0',
  }
  const selector = ctx.mapping(metric.selector, ['metric', 'selector'])
  if (selector) out.selector = selector as unknown as CustomMetricFixture['selector']
  const t = ctx.time(raw.timestamp, ['timestamp'])
  if (t !== undefined) out.timestamp = t
  return out
}

/** An external.metrics.k8s.io/v1beta1 ExternalMetricValue: its name, labels and value. */
function readExternalValue(ctx: Ctx, raw: RawObject): ExternalMetricFixture | undefined {
  const value = quantity(ctx, raw.value, ['value'])
  if (value === undefined) ctx.fail(['value'], 'required')
  const out: ExternalMetricFixture = {namespace: '', metricName: requireString(ctx, raw.metricName, ['metricName'], 'metricName'), metricLabels: ctx.labels(raw.metricLabels, ['metricLabels']), value: value ?? '0'}
  const t = ctx.time(raw.timestamp, ['timestamp'])
  if (t !== undefined) out.timestamp = t
  return out
}
