// `kctl check -o sarif`: SARIF 2.1.0 (OASIS), valid against sarif-schema-2.1.0.json: one run,
// tool.driver.rules with every rule, one result per finding with its region (startLine,
// startColumn; columns in UTF-16 code units, as kctl counts them), the object as a logical
// location, related places as relatedLocations, and a fingerprint that ignores line numbers
// (the same identity --baseline uses).
import {createHash} from 'node:crypto'

import {objectTitle, type CheckReport, type EffectiveRule, type Finding, type Severity} from '../model/check.js'

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'

export interface SarifOptions {
  rules: readonly EffectiveRule[]
  /** kctl's version (tool.driver.version). */
  version: string
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {error: 'error', warning: 'warning', info: 'note'}

const pascal = (id: string) => id.replace(/(^|-)([a-z0-9])/g, (_, __, ch: string) => ch.toUpperCase())

/** A file name as a URI reference: relative paths stay relative ("/"-separated, percent-encoded). */
export function fileUri(file: string): string {
  const posix = file.replace(/\\/g, '/')
  if (/^[A-Za-z]:\//.test(posix)) return `file:///${encodeURI(posix)}`
  if (posix.startsWith('/')) return `file://${encodeURI(posix)}`
  return encodeURI(posix).replace(/[?#]/g, (ch) => encodeURIComponent(ch))
}

export function fingerprint(f: Pick<Finding, 'rule' | 'kind' | 'namespace' | 'name' | 'message'>): string {
  return createHash('sha256').update(JSON.stringify([f.rule, f.kind, f.namespace, f.name, f.message])).digest('hex').slice(0, 32)
}

export function renderCheckSarif(report: CheckReport, opts: SarifOptions): string {
  const ruleIndex = new Map(opts.rules.map((r, i) => [r.id, i]))
  const rules = opts.rules.map((r) => ({
    id: r.id,
    name: pascal(r.id),
    shortDescription: {text: r.summary},
    fullDescription: {text: r.explanation},
    help: {text: `${r.summary} ${r.explanation}`, markdown: `**${r.summary}**\n\n${r.explanation}`},
    defaultConfiguration: {enabled: r.enabled, level: LEVEL[r.configuredSeverity ?? r.severity]},
    properties: {tags: ['kubernetes', ...r.kinds.filter((k) => k !== '*')]},
  }))
  const results = report.findings.map((f) => {
    const result: Record<string, unknown> = {
      ruleId: f.rule,
      ruleIndex: ruleIndex.get(f.rule),
      level: LEVEL[f.severity],
      message: {text: f.kind ? `${objectTitle(f)}: ${f.message}` : f.message},
      locations: [
        {
          physicalLocation: {artifactLocation: {uri: fileUri(f.file)}, region: {startLine: f.line, startColumn: f.column}},
          ...(f.kind ? {logicalLocations: [{name: f.name, fullyQualifiedName: [f.namespace, f.kind, f.name].filter(Boolean).join('/'), kind: 'object'}]} : {}),
        },
      ],
      partialFingerprints: {'kctlFinding/v1': fingerprint(f)},
    }
    if (f.related && f.related.length > 0) {
      result.relatedLocations = f.related.map((r, i) => ({
        id: i + 1,
        physicalLocation: {artifactLocation: {uri: fileUri(r.file)}, region: {startLine: r.line, startColumn: r.column}},
        message: {text: `${objectTitle(r)}: ${r.message}`},
      }))
    }
    if (report.options.baseline !== undefined) result.baselineState = 'new'
    return result
  })
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {driver: {name: 'kctl', semanticVersion: opts.version, version: opts.version, rules}},
        invocations: [{executionSuccessful: true}],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  }
  return `${JSON.stringify(sarif, null, 2)}\n`
}
