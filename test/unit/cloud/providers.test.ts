// The external-provider protocol against real executables (small shell scripts written here), and
// the local provider's pool arithmetic.
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {ExecProvider} from '../../../src/cloud/exec.js'
import {freeAddress, parsePool} from '../../../src/cloud/local.js'
import {CloudProviderError} from '../../../src/cloud/provider.js'

const dir = mkdtempSync(join(tmpdir(), 'kctl-cloud-unit-'))
let scripts = 0

/** An executable that saves its stdin next to itself, prints `stdout` and exits `code`. */
function provider(stdout: string, code = 0, stderr = ''): {path: string; request: () => any} {
  const path = join(dir, `provider-${++scripts}.sh`)
  const saved = `${path}.request.json`
  writeFileSync(path, `#!/bin/sh\ncat > '${saved}'\nprintf '%s' '${stdout}'\n${stderr ? `echo '${stderr}' >&2\n` : ''}exit ${code}\n`, {mode: 0o755})
  return {path, request: () => JSON.parse(readFileSync(saved, 'utf8'))}
}

const svc = {apiVersion: 'v1', kind: 'Service', metadata: {namespace: 'shop', name: 'web', uid: '5c0e7a52-4b0a-4d2e-9d8e-7a3f0c1e2b11'}, spec: {type: 'LoadBalancer'}}
const nodes = [{metadata: {name: 'node-a'}, spec: {providerID: 'example://a'}}]

async function failure(p: Promise<unknown>): Promise<CloudProviderError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CloudProviderError)
  return error as CloudProviderError
}

describe('--cloud-provider-exec: one run per call, JSON in and out', () => {
  it('EnsureLoadBalancer: the request carries the method, cluster, name, Service and nodes; the answer is the status', async () => {
    const p = provider('{"status":{"ingress":[{"ip":"198.51.100.7","ipMode":"VIP"}]}}')
    const status = await new ExecProvider(p.path).ensureLoadBalancer('prod', svc, nodes)
    expect(status).toEqual({ingress: [{ip: '198.51.100.7', ipMode: 'VIP'}]})
    expect(p.request()).toEqual({
      apiVersion: 'kctl/v1alpha1',
      kind: 'LoadBalancerRequest',
      method: 'EnsureLoadBalancer',
      clusterName: 'prod',
      loadBalancerName: 'a5c0e7a524b0a4d2e9d8e7a3f0c1e2b1',
      service: svc,
      nodes,
    })
  })

  it('GetLoadBalancer: exists, and the hosts as names or {name, providerID}; no nodes in the request', async () => {
    const p = provider('{"exists":true,"hosts":["node-a",{"name":"node-b","providerID":"example://b"}]}')
    expect(await new ExecProvider(p.path).getLoadBalancer('kubernetes', svc)).toEqual({exists: true, hosts: [{name: 'node-a'}, {name: 'node-b', providerID: 'example://b'}]})
    expect(p.request().nodes).toBeUndefined()
    expect(await new ExecProvider(provider('{"exists":false}').path).getLoadBalancer('kubernetes', svc)).toEqual({exists: false})
  })

  it('an error answer keeps its kind: ImplementedElsewhere, RetryAfter with its delay, Error', async () => {
    const elsewhere = await failure(new ExecProvider(provider('{"error":{"kind":"ImplementedElsewhere","message":"another controller"}}').path).updateLoadBalancer('k', svc, nodes))
    expect(elsewhere.kind).toBe('ImplementedElsewhere')
    const retry = await failure(new ExecProvider(provider('{"error":{"kind":"RetryAfter","message":"busy","retryAfterSeconds":30}}').path).ensureLoadBalancer('k', svc, nodes))
    expect([retry.kind, retry.retryAfterSeconds]).toEqual(['RetryAfter', 30])
    const p = provider('{"error":{"message":"quota exceeded\\nsecond line"}}')
    const plain = await failure(new ExecProvider(p.path).ensureLoadBalancerDeleted('k', svc))
    expect([plain.kind, plain.message]).toEqual(['Error', `cloud provider ${p.path} EnsureLoadBalancerDeleted: quota exceeded`])
  })

  it('a non-zero exit, stdout that is not a JSON object, or a missing status: one line naming the provider and the method', async () => {
    const crashed = provider('', 3, 'panic: no credentials')
    expect((await failure(new ExecProvider(crashed.path).ensureLoadBalancer('k', svc, nodes))).message).toBe(`cloud provider ${crashed.path} EnsureLoadBalancer: exited 3: panic: no credentials`)
    const text = provider('hello')
    expect((await failure(new ExecProvider(text.path).getLoadBalancer('k', svc))).message).toBe(`cloud provider ${text.path} GetLoadBalancer: stdout is not JSON ("hello")`)
    const list = provider('[1]')
    expect((await failure(new ExecProvider(list.path).getLoadBalancer('k', svc))).message).toMatch(/stdout is not a JSON object$/)
    const empty = provider('{}')
    expect((await failure(new ExecProvider(empty.path).ensureLoadBalancer('k', svc, nodes))).message).toMatch(/EnsureLoadBalancer: expected \{"status"/)
    const noIp = provider('{"status":{"ingress":[{"ports":[]}]}}')
    expect((await failure(new ExecProvider(noIp.path).ensureLoadBalancer('k', svc, nodes))).message).toMatch(/status.ingress must be/)
    expect((await failure(new ExecProvider(join(dir, 'missing')).getLoadBalancer('k', svc))).message).toMatch(/GetLoadBalancer: cannot run it: no such file$/)
  })

  it('a provider that does not answer in time is killed', async () => {
    const path = join(dir, 'slow.sh')
    writeFileSync(path, '#!/bin/sh\nsleep 5\n', {mode: 0o755})
    expect((await failure(new ExecProvider(path, 200).getLoadBalancer('k', svc))).message).toMatch(/no answer within 0 s \(killed\)$/)
  })
})

describe('--lb-pool: the addresses handed out', () => {
  it('a /24 hands out .1 to .254; a /31 and a /32 every address', () => {
    expect(parsePool('127.0.200.0/24')).toMatchObject({first: (127 << 24) + 200 * 256 + 1})
    expect(freeAddress(parsePool('127.0.200.0/24'), [])).toBe('127.0.200.1')
    expect(freeAddress(parsePool('127.0.200.77/24'), ['127.0.200.1', '127.0.200.3'])).toBe('127.0.200.2')
    expect(freeAddress(parsePool('10.0.0.8/31'), ['10.0.0.8'])).toBe('10.0.0.9')
    expect(freeAddress(parsePool('10.0.0.8/32'), [])).toBe('10.0.0.8')
  })

  it('an exhausted pool has no address; an address outside the pool does not count', () => {
    const pool = parsePool('192.168.5.0/30')
    expect(freeAddress(pool, ['192.168.5.1', '192.168.5.2'])).toBeUndefined()
    expect(freeAddress(pool, ['192.168.5.1', '10.0.0.2'])).toBe('192.168.5.2')
  })

  it('anything but an IPv4 CIDR is refused in one line', () => {
    for (const bad of ['127.0.200.0', '127.0.200.0/33', '300.0.0.0/24', 'fd00::/64', '127.0.200.0/0']) {
      expect(() => parsePool(bad)).toThrow(`invalid --lb-pool "${bad}": expected an IPv4 CIDR such as 127.0.200.0/24`)
    }
  })
})
