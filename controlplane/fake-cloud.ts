// The upstream service (load-balancer) controller with the upstream fake cloud: kctl-fakecloud (./fakecloud/,
// built by ./build.ts ensureFakeCloud) against an existing control plane. It prints one JSON line per cloud call
// into a file in its own directory; `calls()` reads them back. The set of balancers that exist is kept in a
// state file that outlives the process (as a real cloud's would), so a restarted controller finds what the last
// one left, and a test can say which balancers exist before the controller first runs.
import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {ensureFakeCloud} from './build.js'
import {request} from './http.js'
import {startComponent, type Component} from './procs.js'
import type {ControlPlaneInfo} from './start.js'

export interface CloudCall {
  seq: number
  method: 'GetLoadBalancer' | 'EnsureLoadBalancer' | 'UpdateLoadBalancer' | 'EnsureLoadBalancerDeleted'
  /** namespace/name */
  service: string
  loadBalancer: string
  /** Sorted node names (Ensure and Update). */
  hosts?: string[]
  /** GetLoadBalancer's answer. */
  exists?: boolean
  /** The error the call returned (the error switch). */
  error?: string
}

/** One planned answer of a Service's Ensure or Delete call (kctl-fakecloud --faults). */
export interface CloudFault {
  kind: 'Error' | 'RetryAfter' | 'ImplementedElsewhere'
  message?: string
  /** RetryAfter: the controller tries again after exactly this long. */
  retryAfterSeconds?: number
}

export interface FakeCloud extends Component {
  /** The calls this run has made so far, in order. */
  calls(): CloudCall[]
  /** Makes every Ensure/Update/Delete call fail with `message` (undefined: succeed again). */
  setError(message: string | undefined): Promise<void>
}

export interface FakeCloudOptions {
  info: ControlPlaneInfo
  /** The balancers that exist (by name). Default: `<dataDir>/fakecloud-state.json`, shared by every run. */
  stateFile?: string
  /** Where the call lines go. Default: `<dataDir>/fakecloud-calls.jsonl`, appended to by every run. */
  callsFile?: string
  /** Start with the error switch on: every Ensure/Update/Delete call fails with this message. */
  error?: string
  /**
   * Per Service (namespace/name), the answers its Ensure and Delete calls take in order, one per
   * call; once they are used up its calls succeed (Update calls, the node sync's, take none). Written to `<dataDir>/fakecloud-faults.json`.
   */
  faults?: Record<string, CloudFault[]>
  /** The address every balancer gets. Default 203.0.113.10 (TEST-NET-3). */
  externalIP?: string
  log?: (s: string) => void
}

/** Reads the call lines of a calls file from byte `from` on (none if it does not exist yet). */
export function readCalls(file: string, from = 0): CloudCall[] {
  if (!existsSync(file)) return []
  return readFileSync(file)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as CloudCall)
}

/** Seeds the state file: these balancers exist before the controller starts. */
export function setExistingBalancers(stateFile: string, names: string[]): void {
  writeFileSync(stateFile, JSON.stringify([...names].sort()))
}

export const defaultStateFile = (info: ControlPlaneInfo): string => join(info.dataDir, 'fakecloud-state.json')
export const defaultCallsFile = (info: ControlPlaneInfo): string => join(info.dataDir, 'fakecloud-calls.jsonl')

/**
 * Starts kctl-fakecloud and resolves once its informers have synced (its /healthz is 200). Its pid is recorded
 * in the data dir, so the control plane's stop() kills it too.
 */
export async function startFakeCloud(o: FakeCloudOptions): Promise<FakeCloud> {
  const t0 = performance.now()
  const binary = await ensureFakeCloud()
  const stateFile = o.stateFile ?? defaultStateFile(o.info)
  const callsFile = o.callsFile ?? defaultCallsFile(o.info)
  // Earlier runs appended to the same file: this run's calls start here.
  const from = existsSync(callsFile) ? statSync(callsFile).size : 0
  const faultsFile = join(o.info.dataDir, 'fakecloud-faults.json')
  if (o.faults) writeFileSync(faultsFile, JSON.stringify(o.faults))
  let port = 0
  const component = await startComponent({
    dataDir: o.info.dataDir,
    name: 'kctl-fakecloud',
    dirName: 'fakecloud',
    binary,
    args: (p) => {
      port = p
      return [
        `--kubeconfig=${o.info.controllerManagerKubeconfig}`,
        `--port=${p}`,
        `--state=${stateFile}`,
        `--calls=${callsFile}`,
        `--external-ip=${o.externalIP ?? '203.0.113.10'}`,
        ...(o.error ? [`--error=${o.error}`] : []),
        ...(o.faults ? [`--faults=${faultsFile}`] : []),
        '--v=2',
      ]
    },
    ready: async (p) => (await request(`http://127.0.0.1:${p}/healthz`, {timeoutMs: 2000})).status === 200,
  })
  o.log?.(`service controller with the fake cloud ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return {
    ...component,
    calls: () => readCalls(callsFile, from),
    async setError(message) {
      const r = await request(`http://127.0.0.1:${port}/error`, {method: message === undefined ? 'DELETE' : 'PUT', body: message, contentType: 'text/plain'})
      if (r.status !== 200) throw new Error(`kctl-fakecloud /error: HTTP ${r.status}: ${r.body}`)
    },
  }
}
