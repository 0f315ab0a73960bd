// One sync of the horizontal pod autoscaler controller, carried out as planned (reconcileAutoscaler
// in pkg/controller/podautoscaler/horizontal.go): first the scale write — a PUT of the target's
// scale subresource (scaleNamespacer.Update) with spec.replicas replaced — then the status write
// (updateStatusIfNeeded), a PUT of the HPA's /status in autoscaling/v2.
// More careful than the controller, since the plan may be older than the world: the HPA must still
// be the version planned (uid, resourceVersion), and the Scale carries the target's uid and
// resourceVersion as planned, so a target changed since planning answers 409 and nothing is
// written (the controller re-reads the scale and retries on a conflict; kctl does not re-plan).
// A failed scale write stops the sync before the status write, which would otherwise record a
// rescale that did not happen.
import type {Action, ControllerKind} from '../../model/plan.js'
import {type ControllerObject, type ScaleObject, actionError} from '../../apply/pod-control.js'
import {checkedAction, type Fail, isObj} from '../../apply/saved-actions.js'
import {SKIP, SyncBase, type Run} from '../../apply/sync.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {HpaCondition, HpaStatus, MetricStatus, ScaleTargetAction, UpdateHpaStatusAction} from './model.js'

type Obj = Record<string, any>

/** Where the API server serves HPAs: the status write goes to autoscaling/v2, whatever version the HPA was written in. */
export const HPA_RESOURCES = {HorizontalPodAutoscaler: {apiPath: '/apis/autoscaling/v2', resource: 'horizontalpodautoscalers.autoscaling'}} as const

/** The kinds whose scale subresource kctl writes (planner.ts reads the same four). */
const SCALED: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'])

export const HPA_SKIP = {
  targetWritten: "not sent: the scale target's own sync in this round wrote it (a new resourceVersion); the next round plans this HPA again",
} as const

/** The writes of one sync in the controller's order: the scale write, then the status write. */
export function hpaWriteOrder(actions: readonly Action[]): number[] {
  const rank = (a: Action) => (a.type === 'scaleTarget' ? 0 : a.type === 'updateHpaStatus' ? 1 : 2)
  return actions.map((_, i) => i).sort((i, j) => rank(actions[i]) - rank(actions[j]) || i - j)
}

/** The Scale the controller PUTs: the target's name, namespace, uid and resourceVersion as planned, spec.replicas the new size. */
export function scaleObject(a: ScaleTargetAction, namespace: string): ScaleObject {
  const metadata: ScaleObject['metadata'] = {name: a.target.name, namespace}
  if (a.uid) metadata.uid = a.uid
  if (a.resourceVersion) metadata.resourceVersion = a.resourceVersion
  return {apiVersion: 'autoscaling/v1', kind: 'Scale', metadata, spec: {replicas: a.to}}
}

function conditionObject(c: HpaCondition): Obj {
  const out: Obj = {type: c.type, status: c.status}
  if (c.lastTransitionTime !== undefined) out.lastTransitionTime = c.lastTransitionTime
  if (c.reason) out.reason = c.reason
  if (c.message) out.message = c.message
  return out
}

/** The status as autoscaling/v2 stores it (setStatus): nil metrics and an unset lastScaleTime are left out, observedGeneration is dropped. */
export function hpaStatusObject(s: HpaStatus): Obj {
  const out: Obj = {}
  if (s.lastScaleTime !== undefined) out.lastScaleTime = s.lastScaleTime
  out.currentReplicas = s.currentReplicas
  out.desiredReplicas = s.desiredReplicas
  if (s.currentMetrics !== null && s.currentMetrics.length > 0) out.currentMetrics = s.currentMetrics.map((m) => structuredClone(m) as MetricStatus)
  if (s.conditions.length > 0) out.conditions = s.conditions.map(conditionObject)
  return out
}

const V1_CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions'
const V1_CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics'

