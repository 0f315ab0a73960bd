// oclif handed kctl's root plugin already loaded (Config's `plugins` option), with a manifest given
// in memory instead of the oclif.manifest.json oclif would read, or the commands it would glob.
//
// A run of one of kctl's own commands (`kctl plan …`) starts this way (ownCommandOptions): oclif
// then skips its discovery of plugins, the core ones (help and autocomplete: no hook of theirs
// runs, none of their commands is the one run) and the user-installed ones (kctl ships no plugin
// installer), and its walk up from bin/ to the package.json. The manifest it gets holds that one
// command: oclif sorts a plugin's commands with localeCompare, whose first call loads ICU's
// collation data, a few milliseconds of every start.
// Anything else (no command, help, an unknown command) goes through oclif's own discovery.
import {type Command, type Interfaces, Plugin} from '@oclif/core'
import {createRequire} from 'node:module'
import {join} from 'node:path'

import {asksForHelp, helpFlagsOf} from './help-flags.js'

// Built-ins are require()d (as in script-cache.ts): an ESM import of node:fs builds its whole export list.
const require = createRequire(import.meta.url)
const {readFileSync} = require('node:fs') as typeof import('node:fs')

/** The root plugin, loaded with `manifest` as its oclif.manifest.json. */
export async function loadedRootPlugin(root: string, pjson: Interfaces.PJSON, manifest: Interfaces.Manifest): Promise<Plugin> {
  const plugin = new Plugin({root, isRoot: true, pjson})
  Object.defineProperty(plugin, '_manifest', {value: async () => manifest})
  await plugin.load()
  return plugin
}

/**
 * oclif's load options for `argv` when it runs one of the root package's own commands (`root`: the
 * directory holding package.json and oclif.manifest.json); undefined when oclif is to find its
 * plugins and commands itself.
 */
export async function ownCommandOptions(argv: readonly string[], root: string): Promise<Interfaces.LoadOptions | undefined> {
  const pjson = readJson(join(root, 'package.json')) as Interfaces.PJSON | undefined
  const manifest = readJson(join(root, 'oclif.manifest.json')) as Interfaces.Manifest | undefined
  if (!pjson?.oclif || !manifest?.commands) return undefined
  const command = ownCommand(argv, pjson, manifest)
  if (command === undefined) return undefined
  const plugin = await loadedRootPlugin(root, pjson, {...manifest, commands: {[command.id]: command}})
  return {root, pjson, plugins: new Map([[pjson.name, plugin]])}
}

/**
 * The manifest's entry for the command `argv` runs, when oclif would run it straight away: a
 * manifest of this version (else oclif warns), no help asked for (oclif's helpAddition), no other
 * command that argv[0] could name (a topic's subcommand `id:…`, an alias), and no word after it
 * that oclif would take for a subcommand's (collateSpacedCmdIDFromArgs: the first word that is not
 * a flag, when the command takes no arguments).
 */
export function ownCommand(argv: readonly string[], pjson: Interfaces.PJSON, manifest: Interfaces.Manifest): Command.Cached | undefined {
  const [id, next] = argv
  const command = id !== undefined && Object.hasOwn(manifest.commands, id) ? manifest.commands[id] : undefined
  if (command === undefined || manifest.version.split('-')[0] !== pjson.version.split('-')[0]) return undefined
  if (asksForHelp(argv, helpFlagsOf(pjson.oclif.additionalHelpFlags))) return undefined
  const others = Object.values(manifest.commands).filter((c) => c.id !== id)
  const named = (c: Command.Cached) => c.id.startsWith(`${id}:`) || [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])].includes(id)
  if (pjson.oclif.flexibleTaxonomy || others.some(named)) return undefined
  const takesWords = command.strict === false || Object.keys(command.args ?? {}).length > 0
  if (next !== undefined && !next.startsWith('-') && !next.includes('=') && !takesWords) return undefined
  return command
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}
