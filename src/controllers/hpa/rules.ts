// What `kctl check` knows about HorizontalPodAutoscalers: their scaleTargetRef and replica range
// (invalid-field's checks of their fields), and
//   hpa-replicas-conflict     spec.replicas written on a workload an HPA scales;
//   hpa-replicas-out-of-range a target without spec.replicas (so 1) below minReplicas: the HPA
//                             resizes it at its first sync, without metrics (reconcileAutoscaler's
//                             range pre-checks; a written count outside the range is
//                             hpa-replicas-conflict's, which says so);
//   hpa-target-missing        a scaleTargetRef that names no object in the input, or names it in
//                             another API group (scaleForResourceMappings fails: FailedGetScale).
import type {Path, RawObject} from '../../sources/documents.js'
import type {Ctx} from '../../sources/normalize.js'
import {checkedKind} from '../../check/controllers.js'
import {describeObject, type Draft} from '../../check/draft.js'
import {INT32_MAX, metadata, specOf} from '../../check/fields.js'
import {findContainer, groupOf, isMapping, resourceGroupOf, type CheckObject, type ContainerView, type PodSpecView} from '../../check/objects.js'
import type {CheckedKind, ControllerChecks} from '../../check/part.js'
import type {Scope} from '../../check/scope.js'

/** invalid-field: an HPA's fields. */
function hpa(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  const ref = ctx.mapping(spec.scaleTargetRef, ['spec', 'scaleTargetRef'])
  if (!ref) {
    if (spec.scaleTargetRef === undefined || spec.scaleTargetRef === null) ctx.fail(['spec', 'scaleTargetRef'], 'required: the workload to scale (kind and name)')
  } else {
    requiredString(ctx, ref, 'kind')
    requiredString(ctx, ref, 'name')
  }
  const min = ctx.int(spec.minReplicas, ['spec', 'minReplicas'], 0, INT32_MAX)
  if (min === 0) ctx.fail(['spec', 'minReplicas'], 'must be at least 1 (0 needs the alpha HPAScaleToZero feature gate)')
  if (spec.maxReplicas === undefined || spec.maxReplicas === null) ctx.fail(['spec', 'maxReplicas'], 'required')
  const max = ctx.int(spec.maxReplicas, ['spec', 'maxReplicas'], 0, INT32_MAX)
  if (max === 0) ctx.fail(['spec', 'maxReplicas'], 'must be at least 1')
  else if (max !== undefined && min !== undefined && min > max) ctx.fail(['spec', 'minReplicas'], `must not be greater than maxReplicas (${max})`)
}

/** A field of scaleTargetRef that must be a non-empty string. */
function requiredString(ctx: Ctx, ref: RawObject, field: 'kind' | 'name'): void {
  const v = ref[field]
  if (v === undefined || v === null || v === '') ctx.fail(['spec', 'scaleTargetRef', field], `${field} is required`)
  else ctx.string(v, ['spec', 'scaleTargetRef', field])
}

const hpaKind: CheckedKind = {
  kind: 'HorizontalPodAutoscaler',
  groups: ['autoscaling'],
  read(obj: CheckObject, spec: RawObject | undefined): void {
    const ref = isMapping(spec?.scaleTargetRef) ? spec.scaleTargetRef : undefined
    obj.hpa = {
      target:
        ref && typeof ref.kind === 'string' && typeof ref.name === 'string'
          ? {kind: ref.kind, name: ref.name, apiVersion: typeof ref.apiVersion === 'string' ? ref.apiVersion : undefined}
          : undefined,
      minReplicas: typeof spec?.minReplicas === 'number' ? spec.minReplicas : undefined,
      maxReplicas: typeof spec?.maxReplicas === 'number' ? spec.maxReplicas : undefined,
      utilization: utilizationMetrics(obj.apiVersion, spec),
    }
  },
  validate: hpa,
}

const NONE: readonly CheckObject[] = []

/**
 * The workloads an HPA can name: by name, then one list (in input order) for each namespace and
 * kind; and every scalable kind the objects hold. Looked up by the name an HPA already holds, so
 * that no key is built for every workload and every HPA.
 */
interface Targets {
  byName: Map<string, CheckObject[][]>
  kinds: Set<string>
}

