// One replica proposal per metric (H2): the replica calculator (replica_calculator.go), the metrics
// client's reading of the answers (metrics/client.go, metrics/utilization.go) and the per-type
// wrappers of horizontal.go that name the metric, build its status and word its errors. Pure: the
// pods, the answers and the clock come in.
import type {LabelSelector} from '../../model/objects.js'
import {compileLabelSelector, SelectorError} from '../../reconcile/selector.js'
import {objectTime, seconds} from '../../reconcile/time.js'
import {approximateFloat, formatMilli, milliValue} from './defaults.js'
import type {ContainerResourceMetricSource, HpaControllerConfig, HpaFeatureGates, HpaPod, HpaSpec, MetricAnswer, MetricProposal, MetricSpec, MetricStatus, MetricTarget} from './model.js'

/** Tolerances (down, up) for every metric of one HPA. */
export interface Tolerances {
  down: number
  up: number
}

/** tolerancesForHpa: the flag, replaced per direction by behavior's tolerance when HPAConfigurableTolerance is on. */
export function tolerancesFor(spec: HpaSpec, flag: number, gates: HpaFeatureGates): Tolerances {
  const t = {down: flag, up: flag}
  if (!spec.behavior || !gates.HPAConfigurableTolerance) return t
  if (spec.behavior.scaleDown.tolerance !== undefined) t.down = approximateFloat(spec.behavior.scaleDown.tolerance)
  if (spec.behavior.scaleUp.tolerance !== undefined) t.up = approximateFloat(spec.behavior.scaleUp.tolerance)
  return t
}

/** Tolerances.isWithin: inclusive bounds, in float64. */
export function isWithin(ratio: number, t: Tolerances): boolean {
  return 1.0 - t.down <= ratio && ratio <= 1.0 + t.up
}

/** A per-pod sample (PodMetric): milli value, and for resource metrics the time and window. */
export interface PodSample {
  value: bigint
  timestamp?: bigint
  windowNs?: bigint
}

export interface PodGroups {
  readyCount: number
  unready: Set<string>
  missing: Set<string>
  ignored: Set<string>
}

/** Everything one metric's calculation reads besides its spec and answer. */
export interface ProposalContext {
  namespace: string
  /** scale.spec.replicas and scale.status.replicas. */
  specReplicas: number
  statusReplicas: number
  /** The pods the target's selector matches, from the informer cache (no owner check). */
  pods: readonly HpaPod[]
  now: bigint
  config: HpaControllerConfig
  gates: HpaFeatureGates
  tolerances: Tolerances
}

const ZERO_TIME = -(2n ** 62n) // metav1.Time{}: earlier than anything

/**
 * groupPods: ignored (deleted or Failed), unready (Pending; for cpu, the initialization test),
 * missing (no sample), else ready. `resource` is '' for plain metrics (no readiness test).
 */
export function groupPods(pods: readonly HpaPod[], samples: ReadonlyMap<string, PodSample>, resource: string, ctx: Pick<ProposalContext, 'now' | 'config'>): PodGroups {
  const groups: PodGroups = {readyCount: 0, unready: new Set(), missing: new Set(), ignored: new Set()}
  const initPeriod = seconds(ctx.config.cpuInitializationPeriodSeconds)
  const readinessDelay = seconds(ctx.config.initialReadinessDelaySeconds)
  for (const pod of pods) {
    if (pod.deletionTimestamp || pod.phase === 'Failed') {
      groups.ignored.add(pod.name)
      continue
    }
    if (pod.phase === 'Pending') {
      groups.unready.add(pod.name)
      continue
    }
    const sample = samples.get(pod.name)
    if (!sample) {
      groups.missing.add(pod.name)
      continue
    }
    if (resource === 'cpu') {
      const condition = pod.readyCondition
      const start = objectTime(pod.startTime)
      let unready: boolean
      if (!condition || start === undefined) unready = true
      else {
        const transition = objectTime(condition.lastTransitionTime) ?? ZERO_TIME
        if (start + initPeriod > ctx.now) {
          // Still initializing: unready, or no full window collected since the last transition.
          unready = condition.status === 'False' || (sample.timestamp ?? ZERO_TIME) < transition + (sample.windowNs ?? 0n)
        } else {
          // Past initialization: unready only if it never became ready.
          unready = condition.status === 'False' && start + readinessDelay > transition
        }
      }
      if (unready) {
        groups.unready.add(pod.name)
        continue
      }
    }
    groups.readyCount++
  }
  return groups
}

