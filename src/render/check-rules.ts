// `kctl check --rules`: a table of the rules with the settings in force, then each explanation.
import type {EffectiveRule} from '../model/check.js'

const WIDTH = 100

function wrap(text: string, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(indent + line)
  return lines
}

export function renderRulesText(rules: readonly EffectiveRule[]): string {
  const severity = (r: EffectiveRule) => (r.enabled ? (r.configuredSeverity ?? r.severity) : 'off')
  const idWidth = Math.max(4, ...rules.map((r) => r.id.length))
  const sevWidth = Math.max(8, ...rules.map((r) => severity(r).length))
  const out = [`${'RULE'.padEnd(idWidth)}  ${'SEVERITY'.padEnd(sevWidth)}  SUMMARY`]
  for (const r of rules) out.push(`${r.id.padEnd(idWidth)}  ${severity(r).padEnd(sevWidth)}  ${r.summary}`)
  for (const r of rules) {
    out.push('')
    const notes = [r.configuredSeverity && r.configuredSeverity !== r.severity ? `default ${r.severity}` : '', r.severities ?? '', r.enabled ? '' : 'turned off by configuration'].filter(Boolean)
    out.push(`${r.id} (${severity(r)}${notes.length > 0 ? `; ${notes.join('; ')}` : ''})`)
    out.push(...wrap(r.explanation, '  '))
    out.push(...wrap(`Kinds: ${r.kinds.join(', ').replace('*', 'any')}.`, '  '))
  }
  return `${out.join('\n')}\n`
}
