// The HorizontalPodAutoscaler as the check rules see it (its scaleTargetRef and replica range):
// shaped like a controller's check part, for the day it gets a folder of its own.
import type {RawObject} from '../sources/documents.js'
import type {Ctx} from '../sources/normalize.js'
import {INT32_MAX, metadata, specOf} from './fields.js'
import type {CheckObject} from './objects.js'
import {isMapping} from './objects.js'
import type {CheckedKind} from './part.js'

/** invalid-field: an HPA's fields. */
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

export const hpaKind: CheckedKind = {
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
    }
  },
  validate: hpa,
}
