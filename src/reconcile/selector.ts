// Label selectors with upstream's exact semantics.
//   metav1.LabelSelectorAsSelector (apimachinery/pkg/apis/meta/v1/helpers.go): nil → nothing,
//     empty → everything, otherwise the AND of every matchLabels entry and every expression;
//   labels.NewRequirement / Requirement.Matches (apimachinery/pkg/labels/selector.go);
//   labels.Parse for the string form that `-l` takes.
import type {LabelSelector, Labels} from '../model/objects.js'

export type RequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt'

export interface Requirement {
  key: string
  operator: RequirementOperator
  values: readonly string[]
}

/** A selector ready to match: `null` requirements is labels.Nothing(); `[]` is labels.Everything(). */
export interface CompiledSelector {
  requirements: readonly Requirement[] | null
}

export const NOTHING: CompiledSelector = Object.freeze({requirements: null})
export const EVERYTHING: CompiledSelector = Object.freeze({requirements: Object.freeze([])})

/** A problem in a selector, with the path of the offending field relative to the selector. */
export interface SelectorProblem {
  path: (string | number)[]
  message: string
}

const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** validation.IsQualifiedName: an optional DNS-subdomain prefix (≤253) and a name (≤63). */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/')
  let name = key
  if (parts.length === 2) {
    const [prefix, rest] = parts
    if (prefix.length === 0) return `invalid label key "${key}": the prefix part must be non-empty`
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      return `invalid label key "${key}": the prefix must be a lowercase DNS subdomain of at most 253 characters`
    }
    name = rest
  } else if (parts.length > 2) {
    return `invalid label key "${key}": a qualified name has at most one "/"`
  }
  if (name.length === 0) return `invalid label key "${key}": the name part must be non-empty`
  if (name.length > 63) return `invalid label key "${key}": the name part must be at most 63 characters`
  if (!LABEL_NAME.test(name)) {
    return `invalid label key "${key}": the name part must consist of alphanumerics, '-', '_' or '.', and begin and end with an alphanumeric`
  }
  return undefined
}

/** validation.IsValidLabelValue: empty, or ≤63 characters of the label-name alphabet. */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 63) return `invalid label value "${value}": must be at most 63 characters`
  if (!LABEL_NAME.test(value)) {
    return `invalid label value "${value}": must consist of alphanumerics, '-', '_' or '.', and begin and end with an alphanumeric`
  }
  return undefined
}

/** labels.NewRequirement's checks; returns the problem, or undefined when the requirement is valid. */
export function requirementProblem(req: Requirement): string | undefined {
  const keyProblem = labelKeyProblem(req.key)
  if (keyProblem) return keyProblem
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (req.values.length === 0) return `operator ${req.operator} on "${req.key}" needs at least one value`
      break
    case 'Exists':
    case 'DoesNotExist':
      if (req.values.length !== 0) return `operator ${req.operator} on "${req.key}" takes no values`
      break
    case 'Gt':
    case 'Lt':
      if (req.values.length !== 1 || !/^[-+]?\d+$/.test(req.values[0])) {
        return `operator ${req.operator === 'Gt' ? '>' : '<'} on "${req.key}" needs exactly one integer value`
      }
      return undefined
  }
  for (const value of req.values) {
    const valueProblem = labelValueProblem(value)
    if (valueProblem) return valueProblem
  }
  return undefined
}

const API_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist'])

/**
 * Everything wrong with a `metav1.LabelSelector` as written (types included), in field order.
 * An empty list means LabelSelectorAsSelector accepts it.
 */
