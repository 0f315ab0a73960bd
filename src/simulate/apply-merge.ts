// `kubectl apply` (client-side) as a pure function: the strategic merge patch kubectl computes from
// the last-applied configuration, the new manifest and the live object, and the object the API
// server stores after applying it. The two halves follow k8s.io/apimachinery's strategicpatch
// package (CreateThreeWayMergePatch builds the patch; StrategicMergeMapPatch applies it) and
// kubectl's apply command (Patcher.patchSimple, util.GetModifiedConfiguration), rule for rule:
//
// - the patch is the change from the live object to the manifest with nothing deleted (the delta:
//   fields set by others stay), merged with what the manifest dropped since the last apply (the
//   deletions, read from the kubectl.kubernetes.io/last-applied-configuration annotation; without
//   it there are none: a two-way merge);
// - maps merge key by key; lists are replaced whole unless the field's patch strategy says merge:
//   then items are matched by their merge key (containers by name, ports by containerPort, ...),
//   merged item by item, removed items get a `$patch: delete` item, and `$setElementOrder` keeps the
//   manifest's order; lists of scalars with the merge strategy (finalizers) get a parallel
//   `$deleteFromPrimitiveList`;
// - a field with the retainKeys strategy (a Deployment's strategy, each volume) clears on the
//   server the keys the manifest no longer names (`$retainKeys`), so switching a Deployment to
//   Recreate drops its rollingUpdate;
// - the manifest is written, without the annotation, as the new annotation (sorted keys, HTML
//   characters escaped, a final newline, as Go's JSON encoder writes it).
//
// The patch strategies are those of the Go types of the kinds kctl applies, from k8s.io/api's
// struct tags: each controller's simulate part gives its kinds' (`manifests`, built of
// patch-strategies.ts), and patchStrategy finds them.
// What the API server does after the merge (defaults, status kept, generation) is the caller's.

import {deepEqual} from '../reconcile/deep-equal.js'
import {manifestKind, simulationOf} from './controllers.js'
import {type FieldStrategy, goJson, isMap, MergeError, strategicMergePatch, threeWayMergePatch} from './strategic-merge.js'

// The merge itself (strategicpatch's rules, Go's JSON encoder): strategic-merge.ts.
export {goJson, MergeError, strategicMergePatch, threeWayMergePatch} from './strategic-merge.js'

type Obj = Record<string, any>

/** The patch strategy of a kind kctl applies (its Go type's struct tags); undefined for any other kind. */
export function patchStrategy(kind: string): FieldStrategy | undefined {
  return manifestKind(kind)?.patchStrategy
}

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'


export interface KubectlApply {
  /** The object after the merge, as the API server would store it before its own rules (defaults, status, generation). */
  object: Obj
  /** The strategic merge patch kubectl sends; absent when the object is created. */
  patch?: Obj
  /** Whether the live object had a last-applied annotation (a three-way merge) or not (two-way). */
  threeWay: boolean
}

/**
 * `kubectl apply -f manifest` onto `live` (undefined: the object is created, the annotation set).
 * `namespace` is written into a manifest that names none, as kubectl's resource builder does.
 */
export function kubectlApply(manifest: Obj, live: Obj | undefined, namespace: string): KubectlApply {
  const modified = withLastApplied(manifest, namespace)
  const strategy = patchStrategy(String(manifest.kind))
  if (!live) return {object: modified, threeWay: false}
  const original = lastApplied(live)
  const patch = threeWayMergePatch(original, modified, live, strategy)
  return {object: strategicMergePatch(live, patch, strategy), patch, threeWay: original !== undefined}
}

/** What the API server makes of an update: the object it stores, and whether the spec changed. */
export interface StoredUpdate {
  object: Obj
  /** Anything differs from the live object (else nothing is written). */
  changed: boolean
  specChanged: boolean
}

/**
 * An updated object as the API server stores it (the registries' PrepareForUpdate): its own
 * metadata and the status as they were, the generation raised when the spec changed (for a
 * Deployment, its annotations too: they are copied to its ReplicaSets). The resourceVersion is the
 * caller's to move.
 */
export function storedUpdate(live: Obj, merged: Obj): StoredUpdate {
  const meta: Obj = live.metadata ?? {}
  const object: Obj = {...merged, metadata: {...merged.metadata}}
  for (const k of SERVER_METADATA) {
    if (meta[k] === undefined) delete object.metadata[k]
    else object.metadata[k] = meta[k]
  }
  if (live.status === undefined) delete object.status
  else object.status = live.status
  const specChanged = !deepEqual(object.spec ?? {}, live.spec ?? {})
  const annotationsChanged = !deepEqual(object.metadata.annotations ?? {}, meta.annotations ?? {})
  if (specChanged || (annotationsChanged && simulationOf(String(live.kind))?.annotationsRaiseGeneration)) object.metadata.generation = Number(meta.generation ?? 1) + 1
  return {object, changed: !deepEqual(object, live), specChanged}
}

const SERVER_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields']

/**
 * The manifest as kubectl sends it (util.GetModifiedConfiguration): the namespace filled in, and
 * the manifest itself, without the annotation, as the last-applied annotation.
 */
export function withLastApplied(manifest: Obj, namespace: string): Obj {
  const metadata: Obj = {...manifest.metadata}
  if (typeof metadata.namespace !== 'string' || metadata.namespace === '') metadata.namespace = namespace
  // kubectl sets the annotations it read back, so a manifest without any records `annotations: {}`.
  const annotations: Obj = {...metadata.annotations}
  delete annotations[LAST_APPLIED]
  const text = goJson({...manifest, metadata: {...metadata, annotations}})
  return {...manifest, metadata: {...metadata, annotations: {...annotations, [LAST_APPLIED]: text}}}
}

/** The live object's last-applied configuration (util.GetOriginalConfiguration); undefined when it has none. */
export function lastApplied(live: Obj): Obj | undefined {
  const text = live.metadata?.annotations?.[LAST_APPLIED]
  if (typeof text !== 'string' || text === '') return undefined
  try {
    const parsed = JSON.parse(text)
    if (isMap(parsed)) return parsed
  } catch {
    // reported below
  }
  throw new MergeError(`the ${LAST_APPLIED} annotation is not a JSON object`, ['metadata', 'annotations', LAST_APPLIED], false)
}