function scalableTargets(objects: readonly CheckObject[]): Targets {
  const byName = new Map<string, CheckObject[][]>()
  const kinds = new Set<string>()
  for (const o of objects) {
    if (!checkedKind(o)?.scalable) continue
    kinds.add(o.kind)
    if (!o.controller || o.name === '') continue
    let lists = byName.get(o.name)
    if (!lists) byName.set(o.name, (lists = []))
    const list = listOf(lists, o.namespace, o.kind)
    if (list) list.push(o)
    else lists.push([o])
  }
  return {byName, kinds}
}

/** Of the lists of one name's workloads, the one of this namespace and kind. */
function listOf(lists: CheckObject[][], namespace: string, kind: string): CheckObject[] | undefined {
  for (const l of lists) if (l[0].namespace === namespace && l[0].kind === kind) return l
  return undefined
}

/** The workloads of `targets` in this namespace, of this kind and name. */
function targetsNamed(targets: Targets, namespace: string, kind: string, name: string): readonly CheckObject[] {
  const lists = targets.byName.get(name)
  return (lists && listOf(lists, namespace, kind)) ?? NONE
}

type HpaTarget = NonNullable<NonNullable<CheckObject['hpa']>['target']>

/** The resource group scaleTargetRef.apiVersion names (only the group is read; none is the core group): a target is in it or not. */
const refGroup = (ref: HpaTarget) => resourceGroupOf(groupOf(ref.apiVersion ?? ''), ref.kind)

// The fields the findings point at, shared by every finding (positions only read them).
const SPEC: Path = ['spec']
const SPEC_REPLICAS: Path = ['spec', 'replicas']
const SCALE_TARGET_REF: Path = ['spec', 'scaleTargetRef']
const MIN_REPLICAS: Path = ['spec', 'minReplicas']

/** hpa-replicas-conflict: spec.replicas written on a target; every apply resets the count. */
function conflictDrafts(objects: readonly CheckObject[], targets: Targets): Draft[] {
  const drafts: Draft[] = []
  const reported = new Set<CheckObject>()
  // Index loops, here and in targetDrafts: for-of loops made these functions much larger to compile.
  for (let h = 0; h < objects.length; h++) {
    const hpa = objects[h]
    const ref = hpa.hpa?.target
    if (!ref) continue
    const candidates = targetsNamed(targets, hpa.namespace, ref.kind, ref.name)
    if (candidates.length === 0) continue
    const group = ref.apiVersion === undefined ? undefined : refGroup(ref)
    for (let t = 0; t < candidates.length; t++) {
      const target = candidates[t]
      if (group !== undefined && target.resourceGroup !== group) continue
      const replicas = target.controller!.replicas
      if (replicas === undefined || reported.has(target)) continue
      reported.add(target)
      const {minReplicas, maxReplicas} = hpa.hpa!
      const min = minReplicas ?? 1
      const outside = typeof replicas === 'number' && maxReplicas !== undefined && (replicas < min || replicas > maxReplicas) ? `, outside its range ${min}–${maxReplicas},` : ''
      drafts.push({
        rule: 'hpa-replicas-conflict',
        message: `spec.replicas is set, but ${describeObject(hpa)} scales this ${target.kind}: every apply sets the count back to ${JSON.stringify(replicas)}${outside} until the autoscaler scales it again; remove spec.replicas from the manifest`,
        subject: target,
        path: SPEC_REPLICAS,
        atKey: true,
        related: [{object: hpa, path: SCALE_TARGET_REF, atKey: true, message: `the scaleTargetRef of ${describeObject(hpa)}`}],
        also: [hpa],
      })
    }
  }
  return drafts
}

/** The targets of the resource group (all of them, most often: then the list itself). */
function inGroup(targets: readonly CheckObject[], group: string): readonly CheckObject[] {
  for (const t of targets) if (t.resourceGroup !== group) return targets.filter((u) => u.resourceGroup === group)
  return targets
}

/**
 * hpa-target-missing, hpa-replicas-out-of-range and hpa-missing-requests. The target is looked up
 * nearest first (the HPA's file, its apply set, then the whole input); the range is judged only
 * against a target of the HPA's own apply set (a conflict).
 */