export function labelSelectorProblems(selector: unknown): SelectorProblem[] {
  if (selector === null || selector === undefined) return []
  if (typeof selector !== 'object' || Array.isArray(selector)) {
    return [{path: [], message: 'a label selector must be a mapping with matchLabels and/or matchExpressions'}]
  }
  const problems: SelectorProblem[] = []
  const {matchLabels, matchExpressions} = selector as Record<string, unknown>
  if (matchLabels !== undefined && matchLabels !== null) {
    if (typeof matchLabels !== 'object' || Array.isArray(matchLabels)) {
      problems.push({path: ['matchLabels'], message: 'matchLabels must be a mapping of label keys to string values'})
    } else {
      for (const [key, value] of Object.entries(matchLabels)) {
        if (typeof value !== 'string') {
          problems.push({path: ['matchLabels', key], message: `label "${key}" must have a string value, got ${describe(value)}`})
          continue
        }
        const problem = labelKeyProblem(key) ?? labelValueProblem(value)
        if (problem) problems.push({path: ['matchLabels', key], message: problem})
      }
    }
  }
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) {
      problems.push({path: ['matchExpressions'], message: 'matchExpressions must be a list'})
    } else {
      matchExpressions.forEach((expr, i) => {
        const at = ['matchExpressions', i]
        if (typeof expr !== 'object' || expr === null || Array.isArray(expr)) {
          problems.push({path: at, message: 'each expression must be a mapping with key, operator and values'})
          return
        }
        const {key, operator, values} = expr as Record<string, unknown>
        if (typeof key !== 'string') {
          problems.push({path: [...at, 'key'], message: `key must be a string, got ${describe(key)}`})
          return
        }
        if (typeof operator !== 'string' || !API_OPERATORS.has(operator)) {
          const hint = typeof operator === 'string' && API_OPERATORS.has(capitalize(operator)) ? ` (operators are case-sensitive: use "${capitalize(operator)}")` : ''
          problems.push({
            path: [...at, 'operator'],
            message: `${JSON.stringify(operator ?? null)} is not a valid label selector operator; use In, NotIn, Exists or DoesNotExist${hint}`,
          })
          return
        }
        if (values !== undefined && values !== null && (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))) {
          problems.push({path: [...at, 'values'], message: 'values must be a list of strings'})
          return
        }
        const problem = requirementProblem({key, operator: operator as RequirementOperator, values: (values as string[] | null) ?? []})
        if (problem) problems.push({path: operator === 'In' || operator === 'NotIn' || values ? [...at, 'values'] : at, message: problem})
      })
    }
  }
  return problems
}

/**
 * LabelSelectorAsSelector: compiles a selector that has passed labelSelectorProblems.
 * Throws on an invalid one (the controller logs and drops such a sync).
 */
