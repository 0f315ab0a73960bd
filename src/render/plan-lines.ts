// Pieces of `kctl plan`'s table that several controllers' blocks share: the apply-set note of a
// header, a status write's field changes, indentation of a nested block. No registry here: the
// controller folders' render.ts import this.
import type {ChalkInstance} from 'chalk'
import type {ControllerPlan, StatusView} from '../model/plan.js'

export const indent = (block: string, by: string) => block.split('\n').map((l) => `${by}${l}`).join('\n')

/** Which apply set a controller was read in, when the input held several. */
export function applySetNote(cp: ControllerPlan, c: ChalkInstance): string {
  return cp.applySet === undefined ? '' : `  ${c.dim(`(${cp.applySet === '' ? 'files named with -f' : cp.applySet})`)}`
}

const STATUS_FIELDS = [
  'replicas',
  'fullyLabeledReplicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
  'terminatingReplicas',
  'collisionCount',
  'observedGeneration',
] as const

export function statusChange(from: ControllerPlan['status'], to: ControllerPlan['status']): string {
  const parts: string[] = []
  // StatefulSet and DaemonSet statuses: every field, in the API's order.
  const fields = 'numberReady' in to || 'currentRevision' in to ? Object.keys(to) : STATUS_FIELDS
  for (const field of fields) {
    const a = (from as unknown as Record<string, unknown>)[field]
    const b = (to as unknown as Record<string, unknown>)[field]
    if (a !== b) parts.push(`${field} ${a ?? 'unset'}→${b ?? 'unset'}`)
  }
  type Condition = StatusView['conditions'][number]
  const conditions = (s: ControllerPlan['status']): readonly Condition[] => ('conditions' in s ? s.conditions : [])
  const before = new Map<string, Condition>(conditions(from).map((x: Condition) => [x.type, x]))
  const after = new Map<string, Condition>(conditions(to).map((x: Condition) => [x.type, x]))
  for (const [type, x] of after) {
    const old = before.get(type)
    if (!old || old.status !== x.status || old.reason !== x.reason) {
      parts.push(`condition ${type}=${x.status}${x.reason ? ` (${x.reason})` : ''}`)
    }
  }
  for (const type of before.keys()) if (!after.has(type)) parts.push(`condition ${type} removed`)
  return parts.length > 0 ? parts.join(', ') : 'rewritten with the same values'
}
