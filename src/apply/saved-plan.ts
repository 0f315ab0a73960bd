// A plan saved with `kctl plan -o json > plan.json` (or -o yaml), read back for `reconcile --plan`.
// Only what the executor and the staleness check rely on is required; the rest is kept as read.
// Each controller's part checks its own actions (parseAction).
import {parse as parseYaml} from 'yaml'

import {UserError} from '../errors.js'
import {DEFAULT_FEATURE_GATES, PLAN_API_VERSION, type ControllerPlan, type ReconcilePlan} from '../model/plan.js'
import {summarize} from '../reconcile/planner.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {type Fail, isObj} from './saved-actions.js'

type Obj = Record<string, any>

export function parseSavedPlan(text: string, file: string): ReconcilePlan {
  let doc: unknown
  try {
    doc = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, {version: '1.1'})
  } catch (error) {
    throw new UserError(`${file}: not a JSON or YAML document: ${(error as Error).message.split('\n')[0]}`, {hint: 'save a plan with: kctl plan -o json > plan.json'})
  }
  const fail = (where: string, what: string) => new UserError(`${file}: ${where ? `${where}: ` : ''}${what}`, {hint: 'use a plan saved by kctl plan -o json, unedited'})
  if (!isObj(doc)) throw fail('', 'expected a kctl ReconcilePlan document')
  if (doc.apiVersion !== PLAN_API_VERSION || doc.kind !== 'ReconcilePlan') {
    throw fail('', `expected apiVersion ${PLAN_API_VERSION}, kind ReconcilePlan; got ${String(doc.apiVersion)}, ${String(doc.kind)}`)
  }
  if (typeof doc.now !== 'string') throw fail('now', 'missing')
  if (!isObj(doc.source) || (doc.source.type !== 'cluster' && doc.source.type !== 'fixtures')) throw fail('source', 'missing or unknown type')
  if (!Array.isArray(doc.controllers)) throw fail('controllers', 'expected a list')
  const controllers: ControllerPlan[] = doc.controllers.map((c: unknown, i: number) => controller(c, `controllers[${i}]`, fail))
  const options = isObj(doc.options) ? doc.options : {}
  return {
    apiVersion: PLAN_API_VERSION,
    kind: 'ReconcilePlan',
    now: doc.now,
    source: doc.source as ReconcilePlan['source'],
    controllers,
    summary: summarize(controllers),
    ignored: isObj(doc.ignored) ? (doc.ignored as Record<string, number>) : {},
    options: {
      now: typeof options.now === 'string' ? options.now : doc.now,
      featureGates: {...DEFAULT_FEATURE_GATES, ...(isObj(options.featureGates) ? options.featureGates : {})},
      burstReplicas: typeof options.burstReplicas === 'number' ? options.burstReplicas : 500,
    },
  }
}

function controller(c: unknown, at: string, fail: Fail): ControllerPlan {
  if (!isObj(c)) throw fail(at, 'expected a mapping')
  const part = CONTROLLERS.find((d) => d.kinds.includes(c.kind))
  if (!part) {
    const kinds = CONTROLLERS.flatMap((d) => d.kinds)
    throw fail(`${at}.kind`, `expected ${kinds.slice(0, -1).join(', ')} or ${kinds[kinds.length - 1]}, got ${String(c.kind)}`)
  }
  for (const f of ['apiVersion', 'namespace', 'name', 'uid', 'resourceVersion']) if (typeof c[f] !== 'string') throw fail(`${at}.${f}`, 'expected a string')
  for (const f of ['desired', 'active', 'diff', 'pending']) if (typeof c[f] !== 'number') throw fail(`${at}.${f}`, 'expected a number')
  if (!isObj(c.status)) throw fail(`${at}.status`, 'expected a mapping')
  if (!Array.isArray(c.actions)) throw fail(`${at}.actions`, 'expected a list')
  const apply = part.apply
  if (!apply) throw fail(`${at}.kind`, `${String(c.kind)} is planned only: kctl reconcile does not carry out its writes`)
  const actions = c.actions.map((a: unknown, j: number) => apply.parseAction(a, `${at}.actions[${j}]`, fail))
  return {
    ...(c as Obj),
    warnings: Array.isArray(c.warnings) ? c.warnings : [],
    inSync: typeof c.inSync === 'boolean' ? c.inSync : actions.length === 0 && c.pending === 0,
    actions,
  } as ControllerPlan
}
