// Pods → what the watch cache keeps: the Normalizer's PodView cut down to the fields planning
// reads and frozen. A cached pod is a small record of its own strings (name, uid, resourceVersion)
// and shared, frozen values for everything pods repeat (namespace, node, phase, labels, owner
// reference, container statuses, timestamps), so 150,000 pods fit in well under 1 KB each.
//
// A pod keeps what the endpoint controllers read too: its IPs, hostname, subdomain and the named
// ports of its containers and sidecars.
//
// Dropped: managedFields and every field no rule reads — annotations other than
// controller.kubernetes.io/pod-deletion-cost, owner references other than the controller's, pod
// conditions other than Ready, container statuses other than name and restartCount. A controller
// whose sync reads more of some pods says so in its watch part (`podFields`: the Job controller,
// of its pods and of the orphans it may adopt, which keep their annotations whole; the HPA, of
// the pods its targets may select, which keep their requests and start time).
import {CONTROLLERS} from '../controllers/registry.js'
import type {ContainerStatusView, Labels, OwnerReference, PodView} from '../model/objects.js'
import {POD_DELETION_COST} from '../reconcile/pods.js'
import type {WatchedResourcePart} from './part.js'
import {deepFreeze, EMPTY, Interner, isMap, NONE, normalizeStripped, type NormalizeResult, pick, stripMeta} from './objects.js'
import type {RawObject} from './reflector.js'

/** What the endpoint controllers and the Job controller read of a pod, as the PodView holds it. */
type PodNetworkView = NonNullable<PodView['network']>
type ContainerPortView = PodNetworkView['ports'][number]
type PodBatchFields = NonNullable<PodView['batch']>
type PodAutoscalingFields = NonNullable<PodView['autoscaling']>

/** A pod as the watch cache keeps it. */
class CachedPod implements PodView {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly uid: string,
    readonly resourceVersion: string,
    readonly generation: number,
    readonly labels: Labels,
    readonly annotations: Labels,
    readonly ownerReferences: readonly OwnerReference[],
    readonly creationTimestamp: string | undefined,
    readonly deletionTimestamp: string | undefined,
    readonly nodeName: string,
    readonly phase: string,
    readonly ready: boolean,
    readonly readySince: string | undefined,
    readonly containerStatuses: readonly ContainerStatusView[],
    readonly sidecarStatuses: readonly ContainerStatusView[],
    /** What the DaemonSet and StatefulSet controllers read of the spec (absent when not set). */
    readonly affinityNode?: string,
    readonly claimVolumes?: Readonly<Record<string, string>>,
    /** What the endpoint controllers read: IPs, hostname and subdomain, named ports (absent when none). */
    readonly network?: PodNetworkView,
    /** What the Job controller reads: of a Job's pods and of orphans (which a Job may adopt). */
    readonly batch?: PodBatchFields,
    /** What the HPA's replica calculator reads: requests, start time, the Ready condition (pods an HPA's target may own). */
    readonly autoscaling?: PodAutoscalingFields,
  ) {
    Object.freeze(this)
  }
}

/**
 * Normalizes raw pods (as the API server serves them: list items may lack kind and apiVersion)
 * through the Normalizer, and returns what the cache keeps.
 */
export function normalizePods(raws: readonly RawObject[], interner: Interner): NormalizeResult<PodView> {
  const readers = CONTROLLERS.flatMap((c) => (c.watch?.podFields ? [c.watch.podFields] : []))
  const {snapshot, problems} = normalizeStripped('Pod', raws.map((raw) => stripPod(raw, readers)))
  return {objects: snapshot.pods.map((p) => compactPod(p, interner)), problems}
}

/** The pods informer: every watch reads pods. */
export const PODS: WatchedResourcePart<PodView> = {resource: 'pods', kind: 'Pod', normalize: normalizePods}

function compactPod(p: PodView, interner: Interner): PodView {
  const ref = p.ownerReferences.find((r) => r.controller === true)
  const owners = ref
    ? interner.value(`O${ref.apiVersion}\u0000${ref.kind}\u0000${ref.name}\u0000${ref.uid}\u0000${ref.blockOwnerDeletion}`, () => [{...ref}])
    : (NONE as readonly OwnerReference[])
  const cost = p.annotations[POD_DELETION_COST]
  const annotations = p.batch ? deepFreeze({...p.annotations}) : cost === undefined ? EMPTY : interner.value(`A${cost}`, () => ({[POD_DELETION_COST]: cost}))
  return new CachedPod(
    interner.string(p.namespace),
    p.name,
    p.uid,
    p.resourceVersion,
    p.generation,
    interner.labels(p.labels),
    annotations,
    owners,
    interner.string(p.creationTimestamp),
    interner.string(p.deletionTimestamp),
    interner.string(p.nodeName),
    interner.string(p.phase),
    p.ready,
    interner.string(p.readySince),
    statuses(p.containerStatuses, interner),
    statuses(p.sidecarStatuses, interner),
    p.affinityNode === undefined ? undefined : interner.string(p.affinityNode),
    p.claimVolumes === undefined ? undefined : interner.value(`V${JSON.stringify(p.claimVolumes)}`, () => ({...p.claimVolumes})),
    p.network === undefined ? undefined : compactNetwork(p.network, interner),
    p.batch === undefined ? undefined : deepFreeze({...p.batch}),
    p.autoscaling === undefined ? undefined : compactAutoscaling(p.autoscaling, interner),
  )
}