class CalcError extends Error {}

/** calculateRequests: one request (milli) per listed pod, ignored pods included. */
export function calculateRequests(pods: readonly HpaPod[], container: string, resource: string, podLevelResources: boolean): Map<string, bigint> {
  const requests = new Map<string, bigint>()
  for (const pod of pods) {
    if (podLevelResources && pod.podRequests && container === '') {
      // calculatePodLevelRequests
      const q = pod.podRequests[resource]
      if (q === undefined) throw new CalcError(`missing pod-level request for ${resource} in Pod ${pod.name}`)
      requests.set(pod.name, milliValue(q))
      continue
    }
    // calculatePodRequestsFromContainers: regular containers, then sidecars.
    let request = 0n
    let found = false
    for (const c of [...pod.containers, ...pod.sidecars]) {
      if (container === '' || container === c.name) {
        const q = c.requests[resource]
        if (q === undefined) throw new CalcError(`missing request for ${resource} in container ${c.name} of Pod ${pod.name}`)
        request += milliValue(q)
      }
      if (container === c.name) {
        found = true
        break
      }
    }
    if (container !== '' && !found) throw new CalcError(`container ${container} not found in Pod ${pod.name}`)
    requests.set(pod.name, request)
  }
  return requests
}

/** getPodMetrics / getContainerMetrics: a pod's milli usage, left out when a container lacks the resource. */
export function resourceSamples(answer: Extract<MetricAnswer, {kind: 'podMetrics'}>, resource: string, container: string): Map<string, PodSample> {
  const samples = new Map<string, PodSample>()
  for (const item of answer.items) {
    const at = objectTime(item.timestamp)
    const windowNs = seconds(item.windowSeconds)
    if (container !== '') {
      const c = item.containers.find((x) => x.name === container)
      const q = c?.usage[resource]
      if (q !== undefined) samples.set(item.name, {value: milliValue(q), timestamp: at, windowNs})
      continue
    }
    if (item.containers.length === 0) continue
    let sum = 0n
    let missing = false
    for (const c of item.containers) {
      const q = c.usage[resource]
      if (q === undefined) {
        missing = true
        break
      }
      sum += milliValue(q)
    }
    if (!missing) samples.set(item.name, {value: sum, timestamp: at, windowNs})
  }
  return samples
}

/** GetResourceUtilizationRatio: over samples whose pod has a request. */
function utilizationRatio(samples: ReadonlyMap<string, PodSample>, requests: ReadonlyMap<string, bigint>, target: number) {
  let sumU = 0n
  let sumR = 0n
  let n = 0n
  for (const [pod, s] of samples) {
    const r = requests.get(pod)
    if (r === undefined) continue // extraneous sample
    sumU += s.value
    sumR += r
    n++
  }
  if (sumR === 0n) throw new CalcError('no metrics returned matched known pods')
  const utilization = Number((sumU * 100n) / sumR)
  return {ratio: utilization / target, utilization, rawAverage: sumU / n}
}

/** GetMetricUsageRatio: trunc(sum / count) over every sample. */
function usageRatio(samples: ReadonlyMap<string, PodSample>, target: bigint) {
  let sum = 0n
  for (const s of samples.values()) sum += s.value
  const average = sum / BigInt(samples.size)
  return {ratio: Number(average) / Number(target), average}
}

const ceilInt32 = (x: number) => {
  const c = Math.ceil(x)
  return Object.is(c, -0) ? 0 : c
}

