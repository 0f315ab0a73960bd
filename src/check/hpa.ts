// The HorizontalPodAutoscaler as the check rules see it (its scaleTargetRef and replica range):
// shaped like a controller's check part, for the day it gets a folder of its own.
import type {CheckObject} from './objects.js'
import {isMapping} from './objects.js'
import type {CheckedKind} from './part.js'
import type {RawObject} from '../sources/documents.js'

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
}