/** A pod's start time and readiness are its own; its containers' requests are shared with its siblings'. */
function compactAutoscaling(a: PodAutoscalingFields, interner: Interner): PodAutoscalingFields {
  const out: {-readonly [K in keyof PodAutoscalingFields]: PodAutoscalingFields[K]} = {
    containers: interner.value(`R${JSON.stringify(a.containers)}`, () => a.containers.map((c) => ({...c}))),
    sidecars: a.sidecars.length === 0 ? (NONE as PodAutoscalingFields['sidecars']) : interner.value(`R${JSON.stringify(a.sidecars)}`, () => a.sidecars.map((c) => ({...c}))),
  }
  if (a.startTime !== undefined) out.startTime = interner.string(a.startTime)
  if (a.readyCondition) out.readyCondition = deepFreeze({...a.readyCondition})
  if (a.podRequests) out.podRequests = interner.value(`Q${JSON.stringify(a.podRequests)}`, () => ({...a.podRequests}))
  return Object.freeze(out)
}

/** A pod's IPs are its own; its hostname, subdomain and ports are shared with its siblings'. */
function compactNetwork(n: PodNetworkView, interner: Interner): PodNetworkView {
  const ports = n.ports.length === 0 ? (NONE as readonly ContainerPortView[]) : interner.value(`P${JSON.stringify(n.ports)}`, () => n.ports.map((p) => ({...p})))
  return Object.freeze({podIPs: Object.freeze([...n.podIPs]), hostname: interner.string(n.hostname), subdomain: interner.string(n.subdomain), ports})
}

function statuses(list: readonly ContainerStatusView[], interner: Interner): readonly ContainerStatusView[] {
  if (list.length === 0) return NONE as readonly ContainerStatusView[]
  let key = 'C'
  for (const s of list) key += `${s.name}\u0000${s.restartCount}\u0000`
  return interner.value(key, () => list.map((s) => ({name: s.name, restartCount: s.restartCount})))
}

type PodReader = NonNullable<import('./part.js').ControllerWatch['podFields']>

function stripPod(raw: RawObject, readers: readonly PodReader[]): RawObject {
  const out = stripOtherPod(raw)
  if (!isMap(raw.metadata)) return out
  const meta = raw.metadata
  // Each controller whose sync reads more of this pod keeps what it reads (the Job controller's and the HPA's, of an orphan).
  let kept = out
  for (const r of readers) if (r.reads(meta)) kept = r.strip(raw, kept)
  return kept
}

function stripOtherPod(raw: RawObject): RawObject {
  const out: RawObject = {apiVersion: raw.apiVersion ?? 'v1', kind: raw.kind ?? 'Pod', metadata: stripMeta(raw.metadata, POD_DELETION_COST)}
  const spec = raw.spec
  if (isMap(spec)) {
    const s: RawObject = {}
    if (spec.nodeName !== undefined) s.nodeName = spec.nodeName
    // What the endpoint controllers read: the pod's DNS name parts and its named ports.
    for (const key of ['hostname', 'subdomain']) if (spec[key] !== undefined) s[key] = spec[key]
    if (Array.isArray(spec.containers)) s.containers = spec.containers.map((c) => pick(c, ['name', 'ports']))
    // The DaemonSet's node (its required node affinity) and the StatefulSet's claims.
    const required = isMap(spec.affinity) && isMap(spec.affinity.nodeAffinity) ? spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined
    if (required !== undefined) s.affinity = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: required}}
    if (Array.isArray(spec.volumes)) {
      const claims = spec.volumes.filter((v) => isMap(v) && v.persistentVolumeClaim !== undefined)
      if (claims.length > 0) s.volumes = claims
    }
    if (Array.isArray(spec.initContainers)) s.initContainers = spec.initContainers.map((c) => pick(c, ['name', 'restartPolicy', 'ports']))
    out.spec = s
  } else if (spec !== undefined) out.spec = spec
  const status = raw.status
  if (isMap(status)) {
    const s: RawObject = {}
    if (status.phase !== undefined) s.phase = status.phase
    for (const key of ['podIP', 'podIPs']) if (status[key] !== undefined) s[key] = status[key]
    if (Array.isArray(status.conditions)) s.conditions = status.conditions.filter((c) => !isMap(c) || c.type === 'Ready').map((c) => pick(c, ['type', 'status', 'lastTransitionTime']))
    else if (status.conditions !== undefined) s.conditions = status.conditions
    for (const key of ['containerStatuses', 'initContainerStatuses']) {
      const v = status[key]
      if (Array.isArray(v)) s[key] = v.map((c) => pick(c, ['name', 'restartCount']))
      else if (v !== undefined) s[key] = v
    }
    out.status = s
  } else if (status !== undefined) out.status = status
  return out
}

