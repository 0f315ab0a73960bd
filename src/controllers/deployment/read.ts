// Deployments as the API server stores them: defaulted as SetDefaults_Deployment does
// (pkg/apis/apps/v1/defaults.go) and checked as ValidateDeploymentSpec checks what the controller reads.
import type {DeploymentCondition, DeploymentStatusView, DeploymentStrategy, DeploymentView} from '../../model/objects.js'
import {compileLabelSelector, selectorMatches} from '../../reconcile/selector.js'
import {type Ctx, EMPTY_RAW, INT32_MAX} from '../../sources/context.js'
import type {RawObject} from '../../sources/documents.js'
import {intOrPercent, labelSelector, template as podTemplate, workloadConditions} from '../../sources/fields.js'
import type {KindReader, ReadInput} from '../../sources/part.js'

/** What the Deployment controller reads: its Deployments (after -n and -l); ReplicaSets are the ReplicaSet controller's reading. */
export const DEPLOYMENT_READS: readonly KindReader[] = [
  // extensions/v1beta1 and apps/v1beta1/2 served Deployments before Kubernetes 1.16.
  {kind: 'Deployment', group: 'apps', version: 'v1', retiredGroups: ['extensions', 'apps'], read: readDeployment},
]

/**
 * An apps/v1 Deployment, defaulted as SetDefaults_Deployment does (replicas 1, RollingUpdate with
 * 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600) and checked as
 * ValidateDeploymentSpec checks what the controller reads.
 */
function readDeployment(input: ReadInput): void {
  const {ctx, apiVersion, meta, raw} = input
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY_RAW
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY_RAW
  const replicas = ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX) ?? 1
  const minReadySeconds = ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0
  const selector = labelSelector(ctx, spec.selector, 'Deployment')
  const template = podTemplate(ctx, spec.template)
  if (spec.template === undefined || spec.template === null) ctx.fail(['spec', 'template'], 'a Deployment needs a pod template')
  else if (selector && !selectorMatches(compileLabelSelector(selector), template.labels)) {
    ctx.fail(['spec', 'template', 'metadata', 'labels'], '`selector` does not match template `labels`', 'the API server rejects a Deployment whose selector does not select its own template')
  }
  const strategy = readStrategy(ctx, spec.strategy)
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
    conditions: deploymentConditions(ctx, status.conditions),
  }
  const terminating = int('terminatingReplicas')
  if (terminating !== undefined) statusView.terminatingReplicas = terminating
  const collisionCount = int('collisionCount')
  if (collisionCount !== undefined) statusView.collisionCount = collisionCount
  if (!input.clean() || !selector) return
  const d: DeploymentView = {
    kind: 'Deployment',
    apiVersion,
    ...meta,
    replicas,
    minReadySeconds,
    selector,
    template,
    rawTemplate: spec.template,
    serverDefaulted: input.fields.serverDefaulted,
    strategy,
    revisionHistoryLimit,
    progressDeadlineSeconds,
    paused,
    status: statusView,
  }
  Object.defineProperty(d, 'origin', {get: () => ctx.obj.locator.origin, enumerable: false})
  if (input.planned()) input.collect('deployments', d)
}

function readStrategy(ctx: Ctx, v: unknown): DeploymentStrategy {
  const at = ['spec', 'strategy']
  const s = ctx.mapping(v, at) ?? EMPTY_RAW
  const type = ctx.string(s.type, [...at, 'type']) || 'RollingUpdate'
  if (type !== 'RollingUpdate' && type !== 'Recreate') ctx.fail([...at, 'type'], `unsupported value ${JSON.stringify(type)}`, 'use RollingUpdate or Recreate')
  const ru = ctx.mapping(s.rollingUpdate, [...at, 'rollingUpdate'])
  if (type === 'Recreate') {
    if (ru) ctx.fail([...at, 'rollingUpdate'], 'may not be specified when strategy `type` is \'Recreate\'')
    return {type}
  }
  const maxSurge = intOrPercent(ctx, ru?.maxSurge, [...at, 'rollingUpdate', 'maxSurge']) ?? '25%'
  const maxUnavailable = intOrPercent(ctx, ru?.maxUnavailable, [...at, 'rollingUpdate', 'maxUnavailable']) ?? '25%'
  if (isZero(maxSurge) && isZero(maxUnavailable)) {
    ctx.fail([...at, 'rollingUpdate', 'maxUnavailable'], 'may not be 0 when `maxSurge` is 0')
  }
  if (typeof maxUnavailable === 'string' && Number.parseInt(maxUnavailable, 10) > 100) {
    ctx.fail([...at, 'rollingUpdate', 'maxUnavailable'], 'must not be greater than 100%')
  }
  return {type, maxSurge, maxUnavailable}
}

function deploymentConditions(ctx: Ctx, v: unknown): DeploymentCondition[] {
  const base = workloadConditions(ctx, v)
  if (!Array.isArray(v)) return base
  return base.map((c, i) => {
    const raw = v[i] as RawObject
    const lastUpdateTime = ctx.time(raw.lastUpdateTime, ['status', 'conditions', i, 'lastUpdateTime'])
    return lastUpdateTime === undefined ? c : {...c, lastUpdateTime}
  })
}

const isZero = (v: number | string) => v === 0 || (typeof v === 'string' && Number.parseInt(v, 10) === 0)
