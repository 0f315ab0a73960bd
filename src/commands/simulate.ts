import {Flags} from '@oclif/core'
import {BaseCommand, sourceRequest} from '../cli/base.js'
import {ExitCode} from '../cli/exit-codes.js'
import {changeFlags, changeRequest, outputFlag, sourceFlags} from '../cli/flags.js'
import type {Simulation} from '../model/simulation.js'
import {renderDocumentChunks} from '../render/document.js'
import {renderSimulationMarkdown, renderSimulationTable} from '../render/simulation.js'
import {DEFAULT_RUN_FOR} from '../simulate/kubelet.js'
import {DEFAULT_CRONJOB_UNTIL, DEFAULT_READY_AFTER, simulate} from '../services/simulate.js'

export default class Simulate extends BaseCommand {
  static override usage = '<%= command.id %> [-f PATH]... [-o table|json|yaml|markdown] [FLAGS]'
  static override summary = 'Run the controllers forward in virtual time: a rollout\'s whole timeline before it happens.'
  static override description = `Reads the world once (-f or the live cluster), then runs the Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob controllers' syncs one after another on an in-memory copy, with a simple scheduler and kubelet between them: pods are bound at once (a DaemonSet's to its node), Ready --ready-after after they are created, available after minReadySeconds, gone --terminate-after after their deletion; a Job's pods exit --run-for after they became Ready. CronJobs run at their schedule times. It stops when nothing is left to happen, or at --until. It writes nothing, but the files --out asks for.

The table ends with one verdict per rollout: complete (and when), stalled, or ProgressDeadlineExceeded.

With --load KIND/NAME=SPEC the workload's HorizontalPodAutoscaler runs too, every 15s sync period with the memory a running controller keeps, on metrics made from the demand given (spread over the target's Ready pods); the report adds its replica curve, scale events, ScalingLimited stretches and how long demand went unmet.

Exit codes: 0 success, 1 any error; with --detailed-exitcode 0 every rollout completes and no controller acts, 2 every rollout completes with changes, 3 a rollout does not complete (deadline exceeded, stalled at the end or at --until, or a bound broken), or demand went unmet longer than --max-unmet.`

  static override examples = [
    {description: 'The rest of a rollout, at a fixed clock:', command: '<%= config.bin %> <%= command.id %> -f examples/rollout --now 2026-11-22T10:00:00Z'},
    {description: 'What a new image does, and what happens when it never becomes ready:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --set-image deployment/web=web=nginx:1.28 --fail nginx:1.28'},
    {description: 'A CronJob\'s runs over a day (Job names, concurrencyPolicy, history deletions):', command: '<%= config.bin %> <%= command.id %> -f examples/cronjob --now 2026-11-22T10:00:00Z --until 24h'},
    {description: 'Apply new manifests onto the live state (server-side dry run) and simulate from there:', command: '<%= config.bin %> <%= command.id %> --apply-manifests new/ -o markdown'},
    {description: 'In CI: exit 3 when a rollout would not complete, 2 when it completes with changes:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --set-image deployment/web=web=nginx:1.28 --detailed-exitcode'},
    {
      description: 'A day of autoscaling: CPU demand of 600m, then 1800m from t+10m, 300m from t+2h; exit 3 if demand goes unmet longer than 5m:',
      command: '<%= config.bin %> <%= command.id %> -f examples/hpa --load deployment/web=cpu:600m@0s,1800m@10m,300m@2h --until 24h --max-unmet 5m --detailed-exitcode',
    },
    {description: 'Keep the world at the end as fixtures (a second what-if starts from it with -f after/):', command: '<%= config.bin %> <%= command.id %> -f deploy/ --scale deployment/web=10 --out after/'},
  ]

