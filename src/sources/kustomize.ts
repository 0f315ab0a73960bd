// -k DIR: a kustomization rendered as kubectl does it, by the kustomize executable when it is on
// PATH, else by `kubectl kustomize` (which embeds kustomize). The rendered YAML is then read like
// any other input, as one apply set.
import {spawn} from 'node:child_process'
import {accessSync, constants, statSync} from 'node:fs'
import {delimiter, join} from 'node:path'

import {UserError} from '../errors.js'

const RENDERERS: ReadonlyArray<{command: string; args: (dir: string) => string[]}> = [
  {command: 'kustomize', args: (dir) => ['build', dir]},
  {command: 'kubectl', args: (dir) => ['kustomize', dir]},
]

/** Whether a renderer (kustomize, or kubectl) is on PATH: -f then renders the kustomize roots it finds. */
export function rendererOnPath(env: NodeJS.ProcessEnv = process.env): boolean {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '')
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : ['']
  for (const r of RENDERERS) {
    for (const d of dirs) {
      for (const ext of exts) {
        try {
          accessSync(join(d, r.command + ext), constants.X_OK)
          return true
        } catch {
          // not here
        }
      }
    }
  }
  return false
}

/** The rendered manifests of the kustomization in `dir`. */
export async function renderKustomization(dir: string): Promise<Buffer> {
  let isDir = false
  try {
    isDir = statSync(dir).isDirectory()
  } catch {
    // below
  }
  if (!isDir) throw new UserError(`-k ${dir}: no such directory`, {hint: 'pass the directory that holds kustomization.yaml'})
  for (const r of RENDERERS) {
    const result = await run(r.command, r.args(dir))
    if (result === 'missing') continue
    if (result.code !== 0) {
      const reason = kustomizeFailure(result.stderr) ?? `exit ${result.code}`
      throw new UserError(`-k ${dir}: ${r.command} ${r.args(dir)[0]} failed: ${reason}`)
    }
    return result.stdout
  }
  throw new UserError(`-k ${dir}: neither kustomize nor kubectl is on PATH`, {
    hint: 'install one of them, or render elsewhere and pipe the result in with -f -',
  })
}

/**
 * The message of a failed render, as one line: kustomize's `Error: …`, kubectl's `error: …`, or the
 * klog line newer kubectl versions log instead (`E1127 10:00:00.000000 123 run.go:72] "command
 * failed" err="…"`), whose err value is the message.
 */
export function kustomizeFailure(stderr: string): string | undefined {
  const last = stderr.trim().split('\n').filter((l) => l.trim() !== '').pop()
  if (last === undefined) return undefined
  const klog = /^[IWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] "((?:[^"\\]|\\.)*)"(?: err="((?:[^"\\]|\\.)*)")?/.exec(last.trim())
  if (klog) return unquote(klog[2] ?? klog[1])
  return last.trim().replace(/^(error|Error): /, '')
}

/** A Go-quoted string's contents (strconv.Quote escapes the way JSON does for what errors hold). */
function unquote(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string
  } catch {
    return body
  }
}

function run(command: string, args: string[]): Promise<'missing' | {code: number; stdout: Buffer; stderr: string}> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'missing' : {code: 1, stdout: Buffer.alloc(0), stderr: error.message}))
    child.on('close', (code) => resolve({code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8')}))
  })
}
