// Live progress of an apply on a terminal (stderr): one rewritten line with done/total per
// controller still working, and a line kept for each controller when it finishes. Pure: the
// command owns the terminal and the throttling.
import type {ApplyMode, ProgressEvent} from '../model/apply.js'

const label = (e: ProgressEvent) => `${e.controller.kind} ${e.controller.namespace}/${e.controller.name}`

/** The line rewritten in place: the controllers still in progress, cut to `width` columns. */
export function progressLine(mode: ApplyMode, working: readonly ProgressEvent[], width = 100): string {
  const verb = mode === 'apply' ? 'applying' : 'dry run'
  const parts = working.map((e) => `${label(e)} ${e.done}/${e.total}${e.failed > 0 ? ` (${e.failed} failed)` : ''}`)
  const line = `${verb}: ${parts.join(' · ')}`
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line
}

/** The line kept when a controller's sync is over. */
export function finishedLine(mode: ApplyMode, e: ProgressEvent): string {
  const failed = e.failed > 0 ? `, ${e.failed} failed` : ''
  const round = e.round > 1 ? ` (round ${e.round})` : ''
  return `${mode === 'apply' ? 'applied' : 'dry run'}: ${label(e)}${round}: ${e.done}/${e.total} done${failed}`
}
