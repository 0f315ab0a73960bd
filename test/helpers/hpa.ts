// Builders for the HPA core's tests: the defaults of the worked examples (pods Running and Ready,
// started an hour ago, CPU request 1, CPU target 50%, tolerance 0.1, no behavior, min 1, and a
// history holding one stale recommendation so the initial recommendation plays no part).
import {defaultHpaSpec, type HpaSpecInput} from '../../src/controllers/hpa/defaults.js'
import type {HpaHistory, HpaPod, HpaStatus, HpaView, MetricAnswer, MetricSpec, PodMetricsItem} from '../../src/controllers/hpa/model.js'
import {syncHpa, type HpaSyncInput} from '../../src/controllers/hpa/sync.js'
import {formatRfc3339, parseRfc3339} from '../../src/reconcile/time.js'

export const HPA_NOW_TEXT = '2026-01-01T12:00:00Z'
export const HPA_NOW = parseRfc3339(HPA_NOW_TEXT)!
const S = 1_000_000_000n

/** RFC 3339 of now − s seconds. */
export const ago = (s: number) => formatRfc3339(HPA_NOW - BigInt(Math.round(s * 1e9)))
export const agoNs = (s: number) => HPA_NOW - BigInt(Math.round(s * 1e9))
export const secondsNs = (s: number) => BigInt(s) * S

export function hpaPod(name: string, opts: Partial<HpaPod> & {cpu?: string; startedAgo?: number; readySinceAgo?: number; ready?: string} = {}): HpaPod {
  const {cpu = '1', startedAgo = 3600, readySinceAgo = startedAgo - 10, ready = 'True', ...rest} = opts
  return {
    name,
    namespace: 'ns',
    labels: {app: 'web'},
    phase: 'Running',
    startTime: ago(startedAgo),
    readyCondition: {status: ready, lastTransitionTime: ago(readySinceAgo)},
    containers: [{name: 'app', requests: {cpu}}],
    sidecars: [],
    ...rest,
  }
}

export const pods = (n: number, opts: Parameters<typeof hpaPod>[1] = {}) => Array.from({length: n}, (_, i) => hpaPod(`p${i}`, opts))

/** A PodMetricsList with one container `app` per pod, the sample 5 s old over a 60 s window. */
export function cpuSamples(values: Record<string, string>, resource = 'cpu', ageSeconds = 5): MetricAnswer {
  const items: PodMetricsItem[] = Object.entries(values).map(([name, v]) => ({name, timestamp: ago(ageSeconds), windowSeconds: 60, containers: [{name: 'app', usage: {[resource]: v}}]}))
  return {kind: 'podMetrics', items}
}

/** Samples for p0..p(n-1), all the same value. */
export const sameSamples = (n: number, v: string) => cpuSamples(Object.fromEntries(Array.from({length: n}, (_, i) => [`p${i}`, v])))

export const CPU_50: MetricSpec = {type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 50}}}

export const EMPTY_STATUS: HpaStatus = {currentReplicas: 0, desiredReplicas: 0, currentMetrics: null, conditions: []}

export function hpaView(spec: Partial<HpaSpecInput> = {}, status: Partial<HpaStatus> = {}): HpaView {
  return {
    namespace: 'ns',
    name: 'h',
    uid: 'uid-h',
    resourceVersion: '1',
    spec: defaultHpaSpec({scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'}, maxReplicas: 10, metrics: [CPU_50], ...spec}),
    status: {...EMPTY_STATUS, ...status},
  }
}

/** One stale recommendation: the history exists, so no initial recommendation is seeded. */
export const STALE_HISTORY: HpaHistory = {recommendations: [{replicas: 1, at: HPA_NOW - 3600n * S}], scaleUpEvents: [], scaleDownEvents: []}

export interface Run extends Partial<Omit<HpaSyncInput, 'scale'>> {
  spec?: number
  statusReplicas?: number
  selector?: string
}

/** One sync with the examples' defaults. */
export function runHpa(opts: Run = {}) {
  const {spec = 3, statusReplicas, selector = 'app=web', ...rest} = opts
  return syncHpa({
    hpa: hpaView(),
    pods: pods(spec),
    metrics: [],
    history: STALE_HISTORY,
    now: HPA_NOW,
    ...rest,
    scale: {scale: {kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', specReplicas: spec, statusReplicas: statusReplicas ?? spec, selector}},
  })
}

export const conditionsOf = (status: HpaStatus) => status.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`)
