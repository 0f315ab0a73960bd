// What dist/cli/app.js (written by scripts/bundle.mjs) calls to run the bundled CLI, once per
// process: the commands and hooks oclif loads and bin/run.js's entry point all come from here.
import {fileURLToPath} from 'node:url'

import type * as App from './app.js'
import {asksForHelp} from './help-flags.js'
import {loadScript} from './script-cache.js'

export function loadApp(bundle: URL, commands: string[], helpFlags: string[]): typeof App {
  const variant = cacheVariant(process.argv.slice(2), commands, helpFlags)
  // oclif loads semver at every start to compare Node's version with its package.json, which
  // it looks for next to its own files and, bundled, never finds: the check never warns. Skipped.
  const engineWarning = process.env.OCLIF_DISABLE_ENGINE_WARNING
  process.env.OCLIF_DISABLE_ENGINE_WARNING = '1'
  try {
    return loadScript(fileURLToPath(bundle), variant) as typeof App
  } finally {
    if (engineWarning === undefined) delete process.env.OCLIF_DISABLE_ENGINE_WARNING
    else process.env.OCLIF_DISABLE_ENGINE_WARNING = engineWarning
  }
}

/**
 * The code cache a run uses: one per command, and one for the rest (help, autocomplete, errors),
 * each holding the functions that it runs. `kctl plan --help` runs oclif's help, not the command:
 * were it the first run of plan to fill plan's cache, every plan after it would compile again
 * what that cache lacks.
 */
export function cacheVariant(argv: readonly string[], commands: readonly string[], helpFlags: readonly string[]): string {
  const [word] = argv
  if (word === undefined || !commands.includes(word) || asksForHelp(argv, helpFlags)) return 'other'
  return word
}
