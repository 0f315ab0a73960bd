// The external-provider protocol (--cloud-provider-exec PATH): one run of the executable per
// call. It reads one JSON request on stdin —
//   {apiVersion: kctl/v1alpha1, kind: LoadBalancerRequest, method, clusterName, loadBalancerName,
//    service: <the Service as read>, nodes: [<Node as read>]}   (nodes: Ensure and Update only)
// — and writes one JSON object on stdout: `{status: {ingress: [...]}}` for EnsureLoadBalancer,
// `{exists, status?, hosts?}` for GetLoadBalancer (hosts: the names, or {name, providerID}, last
// sent, when it keeps them), `{}` otherwise; or `{error: {kind, message, retryAfterSeconds?}}`
// with kind ImplementedElsewhere, RetryAfter or Error. A non-zero exit, a timeout or stdout that
// is not such an object is an error of one line.
import {spawn} from 'node:child_process'

import {PLAN_API_VERSION} from '../model/plan.js'
import {type CloudErrorKind, type CloudNode, type CloudService, CloudProviderError, defaultLoadBalancerName, type LoadBalancerProvider, type LoadBalancerState, type LoadBalancerStatus, type SentHost} from './provider.js'

export type ExecMethod = 'GetLoadBalancer' | 'EnsureLoadBalancer' | 'UpdateLoadBalancer' | 'EnsureLoadBalancerDeleted'

export const EXEC_TIMEOUT_MS = 60_000

type Obj = Record<string, any>

const ERROR_KINDS = new Set<CloudErrorKind>(['ImplementedElsewhere', 'RetryAfter', 'Error'])

export class ExecProvider implements LoadBalancerProvider {
  readonly description: string

  constructor(
    private readonly path: string,
    private readonly timeoutMs = EXEC_TIMEOUT_MS,
  ) {
    this.description = `exec ${path}`
  }

  getLoadBalancerName(_clusterName: string, svc: CloudService): string {
    return defaultLoadBalancerName(String(svc.metadata?.uid ?? ''))
  }

  async getLoadBalancer(clusterName: string, svc: CloudService): Promise<LoadBalancerState> {
    const answer = await this.call('GetLoadBalancer', clusterName, svc)
    if (typeof answer.exists !== 'boolean') throw this.bad('GetLoadBalancer', 'expected {"exists": true|false}')
    const state: LoadBalancerState = {exists: answer.exists}
    if (answer.status !== undefined) state.status = this.status('GetLoadBalancer', answer.status)
    if (answer.hosts !== undefined) state.hosts = this.hosts(answer.hosts)
    return state
  }

  async ensureLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<LoadBalancerStatus> {
    const answer = await this.call('EnsureLoadBalancer', clusterName, svc, nodes)
    // upstream: a nil status from a successful Ensure is an error.
    if (answer.status === undefined || answer.status === null) throw this.bad('EnsureLoadBalancer', 'expected {"status": {"ingress": [...]}}')
    return this.status('EnsureLoadBalancer', answer.status)
  }

  async updateLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<void> {
    await this.call('UpdateLoadBalancer', clusterName, svc, nodes)
  }

  async ensureLoadBalancerDeleted(clusterName: string, svc: CloudService): Promise<void> {
    await this.call('EnsureLoadBalancerDeleted', clusterName, svc)
  }

  /** One run of the executable; its answer, or a CloudProviderError of one line. */
  private async call(method: ExecMethod, clusterName: string, svc: CloudService, nodes?: CloudNode[]): Promise<Obj> {
    const request = {
      apiVersion: PLAN_API_VERSION,
      kind: 'LoadBalancerRequest',
      method,
      clusterName,
      loadBalancerName: this.getLoadBalancerName(clusterName, svc),
      service: svc,
      ...(nodes ? {nodes} : {}),
    }
    const {code, stdout, stderr, failure} = await run(this.path, JSON.stringify(request), this.timeoutMs)
    const where = `cloud provider ${this.path} ${method}`
    if (failure) throw new CloudProviderError(`${where}: ${failure}`)
    if (code !== 0) throw new CloudProviderError(`${where}: exited ${code}${lastLine(stderr) ? `: ${lastLine(stderr)}` : ''}`)
    let answer: unknown
    try {
      answer = JSON.parse(stdout)
    } catch {
      throw this.bad(method, `stdout is not JSON (${stdout.trim() === '' ? 'empty' : JSON.stringify(stdout.trim().slice(0, 60))})`)
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw this.bad(method, 'stdout is not a JSON object')
    const error = (answer as Obj).error
    if (error !== undefined) {
      const kind = ERROR_KINDS.has(error?.kind) ? (error.kind as CloudErrorKind) : 'Error'
      const message = typeof error?.message === 'string' && error.message ? error.message.split('\n')[0] : 'failed'
      const after = typeof error?.retryAfterSeconds === 'number' && error.retryAfterSeconds >= 0 ? error.retryAfterSeconds : undefined
      if (kind === 'RetryAfter' && after === undefined) throw this.bad(method, 'a RetryAfter error needs retryAfterSeconds')
      throw new CloudProviderError(`${where}: ${message}`, kind, after)
    }
    return answer as Obj
  }

  private status(method: ExecMethod, status: unknown): LoadBalancerStatus {
    const ingress = (status as Obj | null)?.ingress ?? []
    if (!Array.isArray(ingress) || ingress.some((i) => typeof i !== 'object' || i === null || (typeof i.ip !== 'string' && typeof i.hostname !== 'string'))) {
      throw this.bad(method, 'status.ingress must be a list of {"ip": …} or {"hostname": …}')
    }
    return {ingress: ingress.map((i) => ({...i}))}
  }

  private hosts(hosts: unknown): SentHost[] {
    if (!Array.isArray(hosts)) throw this.bad('GetLoadBalancer', 'hosts must be a list of node names or {"name", "providerID"}')
    return hosts.map((h) => {
      if (typeof h === 'string') return {name: h}
      if (typeof h?.name === 'string') return {name: h.name, ...(typeof h.providerID === 'string' && h.providerID ? {providerID: h.providerID} : {})}
      throw this.bad('GetLoadBalancer', 'hosts must be a list of node names or {"name", "providerID"}')
    })
  }

  private bad(method: ExecMethod, what: string): CloudProviderError {
    return new CloudProviderError(`cloud provider ${this.path} ${method}: ${what}`)
  }
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1)?.trim() ?? ''

function run(path: string, input: string, timeoutMs: number): Promise<{code: number; stdout: string; stderr: string; failure?: string}> {
  return new Promise((resolve) => {
    let child
    try {
      // Its own process group: a timeout kills whatever it started too, and a Ctrl-C of kctl lets the call in flight finish.
      child = spawn(path, [], {stdio: ['pipe', 'pipe', 'pipe'], detached: true})
    } catch (error) {
      resolve({code: -1, stdout: '', stderr: '', failure: `cannot run it: ${(error as Error).message}`})
      return
    }
    let stdout = ''
    let stderr = ''
    let failure: string | undefined
    const timer = setTimeout(() => {
      failure = `no answer within ${Math.round(timeoutMs / 1000)} s (killed)`
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, timeoutMs)
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('error', (e: NodeJS.ErrnoException) => {
      failure ??= `cannot run it: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'not executable' : e.message}`
    })
    // A provider that exits without reading its request is not our error to report.
    child.stdin.on('error', () => {})
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code: code ?? -1, stdout, stderr, ...(failure ? {failure} : {})})
    })
    child.stdin.end(input)
  })
}
