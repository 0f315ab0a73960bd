// What dist/cli/app.js (written by scripts/bundle.mjs) calls to run the bundled CLI, once per
// process: the commands and hooks oclif loads and bin/run.js's entry point all come from here.
import {fileURLToPath} from 'node:url'

import type * as App from './app.js'
import {loadScript} from './script-cache.js'

export function loadApp(bundle: URL, commands: string[]): typeof App {
  // One code cache per command (and one for the rest: help, autocomplete, errors), each holding
  // the functions that command runs.
  const word = process.argv[2]
  const variant = word !== undefined && commands.includes(word) ? word : 'other'
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
