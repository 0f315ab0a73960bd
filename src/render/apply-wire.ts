// The versioned wire form (`kctl/v1alpha1`) of an ApplyReport, built in this one place. Keys come
// out in a fixed order; a result's `predicted` is the plan's action exactly as `kctl plan -o json`
// prints it, so the two documents can be joined.
import type {ActionError, ActionResult, ApplyReport, ControllerOutcome} from '../model/apply.js'
import type {ControllerPlan, PlanSummary, ReconcilePlan} from '../model/plan.js'
import {actionToWire, status as controllerStatus} from './wire.js'

type Json = null | boolean | number | string | Json[] | {[key: string]: Json}
type JsonObject = {[key: string]: Json}

/** Drops undefined fields (JSON has no undefined) and keeps the given order. */
function obj(entries: Array<[string, Json | undefined]>): JsonObject {
  const out: JsonObject = {}
  for (const [k, v] of entries) if (v !== undefined) out[k] = v
  return out
}

const planSummary = (s: PlanSummary): Json =>
  obj([
    ['controllers', s.controllers],
    ['inSync', s.inSync],
    ['create', s.create],
    ['delete', s.delete],
    ['adopt', s.adopt],
    ['release', s.release],
    ['updateStatus', s.updateStatus],
    ['pending', s.pending],
    ['createReplicaSet', s.createReplicaSet],
    ['scaleReplicaSet', s.scaleReplicaSet],
    ['deleteReplicaSet', s.deleteReplicaSet],
    ['adoptReplicaSet', s.adoptReplicaSet],
    ['releaseReplicaSet', s.releaseReplicaSet],
    ['updateReplicaSet', s.updateReplicaSet],
    ['rollback', s.rollback],
    ['updatePod', s.updatePod],
    ['createClaim', s.createClaim],
    ['updateClaim', s.updateClaim],
    ['chooseDaemonPods', s.chooseDaemonPods],
    ['createControllerRevision', s.createControllerRevision],
    ['updateControllerRevision', s.updateControllerRevision],
    ['deleteControllerRevision', s.deleteControllerRevision],
    ['adoptControllerRevision', s.adoptControllerRevision],
    ['releaseControllerRevision', s.releaseControllerRevision],
    ['createJob', s.createJob],
    ['deleteJob', s.deleteJob],
    ['removeFinalizer', s.removeFinalizer],
    ['scaleTarget', s.scaleTarget],
    ['updateHpaStatus', s.updateHpaStatus],
  ])

const error = (e: ActionError | undefined): Json | undefined =>
  e ? obj([['code', e.code], ['reason', e.reason], ['message', e.message], ['causes', e.causes ? [...e.causes] : undefined]]) : undefined

const statusView = (s: NonNullable<NonNullable<ActionResult['done']>['status']>): Json =>
  'updatedReplicas' in s || 'numberReady' in s || !('replicas' in s) ? controllerStatus(s) : obj([
    ['replicas', s.replicas],
    ['fullyLabeledReplicas', s.fullyLabeledReplicas],
    ['readyReplicas', s.readyReplicas],
    ['availableReplicas', s.availableReplicas],
    ['terminatingReplicas', s.terminatingReplicas],
    ['observedGeneration', s.observedGeneration],
    ['conditions', s.conditions ? (JSON.parse(JSON.stringify(s.conditions)) as Json) : undefined],
  ])

