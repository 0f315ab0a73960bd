// .kctl.yaml: project settings for `kctl check`, found in the current directory or given with
// --config. Strict: an unknown key, rule or value is an error naming file:line:col, so a typo never
// silently turns a rule back on.
//
//   check:
//     failOn: warning                  # error (default) | warning | info
//     k8sVersion: "1.29"               # for deprecated-api
//     rules:
//       overlapping-selectors: off     # off | on | error | warning | info
//       service-selects-nothing: {severity: info}
//       rc-selector-defaulted: {enabled: false}
//     ignorePaths:                     # globs, relative to this file's directory
//       - "charts/*/tests/**"
import {existsSync, readFileSync} from 'node:fs'
import {dirname, resolve} from 'node:path'

import type {Node, Pair, Scalar, YAMLMap, YAMLSeq} from 'yaml'

import {UserError} from '../errors.js'
import {isRuleId, SEVERITIES, type RuleId, type Severity} from '../model/check.js'
import type {Origin} from '../model/objects.js'
import {yamlPackage} from '../yaml-package.js'
import {ruleInfo} from './rules.js'

export const CONFIG_FILE = '.kctl.yaml'

export interface RuleSetting {
  enabled?: boolean
  severity?: Severity
}

export interface CheckConfig {
  /** The file read, as the user named it (undefined: none). */
  file?: string
  /** Where ignorePaths are relative to. */
  baseDir: string
  failOn?: Severity
  k8sVersion?: {value: string; origin: Origin}
  rules: Map<RuleId, RuleSetting>
  ignorePaths: string[]
}

export function emptyConfig(cwd: string): CheckConfig {
  return {baseDir: cwd, rules: new Map(), ignorePaths: []}
}

