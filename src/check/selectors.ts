// Selectors as written, with the place each requirement came from, and as kubectl prints them.
// Matching and validation are reconcile/selector.ts's (upstream's exact semantics); this file only
// keeps requirements in source order with their paths, so a finding can point at the one that fails.
import type {Labels} from '../model/objects.js'
import {labelKeyProblem, labelSelectorProblems, labelValueProblem, requirementMatches, type Requirement} from '../reconcile/selector.js'
import type {Path} from '../sources/documents.js'

/** A requirement and the field it was written in. */
export interface SourcedRequirement extends Requirement {
  path: Path
  /** Point at the key (matchLabels entries) rather than the value. */
  atKey: boolean
}

export interface SelectorProblemAt {
  path: Path
  message: string
  atKey: boolean
}

type Raw = Record<string, unknown>
const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Label keys found valid so far (labelKeyProblem): selectors repeat a few keys over many objects. */
const VALID_KEYS = new Set<string>()

function validKey(key: string): boolean {
  if (VALID_KEYS.has(key)) return true
  if (labelKeyProblem(key) !== undefined) return false
  if (VALID_KEYS.size < 4096) VALID_KEYS.add(key)
  return true
}

/** A selector of matchLabels alone whose keys and values are all valid: what labelSelectorProblems finds nothing in. */
function plainValidSelector(selector: unknown): boolean {
  if (!isMapping(selector) || (selector.matchExpressions !== undefined && selector.matchExpressions !== null)) return false
  const labels = selector.matchLabels
  if (labels === undefined || labels === null) return true
  if (!isMapping(labels)) return false
  for (const key of Object.keys(labels)) {
    const value = labels[key]
    if (typeof value !== 'string' || !validKey(key) || labelValueProblem(value) !== undefined) return false
  }
  return true
}

/** labelSelectorProblems, with paths made absolute (under `base`). */
export function labelSelectorProblemsAt(selector: unknown, base: Path): SelectorProblemAt[] {
  if (plainValidSelector(selector)) return []
  return labelSelectorProblems(selector).map((p) => ({
    path: [...base, ...p.path],
    message: `${p.message}${typeHint(valueAt(selector, p.path))}`,
    atKey: p.message.startsWith('invalid label key'),
  }))
}

function valueAt(v: unknown, path: readonly (string | number)[]): unknown {
  for (const step of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** Why a scalar is not a string: YAML 1.1 booleans and numbers need quotes. */
function typeHint(value: unknown): string {
  if (typeof value === 'boolean') return ' (YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value)'
  if (typeof value === 'number') return ' (quote the value to make it a string)'
  return ''
}

/** A map selector (RC, Service): a mapping of valid label keys to valid string values. */
export function mapSelectorProblemsAt(selector: unknown, base: Path): SelectorProblemAt[] {
  if (selector === undefined || selector === null) return []
  if (!isMapping(selector)) return [{path: base, message: 'a selector must be a mapping of label keys to values', atKey: false}]
  const out: SelectorProblemAt[] = []
  for (const key of Object.keys(selector)) {
    const value = selector[key]
    if (typeof value !== 'string') {
      out.push({path: [...base, key], message: `label "${key}" must have a string value, got ${describe(value)}${typeHint(value)}`, atKey: false})
      continue
    }
    const keyProblem = validKey(key) ? undefined : labelKeyProblem(key)
    if (keyProblem) out.push({path: [...base, key], message: keyProblem, atKey: true})
    else {
      const valueProblem = labelValueProblem(value)
      if (valueProblem) out.push({path: [...base, key], message: valueProblem, atKey: false})
    }
  }
  return out
}

/** Whether a (valid) metav1.LabelSelector has neither matchLabels entries nor expressions. */
export function isEmptyLabelSelector(selector: Raw): boolean {
  const labels = isMapping(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0
  return labels + exprs === 0
}

/**
 * The requirements of a valid metav1.LabelSelector in source order: matchLabels entries (as
 * equalities), then matchExpressions (LabelSelectorAsSelector ANDs them all).
 */
export function labelSelectorRequirements(selector: Raw, base: Path): SourcedRequirement[] {
  const out: SourcedRequirement[] = []
  const labels = selector.matchLabels
  // By key, not Object.entries: no pair array for each label (and a much smaller function to compile).
  if (isMapping(labels)) {
    for (const key of Object.keys(labels)) out.push({key, operator: 'In', values: [labels[key] as string], path: base.concat('matchLabels', key), atKey: true})
  }
  if (Array.isArray(selector.matchExpressions)) {
    selector.matchExpressions.forEach((e, i) => {
      const expr = e as Raw
      const values = Array.isArray(expr.values) ? [...new Set(expr.values as string[])] : []
      out.push({key: expr.key as string, operator: expr.operator as Requirement['operator'], values, path: base.concat('matchExpressions', i), atKey: false})
    })
  }
  // Kept to the end of a run: at its length, not with the room pushing leaves (so are the paths: concat, not a spread).
  return out.slice()
}

/** A map selector (or labels used as one) as equalities, in source order. */
export function mapRequirements(map: Labels, base: Path): SourcedRequirement[] {
  return Object.entries(map).map(([key, value]) => ({key, operator: 'In' as const, values: [value], path: base.concat(key), atKey: true}))
}

export function matchesAll(reqs: readonly Requirement[], labels: Labels): boolean {
  for (const r of reqs) if (!requirementMatches(r, labels)) return false
  return true
}

// ---------------------------------------------------------------------------------------------
// Words

/** One requirement in kubectl's selector syntax: `app=web`, `tier in (a,b)`, `!canary`. */
export function formatRequirement(r: Requirement): string {
  switch (r.operator) {
    case 'In':
      return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`
    case 'NotIn':
      return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(',')})`
    case 'Exists':
      return r.key
    case 'DoesNotExist':
      return `!${r.key}`
    case 'Gt':
      return `${r.key}>${r.values[0]}`
    case 'Lt':
      return `${r.key}<${r.values[0]}`
  }
}

export function formatRequirements(reqs: readonly Requirement[]): string {
  return reqs.length === 0 ? '(everything)' : reqs.map(formatRequirement).join(',')
}

/** `app=web,tier=fe` (in the order given); `(no labels)` for an empty set. */
export function formatLabels(labels: Labels): string {
  const keys = Object.keys(labels)
  return keys.length === 0 ? '(no labels)' : keys.map((k) => `${k}=${labels[k]}`).join(',')
}

/** Why `labels` fail `r`, in words: "requires app=web, but the template has app=api". */
export function whyNot(r: Requirement, labels: Labels, whose: string): string {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key)
  const actual = has ? `${r.key}=${labels[r.key]}` : `no ${r.key} label`
  switch (r.operator) {
    case 'In':
    case 'NotIn':
    case 'Gt':
    case 'Lt':
      return `requires ${formatRequirement(r)}, but ${whose} has ${actual}`
    case 'Exists':
      return `requires a ${r.key} label, but ${whose} has none`
    case 'DoesNotExist':
      return `requires no ${r.key} label, but ${whose} has ${actual}`
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  return `${typeof v} ${JSON.stringify(v)}`
}
