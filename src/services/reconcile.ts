// `reconcile`: plan (or load a saved plan), present it, confirm, then carry it out — by default as
// a server-side dry run, with --apply for real — and report, action by action, what happened.
//
//   world (cluster | fixtures in memory) -> plan -> staleness check -> guards -> confirm -> executor
//                                                                                  -> next round (--until-converged)
//
// A saved plan is applied verbatim or not at all: when what it names changed, nothing is done
// (refusal "stale", exit 4) unless --replan asks for a fresh plan, which is then shown and
// confirmed like any other. A plan is never swapped for another after it was confirmed.
import {readFile} from 'node:fs/promises'
import {executePlan} from '../apply/executor.js'
import {checkOutDir, writeWorld} from '../apply/fixture-writer.js'
import {guardViolations, RemovalLedger} from '../apply/guards.js'
import {MemoryWorld, type MemoryWorldOptions, type RawObject, type WorldFile} from '../apply/memory-world.js'
import type {PodControl} from '../apply/pod-control.js'
import {parseSavedPlan} from '../apply/saved-plan.js'
import {staleness} from '../apply/staleness.js'
import {initialResult} from '../apply/sync.js'
import {UserError} from '../errors.js'
import type {
  ActionResult,
  ActionTally,
  ApplyMode,
  ApplyReport,
  ApplySummary,
  ControllerOutcome,
  ProgressEvent,
  Refusal,
  RoundReport,
} from '../model/apply.js'
import {APPLY_REPORT_KIND} from '../model/apply.js'
import type {PlanSource, Snapshot} from '../model/objects.js'
import type {ActionType, ControllerPlan, FeatureGates, ReconcilePlan} from '../model/plan.js'
import {PLAN_API_VERSION} from '../model/plan.js'
import {planSnapshot, summarize} from '../reconcile/planner.js'
import {CARRIED_OUT, CONTROLLERS, type ControllerDescriptor} from '../controllers/registry.js'
import {checkCloudFlags, type CloudRequest, cloudOf, withLoadBalancers} from '../cloud/index.js'
import type {Cloud} from '../cloud/provider.js'
import type {ServiceControl} from '../controllers/service/control.js'
import {gateWarnings, parseFeatureGates, plannerOptions, resolveNow} from './options.js'
import type {PlanRequest} from './plan.js'
import {clusterRequest} from './snapshot.js'

export interface ReconcileRequest extends PlanRequest, CloudRequest {
  /** --plan FILE: a plan saved by `kctl plan -o json`. */
  planFile?: string
  /** --apply: for real; otherwise a dry run. */
  apply?: boolean
  /** --replan: a stale saved plan is replaced by a fresh one (shown and confirmed) instead of refused. */
  replan?: boolean
  untilConverged?: boolean
  /** --timeout for --until-converged (checked between rounds). */
  timeoutMs?: number
  maxDelete?: number
  allowScaleToZero?: boolean
  /** --out DIR (fixtures only): write the resulting world there. */
  out?: string
  /** API calls in flight at once. */
  concurrency?: number
  /** SIGINT: calls in flight finish, nothing new starts. */
  signal?: AbortSignal
  ui?: ReconcileUi
}

export interface ReconcileUi {
  /** Called with each round's plan before anything of it is done. */
  showPlan?(plan: ReconcilePlan, round: number): void
  /**
   * Asked once, before the first round of an --apply against a cluster; resolves true to go on.
   * Absent: no confirmation is asked (the command passes none with --yes).
   */
  confirm?(plan: ReconcilePlan, target: string): Promise<boolean>
  progress?(event: ProgressEvent): void
  /** After each round that did something. */
  roundDone?(round: number, results: ActionResult[], controllers: ControllerOutcome[]): void
  note?(message: string): void
}

