import {createInterface} from 'node:readline'

import {Flags} from '@oclif/core'

import {BaseCommand, sourceRequest} from '../cli/base.js'
import {ExitCode} from '../cli/exit-codes.js'
import {cloudFlags, cloudRequest, controllerManagerFlags, controllerManagerRequest, outputFlag, sourceFlags} from '../cli/flags.js'
import {UserError} from '../errors.js'
import type {ApplyMode, ApplyReport, ProgressEvent} from '../model/apply.js'
import type {ReconcilePlan} from '../model/plan.js'
import {finishedLine, progressLine} from '../render/apply-progress.js'
import {renderApplyRound, renderApplySummary} from '../render/apply-table.js'
import {applyReportToWire} from '../render/apply-wire.js'
import {renderDocument} from '../render/document.js'
import {renderPlanTable} from '../render/plan-table.js'
import {parseTimeout, reconcile, type ReconcileUi} from '../services/reconcile.js'

export default class Reconcile extends BaseCommand {
  // Short enough not to wrap mid-flag; every flag is listed under its group below.
  static override usage = '<%= command.id %> [-f PATH]... [--apply [--yes]] [FLAGS]'
  static override summary = 'Carry out the plan: a server-side dry run by default, --apply to make it happen.'
  static override description = `Plans (or loads a plan saved with "kctl plan -o json > plan.json" via --plan), shows it, then sends what one sync of the Deployment controller and then of the ReplicaSet and ReplicationController controllers would send. A Deployment's writes go one at a time in the controller's order: ReplicaSets adopted and released (uid precondition), the new ReplicaSet created by its exact name, ReplicaSets scaled and updated (uid and resourceVersion preconditions), old ones deleted (the same), and its status; a write the controller's own sync would lose (conflict) is not sent. Pods: creates from the controller's template in slow-start batches (1, 2, 4 …, stopping after a batch with a failure), deletes with the pod's uid and resourceVersion as preconditions, adoptions and releases as patches with the pod's uid as precondition, and the status write with the controller's resourceVersion. StatefulSets, DaemonSets, Jobs and CronJobs are carried out in their controllers' order too (a Job: pods created, finalizers patched away, pods deleted, its two status writes; a CronJob: Jobs deleted, the Job of the due time created, its status). Services (against a cluster): EndpointSlices created (generateName), updated and deleted with their uid and resourceVersion as preconditions, the Endpoints object written, and the load balancer in the service controller's order: the finalizer, the cloud provider's call (--lb-pool or --cloud-provider-exec; without one, these are not sent), then the status.

Without --apply every call carries dryRun=All: admission, quota and RBAC answer for real and nothing persists. With --apply, a terminal asks for confirmation (--yes skips it; without a terminal --yes is required). A saved plan is applied verbatim: if a controller, ReplicaSet or pod it names changed, nothing is done (exit 4) unless --replan. On fixtures (-f), the calls are answered in memory and --out DIR writes the resulting world.

Exit codes: 0 every action succeeded, 1 an action failed or any error, 2 changes pending (dry run with --detailed-exitcode), 4 refused (stale plan, a guard, a precondition), 130 interrupted.`

  static override examples = [
    {description: 'Rehearse the next sync of every controller in the namespace on the server (nothing persists):', command: '<%= config.bin %> <%= command.id %> -n shop'},
    {description: 'Make it happen, then keep syncing until everything is in sync:', command: '<%= config.bin %> <%= command.id %> -n shop --apply --until-converged'},
    {description: 'Apply a reviewed plan exactly as saved, or nothing:', command: '<%= config.bin %> plan -n shop -o json > plan.json && <%= config.bin %> <%= command.id %> --plan plan.json --apply --yes'},
    {description: 'Offline: apply to fixtures and write the resulting world:', command: '<%= config.bin %> <%= command.id %> -f examples/scale-down --apply --out /tmp/after'},
  ]

