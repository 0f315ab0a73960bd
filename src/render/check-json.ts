// `kctl check -o json`: the CheckReport wire document (docs/output.md), keys in a fixed
// order (the contract's first), so the same report is always the same bytes. Also the JSON of
// `kctl check --rules -o json`.
import {CHECK_API_VERSION, CHECK_RULES_KIND, type CheckReport, type EffectiveRule, type Finding, type RelatedLocation} from '../model/check.js'

const relatedToWire = (r: RelatedLocation) => ({file: r.file, line: r.line, column: r.column, kind: r.kind, namespace: r.namespace, name: r.name, message: r.message})

export function findingToWire(f: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = {
    rule: f.rule,
    severity: f.severity,
    file: f.file,
    line: f.line,
    column: f.column,
    kind: f.kind,
    namespace: f.namespace,
    name: f.name,
    message: f.message,
  }
  if (f.field !== undefined) out.field = f.field
  if (f.related && f.related.length > 0) out.related = f.related.map(relatedToWire)
  return out
}

export function checkReportToWire(report: CheckReport): Record<string, unknown> {
  const s = report.summary
  const o = report.options
  const options: Record<string, unknown> = {failOn: o.failOn, k8sVersion: o.k8sVersion}
  if (o.against) options.against = o.against.type === 'directory' ? {type: 'directory', path: o.against.path} : {type: 'cluster', context: o.against.context, server: o.against.server}
  if (o.baseline !== undefined) options.baseline = o.baseline
  return {
    apiVersion: report.apiVersion,
    kind: report.kind,
    findings: report.findings.map(findingToWire),
    summary: {files: s.files, objects: s.objects, error: s.error, warning: s.warning, info: s.info, suppressed: s.suppressed, baselined: s.baselined},
    options,
  }
}

export function renderCheckJson(report: CheckReport): string {
  return `${JSON.stringify(checkReportToWire(report), null, 2)}\n`
}

export function rulesToWire(rules: readonly EffectiveRule[]): Record<string, unknown> {
  return {
    apiVersion: CHECK_API_VERSION,
    kind: CHECK_RULES_KIND,
    rules: rules.map((r) => {
      const out: Record<string, unknown> = {id: r.id, severity: r.configuredSeverity ?? r.severity, defaultSeverity: r.severity, enabled: r.enabled}
      if (r.severities) out.otherSeverities = r.severities
      out.summary = r.summary
      out.explanation = r.explanation
      out.kinds = [...r.kinds]
      out.configurable = r.configurable
      return out
    }),
  }
}
