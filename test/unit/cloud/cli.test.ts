// The cloud flags through the built CLI on files: the example provider answering plan's
// GetLoadBalancer (a node change shown as UpdateLoadBalancer), reconcile on files leaving Services
// to a cluster, saved plans with Service entries, and flag mistakes as one line.
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {kctl, NOW} from '../cli/run-cli.js'

const PROVIDER = 'examples/cloud-provider/provider.mjs'
const LB = 'a5c0e7a524b0a4d2e9d8e7a3f0c1e2b1'

/** The example Service as the controller left it: finalizer and address, and the provider's state saying it was sent `hosts`. */
function ensuredWorld(hosts: string[]): {dir: string; env: Record<string, string>} {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-cloud-cli-'))
  const yaml = readFileSync('examples/cloud-provider/service.yaml', 'utf8').replace(
    "  creationTimestamp: '2026-11-22T09:00:00Z'\n",
    "  creationTimestamp: '2026-11-22T09:00:00Z'\n  finalizers: [service.kubernetes.io/load-balancer-cleanup]\n",
  )
  writeFileSync(join(dir, 'world.yaml'), `${yaml}status:\n  loadBalancer:\n    ingress: [{ip: 198.51.100.1, ipMode: VIP}]\n`)
  const state = join(dir, 'cloud.json')
  writeFileSync(state, JSON.stringify({[LB]: {service: 'shop/storefront', ip: '198.51.100.1', hosts: hosts.map((name) => ({name, providerID: `example://${name}`}))}}))
  return {dir: join(dir, 'world.yaml'), env: {KCTL_EXAMPLE_CLOUD_STATE: state}}
}

describe('plan --cloud-provider-exec', () => {
  it('the hosts the provider was last sent: a node added since is the UpdateLoadBalancer it causes', () => {
    const {dir, env} = ensuredWorld(['host-a'])
    const run = kctl(['plan', '-f', dir, '--now', NOW, '-o', 'json', '--cloud-provider-exec', PROVIDER], {env})
    expect(run.stderr).toBe('')
    const [svc] = JSON.parse(run.stdout).controllers
    expect(svc.actions.filter((a: {type: string}) => /LoadBalancer/.test(a.type))).toEqual([{type: 'updateLoadBalancerHosts', loadBalancer: LB, hosts: ['host-a', 'host-b']}])
    expect(svc.service.loadBalancer).toMatchObject({path: 'update', why: 'nodes-changed', sent: ['host-a']})
    expect(kctl(['plan', '-f', dir, '--now', NOW, '-o', 'table', '--cloud-provider-exec', PROVIDER], {env}).stdout).toContain(`→ UpdateLoadBalancer ${LB} hosts host-a, host-b`)
  })

  it('nothing changed: the Ensure a fresh controller makes, and the Service in sync', () => {
    const {dir, env} = ensuredWorld(['host-a', 'host-b'])
    const [svc] = JSON.parse(kctl(['plan', '-f', dir, '--now', NOW, '-o', 'json', '--cloud-provider-exec', PROVIDER], {env}).stdout).controllers
    expect(svc.service.loadBalancer).toMatchObject({path: 'ensure', sent: ['host-a', 'host-b']})
  })
})

describe('reconcile and Services on files', () => {
  it('Services are planned but carried out against a cluster only, and the report says so', () => {
    const run = kctl(['reconcile', '-f', 'examples/cloud-provider', '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.results).toEqual([])
    expect(report.notes.join('\n')).toMatch(/carried out against a cluster only/)
  })

  it('a saved plan keeps its Service entries; an edited one fails on the field, in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-cloud-saved-'))
    const plan = JSON.parse(kctl(['plan', '-f', 'examples/cloud-provider', '-o', 'json', '--now', NOW]).stdout)
    plan.controllers[0].actions.find((a: {type: string}) => a.type === 'ensureLoadBalancer').hosts = 'host-a'
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan))
    const run = kctl(['reconcile', '-f', 'examples/cloud-provider', '--plan', join(dir, 'plan.json'), '--now', NOW])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`error: ${join(dir, 'plan.json')}: controllers[0].actions[3].hosts: expected a list (use a plan saved by kctl plan -o json, unedited)\n`)
  })
})

describe('flag mistakes: one line, exit 1', () => {
  it.each([
    [['plan', '-f', 'examples/cloud-provider', '--lb-pool', '127.0.200.0/24'], 'error: --lb-pool keeps its addresses in a ConfigMap of the cluster, and -f reads files (drop -f, or use --cloud-provider-exec)\n'],
    [['plan', '-f', 'examples/cloud-provider', '--lb-pool', '10.0.0.0/24', '--cloud-provider-exec', PROVIDER], 'error: --lb-pool and --cloud-provider-exec each name a cloud provider; pass one of them\n'],
    [['reconcile', '-f', 'examples/cloud-provider', '--lb-pool', 'ten/8'], 'error: invalid --lb-pool "ten/8": expected an IPv4 CIDR such as 127.0.200.0/24\n'],
    [['plan', '-f', 'examples/cloud-provider', '--lb-namespace', 'lb'], 'error: --lb-namespace goes with --lb-pool\n'],
  ])('%j', (args, line) => {
    const run = kctl(args)
    expect(run.stderr).toBe(line)
    expect(run.status).toBe(1)
  })
})
