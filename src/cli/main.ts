// Entry point behind bin/run.js and bin/dev.js: runs oclif, and turns every error into one line on
// stderr and an exit code from the one table (usage errors included: 1, never oclif's 2).
import {Errors, flush, type Interfaces, run as runOclif} from '@oclif/core'
import {dirname} from 'node:path'
import {fileURLToPath} from 'node:url'

import {InternalError, StalePlanError, UserError} from '../errors.js'
import {cutEchoes} from '../render/echo.js'
import {ExitCode} from './exit-codes.js'
import {ownCommandOptions} from './root-plugin.js'

/** `from`: bin/run.js's URL, where oclif finds the package; the single executable hands in its plugin already loaded (cli/sea.ts). */
export async function run(argv: string[], from: string | Interfaces.LoadOptions, opts: {development?: boolean} = {}): Promise<void> {
  if (opts.development) process.env.NODE_ENV ??= 'development'
  try {
    const args = kubectlHabits(argv)
    await runOclif(args, opts.development ? from : await loadOptions(args, from))
    await flush()
  } catch (error) {
    const {code, line} = describeFailure(error)
    if (line) process.stderr.write(`${line}\n`)
    if (process.env.KCTL_DEBUG && error instanceof Error && error.stack && code !== ExitCode.Ok) {
      process.stderr.write(`${error.stack}\n`)
      if (error.cause instanceof Error && error.cause.stack) process.stderr.write(`caused by: ${error.cause.stack}\n`)
    }
    process.exitCode = code
  }
}

/** bin/run.js's start: oclif handed the root plugin already loaded when it runs one of kctl's commands (cli/root-plugin.ts). */
async function loadOptions(argv: string[], from: string | Interfaces.LoadOptions): Promise<string | Interfaces.LoadOptions> {
  if (typeof from !== 'string') return from
  return (await ownCommandOptions(argv, dirname(dirname(fileURLToPath(from))))) ?? from
}

/**
 * What kubectl users type that oclif reads otherwise: `kctl --version` is `kctl version` (both
 * name the Kubernetes version planned for, not only kctl's). `-h` is `--help` through package.json's
 * additionalHelpFlags.
 */
export function kubectlHabits(argv: readonly string[]): string[] {
  if (argv[0] === '--version') return ['version', ...argv.slice(1)]
  return [...argv]
}

/** Maps anything thrown to its exit code and the single line the user sees, user input in it cut (render/echo.ts). */
export function describeFailure(error: unknown): {code: number; line?: string} {
  const {code, line} = failureLine(error)
  return line === undefined ? {code} : {code, line: cutEchoes(line)}
}

function failureLine(error: unknown): {code: number; line?: string} {
  if (error instanceof Errors.ExitError) return {code: error.oclif.exit ?? ExitCode.Ok}
  if (error instanceof UserError) return {code: ExitCode.Error, line: `error: ${error.line}`}
  if (error instanceof StalePlanError) return {code: ExitCode.Refused, line: `error: ${error.message}`}
  if (error instanceof InternalError) {
    return {code: ExitCode.Error, line: `internal error (a bug in kctl, please report it): ${error.message}`}
  }
  if (error instanceof Errors.CLIError) {
    // Flag parsing and unknown commands: oclif says exit 2, the contract says 1.
    // oclif's multi-error messages start with a heading ("The following error occurred:").
    const message = error.message.split('\n').filter((l) => l.trim() !== '' && !/^The following errors? occurred:?$/.test(l.trim()))
    const first = message[0] ?? 'invalid command line'
    const hint = /see more help with --help/i.test(error.message) ? '' : ' (see --help)'
    return {code: ExitCode.Error, line: `error: ${first.trim()}${hint}`}
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return {code: ExitCode.Error, line: `internal error (a bug in kctl, please report it): ${message}; rerun with KCTL_DEBUG=1 for details`}
}
