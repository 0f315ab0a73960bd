// The API server's defaulting of an autoscaling/v2 HPA (pkg/apis/autoscaling/v2/defaults.go), and
// the quantity arithmetic the controller does on targets and samples.
import {parseQuantity, quantityString, roundUp, type Quantity} from '../../reconcile/hash/quantity.js'
import type {Behavior, HpaSpec, MetricSpec, ScalingPolicy, ScalingRules, SelectPolicy} from './model.js'

/** A scaling-rules block as written: every field optional (nil). */
export interface ScalingRulesInput {
  stabilizationWindowSeconds?: number
  selectPolicy?: SelectPolicy
  policies?: readonly ScalingPolicy[]
  tolerance?: string
}

export interface HpaSpecInput {
  scaleTargetRef: HpaSpec['scaleTargetRef']
  minReplicas?: number
  maxReplicas: number
  metrics?: readonly MetricSpec[]
  behavior?: {scaleUp?: ScalingRulesInput; scaleDown?: ScalingRulesInput}
}

/** defaultHPAScaleUpRules: no window, Max of 4 pods or 100% per 15 s. */
export function defaultScaleUpRules(): ScalingRules {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      {type: 'Pods', value: 4, periodSeconds: 15},
      {type: 'Percent', value: 100, periodSeconds: 15},
    ],
  }
}

/** defaultHPAScaleDownRules: the window is left nil (the controller's flag fills it), 100% per 15 s. */
export function defaultScaleDownRules(): ScalingRules {
  return {selectPolicy: 'Max', policies: [{type: 'Percent', value: 100, periodSeconds: 15}]}
}

/** copyHPAScalingRules: each field set by the user wins over the default, the policy list as a whole. */
function fillRules(from: ScalingRulesInput | undefined, to: ScalingRules): ScalingRules {
  if (!from) return to
  const out: ScalingRules = {...to}
  if (from.selectPolicy !== undefined) out.selectPolicy = from.selectPolicy
  if (from.stabilizationWindowSeconds !== undefined) out.stabilizationWindowSeconds = from.stabilizationWindowSeconds
  if (from.policies !== undefined) out.policies = from.policies
  if (from.tolerance !== undefined) out.tolerance = from.tolerance
  return out
}

/** SetDefaults_HorizontalPodAutoscalerBehavior (GenerateHPAScaleUpRules / GenerateHPAScaleDownRules). */
export function defaultBehavior(input: HpaSpecInput['behavior']): Behavior | undefined {
  if (!input) return undefined
  return {scaleUp: fillRules(input.scaleUp, defaultScaleUpRules()), scaleDown: fillRules(input.scaleDown, defaultScaleDownRules())}
}

/** SetDefaults_HorizontalPodAutoscaler: minReplicas 1, no metrics → CPU at 80%, then the behavior. */
export function defaultHpaSpec(input: HpaSpecInput): HpaSpec {
  const metrics: readonly MetricSpec[] =
    input.metrics && input.metrics.length > 0 ? input.metrics : [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 80}}}]
  const spec: HpaSpec = {scaleTargetRef: input.scaleTargetRef, minReplicas: input.minReplicas ?? 1, maxReplicas: input.maxReplicas, metrics}
  const behavior = defaultBehavior(input.behavior)
  if (behavior) spec.behavior = behavior
  return spec
}

// ---- Quantities ----

const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)

/** Quantity.MilliValue(): the value in thousandths, rounded up (away from zero), as int64. */
export function milliValue(text: string): bigint {
  const q = roundUp(parseQuantity(text), -3)
  let milli: bigint
  if (q.kind === 'int') milli = q.value * 10n ** BigInt(q.scale + 3)
  else milli = q.decScale >= 3 ? q.unscaled / 10n ** BigInt(q.decScale - 3) : q.unscaled * 10n ** BigInt(3 - q.decScale)
  return milli > INT64_MAX ? INT64_MAX : milli < INT64_MIN ? INT64_MIN : milli
}

/** resource.NewMilliQuantity(v, format).String(): the canonical form of a milli value. */
export function formatMilli(milli: bigint, format: 'DecimalSI' | 'BinarySI' = 'DecimalSI'): string {
  const q: Quantity = {kind: 'int', value: milli, scale: -3, format, s: ''}
  return quantityString(q)
}

/**
 * Quantity.AsApproximateFloat64 of a stored tolerance: the canonical mantissa times 10^exponent in
 * float64, which for the values the API stores equals reading the decimal (H2.2).
 */
export function approximateFloat(text: string): number {
  const canonical = quantityString(parseQuantity(text))
  const m = /^(-?\d+)(m|u|n|k|M|G|T|P|E)?$/.exec(canonical)
  if (!m) return Number(canonical.replace(/[^0-9.eE+-]/g, ''))
  const exponent = {'': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18}[m[2] ?? '']!
  const mantissa = Number(m[1])
  return exponent < 0 ? mantissa * (1 / 10 ** -exponent) : mantissa * 10 ** exponent
}
