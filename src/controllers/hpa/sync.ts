// One sync of the horizontal pod autoscaler controller for one HPA: reconcileAutoscaler
// (pkg/controller/podautoscaler/horizontal.go) in its order — scale GET, initial recommendation,
// the zero/out-of-range pre-checks, selector, metrics, normalization, scale write, status. Pure:
// the scale, pods, metric answers, the controller's memory, the clock, flags and gates come in.
import {parseSelectorString, selectorMatches, SelectorError, type CompiledSelector} from '../../reconcile/selector.js'
import {formatRfc3339, parseRfc3339, wholeSeconds} from '../../reconcile/time.js'
import {milliValue} from './defaults.js'
import {
  DEFAULT_HPA_CONFIG,
  DEFAULT_HPA_GATES,
  type HpaCondition,
  type HpaControllerConfig,
  type HpaEvent,
  type HpaFeatureGates,
  type HpaHistory,
  type HpaPlanDetail,
  type HpaPod,
  type HpaStatus,
  type HpaSyncPath,
  type HpaView,
  type LimitReason,
  type MetricAnswer,
  type MetricProposal,
  type MetricStatus,
  type ScaleRead,
} from './model.js'
import {combineProposals, normalizeLegacy, normalizeWithBehavior, rescaleReason, scaleFromZeroFloor, storeScaleEvent, type ConditionUpdate} from './normalize.js'
import {computeProposal, tolerancesFor} from './replicas.js'

export interface HpaSyncInput {
  hpa: HpaView
  /** What GET /scale answered. */
  scale: ScaleRead
  /** The pods of the HPA's namespace in the controller's cache (the selector is applied here). */
  pods: readonly HpaPod[]
  /** One answer per entry of spec.metrics, same order; a missing entry is `{kind: 'missing'}`. */
  metrics: readonly MetricAnswer[]
  /** The controller's memory for this key; absent: it has none (a new HPA or a restarted controller). */
  history?: HpaHistory
  /** The controller's clock: nanoseconds since the epoch, or RFC 3339. */
  now: bigint | string
  config?: HpaControllerConfig
  gates?: HpaFeatureGates
  /** The selectors of the namespace's other HPAs that have synced since the controller started (`ns/name` keys). */
  otherHpaSelectors?: readonly {key: string; selector: string}[]
  /** The scale write fails with this error (retries exhausted or not a conflict). */
  scaleWriteError?: string
}

/** ParseGroupVersion: '' and 'v1' are the core group; more than one '/' is an error. */
function groupVersionError(apiVersion: string | undefined): string | undefined {
  const v = apiVersion ?? ''
  if (v === '' || v === '/') return undefined
  if (v.split('/').length > 2) return `unexpected GroupVersion string: ${v}`
  return undefined
}

/** setConditionInList: updated in place (order kept), lastTransitionTime only when the status changes. */
function setCondition(list: HpaCondition[], update: ConditionUpdate, now: string): void {
  let existing = list.find((c) => c.type === update.type)
  if (!existing) {
    existing = {type: update.type, status: ''}
    list.push(existing)
  }
  const i = list.indexOf(existing)
  const next: HpaCondition = {...existing, status: update.status, reason: update.reason, message: update.message}
  if (existing.status !== update.status) next.lastTransitionTime = now
  list[i] = next
}

function removeCondition(list: HpaCondition[], type: string): HpaCondition[] {
  return list.filter((c) => c.type !== type)
}

/** apiequality.Semantic.DeepEqual on two statuses: quantities and times by value, nil and empty lists alike. */
export function statusEqual(a: HpaStatus, b: HpaStatus): boolean {
  return sameJson(canonicalStatus(a), canonicalStatus(b))
}

/**
 * Whether the two would print the same JSON with keys sorted and undefined fields left out
 * (field order as read does not matter), compared without printing them.
 */
function sameJson(a: unknown, b: unknown): boolean {
  const objectA = a !== null && typeof a === 'object'
  const objectB = b !== null && typeof b === 'object'
  if (!objectA || !objectB) return objectA === objectB && (a === b || JSON.stringify(a) === JSON.stringify(b))
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((x, i) => sameJson(x, b[i]))
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  const keysA = Object.keys(ao).filter((k) => ao[k] !== undefined)
  const keysB = Object.keys(bo).filter((k) => bo[k] !== undefined)
  return keysA.length === keysB.length && keysA.every((k) => bo[k] !== undefined && sameJson(ao[k], bo[k]))
}