/** Convert_autoscaling_MetricStatus_To_v1_MetricStatus: one metric status as the v1 annotation holds it. */
export function v1MetricStatus(m: MetricStatus): Obj {
  const out: Obj = {type: m.type}
  const sel = (s: unknown) => (s ? {selector: s} : {})
  if (m.resource) {
    const c = m.resource.current
    out.resource = {name: m.resource.name, ...(c.averageUtilization !== undefined ? {currentAverageUtilization: c.averageUtilization} : {}), currentAverageValue: c.averageValue ?? '0'}
  }
  if (m.containerResource) {
    const c = m.containerResource.current
    out.containerResource = {name: m.containerResource.name, container: m.containerResource.container, ...(c.averageUtilization !== undefined ? {currentAverageUtilization: c.averageUtilization} : {}), currentAverageValue: c.averageValue ?? '0'}
  }
  if (m.pods) out.pods = {metricName: m.pods.metric.name, currentAverageValue: m.pods.current.averageValue ?? '0', ...sel(m.pods.metric.selector)}
  if (m.object) {
    const c = m.object.current
    out.object = {target: {...m.object.describedObject}, metricName: m.object.metric.name, currentValue: c.value ?? '0', ...sel(m.object.metric.selector), ...(c.averageValue !== undefined ? {averageValue: c.averageValue} : {})}
  }
  if (m.external) {
    const c = m.external.current
    out.external = {metricName: m.external.metric.name, ...(m.external.metric.selector ? {metricSelector: m.external.metric.selector} : {}), currentValue: c.value ?? '0', ...(c.averageValue !== undefined ? {currentAverageValue: c.averageValue} : {})}
  }
  return out
}

/**
 * The HPA object to PUT on /status. An autoscaling/v2 object (any cluster, and v2 fixtures) gets
 * the v2 status. An autoscaling/v1 fixture is written as the API server shows the v1 object: the
 * replica counts, lastScaleTime and currentCPUUtilizationPercentage (the CPU utilization metric's),
 * and the conditions and every metric status in their annotations, as the API server's
 * Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler writes them.
 */
export function hpaStatusWrite(raw: Obj, resourceVersion: string, to: HpaStatus): Obj {
  const object = structuredClone(raw)
  object.metadata = {...(object.metadata ?? {}), resourceVersion}
  if (object.apiVersion !== 'autoscaling/v1') {
    object.status = hpaStatusObject(to)
    return object
  }
  const status: Obj = {}
  if (to.lastScaleTime !== undefined) status.lastScaleTime = to.lastScaleTime
  status.currentReplicas = to.currentReplicas
  status.desiredReplicas = to.desiredReplicas
  const cpu = (to.currentMetrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current.averageUtilization !== undefined)
  if (cpu) status.currentCPUUtilizationPercentage = cpu.resource!.current.averageUtilization
  object.status = status
  const annotations: Obj = {...(object.metadata.annotations ?? {})}
  if (to.conditions.length > 0) annotations[V1_CONDITIONS] = JSON.stringify(to.conditions.map(conditionObject))
  else delete annotations[V1_CONDITIONS]
  const metrics = to.currentMetrics ?? []
  if (metrics.length > 0) annotations[V1_CURRENT_METRICS] = JSON.stringify(metrics.map(v1MetricStatus))
  else delete annotations[V1_CURRENT_METRICS]
  if (Object.keys(annotations).length > 0) object.metadata.annotations = annotations
  else delete object.metadata.annotations
  return object
}

export class HpaSync extends SyncBase {
  constructor(
    run: Run,
    cp: ControllerPlan,
    /** The target's own sync wrote it earlier this round: the Scale's resourceVersion is no longer the target's. */
    private readonly targetWritten: boolean,
  ) {
    super(run, cp)
  }

  protected async steps(): Promise<void> {
    if (this.targetWritten && this.cp.actions.some((a) => a.type === 'scaleTarget')) return this.stop(HPA_SKIP.targetWritten)
    const hpa = await this.readController()
    if (!hpa) return
    for (const i of hpaWriteOrder(this.cp.actions)) {
      const halt = this.run.stopReason()
      if (halt) return this.stop(halt)
      if (this.stopped) return
      const a = this.cp.actions[i]
      const r = this.results[i]
      try {
        await this.run.calls.run(() => this.write(a, hpa, i))
        this.settle(r, 'ok')
      } catch (e) {
        const error = actionError(e)
        if (a.type === 'scaleTarget' && (error.code === 409 || error.code === 404)) {
          // The target changed, was re-created (uid precondition) or is gone since planning.
          this.conflicted(r, error, `${a.target.kind} ${this.cp.namespace}/${a.target.name} (the scale target of ${this.label}) changed since planning`)
        } else if (a.type === 'updateHpaStatus' && error.code === 409) this.conflicted(r, error, `${this.label} changed since planning`)
        else this.settle(r, 'failed', error)
        return this.stop(this.run.stopReason() ?? SKIP.afterFailedWrite)
      }
    }
  }

