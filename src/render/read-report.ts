// What `plan` and `list` say on stderr about reading the input: the files that could not be read
// (the plan is of the rest), and controllers that -n/-l left out.
import type {ReadError, ReconcilePlan} from '../model/plan.js'

/** At most this many unreadable files are named, one line each; a last line counts the others. */
export const UNREADABLE_SHOWN = 20

/** One line per unreadable input (without the `error: ` prefix), capped with a count. */
export function unreadableLines(errors: readonly ReadError[], shown = UNREADABLE_SHOWN): string[] {
  const lines = errors.slice(0, shown).map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)
  if (errors.length > shown) lines.push(`${errors.length - shown} more file${errors.length - shown === 1 ? '' : 's'} could not be read (-o json lists them all under errors)`)
  return lines
}

/** The flags that filter what is planned, as typed. */
function filterFlags(filter: {namespace?: string; selector?: string}): string {
  return [filter.namespace !== undefined ? `-n ${filter.namespace}` : '', filter.selector !== undefined ? `-l ${filter.selector}` : ''].filter(Boolean).join(' ')
}

/**
 * When nothing was planned: why (every controller read was left out by -n/-l, with how many in
 * which namespaces, or the input held none). Undefined when something was planned.
 */
export function emptyPlanLine(plan: ReconcilePlan, filter: {namespace?: string; selector?: string}): string | undefined {
  if (plan.controllers.length > 0) return undefined
  const left = plan.ignoredByFilter
  if (left && left.controllers > 0) {
    const where = Object.entries(left.namespaces)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([ns, n]) => `${n} in ${ns}`)
      .join(', ')
    return `nothing planned: ${filterFlags(filter) || 'the filters'} left out all ${left.controllers} controller${left.controllers === 1 ? '' : 's'} read (${where})`
  }
  return 'nothing planned: the input holds no controller'
}
