// `simulate`: read the world once (fixtures or the cluster), apply the what-ifs, then run the
// controllers forward in virtual time (simulate/loop.ts) on an in-memory copy. Nothing is written
// anywhere.
import {MemoryWorld, type MemoryWorldOptions, type RawObject} from '../apply/memory-world.js'
import {UserError} from '../errors.js'
import type {ClusterClient} from '../sources/cluster-client.js'
import type {PlanSource} from '../model/objects.js'
import type {ReconcilePlan} from '../model/plan.js'
import {PLAN_API_VERSION, SIMULATION_KIND, type Simulation, type SimulationSettings} from '../model/simulation.js'
import {planSnapshot} from '../reconcile/planner.js'
import {formatRfc3339, parseRfc3339, seconds} from '../reconcile/time.js'
import {applyManifest, applyScale, applySetImage, kubectlMerge, parseScale, parseSetImage, type ImageChange, type ScaleChange} from '../simulate/changes.js'
import {manifestKind, notSimulatedObjects, rolloutVerdicts, simulatedControllers, unsimulatedControllers} from '../simulate/controllers.js'
import {verdictPasses} from '../simulate/verdict.js'
import {DEFAULT_RUN_FOR, TERMINATE_CAP_SECONDS} from '../simulate/kubelet.js'
import {parseLoad, type Load} from '../simulate/load.js'
import {runLoop} from '../simulate/loop.js'
import type {PlacedLoad} from '../simulate/part.js'
import {checkOutDirectory, writeWorld} from '../simulate/world-out.js'
import {parseDuration} from '../watch/duration.js'
import {gateWarnings, parseFeatureGates, plannerOptions, resolveNow} from './options.js'
import type {PlanRequest} from './plan.js'
import {clusterRequest, fromFixtures} from './snapshot.js'

/** The what-ifs `plan` and `simulate` both take. */
export interface ChangeRequest {
  /** --apply-manifests: files or directories merged onto the world as kubectl apply would. */
  applyManifests?: string[]
  /** --scale KIND/NAME=N. */
  scale?: string[]
  /** --set-image KIND/NAME=CONTAINER=IMAGE. */
  setImage?: string[]
  /** --server-side: live --apply-manifests as `kubectl apply --server-side` (default: kubectl apply's client-side merge). */
  serverSide?: boolean
}

export interface SimulateRequest extends PlanRequest, ChangeRequest {
  /** --ready-after, a duration (default 10s). */
  readyAfter?: string
  /** --terminate-after; absent: each pod's grace period, capped. */
  terminateAfter?: string
  /** --fail: images or pod-template-hash values whose pods never become Ready (a Job's pods, or a Job name's, exit non-zero). */
  fail?: string[]
  /** --run-for, a duration: how long a Job's pod runs once Ready (default 10s). */
  runFor?: string
  /** --until: the longest virtual time simulated. */
  until?: string
  /** --seed: mixed into generated pod names. */
  seed?: string
  /** --load KIND/NAME=SPEC|FILE: the demand on a workload over time (its HPA is then simulated). */
  load?: string[]
  /** --max-unmet, a duration: an autoscaler whose demand went unmet longer is named in summary.unmet. */
  maxUnmet?: string
  /** --out: a new or empty directory the world at the end is written to, as fixtures. */
  out?: string
  /** Told what --out wrote. */
  onWritten?: (what: {files: string[]; objects: number; directory: string}) => void
}

export const DEFAULT_READY_AFTER = '10s'
/** A CronJob never goes quiet: without --until, a simulation with one stops after this much virtual time. */
export const DEFAULT_CRONJOB_UNTIL = '1h'

