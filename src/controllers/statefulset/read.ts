// StatefulSets and the PersistentVolumeClaims only their controller reads, as the API server stores
// them: defaulted as SetDefaults_StatefulSet does (pkg/apis/apps/v1/defaults.go) and checked where
// the controller reads them.
import type {ClaimTemplate, RetentionPolicy, StatefulSetStatusView, StatefulSetView} from './model.js'
import {type Ctx, EMPTY_RAW, INT32_MAX, isMapping} from '../../sources/context.js'
import type {RawObject} from '../../sources/documents.js'
import {type FieldReaders, templateOwner} from '../../sources/fields.js'
import {type KindReader, type Meta, viewOf} from '../../sources/part.js'

/** What the StatefulSet controller reads: its StatefulSets (after -n and -l) and the claims of the namespace. */
export const STATEFULSET_READS: readonly KindReader[] = [
  {
    kind: 'StatefulSet',
    group: 'apps',
    version: 'v1',
    read({ctx, fields, apiVersion, meta, raw, planned, located, collect}) {
      const set = readStatefulSet(ctx, fields, apiVersion, meta, raw)
      if (set && planned()) collect('statefulSets', located(set))
    },
  },
  {
    kind: 'PersistentVolumeClaim',
    group: '',
    version: 'v1',
    read({meta, wanted, collect}) {
      if (wanted()) collect('claims', viewOf(meta, {}))
    },
  },
]

/** SetDefaults_StatefulSet: replicas 1, OrderedReady, RollingUpdate{partition 0} when no type, history 10, Retain/Retain. */
export function readStatefulSet(ctx: Ctx, r: FieldReaders, apiVersion: string, meta: Meta, raw: RawObject): StatefulSetView | undefined {
  const {spec, status, selector, template} = templateOwner(ctx, r, raw, 'StatefulSet')
  const policy = ctx.string(spec.podManagementPolicy, ['spec', 'podManagementPolicy']) || 'OrderedReady'
  if (policy !== 'OrderedReady' && policy !== 'Parallel') ctx.fail(['spec', 'podManagementPolicy'], `unsupported value ${JSON.stringify(policy)}`, 'use OrderedReady or Parallel')
  const us = ctx.mapping(spec.updateStrategy, ['spec', 'updateStrategy'])
  const typeWritten = ctx.string(us?.type, ['spec', 'updateStrategy', 'type']) ?? ''
  const type = typeWritten || 'RollingUpdate'
  if (type !== 'RollingUpdate' && type !== 'OnDelete') ctx.fail(['spec', 'updateStrategy', 'type'], `unsupported value ${JSON.stringify(type)}`, 'use RollingUpdate or OnDelete')
  const ru = ctx.mapping(us?.rollingUpdate, ['spec', 'updateStrategy', 'rollingUpdate'])
  const updateStrategy: StatefulSetView['updateStrategy'] = {type}
  if (ru) {
    if (type !== 'RollingUpdate') ctx.fail(['spec', 'updateStrategy', 'rollingUpdate'], 'only allowed for updateStrategy `RollingUpdate`')
    const partition = ctx.int(ru.partition, ['spec', 'updateStrategy', 'rollingUpdate', 'partition'], 0, INT32_MAX) ?? 0
    const maxUnavailable = r.intOrPercent(ctx, ru.maxUnavailable, ['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable'])
    updateStrategy.rollingUpdate = maxUnavailable === undefined ? {partition} : {partition, maxUnavailable}
  } else if (typeWritten === '') {
    updateStrategy.rollingUpdate = {partition: 0}
  }
  const ordinals = ctx.mapping(spec.ordinals, ['spec', 'ordinals'])
  const rp = ctx.mapping(spec.persistentVolumeClaimRetentionPolicy, ['spec', 'persistentVolumeClaimRetentionPolicy'])
  const retention = (field: string): RetentionPolicy => {
    const v = ctx.string(rp?.[field], ['spec', 'persistentVolumeClaimRetentionPolicy', field]) || 'Retain'
    if (v !== 'Retain' && v !== 'Delete') ctx.fail(['spec', 'persistentVolumeClaimRetentionPolicy', field], `unsupported value ${JSON.stringify(v)}`, 'use Retain or Delete')
    return v === 'Delete' ? 'Delete' : 'Retain'
  }
  const int = (field: string) => ctx.int(status[field], ['status', field], 0, INT32_MAX) ?? 0
  const statusView: StatefulSetStatusView = {
    observedGeneration: ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER) ?? 0,
    replicas: int('replicas'),
    readyReplicas: int('readyReplicas'),
    currentReplicas: int('currentReplicas'),
    updatedReplicas: int('updatedReplicas'),
    availableReplicas: int('availableReplicas'),
    currentRevision: ctx.string(status.currentRevision, ['status', 'currentRevision']) ?? '',
    updateRevision: ctx.string(status.updateRevision, ['status', 'updateRevision']) ?? '',
    collisionCount: int('collisionCount'),
  }
  const set: StatefulSetView = {
    kind: 'StatefulSet',
    apiVersion,
    ...meta,
    replicas: ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX) ?? 1,
    minReadySeconds: ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0,
    selector,
    template,
    rawTemplate: spec.template,
    serverDefaulted: r.serverDefaulted,
    serviceName: ctx.string(spec.serviceName, ['spec', 'serviceName']) ?? '',
    podManagementPolicy: policy === 'Parallel' ? 'Parallel' : 'OrderedReady',
    updateStrategy,
    revisionHistoryLimit: ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], -INT32_MAX - 1, INT32_MAX) ?? 10,
    ordinalsStart: ctx.int(ordinals?.start, ['spec', 'ordinals', 'start'], 0, INT32_MAX) ?? 0,
    volumeClaimTemplates: claimTemplates(ctx, spec.volumeClaimTemplates),
    retention: {whenDeleted: retention('whenDeleted'), whenScaled: retention('whenScaled')},
    status: statusView,
  }
  return selector ? set : undefined
}

function claimTemplates(ctx: Ctx, v: unknown): ClaimTemplate[] {
  const at = ['spec', 'volumeClaimTemplates']
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(at, 'expected a list')
    return []
  }
  const out: ClaimTemplate[] = []
  v.forEach((t, i) => {
    const m = ctx.mapping(isMapping(t) ? t.metadata : undefined, [...at, i, 'metadata']) ?? EMPTY_RAW
    const name = ctx.string(m.name, [...at, i, 'metadata', 'name'])
    if (!name) {
      ctx.fail([...at, i, 'metadata', 'name'], 'a volume claim template needs a name')
      return
    }
    out.push({name, labels: ctx.labels(m.labels, [...at, i, 'metadata', 'labels']), annotations: ctx.stringMap(m.annotations, [...at, i, 'metadata', 'annotations'])})
  })
  return out
}

