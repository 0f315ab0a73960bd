// The entry point of the single executable (`npm run build:binary`, scripts/build-binary.mjs): Node's
// single-executable application runs one CommonJS script and has no files around it, so this
// script holds everything — every command and hook, oclif, the Kubernetes client, `yaml` — and
// gives oclif, which finds its package.json, manifest, commands and hooks as files under its root,
// all of them from memory:
//   - the package.json and oclif.manifest.json are built in (the build defines them), and the root
//     plugin is handed to oclif already loaded (Config's `plugins` option), its manifest the built-in
//     one: nothing is read from disk or globbed;
//   - oclif loads a command or hook by its path under the root (module-loader.ts: import() of the
//     manifest's relativePath; require() for a hook); the build routes those calls here (the
//     script's __kctlImport, and its require wrapped, see scripts/build-binary.mjs), and each path
//     is answered by its module in the bundle. The root is a directory that does not exist, so no
//     file on disk can stand in for one.
// `kctl help` is the help plugin's command, bundled; shell completion (@oclif/plugin-autocomplete)
// is left out of the single executable.
import {settings} from '@oclif/core'
import {commands as helpCommands} from '@oclif/plugin-help'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {commands, hooks, run} from './app.js'
import {loadedRootPlugin} from './root-plugin.js'

/** The package.json, and oclif.manifest.json with the help plugin's `help` command (scripts/build-binary.mjs defines these). */
declare const KCTL_PACKAGE_JSON: {name: string; version: string; oclif: Record<string, any>} & Record<string, unknown>
declare const KCTL_OCLIF_MANIFEST: {version: string; commands: Record<string, Record<string, unknown>>}

/** What the build's wrapper around this script asks for a path oclif loads. */
interface SeaModules {
  import?: (specifier: string) => Promise<unknown>
  require?: (id: string) => unknown
}

const ROOT = join(dirname(process.execPath), '.kctl-bundled')

type Loader = () => Promise<unknown>
const COMMAND_FILES: Record<string, Loader> = {...commands, help: async () => ({default: helpCommands.help})}

export async function main(argv: string[], sea: SeaModules): Promise<void> {
  // Paths only: nothing under the root is ever read, so no TypeScript source is looked for either.
  settings.enableAutoTranspile = false
  // oclif compares Node's version with its own package.json, which is not there: skipped (as bin/run.js does).
  process.env.OCLIF_DISABLE_ENGINE_WARNING = '1'

  const modules = new Map<string, Loader>()
  for (const [id, load] of Object.entries(COMMAND_FILES)) modules.set(join(ROOT, 'dist', 'commands', `${id}.js`), load)
  const hookModules = new Map<string, unknown>()
  for (const [name, load] of Object.entries(hooks)) hookModules.set(join(ROOT, 'dist', 'hooks', `${name}.js`), await load())
  for (const [path, module] of hookModules) modules.set(path, async () => module)
  const pathOf = (specifier: string) => (specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier)
  sea.import = (specifier) => {
    const load = modules.get(pathOf(specifier))
    return load ? load() : Promise.reject(Object.assign(new Error(`Cannot find module '${specifier}' (not in the single executable)`), {code: 'MODULE_NOT_FOUND'}))
  }
  sea.require = (id) => hookModules.get(pathOf(id))

  const pjson = {...KCTL_PACKAGE_JSON, oclif: {...KCTL_PACKAGE_JSON.oclif, plugins: []}}
  const manifest = KCTL_OCLIF_MANIFEST
  // Its manifest is the built-in one (oclif would read it from the root, or glob the commands).
  const plugin = await loadedRootPlugin(ROOT, pjson as never, manifest as never)
  await run(argv, {root: ROOT, pjson: pjson as never, plugins: new Map([[pjson.name, plugin]])})
}