/** The world a plan is carried out in. */
interface World {
  source: PlanSource
  /** "context kind (https://…)" or "the fixtures". */
  target: string
  /** A fresh snapshot: of `namespaces` only (a saved plan's), or of the request's scope. */
  read(namespaces?: string[]): Promise<Snapshot>
  control(dryRun: boolean): PodControl
  /** The endpoint and service controllers' writes: a cluster's only. */
  services?(dryRun: boolean): ServiceControl
  /** The cloud provider of the flags. */
  cloud?: Cloud
  memory?: MemoryWorld
}

const NOTES = {
  dryRunCluster:
    'dry run: every create, delete, patch and status write was sent with dryRun=All, so admission, quota and RBAC answered for real and nothing was persisted; each call is judged against the current state, not the state earlier calls would have made (several creates that reach a quota together all pass), and dry-run pod names are not reserved',
  dryRunFixtures: 'dry run on fixtures: the calls were answered in memory (preconditions as the API server checks them; no admission, quota or RBAC); nothing was written',
  status:
    'status is written as the controller writes it: counted before this sync\'s creates and deletes (upstream calculateStatus), with the resourceVersion the plan saw (a conflict is reported, not retried); the next sync (--until-converged) brings the counts up to date',
  settled:
    '--out: each controller\'s status is the one the controller writes once it has seen this sync\'s pods (its next status write), so kctl plan -f on the result shows only the work left',
  waitsForCloud: '--until-converged: only load-balancer writes are left, and they wait for a cloud provider (--lb-pool or --cloud-provider-exec)',
} as const

