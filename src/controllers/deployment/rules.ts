// What `kctl check` knows about Deployments: their controller views (an apps/v1 LabelSelector), and
// no-readiness-probe (off unless configured: an opinion); and invalid-field's checks of its fields.
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import {isMapping, readWorkload, type CheckObject} from '../../check/objects.js'
import {INT32_MAX, intOrPercent, metadata, oneOf, RESTART_ALWAYS, specOf, template} from '../../check/fields.js'
import type {ControllerChecks} from '../../check/part.js'
import type {Ctx} from '../../sources/normalize.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

const TEMPLATE: Path = ['spec', 'template']

/** no-readiness-probe: several replicas whose containers have no readiness probe. */
function deploymentDrafts(o: CheckObject): Draft[] {
  if (!o.controller) return []
  const containers = list(at(o.src.raw, [...TEMPLATE, 'spec', 'containers']))
  // The replicas it runs: spec.replicas, defaulted to 1.
  const r = o.controller.replicas
  const replicas = r === undefined ? 1 : typeof r === 'number' ? r : undefined
  if ((replicas ?? 0) > 1 && containers.length > 0 && !containers.some((c) => isMapping(at(c, ['readinessProbe'])))) {
    return [
      {
        rule: 'no-readiness-probe',
        message: `${replicas} replicas and no readiness probe: a pod counts as ready as soon as its containers start, so a rollout replaces old pods before the new ones serve, and the Service sends them traffic at once`,
        subject: o,
        path: [...TEMPLATE, 'spec', 'containers'],
        atKey: true,
      },
    ]
  }
  return []
}

/** invalid-field: a Deployment's fields. */
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
  template(ctx, spec.template, ['spec', 'template'], RESTART_ALWAYS, false)
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

export const deploymentChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'Deployment',
      groups: ['apps', 'extensions'],
      read: (obj, spec: RawObject | undefined) => readWorkload(obj, spec),
      scalable: true,
      podTemplate: TEMPLATE,
      live: {prefix: '/apis/apps/v1', plural: 'deployments', apiVersion: 'apps/v1'},
      drafts: deploymentDrafts,
      validate: deployment,
    },
  ],
}
