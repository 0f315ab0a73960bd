// `kctl check -o text`: findings grouped by file, one line each (line:column, severity, the
// object, the message, the rule), related places indented below, then one summary line. Colour
// only through the Chalk instance asked for (the caller decides: a terminal, --color, NO_COLOR).
import {Chalk, type ChalkInstance} from 'chalk'

import {objectTitle, type CheckReport, type Finding, type Severity} from '../model/check.js'

export interface TextStyle {
  color: boolean
}

export function renderCheckText(report: CheckReport, style: TextStyle = {color: false}): string {
  const c = new Chalk({level: style.color ? 1 : 0})
  const out: string[] = []
  const groups = new Map<string, Finding[]>()
  for (const f of report.findings) {
    let g = groups.get(f.file)
    if (!g) groups.set(f.file, (g = []))
    g.push(f)
  }
  for (const [file, findings] of groups) {
    out.push(c.underline(file))
    const posWidth = Math.max(...findings.map((f) => `${f.line}:${f.column}`.length))
    const sevWidth = Math.max(...findings.map((f) => f.severity.length))
    for (const f of findings) {
      const pos = `${f.line}:${f.column}`.padEnd(posWidth)
      const object = f.kind ? `${objectTitle(f)}: ` : ''
      out.push(`  ${c.dim(pos)}  ${paint(c, f.severity, f.severity.padEnd(sevWidth))}  ${object}${f.message}  ${c.dim(f.rule)}`)
      for (const r of f.related ?? []) {
        out.push(`  ${' '.repeat(posWidth)}  ${' '.repeat(sevWidth)}  ${c.dim(`↳ ${r.file}:${r.line}:${r.column}: ${r.message}`)}`)
      }
    }
    out.push('')
  }
  out.push(summaryLine(report, c))
  return `${out.join('\n')}\n`
}

function paint(c: ChalkInstance, s: Severity, text: string): string {
  return s === 'error' ? c.red(text) : s === 'warning' ? c.yellow(text) : c.cyan(text)
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function summaryLine(report: CheckReport, c: ChalkInstance = new Chalk({level: 0})): string {
  const s = report.summary
  const scope = `in ${plural(s.objects, 'object')} from ${plural(s.files, 'file')}`
  const extra = [s.suppressed > 0 ? `${s.suppressed} suppressed` : '', s.baselined > 0 ? `${s.baselined} in the baseline` : ''].filter(Boolean)
  const tail = extra.length > 0 ? ` (${extra.join(', ')})` : ''
  const total = s.error + s.warning + s.info
  if (total === 0) return `${c.green('✓')} no findings ${scope}${tail}`
  const parts = [s.error > 0 ? c.red(plural(s.error, 'error')) : '', s.warning > 0 ? c.yellow(plural(s.warning, 'warning')) : '', s.info > 0 ? c.cyan(`${s.info} info`) : '']
  const mark = s.error > 0 ? c.red('✖') : s.warning > 0 ? c.yellow('!') : c.cyan('i')
  return `${mark} ${plural(total, 'finding')} (${parts.filter(Boolean).join(', ')}) ${scope}${tail}`
}
