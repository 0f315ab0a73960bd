// vitest globalSetup for the `e2e` project: one real etcd + kube-apiserver per run, shared by every test file.
//
// globalSetup runs in vitest's main process, tests in worker processes. Tests get the connection details through
// `inject('controlPlane')` (see ./cluster.ts) and the KCTL_E2E_* env vars. Operations that must act on the
// processes this file owns (restarting kube-apiserver) go through a tiny loopback control endpoint, guarded by a
// random token; kube-controller-manager is started by the tests themselves, as their own child process.
import {randomBytes} from 'node:crypto'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {TestProject} from 'vitest/node'
import {ensureControlPlaneBinaries, ensureKubectl} from '../../../controlplane/build.js'
import {startControlPlane, type ControlPlaneInfo} from '../../../controlplane/start.js'

export interface E2EContext extends ControlPlaneInfo {
  /** http://127.0.0.1:PORT of the control endpoint below. */
  controlUrl: string
  controlToken: string
  /** The kubectl built from the control plane's own version (controlplane/build.ts ensureKubectl). */
  kubectl: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: E2EContext
  }
}

const log = (s: string) => process.stderr.write(`[e2e] ${s}\n`)

export default async function setup({provide}: TestProject): Promise<() => Promise<void>> {
  const t0 = performance.now()
  // A cache hit takes milliseconds; a miss is a cold compile (4–8 min on 2 cores), logged as it goes.
  const binaries = await ensureControlPlaneBinaries()
  const kubectl = await ensureKubectl()
  // Extra kube-apiserver flags for a whole run, e.g. KCTL_E2E_APISERVER_ARGS='--watch-cache=false'.
  const apiServerArgs = (process.env.KCTL_E2E_APISERVER_ARGS ?? '').split(/\s+/).filter(Boolean)
  const cp = await startControlPlane({binaries, log, apiServerArgs})
  let control: Server | undefined
  try {
    const controlToken = randomBytes(24).toString('hex')
    // Serialize operations: a restart racing another restart would leave two apiservers fighting for the port.
    let queue: Promise<unknown> = Promise.resolve()
    const ops: Record<string, () => Promise<unknown>> = {
      '/restart-apiserver': async () => (await cp.restartApiServer(), {}),
      '/compact-etcd': async () => ({revision: await cp.compactEtcd()}),
    }
    control = createServer((req, res) => {
      const op = ops[req.url ?? '']
      if (req.method !== 'POST' || !op) return void res.writeHead(404).end()
      if (req.headers.authorization !== `Bearer ${controlToken}`) return void res.writeHead(401).end()
      const run = queue.then(op)
      queue = run.catch(() => {})
      run.then(
        (body) => res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(body)),
        (e: unknown) => res.writeHead(500, {'content-type': 'text/plain'}).end((e as Error).message),
      )
    })
    await new Promise<void>((r) => control!.listen(0, '127.0.0.1', r))
    control.unref()
    const {port} = control.address() as AddressInfo

    const ctx: E2EContext = {...cp.info(), controlUrl: `http://127.0.0.1:${port}`, controlToken, kubectl}
    provide('controlPlane', ctx)
    // For code that can't `inject` (child processes, the kctl CLI under test): workers inherit this env.
    process.env.KCTL_E2E_KUBECONFIG = ctx.adminKubeconfig
    process.env.KCTL_E2E_RESTRICTED_KUBECONFIG = ctx.restrictedKubeconfig
    process.env.KCTL_E2E_SERVER = ctx.server
    log(`control plane up in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${ctx.server} (data: ${ctx.dataDir})`)
  } catch (e) {
    control?.close()
    await cp.stop()
    throw e
  }

  return async () => {
    control?.close()
    control?.closeAllConnections()
    // Also kills any kube-controller-manager a test left running (their pids are recorded in the data dir).
    await cp.stop()
  }
}
