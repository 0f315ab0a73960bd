import {writeFileSync} from 'node:fs'

import {Flags} from '@oclif/core'
import chalk from 'chalk'

import {BaseCommand, sourceRequest} from '../cli/base.js'
import {ExitCode} from '../cli/exit-codes.js'
import {checkFileOptions, sourceFlags} from '../cli/flags.js'
import {APPLY_SET_MODES, type ApplySetMode} from '../sources/layout.js'
import {UserError} from '../errors.js'
import {reportOutcome} from '../model/check.js'
import {renderCheckGithub} from '../render/check-github.js'
import {renderCheckJson, rulesToWire} from '../render/check-json.js'
import {renderCheckJunit} from '../render/check-junit.js'
import {renderCheckMarkdown} from '../render/check-markdown.js'
import {renderRulesText} from '../render/check-rules.js'
import {renderCheckSarif} from '../render/check-sarif.js'
import {renderCheckText, summaryLine} from '../render/check-text.js'
import {listRules, runCheck, type CheckResult} from '../services/check.js'

const FORMATS = ['text', 'json', 'sarif', 'junit', 'github', 'markdown'] as const
type Format = (typeof FORMATS)[number]
/** Other names a format answers to: `table`, what every other command calls its human output. */
const ALIASES: Record<string, Format> = {table: 'text'}

/**
 * `-o FORMAT` (stdout) or `-o FORMAT=FILE`; at most one goes to stdout. Without -o: text, on a
 * terminal or not (as kubeconform and kube-linter print), and under GitHub Actions the findings
 * as workflow annotations too.
 */
export function parseOutputs(values: readonly string[] | undefined, env: {githubActions?: boolean} = {}): Array<{format: Format; file?: string}> {
  const outputs = (values ?? []).map((v) => {
    const eq = v.indexOf('=')
    const given = (eq < 0 ? v : v.slice(0, eq)).trim()
    const format = ALIASES[given] ?? given
    const file = eq < 0 ? undefined : v.slice(eq + 1)
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UserError(`invalid -o "${v}": expected one of ${FORMATS.join(', ')} (or table, the same as text), optionally as FORMAT=FILE`)
    }
    if (file !== undefined && file.trim() === '') throw new UserError(`invalid -o "${v}": no file after "="`)
    return {format: format as Format, file}
  })
  if (outputs.filter((o) => o.file === undefined).length > 1) {
    throw new UserError('only one -o format can go to standard output', {hint: 'write the others to files: -o sarif=out.sarif'})
  }
  if (outputs.length > 0) return outputs
  // The annotations first: the runner turns them into notes on the files; the text, with its summary, ends the log.
  return env.githubActions ? [{format: 'github'}, {format: 'text'}] : [{format: 'text'}]
}

export default class Check extends BaseCommand {
  // Short enough not to wrap mid-flag; every flag is listed under its group below.
  static override usage = '<%= command.id %> -f PATH... [-o FORMAT[=FILE]]... [FLAGS]'
  static override summary = 'Check manifests for what makes controllers misbehave: selectors, overlaps, immutable changes, removed APIs.'
  static override description = `Reads manifests (-f) and reports findings, each at the field it is about (file:line:column): selectors that do not match their templates, controllers whose selectors overlap, selector changes the API server will refuse, Services that select nothing, HPA conflicts, removed apiVersions, invalid fields. kctl check --rules lists the rules.

Configuration: .kctl.yaml in the current directory (or --config) turns rules off, changes severities and ignores paths; an object's annotation "kctl.io/ignore: RULE-ID — reason" ignores a rule for it; --baseline FILE (an earlier -o json report) fails only on new findings.

Exit codes: 0 nothing at or above --fail-on, 1 an input could not be read or parsed (or any other error), 3 a finding at or above --fail-on.`

  static override examples = [
    {description: 'Check a directory of manifests (text; -o json for the report as JSON):', command: '<%= config.bin %> <%= command.id %> -f deploy/'},
    {description: 'In CI: SARIF for code scanning, annotations in the log, fail on warnings too:', command: '<%= config.bin %> <%= command.id %> -f deploy/ -o sarif=kctl.sarif -o github --fail-on warning'},
    {description: 'Against the live objects (immutable selector changes, the server\'s Kubernetes version):', command: '<%= config.bin %> <%= command.id %> -f deploy/ --against-cluster --context prod'},
    {description: 'Against the previous render of a chart:', command: 'helm template app ./chart > new.yaml && <%= config.bin %> <%= command.id %> -f new.yaml --against old/'},
    {description: 'Only fail on findings that are not in the saved report:', command: '<%= config.bin %> <%= command.id %> -f deploy/ --baseline kctl-baseline.json'},
    {description: 'List the rules:', command: '<%= config.bin %> <%= command.id %> --rules'},
  ]