export async function simulate(req: SimulateRequest): Promise<Simulation> {
  // Flags first: nothing is read for a command line that cannot run.
  const featureGates = parseFeatureGates(req.featureGates)
  const readyAfter = durationFlag('--ready-after', req.readyAfter ?? DEFAULT_READY_AFTER)
  const terminateAfter = req.terminateAfter === undefined ? undefined : durationFlag('--terminate-after', req.terminateAfter)
  const runFor = durationFlag('--run-for', req.runFor ?? DEFAULT_RUN_FOR)
  let until = req.until === undefined ? undefined : durationFlag('--until', req.until)
  const whatIfs = parseChanges(req)
  const loadFlags = (req.load ?? []).map((l) => parseLoad(l))
  const maxUnmet = req.maxUnmet === undefined ? undefined : durationFlag('--max-unmet', req.maxUnmet)
  const fixedNow = req.now === undefined ? undefined : resolveNow(req.now)
  if (req.out !== undefined) await checkOutDirectory(req.out)
  for (const w of gateWarnings(featureGates)) req.onWarning?.(w)

  const clock = {now: 0n}
  const opened = await openWorld(req, () => formatRfc3339(clock.now), {gracefulPodDeletion: true, seed: req.seed})
  const startText = fixedNow ?? resolveNow(undefined, req.clock)
  const start = parseRfc3339(startText)!
  clock.now = start
  const changes = await applyChanges(opened, whatIfs)
  const warnings: string[] = []
  const world = opened.memory.snapshot()
  const loads = placeLoads(opened.memory, opened.defaultNamespace, loadFlags)
  // What the simulation leaves as read (Services, HPAs no --load names the target of): named, with what `kctl plan` plans for them now.
  const notSimulated = notSimulatedObjects(planSnapshot(world, plannerOptions(startText, featureGates, req.maxEndpointsPerSlice), unsimulatedControllers()), loads)
  if (until === undefined && simulatedControllers().some((c) => c.simulation.endless?.(world))) {
    until = durationFlag('--until', DEFAULT_CRONJOB_UNTIL)
    warnings.push(`a CronJob never goes quiet: simulated ${DEFAULT_CRONJOB_UNTIL} (the default with a CronJob); pass --until for more or less`)
  }
  if (until === undefined) {
    // An autoscaler syncs forever: its part says how long is enough for the load given.
    const longest = simulatedControllers()
      .flatMap((c) => c.simulation.defaultUntil?.(world, loads) ?? [])
      .sort((a, b) => b.seconds - a.seconds)[0]
    if (longest) {
      until = longest.seconds * 1000
      warnings.push(longest.why)
    }
  }

  const result = await runLoop(opened.memory, {
    clock,
    featureGates,
    until: until === undefined ? undefined : start + toNs(until),
    loads,
    kubelet: {start, readyAfter: toNs(readyAfter), terminateAfter: terminateAfter === undefined ? undefined : toNs(terminateAfter), fail: req.fail ?? [], runFor: toNs(runFor)},
  })
  if (req.out !== undefined) {
    const end = formatRfc3339(result.end)
    const header = `The world at the end of kctl simulate (${end}): read it back with -f and --now ${end}.`
    req.onWritten?.({...(await writeWorld(opened.memory, req.out, header)), directory: req.out})
  }
  const settings: SimulationSettings = {
    readyAfterSeconds: readyAfter / 1000,
    runForSeconds: runFor / 1000,
    ...(terminateAfter === undefined ? {} : {terminateAfterSeconds: terminateAfter / 1000}),
    terminateCapSeconds: TERMINATE_CAP_SECONDS,
    fail: [...(req.fail ?? [])],
    ...(until === undefined ? {} : {untilSeconds: until / 1000}),
    ...(req.seed === undefined ? {} : {seed: req.seed}),
    ...(loadFlags.length === 0 ? {} : {loads: loadFlags.map((l) => l.text)}),
    ...(maxUnmet === undefined ? {} : {maxUnmetSeconds: maxUnmet / 1000}),
  }
  const sim: Simulation = {
    apiVersion: PLAN_API_VERSION,
    kind: SIMULATION_KIND,
    start: startText,
    end: formatRfc3339(result.end),
    source: opened.source,
    settings,
    changes,
    steps: result.steps,
    deployments: result.deployments,
    statefulSets: result.statefulSets,
    daemonSets: result.daemonSets,
    jobs: result.jobs,
    cronJobs: result.cronJobs,
    ...(result.autoscalers ? {autoscalers: result.autoscalers} : {}),
    summary: {
      steps: result.steps.length,
      rounds: result.rounds,
      syncs: result.syncs,
      durationSeconds: Number(result.end - start) / 1e9,
      endedBy: result.endedBy,
      incomplete: [],
      ...(maxUnmet === undefined ? {} : {unmet: unmetLonger(result.autoscalers ?? [], maxUnmet / 1000)}),
    },
    notSimulated,
    warnings: [...warnings, ...result.warnings],
  }
  sim.summary.incomplete = rolloutVerdicts(sim)
    .filter((v) => !verdictPasses(v.verdict))
    .map((v) => v.workload)
  return sim
}

/** Each --load's workload found in the world read (its namespace: -n, or the default). */
function placeLoads(memory: MemoryWorld, namespace: string, loads: readonly Load[]): PlacedLoad[] {
  return loads.map((l) => {
    if (!memory.find(l.kind, namespace, l.name)) throw new UserError(`--load: no ${l.kind} "${l.name}" in namespace "${namespace}" was read`, {hint: 'name one of the objects read (-n for another namespace)'})
    return {...l, namespace}
  })
}