export async function reconcile(req: ReconcileRequest): Promise<ApplyReport> {
  const mode: ApplyMode = req.apply ? 'apply' : 'dry-run'
  const fixtures = (req.filename?.length ?? 0) > 0
  // Flag combinations first: nothing is read for a command line that cannot run.
  if (req.out !== undefined && !fixtures) throw new UserError('--out writes fixtures and needs -f', {hint: 'against a cluster the result is the cluster itself'})
  if (req.out !== undefined && !req.apply) throw new UserError('--out needs --apply: a dry run changes nothing to write')
  if (req.untilConverged && !req.apply) throw new UserError('--until-converged needs --apply: a dry run changes nothing, so every round would plan the same')
  if (req.replan && req.planFile === undefined) throw new UserError('--replan goes with --plan FILE')
  if (req.out !== undefined) checkOutDir(req.out)
  checkCloudFlags(req, fixtures)
  const featureGates = parseFeatureGates(req.featureGates)
  const fixedNow = req.now === undefined ? undefined : resolveNow(req.now)
  for (const w of gateWarnings(featureGates)) req.ui?.note?.(w)
  const clockNow = () => fixedNow ?? resolveNow(undefined, req.clock)

  const saved = req.planFile === undefined ? undefined : parseSavedPlan(await readFile(req.planFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UserError(`cannot read --plan ${req.planFile}: ${e.code ?? e.message}`)
  }), req.planFile)
  if (saved && (saved.source.type === 'fixtures') !== fixtures) {
    throw new UserError(
      saved.source.type === 'fixtures'
        ? `${req.planFile} was planned from files; apply it to the same files with -f`
        : `${req.planFile} was planned against a cluster; drop -f to apply it there`,
    )
  }

  const world = fixtures ? await nothingHalfApplied(req, () => fixtureWorld(req, clockNow)) : await clusterWorld(req)
  // Every controller kctl plans: the deployment controller's syncs, then the ReplicaSet controller's.
  const carriedOut = fixtures ? CARRIED_OUT.filter((name) => !CONTROLLERS.find((c) => c.name === name)?.apply?.clusterOnly) : CARRIED_OUT
  const plan = (snapshot: Snapshot, gates: FeatureGates = featureGates) => withoutCloudSaid(planSnapshot(snapshot, plannerOptions(clockNow(), gates, req.maxEndpointsPerSlice), carriedOut), world.cloud)
  const scope = saved ? namespacesOf(saved) : undefined
  const restrict = (p: ReconcilePlan) => (saved ? onlyControllersOf(p, saved) : p)

  const report = emptyReport(mode, world.source, saved ? 'saved' : 'computed', req.planFile)
  const refuse = (refusal: Refusal, p: ReconcilePlan, round: number): ApplyReport => {
    if (!report.rounds.some((r) => r.round === round)) report.rounds.push(roundOf(round, p))
    report.refusal = refusal
    report.outcome = 'refused'
    report.results.push(...skippedResults(p, round, `not sent: ${refusal.reason === 'declined' ? 'the apply was not confirmed' : 'the plan was refused'}`))
    return finish(report)
  }

  // Round 1's plan: the saved one, if still true of the world, or a fresh one.
  let current: ReconcilePlan
  if (saved) {
    report.plan.now = saved.now
    report.plan.summary = saved.summary
    if (saved.source.type === 'cluster' && world.source.type === 'cluster' && saved.source.server !== world.source.server) {
      return refuse({reason: 'stale', message: `saved plan is stale; run kctl plan again: it was made against ${saved.source.server}, not ${world.source.server}`, details: []}, saved, 1)
    }
    const snapshot = await world.read(scope)
    const changes = staleness(saved, snapshot, plan(snapshot, saved.options.featureGates))
    if (changes.length === 0) current = saved
    else if (!req.replan) {
      return refuse({reason: 'stale', message: `saved plan is stale; run kctl plan again (or pass --replan): ${changes[0]}${changes.length > 1 ? ` (and ${changes.length - 1} more)` : ''}`, details: changes}, saved, 1)
    } else {
      req.ui?.note?.(`saved plan is stale (${changes[0]}${changes.length > 1 ? `, and ${changes.length - 1} more` : ''}); planning again (--replan)`)
      current = restrict(plan(snapshot, saved.options.featureGates))
      report.plan.replanned = true
    }
  } else {
    current = plan(await world.read())
  }
  report.plan.now = current.now
  report.plan.summary = current.summary

  const control = world.control(mode === 'dry-run')
  const deadline = req.untilConverged ? Date.now() + (req.timeoutMs ?? 5 * 60_000) : undefined
  const removed = new RemovalLedger()
  for (let round = 1; ; round++) {
    report.rounds.push(roundOf(round, current))
    report.changesPending = !current.controllers.every((c) => c.inSync)
    req.ui?.showPlan?.(current, round)
    if (current.controllers.every(idle)) {
      if (req.untilConverged) report.converged = !report.changesPending
      break
    }
    // Without a provider, what is left for load balancers can never be sent: another round would plan it again.
    if (round > 1 && !world.cloud && current.controllers.every((c) => c.actions.every((a) => partOf(c.kind).needsCloud?.(a) ?? false))) {
      report.converged = false
      report.notes.push(NOTES.waitsForCloud)
      break
    }
    const violations = guardViolations(current, {maxDelete: req.maxDelete, allowScaleToZero: req.allowScaleToZero, ledger: removed})
    if (violations.length > 0) {
      return refuse({reason: 'guard', message: `refusing to ${mode === 'apply' ? 'apply' : 'rehearse'} the plan: ${violations[0]}${violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''}`, details: violations}, current, round)
    }
    if (round === 1 && mode === 'apply' && !fixtures && req.ui?.confirm) {
      if (!(await req.ui.confirm(current, world.target))) {
        if (req.signal?.aborted) {
          report.outcome = 'interrupted'
          report.results.push(...skippedResults(current, round, 'not sent: interrupted (SIGINT)'))
          return finish(report)
        }
        return refuse({reason: 'declined', message: 'apply cancelled', details: []}, current, round)
      }
      // Time passed while the person read the plan: what they confirmed must still be true.
      const snapshot = await world.read(scope)
      const changes = staleness(current, snapshot, plan(snapshot, current.options.featureGates))
      if (changes.length > 0) {
        return refuse({reason: 'stale', message: `the plan went stale while waiting for confirmation; nothing was done: ${changes[0]}`, details: changes}, current, round)
      }
    }
    if (req.signal?.aborted) {
      report.outcome = 'interrupted'
      report.results.push(...skippedResults(current, round, 'not sent: interrupted (SIGINT)'))
      break
    }

    const started = performance.now()
    // A fresh one each round: the Nodes it reads for provider calls are the round's.
    const services = world.services?.(mode === 'dry-run')
    const exec = await executePlan(current, {control, services, cloud: world.cloud, concurrency: req.concurrency, signal: req.signal, onProgress: req.ui?.progress, now: clockNow, round})
    // Live only: a report of fixtures stays byte-for-byte the same for the same input and --now.
    if (!fixtures) report.rounds[report.rounds.length - 1].durationMs = Math.round(performance.now() - started)
    report.results.push(...exec.results)
    report.controllers.push(...exec.controllers.filter((c) => c.actions > 0))
    req.ui?.roundDone?.(round, exec.results, exec.controllers.filter((c) => c.actions > 0))
    removed.record(exec.results)
    if (exec.interrupted) {
      report.outcome = 'interrupted'
      break
    }
    if (exec.conflict) {
      report.outcome = 'refused'
      report.refusal = {reason: 'conflict', message: `stopped: the world changed since planning: ${exec.conflict}`, details: [exec.conflict]}
      break
    }
    if (exec.results.some((r) => r.outcome === 'failed') || exec.controllers.some((c) => c.error)) {
      report.outcome = 'failed'
      break
    }
    if (!req.untilConverged) break
    if (deadline !== undefined && Date.now() > deadline) {
      report.outcome = 'not-converged'
      report.converged = false
      break
    }
    current = restrict(plan(await world.read(scope)))
  }

  if (mode === 'apply' && world.memory && req.out !== undefined) {
    if (!report.converged) {
      await settleStatuses(world.memory, plan)
      report.notes.push(NOTES.settled)
    }
    writeWorld(world.memory.files, req.out)
    report.out = req.out
  }
  if (mode === 'dry-run') report.notes.push(fixtures ? NOTES.dryRunFixtures : NOTES.dryRunCluster)
  // The notes the controllers' results call for, in the registry's order.
  const fixturesNow = world.memory?.snapshot()
  for (const c of CONTROLLERS) {
    const kinds: readonly string[] = c.kinds
    report.notes.push(...(c.apply?.notes?.(report.results.filter((r) => kinds.includes(r.controller.kind)), fixturesNow) ?? []))
  }
  if (mode === 'apply' && !report.out && !report.converged && report.results.some((r) => r.action === 'updateStatus' && r.outcome === 'ok')) report.notes.push(NOTES.status)
  return finish(report)
}