  static override flags = {
    filename: Flags.string({
      char: 'f',
      aliases: ['file'],
      multiple: true,
      summary: 'YAML/JSON file, directory (recursive) or - for stdin; repeatable.',
      helpGroup: 'SOURCE',
    }),
    kustomize: sourceFlags.kustomize,
    recursive: sourceFlags.recursive,
    'apply-set': Flags.string({
      options: [...APPLY_SET_MODES],
      default: 'dir',
      helpGroup: 'SOURCE',
      summary: 'What -f reads as applied together: dir (the files directly in one folder; a kustomize root with all below it), file, or all. Conflicts (duplicates, overlaps) are judged within one set.',
    }),
    'allow-empty': sourceFlags['allow-empty'],
    namespace: Flags.string({char: 'n', summary: 'The namespace of objects that name none (default: "default").', helpGroup: 'SOURCE'}),
    against: Flags.string({summary: 'A previous render (file or directory) to compare selectors with.', helpGroup: 'SOURCE'}),
    'against-cluster': Flags.boolean({summary: 'Compare selectors with the live objects (kubeconfig, --context).', helpGroup: 'SOURCE'}),
    schemas: Flags.string({summary: 'A file or directory of CustomResourceDefinitions to validate custom resources with.', helpGroup: 'CHECK'}),
    kubeconfig: sourceFlags.kubeconfig,
    context: sourceFlags.context,
    output: Flags.string({
      char: 'o',
      multiple: true,
      summary: `Output format: ${FORMATS.join(', ')} (table = text); FORMAT=FILE writes to a file; repeatable. Default: text (under GitHub Actions, GITHUB_ACTIONS=true: github annotations, then text).`,
      helpGroup: 'OUTPUT',
    }),
    'fail-on': Flags.option({options: ['error', 'warning', 'info'] as const, summary: 'Exit 3 when a finding is at or above this severity (default: error).', helpGroup: 'CHECK'})(),
    config: Flags.string({summary: 'Configuration file (default: .kctl.yaml in the current directory, if any).', helpGroup: 'CHECK'}),
    baseline: Flags.string({summary: 'A report from kctl check -o json: its findings do not count.', helpGroup: 'CHECK'}),
    'k8s-version': Flags.string({summary: 'Kubernetes version to check against: its OpenAPI schemas and deprecations, 1.32 to 1.36 (default: the live server\'s with --against-cluster, else 1.36).', helpGroup: 'CHECK'}),
    disable: Flags.string({multiple: true, summary: 'Turn a rule off for this run (repeatable, or comma-separated).', helpGroup: 'CHECK'}),
    enable: Flags.string({multiple: true, summary: 'Turn on a rule that is off by default or in the configuration (repeatable, or comma-separated).', helpGroup: 'CHECK'}),
    rules: Flags.boolean({summary: 'List the rules (with -o json: as JSON) and exit.', helpGroup: 'CHECK'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Check)
    const tty = Boolean(process.stdout.isTTY)
    const color = flags.color ?? (tty && chalk.level > 0 && !process.env.NO_COLOR)
    if (flags.rules) {
      const [out] = parseOutputs(flags.output)
      if (out.format !== 'text' && out.format !== 'json') throw new UserError(`--rules prints text or json, not ${out.format}`)
      const rules = listRules({config: flags.config, disable: flags.disable, enable: flags.enable})
      this.emit(out.format === 'json' ? `${JSON.stringify(rulesToWire(rules), null, 2)}\n` : renderRulesText(rules), out.file)
      return
    }
    checkFileOptions(flags)
    const outputs = parseOutputs(flags.output, {githubActions: process.env.GITHUB_ACTIONS === 'true'})
    const result = await runCheck({
      filename: flags.filename,
      kustomize: flags.kustomize,
      applySet: flags['apply-set'] as ApplySetMode,
      allowEmpty: flags['allow-empty'],
      onNote: (note) => this.note(note),
      schemas: flags.schemas,
      namespace: flags.namespace,
      config: flags.config,
      baseline: flags.baseline,
      failOn: flags['fail-on'],
      k8sVersion: flags['k8s-version'],
      disable: flags.disable,
      enable: flags.enable,
      against: flags.against,
      againstCluster: flags['against-cluster'],
      kubeconfig: flags.kubeconfig,
      context: flags.context,
      readStdin: sourceRequest({}).readStdin,
    })
    for (const out of outputs) this.emit(this.render(result, out.format, out.file === undefined && color), out.file)
    if (outputs.every((o) => o.file !== undefined)) {
      process.stderr.write(`kctl check: ${summaryLine(result.report).replace(/^[✓✖!i] /, '')}; wrote ${outputs.map((o) => o.file).join(', ')}\n`)
    }
    const outcome = reportOutcome(result.report)
    this.finish(outcome === 'unreadable' ? ExitCode.Error : outcome === 'findings' ? ExitCode.Findings : ExitCode.Ok)
  }

  private render(result: CheckResult, format: Format, color: boolean): string {
    switch (format) {
      case 'text':
        return renderCheckText(result.report, {color})
      case 'json':
        return renderCheckJson(result.report)
      case 'sarif':
        return renderCheckSarif(result.report, {rules: result.rules, version: this.config.version})
      case 'junit':
        return renderCheckJunit(result.report, result.files)
      case 'github':
        return renderCheckGithub(result.report)
      case 'markdown':
        return renderCheckMarkdown(result.report, result.rules)
    }
  }

  private emit(text: string, file: string | undefined): void {
    if (file === undefined) {
      this.print(text)
      return
    }
    try {
      writeFileSync(file, text)
    } catch (error) {
      throw new UserError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {hint: 'does its directory exist?'})
    }
  }
}
