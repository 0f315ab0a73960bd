// The field checks invalid-field shares across kinds (validate.ts runs them, each controller's check
// part calls them for its kinds): metadata, a pod template and its spec, enumerations, IntOrString.
// The same type checks (sources/normalize.ts Ctx) the Normalizer `kctl plan` uses, so one wording.
import type {Ctx} from '../sources/normalize.js'
import type {Path, RawObject} from '../sources/documents.js'
import {isMapping} from '../sources/context.js'

export const INT32_MAX = 2147483647
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/

/** The restartPolicy of pods a controller keeps running (all but Jobs'). */
export const RESTART_ALWAYS: readonly string[] = ['Always']

export function metadata(ctx: Ctx, raw: RawObject, nameRule: 'subdomain' | 'dns1035'): void {
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

export function specOf(ctx: Ctx, raw: RawObject): RawObject {
  return ctx.mapping(raw.spec, ['spec']) ?? {}
}

export function oneOf(ctx: Ctx, v: unknown, path: Path, allowed: readonly string[]): void {
  const s = ctx.string(v, path)
  if (s !== undefined && !allowed.includes(s)) ctx.fail(path, `unsupported value ${JSON.stringify(s)}: expected ${allowed.map((a) => JSON.stringify(a)).join(' or ')}`)
}

/** IntOrString as used by maxSurge/maxUnavailable: a non-negative integer or "N%". */
export function intOrPercent(ctx: Ctx, v: unknown, path: Path, maxPercent?: number): {zero: boolean} | undefined {
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

/**
 * The paths under a pod template (or pod spec) that every check of one names, built once per
 * place (`spec.template`, `spec.jobTemplate.spec.template`, …) rather than for every object.
 */
interface TemplatePaths {
  metadata: Path
  labels: Path
  annotations: Path
  spec: Path
  containers: Path
  restartPolicy: Path
}

const templatePaths = new Map<string, TemplatePaths>()

function pathsUnder(base: Path): TemplatePaths {
  const key = base.join('\u0000')
  let known = templatePaths.get(key)
  if (!known) {
    known = {
      metadata: [...base, 'metadata'],
      labels: [...base, 'metadata', 'labels'],
      annotations: [...base, 'metadata', 'annotations'],
      spec: [...base, 'spec'],
      containers: [...base, 'containers'],
      restartPolicy: [...base, 'restartPolicy'],
    }
    templatePaths.set(key, known)
  }
  return known
}

/** A pod template: labels, and a pod spec with containers and an allowed restartPolicy. */
export function template(ctx: Ctx, v: unknown, base: Path, restartPolicies: readonly string[], requiredPolicy: boolean): void {
  if (v === undefined || v === null) {
    ctx.fail(base, 'a pod template is required')
    return
  }
  const t = ctx.mapping(v, base)
  if (!t) return
  const paths = pathsUnder(base)
  const m = ctx.mapping(t.metadata, paths.metadata)
  if (m) {
    ctx.labels(m.labels, paths.labels)
    ctx.stringMap(m.annotations, paths.annotations)
  }
  podSpec(ctx, t.spec, paths.spec, restartPolicies, requiredPolicy)
}

export function podSpec(ctx: Ctx, v: unknown, base: Path, restartPolicies: readonly string[], requiredPolicy: boolean): void {
  if (v === undefined || v === null) {
    ctx.fail(base, 'a pod spec with at least one container is required')
    return
  }
  const s = ctx.mapping(v, base)
  if (!s) return
  const paths = pathsUnder(base)
  const containers = s.containers
  if (containers === undefined || containers === null || (Array.isArray(containers) && containers.length === 0)) {
    ctx.fail(paths.containers, 'at least one container is required')
  } else if (!Array.isArray(containers)) {
    ctx.fail(paths.containers, 'expected a list of containers')
  } else {
    for (let i = 0; i < containers.length; i++) {
      const c: unknown = containers[i]
      const cm = isMapping(c) ? c : ctx.mapping(c, [...paths.containers, i])
      if (!cm) continue
      ctx.itemString(cm, 'name', paths.containers, i, true)
      ctx.itemString(cm, 'image', paths.containers, i, false)
    }
  }
  const policy = ctx.string(s.restartPolicy, paths.restartPolicy)
  if (policy === undefined) {
    if (requiredPolicy) {
      ctx.fail(
        paths.restartPolicy,
        `required: ${restartPolicies.map((p) => JSON.stringify(p)).join(' or ')} (it would default to "Always", which the API server rejects here)`,
      )
    }
  } else if (!restartPolicies.includes(policy)) {
    ctx.fail(paths.restartPolicy, `unsupported value ${JSON.stringify(policy)}: only ${restartPolicies.map((p) => JSON.stringify(p)).join(' or ')} is allowed here`)
  }
}
