// Watch mode for Jobs. A Job's sync reads its pods and the orphans it may adopt: an event of a
// Job, or of a pod a Job owns (or no controller owns), marks the namespace, and the next batch
// plans its Jobs again (namespace-watch.ts), with the CronJobs planned with them
// (controllers/cronjob/watch.ts). Their plans' `requeue` — a backoff ending, an active deadline, a
// finished Job's TTL — marks it again when the watch's clock gets there.
//
// A Job's pod, and a pod no controller owns (a Job may adopt it), keep in the watch cache what the
// Job controller reads besides the shared fields (watch/pods.ts): finalizers, the
// batch.kubernetes.io annotations, every condition, and how each container ended.
import type {JobView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {POD_DELETION_COST} from '../../reconcile/pods.js'
import {isMap, pick, wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'
import type {RawObject} from '../../watch/reflector.js'
import type {PodView} from '../../model/objects.js'

export const jobWatch: NamespaceWatchPart = {
  by: 'namespace',
  resources: [wholeObjects<JobView>('jobs', 'Job', 'batch/v1', (s) => s.jobs)],
  requires: ['jobs'],
  reads: [],
  namespaces: (caches) => caches.namespaces('jobs'),
  holds: (caches, ns) => {
    for (const _ of caches.list('jobs', ns)) return true
    return false
  },
  podMatters: (_caches, pod: PodView) => {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    return !owner || owner.kind === 'Job'
  },
  snapshot: (caches, ns, selector) => {
    const picked = (labels: Readonly<Record<string, string>>) => !selector || selectorMatches(selector, labels)
    return {
      // -l leaves Jobs out of the plan, not out of their CronJob's sync.
      jobs: [...caches.list<JobView>('jobs', ns)].map((j) => (picked(j.labels) ? j : {...j, notPlanned: true})),
    }
  },
  podFields: {reads: readByJobController, strip: stripBatchPod},
  planned: (s) => s.jobs?.length ?? 0,
}

/** A Job's pod, or an orphan a Job may adopt: the Job controller reads more of it (podBatchFields). */
function readByJobController(meta: unknown): boolean {
  const refs = isMap(meta) && Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isMap) : []
  const owner = refs.find((r) => r.controller === true)
  return owner === undefined || owner.kind === 'Job'
}

/** The metadata and status a Job's sync reads of a pod: finalizers, the batch annotations, every condition, how containers ended. */
function stripBatchPod(raw: RawObject, out: RawObject): RawObject {
  const meta = raw.metadata as RawObject
  const m = out.metadata as RawObject
  if (meta.finalizers !== undefined) m.finalizers = meta.finalizers
  if (meta.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = meta.deletionGracePeriodSeconds
  if (isMap(meta.annotations)) {
    const kept = Object.entries(meta.annotations).filter(([k]) => k.startsWith('batch.kubernetes.io/') || k === POD_DELETION_COST)
    if (kept.length > 0) m.annotations = Object.fromEntries(kept)
  }
  const status = raw.status
  if (isMap(status) && isMap(out.status)) {
    const s = out.status
    if (Array.isArray(status.conditions)) s.conditions = status.conditions.map((c) => pick(c, ['type', 'status', 'lastTransitionTime']))
    for (const key of ['containerStatuses', 'initContainerStatuses']) {
      const v = status[key]
      if (!Array.isArray(v)) continue
      s[key] = v.map((c) => {
        const kept = pick(c, ['name', 'restartCount'])!
        const ended = isMap(c) && isMap(c.state) && isMap(c.state.terminated) ? c.state.terminated : undefined
        kept.state = ended ? {terminated: pick(ended, ['exitCode', 'finishedAt'])} : {}
        return kept
      })
    }
  }
  return out
}