interface Calculated {
  replicas: number
  numbers: Record<string, number | string | boolean>
}

/**
 * The shared shape of GetResourceReplicas and calcPlainMetricReplicas: group, drop ignored and
 * unready samples, fast path, else fill in missing (and on scale-up unready) pods and recompute.
 */
function correctedReplicas(
  samplesIn: ReadonlyMap<string, PodSample>,
  resource: string,
  ctx: ProposalContext,
  ratioOf: (samples: ReadonlyMap<string, PodSample>) => number,
  missingFill: (pod: string, ratio: number) => bigint | undefined,
): Calculated & {ratio: number} {
  if (ctx.pods.length === 0) throw new CalcError('no pods returned by selector while calculating replica count')
  const samples = new Map(samplesIn)
  const groups = groupPods(ctx.pods, samples, resource, ctx)
  for (const p of groups.ignored) samples.delete(p)
  for (const p of groups.unready) samples.delete(p)
  if (samples.size === 0) throw new CalcError('did not receive metrics for targeted pods (pods might be unready)')
  const ratio = ratioOf(samples)
  const numbers: Record<string, number | string | boolean> = {
    ratio,
    readyCount: groups.readyCount,
    unready: groups.unready.size,
    missing: groups.missing.size,
    ignored: groups.ignored.size,
  }
  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1.0
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    numbers.path = 'fast'
    if (isWithin(ratio, ctx.tolerances)) return {replicas: ctx.specReplicas, ratio, numbers: {...numbers, withinTolerance: true}}
    return {replicas: ceilInt32(ratio * groups.readyCount), ratio, numbers}
  }
  numbers.path = 'corrected'
  for (const p of groups.missing) {
    const fill = missingFill(p, ratio)
    if (fill !== undefined) samples.set(p, {value: fill})
  }
  if (scaleUpWithUnready) for (const p of groups.unready) samples.set(p, {value: 0n})
  const newRatio = ratioOf(samples)
  numbers.newRatio = newRatio
  numbers.samples = samples.size
  if (isWithin(newRatio, ctx.tolerances) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)) {
    return {replicas: ctx.specReplicas, ratio, numbers: {...numbers, keptCurrent: true}}
  }
  const n = ceilInt32(newRatio * samples.size)
  if ((newRatio < 1.0 && n > ctx.specReplicas) || (newRatio > 1.0 && n < ctx.specReplicas)) {
    return {replicas: ctx.specReplicas, ratio, numbers: {...numbers, keptCurrent: true}}
  }
  return {replicas: n, ratio, numbers}
}

/** GetResourceReplicas: utilization against averageUtilization. */
export function resourceUtilizationReplicas(samples: ReadonlyMap<string, PodSample>, target: number, resource: string, container: string, ctx: ProposalContext) {
  if (ctx.pods.length === 0) throw new CalcError('no pods returned by selector while calculating replica count')
  let requests: Map<string, bigint> | undefined
  let first: {utilization: number; rawAverage: bigint} | undefined
  const r = correctedReplicas(
    samples,
    resource,
    ctx,
    (s) => {
      // The requests are computed (and may fail) once the samples are known, as upstream orders it.
      requests ??= calculateRequests(ctx.pods, container, resource, ctx.gates.PodLevelResources)
      const u = utilizationRatio(s, requests, target)
      first ??= u
      return u.ratio
    },
    (pod, ratio) => (ratio < 1.0 ? (requests!.get(pod)! * BigInt(Math.max(100, target))) / 100n : ratio > 1.0 ? 0n : undefined),
  )
  return {...r, utilization: first!.utilization, rawAverage: first!.rawAverage, numbers: {...r.numbers, utilization: first!.utilization}}
}