/** The autoscalers whose demand went unmet longer than `seconds` (`HorizontalPodAutoscaler ns/name`). */
function unmetLonger(autoscalers: NonNullable<Simulation['autoscalers']>, limit: number): string[] {
  return autoscalers.filter((a) => (a.unmet?.seconds ?? 0) > limit).map((a) => `HorizontalPodAutoscaler ${a.namespace}/${a.name}`)
}

/** `plan` with what-ifs: the next sync of every controller after the change. */
export async function planChanged(req: PlanRequest & ChangeRequest): Promise<ReconcilePlan> {
  const featureGates = parseFeatureGates(req.featureGates)
  const whatIfs = parseChanges(req)
  const fixedNow = req.now === undefined ? undefined : resolveNow(req.now)
  for (const w of gateWarnings(featureGates)) req.onWarning?.(w)
  let now = fixedNow ?? ''
  const opened = await openWorld(req, () => now)
  now ||= resolveNow(undefined, req.clock)
  for (const change of await applyChanges(opened, whatIfs)) req.onWarning?.(`changed: ${change}`)
  return planSnapshot({...opened.memory.snapshot(), source: opened.source}, plannerOptions(now, featureGates, req.maxEndpointsPerSlice))
}

/** Whether a request asks for a what-if. */
export function hasChanges(req: ChangeRequest): boolean {
  // --server-side alone counts, so that its refusal (it goes with --apply-manifests) is said.
  return (req.applyManifests?.length ?? 0) > 0 || (req.scale?.length ?? 0) > 0 || (req.setImage?.length ?? 0) > 0 || req.serverSide === true
}

interface OpenedWorld {
  memory: MemoryWorld
  source: PlanSource
  defaultNamespace: string
  /** Live only: the exact stored object a manifest would become, as the API server answers a dry run. */
  dryRunApply?: (manifest: RawObject) => Promise<StoredManifest>
}

type WorldExtras = Pick<MemoryWorldOptions, 'gracefulPodDeletion' | 'seed'>

async function openWorld(req: PlanRequest & ChangeRequest, now: () => string, extras: WorldExtras = {}): Promise<OpenedWorld> {
  if (fromFixtures(req)) {
    const {fixtureWorld} = await import('./reconcile.js')
    const world = await fixtureWorld(req, now, extras)
    return {memory: world.memory, source: world.source, defaultNamespace: req.namespace ?? 'default'}
  }
  // Lazy: the cluster code pulls in client-node.
  const {connect, listClusterObjects} = await import('../sources/cluster.js')
  const {snapshotReader} = await import('../sources/parsed.js')
  const {inventedUid} = await import('../sources/normalize.js')
  const cluster = clusterRequest(req)
  const client = await connect(cluster)
  const {objects, namespace} = await listClusterObjects(client, cluster)
  const options = {paths: [], namespace, allNamespaces: namespace === undefined, selector: req.selector, serverDefaulted: true}
  const memory = new MemoryWorld([{name: `cluster:${client.config.context}`, format: 'json', objects}], {
    ...extras,
    defaultNamespace: namespace ?? 'default',
    now,
    inventedUid,
    normalize: snapshotReader(`cluster:${client.config.context}`, options),
  })
  return {
    memory,
    source: {type: 'cluster', context: client.config.context, server: client.server},
    defaultNamespace: namespace ?? client.config.namespace ?? 'default',
    dryRunApply: (manifest) => (req.serverSide ? serverSideApplyDryRun : clientSideApplyDryRun)(client, manifest, namespace ?? client.config.namespace ?? 'default'),
  }
}

/** The what-if flags parsed: a command line that cannot run fails before anything is read. */
interface ParsedChanges {
  manifests: string[]
  scales: ScaleChange[]
  images: ImageChange[]
}

function parseChanges(req: PlanRequest & ChangeRequest): ParsedChanges {
  if (req.serverSide && (req.applyManifests?.length ?? 0) === 0) throw new UserError('--server-side goes with --apply-manifests', {hint: 'name the manifests to apply: --apply-manifests FILE --server-side'})
  if (req.serverSide && fromFixtures(req)) {
    throw new UserError('--server-side needs a live cluster: with -f, --apply-manifests merges as kubectl apply (client-side) does', {hint: 'drop --server-side, or plan against the cluster'})
  }
  return {manifests: req.applyManifests ?? [], scales: (req.scale ?? []).map(parseScale), images: (req.setImage ?? []).map(parseSetImage)}
}

