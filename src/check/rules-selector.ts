// One controller at a time: invalid-selector, empty-selector, rc-selector-defaulted and
// selector-template-mismatch (docs/replicaset-controller.md §5.1, §5.4, §5.5; a Job's generated selector: §5.4.6).
import {requirementMatches} from '../reconcile/selector.js'
import {describeObject, selectorAnchor, type Draft} from './draft.js'
import {satisfiable} from './intersect.js'
import type {CheckObject} from './objects.js'
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
  if (s.origin === 'defaulted' && c.kind === 'ReplicationController') {
    const meta = obj.src.raw.metadata as Record<string, unknown> | undefined
    const own = meta && typeof meta === 'object' ? meta.labels : undefined
    const ownLabelsToo = !own || typeof own !== 'object' || Object.keys(own).length === 0
    out.push({
      rule: 'rc-selector-defaulted',
      message: `${c.rawSelector === undefined || c.rawSelector === null ? 'no spec.selector' : 'spec.selector is empty'}: the API server sets it to the template labels ${formatLabels(c.templateLabels ?? {})}${ownLabelsToo ? ' (and the RC\'s own labels too)' : ''}, so the RC owns every orphaned pod that carries them; write the selector out`,
      subject: obj,
      ...selectorAnchor(obj),
    })
  }
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
  const tail =
    c.kind === 'Job' && !c.manualSelector
      ? 'the API server rejects this Job ("selector does not match template labels"); leave the selector out and let it be generated, or set manualSelector: true'
      : `the API server rejects this ${obj.kind} ("selector does not match template labels")`
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
  if (c.kind === 'ReplicationController') {
    return `${state === 'missing' ? 'no spec.selector' : 'spec.selector is empty'} and no template labels to default it from: the API server rejects this ReplicationController`
  }
  if (c.kind === 'Job') {
    return `manualSelector is true but spec.selector is ${state === 'missing' ? 'missing' : 'empty'}: the API server rejects this Job${template}`
  }
  if (state === 'missing') return `spec.selector is required for ${obj.apiVersion} ${obj.kind}: the API server rejects ${describeObject(obj)} without one${template}`
  return `spec.selector is empty, which would select every pod in the namespace: the API server rejects it${template}`
}
