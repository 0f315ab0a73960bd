import {BaseCommand, sourceRequest} from '../cli/base.js'
import {outputFlag, sourceFlags} from '../cli/flags.js'
import {renderDocument} from '../render/document.js'
import {renderListTable} from '../render/list-table.js'
import {controllerListToWire} from '../render/list-wire.js'
import {computePlan} from '../services/plan.js'
import {emptyPlanLine} from '../render/read-report.js'
import {ExitCode} from '../cli/exit-codes.js'

export default class List extends BaseCommand {
  // Short enough not to wrap mid-flag; every flag is listed under its group below.
  static override usage = '<%= command.id %> [-f PATH]... [-o table|json|yaml] [FLAGS]'
  static override summary = 'List the controllers read (Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs, Services, HorizontalPodAutoscalers), one row each, with their counts and whether they are in sync.'
  static override description = `DESIRED is spec.replicas; ACTIVE the pods that count toward it; READY and AVAILABLE the status the controller would write; DIFF is ACTIVE - DESIRED (positive: too many). Use "kctl plan" to see the actions.`

  static override examples = [
    {description: 'Every controller in the bundled examples:', command: '<%= config.bin %> <%= command.id %> -f examples --now 2026-11-22T10:00:00Z'},
    {description: 'As a kctl/v1alpha1 ControllerList document:', command: '<%= config.bin %> <%= command.id %> -f examples -o json'},
  ]

  static override flags = {...sourceFlags, output: outputFlag()}

  async run(): Promise<void> {
    const {flags} = await this.parse(List)
    const format = this.outputFormat(flags)
    const plan = await computePlan({...sourceRequest(flags), onWarning: (w) => this.note(w)})
    this.print(format === 'table' ? renderListTable(plan) : renderDocument(controllerListToWire(plan), format))
    if (plan.controllers.length === 0 && plan.ignoredByFilter) this.note(emptyPlanLine(plan, {namespace: flags.namespace, selector: flags.selector})!)
    if (this.reportUnreadable(plan)) this.finish(ExitCode.Error)
  }
}
