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

Exit codes: 0 success, 1 any error; with --detailed-exitcode 0 every rollout completes and no controller acts, 2 every rollout completes with changes, 3 a rollout does not complete (deadline exceeded, stalled at the end or at --until, or a bound broken).`

  static override examples = [
    {description: 'The rest of a rollout, at a fixed clock:', command: '<%= config.bin %> <%= command.id %> -f examples/rollout --now 2026-11-22T10:00:00Z'},
    {description: 'What a new image does, and what happens when it never becomes ready:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --set-image deployment/web=web=nginx:1.28 --fail nginx:1.28'},
    {description: 'A CronJob\'s runs over a day (Job names, concurrencyPolicy, history deletions):', command: '<%= config.bin %> <%= command.id %> -f examples/cronjob --now 2026-11-22T10:00:00Z --until 24h'},
    {description: 'Apply new manifests onto the live state (server-side dry run) and simulate from there:', command: '<%= config.bin %> <%= command.id %> --apply-manifests new/ -o markdown'},
    {description: 'In CI: exit 3 when a rollout would not complete, 2 when it completes with changes:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --set-image deployment/web=web=nginx:1.28 --detailed-exitcode'},
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
    seed: Flags.string({summary: 'Mixed into generated pod names (the same input and seed give the same names).', helpGroup: 'MODEL'}),
    'detailed-exitcode': Flags.boolean({
      summary: 'Exit 2 when every rollout completes with changes, 3 when one does not complete (0: complete, no controller acts).',
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

/** --detailed-exitcode: 3 a rollout that does not complete within its bounds, 2 every one completes and some controller acted, 0 nothing to do. */
export function detailedExitCode(sim: Simulation): number {
  if (sim.summary.incomplete.length > 0) return ExitCode.RolloutIncomplete
  return sim.summary.steps > 0 ? ExitCode.ChangesPending : ExitCode.Ok
}
