// What every controller's sync in the executor shares: the run (one limiter for all calls, the
// stop conditions), and per controller one result per planned action, settled as calls answer.
import type {ActionError, ActionResult, ControllerId, ControllerOutcome, ProgressEvent} from '../model/apply.js'
import type {Action, AdoptAction, ControllerPlan, ReleaseAction} from '../model/plan.js'
import type {Cloud} from '../cloud/provider.js'
import {Limiter} from './limit.js'
import {slowStart} from '../reconcile/slow-start.js'
import type {ServiceControl} from '../controllers/service/control.js'
import {type ControllerObject, type OwnerPatch, type PodControl, type PodManifest, actionError} from './pod-control.js'

/** API calls in flight at once, across all controllers. */
export const DEFAULT_CONCURRENCY = 32

export const SKIP = {
  interrupted: 'not sent: interrupted (SIGINT)',
  conflict: 'not sent: another call found that the world changed since planning',
  afterFailedBatch: 'not sent: slow start stops after a batch with a failure',
  claimFailed: 'not sent: an adoption or release failed, and the sync stops there (as the controller\'s does)',
  controllerChanged: 'not sent: the controller changed since planning',
  controllerUnreadable: 'not sent: the controller could not be read',
  notSent: 'not sent',
  plannedConflict:
    'not sent: the controller\'s own sync sends this write with a resourceVersion an earlier write of the same sync replaced, and loses it (409 Conflict); its next sync does it',
  afterFailedWrite: 'not sent: an earlier write of this sync failed, and the controller\'s sync stops there (it returns the error)',
  afterUnsent: 'not sent: an earlier write of this sync was not sent, and what follows depends on it',
  ownerWrote: 'not sent: its Deployment\'s sync in this round changed this ReplicaSet; the ReplicaSet controller acts on the new version in the next round',
  ownerDeleted: 'not sent: its CronJob\'s sync in this round deleted this Job',
  rollback: 'not sent: kctl does not carry out the legacy rollback annotation (an Update of the Deployment\'s template); the deployment controller does it',
  nameUnknown: 'not sent: the new ReplicaSet\'s name is unknown here',
} as const

export interface ExecuteOptions {
  control: PodControl
  /** The endpoint and service controllers' writes (against a cluster; absent: Services are not carried out). */
  services?: ServiceControl
  /** The cloud provider load-balancer calls go to (absent: they are not sent). */
  cloud?: Cloud
  concurrency?: number
  workers?: number
  signal?: AbortSignal
  onProgress?: (event: ProgressEvent) => void
  /** RFC 3339 "now" for a ReplicaFailure condition's lastTransitionTime. */
  now: () => string
  round?: number
}

export class Run {
  readonly calls: Limiter
  readonly round: number
  conflict?: string

  constructor(readonly opts: ExecuteOptions) {
    this.calls = new Limiter(opts.concurrency ?? DEFAULT_CONCURRENCY)
    this.round = opts.round ?? 1
  }

  get interrupted(): boolean {
    return this.opts.signal?.aborted ?? false
  }

  /** Why nothing new may start, or undefined. */
  stopReason(): string | undefined {
    if (this.interrupted) return SKIP.interrupted
    if (this.conflict) return SKIP.conflict
    return undefined
  }
}

/** One controller's sync: its results, how it ended, and the checks every sync starts with. */
export abstract class SyncBase {
  readonly id: ControllerId
  readonly results: ActionResult[]
  protected extra: ActionResult[] = []
  protected stopped?: string
  protected error?: ActionError
  private finished = 0

  constructor(
    protected readonly run: Run,
    protected readonly cp: ControllerPlan,
  ) {
    this.id = {kind: cp.kind, apiVersion: cp.apiVersion, namespace: cp.namespace, name: cp.name, uid: cp.uid}
    this.results = cp.actions.map((a) => initialResult(run.round, this.id, a))
  }

  protected get control(): PodControl {
    return this.run.opts.control
  }

  protected get label(): string {
    return `${this.cp.kind} ${this.cp.namespace}/${this.cp.name}`
  }

  /** The calls of the sync, in the controller's order. */
  protected abstract steps(): Promise<void>

  allResults(): ActionResult[] {
    return [...this.results, ...this.extra]
  }

  outcome(): ControllerOutcome {
    const all = this.allResults()
    const out: ControllerOutcome = {
      round: this.run.round,
      controller: this.id,
      actions: all.length,
      ok: all.filter((r) => r.outcome === 'ok').length,
      failed: all.filter((r) => r.outcome === 'failed').length,
      skipped: all.filter((r) => r.outcome === 'skipped').length,
    }
    const batches: number[] = []
    for (const r of this.results) if (r.batch !== undefined) batches[r.batch - 1] = (batches[r.batch - 1] ?? 0) + 1
    if (batches.length > 0) out.batches = batches.filter((n) => n > 0)
    if (this.stopped) out.stopped = this.stopped
    if (this.error) out.error = this.error
    if (this.cp.warnings.length > 0) out.warnings = [...this.cp.warnings]
    return out
  }

  async execute(): Promise<void> {
    if (this.cp.actions.length === 0) return
    try {
      await this.steps()
    } finally {
      // Anything not decided by now was never sent.
      const reason = this.stopped ?? this.run.stopReason() ?? SKIP.notSent
      for (const r of this.results) if (r.outcome === 'skipped' && !r.skipReason) r.skipReason = reason
      this.progress(true)
    }
  }

