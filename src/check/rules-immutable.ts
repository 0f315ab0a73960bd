// immutable-selector-change: a controller's selector against the same object live in the cluster
// or in a previous render. Compared as the API server compares on update
// (ValidateImmutableField → apiequality.Semantic.DeepEqual): matchLabels as a map, matchExpressions
// as an ordered list, nil and empty equal. apps/v1 and Job selectors are immutable (§5.4.2, §5.4.6);
// a ReplicationController's can change, and the controller then releases and creates pods (§5.8.6).
// How each kind's selector is stored and judged, its controller's check part says (SelectorPolicy);
// other fields a controller forbids changing are its own rules (ControllerChecks.previousDrafts).
import type {Labels} from '../model/objects.js'
import type {Draft} from './draft.js'
import {describeObject, selectorAnchor} from './draft.js'
import type {CheckObject, ControllerView, Previous} from './objects.js'
import type {SelectorPolicy} from './part.js'
import {selectorPolicy} from './rules-selector.js'
import {formatLabels, formatRequirements, labelSelectorRequirements} from './selectors.js'

type Raw = Record<string, unknown>
const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

interface Normal {
  matchLabels: Array<[string, string]>
  matchExpressions: Array<{key: string; operator: string; values: string[]}>
}

/** The selector the API server would store, in a form that compares like Semantic.DeepEqual. */
function effective(c: ControllerView, policy: SelectorPolicy): Normal | undefined {
  const s = c.selector
  if (s.state !== 'ok') return undefined
  if (policy.generated) return undefined // generated from the uid: not the author's to change
  if (policy.form === 'map' || s.origin === 'defaulted') {
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
    const policy = selectorPolicy(obj)
    const now = effective(c, policy)
    const then = effective(before.controller, selectorPolicy(before, before.controller))
    if (!now || !then || equal(now, then)) continue
    const rc = policy.form === 'map'
    const where = previous.source.type === 'cluster' ? `the live ${describeObject(before)}` : `the previous render (${before.src.file})`
    let [from, to] = [text(then, rc), text(now, rc)]
    if (from === to) {
      // The same pods, written differently: the API server compares the fields as written.
      ;[from, to] = [structural(then), structural(now)]
    }
    const change = `spec.selector changes from ${from} to ${to} against ${where}`
    const message = policy.mutable
      ? policy.mutable(change, text(now, rc))
      : `${change}: ${policy.named ?? `an apps/v1 ${c.kind}`}'s selector is immutable, so the API server rejects the update ("field is immutable"); delete and re-create the ${c.kind} (its pods go with it), or give it a new name`
    drafts.push({
      rule: 'immutable-selector-change',
      severity: policy.mutable ? 'warning' : undefined,
      message,
      subject: obj,
      ...selectorAnchor(obj),
      related: previous.source.type === 'directory' ? [{object: before, ...selectorAnchor(before), message: 'the selector in the previous render'}] : undefined,
    })
  }
  return drafts
}