// ---------------------------------------------------------------------------------------------

async function clusterWorld(req: ReconcileRequest): Promise<World> {
  // Lazy: the cluster code pulls in client-node.
  const {connect, readCluster} = await import('../sources/cluster.js')
  const {ClusterPodControl} = await import('../apply/cluster-control.js')
  const clusterReq = clusterRequest(req)
  const {ClusterServiceControl} = await import('../controllers/service/control.js')
  const client = await connect(clusterReq)
  const cloud = cloudOf(req, client)
  return {
    source: {type: 'cluster', context: client.config.context, server: client.server},
    target: `context "${client.config.context}" (${client.server})`,
    async read(namespaces) {
      if (namespaces === undefined) return withLoadBalancers(await readCluster(clusterReq, client), cloud)
      const parts = await Promise.all(namespaces.map((ns) => readCluster({...clusterReq, namespace: ns, allNamespaces: false, selector: undefined}, client)))
      return withLoadBalancers(mergeSnapshots(parts, {type: 'cluster', context: client.config.context, server: client.server}), cloud)
    },
    control: (dryRun) => new ClusterPodControl(client, dryRun),
    services: (dryRun) => new ClusterServiceControl(client, dryRun),
    ...(cloud ? {cloud} : {}),
  }
}

/**
 * Nothing is half-applied: an input that cannot be read stops `reconcile --apply` before any
 * write, and the error line says so.
 */
