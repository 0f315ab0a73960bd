// The per-object escape hatch: `kctl.io/ignore: "overlapping-selectors — canary shares app=web on purpose"`.
// A reason is required; an entry without one (or naming an unknown rule) ignores nothing and is
// itself reported (invalid-ignore).
import {isRuleId, type RuleId} from '../model/check.js'

export const IGNORE_ANNOTATION = 'kctl.io/ignore'

export interface IgnoreEntry {
  rules: RuleId[]
  reason: string
}

const RULE = '[a-z0-9]+(?:-[a-z0-9]+)*'
const ENTRY = new RegExp(`^(${RULE}(?:\\s*,\\s*${RULE})*)(.*)$`, 's')
/** What separates the rules from the reason: an em or en dash, "--", " - " or ":". */
const SEPARATOR = /^\s*(?:—|–|--|:|-(?=\s))\s*/

/** Entries are separated by new lines or ";"; each is `RULE[, RULE...] — reason`. */
export function parseIgnore(value: string): {entries: IgnoreEntry[]; problems: string[]} {
  const entries: IgnoreEntry[] = []
  const problems: string[] = []
  for (const part of value.split(/[\n;]/)) {
    const text = part.trim()
    if (text === '') continue
    const m = ENTRY.exec(text)
    if (!m) {
      problems.push(`cannot read ${JSON.stringify(text)}: write "RULE-ID — reason"`)
      continue
    }
    const ids = m[1].split(',').map((s) => s.trim())
    const rest = m[2]
    const sep = SEPARATOR.exec(rest)
    const reason = sep ? rest.slice(sep[0].length).trim() : rest.trim()
    if (!sep && rest.trim() !== '') {
      problems.push(`cannot read ${JSON.stringify(text)}: write "RULE-ID — reason"`)
      continue
    }
    const unknown = ids.filter((id) => !isRuleId(id))
    if (unknown.length > 0) {
      problems.push(`unknown rule ${unknown.map((u) => `"${u}"`).join(', ')} (kctl check --rules lists them)`)
      continue
    }
    if (reason === '') {
      problems.push(`"${ids.join(', ')}" is ignored without a reason: write "${ids.join(', ')} — why this is fine"`)
      continue
    }
    entries.push({rules: ids as RuleId[], reason})
  }
  return {entries, problems}
}

export function ignores(entries: readonly IgnoreEntry[], rule: RuleId): boolean {
  return entries.some((e) => e.rules.includes(rule))
}
