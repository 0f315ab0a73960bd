// DaemonSets as the API server stores them: defaulted as SetDefaults_DaemonSet does
// (pkg/apis/apps/v1/defaults.go) and checked where the controller reads them.
import type {IntOrString} from '../../model/objects.js'
import type {DaemonSetStatusView, DaemonSetView} from './model.js'
import {type Ctx, INT32_MAX} from '../../sources/context.js'
import type {RawObject} from '../../sources/documents.js'
import {type FieldReaders, templateOwner} from '../../sources/fields.js'
import type {KindReader, Meta} from '../../sources/part.js'

/** What the DaemonSet controller reads: its DaemonSets (after -n and -l); Nodes are read for every controller. */
export const DAEMONSET_READS: readonly KindReader[] = [
  {
    kind: 'DaemonSet',
    group: 'apps',
    version: 'v1',
    // Its pods are placed node by node.
    readsNodes: () => true,
    read({ctx, fields, apiVersion, meta, raw, planned, located, collect}) {
      const ds = readDaemonSet(ctx, fields, apiVersion, meta, raw)
      if (ds && planned()) collect('daemonSets', located(ds))
    },
  },
]

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
