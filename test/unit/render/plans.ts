// Hand-built ReconcilePlan values for renderer tests: renderers are pure functions of the plan,
// so they are tested without the planner.
import type {OwnerReference} from '../../../src/model/objects.js'
import {
  type Action,
  type ControllerPlan,
  DEFAULT_FEATURE_GATES,
  type DeleteAction,
  type PlanSummary,
  type RankFacts,
  type ReconcilePlan,
  type StatusView,
} from '../../../src/model/plan.js'

export const NOW = '2026-11-22T10:00:00Z'

export function status(over: Partial<StatusView> = {}): StatusView {
  return {replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1, conditions: [], ...over}
}

export function facts(over: Partial<RankFacts> = {}): RankFacts {
  return {nodeName: 'node-1', phase: 'Running', ready: true, deletionCost: 0, colocationRank: 0, restarts: 0, sidecarRestarts: 0, ...over}
}

export function del(pod: string, decidedBy: DeleteAction['decidedBy'], over: Partial<DeleteAction> = {}): DeleteAction {
  return {type: 'delete', pod, uid: `uid-${pod}`, resourceVersion: '100', decidedBy, facts: facts(), ...over}
}

export function owner(name: string, kind = 'ReplicaSet'): OwnerReference {
  return {apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1', kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true}
}

export function create(name: string, over: Partial<Action> = {}): Action {
  return {
    type: 'create',
    generateName: `${name}-`,
    nameBase: `${name}-`.slice(0, 58),
    labels: {app: name},
    annotations: {},
    finalizers: [],
    ownerReference: owner(name),
    ...over,
  } as Action
}

export function controller(name: string, over: Partial<ControllerPlan> = {}): ControllerPlan {
  const actions = over.actions ?? []
  return {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    namespace: 'default',
    name,
    uid: `uid-${name}`,
    resourceVersion: '10',
    desired: 3,
    active: 3,
    diff: 0,
    actions,
    pending: 0,
    status: status({replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3}),
    warnings: [],
    inSync: actions.length === 0 && (over.pending ?? 0) === 0,
    ...over,
  }
}

export function plan(controllers: ControllerPlan[], over: Partial<ReconcilePlan> = {}): ReconcilePlan {
  const summary: PlanSummary = {controllers: controllers.length, inSync: 0, create: 0, delete: 0, adopt: 0, release: 0, updateStatus: 0, pending: 0}
  for (const c of controllers) {
    if (c.inSync) summary.inSync++
    summary.pending += c.pending
    for (const a of c.actions) summary[a.type]++
  }
  return {
    apiVersion: 'kctl/v1alpha1',
    kind: 'ReconcilePlan',
    now: NOW,
    source: {type: 'fixtures', paths: ['examples/x']},
    controllers,
    summary,
    ignored: {},
    options: {now: NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500},
    ...over,
  }
}
