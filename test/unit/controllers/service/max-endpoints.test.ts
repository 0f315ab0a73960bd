// E1.3: kube-controller-manager's --max-endpoints-per-slice reaches the slice placement through
// `plan --max-endpoints-per-slice`; without it the default, 100, applies.
import {describe, expect, it} from 'vitest'
import {computePlan} from '../../../../src/services/plan.js'
import {kctl} from '../../cli/run-cli.js'

const NOW = '2026-11-22T10:00:00Z'

/**
 * Sizes of the slices the EndpointSlice controller creates. Not the mirroring controller's (its
 * limit is 1000 per subset, whatever the flag), and not updated slices: a slice keeps the
 * endpoints it still should have even beyond the maximum; only new endpoints are placed by it.
 */
async function sliceSizes(maxEndpointsPerSlice?: number): Promise<number[]> {
  const plan = await computePlan({filename: ['examples/services'], now: NOW, maxEndpointsPerSlice})
  return plan.controllers
    .flatMap((c) => c.actions)
    .flatMap((a) => (a.type === 'createEndpointSlice' && a.controller !== 'endpointslicemirroring' ? [a.size] : []))
}

describe('E1.3: --max-endpoints-per-slice', () => {
  it('caps every slice created, and more slices take the same endpoints', async () => {
    const byDefault = await sliceSizes()
    const one = await sliceSizes(1)
    expect(Math.max(...byDefault)).toBeGreaterThan(1)
    expect(one.every((n) => n <= 1)).toBe(true)
    expect(one.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(byDefault.reduce((a, b) => a + b, 0))
    expect(one.length).toBeGreaterThan(byDefault.length)
  })

  it('100 when not given, as kube-controller-manager defaults it', async () => {
    expect(await sliceSizes(100)).toEqual(await sliceSizes())
  })
})

describe('E1.3: kctl watch and kctl reconcile take the flag too', () => {
  /** Slices the EndpointSlice controller creates, as `kctl watch -f -o json` plans them. */
  const watched = (extra: string[]) => {
    const run = kctl(['watch', '-f', 'examples/services', '--now', NOW, '-o', 'json', '--timeout', '1s', ...extra])
    // The Services are not in sync (no controller runs on files): --timeout ends it, exit 1.
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/timed out after 1s/)
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l))
    return lines
      .filter((l) => l.kind === 'PlanChange' && l.controller?.kind === 'Service')
      .flatMap((l) => l.controller.actions)
      .filter((a: {type: string; controller?: string}) => a.type === 'createEndpointSlice' && a.controller !== 'endpointslicemirroring').length
  }

  it('watch plans more, smaller slices with --max-endpoints-per-slice 1', async () => {
    expect(watched(['--max-endpoints-per-slice', '1'])).toBe((await sliceSizes(1)).length)
    expect(watched([])).toBe((await sliceSizes()).length)
  })

  it('reconcile accepts it, and refuses a value kube-controller-manager would', () => {
    const run = kctl(['reconcile', '-f', 'examples/services', '--now', NOW, '--max-endpoints-per-slice', '0'])
    expect(run.status).toBe(1)
    expect(run.stderr.split('\n')[0]).toMatch(/max-endpoints-per-slice/)
    expect(run.stderr).not.toContain('    at ')
  })
})

describe('E1.3: the default maximum, with more than 100 endpoints and no flag', () => {
  /** A Service over `n` Ready pods on one node, nothing written yet. */
  const world = (n: number) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {apiVersion: 'v1', kind: 'Node', metadata: {name: 'worker-1', uid: 'uid-worker-1', labels: {'topology.kubernetes.io/zone': 'zone-1'}}, spec: {}},
        {
          apiVersion: 'v1', kind: 'Service',
          metadata: {name: 'big', namespace: 'shop', uid: 'uid-svc-big', creationTimestamp: '2026-01-01T00:00:00Z'},
          spec: {selector: {app: 'big'}, clusterIP: '10.0.0.20', ipFamilies: ['IPv4'], ports: [{name: 'http', port: 80, targetPort: 8080}]},
        },
        ...Array.from({length: n}, (_, i) => ({
          apiVersion: 'v1', kind: 'Pod',
          metadata: {name: `big-${i}`, namespace: 'shop', uid: `uid-big-${i}`, labels: {app: 'big'}, creationTimestamp: '2026-01-01T00:00:00Z'},
          spec: {nodeName: 'worker-1', containers: [{name: 'app', image: 'app:1', ports: [{containerPort: 8080, protocol: 'TCP'}]}]},
          status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z'}], podIP: `10.2.${Math.floor(i / 200)}.${i % 200}`, podIPs: [{ip: `10.2.${Math.floor(i / 200)}.${i % 200}`}]},
        })),
      ],
    })
  const created = async (n: number, maxEndpointsPerSlice?: number) => {
    const text = world(n)
    const plan = await computePlan({filename: ['-'], readStdin: async () => text, now: NOW, maxEndpointsPerSlice})
    return plan.controllers.flatMap((c) => c.actions).flatMap((a) => (a.type === 'createEndpointSlice' && a.controller !== 'endpointslicemirroring' ? [a.size] : []))
  }

  it('250 endpoints: slices of 100, 100 and 50', async () => {
    expect(await created(250)).toEqual([100, 100, 50])
  })
  it('exactly 100 endpoints: one full slice; 101: a second one', async () => {
    expect(await created(100)).toEqual([100])
    expect(await created(101)).toEqual([100, 1])
  })
  it('the flag still overrides it', async () => {
    expect(await created(250, 120)).toEqual([120, 120, 10])
  })
})