async function nothingHalfApplied<T>(req: {apply?: boolean}, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (!req.apply || !(error instanceof UserError)) throw error
    throw new UserError(error.message, {origin: error.origin, wholeFile: error.wholeFile, cause: error, hint: [error.hint, 'nothing was applied: every input must be readable'].filter(Boolean).join('; ')})
  }
}

/** The fixtures as a MemoryWorld (also what `simulate` runs on; `memory` lets it model graceful deletion and seed names). */
export async function fixtureWorld(req: PlanRequest, now: () => string, memoryOptions: Pick<MemoryWorldOptions, 'gracefulPodDeletion' | 'seed'> = {}): Promise<World & {memory: MemoryWorld}> {
  const {openSources, readDocuments, readingWarnings, Normalizer, firstProblem, problemError} = await import('../sources/fixtures.js')
  const {snapshotReader} = await import('../sources/parsed.js')
  const {inventedUid} = await import('../sources/normalize.js')
  const paths = req.filename ?? []
  const normalizeOptions = {paths, namespace: req.namespace, allNamespaces: req.allNamespaces, selector: req.selector}
  // The fixture reader's own checks (sources/fixtures.ts readFixtures), keeping the raw objects.
  const files = await openSources(paths, {readStdin: req.readStdin})
  const normalizer = new Normalizer(normalizeOptions)
  const byFile = new Map<string, Array<{raw: RawObject; ordinal: number}>>(files.map((f) => [f.name, []]))
  let parseError: UserError | undefined
  try {
    for (const obj of readDocuments(files)) {
      normalizer.add(obj)
      byFile.get(obj.file)?.push({raw: obj.raw, ordinal: obj.ordinal})
    }
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    parseError = error
  }
  const {problems} = normalizer.finish()
  if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1 + (parseError ? 1 : 0))
  if (parseError) throw parseError
  // A later definition of an object replaces the earlier one, as kubectl apply leaves them.
  const replaced = new Set(normalizer.replacements.map((r) => r.replaced.ordinal))
  for (const w of readingWarnings([normalizer])) req.onWarning?.(w)
  const worldFiles: WorldFile[] = files.map((f) => ({
    name: f.name,
    fsPath: f.fsPath,
    format: f.format === 'json' ? 'json' : 'yaml',
    objects: (byFile.get(f.name) ?? []).filter((o) => !replaced.has(o.ordinal)).map((o) => o.raw),
  }))
  const memory = new MemoryWorld(worldFiles, {
    ...memoryOptions,
    defaultNamespace: req.namespace ?? 'default',
    now,
    inventedUid,
    normalize: snapshotReader('fixtures', normalizeOptions),
  })
  const source: PlanSource = {type: 'fixtures', paths: [...paths]}
  return {
    source,
    target: 'the fixtures',
    read: async () => ({...memory.snapshot(), source}),
    control: (dryRun) => memory.control(dryRun),
    memory,
  }
}

/**
 * The status writes the controllers' next syncs make once they have seen this sync's writes
 * (fixtures only), as each controller's part writes them (settledStatus): the ReplicaSet
 * controller's first, then the deployment controller's (`last`), which counts the ReplicaSets' statuses.
 */
async function settleStatuses(memory: MemoryWorld, plan: (s: Snapshot) => ReconcilePlan): Promise<void> {
  const control = memory.control(false)
  for (const last of [false, true]) {
    const next = plan(memory.snapshot())
    for (const cp of next.controllers) {
      // A Job's and a CronJob's own sync already counts its creates and deletes in its status: no settledStatus.
      const settled = partOf(cp.kind).settledStatus
      if (!settled || (settled.last ?? false) !== last) continue
      const write = cp.actions.find((a) => a.type === 'updateStatus')
      if (!write || write.type !== 'updateStatus' || ('conflict' in write && write.conflict)) continue
      const controller = await control.getController(cp)
      await control.updateStatus(cp, settled.object(write, controller.raw))
    }
  }
}

