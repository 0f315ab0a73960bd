// What one run of the job controller did to each planned Job, cut at the end of that Job's first
// sync, in the form its plan states it: the status writes (each whole), the pods created (by
// generateName, labels, annotations, finalizers, hostname and owner: their names are random),
// deleted, adopted and released (by name), the finalizers removed (by name), and whether the
// ttl-after-finished controller deleted the Job. Shared by the batch oracle and the random Job oracle.
import {apiOk, controllerManager, waitUntil, watchEvents, type WatchEvent} from './setup/cluster.js'

type Json = Record<string, any>

const TRACKING = 'batch.kubernetes.io/job-tracking'

const rv = async (path: string) => (await apiOk('GET', `${path}?limit=1`)).metadata.resourceVersion as string
const controllerUid = (o: Json) => o.metadata.ownerReferences?.find((r: Json) => r.controller)?.uid
const tracked = (o: Json) => (o.metadata.finalizers ?? []).includes(TRACKING)

/** The status fields a Job sync decides (times are the controller's clock, compared as present or absent). */
export function decided(s: Json): Json {
  return {
    active: s.active ?? 0,
    ready: s.ready,
    terminating: s.terminating,
    succeeded: s.succeeded ?? 0,
    failed: s.failed ?? 0,
    completedIndexes: s.completedIndexes,
    failedIndexes: s.failedIndexes,
    uncounted: [...(s.uncountedTerminatedPods?.succeeded ?? []), ...(s.uncountedTerminatedPods?.failed ?? [])].length,
    conditions: (s.conditions ?? []).map((c: Json) => `${c.type}=${c.status}:${c.reason}:${c.message}`),
    startTime: s.startTime !== undefined,
    completionTime: s.completionTime !== undefined,
  }
}

/** A Job status as compared: every field the sync decides, uncounted UIDs as sets, times as present or not. */
export function exact(s: Json): Json {
  const {uncounted: _, ...rest} = decided(s)
  return {...rest, uncountedSucceeded: [...(s.uncountedTerminatedPods?.succeeded ?? [])].sort(), uncountedFailed: [...(s.uncountedTerminatedPods?.failed ?? [])].sort()}
}

/** JSON with sorted keys, so that equal objects compare equal whatever order they were written in. */
export const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().filter((k) => (v as Json)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as Json)[k])}`).join(',')}}` : JSON.stringify(v)

const createdShape = (o: {generateName: string; labels: Json; annotations: Json; finalizers: string[]; hostname?: string; owner: Json}) => canonical(o)

export interface SyncSeen {
  writes: Json[]
  created: string[]
  deleted: string[]
  finalizersRemoved: string[]
  adopted: string[]
  released: string[]
  /** The ttl-after-finished controller deleted the Job (only when asked to observe it). */
  jobDeleted?: boolean
}

/**
 * What the plan says one sync does, in the form observeSyncs reports it. The orphan worker's
 * finalizer removals (a finished Job's pods) follow an update of the Job — with `ttl`, the
 * ttl-after-finished controller's delete is one, so a plan that deletes the Job has them all — or
 * the pod's own deletion (`deleting`: the pods already being deleted when the controller starts).
 */
export function plannedSync(cp: Json, o: {ttl?: boolean; deleting?: ReadonlySet<string>} = {}): SyncSeen {
  const of = (type: string) => cp.actions.filter((a: Json) => a.type === type)
  const jobDeleted = of('deleteJob').some((a: Json) => a.by === 'ttl-after-finished')
  const byThisRun = (a: Json) => a.by === undefined || (o.ttl && jobDeleted) || o.deleting?.has(a.pod)
  const out: SyncSeen = {
    writes: of('updateStatus').map((a: Json) => a.to),
    created: of('createJobPod').map((a: Json) => createdShape({generateName: a.generateName, labels: a.labels, annotations: a.annotations, finalizers: a.finalizers, hostname: a.hostname, owner: a.ownerReference})),
    deleted: of('deleteJobPod').map((a: Json) => a.pod),
    // Once per pod: a second patch of a pod whose finalizer is already gone changes nothing, so no watch event shows it.
    finalizersRemoved: [...new Set<string>(of('removeFinalizer').filter(byThisRun).map((a: Json) => a.pod))],
    adopted: of('adopt').map((a: Json) => a.pod),
    released: of('release').map((a: Json) => a.pod),
  }
  if (o.ttl) out.jobDeleted = jobDeleted
  return out
}

export interface ObserveOptions {
  /** The controllers to run (default: job). */
  controllers?: string[]
  extraArgs?: string[]
  timeoutMs?: number
}

/**
 * Starts the job controller and follows namespace `ns` until each planned Job has written as many
 * statuses as its plan has (and, when finalizer patches follow its last write, its pods went quiet
 * for 2 s), then stops it: per Job, what the controller did up to its last planned write. A status
 * write is a change of the Job's status (a delete by the ttl-after-finished controller changes its
 * metadata only).
 */
