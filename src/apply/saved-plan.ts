// A plan saved with `kctl plan -o json > plan.json` (or -o yaml), read back for `reconcile --plan`.
// Only what the executor and the staleness check rely on is required; the rest is kept as read.
import {parse as parseYaml} from 'yaml'

import {UserError} from '../errors.js'
import {DEFAULT_FEATURE_GATES, PLAN_API_VERSION, type Action, type ControllerPlan, type ReconcilePlan} from '../model/plan.js'
import {summarize} from '../reconcile/planner.js'

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

type Fail = (where: string, what: string) => UserError

function controller(c: unknown, at: string, fail: Fail): ControllerPlan {
  if (!isObj(c)) throw fail(at, 'expected a mapping')
  if (!['ReplicaSet', 'ReplicationController', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Service'].includes(c.kind)) {
    throw fail(`${at}.kind`, `expected ReplicaSet, ReplicationController, Deployment, StatefulSet, DaemonSet, Job, CronJob or Service, got ${String(c.kind)}`)
  }
  for (const f of ['apiVersion', 'namespace', 'name', 'uid', 'resourceVersion']) if (typeof c[f] !== 'string') throw fail(`${at}.${f}`, 'expected a string')
  for (const f of ['desired', 'active', 'diff', 'pending']) if (typeof c[f] !== 'number') throw fail(`${at}.${f}`, 'expected a number')
  if (!isObj(c.status)) throw fail(`${at}.status`, 'expected a mapping')
  if (!Array.isArray(c.actions)) throw fail(`${at}.actions`, 'expected a list')
  const parse = c.kind === 'Deployment' ? deploymentAction : c.kind === 'StatefulSet' || c.kind === 'DaemonSet' ? workloadAction : c.kind === 'Job' || c.kind === 'CronJob' ? batchAction : c.kind === 'Service' ? serviceAction : action
  const actions = c.actions.map((a: unknown, j: number) => parse(a, `${at}.actions[${j}]`, fail))
  return {
    ...(c as Obj),
    warnings: Array.isArray(c.warnings) ? c.warnings : [],
    inSync: typeof c.inSync === 'boolean' ? c.inSync : actions.length === 0 && c.pending === 0,
    actions,
  } as ControllerPlan
}

function action(a: unknown, at: string, fail: Fail): Action {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const need = (fields: string[], type: string) => {
    for (const f of fields) if (typeof a[f] !== type) throw fail(`${at}.${f}`, `expected a ${type}`)
  }
  switch (a.type) {
    case 'create':
      need(['generateName'], 'string')
      if (!isObj(a.labels)) throw fail(`${at}.labels`, 'expected a mapping')
      if (!isObj(a.ownerReference) || typeof a.ownerReference.uid !== 'string') throw fail(`${at}.ownerReference`, 'expected the controller reference')
      return {
        ...a,
        nameBase: typeof a.nameBase === 'string' ? a.nameBase : a.generateName.slice(0, 58),
        annotations: isObj(a.annotations) ? a.annotations : {},
        finalizers: Array.isArray(a.finalizers) ? a.finalizers : [],
      } as Action
    case 'delete': {
      need(['pod', 'uid', 'resourceVersion'], 'string')
      if (!isObj(a.facts)) throw fail(`${at}.facts`, 'expected a mapping')
      const {reasons: _worded, ...rest} = a
      return {decidedBy: 'all', ...rest} as Action
    }
    case 'adopt':
    case 'release':
      need(['pod', 'uid', 'resourceVersion'], 'string')
      return {...a} as Action
    case 'updateStatus':
      if (!isObj(a.from) || !isObj(a.to)) throw fail(at, 'expected from and to')
      return {...a} as Action
    default:
      throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  }
}

/** A Deployment's write, as `kctl plan -o json` prints it: what the executor sends is required. */
function deploymentAction(a: unknown, at: string, fail: Fail): Action {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const need = (fields: string[], type: string) => {
    for (const f of fields) if (typeof a[f] !== type) throw fail(`${at}.${f}`, `expected a ${type}`)
  }
  const mapping = (f: string) => {
    if (!isObj(a[f])) throw fail(`${at}.${f}`, 'expected a mapping')
  }
  if (a.conflict !== undefined && a.conflict !== true) throw fail(`${at}.conflict`, 'expected true or nothing')
  switch (a.type) {
    case 'adoptReplicaSet':
    case 'releaseReplicaSet':
    case 'deleteReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      break
    case 'scaleReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      need(['from', 'to'], 'number')
      mapping('annotations')
      break
    case 'updateReplicaSet':
      need(['replicaSet', 'uid', 'resourceVersion'], 'string')
      need(['minReadySeconds'], 'number')
      mapping('annotations')
      break
    case 'createReplicaSet':
      if (a.name !== null) need(['name'], 'string')
      need(['replicas', 'minReadySeconds'], 'number')
      need(['outcome'], 'string')
      for (const f of ['labels', 'selector', 'annotations', 'ownerReference']) mapping(f)
      break
    case 'updateStatus':
      if (!isObj(a.from) || !isObj(a.to) || !Array.isArray(a.to.conditions)) throw fail(at, 'expected from and to (a DeploymentStatus)')
      if (a.revision !== undefined && (!isObj(a.revision) || typeof a.revision.to !== 'string')) throw fail(`${at}.revision`, 'expected {to: string}')
      break
    case 'rollback':
      need(['toRevision', 'outcome'], 'string')
      break
    default:
      throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  }
  return {...a} as Action
}

/** What the executor sends for each StatefulSet or DaemonSet write: required; the rest kept as read. */
const WORKLOAD_FIELDS: Record<string, Fields> = {
  adopt: {strings: ['pod', 'uid', 'resourceVersion']},
  release: {strings: ['pod', 'uid', 'resourceVersion']},
  createControllerRevision: {numbers: ['revision'], mappings: ['labels', 'ownerReference']},
  updateControllerRevision: {strings: ['name', 'uid', 'resourceVersion'], numbers: ['from', 'to']},
  deleteControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  adoptControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  releaseControllerRevision: {strings: ['name', 'uid', 'resourceVersion']},
  createStatefulPod: {strings: ['pod', 'template', 'hostname', 'subdomain'], numbers: ['ordinal'], mappings: ['labels', 'claims', 'ownerReference']},
  deleteStatefulPod: {strings: ['pod', 'uid', 'resourceVersion']},
  updatePod: {strings: ['pod', 'uid', 'resourceVersion'], lists: ['fixes']},
  createClaim: {strings: ['claim', 'template', 'pod'], mappings: ['labels', 'annotations']},
  updateClaim: {strings: ['claim', 'uid', 'resourceVersion'], lists: ['to']},
  createDaemonPod: {strings: ['node', 'generateName'], mappings: ['labels', 'ownerReference'], lists: ['tolerations']},
  deleteDaemonPod: {strings: ['pod', 'uid', 'resourceVersion']},
  chooseDaemonPods: {strings: ['operation'], numbers: ['count'], lists: ['candidates']},
  updateStatus: {mappings: ['from', 'to']},
}

/** What the executor sends for each Service write: required; the rest kept as read. */
const SERVICE_FIELDS: Record<string, Fields> = {
  createEndpointSlice: {strings: ['generateName', 'addressType'], mappings: ['labels', 'ownerReference'], lists: ['ports', 'endpoints']},
  updateEndpointSlice: {strings: ['name', 'uid', 'resourceVersion', 'addressType'], mappings: ['labels'], lists: ['ports', 'endpoints']},
  deleteEndpointSlice: {strings: ['name', 'uid', 'resourceVersion']},
  writeEndpoints: {strings: ['verb', 'name'], mappings: ['labels'], lists: ['subsets']},
  deleteEndpoints: {strings: ['name', 'uid', 'resourceVersion']},
  addLoadBalancerFinalizer: {strings: ['finalizer']},
  removeLoadBalancerFinalizer: {strings: ['finalizer']},
  ensureLoadBalancer: {strings: ['loadBalancer'], lists: ['hosts']},
  updateLoadBalancerHosts: {strings: ['loadBalancer'], lists: ['hosts']},
  ensureLoadBalancerDeleted: {strings: ['loadBalancer']},
  writeLoadBalancerStatus: {strings: ['ingress'], lists: ['from']},
}

/** A Service's write, as `kctl plan -o json` prints it. */
function serviceAction(a: unknown, at: string, fail: Fail): Action {
  return checkedAction(a, at, fail, SERVICE_FIELDS)
}

type Fields = {strings?: string[]; numbers?: string[]; mappings?: string[]; lists?: string[]}

/** The action's type is one of `table`, and the fields it names have their types. */
function checkedAction(a: unknown, at: string, fail: Fail, table: Record<string, Fields>): Action & Obj {
  if (!isObj(a)) throw fail(at, 'expected a mapping')
  const fields = typeof a.type === 'string' ? table[a.type] : undefined
  if (!fields) throw fail(`${at}.type`, `unknown action type ${JSON.stringify(a.type)}`)
  for (const f of fields.strings ?? []) if (typeof a[f] !== 'string') throw fail(`${at}.${f}`, 'expected a string')
  for (const f of fields.numbers ?? []) if (typeof a[f] !== 'number') throw fail(`${at}.${f}`, 'expected a number')
  for (const f of fields.mappings ?? []) if (!isObj(a[f])) throw fail(`${at}.${f}`, 'expected a mapping')
  for (const f of fields.lists ?? []) if (!Array.isArray(a[f])) throw fail(`${at}.${f}`, 'expected a list')
  return {...a} as Action & Obj
}

/** A StatefulSet's or DaemonSet's write, as `kctl plan -o json` prints it. */
function workloadAction(raw: unknown, at: string, fail: Fail): Action {
  const a = checkedAction(raw, at, fail, WORKLOAD_FIELDS)
  if (a.type === 'createControllerRevision' && a.name !== null && typeof a.name !== 'string') throw fail(`${at}.name`, 'expected a string or null')
  if (a.type === 'chooseDaemonPods') {
    const choices = Array.isArray(a.choices) ? a.choices : []
    if (choices.length < (a.count as number)) throw fail(`${at}.choices`, 'expected the candidates\' writes (a plan saved by this version of kctl)')
    return {...a, choices: choices.map((c: unknown, j: number) => workloadAction(c, `${at}.choices[${j}]`, fail))} as Action
  }
  return {...a} as Action
}

/** What the executor sends for each Job or CronJob write: required; the rest kept as read. */
const BATCH_FIELDS: Record<string, Fields> = {
  createJobPod: {strings: ['generateName'], mappings: ['labels', 'annotations', 'ownerReference'], lists: ['finalizers']},
  deleteJobPod: {strings: ['pod', 'uid', 'resourceVersion', 'reason']},
  removeFinalizer: {strings: ['pod', 'uid', 'resourceVersion', 'counts']},
  createJob: {strings: ['name', 'scheduledTime'], mappings: ['labels', 'annotations', 'ownerReference']},
  deleteJob: {strings: ['name', 'uid']},
  updateStatus: {mappings: ['from', 'to']},
}

/** A Job's or CronJob's write, as `kctl plan -o json` prints it. */
function batchAction(raw: unknown, at: string, fail: Fail): Action {
  const a = checkedAction(raw, at, fail, BATCH_FIELDS)
  if (a.type === 'deleteJobPod' && typeof a.finalizerRemovedFirst !== 'boolean') throw fail(`${at}.finalizerRemovedFirst`, 'expected true or false')
  if (a.type === 'updateStatus' && a.write !== undefined && a.write !== 1 && a.write !== 2) throw fail(`${at}.write`, 'expected 1 or 2')
  return a
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