function canonicalQuantity(q: string | undefined): string | undefined {
  if (q === undefined) return undefined
  try {
    // Status quantities are milli values: equal values compare equal whatever their spelling.
    return String(milliValue(q))
  } catch {
    return q
  }
}

function canonicalTime(t: string | undefined): string | undefined {
  if (t === undefined) return undefined
  const ns = parseRfc3339(t)
  return ns === undefined ? t : String(ns)
}

function canonicalMetric(m: MetricStatus): unknown {
  const value = (c: {value?: string; averageValue?: string; averageUtilization?: number}) => ({
    value: canonicalQuantity(c.value),
    averageValue: canonicalQuantity(c.averageValue),
    averageUtilization: c.averageUtilization,
  })
  return {
    type: m.type,
    resource: m.resource && {name: m.resource.name, current: value(m.resource.current)},
    containerResource: m.containerResource && {...m.containerResource, current: value(m.containerResource.current)},
    pods: m.pods && {metric: m.pods.metric, current: value(m.pods.current)},
    object: m.object && {metric: m.object.metric, describedObject: m.object.describedObject, current: value(m.object.current)},
    external: m.external && {metric: m.external.metric, current: value(m.external.current)},
  }
}

function canonicalStatus(s: HpaStatus): unknown {
  return {
    observedGeneration: s.observedGeneration,
    lastScaleTime: canonicalTime(s.lastScaleTime),
    currentReplicas: s.currentReplicas,
    desiredReplicas: s.desiredReplicas,
    currentMetrics: (s.currentMetrics ?? []).map(canonicalMetric),
    // An omitted string is Go's "": equal to an empty one.
    conditions: s.conditions.map((c) => ({type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '', lastTransitionTime: canonicalTime(c.lastTransitionTime)})),
  }
}

const hasObjectOrExternal = (hpa: HpaView) => hpa.spec.metrics.some((m) => m.type === 'Object' || m.type === 'External')

