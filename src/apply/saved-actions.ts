// What the controllers' checks of a saved plan's actions share (apply/saved-plan.ts reads the plan;
// each controller's part checks its own actions): a table of the fields each action type must carry.
import type {UserError} from '../errors.js'
import type {Action} from '../model/plan.js'

type Obj = Record<string, any>

export type Fail = (where: string, what: string) => UserError

export type Fields = {strings?: string[]; numbers?: string[]; mappings?: string[]; lists?: string[]}

/** The action's type is one of `table`, and the fields it names have their types. */
export function checkedAction(a: unknown, at: string, fail: Fail, table: Record<string, Fields>): Action & Obj {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const fields = typeof a.type === 'string' ? table[a.type] : undefined
  if (!fields) throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  for (const f of fields.strings ?? []) if (typeof a[f] !== 'string') throw fail(`${at}.${f}`, 'expected a string')
  for (const f of fields.numbers ?? []) if (typeof a[f] !== 'number') throw fail(`${at}.${f}`, 'expected a number')
  for (const f of fields.mappings ?? []) if (!isObj(a[f])) throw fail(`${at}.${f}`, 'expected a mapping')
  for (const f of fields.lists ?? []) if (!Array.isArray(a[f])) throw fail(`${at}.${f}`, 'expected a list')
  return {...a} as Action & Obj
}

/** What the executor sends for the writes every revisioned workload (StatefulSet, DaemonSet) makes: its pods' claims, its ControllerRevisions, its status. */
export const REVISIONED_FIELDS: Record<string, Fields> = {
  adopt: {strings: ['pod', 'uid', 'resourceVersion']},
  release: {strings: ['pod', 'uid', 'resourceVersion']},
  createControllerRevision: {numbers: ['revision'], mappings: ['labels', 'ownerReference']},
  updateControllerRevision: {strings: ['name', 'uid', 'resourceVersion'], numbers: ['from', 'to']},
  deleteControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  adoptControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  releaseControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  updateStatus: {mappings: ['from', 'to']},
}

/** A revisioned workload's write (`table`: its fields), as `kctl plan -o json` prints it. */
export function revisionedAction(raw: unknown, at: string, fail: Fail, table: Record<string, Fields>): Action & Obj {
  const a = checkedAction(raw, at, fail, table)
  if (a.type === 'createControllerRevision' && a.name !== null && typeof a.name !== 'string') throw fail(`${at}.name`, 'expected a string or null')
  return a
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
