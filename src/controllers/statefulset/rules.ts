// What `kctl check` knows about StatefulSets: their controller views (an apps/v1 LabelSelector), and
//   statefulset-service-missing       serviceName names no Service in the input, or one not headless;
//   immutable-claim-templates-change  volumeClaimTemplates against the live or previous StatefulSet;
// and invalid-field's checks of its fields.
import {describeObject, type Draft} from '../../check/draft.js'
import {INT32_MAX, intOrPercent, metadata, oneOf, RESTART_ALWAYS, specOf, template} from '../../check/fields.js'
import {isMapping, readWorkload, type CheckObject, type Previous} from '../../check/objects.js'
import type {Scope} from '../../check/scope.js'
import type {ControllerChecks} from '../../check/part.js'
import {quantities} from '../../check/quantities.js'
import {canonicalJson} from '../../reconcile/revisions.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Ctx} from '../../sources/normalize.js'

type Raw = Record<string, unknown>

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

const isStatefulSet = (o: CheckObject) => o.kind === 'StatefulSet' && o.group === 'apps'

/** statefulset-service-missing, for the StatefulSets of one apply set (the Service is looked up nearest first). */
function serviceNameDrafts(objects: readonly CheckObject[], scope: Scope): Draft[] {
  const drafts: Draft[] = []
  for (const o of objects) if (isStatefulSet(o)) statefulSetDrafts(o, scope, drafts)
  return drafts
}

function statefulSetDrafts(sts: CheckObject, scope: Scope, drafts: Draft[]): void {
  const name = at(sts.src.raw, ['spec', 'serviceName'])
  if (typeof name !== 'string' || name === '') return // optional since 1.30; the schema rules see a wrong type
  const near = scope.servicesNear(sts, name)
  // Of several nearest definitions, the last one read is the one applied last.
  const svc = near.find((s) => s.service?.spec?.clusterIP === 'None') ?? near.at(-1)
  if (!svc) {
    drafts.push({
      rule: 'statefulset-service-missing',
      message: `serviceName ${name} names no Service in the input (namespace ${sts.namespace}): the pods get no stable DNS names (${sts.name}-0.${name}…) until a headless Service of that name exists`,
      subject: sts,
      path: ['spec', 'serviceName'],
      atKey: false,
    })
  } else if (svc.service?.spec?.clusterIP !== 'None') {
    drafts.push({
      rule: 'statefulset-service-missing',
      message: `serviceName ${name} names a Service that is not headless (it lacks clusterIP: None): the pods get no per-pod DNS records through it`,
      subject: sts,
      path: ['spec', 'serviceName'],
      atKey: false,
      related: [{object: svc, path: ['spec'], atKey: true, message: `the spec of ${describeObject(svc)}`}],
    })
  }
}

/**
 * immutable-claim-templates-change: a StatefulSet's volumeClaimTemplates against the same
 * StatefulSet live or in a previous render (ValidateStatefulSetUpdate forbids any change of them).
 * Compared as stored: apiVersion, kind and status dropped, volumeMode defaulted, quantities by value.
 */
export function claimTemplateDrafts(objects: readonly CheckObject[], previous: Previous, identity: (o: CheckObject) => string): Draft[] {
  const drafts: Draft[] = []
  for (const obj of objects) {
    if (obj.kind !== 'StatefulSet' || obj.group !== 'apps' || obj.name === '') continue
    const before = previous.objects.get(identity(obj))
    if (!before || before.kind !== 'StatefulSet') continue
    const now = claimTemplates(obj.src.raw)
    const then = claimTemplates(before.src.raw)
    if (JSON.stringify(now) === JSON.stringify(then)) continue
    const where = previous.source.type === 'cluster' ? `the live ${describeObject(before)}` : `the previous render (${before.src.file})`
    const names = (ts: unknown[]) => ts.map((t) => (t as {metadata?: {name?: string}}).metadata?.name ?? '?').join(', ') || 'none'
    const changed = names(now) !== names(then) ? `the templates ${names(then)} become ${names(now)}` : `template ${firstDifference(now, then)} changes`
    drafts.push({
      rule: 'immutable-claim-templates-change',
      message: `spec.volumeClaimTemplates differ from ${where} (${changed}): they cannot be changed on an existing StatefulSet, so the API server rejects the update (Forbidden); delete it with --cascade=orphan and create it again (its pods and claims stay), and resize existing claims on their own`,
      subject: obj,
      path: ['spec', 'volumeClaimTemplates'],
      atKey: true,
      related: previous.source.type === 'directory' ? [{object: before, path: ['spec', 'volumeClaimTemplates'], atKey: true, message: 'the volumeClaimTemplates in the previous render'}] : undefined,
    })
  }
  return drafts
}

function claimTemplates(raw: Raw): unknown[] {
  const spec = isMapping(raw.spec) ? raw.spec : {}
  const list = Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : []
  return list.map((t) => {
    if (!isMapping(t)) return t
    const {apiVersion: _a, kind: _k, status: _s, ...rest} = t
    const metadata = isMapping(rest.metadata) ? Object.fromEntries(Object.entries(rest.metadata).filter(([k]) => k !== 'creationTimestamp')) : rest.metadata
    const spec = isMapping(rest.spec) ? {volumeMode: 'Filesystem', ...rest.spec} : rest.spec
    return canonicalJson(quantities({...rest, metadata, spec}))
  })
}

function firstDifference(now: unknown[], then: unknown[]): string {
  for (const [i, t] of now.entries()) {
    if (JSON.stringify(t) !== JSON.stringify(then[i])) return (t as {metadata?: {name?: string}}).metadata?.name ?? String(i)
  }
  return '?'
}

/** invalid-field: a StatefulSet's fields. */
function statefulSet(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX)
  ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX)
  ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX)
  ctx.string(spec.serviceName, ['spec', 'serviceName'])
  if (spec.podManagementPolicy !== undefined) oneOf(ctx, spec.podManagementPolicy, ['spec', 'podManagementPolicy'], ['OrderedReady', 'Parallel'])
  template(ctx, spec.template, ['spec', 'template'], RESTART_ALWAYS, false)
  const strategy = ctx.mapping(spec.updateStrategy, ['spec', 'updateStrategy'])
  if (!strategy) return
  if (strategy.type !== undefined) oneOf(ctx, strategy.type, ['spec', 'updateStrategy', 'type'], ['RollingUpdate', 'OnDelete'])
  const ru = ctx.mapping(strategy.rollingUpdate, ['spec', 'updateStrategy', 'rollingUpdate'])
  if (ru) {
    ctx.int(ru.partition, ['spec', 'updateStrategy', 'rollingUpdate', 'partition'], 0, INT32_MAX)
    intOrPercent(ctx, ru.maxUnavailable, ['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'], 100)
  }
}

export const statefulSetChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'StatefulSet',
      groups: ['apps'],
      read: (obj, spec: RawObject | undefined) => readWorkload(obj, spec),
      scalable: true,
      podTemplate: ['spec', 'template'],
      // The API server validates the template with a volume for each claim template (ValidateStatefulSetSpec).
      templateVolumes: (raw) => list(at(raw, ['spec', 'volumeClaimTemplates'])).flatMap((t) => (typeof at(t, ['metadata', 'name']) === 'string' ? [at(t, ['metadata', 'name']) as string] : [])),
      live: {prefix: '/apis/apps/v1', plural: 'statefulsets', apiVersion: 'apps/v1'},
      validate: statefulSet,
    },
  ],
  setDrafts: serviceNameDrafts,
  previousDrafts: claimTemplateDrafts,
}