  private async write(a: Action, hpa: ControllerObject, i: number): Promise<void> {
    const ns = this.cp.namespace
    const r = this.results[i]
    switch (a.type) {
      case 'scaleTarget': {
        const t = (a as ScaleTargetAction).target
        if (!SCALED.has(t.kind) && !t.resource) throw new Error(`kctl writes the scale of Deployments, StatefulSets, ReplicaSets, ReplicationControllers and custom resources it read the definition of, not ${t.kind}`)
        const customScale = t.resource ? {customScale: {resource: t.resource, ...(t.specReplicasPath ? {specReplicasPath: t.specReplicasPath} : {})}} : {}
        const key = {kind: t.kind as ControllerKind, apiVersion: t.apiVersion, namespace: ns, name: t.name, ...customScale}
        const written = await this.control.updateScale(key, scaleObject(a, ns))
        r.done = {replicas: a.to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
        return
      }
      case 'updateHpaStatus': {
        const to = (a as UpdateHpaStatusAction).to
        const written = await this.control.updateStatus(this.cp, hpaStatusWrite(hpa.raw as Obj, this.cp.resourceVersion, to))
        r.done = {status: to, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
        return
      }
      default:
        throw new Error(`internal: ${a.type} is not an HPA write`)
    }
  }
}

/** A scale-down the HPA writes: the pods its target's controller then takes away (counted by the guards, once). */
export function hpaResizes(a: Action): {kind: ControllerKind; name: string; by: number} | undefined {
  if (a.type !== 'scaleTarget' || a.to >= a.from) return undefined
  return {kind: a.target.kind as ControllerKind, name: a.target.name, by: a.from - a.to}
}

/** One planned HPA write of a saved plan, checked: what the executor sends is required. */
export function hpaAction(raw: unknown, at: string, fail: Fail): Action {
  const a = checkedAction(raw, at, fail, {
    scaleTarget: {mappings: ['target'], numbers: ['from', 'to'], strings: ['uid', 'resourceVersion']},
    updateHpaStatus: {mappings: ['from', 'to']},
  })
  if (a.type === 'scaleTarget') {
    const s = a as Obj
    for (const f of ['kind', 'apiVersion', 'name']) if (typeof s.target[f] !== 'string') throw fail(`${at}.target.${f}`, 'expected a string')
    for (const f of ['resource', 'specReplicasPath']) if (s.target[f] !== undefined && typeof s.target[f] !== 'string') throw fail(`${at}.target.${f}`, 'expected a string')
    if (!SCALED.has(s.target.kind) && typeof s.target.resource !== 'string') throw fail(`${at}.target.kind`, `expected Deployment, StatefulSet, ReplicaSet or ReplicationController, or a custom resource with target.resource, got ${s.target.kind}`)
    if (!Number.isInteger(s.to) || s.to < 0) throw fail(`${at}.to`, 'expected a replica count')
    if (typeof s.reason !== 'string') s.reason = ''
    return a
  }
  const to = a.to as Obj
  for (const f of ['currentReplicas', 'desiredReplicas']) if (typeof to[f] !== 'number') throw fail(`${at}.to.${f}`, 'expected a number')
  if (!Array.isArray(to.conditions)) throw fail(`${at}.to.conditions`, 'expected a list')
  for (const [j, c] of (to.conditions as unknown[]).entries()) {
    if (!isObj(c) || typeof c.type !== 'string' || typeof c.status !== 'string') throw fail(`${at}.to.conditions[${j}]`, 'expected a condition with a type and a status')
  }
  if (to.currentMetrics !== null && to.currentMetrics !== undefined && !Array.isArray(to.currentMetrics)) throw fail(`${at}.to.currentMetrics`, 'expected a list or null')
  if (to.currentMetrics === undefined) to.currentMetrics = null
  if (to.lastScaleTime !== undefined && typeof to.lastScaleTime !== 'string') throw fail(`${at}.to.lastScaleTime`, 'expected a string')
  return a
}