async function applyChanges(opened: OpenedWorld, {manifests, scales, images}: ParsedChanges): Promise<string[]> {
  const done: string[] = []
  if (manifests.length > 0) {
    const {readAllDocuments} = await import('../sources/fixtures.js')
    for (const doc of await readAllDocuments(manifests)) {
      const m = doc.raw as Record<string, any>
      if (!manifestKind(String(m.kind))) {
        done.push(`${m.kind} ${m.metadata?.name ?? ''}: left out (kctl simulates Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs and Pods)`)
        continue
      }
      if (opened.dryRunApply) {
        const {object, how} = await opened.dryRunApply(doc.raw)
        done.push(applyManifest(opened.memory, object, opened.defaultNamespace, {stored: how, source: doc}))
      } else done.push(applyManifest(opened.memory, doc.raw, opened.defaultNamespace, {source: doc}))
    }
  }
  for (const s of scales) done.push(applyScale(opened.memory, opened.defaultNamespace, s))
  for (const i of images) done.push(applySetImage(opened.memory, opened.defaultNamespace, i))
  return done
}

function durationFlag(flag: string, text: string): number {
  const ms = parseDuration(text)
  if (ms === undefined || ms < 0) throw new UserError(`invalid ${flag} "${text}": expected a duration such as 10s, 1m30s or 500ms`)
  return ms
}

function toNs(ms: number): bigint {
  return seconds(0) + BigInt(Math.round(ms * 1e6))
}

/** A manifest as the API server would store it, and how it was applied (for the change's line). */
interface StoredManifest {
  object: RawObject
  how: string
}

/** Where a manifest's object lives on the server: its path, its collection's, its namespace and name. */
function manifestTarget(m: Record<string, any>, defaultNamespace: string) {
  const at = manifestKind(String(m.kind))!
  const namespace = typeof m.metadata?.namespace === 'string' && m.metadata.namespace !== '' ? m.metadata.namespace : defaultNamespace
  const name = String(m.metadata?.name ?? '')
  const collection = `${at.group}/namespaces/${encodeURIComponent(namespace)}/${at.plural}`
  return {collection, path: `${collection}/${encodeURIComponent(name)}`, namespace, name}
}

/**
 * `kubectl apply --server-side`, as a dry run (dryRun=All): the API server answers with the object
 * as it would store it (defaults, managed fields, generation) and keeps nothing.
 */
async function serverSideApplyDryRun(client: ClusterClient, manifest: RawObject, defaultNamespace: string): Promise<StoredManifest> {
  const m = manifest as Record<string, any>
  const {path, namespace, name} = manifestTarget(m, defaultNamespace)
  const stored = await client.request<RawObject>(path, {
    method: 'PATCH',
    query: {dryRun: 'All', fieldManager: 'kctl-simulate', force: true},
    body: {...m, metadata: {...m.metadata, namespace}},
    contentType: 'application/apply-patch+yaml',
    what: `apply ${m.kind} ${namespace}/${name} (dry run)`,
  })
  return {object: {apiVersion: m.apiVersion, kind: m.kind, ...stored}, how: 'server-side apply, dry run'}
}

/**
 * `kubectl apply` as users run it (client-side, kubectl's default), as a dry run: the live object is
 * read, kubectl's strategic merge patch computed from its last-applied configuration, the manifest
 * and the live object (kubectlApply: Patcher.patchSimple's three-way merge), and sent with
 * dryRun=All; an object not there yet is created with dryRun=All carrying the last-applied
 * annotation, as kubectl creates it. Unlike a server-side apply by another field manager, this
 * removes what the last apply set and the manifest now drops.
 */
async function clientSideApplyDryRun(client: ClusterClient, manifest: RawObject, defaultNamespace: string): Promise<StoredManifest> {
  const m = manifest as Record<string, any>
  const {collection, path, namespace, name} = manifestTarget(m, defaultNamespace)
  const what = `apply ${m.kind} ${namespace}/${name} (dry run)`
  const {ApiError} = await import('../sources/cluster-client.js')
  let live: Record<string, any> | undefined
  try {
    live = await client.request<Record<string, any>>(path, {what: `read ${m.kind} ${namespace}/${name}`})
  } catch (e) {
    if (!(e instanceof ApiError && e.status.code === 404)) throw e
  }
  const query = {dryRun: 'All', fieldManager: 'kubectl-client-side-apply'}
  const applied = kubectlMerge(m, live && {apiVersion: m.apiVersion, kind: m.kind, ...live}, namespace, `${m.kind} ${namespace}/${name}`)
  const stored = applied.patch
    ? await client.request<RawObject>(path, {method: 'PATCH', query, body: applied.patch, contentType: 'application/strategic-merge-patch+json', what})
    : await client.request<RawObject>(collection, {method: 'POST', query, body: applied.object, what})
  const how = !live ? 'kubectl apply, dry run' : applied.threeWay ? 'kubectl apply: three-way merge with the last-applied configuration, dry run' : 'kubectl apply: two-way merge, no last-applied configuration, dry run'
  return {object: {apiVersion: m.apiVersion, kind: m.kind, ...stored}, how}
}
