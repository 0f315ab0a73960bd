// Hand-built plans for executor tests: exactly the actions a test names, nothing planned.
import type {
  Action,
  AdoptAction,
  ControllerPlan,
  CreateAction,
  DeleteAction,
  ReconcilePlan,
  ReleaseAction,
  StatusView,
  UpdateStatusAction,
} from '../../../src/model/plan.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {summarize} from '../../../src/reconcile/planner.js'

export const NOW = '2026-11-22T10:00:00Z'

export interface ControllerSpec {
  name?: string
  namespace?: string
  kind?: 'ReplicaSet' | 'ReplicationController'
  uid?: string
  resourceVersion?: string
  desired?: number
  active?: number
  actions: Action[]
  status?: StatusView
}

export function controller(spec: ControllerSpec): ControllerPlan {
  const kind = spec.kind ?? 'ReplicaSet'
  const desired = spec.desired ?? 3
  const active = spec.active ?? 3
  return {
    kind,
    apiVersion: kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
    namespace: spec.namespace ?? 'ns',
    name: spec.name ?? 'web',
    uid: spec.uid ?? `uid-${spec.name ?? 'web'}`,
    resourceVersion: spec.resourceVersion ?? '10',
    desired,
    active,
    diff: active - desired,
    actions: spec.actions,
    pending: 0,
    status: spec.status ?? status({replicas: active}),
    warnings: [],
    inSync: spec.actions.length === 0,
  }
}

export function planOf(...controllers: ControllerPlan[]): ReconcilePlan {
  return {
    apiVersion: 'kctl/v1alpha1',
    kind: 'ReconcilePlan',
    now: NOW,
    source: {type: 'cluster', context: 'test', server: 'https://127.0.0.1:6443'},
    controllers,
    summary: summarize(controllers),
    ignored: {},
    options: {now: NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500},
  }
}

export function creates(n: number, controllerName = 'web', uid = `uid-${controllerName}`, over: Partial<CreateAction> = {}): CreateAction[] {
  return Array.from({length: n}, () => ({
    type: 'create' as const,
    generateName: `${controllerName}-`,
    nameBase: `${controllerName}-`,
    labels: {app: controllerName},
    annotations: {},
    finalizers: [],
    ownerReference: {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: controllerName, uid, controller: true, blockOwnerDeletion: true},
    ...over,
  }))
}

export function del(pod: string, resourceVersion = '7'): DeleteAction {
  return {
    type: 'delete',
    pod,
    uid: `uid-${pod}`,
    resourceVersion,
    decidedBy: 'unassigned',
    facts: {nodeName: '', phase: 'Pending', ready: false, deletionCost: 0, colocationRank: 0, restarts: 0, sidecarRestarts: 0},
  }
}

export const adopt = (pod: string, resourceVersion = '5'): AdoptAction => ({type: 'adopt', pod, uid: `uid-${pod}`, resourceVersion})
export const release = (pod: string, resourceVersion = '5'): ReleaseAction => ({type: 'release', pod, uid: `uid-${pod}`, resourceVersion})

export function status(over: Partial<StatusView> = {}): StatusView {
  return {replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1, conditions: [], ...over}
}

export const statusWrite = (from: StatusView, to: StatusView): UpdateStatusAction => ({type: 'updateStatus', from, to})

/** getController answers for each controller of the plan, at the version the plan saw. */
export function controllersOf(plan: ReconcilePlan): Record<string, {uid: string; resourceVersion: string}> {
  return Object.fromEntries(plan.controllers.map((c) => [`${c.kind}/${c.namespace}/${c.name}`, {uid: c.uid, resourceVersion: c.resourceVersion}]))
}