function mergeSnapshots(parts: Snapshot[], source: PlanSource): Snapshot {
  const ignored: Record<string, number> = {}
  for (const p of parts) for (const [k, n] of Object.entries(p.ignored)) ignored[k] = (ignored[k] ?? 0) + n
  return {
    deployments: parts.flatMap((p) => p.deployments ?? []),
    statefulSets: parts.flatMap((p) => p.statefulSets ?? []),
    daemonSets: parts.flatMap((p) => p.daemonSets ?? []),
    // Cluster-scoped: every part read them whole.
    nodes: parts[0]?.nodes ?? [],
    controllerRevisions: parts.flatMap((p) => p.controllerRevisions ?? []),
    claims: parts.flatMap((p) => p.claims ?? []),
    services: parts.flatMap((p) => p.services ?? []),
    endpointSlices: parts.flatMap((p) => p.endpointSlices ?? []),
    endpoints: parts.flatMap((p) => p.endpoints ?? []),
    jobs: parts.flatMap((p) => p.jobs ?? []),
    cronJobs: parts.flatMap((p) => p.cronJobs ?? []),
    hpas: parts.flatMap((p) => p.hpas ?? []),
    hpaMetrics: parts.flatMap((p) => p.hpaMetrics ?? []),
    workloads: parts.flatMap((p) => p.workloads),
    pods: parts.flatMap((p) => p.pods),
    replicaSets: parts.flatMap((p) => p.replicaSets),
    ignored,
    source,
  }
}

function namespacesOf(plan: ReconcilePlan): string[] {
  return [...new Set(plan.controllers.map((c) => c.namespace))].sort()
}

/**
 * A fresh plan cut down to the controllers a saved plan named (its scope: -n, -l when it was made),
 * and the ReplicaSets its Deployments own now (created by an earlier round).
 */
function onlyControllersOf(fresh: ReconcilePlan, saved: ReconcilePlan): ReconcilePlan {
  const names = new Set(saved.controllers.map((c) => `${c.kind}/${c.namespace}/${c.name}`))
  for (const d of fresh.controllers) {
    const owned = partOf(d.kind).owned
    if (!owned || !names.has(`${d.kind}/${d.namespace}/${d.name}`)) continue
    for (const key of owned(d)) names.add(key)
  }
  const controllers = fresh.controllers.filter((c) => names.has(`${c.kind}/${c.namespace}/${c.name}`))
  return {...fresh, controllers, summary: summarize(controllers)}
}

/** Without a provider, each Service plan with load-balancer writes says, before anything is sent, that they will not be (its part's planWarnings). */
function withoutCloudSaid(plan: ReconcilePlan, cloud: Cloud | undefined): ReconcilePlan {
  if (cloud) return plan
  for (const c of plan.controllers) c.warnings.push(...(partOf(c.kind).planWarnings?.(c, false) ?? []))
  return plan
}

/**
 * Nothing to send: no action, or a Service in sync whose only actions are the re-ensure a fresh
 * service controller makes (it writes nothing when the load balancer is as wanted: idleInSync).
 */
const idle = (c: ReconcilePlan['controllers'][number]): boolean => c.actions.length === 0 || (c.inSync && partOf(c.kind).idleInSync === true)

/** The apply part of the controller of `kind`. */
function partOf(kind: ControllerPlan['kind']): NonNullable<ControllerDescriptor['apply']> {
  const c = CONTROLLERS.find((d) => d.kinds.includes(kind))
  if (!c?.apply) throw new Error(`internal: no controller carries out ${kind}`)
  return c.apply
}

function roundOf(round: number, plan: ReconcilePlan): RoundReport {
  return {round, now: plan.now, summary: plan.summary, inSync: plan.controllers.every((c) => c.inSync), plan}
}

