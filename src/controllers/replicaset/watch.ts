// Watch mode for ReplicaSets and ReplicationControllers: planned object by object by the
// incremental planner (reconcile/incremental.ts), whose pod lookups and ReplicaSet groups follow
// the event handlers of docs/replicaset-controller.md §1.6. What the watch cache keeps of them: a
// ReplicaSet keeps its annotations and its template as the server stores it (the Deployment
// planner compares templates and reads the revision annotations); a ReplicationController neither
// its annotations nor its template's spec (watch never creates pods).
import type {PodTemplateView, Workload} from '../../model/objects.js'
import {deepFreeze, EMPTY, type Interner, isMap, normalizeStripped, type NormalizeResult, pick, stripMeta} from '../../watch/objects.js'
import type {ObjectWatchPart} from '../../watch/part.js'
import type {RawObject} from '../../watch/reflector.js'
import {contestedAdoptions, planController} from './sync.js'

type SetKind = 'ReplicaSet' | 'ReplicationController'

const API_VERSIONS: Record<SetKind, string> = {ReplicaSet: 'apps/v1', ReplicationController: 'v1'}

/** Normalizes raw ReplicaSets or ReplicationControllers through the Normalizer; what the cache keeps. */
export function normalizeWorkloads(kind: SetKind, raws: readonly RawObject[], interner: Interner): NormalizeResult<Workload> {
  const {snapshot, problems} = normalizeStripped(kind, raws.map((raw) => stripWorkload(kind, raw)))
  return {objects: [...snapshot.workloads].map((w) => compactWorkload(w, interner)), problems}
}

export const replicaSetWatch: ObjectWatchPart = {
  by: 'object',
  resources: [
    {resource: 'replicasets', kind: 'ReplicaSet', normalize: (raws, interner) => normalizeWorkloads('ReplicaSet', raws, interner)},
    {resource: 'replicationcontrollers', kind: 'ReplicationController', normalize: (raws, interner) => normalizeWorkloads('ReplicationController', raws, interner)},
  ],
  feed: (engine) => engine.workloadHandler,
  // A ReplicaSet is grouped with its siblings under its controller owner (a Deployment), which
  // reads them all; a ReplicationController has no such owner.
  groupedByOwner: (w) => w.kind === 'ReplicaSet',
  planObject: planController,
  adoptionWarnings: contestedAdoptions,
  planned: (s) => s.workloads.length,
}

function compactWorkload(w: Workload, interner: Interner): Workload {
  const replicaSet = w.kind === 'ReplicaSet'
  const template: PodTemplateView = {
    labels: interner.labels(w.template.labels),
    annotations: interner.labels(w.template.annotations),
    finalizers: [...w.template.finalizers],
    spec: EMPTY,
  }
  const out: Workload = {
    kind: w.kind,
    apiVersion: w.apiVersion,
    namespace: interner.string(w.namespace),
    name: w.name,
    uid: w.uid,
    resourceVersion: w.resourceVersion,
    generation: w.generation,
    labels: interner.labels(w.labels),
    annotations: replicaSet ? interner.labels(w.annotations) : EMPTY,
    ownerReferences: w.ownerReferences.map((r) => ({...r})),
    creationTimestamp: w.creationTimestamp,
    deletionTimestamp: w.deletionTimestamp,
    replicas: w.replicas,
    minReadySeconds: w.minReadySeconds,
    selector: w.selector,
    template,
    status: {...w.status, conditions: w.status.conditions.map((c) => ({...c}))},
  }
  if (replicaSet && w.rawTemplate !== undefined) out.rawTemplate = w.rawTemplate
  if (w.selectorDefaulted !== undefined) out.selectorDefaulted = w.selectorDefaulted
  if (w.deletionTimestamp === undefined) delete out.deletionTimestamp
  if (w.creationTimestamp === undefined) delete out.creationTimestamp
  return deepFreeze(out)
}

function stripWorkload(kind: SetKind, raw: RawObject): RawObject {
  const out: RawObject = {apiVersion: raw.apiVersion ?? API_VERSIONS[kind], kind: raw.kind ?? kind, metadata: stripMeta(raw.metadata, kind === 'ReplicaSet' || undefined)}
  const spec = raw.spec
  if (isMap(spec)) {
    const s = pick(spec, ['replicas', 'minReadySeconds', 'selector'])!
    const t = spec.template
    if (isMap(t) && kind !== 'ReplicaSet') s.template = {metadata: pick(t.metadata, ['labels', 'annotations', 'finalizers'])}
    else if (t !== undefined) s.template = t
    out.spec = s
  } else if (spec !== undefined) out.spec = spec
  if (raw.status !== undefined) out.status = raw.status
  return out
}
