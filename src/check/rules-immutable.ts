// immutable-selector-change: a controller's selector against the same object live in the cluster
// or in a previous render. Compared as the API server compares on update
// (ValidateImmutableField → apiequality.Semantic.DeepEqual): matchLabels as a map, matchExpressions
// as an ordered list, nil and empty equal. apps/v1 and Job selectors are immutable (§5.4.2, §5.4.6);
// a ReplicationController's can change, and the controller then releases and creates pods (§5.8.6).
import type {Labels} from '../model/objects.js'
import type {Draft} from './draft.js'
import {describeObject, selectorAnchor} from './draft.js'
import type {CheckObject, ControllerView} from './objects.js'
import {formatLabels, formatRequirements, labelSelectorRequirements} from './selectors.js'
import {canonicalJson} from '../reconcile/revisions.js'
import {QuantityError, quantityString, quantityText, storedQuantity} from '../controllers/deployment/hash/quantity.js'

export interface Previous {
  /** What the objects are: the live cluster, or a directory of an earlier render. */
  source: {type: 'cluster'; context: string} | {type: 'directory'; path: string}
  /** identityOf(object) → the earlier object. */
  objects: ReadonlyMap<string, CheckObject>
}

type Raw = Record<string, unknown>
const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

interface Normal {
  matchLabels: Array<[string, string]>
  matchExpressions: Array<{key: string; operator: string; values: string[]}>
}

/** The selector the API server would store, in a form that compares like Semantic.DeepEqual. */
function effective(c: ControllerView): Normal | undefined {
  const s = c.selector
  if (s.state !== 'ok') return undefined
  if (c.kind === 'Job' && !c.manualSelector) return undefined // generated from the uid: not the author's to change
  if (c.kind === 'ReplicationController' || s.origin === 'defaulted') {
    const map: Labels = s.origin === 'defaulted' ? (c.templateLabels ?? {}) : (c.rawSelector as Labels)
    return {matchLabels: Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), matchExpressions: []}
  }
  const raw = c.rawSelector as Raw
  const ml = isMapping(raw.matchLabels) ? (raw.matchLabels as Labels) : {}
  const me = Array.isArray(raw.matchExpressions) ? (raw.matchExpressions as Raw[]) : []
  return {
    matchLabels: Object.entries(ml).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    matchExpressions: me.map((e) => ({key: e.key as string, operator: e.operator as string, values: Array.isArray(e.values) ? (e.values as string[]) : []})),
  }
}

function equal(a: Normal, b: Normal): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function text(n: Normal, rc: boolean): string {
  if (rc) return formatLabels(Object.fromEntries(n.matchLabels))
  return formatRequirements(labelSelectorRequirements({matchLabels: Object.fromEntries(n.matchLabels), matchExpressions: n.matchExpressions}, []))
}

/** `matchLabels {app: web}, matchExpressions [app In (web)]`. */
function structural(n: Normal): string {
  const parts: string[] = []
  if (n.matchLabels.length > 0) parts.push(`matchLabels {${n.matchLabels.map(([k, v]) => `${k}: ${v}`).join(', ')}}`)
  if (n.matchExpressions.length > 0) parts.push(`matchExpressions [${n.matchExpressions.map((e) => `${e.key} ${e.operator}${e.values.length > 0 ? ` (${e.values.join(',')})` : ''}`).join(', ')}]`)
  return parts.join(' and ') || '{}'
}

export function immutableDrafts(objects: readonly CheckObject[], previous: Previous, identity: (o: CheckObject) => string): Draft[] {
  const drafts: Draft[] = []
  for (const obj of objects) {
    const c = obj.controller
    if (!c || obj.name === '') continue
    const before = previous.objects.get(identity(obj))
    if (!before?.controller || before.controller.kind !== c.kind) continue
    const now = effective(c)
    const then = effective(before.controller)
    if (!now || !then || equal(now, then)) continue
    const rc = c.kind === 'ReplicationController'
    const where = previous.source.type === 'cluster' ? `the live ${describeObject(before)}` : `the previous render (${before.src.file})`
    let [from, to] = [text(then, rc), text(now, rc)]
    if (from === to) {
      // The same pods, written differently: the API server compares the fields as written.
      ;[from, to] = [structural(then), structural(now)]
    }
    const change = `spec.selector changes from ${from} to ${to} against ${where}`
    const message = rc
      ? `${change}: a ReplicationController's selector can change, so the API server accepts it; the controller then releases every pod that matches only the old selector (orphaned, still running) and creates pods from the template until ${text(now, rc)} selects spec.replicas of them`
      : `${change}: ${c.kind === 'Job' ? 'a Job' : `an apps/v1 ${c.kind}`}'s selector is immutable, so the API server rejects the update ("field is immutable"); delete and re-create the ${c.kind} (its pods go with it), or give it a new name`
    drafts.push({
      rule: 'immutable-selector-change',
      severity: rc ? 'warning' : undefined,
      message,
      subject: obj,
      ...selectorAnchor(obj),
      related: previous.source.type === 'directory' ? [{object: before, ...selectorAnchor(before), message: 'the selector in the previous render'}] : undefined,
    })
  }
  return drafts
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

/** resources.requests/limits (and dataSourceRef-free specs) with quantities in canonical form. */
function quantities(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => quantities(x))
  if (!isMapping(v)) return v
  const out: Raw = {}
  for (const [k, x] of Object.entries(v)) {
    if ((key === 'requests' || key === 'limits') && (typeof x === 'string' || typeof x === 'number')) {
      try {
        out[k] = quantityString(storedQuantity(quantityText(x), true))
      } catch (error) {
        if (!(error instanceof QuantityError)) throw error
        out[k] = x
      }
    } else out[k] = quantities(x, k)
  }
  return out
}

function firstDifference(now: unknown[], then: unknown[]): string {
  for (const [i, t] of now.entries()) {
    if (JSON.stringify(t) !== JSON.stringify(then[i])) return (t as {metadata?: {name?: string}}).metadata?.name ?? String(i)
  }
  return '?'
}
