// The thin base every command extends: shared flags, the output format, where text goes, and
// colour. Commands stay at "flags -> options -> one service -> render -> exit code".
import {Command, Flags} from '@oclif/core'
import chalk from 'chalk'

import type {ReadError} from '../model/plan.js'
import {cutEchoes} from '../render/echo.js'
import type {ByteSink} from '../render/json-writer.js'
import {unreadableLines} from '../render/read-report.js'
import type {ApplySetMode} from '../sources/layout.js'
import {tuneCompiler} from './compiler-tuning.js'
import {ExitCode} from './exit-codes.js'
import {checkFileOptions} from './flags.js'

export type OutputFormat = 'table' | 'json' | 'yaml'

/** A document that writes itself, a buffer at a time (render/json-writer.ts). */
export type WrittenDocument = (sink: ByteSink) => void

/**
 * One buffer to stdout: written at once to a file or a terminal, and to a pipe that is not full,
 * so the buffer may be filled again; kept (not to be touched) while a full pipe queues it.
 */
const writeBytes: ByteSink = (bytes) => {
  process.stdout.write(bytes)
  return process.stdout.writableLength === 0
}

export abstract class BaseCommand extends Command {
  static override baseFlags = {
    color: Flags.boolean({
      allowNo: true,
      summary: 'Colour the output on a terminal (default: on, unless NO_COLOR is set). JSON, YAML and files are never coloured.',
      helpGroup: 'OUTPUT',
    }),
  }

  override async init(): Promise<void> {
    await super.init()
    // Now that the command's modules, and the built-ins they load, are loaded (compiler-tuning.ts).
    tuneCompiler()
    // `kctl plan | head`: a closed pipe ends the output quietly instead of crashing.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      process.exit(process.exitCode ?? ExitCode.Ok)
    })
  }

  /**
   * `-o` if given; otherwise `table` on a terminal and `json` when piped (the contract: "table
   * (default on a TTY)"). Sets chalk's level for the rest of the run: colour only in a table, and
   * never with --no-color or NO_COLOR (chalk itself ignores NO_COLOR).
   */
  protected outputFormat(flags: {output?: string; color?: boolean}): OutputFormat {
    const format = (flags.output ?? (process.stdout.isTTY ? 'table' : 'json')) as OutputFormat
    if (format !== 'table' || flags.color === false || process.env.NO_COLOR) chalk.level = 0
    else if (flags.color === true && chalk.level === 0) chalk.level = 1
    return format
  }

  /** Whether human output should be coloured (after outputFormat). */
  protected get colored(): boolean {
    return chalk.level > 0
  }

  /** The command's result: the one document (json/yaml) or the table, on stdout. */
  protected print(text: string | Iterable<string> | WrittenDocument): void {
    if (typeof text === 'string') process.stdout.write(text)
    else if (typeof text === 'function') text(writeBytes)
    else for (const chunk of text) process.stdout.write(chunk)
  }

  /** Progress and warnings: stderr, so stdout keeps only the document. */
  protected note(message: string): void {
    process.stderr.write(`${chalk.level > 0 ? chalk.yellow('warning:') : 'warning:'} ${cutEchoes(message)}\n`)
  }

  /** An error that does not stop the command (the output is still printed): stderr, `error: …`. */
  protected errorLine(message: string): void {
    process.stderr.write(`${chalk.level > 0 ? chalk.red('error:') : 'error:'} ${message}\n`)
  }

  /** The inputs a plan could not read, one line each (capped); whether there was any. */
  protected reportUnreadable(plan: {errors?: readonly ReadError[]}): boolean {
    for (const line of unreadableLines(plan.errors ?? [])) this.errorLine(line)
    return (plan.errors?.length ?? 0) > 0
  }

  /** Ends the command with `code` (0 returns normally). */
  protected finish(code: number): void {
    if (code !== ExitCode.Ok) this.exit(code)
  }
}

/** The source and planning flags as the services take them. */
export function sourceRequest(flags: {
  filename?: string[]
  kustomize?: string
  recursive?: boolean
  'apply-set'?: string
  'allow-empty'?: boolean
  kubeconfig?: string
  context?: string
  namespace?: string
  'all-namespaces'?: boolean
  selector?: string
  'chunk-size'?: number
  now?: string
  'feature-gates'?: string
}) {
  checkFileOptions(flags)
  return {
    filename: flags.filename,
    kustomize: flags.kustomize,
    applySet: flags['apply-set'] as ApplySetMode | undefined,
    allowEmpty: flags['allow-empty'],
    kubeconfig: flags.kubeconfig,
    context: flags.context,
    namespace: flags.namespace,
    allNamespaces: flags['all-namespaces'],
    selector: flags.selector,
    chunkSize: flags['chunk-size'],
    now: flags.now,
    featureGates: flags['feature-gates'],
    readStdin: readProcessStdin,
  }
}

/** All of stdin as UTF-8, for `-f -`. */
async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}
