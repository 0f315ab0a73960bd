// invalid-field and duplicate-object. ReplicaSets, ReplicationControllers and Pods go through the
// same Normalizer `kctl plan` uses (one check, one wording); the other kinds the rules read get the
// same type checks (its Ctx) on the fields the API server validates and the controllers read.
// Selectors are left to the selector rules (invalid-selector, empty-selector), and apiVersions to
// deprecated-api.
import type {Problem} from '../sources/normalize.js'
import {Ctx, formatPath, Normalizer, sameObject} from '../sources/normalize.js'
import {SourceObject, type Path, type RawObject} from '../sources/documents.js'
import {servedAs} from './deprecations.js'
import type {Draft} from './draft.js'
import {describeObject} from './draft.js'
import {identityOf, type CheckObject} from './objects.js'

const INT32_MAX = 2147483647
const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/

/** Kinds the Normalizer reads, and the groups it reads them in. */
const NORMALIZED: Record<string, readonly string[]> = {ReplicaSet: ['apps', 'extensions'], ReplicationController: [''], Pod: ['']}

const startsWith = (path: Path, prefix: Path) => prefix.every((step, i) => path[i] === step)

/** invalid-field and duplicate-object drafts for all objects, in input order. */
export function fieldDrafts(objects: readonly CheckObject[], defaultNamespace: string): Draft[] {
  const drafts: Draft[] = []
  const byOrdinal = new Map<number, CheckObject>()
  const first = new Map<string, CheckObject>()
  /** One Normalizer per apply set and occurrence of an identity: a Normalizer never sees a duplicate. */
  const normalizers = new Map<string, Normalizer>()
  const occurrence = new Map<string, number>()
  const problems: Problem[] = []

  for (const obj of objects) {
    byOrdinal.set(obj.src.ordinal, obj)
    let nth = 0
    if (obj.name !== '') {
      // Within one apply set: alternatives (a base and its overlays) define the same objects on purpose.
      const id = `${obj.src.locator.applySet}|${identityOf(obj)}`
      nth = occurrence.get(id) ?? 0
      occurrence.set(id, nth + 1)
      const earlier = first.get(id)
      if (earlier && sameObject(earlier.src.locator, obj.src.locator)) continue // a copy is the same object
      if (earlier) {
        drafts.push({
          rule: 'duplicate-object',
          message: `${describeObject(obj)} is already defined differently ${earlier.src.file === obj.src.file ? 'earlier in this file' : `in ${earlier.src.file}`}; kubectl apply would apply both, and the last one wins`,
          subject: obj,
          path: ['metadata', 'name'],
          atKey: true,
          related: [{object: earlier, path: ['metadata', 'name'], atKey: true, message: 'first defined here'}],
        })
      } else first.set(id, obj)
    }
    if (NORMALIZED[obj.kind]?.includes(obj.group)) {
      const key = `${nth}|${obj.src.locator.applySet}`
      let normalizer = normalizers.get(key)
      if (!normalizer) normalizers.set(key, (normalizer = new Normalizer({paths: [], namespace: defaultNamespace, allNamespaces: true})))
      normalizer.add(asServed(obj))
      if (obj.kind !== 'Pod') moreWorkloadChecks(obj, problems)
    } else {
      otherKinds(obj, problems)
    }
  }
  for (const n of normalizers.values()) {
    for (const p of n.finish().problems) {
      // Selectors: invalid-selector / empty-selector say it, pointing at the requirement.
      if (startsWith(p.path, ['spec', 'selector'])) continue
      problems.push(p)
    }
  }
  for (const p of problems) {
    const subject = byOrdinal.get(p.ordinal)!
    const where = p.path.length > 0 ? `${formatPath(p.path)}: ` : ''
    drafts.push({
      rule: 'invalid-field',
      message: `${where}${p.message}${p.hint ? ` (${p.hint})` : ''}`,
      subject,
      path: p.path,
      atKey: false,
      lazyOrigin: () => p.origin(),
    })
  }
  return drafts
}

/**
 * What the Normalizer is given: the object as its current apiVersion (deprecated-api reports the
 * version; the fields are still checked), with a placeholder name when only generateName is set
 * (manifests for `kubectl create` may rely on it). The locator stays: positions are the object's.
 */