function result(r: ActionResult, plans: Map<string, {cp: ControllerPlan; now: string}>): Json {
  const planned = plans.get(`${r.round}/${r.controller.uid}/${r.controller.kind}/${r.controller.namespace}/${r.controller.name}`)
  const done = r.done
    ? obj([
        ['name', r.done.name],
        ['uid', r.done.uid],
        ['alreadyGone', r.done.alreadyGone],
        ['namespaceTerminating', r.done.namespaceTerminating],
        ['alreadyExists', r.done.alreadyExists],
        ['status', r.done.status ? statusView(r.done.status) : undefined],
        ['resourceVersion', r.done.resourceVersion],
        ['chosen', r.done.chosen ? [...r.done.chosen] : undefined],
        ['names', r.done.names ? [...r.done.names] : undefined],
        ['loadBalancer', r.done.loadBalancer ? (JSON.parse(JSON.stringify(r.done.loadBalancer)) as Json) : undefined],
        ['implementedElsewhere', r.done.implementedElsewhere],
        ['existed', r.done.existed],
        ['unchanged', r.done.unchanged],
      ])
    : undefined
  return obj([
    ['round', r.round],
    ['controller', obj([['kind', r.controller.kind], ['namespace', r.controller.namespace], ['name', r.controller.name], ['uid', r.controller.uid]])],
    ['action', r.action],
    ['pod', r.pod],
    ['replicaSet', r.replicaSet],
    ['outcome', r.outcome],
    ['batch', r.batch],
    ['error', error(r.error)],
    ['conflict', r.conflict],
    ['skipReason', r.skipReason],
    ['done', done],
    ['predicted', r.predicted ? (planned ? actionToWire(r.predicted, planned.cp, planned.now) : (JSON.parse(JSON.stringify(r.predicted)) as Json)) : null],
  ])
}

const controller = (c: ControllerOutcome): Json =>
  obj([
    ['round', c.round],
    ['kind', c.controller.kind],
    ['apiVersion', c.controller.apiVersion],
    ['namespace', c.controller.namespace],
    ['name', c.controller.name],
    ['uid', c.controller.uid],
    ['actions', c.actions],
    ['ok', c.ok],
    ['failed', c.failed],
    ['skipped', c.skipped],
    ['batches', c.batches],
    ['stopped', c.stopped],
    ['error', error(c.error)],
    ['warnings', c.warnings ? [...c.warnings] : undefined],
  ])

function planIndex(report: ApplyReport): Map<string, {cp: ControllerPlan; now: string}> {
  const index = new Map<string, {cp: ControllerPlan; now: string}>()
  for (const round of report.rounds) {
    const plan: ReconcilePlan | undefined = round.plan
    for (const cp of plan?.controllers ?? []) index.set(`${round.round}/${cp.uid}/${cp.kind}/${cp.namespace}/${cp.name}`, {cp, now: plan!.now})
  }
  return index
}

/** `kctl reconcile -o json|yaml`: the ApplyReport document. */
export function applyReportToWire(report: ApplyReport): Json {
  const plans = planIndex(report)
  const s = report.summary
  const source = report.source.type === 'cluster'
    ? obj([['type', 'cluster'], ['context', report.source.context], ['server', report.source.server]])
    : obj([['type', 'fixtures'], ['paths', [...report.source.paths]]])
  return obj([
    ['apiVersion', report.apiVersion],
    ['kind', report.kind],
    ['mode', report.mode],
    ['source', source],
    ['plan', obj([['origin', report.plan.origin], ['file', report.plan.file], ['replanned', report.plan.replanned], ['now', report.plan.now], ['summary', planSummary(report.plan.summary)]])],
    ['outcome', report.outcome],
    ['refusal', report.refusal ? obj([['reason', report.refusal.reason], ['message', report.refusal.message], ['details', [...report.refusal.details]]]) : undefined],
    ['converged', report.converged],
    ['changesPending', report.changesPending],
    [
      'summary',
      obj([
        ['actions', s.actions],
        ['ok', s.ok],
        ['failed', s.failed],
        ['skipped', s.skipped],
        ['rounds', s.rounds],
        ['byAction', obj(Object.entries(s.byAction).map(([k, t]) => [k, obj([['planned', t.planned], ['ok', t.ok], ['failed', t.failed], ['skipped', t.skipped]])]))],
      ]),
    ],
    ['rounds', report.rounds.map((r) => obj([['round', r.round], ['now', r.now], ['inSync', r.inSync], ['summary', planSummary(r.summary)], ['durationMs', r.durationMs]]))],
    ['controllers', report.controllers.map((c) => controller(c))],
    ['results', report.results.map((r) => result(r, plans))],
    ['out', report.out],
    ['notes', [...report.notes]],
  ])
}