/** The whole sync of one HPA (reconcileAutoscaler). */
export function syncHpa(input: HpaSyncInput): HpaPlanDetail {
  const {hpa} = input
  const config = input.config ?? DEFAULT_HPA_CONFIG
  const gates = input.gates ?? DEFAULT_HPA_GATES
  const now = typeof input.now === 'bigint' ? input.now : parseRfc3339(input.now)
  if (now === undefined) throw new Error(`invalid clock reading ${JSON.stringify(input.now)}`)
  const nowText = formatRfc3339(wholeSeconds(now))
  const key = `${hpa.namespace}/${hpa.name}`
  const old = hpa.status
  let conditions: HpaCondition[] = [...old.conditions]
  const set = (update: ConditionUpdate) => setCondition(conditions, update, nowText)
  const events: HpaEvent[] = []
  const warn = (reason: string, message: string) => events.push({type: 'Warning', reason, message})
  const assumes: string[] = []
  let history: HpaHistory = input.history ?? {scaleUpEvents: [], scaleDownEvents: []}
  if (!input.history?.recommendations) assumes.push('the controller keeps no recommendations for this HPA (its first sync since the controller started)')
  else assumes.push('the recommendations given are the controller\'s memory for this HPA')
  if (!input.history) assumes.push('the controller keeps no scale events for this HPA: the behavior rate limits start from an empty history')

  const finish = (path: HpaSyncPath, status: HpaStatus, extra: Partial<HpaPlanDetail> = {}): HpaPlanDetail => ({
    path,
    proposals: [],
    desired: status.desiredReplicas,
    rescaleReason: '',
    ...extra,
    status,
    statusChanged: !statusEqual(old, status),
    events,
    history,
    assumes,
    requeue: {at: nextSync(now, config), seconds: config.syncPeriodSeconds},
  })

  // H1.4: the scale target. Only the group of apiVersion matters; the mapping and GET are the reader's.
  const gvError = groupVersionError(hpa.spec.scaleTargetRef.apiVersion)
  const scaleError = gvError ?? ('error' in input.scale ? input.scale.error : undefined)
  if (scaleError !== undefined || !('scale' in input.scale)) {
    const err = scaleError ?? 'no scale'
    warn('FailedGetScale', err)
    set({type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: `the HPA controller was unable to get the target's current scale: ${err}`})
    return finish('failed-get-scale', {...old, conditions})
  }
  const scale = input.scale.scale
  set({type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale"})
  const current = scale.specReplicas
  // H1.5 recordInitialRecommendation.
  if (!history.recommendations) history = {...history, recommendations: [{replicas: current, at: now}]}

  const min = hpa.spec.minReplicas
  const max = hpa.spec.maxReplicas
  const scaledToZero = gates.HPAScaleToZero && conditions.some((c) => c.type === 'ScaledToZero' && c.status === 'True')
  const canScaleFromZero = scaledToZero && hasObjectOrExternal(hpa)

  let desired = 0
  let reason = ''
  let rescale = true
  let needsMetrics = true
  let metricStatuses: MetricStatus[] | null = null
  let proposals: MetricProposal[] = []
  const detail: Partial<HpaPlanDetail> = {currentReplicas: current, statusReplicas: scale.statusReplicas, target: {kind: scale.kind, apiVersion: scale.apiVersion, name: scale.name}}
  let path: HpaSyncPath = 'normalized'

  // H1.6 pre-checks (shouldComputeMetricsForZeroReplicas).
  if (current === 0) {
    if (!((min !== 0 && scaledToZero) || canScaleFromZero)) {
      needsMetrics = false
      rescale = false
      path = 'scaling-disabled'
      set({type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero'})
      if (!gates.HPAScaleToZero) conditions = removeCondition(conditions, 'ScaledToZero')
    }
  } else if (current > max) {
    reason = 'Current number of replicas above Spec.MaxReplicas'
    desired = max
    needsMetrics = false
    path = 'out-of-range'
  } else if (current < min) {
    reason = 'Current number of replicas below Spec.MinReplicas'
    desired = min
    needsMetrics = false
    path = 'out-of-range'
  }

  if (needsMetrics) {
    // H1.7 validateAndParseSelector, then H2 and H3 (computeReplicasForMetrics).
    const selected = selectPods(input, scale.selector, key, set, warn)
    if (!('error' in selected) || selected.registered) detail.selector = scale.selector
    let failure: string | undefined
    if ('error' in selected) failure = selected.error
    else {
      const tolerances = tolerancesFor(hpa.spec, config.tolerance, gates)
      const ctx = {namespace: hpa.namespace, specReplicas: current, statusReplicas: scale.statusReplicas, pods: selected.pods, now, config, gates, tolerances}
      proposals = hpa.spec.metrics.map((m, i) => computeProposal(m, i, input.metrics[i] ?? {kind: 'missing'}, ctx))
      for (const p of proposals) {
        if (p.error) warn(p.error.reason, p.error.message)
        if (input.metrics[p.index] === undefined || input.metrics[p.index].kind === 'missing') assumes.push(`metric ${p.index} (${p.type}) was not read: reported as failed`)
      }
      metricStatuses = proposals.map((p) => p.status)
      const combined = combineProposals(proposals, current)
      if (combined.abort && combined.firstError) {
        const first = combined.firstError
        set({type: 'ScalingActive', status: 'False', reason: first.reason, message: `the HPA was unable to compute the replica count: ${first.message}`})
        failure = combined.error
      } else {
        if (combined.abort) {
          // No metric at all (unreachable after defaulting): upstream sets an empty condition and goes on with 0.
          set({type: '', status: '', reason: '', message: ''})
          assumes.push('the HPA has no metrics (the API server defaults one); the sync goes on with a proposal of 0')
        } else {
          set({type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: `the HPA was able to successfully calculate a replica count from ${combined.metric}`})
        }
        detail.best = combined.best
        detail.bestMetric = combined.metric
        desired = Math.max(desired, combined.best)
        reason = rescaleReason(combined.best, combined.metric, current)
        const recs = history.recommendations ?? []
        const events = {up: history.scaleUpEvents, down: history.scaleDownEvents}
        const n = hpa.spec.behavior
          ? normalizeWithBehavior({history: recs, events, behavior: hpa.spec.behavior, best: desired, current, min, max, now, flagDownWindowSeconds: config.downscaleStabilizationSeconds})
          : normalizeLegacy({history: recs, best: desired, current, min, max, now, windowSeconds: config.downscaleStabilizationSeconds})
        for (const c of n.conditions) set(c)
        history = {...history, recommendations: n.recommendations}
        detail.stabilized = n.stabilized
        detail.limit = n.limit as LimitReason
        desired = n.desired
        const floored = scaleFromZeroFloor(current, desired, min, scaledToZero)
        if (floored !== desired && reason === '') reason = 'Current number of replicas below Spec.MinReplicas'
        desired = floored
        rescale = desired !== current
      }
    }
    if (failure !== undefined) {
      // The abort path: current replicas and the metrics so far, the old desired count, no write.
      warn('FailedComputeMetricsReplicas', failure)
      const status: HpaStatus = {lastScaleTime: old.lastScaleTime, currentReplicas: current, desiredReplicas: old.desiredReplicas, currentMetrics: metricStatuses, conditions}
      return finish('metrics-failed', status, {...detail, proposals, desired: old.desiredReplicas})
    }
  }

  let lastScaleTime = old.lastScaleTime
  if (rescale) {
    if (input.scaleWriteError !== undefined) {
      const err = input.scaleWriteError
      warn('FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${err}`)
      set({type: 'AbleToScale', status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${err}`})
      const status: HpaStatus = {lastScaleTime, currentReplicas: current, desiredReplicas: old.desiredReplicas, currentMetrics: metricStatuses, conditions}
      return finish(path, status, {...detail, proposals, desired, rescaleReason: reason, scaleWrite: {from: current, to: desired, outcome: 'failed'}})
    }
    set({type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desired}`})
    events.push({type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${desired}; reason: ${reason}`})
    const stored = storeScaleEvent(hpa.spec.behavior, {up: history.scaleUpEvents, down: history.scaleDownEvents}, current, desired, now)
    history = {...history, scaleUpEvents: stored.up, scaleDownEvents: stored.down}
    if (gates.HPAScaleToZero) {
      if (current > 0 && desired === 0 && min === 0 && hasObjectOrExternal(hpa)) {
        set({type: 'ScaledToZero', status: 'True', reason: 'ScaledToZero', message: 'the HPA controller scaled the workload to zero'})
      } else {
        set({type: 'ScaledToZero', status: 'False', reason: 'NotScaledToZero', message: 'the HPA controller did not scale the workload to zero'})
      }
    } else conditions = removeCondition(conditions, 'ScaledToZero')
    lastScaleTime = nowText
    detail.scaleWrite = {from: current, to: desired, outcome: 'written'}
  } else desired = current

  // H7.2 setStatus: rebuilt, observedGeneration dropped.
  const status: HpaStatus = {currentReplicas: current, desiredReplicas: desired, currentMetrics: metricStatuses, conditions}
  if (lastScaleTime !== undefined) status.lastScaleTime = lastScaleTime
  return finish(path, status, {...detail, proposals, desired, rescaleReason: reason})
}

/**
 * validateAndParseSelector: the scale's selector string parsed, the pods it selects, and the
 * ambiguity check against the other HPAs' registered selectors.
 */
function selectPods(
  input: HpaSyncInput,
  selectorText: string,
  key: string,
  set: (c: ConditionUpdate) => void,
  warn: (reason: string, message: string) => void,
): {pods: HpaPod[]} | {error: string; registered?: boolean} {
  if (selectorText === '') {
    warn('SelectorRequired', 'selector is required')
    set({type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector"})
    return {error: 'selector is required'}
  }
  let selector: CompiledSelector
  try {
    selector = parseSelectorString(selectorText)
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e
    const msg = `couldn't convert selector into a corresponding internal selector object: ${e.message}`
    warn('InvalidSelector', msg)
    set({type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message: msg})
    return {error: msg}
  }
  const pods = input.pods.filter((p) => p.namespace === input.hpa.namespace && selectorMatches(selector, p.labels))
  const others: {key: string; selector: CompiledSelector}[] = []
  for (const o of input.otherHpaSelectors ?? []) {
    if (o.key === key) continue
    try {
      others.push({key: o.key, selector: parseSelectorString(o.selector)})
    } catch {
      // An HPA whose selector does not parse is registered with match-nothing.
    }
  }
  const controlling = new Set<string>()
  for (const p of pods) {
    controlling.add(key)
    for (const o of others) if (selectorMatches(o.selector, p.labels)) controlling.add(o.key)
  }
  if (controlling.size > 1) {
    const msg = `pods by selector ${selectorText} are controlled by multiple HPAs: [${[...controlling].join(' ')}]`
    warn('AmbiguousSelector', msg)
    set({type: 'ScalingActive', status: 'False', reason: 'AmbiguousSelector', message: msg})
    // The selector was registered before the check: the other HPAs see it from now on.
    return {error: msg, registered: true}
  }
  return {pods}
}

/** When the controller syncs this HPA next by itself: one sync period after this one (NewDefaultHPARateLimiter). */
export function nextSync(now: bigint, config: HpaControllerConfig = DEFAULT_HPA_CONFIG): string {
  return formatRfc3339(now + BigInt(config.syncPeriodSeconds) * 1_000_000_000n)
}