function asServed(obj: CheckObject): SourceObject {
  const raw = obj.src.raw
  const current = servedAs(obj.apiVersion, obj.kind)
  const meta = isMapping(raw.metadata) ? raw.metadata : undefined
  const generated = meta && (meta.name === undefined || meta.name === null) && typeof meta.generateName === 'string'
  if (!current && !generated) return obj.src
  const copy: RawObject = {...raw}
  if (current) copy.apiVersion = current
  if (generated) copy.metadata = {...meta, name: `${meta.generateName as string}${obj.src.ordinal}`}
  return new SourceObject(copy, obj.src.locator, obj.src.ordinal)
}

// ---------------------------------------------------------------------------------------------

const RESTART_POLICIES: Record<string, readonly string[]> = {
  ReplicaSet: ['Always'],
  ReplicationController: ['Always'],
  Deployment: ['Always'],
  StatefulSet: ['Always'],
  DaemonSet: ['Always'],
  Job: ['OnFailure', 'Never'],
  CronJob: ['OnFailure', 'Never'],
}

/** What the Normalizer does not look at on RS and RC: the pod template's spec. */
function moreWorkloadChecks(obj: CheckObject, problems: Problem[]): void {
  const ctx = new Ctx(obj.src, problems, obj.kind)
  const spec = isMapping(obj.src.raw.spec) ? obj.src.raw.spec : undefined
  const template = isMapping(spec?.template) ? spec.template : undefined
  if (template) podSpec(ctx, template.spec, ['spec', 'template', 'spec'], RESTART_POLICIES[obj.kind], false)
}

function otherKinds(obj: CheckObject, problems: Problem[]): void {
  const raw = obj.src.raw
  const ctx = () => new Ctx(obj.src, problems, obj.kind)
  switch (`${obj.resourceGroup}/${obj.kind}`) {
    case 'apps/Deployment':
      return deployment(ctx(), raw)
    case 'apps/StatefulSet':
      return statefulSet(ctx(), raw)
    case 'apps/DaemonSet':
      return daemonSet(ctx(), raw)
    case 'batch/Job':
      return job(ctx(), raw)
    case 'batch/CronJob':
      return cronJob(ctx(), raw)
    case '/Service':
      return service(ctx(), raw)
    case 'autoscaling/HorizontalPodAutoscaler':
      return hpa(ctx(), raw)
  }
}

function metadata(ctx: Ctx, raw: RawObject, nameRule: 'subdomain' | 'dns1035'): void {
  const m = ctx.mapping(raw.metadata, ['metadata'])
  if (!m) {
    if (raw.metadata === undefined || raw.metadata === null) ctx.fail(['metadata'], 'required (with at least a name)')
    return
  }
  const name = ctx.string(m.name, ['metadata', 'name'])
  if (name === undefined || name === '') {
    if (typeof m.generateName !== 'string' && (m.name === undefined || m.name === null || m.name === '')) ctx.fail(['metadata', 'name'], 'a name is required')
  } else if (nameRule === 'dns1035' ? name.length > 63 || !DNS1035_LABEL.test(name) : name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    ctx.fail(
      ['metadata', 'name'],
      nameRule === 'dns1035'
        ? `invalid name ${JSON.stringify(name)}: a Service name must be a DNS-1035 label (a-z, 0-9, '-'; starting with a letter; at most 63 characters)`
        : `invalid name ${JSON.stringify(name)}: must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters)`,
    )
  }
  const namespace = ctx.string(m.namespace, ['metadata', 'namespace'])
  if (namespace && (namespace.length > 63 || !DNS1123_LABEL.test(namespace))) {
    ctx.fail(['metadata', 'namespace'], `invalid namespace ${JSON.stringify(namespace)}: must be a lowercase RFC 1123 label (a-z, 0-9, '-'; at most 63 characters)`)
  }
  ctx.labels(m.labels, ['metadata', 'labels'])
  ctx.stringMap(m.annotations, ['metadata', 'annotations'])
}

function specOf(ctx: Ctx, raw: RawObject): RawObject {
  return ctx.mapping(raw.spec, ['spec']) ?? {}
}

function oneOf(ctx: Ctx, v: unknown, path: Path, allowed: readonly string[]): void {
  const s = ctx.string(v, path)
  if (s !== undefined && !allowed.includes(s)) ctx.fail(path, `unsupported value ${JSON.stringify(s)}: expected ${allowed.map((a) => JSON.stringify(a)).join(' or ')}`)
}

