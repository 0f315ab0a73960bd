// Runs the built CLI (bin/run.js) the way a user does, against the shared control plane.
import {spawn} from 'node:child_process'
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

/** `kctl plan -o json …`, parsed; fails loudly with stderr when the command does. */
export async function planJson(args: string[]): Promise<any> {
  const r = await kctl(['plan', '-o', 'json', ...args])
  if (r.code !== 0) throw new Error(`kctl plan ${args.join(' ')} exited ${r.code}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}