  static override flags = {
    ...sourceFlags,
    ...changeFlags,
    output: outputFlag(['table', 'json', 'yaml', 'markdown']),
    'ready-after': Flags.string({summary: `How long after creation a pod becomes Ready (default ${DEFAULT_READY_AFTER}).`, helpGroup: 'MODEL'}),
    'terminate-after': Flags.string({summary: 'How long a deleted pod terminates (default: its terminationGracePeriodSeconds, at most 30s).', helpGroup: 'MODEL'}),
    fail: Flags.string({multiple: true, summary: 'Pods with this image, pod-template-hash or ControllerRevision (name or hash) never become Ready (CrashLoopBackOff); a Job\'s pods with this image, or of the Job of this name, exit 1 instead; repeatable.', helpGroup: 'MODEL'}),
    'run-for': Flags.string({summary: `How long a Job's pod runs once Ready before it exits (default ${DEFAULT_RUN_FOR}; its stage.kctl.io/complete-after annotation wins).`, helpGroup: 'MODEL'}),
    until: Flags.string({summary: `Stop after this much virtual time (e.g. 10m; default with a CronJob: ${DEFAULT_CRONJOB_UNTIL}, since a CronJob never goes quiet).`, helpGroup: 'MODEL'}),
    load: Flags.string({
      multiple: true,
      summary: 'Demand over time on a workload, spread over its Ready pods, for its HorizontalPodAutoscaler: METRIC:VALUE@OFFSET,... (e.g. cpu:600m@0s,1800m@10m; VALUE@FROM~TO for a linear ramp; ; between metrics) or a .yaml/.json file; repeatable.',
      helpValue: 'KIND/NAME=SPEC|FILE',
      helpGroup: 'MODEL',
    }),
    seed: Flags.string({summary: 'Mixed into generated pod names (the same input and seed give the same names).', helpGroup: 'MODEL'}),
    'detailed-exitcode': Flags.boolean({
      summary: 'Exit 2 when every rollout completes with changes, 3 when one does not complete (0: complete, no controller acts).',
      helpGroup: 'OUTPUT',
    }),
    'max-unmet': Flags.string({
      summary: 'With --detailed-exitcode, exit 3 when an autoscaler\'s demand went unmet (above its Ready pods × target, beyond tolerance) longer than this duration.',
      helpValue: 'DURATION',
      helpGroup: 'OUTPUT',
    }),
    out: Flags.string({
      summary: 'Write the world at the end to this new or empty directory, as YAML that -f reads back (with --now at the end).',
      helpValue: 'DIR',
      helpGroup: 'OUTPUT',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Simulate)
    // markdown is plain text; the base class knows table, json and yaml.
    const format = flags.output === 'markdown' ? 'markdown' : this.outputFormat(flags)
    const sim = await simulate({
      ...sourceRequest(flags),
      ...changeRequest(flags),
      readyAfter: flags['ready-after'],
      terminateAfter: flags['terminate-after'],
      fail: flags.fail,
      runFor: flags['run-for'],
      until: flags.until,
      seed: flags.seed,
      load: flags.load,
      maxUnmet: flags['max-unmet'],
      out: flags.out,
      onWarning: (w) => this.note(w),
      onWritten: ({files, objects, directory}) => process.stderr.write(`wrote ${objects} objects to ${directory} (${files.join(', ')})\n`),
    })
    if (format === 'table') this.print(renderSimulationTable(sim, {color: this.colored}))
    else if (format === 'markdown') this.print(renderSimulationMarkdown(sim))
    else this.print(renderDocumentChunks(sim, format))
    this.finish(flags['detailed-exitcode'] ? detailedExitCode(sim) : ExitCode.Ok)
  }
}

/** --detailed-exitcode: 3 a rollout that does not complete within its bounds, or demand unmet longer than --max-unmet; 2 every one completes and some controller acted, 0 nothing to do. */
export function detailedExitCode(sim: Simulation): number {
  if (sim.summary.incomplete.length > 0 || (sim.summary.unmet?.length ?? 0) > 0) return ExitCode.RolloutIncomplete
  return sim.summary.steps > 0 ? ExitCode.ChangesPending : ExitCode.Ok
}