function targetDrafts(objects: readonly CheckObject[], scope: Scope): Draft[] {
  const drafts: Draft[] = []
  const all = scope.memo('hpa-targets', () => scalableTargets(scope.all))
  for (let h = 0; h < objects.length; h++) {
    const hpa = objects[h]
    const ref = hpa.hpa?.target
    if (!ref) continue
    const named = scope.nearest(hpa, targetsNamed(all, hpa.namespace, ref.kind, ref.name))
    const found = inGroup(named, refGroup(ref))
    if (found.length > 0) missingRequestDrafts(hpa, found, drafts)
    else {
      // Only kinds the input holds objects of are judged: a custom resource may live elsewhere.
      if (named.length > 0 || all.kinds.has(ref.kind)) drafts.push(targetMissingDraft(hpa, ref, named))
      continue
    }
    const {minReplicas, maxReplicas} = hpa.hpa!
    const min = minReplicas ?? 1
    // Without spec.replicas the API server stores 1; maxReplicas is at least 1.
    if (maxReplicas === undefined || min <= 1) continue
    const set = scope.setOf(hpa)
    let title: string | undefined
    for (let t = 0; t < found.length; t++) {
      const target = found[t]
      if (scope.setOf(target) !== set) continue
      // A written count is hpa-replicas-conflict's (its message says when it lies outside the range).
      if (target.controller!.replicas !== undefined) continue
      title ??= describeObject(hpa)
      drafts.push({
        rule: 'hpa-replicas-out-of-range',
        message: `spec.replicas is not set, so the API server stores 1, below minReplicas ${min} of ${title}: its first sync scales this ${target.kind} to ${min} without reading any metric (Current number of replicas below Spec.MinReplicas)`,
        subject: target,
        path: SPEC,
        atKey: true,
        related: [{object: hpa, path: MIN_REPLICAS, atKey: true, message: `the minReplicas of ${title}`}],
        also: [hpa],
      })
    }
  }
  return drafts
}

/** hpa-target-missing: no target named, or `named` only in another API group. */
function targetMissingDraft(hpa: CheckObject, ref: HpaTarget, named: readonly CheckObject[]): Draft {
  const why =
    named.length > 0
      ? `${ref.kind} ${hpa.namespace}/${ref.name} is in the input, but scaleTargetRef.apiVersion ${JSON.stringify(ref.apiVersion ?? '')} names the API group "${groupOf(ref.apiVersion ?? '')}", where no ${ref.kind} is served (only the group is read: set apiVersion: ${named[0].apiVersion})`
      : `no ${ref.kind} ${hpa.namespace}/${ref.name} is in the input`
  return {
    rule: 'hpa-target-missing',
    message: `${why}: the HPA controller cannot read its scale (FailedGetScale, AbleToScale False) and scales nothing`,
    subject: hpa,
    path: named.length > 0 ? ['spec', 'scaleTargetRef', 'apiVersion'] : ['spec', 'scaleTargetRef', 'name'],
    atKey: named.length > 0 && ref.apiVersion === undefined,
  }
}

/** A metric the HPA computes as a utilization of the pods' requests. */
interface UtilizationMetric {
  resource: string
  /** ContainerResource: only this container's request counts. */
  container?: string
  path: Path
  atKey: boolean
}

/**
 * The utilization metrics of an HPA: Resource and ContainerResource metrics with a Utilization
 * target (autoscaling/v2, v2beta2; v2beta1's targetAverageUtilization), autoscaling/v1's
 * targetCPUUtilizationPercentage, and the default when no metric is written (CPU at 80%).
 */
