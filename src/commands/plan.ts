import {Flags} from '@oclif/core'

import {BaseCommand, sourceRequest} from '../cli/base.js'
import {ExitCode} from '../cli/exit-codes.js'
import {changeFlags, changeRequest, cloudFlags, cloudRequest, controllerManagerFlags, controllerManagerRequest, outputFlag, sourceFlags} from '../cli/flags.js'
import {renderDocument} from '../render/document.js'
import {emptyPlanLine} from '../render/read-report.js'
import {renderPlanTable} from '../render/plan-table.js'
import {planToWire, writePlanJson} from '../render/wire.js'
import {computePlan} from '../services/plan.js'
import {hasChanges, planChanged} from '../services/simulate.js'

export default class Plan extends BaseCommand {
  // Short enough not to wrap mid-flag; every flag is listed under its group below.
  static override usage = '<%= command.id %> [-f PATH]... [-o table|json|yaml] [FLAGS]'
  static override summary = 'Show, pod by pod, what the workload and Service controllers will do in their next sync.'
  static override description = `For every Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob, Service and HorizontalPodAutoscaler read, kctl lists what its controller would create, delete (with the rule that decided it), adopt or release, and the status it would write. Nothing is changed.

Exit codes: 0 success, 1 any error, 2 changes pending (only with --detailed-exitcode).`

  static override examples = [
    {description: 'Plan the bundled scale-down example at a fixed clock:', command: '<%= config.bin %> <%= command.id %> -f examples/scale-down --now 2026-11-22T10:00:00Z'},
    {description: 'The same as the versioned JSON document (kctl/v1alpha1 ReconcilePlan):', command: '<%= config.bin %> <%= command.id %> -f examples/scale-down -o json'},
    {description: 'In CI: exit 2 when any controller would act:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --detailed-exitcode -o json > plan.json'},
    {description: 'Read manifests from stdin:', command: 'kubectl get rs,pods -o yaml | <%= config.bin %> <%= command.id %> -f -'},
  ]

  static override flags = {
    ...sourceFlags,
    ...changeFlags,
    ...cloudFlags,
    ...controllerManagerFlags,
    output: outputFlag(),
    'detailed-exitcode': Flags.boolean({
      summary: 'Exit 2 when any controller is not in sync (0 when all are; errors are always 1).',
      helpGroup: 'OUTPUT',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Plan)
    const format = this.outputFormat(flags)
    const req = {...sourceRequest(flags), ...changeRequest(flags), ...cloudRequest(flags), ...controllerManagerRequest(flags), onWarning: (w: string) => this.note(w)}
    // A what-if plans the world after the change (one world: apply sets are not told apart).
    const plan = hasChanges(req) ? await planChanged(req) : await computePlan(req)
    this.print(format === 'table' ? renderPlanTable(plan, {color: this.colored}) : format === 'json' ? (sink) => writePlanJson(plan, sink) : renderDocument(planToWire(plan), format))
    // An empty plan is not "in sync" for CI: say why nothing was planned, and fail unless --allow-empty.
    const empty = emptyPlanLine(plan, req)
    const emptyFails = empty !== undefined && flags['detailed-exitcode'] && !flags['allow-empty']
    if (empty !== undefined && (plan.ignoredByFilter || emptyFails)) {
      if (emptyFails) this.errorLine(`${empty}; --detailed-exitcode does not report an empty plan as in sync (pass --allow-empty to accept one)`)
      else this.note(empty)
    }
    if (this.reportUnreadable(plan) || emptyFails) this.finish(ExitCode.Error)
    const pending = plan.controllers.some((c) => !c.inSync)
    this.finish(flags['detailed-exitcode'] && pending ? ExitCode.ChangesPending : ExitCode.Ok)
  }
}