/** --config FILE, else ./.kctl.yaml when it exists, else nothing. */
export function loadConfig(explicit: string | undefined, cwd: string): CheckConfig {
  const file = explicit ?? (existsSync(resolve(cwd, CONFIG_FILE)) ? CONFIG_FILE : undefined)
  if (file === undefined) return emptyConfig(cwd)
  let text: string
  try {
    text = readFileSync(resolve(cwd, file), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UserError(code === 'ENOENT' ? `${file}: no such file` : `cannot read ${file}: ${(error as Error).message}`, {
      hint: explicit ? 'check the --config path' : undefined,
      cause: error,
    })
  }
  return parseConfig(text, file, dirname(resolve(cwd, file)))
}

// The `yaml` package is loaded only when there is a configuration file to read (yaml-package.ts).
const isScalar = (node: unknown): node is Scalar => yamlPackage().isScalar(node)
const isMap = (node: unknown): node is YAMLMap => yamlPackage().isMap(node)
const isSeq = (node: unknown): node is YAMLSeq => yamlPackage().isSeq(node)

export function parseConfig(text: string, file: string, baseDir: string): CheckConfig {
  const {LineCounter, parseDocument} = yamlPackage()
  const lc = new LineCounter()
  const doc = parseDocument(text, {lineCounter: lc, prettyErrors: false, uniqueKeys: true})
  const at = (node: Node | Pair | null | undefined, fallback = 0): Origin => {
    const range = (node as Node | undefined)?.range
    const pos = lc.linePos(range ? range[0] : fallback)
    return {file, line: pos.line, column: pos.col}
  }
  const fail = (message: string, node: Node | null | undefined, hint?: string): never => {
    throw new UserError(message, {origin: at(node), hint})
  }
  if (doc.errors.length > 0) {
    const e = doc.errors[0]
    const pos = lc.linePos(e.pos[0])
    throw new UserError(`invalid YAML: ${e.message.split('\n')[0]}`, {origin: {file, line: pos.line, column: pos.col}})
  }
  const config: CheckConfig = {file, baseDir, rules: new Map(), ignorePaths: []}
  const root = doc.contents
  if (root === null || (isScalar(root) && (root.value === null || root.value === undefined))) return config
  if (!isMap(root)) return fail(`${file} must be a mapping with a "check" key`, root)
  const check = entries(root, ['check'], fail).get('check')
  if (!check || (isScalar(check.value) && check.value.value === null)) return config
  if (!isMap(check.value)) return fail('check: expected a mapping', check.value as Node)
  const fields = entries(check.value, ['failOn', 'k8sVersion', 'rules', 'ignorePaths'], fail)

  const failOn = fields.get('failOn')
  if (failOn) config.failOn = severity(failOn.value as Node, 'check.failOn', fail)
  const version = fields.get('k8sVersion')
  if (version) {
    const v = version.value as Node
    if (!isScalar(v) || (typeof v.value !== 'string' && typeof v.value !== 'number')) return fail('check.k8sVersion: expected a version such as "1.29"', v)
    // 1.30 written unquoted is the number 1.3: take the source text.
    config.k8sVersion = {value: String(v.source ?? v.value), origin: at(v)}
  }
  const rules = fields.get('rules')
  if (rules && !(isScalar(rules.value) && rules.value.value === null)) {
    if (!isMap(rules.value)) return fail('check.rules: expected a mapping of rule ids to settings', rules.value as Node)
    for (const pair of rules.value.items) {
      const key = pair.key as Node
      const id = isScalar(key) ? String(key.value) : ''
      if (!isRuleId(id)) return fail(`check.rules: unknown rule "${id}"`, key, 'kctl check --rules lists them')
      if (!ruleInfo(id).configurable) return fail(`check.rules: ${id} cannot be configured`, key, 'ignore the path instead')
      config.rules.set(id, ruleSetting(pair.value as Node, `check.rules.${id}`, fail))
    }
  }
  const ignore = fields.get('ignorePaths')
  if (ignore && !(isScalar(ignore.value) && ignore.value.value === null)) {
    if (!isSeq(ignore.value)) return fail('check.ignorePaths: expected a list of path globs', ignore.value as Node)
    for (const item of ignore.value.items) {
      if (!isScalar(item) || typeof item.value !== 'string' || item.value.trim() === '') return fail('check.ignorePaths: each entry must be a non-empty string', item as Node)
      config.ignorePaths.push(item.value)
    }
  }
  return config
}

type Fail = (message: string, node: Node | null | undefined, hint?: string) => never

function entries(map: YAMLMap, known: readonly string[], fail: Fail): Map<string, Pair> {
  const out = new Map<string, Pair>()
  for (const pair of map.items) {
    const key = pair.key as Node
    const name = isScalar(key) ? String(key.value) : ''
    if (!known.includes(name)) return fail(`unknown key "${name}"`, key, `known here: ${known.join(', ')}`)
    out.set(name, pair)
  }
  return out
}

function severity(node: Node, where: string, fail: Fail): Severity {
  const v = isScalar(node) ? node.value : undefined
  if (typeof v === 'string' && (SEVERITIES as readonly string[]).includes(v)) return v as Severity
  return fail(`${where}: expected error, warning or info`, node)
}

function ruleSetting(node: Node, where: string, fail: Fail): RuleSetting {
  if (isScalar(node)) {
    const v = node.value
    if (v === false || v === 'off') return {enabled: false}
    if (v === true || v === 'on') return {enabled: true}
    if (typeof v === 'string' && (SEVERITIES as readonly string[]).includes(v)) return {enabled: true, severity: v as Severity}
    return fail(`${where}: expected off, on, error, warning, info, or a mapping with enabled and severity`, node)
  }
  if (!isMap(node)) return fail(`${where}: expected off, on, error, warning, info, or a mapping with enabled and severity`, node)
  const fields = entries(node, ['enabled', 'severity'], fail)
  const setting: RuleSetting = {}
  const enabled = fields.get('enabled')
  if (enabled) {
    const v = enabled.value as Node
    if (!isScalar(v) || typeof v.value !== 'boolean') return fail(`${where}.enabled: expected true or false`, v)
    setting.enabled = v.value
  }
  const sev = fields.get('severity')
  if (sev) setting.severity = severity(sev.value as Node, `${where}.severity`, fail)
  return setting
}
