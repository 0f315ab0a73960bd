import {Flags} from '@oclif/core'

import {BaseCommand, sourceRequest} from '../cli/base.js'
import {ExitCode} from '../cli/exit-codes.js'
import {controllerManagerFlags, controllerManagerRequest, outputFlag, sourceFlags} from '../cli/flags.js'
import {UserError} from '../errors.js'
import {nextActions} from '../render/watch-table.js'
import {runWatch} from '../services/watch.js'
import {watchDisplay} from '../watch/display.js'
import {formatDuration, parseDuration} from '../watch/duration.js'

export default class Watch extends BaseCommand {
  // Short enough not to wrap mid-flag; every flag is listed under its group below.
  static override usage = '<%= command.id %> [-f PATH]... [-o table|json] [FLAGS]'
  static override summary = 'Keep planning as the cluster (or the -f files) change, and show what the controllers will do next.'
  static override description = `Lists the pods, nodes and the objects kctl plans (Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs, Services, HorizontalPodAutoscalers) once, then watches them, and plans again each controller an event can affect. On a terminal: a table redrawn in place, one row per controller, changed cells marked. Otherwise (or with -o json): NDJSON, one PlanChange line per controller whose plan changed (its "controller" is the plan -o json gives) and WatchStatus lines for synced, relisted, disconnected and reconnected.

With -f, the files are read again whenever one changes. --now is only allowed with -f: a live cluster moves with the real clock.

Exit codes: 0 converged (--until-converged) or every controller in sync when --timeout ran out, 1 any error or --timeout with controllers not in sync, 130 interrupted.`

  static override examples = [
    {description: 'Watch the current namespace:', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'In CI: wait until every controller of a namespace is in sync, for at most 5 minutes:', command: '<%= config.bin %> <%= command.id %> -n shop --until-converged --timeout 5m -o json'},
    {description: 'Re-plan the bundled examples whenever a file changes:', command: '<%= config.bin %> <%= command.id %> -f examples'},
  ]

  static override flags = {
    ...sourceFlags,
    ...controllerManagerFlags,
    output: outputFlag(['table', 'json']),
    resync: Flags.string({
      summary: 'Plan every controller again this often (e.g. 30s, 5m), at the current clock; pods whose resourceVersion did not change are skipped.',
      helpGroup: 'WATCH',
    }),
    'until-converged': Flags.boolean({summary: 'Exit 0 as soon as every watched controller is in sync.', helpGroup: 'WATCH'}),
    timeout: Flags.string({
      summary: 'Stop after this long (e.g. 90s, 5m): exit 1, naming the controllers not in sync, unless all are.',
      helpGroup: 'WATCH',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Watch)
    const format = this.outputFormat(flags)
    const resyncMs = duration(flags.resync, '--resync')
    const timeoutMs = duration(flags.timeout, '--timeout')
    const request = sourceRequest(flags)
    const display = watchDisplay({
      mode: format === 'json' ? 'ndjson' : process.stdout.isTTY ? 'live' : 'append',
      out: process.stdout,
      err: process.stderr,
      color: this.colored,
      what: request.filename?.length ? request.filename.join(', ') : [flags.context && `context ${flags.context}`, flags['all-namespaces'] ? 'all namespaces' : flags.namespace && `namespace ${flags.namespace}`].filter(Boolean).join(', ') || 'the current context',
    })
    // SIGINT (Ctrl-C) and SIGTERM end the watch cleanly: exit 130.
    const interrupt = new AbortController()
    const stop = () => interrupt.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    display.start()
    let outcome
    try {
      const req = {...request, ...controllerManagerRequest(flags), resyncMs, timeoutMs, untilConverged: flags['until-converged'], onWarning: (w: string) => display.note(`warning: ${w}`)}
      outcome = await runWatch(req, (u) => display.update(u), interrupt.signal)
    } finally {
      display.stop()
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    if (outcome.end === 'interrupted') return this.finish(ExitCode.Interrupted)
    if (outcome.end === 'timeout' && outcome.pending.length > 0) {
      const list = outcome.pending.map((p) => `${p.kind} ${p.namespace}/${p.name} (${nextActions(p)})`).join(', ')
      throw new UserError(`timed out after ${formatDuration(timeoutMs!)} with ${outcome.pending.length} of ${outcome.controllers} controllers not in sync: ${list}`)
    }
    this.finish(ExitCode.Ok)
  }
}

function duration(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined
  const ms = parseDuration(text)
  if (ms === undefined) throw new UserError(`invalid ${flag} "${text}": expected a duration`, {hint: 'e.g. 30s, 5m, 1h30m'})
  if (ms <= 0 && flag === '--resync') throw new UserError(`invalid ${flag} "${text}": must be longer than 0`)
  return ms
}
