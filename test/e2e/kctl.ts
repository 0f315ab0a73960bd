// Runs the built CLI (bin/run.js) the way a user does, against the shared control plane.
import {spawn} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {controlPlane} from './setup/cluster.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface KctlResult {
  code: number
  stdout: string
  stderr: string
}

export function kctl(args: string[], opts: {as?: 'admin' | 'restricted'; env?: NodeJS.ProcessEnv; input?: string} = {}): Promise<KctlResult> {
  const cp = controlPlane()
  const kubeconfig = opts.as === 'restricted' ? cp.restrictedKubeconfig : cp.adminKubeconfig
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1', KCTL_DEBUG: '', ...opts.env},
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
    child.stdin.end(opts.input ?? '')
  })
}

/** `kctl reconcile -o json …`: its exit code, the ApplyReport parsed, and stderr; fails loudly without a report. */
export async function reconcileJson(args: string[], as?: 'admin' | 'restricted'): Promise<{code: number; report: any; stderr: string}> {
  const r = await kctl(['reconcile', '-o', 'json', ...args], {as})
  let report: any
  try {
    report = JSON.parse(r.stdout)
  } catch {
    throw new Error(`kctl reconcile ${args.join(' ')} exited ${r.code} without a JSON report:\n${r.stderr}\n${r.stdout}`)
  }
  return {code: r.code, report, stderr: r.stderr}
}

/** `kctl plan -o json …`, parsed; fails loudly with stderr when the command does. */
export async function planJson(args: string[]): Promise<any> {
  const r = await kctl(['plan', '-o', 'json', ...args])
  if (r.code !== 0) throw new Error(`kctl plan ${args.join(' ')} exited ${r.code}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** A kubeconfig whose only context `name` points at `server` (by default, a port nothing listens on). */
export function kubeconfigFor(name = 'gone', server = 'https://127.0.0.1:1'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kctl-kubeconfig-')), 'kubeconfig')
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: ${name}`,
      `clusters: [{name: ${name}, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: u, user: {token: x}}]',
      `contexts: [{name: ${name}, context: {cluster: ${name}, user: u}}]`,
    ].join('\n'),
  )
  return file
}
