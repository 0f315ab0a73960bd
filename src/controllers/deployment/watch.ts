// Watch mode for Deployments: planned object by object by the incremental planner
// (reconcile/incremental.ts), from the ReplicaSets of their namespace it keeps grouped by owner.
// A Deployment is kept whole but for managedFields: the Deployment planner compares templates and
// reads the revision annotations.
import type {DeploymentView} from '../../model/objects.js'
import {planController} from '../replicaset/sync.js'
import {deepFreeze, isMap, normalizeStripped, type NormalizeResult, stripMeta} from '../../watch/objects.js'
import type {ObjectWatchPart} from '../../watch/part.js'
import type {RawObject} from '../../watch/reflector.js'
import {planDeployments} from './planner.js'

const API_VERSION = 'apps/v1'

/** Normalizes raw Deployments through the Normalizer; what the cache keeps. */
export function normalizeDeployments(raws: readonly RawObject[]): NormalizeResult<DeploymentView> {
  const {snapshot, problems} = normalizeStripped('Deployment', raws.map(stripDeployment))
  return {objects: (snapshot.deployments ?? []).map((d) => deepFreeze({...d})), problems}
}

export const deploymentWatch: ObjectWatchPart = {
  by: 'object',
  resources: [{resource: 'deployments', kind: 'Deployment', normalize: normalizeDeployments}],
  // An identity that may not list Deployments still watches its ReplicaSets (as kctl plan reads them).
  requires: ['deployments'],
  feed: (engine) => engine.deploymentHandler,
  // One Deployment's next sync, through the same planDeployments planSnapshot uses.
  planOwner: (deployment, replicaSets, world) => planDeployments([deployment], replicaSets, world, planController)[0],
  planned: (s) => s.deployments?.length ?? 0,
}

function stripDeployment(raw: RawObject): RawObject {
  const out: RawObject = {...raw, apiVersion: raw.apiVersion ?? API_VERSION, kind: raw.kind ?? 'Deployment', metadata: stripMeta(raw.metadata, true)}
  if (isMap(raw.metadata) && raw.metadata.finalizers !== undefined) (out.metadata as RawObject).finalizers = raw.metadata.finalizers
  return out
}

