// The kinds read for every controller rather than by one: Nodes (cluster-scoped: never filtered by
// -n or -l) and ControllerRevisions (the StatefulSet and DaemonSet controllers' history). Pods are
// in pods.ts.
import type {NodeView, Taint} from '../model/objects.js'
import {type Ctx, EMPTY_RAW} from './context.js'
import type {RawObject} from './documents.js'
import {type KindReader, type Meta, viewOf} from './part.js'

export const nodeReader: KindReader = {
  kind: 'Node',
  group: '',
  version: 'v1',
  read({ctx, meta, raw, clean, collect}) {
    const node = readNode(ctx, meta, raw)
    if (clean()) collect('nodes', node)
  },
}

export const controllerRevisionReader: KindReader = {
  kind: 'ControllerRevision',
  group: 'apps',
  version: 'v1',
  read({ctx, meta, raw, wanted, collect}) {
    const revision = ctx.int(raw.revision, ['revision'], 0, Number.MAX_SAFE_INTEGER) ?? 0
    if (wanted()) collect('controllerRevisions', viewOf(meta, {revision, data: raw.data}))
  },
}

export function readNode(ctx: Ctx, meta: Meta, raw: RawObject): NodeView {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY_RAW
  const taints: Taint[] = []
  if (spec.taints !== undefined && spec.taints !== null) {
    if (!Array.isArray(spec.taints)) ctx.fail(['spec', 'taints'], 'expected a list')
    else {
      spec.taints.forEach((t, i) => {
        const m = ctx.mapping(t, ['spec', 'taints', i]) ?? EMPTY_RAW
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
  const node: NodeView = viewOf(meta, {namespace: '', unschedulable: ctx.bool(spec.unschedulable, ['spec', 'unschedulable']) ?? false, taints})
  if (providerID) node.providerID = providerID
  return node
}
