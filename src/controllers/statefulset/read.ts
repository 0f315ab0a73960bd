// StatefulSets, DaemonSets, Nodes, ControllerRevisions and PersistentVolumeClaims as the API
// server stores them: defaulted as SetDefaults_StatefulSet / SetDefaults_DaemonSet do
// (pkg/apis/apps/v1/defaults.go) and checked where the controllers read them.
import type {IntOrString, LabelSelector, NodeView, PodTemplateView, Taint} from '../../model/objects.js'
import type {ClaimTemplate, RetentionPolicy, StatefulSetStatusView, StatefulSetView} from './model.js'
import type {DaemonSetStatusView, DaemonSetView} from '../daemonset/model.js'
import {compileLabelSelector, selectorMatches} from '../../reconcile/selector.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Ctx} from '../../sources/normalize.js'

type Meta = Omit<import('../../model/objects.js').ObjectMeta, 'origin'>

/** What the workload readers borrow from the Normalizer (selector, template, int-or-percent). */
export interface FieldReaders {
  labelSelector(ctx: Ctx, v: unknown, kind: string): LabelSelector
  template(ctx: Ctx, v: unknown, at?: Path): PodTemplateView
  intOrPercent(ctx: Ctx, v: unknown, path: Path): IntOrString | undefined
  serverDefaulted: boolean
}

const INT32_MAX = 2147483647
const EMPTY: RawObject = Object.freeze({}) as RawObject
const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)

/** spec, status, the selector and the pod template it must select, as every apps/v1 controller of pods has them. */
function templateOwner(ctx: Ctx, r: FieldReaders, raw: RawObject, kind: string): {spec: RawObject; status: RawObject; selector: LabelSelector; template: PodTemplateView} {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY
  const selector = r.labelSelector(ctx, spec.selector, kind)
  if (spec.template === undefined || spec.template === null) ctx.fail(['spec', 'template'], `a ${kind} needs a pod template`)
  const template = r.template(ctx, spec.template)
  if (selector && !selectorMatches(compileLabelSelector(selector), template.labels)) {
    ctx.fail(['spec', 'template', 'metadata', 'labels'], '`selector` does not match template `labels`', `the API server rejects a ${kind} whose selector does not select its own template`)
  }
  return {spec, status, selector, template}
}

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
    const m = ctx.mapping(isMapping(t) ? t.metadata : undefined, [...at, i, 'metadata']) ?? EMPTY
    const name = ctx.string(m.name, [...at, i, 'metadata', 'name'])
    if (!name) {
      ctx.fail([...at, i, 'metadata', 'name'], 'a volume claim template needs a name')
      return
    }
    out.push({name, labels: ctx.labels(m.labels, [...at, i, 'metadata', 'labels']), annotations: ctx.stringMap(m.annotations, [...at, i, 'metadata', 'annotations'])})
  })
  return out
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, history 10. */
export function readDaemonSet(ctx: Ctx, r: FieldReaders, apiVersion: string, meta: Meta, raw: RawObject): DaemonSetView | undefined {
  const {spec, status, selector, template} = templateOwner(ctx, r, raw, 'DaemonSet')
  const at = ['spec', 'updateStrategy']
  const us = ctx.mapping(spec.updateStrategy, at)
  const type = ctx.string(us?.type, [...at, 'type']) || 'RollingUpdate'
  if (type !== 'RollingUpdate' && type !== 'OnDelete') ctx.fail([...at, 'type'], `unsupported value ${JSON.stringify(type)}`, 'use RollingUpdate or OnDelete')
  const updateStrategy: DaemonSetView['updateStrategy'] = {type}
  if (type === 'RollingUpdate') {
    const ru = ctx.mapping(us?.rollingUpdate, [...at, 'rollingUpdate'])
    updateStrategy.maxUnavailable = r.intOrPercent(ctx, ru?.maxUnavailable, [...at, 'rollingUpdate', 'maxUnavailable']) ?? 1
    updateStrategy.maxSurge = r.intOrPercent(ctx, ru?.maxSurge, [...at, 'rollingUpdate', 'maxSurge']) ?? 0
    const zero = (v: IntOrString) => v === 0 || v === '0%'
    if (zero(updateStrategy.maxUnavailable) && zero(updateStrategy.maxSurge)) {
      ctx.fail([...at, 'rollingUpdate', 'maxUnavailable'], 'may not be 0 when `maxSurge` is 0')
    }
  }
  const int = (field: string) => ctx.int(status[field], ['status', field], 0, INT32_MAX) ?? 0
  const statusView: DaemonSetStatusView = {
    currentNumberScheduled: int('currentNumberScheduled'),
    numberMisscheduled: int('numberMisscheduled'),
    desiredNumberScheduled: int('desiredNumberScheduled'),
    numberReady: int('numberReady'),
    observedGeneration: ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER) ?? 0,
    updatedNumberScheduled: int('updatedNumberScheduled'),
    numberAvailable: int('numberAvailable'),
    numberUnavailable: int('numberUnavailable'),
  }
  const cc = ctx.int(status.collisionCount, ['status', 'collisionCount'], 0, INT32_MAX)
  if (cc !== undefined) statusView.collisionCount = cc
  const ds: DaemonSetView = {
    kind: 'DaemonSet',
    apiVersion,
    ...meta,
    minReadySeconds: ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0,
    selector,
    template,
    rawTemplate: spec.template,
    serverDefaulted: r.serverDefaulted,
    updateStrategy,
    revisionHistoryLimit: ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], -INT32_MAX - 1, INT32_MAX) ?? 10,
    status: statusView,
  }
  return selector ? ds : undefined
}