/** calcPlainMetricReplicas: an average value per pod (Pods metrics, resource AverageValue). */
export function plainMetricReplicas(samples: ReadonlyMap<string, PodSample>, target: bigint, resource: string, ctx: ProposalContext) {
  let average: bigint | undefined
  const r = correctedReplicas(
    samples,
    resource,
    ctx,
    (s) => {
      const u = usageRatio(s, target)
      average ??= u.average
      return u.ratio
    },
    (_pod, ratio) => (ratio < 1.0 ? target : ratio > 1.0 ? 0n : undefined),
  )
  return {...r, average: average!, numbers: {...r.numbers, average: String(average)}}
}

/** getReadyPodsCount: Running and Ready=True, deletion not checked. */
function readyPodsCount(pods: readonly HpaPod[]): number {
  if (pods.length === 0) throw new CalcError('unable to calculate ready pods: no pods returned by selector while calculating replica count')
  return pods.filter((p) => p.phase === 'Running' && p.readyCondition?.status === 'True').length
}

const INT32_MAX = 2 ** 31 - 1

/** getUsageRatioReplicaCount: tolerance and ready pods, or ceil(ratio) from zero. */
function usageRatioReplicaCount(ratio: number, ctx: ProposalContext): Calculated {
  if (ctx.specReplicas === 0) return {replicas: ceilInt32(ratio), numbers: {ratio, fromZero: true}}
  if (isWithin(ratio, ctx.tolerances)) return {replicas: ctx.specReplicas, numbers: {ratio, withinTolerance: true}}
  const ready = readyPodsCount(ctx.pods)
  const f = ratio * ready
  return {replicas: f > INT32_MAX ? INT32_MAX : ceilInt32(f), numbers: {ratio, readyCount: ready}}
}

/** GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas: per-pod target against status.replicas. */
function perPodReplicas(usage: bigint, target: bigint, ctx: ProposalContext, cap: boolean): Calculated & {average: bigint} {
  const ratio = Number(usage) / (Number(target) * ctx.statusReplicas)
  let replicas = ctx.statusReplicas
  if (!isWithin(ratio, ctx.tolerances)) {
    const c = Math.ceil(Number(usage) / Number(target))
    replicas = cap && c > INT32_MAX ? INT32_MAX : ceilInt32(c)
  }
  const perPod = Math.ceil(Number(usage) / ctx.statusReplicas)
  // int64(float64) of ±Inf or NaN (status.replicas 0) is platform-defined in Go; amd64 gives the minimum.
  const average = Number(usage) >= 2 ** 63 ? 2n ** 63n - 1n : Number.isFinite(perPod) && Math.abs(perPod) < 2 ** 63 ? BigInt(perPod) : -(2n ** 63n)
  return {replicas, average, numbers: {ratio, statusReplicas: ctx.statusReplicas, average: String(average)}}
}

const INT64_MAX = 2n ** 63n - 1n

/** The external values summed as GetExternalMetricReplicas does, saturating at int64's maximum. */
function externalSum(values: readonly bigint[]): bigint {
  let usage = 0n
  for (const v of values) {
    if (v > 0n && usage > INT64_MAX - v) return INT64_MAX
    usage += v
  }
  return usage
}

