// What `kctl check` knows about DaemonSets: their controller views (an apps/v1 LabelSelector), and
//   daemonset-no-eligible-node    a DaemonSet that none of the input's Nodes would run (only when it has Nodes);
// and invalid-field's checks of its fields.
import type {Labels, NodeView, Taint} from '../../model/objects.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import {isMapping, readWorkload, type CheckObject} from '../../check/objects.js'
import {INT32_MAX, intOrPercent, metadata, oneOf, RESTART_ALWAYS, specOf, template} from '../../check/fields.js'
import type {ControllerChecks} from '../../check/part.js'
import type {Ctx} from '../../sources/normalize.js'
import {daemonTolerations, shouldRunDaemonPod} from './nodes.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/**
 * daemonset-no-eligible-node: NodeShouldRunDaemonPod (the planner's own rule) for every Node of
 * the input — the template's nodeName, nodeSelector, required node affinity, and taints against
 * the template's tolerations plus those the controller adds. Only when the input holds Nodes:
 * without any, the cluster's nodes are unknown.
 */
export function daemonSetNodeDrafts(objects: readonly CheckObject[]): Draft[] {
  const nodes = objects.filter((o) => o.kind === 'Node' && o.group === '' && o.name !== '').map(nodeView)
  if (nodes.length === 0) return []
  const drafts: Draft[] = []
  for (const ds of objects) {
    if (ds.kind !== 'DaemonSet' || ds.group !== 'apps') continue
    const spec = at(ds.src.raw, ['spec', 'template', 'spec'])
    const tolerations = daemonTolerations(spec)
    const reasons = new Map<string, string[]>()
    let runs = false
    for (const n of nodes) {
      const d = shouldRunDaemonPod(n, spec, tolerations)
      if (d.shouldRun) {
        runs = true
        break
      }
      const why = d.excludedBy === 'taint' && d.taint ? `taint ${d.taint.key}${d.taint.value ? `=${d.taint.value}` : ''}:${d.taint.effect}` : (d.excludedBy ?? 'not eligible')
      reasons.set(why, [...(reasons.get(why) ?? []), n.name])
    }
    if (runs) continue
    const words = [...reasons].map(([why, names]) => `${NODE_WORDS[why] ?? `an untolerated ${why}`} (${names.slice(0, 3).join(', ')}${names.length > 3 ? `, and ${names.length - 3} more` : ''})`)
    // Point at what decides when one thing excludes every node.
    const only = reasons.size === 1 ? [...reasons.keys()][0] : undefined
    const path: Path = only === 'node-selector' ? ['spec', 'template', 'spec', 'nodeSelector'] : only === 'node-affinity' ? ['spec', 'template', 'spec', 'affinity'] : only === 'node-name' ? ['spec', 'template', 'spec', 'nodeName'] : ['spec', 'template', 'spec']
    drafts.push({
      rule: 'daemonset-no-eligible-node',
      message: `none of the ${nodes.length} Node${nodes.length === 1 ? '' : 's'} in the input would run its pod: ${words.join('; ')}; the DaemonSet would run no pods (desiredNumberScheduled 0)`,
      subject: ds,
      path,
      atKey: only !== 'node-name',
    })
  }
  return drafts
}

const NODE_WORDS: Record<string, string> = {
  'node-name': 'the template\'s nodeName names another node',
  'node-selector': 'the nodeSelector matches no node\'s labels',
  'node-affinity': 'the required node affinity matches no node',
}

/** A Node as the DaemonSet rule needs it: name, labels, well-formed taints. */
function nodeView(o: CheckObject): NodeView {
  const raw = o.src.raw
  const labels = at(raw, ['metadata', 'labels'])
  const taints: Taint[] = list(at(raw, ['spec', 'taints'])).flatMap((t) => {
    const key = at(t, ['key'])
    const effect = at(t, ['effect'])
    if (typeof key !== 'string' || typeof effect !== 'string') return []
    const value = at(t, ['value'])
    return [{key, value: typeof value === 'string' ? value : '', effect}]
  })
  return {name: o.name, namespace: '', uid: '', resourceVersion: '', labels: isMapping(labels) ? (labels as Labels) : {}, unschedulable: at(raw, ['spec', 'unschedulable']) === true, taints} as unknown as NodeView
}

/** invalid-field: a DaemonSet's fields. */
function daemonSet(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  const spec = specOf(ctx, raw)
  ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX)
  ctx.int(spec.revisionHistoryLimit, ['spec', 'revisionHistoryLimit'], 0, INT32_MAX)
  template(ctx, spec.template, ['spec', 'template'], RESTART_ALWAYS, false)
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

export const daemonSetChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'DaemonSet',
      groups: ['apps', 'extensions'],
      read: (obj, spec: RawObject | undefined) => readWorkload(obj, spec),
      podTemplate: ['spec', 'template'],
      live: {prefix: '/apis/apps/v1', plural: 'daemonsets', apiVersion: 'apps/v1'},
      validate: daemonSet,
    },
  ],
  setDrafts: daemonSetNodeDrafts,
}