/** One skipped result per planned action: nothing of the plan was sent. */
function skippedResults(plan: ReconcilePlan, round: number, reason: string): ActionResult[] {
  return plan.controllers.flatMap((cp) =>
    cp.actions.map((a) => ({...initialResult(round, {kind: cp.kind, apiVersion: cp.apiVersion, namespace: cp.namespace, name: cp.name, uid: cp.uid}, a), skipReason: reason})),
  )
}

const ACTION_TYPES: ActionType[] = [
  'create',
  'delete',
  'adopt',
  'release',
  'updateStatus',
  'adoptReplicaSet',
  'releaseReplicaSet',
  'createReplicaSet',
  'updateReplicaSet',
  'scaleReplicaSet',
  'deleteReplicaSet',
  'rollback',
  'createControllerRevision',
  'updateControllerRevision',
  'deleteControllerRevision',
  'adoptControllerRevision',
  'releaseControllerRevision',
  'createClaim',
  'updateClaim',
  'createStatefulPod',
  'deleteStatefulPod',
  'updatePod',
  'createDaemonPod',
  'deleteDaemonPod',
  'chooseDaemonPods',
  'createEndpointSlice',
  'updateEndpointSlice',
  'deleteEndpointSlice',
  'writeEndpoints',
  'deleteEndpoints',
  'addLoadBalancerFinalizer',
  'ensureLoadBalancer',
  'updateLoadBalancerHosts',
  'writeLoadBalancerStatus',
  'ensureLoadBalancerDeleted',
  'removeLoadBalancerFinalizer',
  'createJobPod',
  'deleteJobPod',
  'removeFinalizer',
  'createJob',
  'deleteJob',
]

function emptyReport(mode: ApplyMode, source: PlanSource, origin: 'computed' | 'saved', file?: string): ApplyReport {
  return {
    apiVersion: PLAN_API_VERSION,
    kind: APPLY_REPORT_KIND,
    mode,
    source,
    plan: {origin, ...(file === undefined ? {} : {file}), now: '', summary: summarize([])},
    rounds: [],
    results: [],
    controllers: [],
    summary: tally([], 0),
    outcome: 'succeeded',
    changesPending: false,
    notes: [],
  }
}

function tally(results: readonly ActionResult[], rounds: number): ApplySummary {
  const byAction = Object.fromEntries(ACTION_TYPES.map((t) => [t, {planned: 0, ok: 0, failed: 0, skipped: 0}])) as Record<ActionType, ActionTally>
  for (const r of results) {
    // The HPA's writes are listed only when a run has one (older reports' byAction are unchanged).
    const t = (byAction[r.action] ??= {planned: 0, ok: 0, failed: 0, skipped: 0})
    if (r.predicted) t.planned++
    t[r.outcome]++
  }
  return {
    actions: results.length,
    ok: results.filter((r) => r.outcome === 'ok').length,
    failed: results.filter((r) => r.outcome === 'failed').length,
    skipped: results.filter((r) => r.outcome === 'skipped').length,
    byAction,
    rounds,
  }
}

/** Totals and the final outcome. */
function finish(report: ApplyReport): ApplyReport {
  report.summary = tally(report.results, report.rounds.length)
  if (report.outcome === 'succeeded' && (report.summary.failed > 0 || report.controllers.some((c) => c.error))) report.outcome = 'failed'
  return report
}

/** --timeout as kubectl takes durations: `90s`, `5m`, `1h30m`, `500ms`; a bare number is seconds. */
export function parseTimeout(text: string): number {
  const t = text.trim()
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000
  const unit: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}
  let ms = 0
  let rest = t
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest)
    if (!m) throw new UserError(`invalid --timeout "${text}": expected a duration such as 90s, 5m or 1h30m`)
    ms += Number(m[1]) * unit[m[2]]
    rest = rest.slice(m[0].length)
  }
  if (t.length === 0 || ms <= 0) throw new UserError(`invalid --timeout "${text}": expected a positive duration such as 90s, 5m or 1h30m`)
  return ms
}
