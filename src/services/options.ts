// Turns the planning flags (--now, --feature-gates) into PlannerOptions. The real clock is read
// here and nowhere in reconcile/ (the planner gets `now` as a value, like upstream's
// ActivePodsWithRanks.Now).
import {UserError} from '../errors.js'
import {DEFAULT_FEATURE_GATES, type FeatureGates, type PlannerOptions} from '../model/plan.js'
import {formatRfc3339, parseRfc3339} from '../reconcile/time.js'

/** BurstReplicas in pkg/controller/replicaset/replica_set.go (the same for RC). */
export const BURST_REPLICAS = 500

/**
 * An RFC 3339 time (seconds required; up to 9 fractional digits, kept exactly; any UTC offset) in
 * UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, trailing zeros of the fraction dropped as Go's
 * RFC3339Nano does. Undefined when `text` is not such a time.
 */
export function canonicalTime(text: string): string | undefined {
  const ns = parseRfc3339(text)
  return ns === undefined ? undefined : formatRfc3339(ns)
}

/** `--now`, or the real clock when absent. */
export function resolveNow(flag: string | undefined, clock: () => Date = () => new Date()): string {
  if (flag === undefined) {
    const now = canonicalTime(clock().toISOString())
    if (!now) throw new UserError('the system clock returned a time kctl cannot use; pass --now')
    return now
  }
  const now = canonicalTime(flag.trim())
  if (!now) {
    throw new UserError(`invalid --now "${flag}": expected an RFC 3339 time`, {hint: 'e.g. --now 2026-11-22T10:00:00Z'})
  }
  return now
}

const KNOWN_GATES = Object.keys(DEFAULT_FEATURE_GATES) as (keyof FeatureGates)[]

/** strconv.ParseBool, which kube-controller-manager's --feature-gates uses. */
function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  return undefined
}

/**
 * `A=true,B=false` as kube-controller-manager reads --feature-gates (component-base
 * featuregate.Set): comma-separated, blanks trimmed, empty items skipped, the last setting of a
 * gate wins. Only gates that change the rules kctl plans by are known; the rest are upstream
 * 1.36's defaults.
 */
export function parseFeatureGates(text: string | undefined): FeatureGates {
  const gates: FeatureGates = {...DEFAULT_FEATURE_GATES}
  if (text === undefined) return gates
  for (const raw of text.split(',')) {
    const item = raw.trim()
    if (item === '') continue
    const eq = item.indexOf('=')
    if (eq < 0) {
      throw new UserError(`invalid --feature-gates: missing "=true" or "=false" after "${item}"`, {hint: 'e.g. --feature-gates PodDeletionCost=false'})
    }
    const name = item.slice(0, eq).trim()
    const value = parseBool(item.slice(eq + 1).trim())
    if (!(KNOWN_GATES as string[]).includes(name)) {
      throw new UserError(`invalid --feature-gates: unknown gate "${name}"`, {hint: `kctl knows ${KNOWN_GATES.join(', ')}`})
    }
    if (value === undefined) {
      throw new UserError(`invalid --feature-gates: "${item.slice(eq + 1).trim()}" is not true or false for ${name}`)
    }
    gates[name as keyof FeatureGates] = value
  }
  return gates
}

/** Settings a real 1.36 kube-controller-manager would refuse, worth a warning (Appendix B). */
export function gateWarnings(gates: FeatureGates): string[] {
  return gates.LogarithmicScaleDown
    ? []
    : ['LogarithmicScaleDown is GA and locked on since Kubernetes 1.31; a real kube-controller-manager refuses to turn it off']
}

export function plannerOptions(now: string, featureGates: FeatureGates, maxEndpointsPerSlice?: number): PlannerOptions {
  return {now, featureGates, burstReplicas: BURST_REPLICAS, ...(maxEndpointsPerSlice === undefined ? {} : {maxEndpointsPerSlice})}
}