/** IntOrString as used by maxSurge/maxUnavailable: a non-negative integer or "N%". */
function intOrPercent(ctx: Ctx, v: unknown, path: Path, maxPercent?: number): {zero: boolean} | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'number') {
    const n = ctx.int(v, path, 0, INT32_MAX)
    return n === undefined ? undefined : {zero: n === 0}
  }
  if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v)
    if (!m) {
      ctx.fail(path, `expected an integer or a percentage such as "25%", got ${JSON.stringify(v)}`, /^\d+$/.test(v) ? 'remove the quotes, or add %' : undefined)
      return undefined
    }
    const pct = Number(m[1])
    if (maxPercent !== undefined && pct > maxPercent) {
      ctx.fail(path, `must not be greater than ${maxPercent}%`)
      return undefined
    }
    return {zero: pct === 0}
  }
  ctx.fail(path, `expected an integer or a percentage such as "25%", got ${JSON.stringify(v)}`)
  return undefined
}

/** A pod template: labels, and a pod spec with containers and an allowed restartPolicy. */
function template(ctx: Ctx, v: unknown, base: Path, restartPolicies: readonly string[], requiredPolicy: boolean): void {
  if (v === undefined || v === null) {
    ctx.fail(base, 'a pod template is required')
    return
  }
  const t = ctx.mapping(v, base)
  if (!t) return
  const m = ctx.mapping(t.metadata, [...base, 'metadata'])
  if (m) {
    ctx.labels(m.labels, [...base, 'metadata', 'labels'])
    ctx.stringMap(m.annotations, [...base, 'metadata', 'annotations'])
  }
  podSpec(ctx, t.spec, [...base, 'spec'], restartPolicies, requiredPolicy)
}

function podSpec(ctx: Ctx, v: unknown, base: Path, restartPolicies: readonly string[], requiredPolicy: boolean): void {
  if (v === undefined || v === null) {
    ctx.fail(base, 'a pod spec with at least one container is required')
    return
  }
  const s = ctx.mapping(v, base)
  if (!s) return
  const containers = s.containers
  if (containers === undefined || containers === null || (Array.isArray(containers) && containers.length === 0)) {
    ctx.fail([...base, 'containers'], 'at least one container is required')
  } else if (!Array.isArray(containers)) {
    ctx.fail([...base, 'containers'], 'expected a list of containers')
  } else {
    containers.forEach((c, i) => {
      const at = [...base, 'containers', i]
      const cm = ctx.mapping(c, at)
      if (!cm) return
      ctx.itemString(cm, 'name', [...base, 'containers'], i, true)
      ctx.itemString(cm, 'image', [...base, 'containers'], i, false)
    })
  }
  const policy = ctx.string(s.restartPolicy, [...base, 'restartPolicy'])
  if (policy === undefined) {
    if (requiredPolicy) {
      ctx.fail(
        [...base, 'restartPolicy'],
        `required: ${restartPolicies.map((p) => JSON.stringify(p)).join(' or ')} (it would default to "Always", which the API server rejects here)`,
      )
    }
  } else if (!restartPolicies.includes(policy)) {
    ctx.fail([...base, 'restartPolicy'], `unsupported value ${JSON.stringify(policy)}: only ${restartPolicies.map((p) => JSON.stringify(p)).join(' or ')} is allowed here`)
  }
}