  static override flags = {
    ...sourceFlags,
    ...cloudFlags,
    ...controllerManagerFlags,
    output: outputFlag(),
    plan: Flags.string({summary: 'Apply this saved plan (kctl plan -o json > FILE) instead of planning now.', helpGroup: 'APPLY'}),
    apply: Flags.boolean({summary: 'Carry the plan out for real (default: a server-side dry run with dryRun=All).', helpGroup: 'APPLY'}),
    yes: Flags.boolean({summary: 'Apply without asking for confirmation (required with --apply when stdin is not a terminal).', helpGroup: 'APPLY'}),
    replan: Flags.boolean({summary: 'With --plan: when the saved plan is stale, plan again (and show and confirm that plan) instead of refusing.', helpGroup: 'APPLY'}),
    'until-converged': Flags.boolean({summary: 'Repeat syncs, reading the world again between them, until every controller is in sync or --timeout.', helpGroup: 'APPLY'}),
    timeout: Flags.string({summary: 'Give up on --until-converged after this long (checked between rounds), e.g. 90s, 5m.', default: '5m', helpGroup: 'APPLY'}),
    'max-delete': Flags.integer({summary: 'Refuse a run that would delete more than this many pods (a ReplicaSet scaled down by n counts n).', min: 0, helpGroup: 'GUARDS'}),
    'allow-scale-to-zero': Flags.boolean({summary: 'Allow a plan that deletes every pod of a controller, or scales every ReplicaSet of a Deployment to 0.', helpGroup: 'GUARDS'}),
    out: Flags.string({summary: 'With -f and --apply: write the resulting world as fixtures into this new or empty directory.', helpGroup: 'APPLY'}),
    concurrency: Flags.integer({summary: 'API calls in flight at once.', default: 32, min: 1, helpGroup: 'APPLY'}),
    'detailed-exitcode': Flags.boolean({summary: 'Dry run: exit 2 when any controller is not in sync (0 when all are).', helpGroup: 'OUTPUT'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Reconcile)
    const format = this.outputFormat(flags)
    const live = !flags.filename?.length
    const ask = Boolean(flags.apply && live && !flags.yes)
    if (ask && !process.stdin.isTTY) {
      throw new UserError('refusing to --apply without confirmation: standard input is not a terminal', {hint: 'review the plan, then pass --yes'})
    }
    const interrupt = onInterrupt()
    const mode: ApplyMode = flags.apply ? 'apply' : 'dry-run'
    const report = await reconcile({
      ...sourceRequest(flags),
      ...cloudRequest(flags),
      ...controllerManagerRequest(flags),
      planFile: flags.plan,
      apply: flags.apply,
      replan: flags.replan,
      untilConverged: flags['until-converged'],
      timeoutMs: parseTimeout(flags.timeout),
      maxDelete: flags['max-delete'],
      allowScaleToZero: flags['allow-scale-to-zero'],
      out: flags.out,
      concurrency: flags.concurrency,
      signal: interrupt.signal,
      ui: this.ui(format === 'table', mode, ask, flags['until-converged']),
    }).finally(() => interrupt.dispose())
    this.print(format === 'table' ? `\n${renderApplySummary(report, {color: this.colored})}` : renderDocument(applyReportToWire(report), format))
    const line = failureLine(report)
    if (line) process.stderr.write(`${line}\n`)
    this.finish(exitCode(report, flags['detailed-exitcode']))
  }

  /** Where the plan, the progress, the confirmation and each round's results go. */
  private ui(table: boolean, mode: ApplyMode, ask: boolean, rounds: boolean): ReconcileUi {
    const color = this.colored
    const progress = process.stderr.isTTY ? new ProgressDisplay(mode) : undefined
    return {
      showPlan: (plan: ReconcilePlan, round: number) => {
        const text = `${rounds ? `Round ${round}:\n` : ''}${renderPlanTable(plan, {color})}`
        if (table) this.print(round > 1 ? `\n${text}` : text)
        else if (ask || process.stderr.isTTY) process.stderr.write(text)
      },
      confirm: ask ? (plan, target) => confirm(plan, target) : undefined,
      progress: progress ? (e) => progress.update(e) : undefined,
      roundDone: (round, results, controllers) => {
        progress?.clear()
        if (table) this.print(`\n${renderApplyRound(mode, results, controllers, {color})}`)
        else if (rounds) {
          const ok = results.filter((r) => r.outcome === 'ok').length
          process.stderr.write(`round ${round}: ${results.length} actions, ${ok} ok, ${results.length - ok} not ok\n`)
        }
      },
      note: (m) => this.note(m),
    }
  }
}

/** The one table (cli/exit-codes.ts) applied to a report. */
function exitCode(report: ApplyReport, detailed: boolean): number {
  switch (report.outcome) {
    case 'refused':
      return report.refusal?.reason === 'declined' ? ExitCode.Error : ExitCode.Refused
    case 'interrupted':
      return ExitCode.Interrupted
    case 'failed':
    case 'not-converged':
      return ExitCode.Error
    default:
      return report.mode === 'dry-run' && detailed && report.changesPending ? ExitCode.ChangesPending : ExitCode.Ok
  }
}

/** The one line on stderr for a run that did not fully succeed. */
function failureLine(report: ApplyReport): string | undefined {
  const s = report.summary
  switch (report.outcome) {
    case 'refused':
      return `error: ${report.refusal?.message ?? 'refused'}`
    case 'interrupted':
      return `interrupted: ${s.ok} of ${s.actions} actions done, ${s.skipped} not sent`
    case 'failed': {
      const what = report.mode === 'apply' ? 'failed' : 'would fail'
      return `error: ${s.failed} of ${s.actions} actions ${what}${s.skipped > 0 ? ` (${s.skipped} not sent)` : ''}; see the report`
    }
    case 'not-converged':
      return 'error: not converged before --timeout'
    default:
      return undefined
  }
}

/** SIGINT: the first stops new calls (those in flight finish and are reported); a second exits at once. */
function onInterrupt(): {signal: AbortSignal; dispose(): void} {
  const controller = new AbortController()
  const handler = () => {
    if (controller.signal.aborted) {
      process.stderr.write('\ninterrupted again: exiting without waiting for the calls in flight\n')
      process.exit(ExitCode.Interrupted)
    }
    process.stderr.write('\ninterrupt: letting the calls in flight finish; nothing new will start (Ctrl-C again to exit at once)\n')
    controller.abort()
  }
  process.on('SIGINT', handler)
  return {signal: controller.signal, dispose: () => process.off('SIGINT', handler)}
}

/** Asks on the terminal; only `yes` goes on (as Terraform asks). */
function confirm(plan: ReconcilePlan, target: string): Promise<boolean> {
  const s = plan.summary
  const endpointWrites = s.createEndpointSlice + s.updateEndpointSlice + s.deleteEndpointSlice + s.writeEndpoints + s.deleteEndpoints
  const cloudCalls = s.ensureLoadBalancer + s.updateLoadBalancerHosts + s.ensureLoadBalancerDeleted
  const parts = [
    s.create ? `${s.create} create${s.create === 1 ? '' : 's'}` : '',
    s.delete ? `${s.delete} delete${s.delete === 1 ? '' : 's'}` : '',
    s.adopt ? `${s.adopt} adoption${s.adopt === 1 ? '' : 's'}` : '',
    s.release ? `${s.release} release${s.release === 1 ? '' : 's'}` : '',
    s.updateStatus ? `${s.updateStatus} status write${s.updateStatus === 1 ? '' : 's'}` : '',
    endpointWrites ? `${endpointWrites} endpoint write${endpointWrites === 1 ? '' : 's'}` : '',
    cloudCalls ? `${cloudCalls} load-balancer call${cloudCalls === 1 ? '' : 's'}` : '',
  ].filter(Boolean)
  return new Promise((resolve) => {
    const rl = createInterface({input: process.stdin, output: process.stderr})
    let answered = false
    rl.on('SIGINT', () => {
      process.emit('SIGINT')
      rl.close()
    })
    rl.on('close', () => {
      if (!answered) resolve(false)
    })
    rl.question(`\nApply ${parts.join(', ')} to ${target}?\nOnly 'yes' will be accepted: `, (answer) => {
      answered = true
      rl.close()
      resolve(answer.trim() === 'yes')
    })
  })
}

/** The live progress line on stderr (a terminal), redrawn at most every 100 ms. */
class ProgressDisplay {
  private readonly working = new Map<string, ProgressEvent>()
  private last = 0
  private shown = false

  constructor(private readonly mode: ApplyMode) {}

  update(e: ProgressEvent): void {
    const key = `${e.round}/${e.controller.kind}/${e.controller.namespace}/${e.controller.name}`
    if (e.finished) {
      this.working.delete(key)
      this.clear()
      process.stderr.write(`${finishedLine(this.mode, e)}\n`)
      this.draw()
      return
    }
    this.working.set(key, e)
    if (Date.now() - this.last >= 100) this.draw()
  }

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K')
    this.shown = false
  }

  private draw(): void {
    this.last = Date.now()
    if (this.working.size === 0) return
    process.stderr.write(`\r\x1b[K${progressLine(this.mode, [...this.working.values()], (process.stderr.columns || 100) - 1)}`)
    this.shown = true
  }
}
