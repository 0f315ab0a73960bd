// Watch mode for HorizontalPodAutoscalers. An HPA's sync reads its target's scale, the pods the
// target's selector matches and the metrics APIs: an event of an HPA, of a Deployment, StatefulSet,
// ReplicaSet or ReplicationController (a target), or of a pod one of them may own marks the
// namespace, and the next batch plans its HPAs again (namespace-watch.ts). The metrics APIs have no
// watch: they are read again every sync period (--horizontal-pod-autoscaler-sync-period's
// default, 15 s), after which the namespace is planned again, and after an event of an HPA or a
// target when what is asked changed (watch/live-reads.ts). The plan's own requeue (one sync period
// on) sets no clock of its own: the metrics' period is that clock.
//
// Pods a target may own (and orphans a target's selector may match) keep in the watch cache what
// the replica calculator reads besides the shared fields (watch/pods.ts): each container's
// resources, the sidecars', pod-level requests and overhead, and the start time.
import type {DeploymentView, PodView, Snapshot, Workload} from '../../model/objects.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {isMap, pick, wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'
import type {RawObject} from '../../watch/reflector.js'
import {readLiveMetrics} from './live.js'
import {DEFAULT_HPA_CONFIG, type HpaObject} from './model.js'

type StatefulSetView = NonNullable<Snapshot['statefulSets']>[number]

/** The kinds whose pods an HPA's target owns (the scale subresources kctl reads). */
const OWNERS: ReadonlySet<string> = new Set(['ReplicaSet', 'StatefulSet', 'ReplicationController'])

const HPAS = wholeObjects<HpaObject>('horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'autoscaling/v2', (s) => s.hpas)

export const hpaWatch: NamespaceWatchPart = {
  by: 'namespace',
  resources: [HPAS],
  requires: ['horizontalpodautoscalers'],
  // The targets. One informer per resource: their own controllers' watches start them first, and
  // keep them their way; these only normalize them when those watches are left out.
  reads: [
    wholeObjects<DeploymentView>('deployments', 'Deployment', 'apps/v1', (s) => s.deployments),
    wholeObjects<Workload>('replicasets', 'ReplicaSet', 'apps/v1', (s) => s.replicaSets),
    wholeObjects<Workload>('replicationcontrollers', 'ReplicationController', 'v1', (s) => s.workloads),
    wholeObjects<StatefulSetView>('statefulsets', 'StatefulSet', 'apps/v1', (s) => s.statefulSets),
  ],
  namespaces: (caches) => caches.namespaces('horizontalpodautoscalers'),
  holds: (caches, ns) => {
    for (const _ of caches.list('horizontalpodautoscalers', ns)) return true
    return false
  },
  podMatters: (_caches, pod: PodView, old) => readsPod(pod) || (old !== undefined && readsPod(old)),
  snapshot: (caches, ns, selector) => ({
    hpas: [...caches.list<HpaObject>('horizontalpodautoscalers', ns)].filter((h) => !selector || selectorMatches(selector, h.labels)),
    deployments: [...caches.list<DeploymentView>('deployments', ns)],
    statefulSets: [...caches.list<StatefulSetView>('statefulsets', ns)],
    replicaSets: [...caches.list<Workload>('replicasets', ns)],
    workloads: [...caches.list<Workload>('replicationcontrollers', ns)],
  }),
  podFields: {reads: readByReplicaCalculator, strip: stripAutoscaledPod},
  clockRequeues: false,
  live: {everyMs: DEFAULT_HPA_CONFIG.syncPeriodSeconds * 1000, read: readLiveMetrics},
  planned: (s) => s.hpas?.length ?? 0,
}

function readsPod(pod: PodView): boolean {
  const owner = pod.ownerReferences.find((r) => r.controller === true)
  return owner === undefined || OWNERS.has(owner.kind)
}

/** A pod a target may own, or an orphan a target's selector may match. */
function readByReplicaCalculator(meta: unknown): boolean {
  const refs = isMap(meta) && Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isMap) : []
  const owner = refs.find((r) => r.controller === true)
  return owner === undefined || OWNERS.has(String(owner.kind))
}

/** What the replica calculator reads of a pod beside the shared fields: requests (containers, sidecars, pod level, overhead) and the start time. */
function stripAutoscaledPod(raw: RawObject, out: RawObject): RawObject {
  const spec = raw.spec
  if (isMap(spec) && isMap(out.spec)) {
    const s = out.spec
    if (Array.isArray(spec.containers)) s.containers = spec.containers.map((c) => pick(c, ['name', 'ports', 'resources']))
    if (Array.isArray(spec.initContainers)) s.initContainers = spec.initContainers.map((c) => pick(c, ['name', 'restartPolicy', 'ports', 'resources']))
    for (const key of ['resources', 'overhead']) if (spec[key] !== undefined) s[key] = spec[key]
  }
  const status = raw.status
  if (isMap(status) && isMap(out.status) && status.startTime !== undefined) out.status.startTime = status.startTime
  return out
}