export async function observeSyncs(ns: string, cps: Json[], o: ObserveOptions = {}): Promise<Map<string, SyncSeen>> {
  const podsPath = `/api/v1/namespaces/${ns}/pods`
  const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`
  const from = String(Math.max(Number(await rv(podsPath)), Number(await rv(jobsPath))))
  const before = new Map<string, Json>((await apiOk('GET', podsPath)).items.map((p: Json) => [p.metadata.uid, p]))
  const jobsBefore = new Map<string, Json>((await apiOk('GET', jobsPath)).items.map((j: Json) => [j.metadata.uid, j]))
  const podWatch = watchEvents(podsPath, from)
  const jobWatch = watchEvents(jobsPath, from)
  const statusWrites = new Map<string, WatchEvent[]>()
  /** Per Job deleted, how many status writes it had then (a delete after a later sync's write is not this sync's). */
  const deletedJobs = new Map<string, number>()
  let walked = 0
  /** The Job events seen so far, folded into status writes and deletes per Job. */
  const fold = () => {
    for (; walked < jobWatch.events.length; walked++) {
      const e = jobWatch.events[walked]
      const uid = e.object.metadata?.uid
      if (!uid || e.type !== 'MODIFIED') continue
      const prior = jobsBefore.get(uid)
      jobsBefore.set(uid, e.object)
      if (canonical(prior?.status ?? {}) !== canonical(e.object.status ?? {})) statusWrites.set(uid, [...(statusWrites.get(uid) ?? []), e])
      if (e.object.metadata.deletionTimestamp && !deletedJobs.has(uid)) deletedJobs.set(uid, statusWrites.get(uid)?.length ?? 0)
    }
  }
  const writesOf = (cp: Json) => {
    fold()
    return statusWrites.get(cp.uid) ?? []
  }
  const planned = (cp: Json) => cp.actions.filter((a: Json) => a.type === 'updateStatus').length
  // A sync that ends with finalizer patches (no second write) is over once its pods go quiet.
  const endsWithWrite = (cp: Json) => cp.actions.at(-1)?.type === 'updateStatus'
  let quietSince = Date.now()
  let seen = 0
  await controllerManager.start(o.controllers ?? ['job'], o.extraArgs)
  try {
    await waitUntil(
      () => {
        if (podWatch.events.length !== seen) [seen, quietSince] = [podWatch.events.length, Date.now()]
        const quiet = Date.now() - quietSince > 2000
        return cps.every((cp) => writesOf(cp).length >= planned(cp) && (endsWithWrite(cp) || quiet))
      },
      {what: `the planned status writes of ${cps.length} Jobs`, timeoutMs: o.timeoutMs ?? 40_000},
    ).catch(() => {}) // a Job that did not get there fails its own comparison
  } finally {
    await controllerManager.stop()
    podWatch.stop()
    jobWatch.stop()
  }
  fold()
  const out = new Map<string, SyncSeen>()
  for (const cp of cps) {
    const writes = writesOf(cp)
    const n = planned(cp)
    // Up to the last planned write; when patches follow it, up to the next write, and no later than
    // a second after the sync began: the controller's syncs of one Job are at least a second apart
    // (pod events are batched by SyncJobBatchPeriod, backoff requeues are at least 1 s).
    const cutAt = endsWithWrite(cp) ? writes[n - 1] : writes[n]
    const cut = cutAt ? Number(cutAt.object.metadata.resourceVersion) - (endsWithWrite(cp) ? 0 : 1) : Infinity
    const ours = (e: WatchEvent, prior: Json | undefined) => controllerUid(e.object) === cp.uid || (prior !== undefined && controllerUid(prior) === cp.uid)
    const began = Math.min(writes[0]?.receivedAt ?? Infinity, podWatch.events.find((e) => ours(e, before.get(e.object.metadata.uid)))?.receivedAt ?? Infinity)
    const seenSync: SyncSeen = {writes: writes.slice(0, n).map((e) => e.object.status), created: [], deleted: [], finalizersRemoved: [], adopted: [], released: []}
    if (o.controllers?.includes('ttl-after-finished')) seenSync.jobDeleted = (deletedJobs.get(cp.uid) ?? Infinity) <= n
    const last = new Map(before)
    for (const e of podWatch.events) {
      const pod = e.object
      if (Number(pod.metadata.resourceVersion) > cut || (!endsWithWrite(cp) && e.receivedAt > began + 1000)) break
      const prior = last.get(pod.metadata.uid)
      last.set(pod.metadata.uid, pod)
      if (!ours(e, prior)) continue
      if (!prior) {
        // The API server copies the node's topology labels onto a pod created bound to it: not the controller's.
        const labels = Object.fromEntries(Object.entries(pod.metadata.labels ?? {}).filter(([k]) => !k.startsWith('topology.kubernetes.io/')))
        seenSync.created.push(createdShape({generateName: pod.metadata.generateName, labels, annotations: pod.metadata.annotations ?? {}, finalizers: pod.metadata.finalizers, hostname: pod.spec.hostname, owner: pod.metadata.ownerReferences[0]}))
        continue
      }
      const name = pod.metadata.name
      if (!prior.metadata.deletionTimestamp && (pod.metadata.deletionTimestamp || e.type === 'DELETED')) seenSync.deleted.push(name)
      if (controllerUid(prior) !== cp.uid && controllerUid(pod) === cp.uid) seenSync.adopted.push(name)
      // A release takes the tracking finalizer with the owner reference, in one patch.
      if (controllerUid(prior) === cp.uid && controllerUid(pod) !== cp.uid) seenSync.released.push(name)
      // A pod being deleted goes the moment its last finalizer does: that write shows as DELETED.
      else if (tracked(prior) && (!tracked(pod) || e.type === 'DELETED')) seenSync.finalizersRemoved.push(name)
    }
    out.set(cp.name, seenSync)
  }
  return out
}

/** Both sides of a comparison with their lists sorted (pods as multisets) and each write as `exact` sees it. */
export const sortedSync = (x: SyncSeen): SyncSeen => ({
  ...x,
  writes: x.writes.map(exact),
  created: [...x.created].sort(),
  deleted: [...x.deleted].sort(),
  finalizersRemoved: [...x.finalizersRemoved].sort(),
  adopted: [...x.adopted].sort(),
  released: [...x.released].sort(),
})