function deployment(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX)
  const minReady = ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX)
  ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX)
  const deadline = ctx.int(spec.progressDeadlineSeconds, ['spec', 'progressDeadlineSeconds'], 0, INT32_MAX)
  if (deadline !== undefined && deadline <= (minReady ?? 0)) {
    ctx.fail(['spec', 'progressDeadlineSeconds'], `must be greater than minReadySeconds (${minReady ?? 0})`)
  }
  ctx.bool(spec.paused, ['spec', 'paused'])
  template(ctx, spec.template, ['spec', 'template'], RESTART_POLICIES.Deployment, false)
  const strategy = ctx.mapping(spec.strategy, ['spec', 'strategy'])
  if (!strategy) return
  oneOf(ctx, strategy.type, ['spec', 'strategy', 'type'], ['RollingUpdate', 'Recreate'])
  const ru = ctx.mapping(strategy.rollingUpdate, ['spec', 'strategy', 'rollingUpdate'])
  if (!ru) return
  if (strategy.type === 'Recreate') {
    ctx.fail(['spec', 'strategy', 'rollingUpdate'], 'may not be given when strategy type is "Recreate"')
    return
  }
  const surge = intOrPercent(ctx, ru.maxSurge, ['spec', 'strategy', 'rollingUpdate', 'maxSurge'])
  const unavailable = intOrPercent(ctx, ru.maxUnavailable, ['spec', 'strategy', 'rollingUpdate', 'maxUnavailable'], 100)
  // Compared as written (§5.4.5): 0 and "0%" both count as zero; an absent one defaults to 25%.
  if (surge?.zero && unavailable?.zero) {
    ctx.fail(['spec', 'strategy', 'rollingUpdate', 'maxUnavailable'], 'may not be 0 when maxSurge is 0: the rollout could never make progress')
  }
}

function statefulSet(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX)
  ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX)
  ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX)
  ctx.string(spec.serviceName, ['spec', 'serviceName'])
  if (spec.podManagementPolicy !== undefined) oneOf(ctx, spec.podManagementPolicy, ['spec', 'podManagementPolicy'], ['OrderedReady', 'Parallel'])
  template(ctx, spec.template, ['spec', 'template'], RESTART_POLICIES.StatefulSet, false)
  const strategy = ctx.mapping(spec.updateStrategy, ['spec', 'updateStrategy'])
  if (!strategy) return
  if (strategy.type !== undefined) oneOf(ctx, strategy.type, ['spec', 'updateStrategy', 'type'], ['RollingUpdate', 'OnDelete'])
  const ru = ctx.mapping(strategy.rollingUpdate, ['spec', 'updateStrategy', 'rollingUpdate'])
  if (ru) {
    ctx.int(ru.partition, ['spec', 'updateStrategy', 'rollingUpdate', 'partition'], 0, INT32_MAX)
    intOrPercent(ctx, ru.maxUnavailable, ['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'], 100)
  }
}

function daemonSet(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX)
  ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX)
  template(ctx, spec.template, ['spec', 'template'], RESTART_POLICIES.DaemonSet, false)
  const strategy = ctx.mapping(spec.updateStrategy, ['spec', 'updateStrategy'])
  if (!strategy) return
  if (strategy.type !== undefined) oneOf(ctx, strategy.type, ['spec', 'updateStrategy', 'type'], ['RollingUpdate', 'OnDelete'])
  const ru = ctx.mapping(strategy.rollingUpdate, ['spec', 'updateStrategy', 'rollingUpdate'])
  if (ru) {
    const surge = intOrPercent(ctx, ru.maxSurge, ['spec', 'updateStrategy', 'rollingUpdate', 'maxSurge'], 100)
    const unavailable = intOrPercent(ctx, ru.maxUnavailable, ['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'], 100)
    if (surge?.zero && unavailable?.zero) {
      ctx.fail(['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'], 'may not be 0 when maxSurge is 0')
    }
  }
}

function jobSpec(ctx: Ctx, spec: RawObject, base: Path): void {
  ctx.int(spec.parallelism, [...base, 'parallelism'], 0, INT32_MAX)
  ctx.int(spec.completions, [...base, 'completions'], 0, INT32_MAX)
  ctx.int(spec.backoffLimit, [...base, 'backoffLimit'], 0, INT32_MAX)
  const deadline = ctx.int(spec.activeDeadlineSeconds, [...base, 'activeDeadlineSeconds'], 0, Number.MAX_SAFE_INTEGER)
  if (deadline === 0) ctx.fail([...base, 'activeDeadlineSeconds'], 'must be greater than 0')
  ctx.int(spec.ttlSecondsAfterFinished, [...base, 'ttlSecondsAfterFinished'], 0, INT32_MAX)
  ctx.bool(spec.manualSelector, [...base, 'manualSelector'])
  ctx.bool(spec.suspend, [...base, 'suspend'])
  if (spec.completionMode !== undefined) oneOf(ctx, spec.completionMode, [...base, 'completionMode'], ['NonIndexed', 'Indexed'])
  template(ctx, spec.template, [...base, 'template'], RESTART_POLICIES.Job, true)
}