export function readNode(ctx: Ctx, meta: Meta, raw: RawObject): NodeView {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY
  const taints: Taint[] = []
  if (spec.taints !== undefined && spec.taints !== null) {
    if (!Array.isArray(spec.taints)) ctx.fail(['spec', 'taints'], 'expected a list')
    else {
      spec.taints.forEach((t, i) => {
        const m = ctx.mapping(t, ['spec', 'taints', i]) ?? EMPTY
        const key = ctx.string(m.key, ['spec', 'taints', i, 'key']) ?? ''
        const effect = ctx.string(m.effect, ['spec', 'taints', i, 'effect']) ?? ''
        if (key === '') ctx.fail(['spec', 'taints', i, 'key'], 'a taint needs a key')
        if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) {
          ctx.fail(['spec', 'taints', i, 'effect'], `unsupported value ${JSON.stringify(effect)}`, 'use NoSchedule, PreferNoSchedule or NoExecute')
        }
        taints.push({key, value: ctx.string(m.value, ['spec', 'taints', i, 'value']) ?? '', effect})
      })
    }
  }
  const providerID = ctx.string(spec.providerID, ['spec', 'providerID'])
  return {...meta, namespace: '', unschedulable: ctx.bool(spec.unschedulable, ['spec', 'unschedulable']) ?? false, taints, ...(providerID ? {providerID} : {})}
}

/** What a pod's spec says for the DaemonSet and StatefulSet controllers (GetTargetNodeName, volumes). */
export function podWorkloadFields(spec: RawObject): {affinityNode?: string; claimVolumes?: Record<string, string>} {
  const out: {affinityNode?: string; claimVolumes?: Record<string, string>} = {}
  const required = (spec.affinity as RawObject | undefined)?.nodeAffinity as RawObject | undefined
  const selector = isMapping(required) ? required.requiredDuringSchedulingIgnoredDuringExecution : undefined
  if (isMapping(selector)) {
    out.affinityNode = ''
    const terms = Array.isArray(selector.nodeSelectorTerms) ? selector.nodeSelectorTerms : []
    // The first `metadata.name In` requirement decides, even with more than one value (then none).
    search: for (const term of terms) {
      const fields = isMapping(term) && Array.isArray(term.matchFields) ? term.matchFields : []
      for (const f of fields) {
        if (isMapping(f) && f.key === 'metadata.name' && f.operator === 'In') {
          const values = Array.isArray(f.values) ? f.values : []
          if (values.length === 1 && typeof values[0] === 'string') out.affinityNode = values[0]
          break search
        }
      }
    }
  }
  if (Array.isArray(spec.volumes)) {
    for (const v of spec.volumes) {
      if (!isMapping(v) || typeof v.name !== 'string' || !isMapping(v.persistentVolumeClaim)) continue
      const claimName = v.persistentVolumeClaim.claimName
      if (typeof claimName === 'string') (out.claimVolumes ??= {})[v.name] = claimName
    }
  }
  return out
}
