// One controller at a time: invalid-selector, empty-selector, rc-selector-defaulted and
// selector-template-mismatch (docs/replicaset-controller.md §5.1, §5.4, §5.5; a Job's generated selector: §5.4.6).
// What differs by kind (a ReplicationController's map, a Job's generated selector, their wording)
// the controller's check part says (SelectorPolicy); rc-selector-defaulted is the replicaset's own rule.
import {requirementMatches} from '../reconcile/selector.js'
import {checkedKind} from './controllers.js'
import {describeObject, selectorAnchor, type Draft} from './draft.js'
import {satisfiable} from './intersect.js'
import type {CheckObject} from './objects.js'
import type {SelectorPolicy} from './part.js'
import {formatLabels, formatRequirements, whyNot} from './selectors.js'

export function selectorDrafts(obj: CheckObject): Draft[] {
  const c = obj.controller
  if (!c) {
    if (obj.service && obj.service.selectorProblems.length > 0) {
      return obj.service.selectorProblems.map((p) => ({rule: 'invalid-selector', message: `spec.selector: ${p.message}`, subject: obj, path: p.path, atKey: p.atKey}))
    }
    return []
  }
  const s = c.selector
  switch (s.state) {
    case 'invalid':
      return s.problems.map((p) => ({
        rule: 'invalid-selector',
        message: `${p.path.length > 2 ? '' : 'spec.selector: '}${p.message}; the API server rejects this ${obj.kind}`,
        subject: obj,
        path: p.path,
        atKey: p.atKey,
      }))
    case 'missing':
    case 'empty':
      return [{rule: 'empty-selector', message: emptyMessage(obj, s.state), subject: obj, path: ['spec', 'selector'], atKey: true}]
    case 'ok':
      break
  }
  const out: Draft[] = []
  if (c.templateLabels === undefined) return out // no template: invalid-field says so
  if (!satisfiable(s.requirements)) {
    out.push({
      rule: 'selector-template-mismatch',
      message: `selector ${formatRequirements(s.requirements)} can never match any pod: its requirements contradict each other`,
      subject: obj,
      ...selectorAnchor(obj),
    })
    return out
  }
  const failing = s.requirements.filter((r) => !requirementMatches(r, c.podLabels))
  if (failing.length === 0) return out
  const reasons = failing.map((r) => whyNot(r, c.podLabels, 'the template'))
  const tail = selectorPolicy(obj).mismatchTail ?? `the API server rejects this ${obj.kind} ("selector does not match template labels")`
  out.push({
    rule: 'selector-template-mismatch',
    message: `selector does not match the pod template's labels: it ${reasons.join('; it ')}; ${tail}`,
    subject: obj,
    path: failing[0].path,
    atKey: failing[0].atKey,
  })
  return out
}

function emptyMessage(obj: CheckObject, state: 'missing' | 'empty'): string {
  const c = obj.controller!
  const template = c.templateLabels && Object.keys(c.templateLabels).length > 0 ? `; the template's labels would do: ${formatLabels(c.templateLabels)}` : ''
  const own = selectorPolicy(obj).empty
  if (own) return own(state, template)
  if (state === 'missing') return `spec.selector is required for ${obj.apiVersion} ${obj.kind}: the API server rejects ${describeObject(obj)} without one${template}`
  return `spec.selector is empty, which would select every pod in the namespace: the API server rejects it${template}`
}

/** How the controller of `obj` judges its selector (`view`: the object's, or the same object's earlier one). */
export function selectorPolicy(obj: CheckObject, view = obj.controller!): SelectorPolicy {
  return checkedKind(obj)?.selector?.(view) ?? {}
}
