// Field readers every controller of pods shares: the apps/v1 selector, the pod template,
// int-or-percent values and status conditions, checked as the API server validates them.
import type {IntOrString, LabelSelector, LabelSelectorRequirement, PodTemplateView, SelectorOperator, WorkloadCondition} from '../model/objects.js'
import {compileLabelSelector, labelSelectorProblems, selectorMatches} from '../reconcile/selector.js'
import {type Ctx, describe, EMPTY_RAW, INT32_MAX, isMapping} from './context.js'
import type {Path, RawObject} from './documents.js'

/** The shared field readers, as the controllers' readers receive them. */
export interface FieldReaders {
  labelSelector(ctx: Ctx, v: unknown, kind: string): LabelSelector
  template(ctx: Ctx, v: unknown, at?: Path): PodTemplateView
  intOrPercent(ctx: Ctx, v: unknown, path: Path): IntOrString | undefined
  serverDefaulted: boolean
}

/** ValidatePositiveIntOrPercent: a non-negative integer, or a string of digits and `%`. */
export function intOrPercent(ctx: Ctx, v: unknown, path: Path): number | string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') {
    if (/^[0-9]+%$/.test(v)) return v
    ctx.fail(path, `${JSON.stringify(v)}: must be an integer or percentage (e.g '5%')`)
    return undefined
  }
  return ctx.int(v, path, 0, INT32_MAX)
}

/** An apps/v1 selector: required, valid (LabelSelectorAsSelector) and not empty. */
export function labelSelector(ctx: Ctx, v: unknown, kind: string): LabelSelector {
  const at = ['spec', 'selector']
  if (v === undefined || v === null) {
    ctx.fail(at, 'a selector is required', `the API server rejects an apps/v1 ${kind} without spec.selector`)
    return null
  }
  const problems = labelSelectorProblems(v)
  for (const p of problems) ctx.fail([...at, ...p.path], p.message, undefined, p.message.startsWith('invalid label key'))
  if (problems.length > 0) return null
  const sel = v as RawObject
  const out: {matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[]} = {}
  if (isMapping(sel.matchLabels)) out.matchLabels = sel.matchLabels as Record<string, string>
  if (Array.isArray(sel.matchExpressions)) {
    out.matchExpressions = (sel.matchExpressions as RawObject[]).map((e) => {
      const req: LabelSelectorRequirement = {key: e.key as string, operator: e.operator as SelectorOperator}
      if (Array.isArray(e.values)) req.values = e.values as string[]
      return req
    })
  }
  if (Object.keys(out.matchLabels ?? {}).length + (out.matchExpressions?.length ?? 0) === 0) {
    ctx.fail(at, 'an empty selector is invalid: it would select every pod in the namespace', 'give matchLabels or matchExpressions')
    return null
  }
  return out
}

export function template(ctx: Ctx, v: unknown, at: Path = ['spec', 'template']): PodTemplateView {
  const t = ctx.mapping(v, at) ?? EMPTY_RAW
  const m = ctx.mapping(t.metadata, [...at, 'metadata']) ?? EMPTY_RAW
  const labels = ctx.labels(m.labels, [...at, 'metadata', 'labels'])
  const annotations = ctx.stringMap(m.annotations, [...at, 'metadata', 'annotations'])
  let finalizers: string[] = []
  if (m.finalizers !== undefined && m.finalizers !== null) {
    if (!Array.isArray(m.finalizers)) ctx.fail([...at, 'metadata', 'finalizers'], `expected a list of strings, got ${describe(m.finalizers)}`)
    else {
      m.finalizers.forEach((f, i) => ctx.string(f, [...at, 'metadata', 'finalizers', i]))
      finalizers = m.finalizers.filter((f): f is string => typeof f === 'string')
    }
  }
  const spec = t.spec === undefined || t.spec === null ? {} : ctx.mapping(t.spec, [...at, 'spec']) ?? {}
  return {labels: ctx.ownMap(labels), annotations: ctx.ownMap(annotations), finalizers, spec}
}

export function workloadConditions(ctx: Ctx, v: unknown): WorkloadCondition[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) {
    ctx.fail(['status', 'conditions'], `expected a list, got ${describe(v)}`)
    return []
  }
  const out: WorkloadCondition[] = []
  for (let i = 0; i < v.length; i++) {
    const c = v[i]
    const at = ['status', 'conditions', i]
    if (!isMapping(c)) {
      ctx.fail(at, `expected a mapping, got ${describe(c)}`)
      continue
    }
    const cond: WorkloadCondition = {type: ctx.string(c.type, [...at, 'type']) ?? '', status: ctx.string(c.status, [...at, 'status']) ?? ''}
    const reason = ctx.string(c.reason, [...at, 'reason'])
    const message = ctx.string(c.message, [...at, 'message'])
    const lastTransitionTime = ctx.time(c.lastTransitionTime, [...at, 'lastTransitionTime'])
    if (reason !== undefined) cond.reason = reason
    if (message !== undefined) cond.message = message
    if (lastTransitionTime !== undefined) cond.lastTransitionTime = lastTransitionTime
    out.push(cond)
  }
  return out
}

/** spec, status, the selector and the pod template it must select, as every apps/v1 controller of pods has them. */
export function templateOwner(ctx: Ctx, r: FieldReaders, raw: RawObject, kind: string): {spec: RawObject; status: RawObject; selector: LabelSelector; template: PodTemplateView} {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY_RAW
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY_RAW
  const selector = r.labelSelector(ctx, spec.selector, kind)
  if (spec.template === undefined || spec.template === null) ctx.fail(['spec', 'template'], `a ${kind} needs a pod template`)
  const template = r.template(ctx, spec.template)
  if (selector && !selectorMatches(compileLabelSelector(selector), template.labels)) {
    ctx.fail(['spec', 'template', 'metadata', 'labels'], '`selector` does not match template `labels`', `the API server rejects a ${kind} whose selector does not select its own template`)
  }
  return {spec, status, selector, template}
}