function job(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  jobSpec(ctx, specOf(ctx, raw), ['spec'])
}

function cronJob(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  const schedule = ctx.string(spec.schedule, ['spec', 'schedule'])
  if (schedule === undefined || schedule.trim() === '') ctx.fail(['spec', 'schedule'], 'a schedule is required')
  if (spec.concurrencyPolicy !== undefined) oneOf(ctx, spec.concurrencyPolicy, ['spec', 'concurrencyPolicy'], ['Allow', 'Forbid', 'Replace'])
  ctx.bool(spec.suspend, ['spec', 'suspend'])
  ctx.int(spec.successfulJobsHistoryLimit, ['spec', 'successfulJobsHistoryLimit'], 0, INT32_MAX)
  ctx.int(spec.failedJobsHistoryLimit, ['spec', 'failedJobsHistoryLimit'], 0, INT32_MAX)
  const jt = ctx.mapping(spec.jobTemplate, ['spec', 'jobTemplate'])
  if (!jt) {
    if (spec.jobTemplate === undefined || spec.jobTemplate === null) ctx.fail(['spec', 'jobTemplate'], 'a job template is required')
    return
  }
  jobSpec(ctx, ctx.mapping(jt.spec, ['spec', 'jobTemplate', 'spec']) ?? {}, ['spec', 'jobTemplate', 'spec'])
}

function service(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'dns1035')
  const spec = specOf(ctx, raw)
  if (spec.type !== undefined) oneOf(ctx, spec.type, ['spec', 'type'], ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'])
  const ports = spec.ports
  if (ports === undefined || ports === null) return
  if (!Array.isArray(ports)) {
    ctx.fail(['spec', 'ports'], 'expected a list of ports')
    return
  }
  ports.forEach((p, i) => {
    const at = ['spec', 'ports', i]
    const pm = ctx.mapping(p, at)
    if (!pm) return
    if (pm.port === undefined || pm.port === null) ctx.fail([...at, 'port'], 'a port number is required')
    else {
      const port = ctx.int(pm.port, [...at, 'port'], 0, INT32_MAX)
      if (port !== undefined && (port < 1 || port > 65535)) ctx.fail([...at, 'port'], `must be between 1 and 65535, got ${port}`)
    }
    if (pm.protocol !== undefined) oneOf(ctx, pm.protocol, [...at, 'protocol'], ['TCP', 'UDP', 'SCTP'])
    const target = pm.targetPort
    if (typeof target === 'number') {
      if (!Number.isInteger(target) || target < 1 || target > 65535) ctx.fail([...at, 'targetPort'], `must be a port number between 1 and 65535 or a port name, got ${target}`)
    } else if (target !== undefined && target !== null && typeof target !== 'string') {
      ctx.fail([...at, 'targetPort'], 'expected a port number or a port name')
    }
  })
}

function hpa(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  const ref = ctx.mapping(spec.scaleTargetRef, ['spec', 'scaleTargetRef'])
  if (!ref) {
    if (spec.scaleTargetRef === undefined || spec.scaleTargetRef === null) ctx.fail(['spec', 'scaleTargetRef'], 'required: the workload to scale (kind and name)')
  } else {
    for (const field of ['kind', 'name'] as const) {
      const v = ref[field]
      if (v === undefined || v === null || v === '') ctx.fail(['spec', 'scaleTargetRef', field], `${field} is required`)
      else ctx.string(v, ['spec', 'scaleTargetRef', field])
    }
  }
  const min = ctx.int(spec.minReplicas, ['spec', 'minReplicas'], 0, INT32_MAX)
  if (min === 0) ctx.fail(['spec', 'minReplicas'], 'must be at least 1 (0 needs the alpha HPAScaleToZero feature gate)')
  if (spec.maxReplicas === undefined || spec.maxReplicas === null) ctx.fail(['spec', 'maxReplicas'], 'required')
  const max = ctx.int(spec.maxReplicas, ['spec', 'maxReplicas'], 0, INT32_MAX)
  if (max === 0) ctx.fail(['spec', 'maxReplicas'], 'must be at least 1')
  else if (max !== undefined && min !== undefined && min > max) ctx.fail(['spec', 'minReplicas'], `must not be greater than maxReplicas (${max})`)
}
