// `kctl check -o markdown`: a pull-request comment. A headline with the counts, a table of the
// findings (most severe first), and the explanation of each rule that fired, folded.
import {severityRank, type CheckReport, type EffectiveRule, type Severity} from '../model/check.js'
import {summaryLine} from './check-text.js'

const ICON: Record<Severity, string> = {error: '🔴', warning: '🟡', info: '🔵'}

/** Text inside a table cell: no line breaks, pipes and markup escaped. */
function cell(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/([\\|*_`<>[\]])/g, '\\$1')
}

function code(s: string): string {
  return `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``
}

export function renderCheckMarkdown(report: CheckReport, rules: readonly EffectiveRule[]): string {
  const out = [`### kctl check: ${summaryLine(report).replace(/^[✓✖!i] /, '')}`, '']
  if (report.findings.length === 0) return `${out.join('\n')}\n`
  const findings = [...report.findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))
  out.push('| Severity | Location | Object | Finding | Rule |', '| --- | --- | --- | --- | --- |')
  for (const f of findings) {
    const object = f.kind ? cell(`${f.kind} ${f.namespace}/${f.name}`) : ''
    out.push(`| ${ICON[f.severity]} ${f.severity} | ${code(`${f.file}:${f.line}:${f.column}`)} | ${object} | ${cell(f.message)} | ${code(f.rule)} |`)
  }
  const fired = rules.filter((r) => report.findings.some((f) => f.rule === r.id))
  out.push('', '<details><summary>About these rules</summary>', '')
  for (const r of fired) out.push(`- **${r.id}**: ${r.summary} ${r.explanation}`)
  out.push('', '</details>')
  return `${out.join('\n')}\n`
}
