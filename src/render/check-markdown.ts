// `kctl check -o markdown`: a pull-request comment. A headline with the counts, a table of the
// findings (most severe first), and the explanation of each rule that fired, folded.
import {objectTitle, severityRank, type CheckReport, type EffectiveRule, type Severity} from '../model/check.js'
import {summaryLine} from './check-text.js'

const ICON: Record<Severity, string> = {error: '🔴', warning: '🟡', info: '🔵'}

/** Text inside a table cell: no line breaks, pipes and markup escaped. */
function cell(s: string): string {
  return s.replace(/\r?\n/g, ' ').replace(/([\\|*_`<>[\]])/g, '\\$1')
}

function code(s: string): string {
  return `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``
}

/** GitHub refuses a pull-request comment over 65,536 characters; this leaves room for a wrapper. */
export const MARKDOWN_LIMIT = 65_000

export function renderCheckMarkdown(report: CheckReport, rules: readonly EffectiveRule[], limit = MARKDOWN_LIMIT): string {
  const head = [`### kctl check: ${summaryLine(report).replace(/^[✓✖!i] /, '')}`, '']
  if (report.findings.length === 0) return `${head.join('\n')}\n`
  const findings = [...report.findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity))
  const fired = rules.filter((r) => report.findings.some((f) => f.rule === r.id))
  const about = ['', '<details><summary>About these rules</summary>', '', ...fired.map((r) => `- **${r.id}**: ${r.summary} ${r.explanation}`), '', '</details>']
  const rows = ['| Severity | Location | Object | Finding | Rule |', '| --- | --- | --- | --- | --- |']
  // Rows are added, most severe first, while the whole comment stays under the limit; the rest
  // are counted by severity in one line after the table.
  const MORE_LINE_ROOM = 200
  let size = [...head, ...rows, ...about].reduce((n, l) => n + l.length + 1, 0) + MORE_LINE_ROOM
  let shown = 0
  for (const f of findings) {
    const object = f.kind ? cell(objectTitle(f)) : ''
    const row = `| ${ICON[f.severity]} ${f.severity} | ${code(`${f.file}:${f.line}:${f.column}`)} | ${object} | ${cell(f.message)} | ${code(f.rule)} |`
    if (size + row.length + 1 > limit) break
    rows.push(row)
    size += row.length + 1
    shown++
  }
  if (shown < findings.length) {
    const rest = findings.slice(shown)
    const counts = (['error', 'warning', 'info'] as const).map((sev) => [sev, rest.filter((f) => f.severity === sev).length] as const).filter(([, n]) => n > 0)
    rows.push('', `…and ${rest.length} more finding${rest.length === 1 ? '' : 's'} (${counts.map(([sev, n]) => `${n} ${sev}`).join(', ')}) not shown here: run \`kctl check\` for all of them.`)
  }
  return `${[...head, ...rows, ...about].join('\n')}\n`
}