  /** The controller as it is now, or undefined (and the sync stopped) when it is not the plan's. */
  protected async readController(): Promise<ControllerObject | undefined> {
    const halt = this.run.stopReason()
    if (halt) return void this.stop(halt)
    let controller: ControllerObject
    try {
      controller = await this.run.calls.run(() => this.control.getController(this.cp))
    } catch (e) {
      this.error = actionError(e)
      // Gone since planning: the plan no longer describes the world.
      if (this.error.code === 404) this.run.conflict ??= `${this.label} no longer exists`
      return void this.stop(SKIP.controllerUnreadable)
    }
    const changed = changedSincePlan(this.cp, controller)
    if (changed) {
      // Found by comparing, not answered by the server: no HTTP code.
      this.error = {message: `${this.label} changed since planning: ${changed}`}
      this.run.conflict ??= this.error.message
      return void this.stop(SKIP.controllerChanged)
    }
    return controller
  }

  /**
   * Pod creates in slow-start batches 1, 2, 4 … (slowStartBatch), stopping after a batch with a
   * failure. A create refused because the namespace is being deleted counts as done, as the
   * controllers count it ("any creation will fail"). Resolves to the creates that count as done.
   */
  protected async createPods(idx: readonly number[], manifest: (i: number) => PodManifest, onError?: (error: ActionError) => void): Promise<number> {
    let next = 0
    const outcome = await slowStart(idx.length, (batch) => {
      const i = idx[next++]
      const r = this.results[i]
      return this.run.calls.run(async () => {
        if (this.run.stopReason()) return false
        r.batch = batch
        try {
          const made = await this.control.createPod(manifest(i))
          r.pod = made.name
          r.done = {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
          this.settle(r, 'ok')
          return true
        } catch (e) {
          const error = actionError(e)
          if (error.causes?.includes('NamespaceTerminating')) {
            r.done = {namespaceTerminating: true}
            this.settle(r, 'ok')
            return true
          }
          onError?.(error)
          this.settle(r, 'failed', error)
          return false
        }
      })
    })
    if (outcome.successes < idx.length && !this.run.stopReason()) {
      for (const i of idx) if (this.results[i].outcome === 'skipped') this.results[i].skipReason = SKIP.afterFailedBatch
    }
    return outcome.successes
  }

  /**
   * claimPods: the plan's adoptions and releases, each a patch with the pod's uid as precondition
   * (`patchOf` builds it). Returns false when the sync must stop (a claim failed). The resourceVersion
   * each patch left goes into `versions`, for a delete of the same pod later in the sync.
   */
  protected async claimPods(versions: Map<string, string>, patchOf: (a: AdoptAction | ReleaseAction) => OwnerPatch): Promise<boolean> {
    let ok = true
    const claims = [...this.indexes('adopt'), ...this.indexes('release')].sort((a, b) => a - b)
    await Promise.all(
      claims.map((i) =>
        this.run.calls.run(async () => {
          const action = this.cp.actions[i] as AdoptAction | ReleaseAction
          const r = this.results[i]
          if (this.run.stopReason()) return
          const patch = patchOf(action)
          try {
            const patched = await this.control.patchPod(this.cp.namespace, action.pod, patch)
            // An adopted pod may be deleted in the same sync (docs/replicaset-controller.md 3.5.1); the
            // adoption itself changed its resourceVersion. A dry run changed nothing.
            if (!this.control.dryRun && patched.resourceVersion) versions.set(action.uid, patched.resourceVersion)
            this.settle(r, 'ok')
          } catch (e) {
            const error = actionError(e)
            if (action.type === 'release' && error.code === 404) {
              // ReleasePod ignores NotFound: a pod that is gone is not ours either.
              r.done = {alreadyGone: true}
              this.settle(r, 'ok')
            } else if (error.code === 404 || error.code === 409 || error.code === 422) {
              // Gone, replaced (uid precondition: 422), or claimed by another controller since planning.
              ok = false
              this.conflicted(r, error, `pod ${this.cp.namespace}/${action.pod} changed since planning`)
            } else {
              ok = false
              this.settle(r, 'failed', error)
            }
          }
        }),
      ),
    )
    return ok
  }

  protected stop(reason: string): void {
    this.stopped ??= reason
  }

  protected indexes(type: Action['type']): number[] {
    return this.cp.actions.flatMap((a, i) => (a.type === type ? [i] : []))
  }

  private progress(finished = false): void {
    this.run.opts.onProgress?.({
      round: this.run.round,
      controller: this.id,
      done: this.finished,
      total: this.cp.actions.length,
      failed: this.results.filter((r) => r.outcome === 'failed').length,
      finished,
    })
  }

  protected settle(r: ActionResult, outcome: 'ok' | 'failed', error?: ActionError): void {
    r.outcome = outcome
    if (error) r.error = error
    if (this.results.includes(r)) {
      this.finished++
      this.progress()
    }
  }

  /** A failure that means "this object is not what the plan saw": stop everything new. */
  protected conflicted(r: ActionResult, error: ActionError, what: string): void {
    r.conflict = true
    this.settle(r, 'failed', error)
    this.run.conflict ??= `${what}: ${error.message}`
  }
}

/** The result of a planned action before anything is sent: skipped, until a call settles it. */
export function initialResult(round: number, controller: ControllerId, action: Action): ActionResult {
  const r: ActionResult = {round, controller, action: action.type, predicted: action, outcome: 'skipped'}
  if (action.type === 'delete' || action.type === 'adopt' || action.type === 'release') r.pod = action.pod
  if ('replicaSet' in action) r.replicaSet = action.replicaSet
  else if (action.type === 'createReplicaSet' && action.name !== null) r.replicaSet = action.name
  return r
}

function changedSincePlan(cp: ControllerPlan, now: ControllerObject): string | undefined {
  if (now.uid !== cp.uid) return `uid ${cp.uid} → ${now.uid} (deleted and re-created)`
  if (now.resourceVersion !== cp.resourceVersion) return `resourceVersion ${cp.resourceVersion} → ${now.resourceVersion}`
  return undefined
}