export function compileLabelSelector(selector: LabelSelector): CompiledSelector {
  if (selector === null) return NOTHING
  const labels = selector.matchLabels ?? {}
  const expressions = selector.matchExpressions ?? []
  if (Object.keys(labels).length + expressions.length === 0) return EVERYTHING
  const requirements: Requirement[] = []
  for (const key of Object.keys(labels).sort()) requirements.push({key, operator: 'In', values: [labels[key]]})
  for (const expr of expressions) {
    // LabelSelectorAsSelector knows only the four API operators (case-sensitive); anything else is an error.
    if (!API_OPERATORS.has(expr.operator)) throw new SelectorError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`)
    requirements.push({key: expr.key, operator: expr.operator, values: [...(expr.values ?? [])]})
  }
  for (const req of requirements) {
    const problem = requirementProblem(req)
    if (problem) throw new SelectorError(problem)
  }
  return {requirements}
}

export class SelectorError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SelectorError'
  }
}

/** Requirement.Matches. */
export function requirementMatches(req: Requirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key)
  switch (req.operator) {
    case 'In':
      return has && req.values.includes(labels[req.key])
    case 'NotIn':
      return !has || !req.values.includes(labels[req.key]) // a missing key satisfies NotIn / !=
    case 'Exists':
      return has
    case 'DoesNotExist':
      return !has
    case 'Gt':
    case 'Lt': {
      if (!has || !/^[-+]?\d+$/.test(labels[req.key])) return false
      const actual = BigInt(labels[req.key])
      const bound = BigInt(req.values[0])
      return req.operator === 'Gt' ? actual > bound : actual < bound
    }
  }
}

export function selectorMatches(selector: CompiledSelector, labels: Labels): boolean {
  if (selector.requirements === null) return false
  for (const req of selector.requirements) if (!requirementMatches(req, labels)) return false
  return true
}

/** labels.Set(m).AsSelectorPreValidated(): a map selector (RC, Service) as an AND of equalities. */
export function compileMapSelector(map: Labels): CompiledSelector {
  return {requirements: Object.keys(map).sort().map((key) => ({key, operator: 'In' as const, values: [map[key]]}))}
}

/**
 * labels.Parse: the string syntax of `-l`. Supports `k=v`, `k==v`, `k!=v`, `k`, `!k`,
 * `k in (a,b)`, `k notin (a,b)`, `k>1`, `k<1`, comma-separated (AND). Empty → everything.
 * Throws SelectorError naming the problem.
 */
export function parseSelectorString(text: string): CompiledSelector {
  const tokens = tokenize(text)
  if (tokens.length === 0) return EVERYTHING
  const requirements: Requirement[] = []
  let i = 0
  const peek = () => tokens[i]
  const next = () => tokens[i++]
  const fail = (what: string): never => {
    throw new SelectorError(`invalid selector "${text}": ${what}`)
  }
  const identifier = (what: string) => {
    const token = next()
    if (!token || token.type !== 'ident') fail(`expected ${what}${token ? `, found "${token.text}"` : ' at the end'}`)
    return token.text
  }
  for (;;) {
    let req: Requirement
    if (peek()?.type === '!') {
      next()
      req = {key: identifier('a label key after "!"'), operator: 'DoesNotExist', values: []}
    } else {
      const key = identifier('a label key')
      const op = peek()
      if (!op || op.type === ',') {
        req = {key, operator: 'Exists', values: []}
      } else if (op.type === '=' || op.type === '==' || op.type === '!=') {
        next()
        const value = peek()?.type === 'ident' ? next().text : '' // `k=` selects the empty value
        req = {key, operator: op.type === '!=' ? 'NotIn' : 'In', values: [value]}
      } else if (op.type === 'in' || op.type === 'notin') {
        next()
        if (next()?.type !== '(') fail(`expected "(" after ${op.type}`)
        const values: string[] = []
        for (;;) {
          const token = next()
          if (!token) fail('missing ")"')
          if (token.type === ')') break
          if (token.type === ',') {
            if (values.length === 0 || peek()?.type === ',' || peek()?.type === ')') values.push('')
            continue
          }
          if (token.type !== 'ident') fail(`unexpected "${token.text}" in a value list`)
          values.push(token.text)
        }
        req = {key, operator: op.type === 'in' ? 'In' : 'NotIn', values: [...new Set(values)]}
      } else if (op.type === '>' || op.type === '<') {
        next()
        req = {key, operator: op.type === '>' ? 'Gt' : 'Lt', values: [identifier('an integer')]}
      } else {
        return fail(`unexpected "${op.text}" after "${key}"`)
      }
    }
    const problem = requirementProblem(req)
    if (problem) fail(problem)
    requirements.push(req)
    const sep = next()
    if (!sep) break
    if (sep.type !== ',') fail(`expected "," found "${sep.text}"`)
  }
  return {requirements}
}

type TokenType = 'ident' | '!' | '=' | '==' | '!=' | ',' | '(' | ')' | 'in' | 'notin' | '>' | '<'
interface Token {
  type: TokenType
  text: string
}

/** labels.Lexer: special characters `!=(),<>` and white space separate identifiers. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (/\s/.test(c)) {
      i++
      continue
    }
    const two = text.slice(i, i + 2)
    if (two === '==' || two === '!=') {
      tokens.push({type: two, text: two})
      i += 2
      continue
    }
    if ('!=,()<>'.includes(c)) {
      tokens.push({type: c as TokenType, text: c})
      i++
      continue
    }
    let j = i
    while (j < text.length && !/\s/.test(text[j]) && !'!=,()<>'.includes(text[j])) j++
    const word = text.slice(i, j)
    tokens.push({type: word === 'in' || word === 'notin' ? word : 'ident', text: word})
    i = j
  }
  return tokens
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  return `${typeof value} ${JSON.stringify(value)}`
}

function capitalize(s: string): string {
  const map: Record<string, string> = {in: 'In', notin: 'NotIn', exists: 'Exists', doesnotexist: 'DoesNotExist'}
  return map[s.toLowerCase()] ?? s
}