/** Go's %+v of a *metav1.LabelSelector (its generated String()). */
export function goSelector(selector: LabelSelector | undefined): string {
  if (!selector) return 'nil'
  const labels = Object.keys(selector.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${selector.matchLabels![k]},`)
    .join('')
  const exprs = (selector.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`)
    .join('')
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`
}

/** What a metric type calls its failure (the condition reason and event reason). */
const FAILURE_REASON: Record<string, string> = {
  Resource: 'FailedGetResourceMetric',
  ContainerResource: 'FailedGetContainerResourceMetric',
  Pods: 'FailedGetPodsMetric',
  Object: 'FailedGetObjectMetric',
  External: 'FailedGetExternalMetric',
}

function failed(index: number, type: string, reason: string, inner: string, wrapped: string): MetricProposal {
  return {index, type, name: '', status: {type: ''}, error: {reason, message: inner, wrapped}, numbers: {}}
}

/** The client's error for an answer that is not usable (metrics/client.go), or undefined. */
function clientError(answer: MetricAnswer, api: 'resource' | 'custom' | 'external'): string | undefined {
  if (answer.kind === 'missing') return 'the metric was not read (unknown to the planner)'
  if (answer.kind === 'error') return `unable to fetch metrics from ${api} metrics API: ${answer.message}`
  if (answer.items.length === 0 && !(api === 'custom' && answer.kind === 'objectValues')) return `no metrics returned from ${api} metrics API`
  return undefined
}

/**
 * computeReplicasForMetric and its computeStatusFor* helpers: one metric's proposal, its status
 * entry and name, or its failure worded as upstream words it.
 */
export function computeProposal(metric: MetricSpec, index: number, given: MetricAnswer, ctx: ProposalContext): MetricProposal {
  const answer = decodable(given)
  switch (metric.type) {
    case 'Resource':
    case 'ContainerResource':
      return resourceProposal(metric as Extract<MetricSpec, {type: 'Resource'}> | Extract<MetricSpec, {type: 'ContainerResource'}>, index, answer, ctx)
    case 'Pods':
      return podsProposal(metric as Extract<MetricSpec, {type: 'Pods'}>, index, answer, ctx)
    case 'Object':
      return objectProposal(metric as Extract<MetricSpec, {type: 'Object'}>, index, answer, ctx)
    case 'External':
      return externalProposal(metric as Extract<MetricSpec, {type: 'External'}>, index, answer, ctx)
    default: {
      const err = `unknown metric source type ${JSON.stringify(metric.type)}`
      return failed(index, metric.type, 'InvalidMetricSourceType', err, err)
    }
  }
}

/** An answer whose values are not quantities is one the client cannot decode: a fetch error. */
function decodable(answer: MetricAnswer): MetricAnswer {
  if (answer.kind === 'error' || answer.kind === 'missing') return answer
  const values: string[] =
    answer.kind === 'podMetrics' ? answer.items.flatMap((i) => i.containers.flatMap((c) => Object.values(c.usage))) : (answer.items as readonly {value: string}[]).map((i) => i.value)
  for (const v of values) {
    try {
      milliValue(v)
    } catch {
      return {kind: 'error', message: `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(v)}`}
    }
  }
  return answer
}

/** computeStatusForResourceMetricGeneric (GetRawResourceReplicas / GetResourceReplicas). */
function resourceProposal(
  metric: Extract<MetricSpec, {type: 'Resource'}> | Extract<MetricSpec, {type: 'ContainerResource'}>,
  index: number,
  answer: MetricAnswer,
  ctx: ProposalContext,
): MetricProposal {
  const isContainer = metric.type === 'ContainerResource'
  const source = isContainer ? (metric as Extract<MetricSpec, {type: 'ContainerResource'}>).containerResource : (metric as Extract<MetricSpec, {type: 'Resource'}>).resource
  const container = isContainer ? (source as ContainerResourceMetricSource).container : ''
  const resource = source.name
  const reason = FAILURE_REASON[metric.type]
  const wrap = (inner: string) => (isContainer ? `failed to get ${container} container metric value: ${inner}` : `failed to get ${resource} resource metric value: ${inner}`)
  const target: MetricTarget = source.target
  const useAverage = target.averageValue !== undefined
  if (!useAverage && target.averageUtilization === undefined) {
    const inner = 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set'
    return failed(index, metric.type, reason, inner, wrap(inner))
  }
  const what = useAverage ? 'usage' : 'utilization'
  const fail = (err: string) => {
    const inner = `failed to get ${resource} ${what}: ${err}`
    return failed(index, metric.type, reason, inner, wrap(inner))
  }
  const clientErr = clientError(answer, 'resource')
  if (clientErr !== undefined) return fail(`unable to get metrics for resource ${resource}: ${clientErr}`)
  if (answer.kind !== 'podMetrics') return fail(`unable to get metrics for resource ${resource}: unexpected answer ${answer.kind}`)
  const samples = resourceSamples(answer, resource, container)
  const format = resource === 'memory' ? 'BinarySI' : 'DecimalSI'
  const current: MetricStatus['resource'] = {name: resource, current: {}}
  try {
    let replicas: number
    let numbers: Record<string, number | string | boolean>
    if (useAverage) {
      const r = plainMetricReplicas(samples, milliValue(target.averageValue!), resource, ctx)
      replicas = r.replicas
      numbers = r.numbers
      current.current = {averageValue: formatMilli(r.average, format)}
    } else {
      const r = resourceUtilizationReplicas(samples, target.averageUtilization!, resource, container, ctx)
      replicas = r.replicas
      numbers = r.numbers
      current.current = {averageUtilization: r.utilization, averageValue: formatMilli(r.rawAverage, format)}
    }
    const name = useAverage ? `${resource} resource` : `${resource} ${isContainer ? 'container resource' : 'resource'} utilization (percentage of request)`
    const status: MetricStatus = isContainer
      ? {type: 'ContainerResource', containerResource: {name: resource, container, current: current.current}}
      : {type: 'Resource', resource: current}
    return {index, type: metric.type, name, replicas, status, numbers}
  } catch (e) {
    if (!(e instanceof CalcError)) throw e
    return fail(e.message)
  }
}

// The label syntax's messages (apimachinery's validate/content: IsLabelKey, IsLabelValue, RegexError).
const LABEL_CHARS = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const KEY_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const KEY_NAME = new RegExp(`^${KEY_FORMAT}$`)
const VALUE = new RegExp(`^(${KEY_FORMAT})?$`)
const regexError = (msg: string, format: string, examples: string[]) => `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`

/** labels.NewRequirement's errors for one requirement, each as field.Invalid prints it. */
function requirementErrors(key: string, operator: string, values: readonly string[]): string[] | undefined {
  const errs: string[] = []
  const parts = key.split('/')
  // Only the name part is checked here; a prefix problem is left to kctl's own wording.
  if (parts.length > 2 || (parts.length === 2 && parts[0] === '')) return undefined
  const name = parts.at(-1)!
  const keyErrs: string[] = []
  if (name === '') keyErrs.push('name part must be non-empty')
  else if (name.length > 63) keyErrs.push('name part must be no more than 63 bytes')
  if (!KEY_NAME.test(name)) keyErrs.push(`name part ${regexError(LABEL_CHARS, KEY_FORMAT, ['MyName', 'my.name', '123-abc'])}`)
  if (keyErrs.length > 0) errs.push(`key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`)
  const list = `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) errs.push(`values: Invalid value: ${list}: for 'in', 'notin' operators, values set can't be empty`)
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length !== 0) errs.push(`values: Invalid value: ${list}: values set must be empty for exists and does not exist`)
  values.forEach((v, i) => {
    const valueErrs: string[] = []
    if (v.length > 63) valueErrs.push('must be no more than 63 bytes')
    if (!VALUE.test(v)) valueErrs.push(regexError(`a valid label must be an empty string or ${LABEL_CHARS.replace('must consist', 'consist')}`, `(${KEY_FORMAT})?`, ['MyValue', 'my_value', '12345']))
    if (valueErrs.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${valueErrs.join('; ')}`)
  })
  return errs
}

/**
 * LabelSelectorAsSelector on a metric selector: its error, when it has one, worded as upstream's
 * (the first failing requirement: matchLabels, then matchExpressions; an aggregate of several
 * errors prints as a list).
 */
export function labelSelectorAsSelectorError(selector: LabelSelector | undefined): string | undefined {
  try {
    compileLabelSelector(selector ?? null)
    return undefined
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e
    const reqs: {key: string; operator: string; values: readonly string[]}[] = [
      ...Object.entries(selector?.matchLabels ?? {}).map(([key, v]) => ({key, operator: 'Equals', values: [v]})),
      ...(selector?.matchExpressions ?? []).map((x) => ({key: x.key, operator: x.operator, values: x.values ?? []})),
    ]
    for (const r of reqs) {
      if (!['Equals', 'In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) return `${JSON.stringify(r.operator)} is not a valid label selector operator`
      const errs = requirementErrors(r.key, r.operator, r.values)
      if (errs === undefined) return e.message
      if (errs.length === 1) return errs[0]
      if (errs.length > 1) return `[${errs.join(', ')}]`
    }
    return e.message
  }
}

/** computeStatusForPodsMetric (GetMetricReplicas). */
function podsProposal(metric: Extract<MetricSpec, {type: 'Pods'}>, index: number, answer: MetricAnswer, ctx: ProposalContext): MetricProposal {
  const {metric: id, target} = metric.pods
  const reason = 'FailedGetPodsMetric'
  const fail = (inner: string) => failed(index, 'Pods', reason, inner, `failed to get pods metric value: ${inner}`)
  const selectorErr = labelSelectorAsSelectorError(id.selector)
  if (selectorErr !== undefined) return fail(selectorErr)
  const clientErr = clientError(answer, 'custom')
  if (clientErr !== undefined) return fail(`unable to get metric ${id.name}: ${clientErr}`)
  if (answer.kind !== 'podValues') return fail(`unable to get metric ${id.name}: unexpected answer ${answer.kind}`)
  const samples = new Map<string, PodSample>()
  for (const item of answer.items) samples.set(item.pod, {value: milliValue(item.value)})
  try {
    const r = plainMetricReplicas(samples, milliValue(target.averageValue ?? '0'), '', ctx)
    const status: MetricStatus = {type: 'Pods', pods: {metric: id, current: {averageValue: formatMilli(r.average)}}}
    return {index, type: 'Pods', name: `pods metric ${id.name}`, replicas: r.replicas, status, numbers: r.numbers}
  } catch (e) {
    if (!(e instanceof CalcError)) throw e
    return fail(e.message)
  }
}

/** computeStatusForObjectMetric (GetObjectMetricReplicas / GetObjectPerPodMetricReplicas). */
function objectProposal(metric: Extract<MetricSpec, {type: 'Object'}>, index: number, answer: MetricAnswer, ctx: ProposalContext): MetricProposal {
  const {metric: id, target, describedObject: ref} = metric.object
  const reason = 'FailedGetObjectMetric'
  const wrap = (err: string) => `failed to get object metric value: ${err}`
  const selectorErr = labelSelectorAsSelectorError(id.selector)
  if (selectorErr !== undefined) return failed(index, 'Object', reason, selectorErr, wrap(selectorErr))
  const isValue = target.type === 'Value' && target.value !== undefined
  const isAverage = target.type === 'AverageValue' && target.averageValue !== undefined
  if (!isValue && !isAverage) {
    const inner = 'invalid object metric source: neither a value target nor an average value target was set'
    return failed(index, 'Object', reason, inner, wrap(inner))
  }
  // The upstream format string puts its arguments one place off: "<name>: <kind> on <ns> <name>/<err>".
  const fetchError = (err: string) => `unable to get metric ${id.name}: ${ref.kind} on ${ctx.namespace} ${ref.name}/${err}`
  let clientErr = clientError(answer, 'custom')
  if (clientErr === undefined && answer.kind === 'objectValues' && answer.items.length !== 1) {
    clientErr = `unable to fetch metrics from custom metrics API: the custom metrics API server returned ${answer.items.length} results when we asked for exactly one`
  }
  if (clientErr === undefined && answer.kind !== 'objectValues') clientErr = `unexpected answer ${answer.kind}`
  const base = {metric: id, describedObject: ref}
  if (isValue) {
    if (clientErr !== undefined) return failed(index, 'Object', reason, fetchError(clientErr), wrap(fetchError(clientErr)))
    const usage = milliValue((answer as Extract<MetricAnswer, {kind: 'objectValues'}>).items[0].value)
    const targetMilli = milliValue(target.value!)
    try {
      const r = usageRatioReplicaCount(Number(usage) / Number(targetMilli), ctx)
      const status: MetricStatus = {type: 'Object', object: {...base, current: {value: formatMilli(usage)}}}
      return {index, type: 'Object', name: `${ref.kind} metric ${id.name}`, replicas: r.replicas, status, numbers: {...r.numbers, usage: String(usage)}}
    } catch (e) {
      if (!(e instanceof CalcError)) throw e
      return failed(index, 'Object', reason, e.message, wrap(e.message))
    }
  }
  if (clientErr !== undefined) {
    const inner = fetchError(clientErr)
    return failed(index, 'Object', reason, inner, wrap(`failed to get ${id.name} object metric: ${inner}`))
  }
  const usage = milliValue((answer as Extract<MetricAnswer, {kind: 'objectValues'}>).items[0].value)
  const r = perPodReplicas(usage, milliValue(target.averageValue!), ctx, false)
  const status: MetricStatus = {type: 'Object', object: {...base, current: {averageValue: formatMilli(r.average)}}}
  // Upstream names this one like an external metric.
  return {index, type: 'Object', name: `external metric ${id.name}(${goSelector(id.selector)})`, replicas: r.replicas, status, numbers: {...r.numbers, usage: String(usage)}}
}

/** computeStatusForExternalMetric (GetExternalMetricReplicas / GetExternalPerPodMetricReplicas). */
function externalProposal(metric: Extract<MetricSpec, {type: 'External'}>, index: number, answer: MetricAnswer, ctx: ProposalContext): MetricProposal {
  const {metric: id, target} = metric.external
  const reason = 'FailedGetExternalMetric'
  const wrap = (err: string) => `failed to get ${id.name} external metric value: ${err}`
  const name = `external metric ${id.name}(${goSelector(id.selector)})`
  const fetchError = (err: string) => `unable to get external metric ${ctx.namespace}/${id.name}/${goSelector(id.selector)}: ${err}`
  // GetExternal*MetricReplicas convert the metric selector first and return its error as is.
  const selectorErr = labelSelectorAsSelectorError(id.selector)
  let clientErr = clientError(answer, 'external')
  if (clientErr === undefined && answer.kind !== 'externalValues') clientErr = `unexpected answer ${answer.kind}`
  const fetchOrSelector = (err: string) => selectorErr ?? fetchError(err)
  if (selectorErr !== undefined) clientErr = selectorErr
  const values = () => (answer as Extract<MetricAnswer, {kind: 'externalValues'}>).items.map((i) => milliValue(i.value))
  if (target.averageValue !== undefined) {
    if (clientErr !== undefined) {
      const inner = fetchOrSelector(clientErr)
      return failed(index, 'External', reason, inner, wrap(`failed to get ${id.name} external metric: ${inner}`))
    }
    // GetExternalPerPodMetricReplicas sums with its own overflow check; the same result for any real input.
    const usage = externalSum(values())
    const r = perPodReplicas(usage, milliValue(target.averageValue), ctx, true)
    const status: MetricStatus = {type: 'External', external: {metric: id, current: {averageValue: formatMilli(r.average)}}}
    return {index, type: 'External', name, replicas: r.replicas, status, numbers: {...r.numbers, usage: String(usage)}}
  }
  if (target.value !== undefined) {
    const fail = (inner: string) => failed(index, 'External', reason, inner, wrap(`failed to get external metric ${id.name}: ${inner}`))
    if (clientErr !== undefined) return fail(fetchOrSelector(clientErr))
    const usage = externalSum(values())
    try {
      const r = usageRatioReplicaCount(Number(usage) / Number(milliValue(target.value)), ctx)
      const status: MetricStatus = {type: 'External', external: {metric: id, current: {value: formatMilli(usage)}}}
      return {index, type: 'External', name, replicas: r.replicas, status, numbers: {...r.numbers, usage: String(usage)}}
    } catch (e) {
      if (!(e instanceof CalcError)) throw e
      return fail(e.message)
    }
  }
  const inner = 'invalid external metric source: neither a value target nor an average value target was set'
  return failed(index, 'External', reason, inner, wrap(inner))
}