function utilizationMetrics(apiVersion: string, spec: RawObject | undefined): UtilizationMetric[] {
  if (!spec) return []
  if (apiVersion === 'autoscaling/v1') {
    return [{resource: 'cpu', path: spec.targetCPUUtilizationPercentage === undefined ? ['spec'] : ['spec', 'targetCPUUtilizationPercentage'], atKey: true}]
  }
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : []
  if (metrics.length === 0) return [{resource: 'cpu', path: ['spec'], atKey: true}]
  const out: UtilizationMetric[] = []
  metrics.forEach((m, i) => {
    if (!isMapping(m)) return
    const field = m.type === 'Resource' ? 'resource' : m.type === 'ContainerResource' ? 'containerResource' : undefined
    const source = field ? m[field] : undefined
    if (!field || !isMapping(source) || typeof source.name !== 'string') return
    const target = isMapping(source.target) ? source.target : undefined
    const utilization = target ? target.type === 'Utilization' : source.targetAverageUtilization !== undefined
    if (!utilization) return
    const container = field === 'containerResource' ? (typeof source.container === 'string' ? source.container : undefined) : undefined
    if (field === 'containerResource' && container === undefined) return // the schema rules report it
    out.push({resource: source.name, container, path: ['spec', 'metrics', i, field, 'name'], atKey: false})
  })
  // Kept to the end of a run: at its length, not with the room pushing leaves.
  return out.slice()
}

/** A field of a mapping (or a list). */
const field = (v: unknown, key: string): unknown => (isMapping(v) || Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined)

/** A request for the resource, or a limit the API server copies into it (SetDefaults_Pod). */
const hasRequest = (resources: unknown, resource: string) => field(field(resources, 'requests'), resource) !== undefined || field(field(resources, 'limits'), resource) !== undefined

/** The first container the metric counts (only the named one for a ContainerResource metric) that has no request for its resource. */
function firstLacking(spec: PodSpecView, templatePath: Path, metric: UtilizationMetric): {c: ContainerView; path: Path} | undefined {
  const found = findContainer(spec, (c) => c.mapping && (metric.container === undefined || c.name === metric.container) && !hasRequest(c.resources, metric.resource))
  return found && {c: found.c, path: [...templatePath, 'spec', found.list, found.index]}
}

/**
 * hpa-missing-requests: the replica calculator divides usage by the pods' requests
 * (calculateRequests, calculatePodRequestsFromContainers): every container (sidecars too) needs a
 * request for the resource, or only the named one for a ContainerResource metric; pod-level
 * requests serve a Resource metric (PodLevelResources, on since 1.34).
 */
function missingRequestDrafts(hpa: CheckObject, targets: readonly CheckObject[], drafts: Draft[]): void {
  const metrics = hpa.hpa!.utilization
  for (let m = 0; m < metrics.length; m++) {
    const metric = metrics[m]
    for (let t = 0; t < targets.length; t++) {
      const target = targets[t]
      const templatePath = checkedKind(target)?.podTemplate
      if (!templatePath) continue
      // The pod spec as read (read.ts): where the target's pod labels are, which is its pod template.
      const spec = target.podSpec
      if (!spec) continue
      if (metric.container === undefined && hasRequest(spec.resources, metric.resource)) continue
      const lacking = firstLacking(spec, templatePath, metric)
      if (lacking) drafts.push(missingRequestDraft(hpa, metric, target, lacking))
    }
  }
}

function missingRequestDraft(hpa: CheckObject, metric: UtilizationMetric, target: CheckObject, lacking: {c: ContainerView; path: Path}): Draft {
  const name = String(lacking.c.name ?? '')
  const which = metric.path.length === 1 ? `no metric is set, so CPU utilization (80%) is the target, and it` : metric.container ? `the ${metric.resource} utilization of container ${metric.container}` : `the ${metric.resource} utilization metric`
  return {
    rule: 'hpa-missing-requests',
    message: `${which} needs a ${metric.resource} request in ${metric.container ? 'that container' : 'every container'} of the pods of ${describeObject(target)}, and container ${name} sets none (nor a limit it would default from): the HPA controller cannot compute utilization (FailedGetResourceMetric: missing request for ${metric.resource}) and does not scale on it, unless a LimitRange gives the container a default request`,
    subject: hpa,
    path: metric.path,
    atKey: metric.atKey,
    related: [{object: target, path: [...lacking.path, 'name'], atKey: false, message: `container ${name} of ${describeObject(target)}`}],
    also: [target],
  }
}

export const hpaChecks: ControllerChecks = {
  kinds: [hpaKind],
  setDrafts(objects, scope) {
    return [...conflictDrafts(objects, scalableTargets(objects)), ...targetDrafts(objects, scope)]
  },
}
