// Runs the BUILT command line (`node bin/run.js`, after `npm run build`) the way a user or a CI
// job does: a child process, pipes for stdout/stderr (so "not a terminal"), the exit status.
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const NOW = '2026-11-22T10:00:00Z'

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

export function kctl(args: string[], opts: {input?: string; env?: Record<string, string | undefined>} = {}): CliResult {
  const env: NodeJS.ProcessEnv = {...process.env, NODE_ENV: undefined, KCTL_DEBUG: undefined, NO_COLOR: undefined, FORCE_COLOR: undefined}
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  const result = spawnSync(process.execPath, ['bin/run.js', ...args], {cwd: ROOT, env, input: opts.input ?? '', encoding: 'utf8', timeout: 60_000})
  if (result.error) throw result.error
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}
