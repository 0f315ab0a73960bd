// `kctl reconcile --apply` for Services on the real control plane, with no endpoint or service
// controller running: load balancers through the built-in local provider (addresses from a pool,
// kept in a ConfigMap) and through an external provider (examples/cloud-provider/provider.mjs,
// state in a file) — create, a second Service, a node change, a delete, a provider failure — and
// endpoint writes, after which the real endpointslice, endpoint and endpointslicemirroring
// controllers are started and must find nothing to change in what kctl wrote.
import {randomBytes} from 'node:crypto'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, planJson, reconcileJson} from './kctl.js'
import {api, apiOk, bindPod, controllerManager, deleteNamespace, makeNode, newNamespace, setPodStatus, waitUntil, waitUntilQuiet} from './setup/cluster.js'

type Json = any

const FINALIZER = 'service.kubernetes.io/load-balancer-cleanup'
const PROVIDER = fileURLToPath(new URL('../../examples/cloud-provider/provider.mjs', import.meta.url))
const POOL = '127.0.200.0/28'
const NOW = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')

const loadBalancer = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {name, annotations},
  spec: {type: 'LoadBalancer', selector: {app: name}, ports: [{name: 'http', port: 80, targetPort: 8080}]},
})

const service = (ns: string, name: string): Promise<Json> => apiOk('GET', `/api/v1/namespaces/${ns}/services/${name}`)
const resultsOf = (report: Json, name: string): Json[] => report.results.filter((r: Json) => r.controller.kind === 'Service' && r.controller.name === name)
const lbResults = (report: Json, name: string) => resultsOf(report, name).filter((r: Json) => /LoadBalancer/.test(r.action)).map((r: Json) => [r.action, r.outcome])
const planOf = (plan: Json, name: string): Json => plan.controllers.find((c: Json) => c.kind === 'Service' && c.name === name)

/** The load-balancer writes of a create, all done: finalizer, Ensure, status. */
const ENSURED = [
  ['addLoadBalancerFinalizer', 'ok'],
  ['ensureLoadBalancer', 'ok'],
  ['writeLoadBalancerStatus', 'ok'],
]

/** A new namespace holding the LoadBalancer Services `one` and `two`. */
async function withTwoLoadBalancers(prefix: string): Promise<string> {
  const ns = await newNamespace(prefix)
  for (const name of ['one', 'two']) await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: loadBalancer(name)})
  return ns
}

/** Removes the namespace, after the finalizer of every Service left in it (no controller will). */
async function dropNamespace(ns: string): Promise<void> {
  await releaseServices(ns)
  await deleteNamespace(ns)
}

/** Removes the finalizer of every Service left in `ns`, so the namespace can go. */
async function releaseServices(ns: string): Promise<void> {
  const list = await apiOk('GET', `/api/v1/namespaces/${ns}/services`)
  for (const s of list.items) {
    if (s.metadata.finalizers?.length) await api('PATCH', `/api/v1/namespaces/${ns}/services/${s.metadata.name}`, {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}})
  }
}

let nodes: string[] = []
let prefix = ''

beforeAll(async () => {
  await controllerManager.stop()
  prefix = `lbn-${randomBytes(3).toString('hex')}`
  nodes = [`${prefix}-a`, `${prefix}-b`]
  for (const n of nodes) await makeNode(n)
}, 60_000)

afterAll(async () => {
  for (const n of [...nodes, `${prefix}-c`]) await api('DELETE', `/api/v1/nodes/${n}`)
})

/** The hosts a plan sends right now: every node the predicates keep (other files' nodes included). */
async function expectedHosts(): Promise<string[]> {
  const list = await apiOk('GET', '/api/v1/nodes')
  return list.items
    .filter((n: Json) => !n.metadata.deletionTimestamp && !['', 'true', 'True', 'TRUE', 't', 'T', '1'].includes(n.metadata.labels?.['node.kubernetes.io/exclude-from-external-load-balancers'] ?? 'false'))
    .filter((n: Json) => !(n.spec?.taints ?? []).some((t: Json) => t.key === 'ToBeDeletedByClusterAutoscaler'))
    .map((n: Json) => n.metadata.name)
    .sort()
}

describe('the local provider: addresses from --lb-pool, kept in a ConfigMap', () => {
  let ns: string
  const cloud = () => ['--lb-pool', POOL, '--lb-namespace', ns]
  const allocations = async (): Promise<Record<string, Json>> => {
    const cm = await apiOk('GET', `/api/v1/namespaces/${ns}/configmaps/kctl-load-balancers`)
    return Object.fromEntries(Object.entries(cm.data ?? {}).map(([k, v]) => [k, JSON.parse(v as string)]))
  }
  const byService = async () => Object.fromEntries(Object.values(await allocations()).map((a: Json) => [a.service.split('/')[1], a]))

  beforeAll(async () => {
    ns = await withTwoLoadBalancers('svc-cloud')
  })

  afterAll(() => dropNamespace(ns))

  it('without a provider flag: the endpoint writes are made, the load-balancer writes reported as not sent', async () => {
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes'])
    expect(code).toBe(0)
    expect(lbResults(report, 'one')).toEqual([
      ['addLoadBalancerFinalizer', 'skipped'],
      ['ensureLoadBalancer', 'skipped'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(resultsOf(report, 'one').find((r: Json) => r.action === 'ensureLoadBalancer').skipReason).toMatch(/no cloud provider/)
    expect(report.notes.join('\n')).toMatch(/--lb-pool/)
    expect(report.controllers.find((c: Json) => c.name === 'one').warnings).toContain('no cloud provider given (--lb-pool or --cloud-provider-exec): the load-balancer writes will not be sent')
    expect(resultsOf(report, 'one').filter((r: Json) => r.action === 'createEndpointSlice' || r.action === 'writeEndpoints').map((r: Json) => r.outcome)).toEqual(['ok', 'ok'])
    expect((await service(ns, 'one')).metadata.finalizers).toBeUndefined()
  })

  it('a dry run sends the finalizer with dryRun=All and calls no provider', async () => {
    const {code, report} = await reconcileJson(['-n', ns, ...cloud()])
    expect(code).toBe(0)
    expect(lbResults(report, 'one')).toEqual([
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'skipped'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect((await service(ns, 'one')).metadata.finalizers).toBeUndefined()
    expect((await api('GET', `/api/v1/namespaces/${ns}/configmaps/kctl-load-balancers`)).status).toBe(404)
  })

  it('create: the finalizer, then EnsureLoadBalancer with every host, then the status; two Services get two addresses', async () => {
    const plan = await planJson(['-n', ns, ...cloud()])
    const hosts = await expectedHosts()
    expect(planOf(plan, 'one').service.loadBalancer).toMatchObject({path: 'ensure', hosts})
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes', ...cloud()])
    expect(code).toBe(0)
    for (const name of ['one', 'two']) {
      expect(lbResults(report, name)).toEqual(ENSURED)
    }
    const [one, two] = [await service(ns, 'one'), await service(ns, 'two')]
    expect(one.metadata.finalizers).toEqual([FINALIZER])
    const ips = [one, two].map((s) => s.status.loadBalancer.ingress[0].ip)
    expect(new Set(ips).size).toBe(2)
    for (const ip of ips) expect(ip).toMatch(/^127\.0\.200\.([1-9]|1[0-4])$/)
    const kept = await byService()
    expect(kept.one).toMatchObject({ip: ips[0], uid: one.metadata.uid})
    expect(kept.one.hosts.map((h: Json) => h.name)).toEqual(hosts)
    expect(kept.two.ip).toBe(ips[1])
  })

  it('converged: planned again, every Service is in sync (nothing kctl wrote is rewritten)', async () => {
    const plan = await planJson(['-n', ns, ...cloud()])
    expect(plan.controllers.filter((c: Json) => c.kind === 'Service' && !c.inSync).map((c: Json) => [c.name, c.actions.map((a: Json) => a.type)])).toEqual([])
    expect(planOf(plan, 'one').service.loadBalancer.sent).toEqual(await expectedHosts())
  })

  it('a node change: the plan shows UpdateLoadBalancer with the new hosts, reconcile sends it', async () => {
    await makeNode(`${prefix}-c`)
    await apiOk('PATCH', `/api/v1/nodes/${nodes[0]}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'true'}}}})
    const hosts = await expectedHosts()
    expect(hosts).toContain(`${prefix}-c`)
    expect(hosts).not.toContain(nodes[0])
    const plan = await planJson(['-n', ns, ...cloud()])
    const lb = planOf(plan, 'one')
    expect(lb.actions).toEqual([{type: 'updateLoadBalancerHosts', loadBalancer: lb.service.loadBalancer.name, hosts}])
    expect(lb.service.loadBalancer).toMatchObject({path: 'update', why: 'nodes-changed'})
    expect(lb.service.loadBalancer.sent).toContain(nodes[0])
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes', ...cloud()])
    expect(code).toBe(0)
    expect(lbResults(report, 'two')).toEqual([['updateLoadBalancerHosts', 'ok']])
    const kept = await byService()
    for (const name of ['one', 'two']) expect(kept[name].hosts.map((h: Json) => h.name)).toEqual(hosts)
    expect((await planJson(['-n', ns, ...cloud()])).controllers.every((c: Json) => c.inSync)).toBe(true)
  })

  it('a saved plan of Services is applied verbatim, or refused as stale (exit 4) when the Service changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-svc-plan-'))
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: loadBalancer('three')})
    const file = join(dir, 'plan.json')
    writeFileSync(file, JSON.stringify(await planJson(['-n', ns, ...cloud()])))
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/three`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {touched: 'yes'}}}})
    const stale = await reconcileJson(['--plan', file, '--apply', '--yes', ...cloud()])
    expect(stale.code).toBe(4)
    expect(stale.report.refusal.message).toMatch(/Service .*three changed/)
    expect((await service(ns, 'three')).metadata.finalizers).toBeUndefined()
    writeFileSync(file, JSON.stringify(await planJson(['-n', ns, ...cloud()])))
    const fresh = await reconcileJson(['--plan', file, '--apply', '--yes', ...cloud()])
    expect(fresh.code).toBe(0)
    expect(lbResults(fresh.report, 'three')).toEqual(ENSURED)
  })

  it('delete: EnsureLoadBalancerDeleted, the finalizer removed, the address released and handed out again', async () => {
    const before = await byService()
    const freed = before.one.ip
    await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/one`)
    const plan = await planJson(['-n', ns, ...cloud()])
    expect(planOf(plan, 'one').actions.map((a: Json) => a.type)).toEqual(['ensureLoadBalancerDeleted', 'removeLoadBalancerFinalizer', 'writeLoadBalancerStatus'])
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes', ...cloud()])
    expect(code).toBe(0)
    expect(resultsOf(report, 'one').find((r: Json) => r.action === 'ensureLoadBalancerDeleted').done).toEqual({existed: true})
    await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/services/one`)).status === 404, {what: 'Service one to be gone'})
    const after = await byService()
    expect(after.one).toBeUndefined()
    expect(Object.values(after).map((a: Json) => a.ip)).not.toContain(freed)
    // The lowest free address is the one released.
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: loadBalancer('four')})
    // --until-converged stops once the Services are in sync (a fresh controller's re-ensure writes nothing).
    const converged = await reconcileJson(['-n', ns, '--apply', '--yes', '--until-converged', '--timeout', '60s', ...cloud()])
    expect([converged.code, converged.report.converged, converged.report.rounds.length]).toEqual([0, true, 2])
    expect((await service(ns, 'four')).status.loadBalancer.ingress[0].ip).toBe(freed)
  })

  it('two runs at once, in two namespaces, one pool: never one address twice', async () => {
    const other = await newNamespace('svc-cloud')
    try {
      for (const name of ['p1', 'p2', 'p3']) {
        await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: loadBalancer(name)})
        await apiOk('POST', `/api/v1/namespaces/${other}/services`, {body: loadBalancer(name)})
      }
      const runs = await Promise.all([ns, other].map((n) => reconcileJson(['-n', n, '--apply', '--yes', ...cloud()])))
      expect(runs.map((r) => r.code)).toEqual([0, 0])
      const ips: string[] = []
      for (const n of [ns, other]) for (const s of (await apiOk('GET', `/api/v1/namespaces/${n}/services`)).items) ips.push(s.status.loadBalancer.ingress[0].ip)
      expect(ips).toHaveLength(9)
      expect(new Set(ips).size).toBe(9)
      expect(Object.values(await allocations()).map((a: Json) => a.ip).sort()).toEqual([...ips].sort())
    } finally {
      await dropNamespace(other)
    }
  })
})

describe('an external provider: --cloud-provider-exec examples/cloud-provider/provider.mjs', () => {
  let ns: string
  let state: string
  const env = () => ({KCTL_EXAMPLE_CLOUD_STATE: state})
  const run = async (args: string[]) => {
    const r = await kctl(['reconcile', '-o', 'json', '-n', ns, '--apply', '--yes', '--cloud-provider-exec', PROVIDER, ...args], {env: env()})
    return {...r, report: JSON.parse(r.stdout)}
  }
  const plan = async () => {
    const r = await kctl(['plan', '-o', 'json', '-n', ns, '--cloud-provider-exec', PROVIDER], {env: env()})
    if (r.code !== 0) throw new Error(r.stderr)
    return JSON.parse(r.stdout)
  }
  const cloudState = (): Record<string, Json> => JSON.parse(readFileSync(state, 'utf8'))
  const byService = () => Object.fromEntries(Object.values(cloudState()).map((a: Json) => [a.service.split('/')[1], a]))

  beforeAll(async () => {
    ns = await withTwoLoadBalancers('svc-exec')
    state = join(mkdtempSync(join(tmpdir(), 'kctl-cloud-')), 'state.json')
  })

  afterAll(() => dropNamespace(ns))

  it('create, a second Service, a node change, a delete', async () => {
    const created = await run([])
    expect(created.code).toBe(0)
    expect(lbResults(created.report, 'one')).toEqual(ENSURED)
    const ips = [(await service(ns, 'one')).status.loadBalancer.ingress, (await service(ns, 'two')).status.loadBalancer.ingress].map((i) => i[0].ip)
    expect(new Set(ips).size).toBe(2)
    expect(byService().one).toMatchObject({ip: ips[0], hosts: (await expectedHosts()).map((name) => ({name}))})

    // The provider keeps the hosts it was sent: a node label flips, and the plan is the update it causes.
    await apiOk('PATCH', `/api/v1/nodes/${nodes[1]}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {'node.kubernetes.io/exclude-from-external-load-balancers': 'true'}}}})
    const hosts = await expectedHosts()
    expect(planOf(await plan(), 'one').actions).toMatchObject([{type: 'updateLoadBalancerHosts', hosts}])
    const updated = await run([])
    expect(updated.code).toBe(0)
    expect(lbResults(updated.report, 'one')).toEqual([['updateLoadBalancerHosts', 'ok']])
    expect(byService().one.hosts.map((h: Json) => h.name)).toEqual(hosts)

    await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/two`)
    const deleted = await run([])
    expect(deleted.code).toBe(0)
    expect(lbResults(deleted.report, 'two')).toEqual([
      ['ensureLoadBalancerDeleted', 'ok'],
      ['removeLoadBalancerFinalizer', 'ok'],
      ['writeLoadBalancerStatus', 'ok'],
    ])
    expect(byService().two).toBeUndefined()
    await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/services/two`)).status === 404, {what: 'Service two to be gone'})
  })

  it('a provider failure: the finalizer stays, no status is written, exit 1 and one line', async () => {
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: loadBalancer('broken', {'cloud.example/fail': 'quota exceeded for load balancers'})})
    const r = await run([])
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(lbResults(r.report, 'broken')).toEqual([
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'failed'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(resultsOf(r.report, 'broken').find((x: Json) => x.action === 'ensureLoadBalancer').error.message).toBe(`cloud provider ${PROVIDER} EnsureLoadBalancer: quota exceeded for load balancers`)
    const svc = await service(ns, 'broken')
    expect(svc.metadata.finalizers).toEqual([FINALIZER])
    expect(svc.status.loadBalancer).toEqual({})
    expect(byService().broken).toBeUndefined()
  })

  it('a provider that does not answer JSON: one line naming it and the method, exit 1', async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'kctl-bad-cloud-')), 'cloud.sh')
    writeFileSync(bad, '#!/bin/sh\necho "not json"\n', {mode: 0o755})
    const r = await kctl(['plan', '-n', ns, '--cloud-provider-exec', bad])
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(`error: cloud provider ${bad} GetLoadBalancer: stdout is not JSON ("not json")`)
  })
})

describe('endpoint writes, then the real endpoint controllers find nothing to change', () => {
  let ns: string

  const PODS = [
    {name: 'web-ready', app: 'web', ready: true, port: 8080},
    {name: 'web-notready', app: 'web', ready: false, port: 8080},
    {name: 'web-other-port', app: 'web', ready: true, port: 9090},
    {name: 'web-terminating', app: 'web', ready: true, port: 8080, deleting: true},
    {name: 'db-0', app: 'db', ready: true, port: 5432, hostname: 'db-0', subdomain: 'db'},
  ]

  /** Every slice and Endpoints object of the namespace by name, with its resourceVersion. */
  async function written(): Promise<Record<string, string>> {
    const slices = await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`)
    const endpoints = await apiOk('GET', `/api/v1/namespaces/${ns}/endpoints`)
    return Object.fromEntries([...slices.items.map((s: Json) => [`EndpointSlice/${s.metadata.name}`, s.metadata.resourceVersion]), ...endpoints.items.map((e: Json) => [`Endpoints/${e.metadata.name}`, e.metadata.resourceVersion])])
  }

  beforeAll(async () => {
    ns = await newNamespace('svc-ep')
    const svc = (name: string, spec: Json) => apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name, labels: {team: 'e2e'}}, spec}})
    await svc('web', {selector: {app: 'web'}, ports: [{name: 'http', port: 80, targetPort: 'web'}]})
    await svc('db', {clusterIP: 'None', selector: {app: 'db'}, ports: [{name: 'pg', port: 5432}]})
    await svc('empty', {selector: {app: 'nothing'}, ports: [{port: 80}]})
    await svc('external', {ports: [{port: 5432}]})
    await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {
      body: {apiVersion: 'v1', kind: 'Endpoints', metadata: {name: 'external'}, subsets: [{addresses: [{ip: '192.0.2.10'}], ports: [{port: 5432, protocol: 'TCP'}]}]},
    })
    // More endpoints than one slice holds: the controller spreads them over new slices at random (a pool).
    await svc('many', {selector: {app: 'many'}, ports: [{port: 80, targetPort: 8080}]})
    const many = Array.from({length: 120}, (_, k) => `many-${String(k).padStart(3, '0')}`)
    for (let k = 0; k < many.length; k += 12) {
      await Promise.all(
        many.slice(k, k + 12).map(async (name, j) => {
          await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name, labels: {app: 'many'}}, spec: {containers: [{name: 'app', image: 'app'}]}}})
          await bindPod(ns, name, nodes[1])
          await setPodStatus(ns, name, {phase: 'Running', podIP: `10.79.0.${k + j + 1}`})
        }),
      )
    }
    let ip = 1
    for (const p of PODS) {
      const spec: Json = {containers: [{name: 'app', image: 'app', ports: [{name: p.app, containerPort: p.port}]}], terminationGracePeriodSeconds: 3600}
      if (p.hostname) Object.assign(spec, {hostname: p.hostname, subdomain: p.subdomain})
      await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: p.name, labels: {app: p.app}}, spec}})
      await bindPod(ns, p.name, nodes[0])
      await setPodStatus(ns, p.name, {phase: 'Running', ready: p.ready, podIP: `10.78.0.${ip++}`})
      if (p.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
    }
  }, 120_000)

  afterAll(async () => {
    await controllerManager.stop()
    await deleteNamespace(ns)
  })

  it('reconcile --apply writes the planned slices (generateName, owner), Endpoints and mirrored slices', async () => {
    const plan = await planJson(['-n', ns, '--now', NOW()])
    const creates = (name: string) => planOf(plan, name).actions.filter((a: Json) => a.type === 'createEndpointSlice').length
    expect([creates('web'), creates('db'), creates('empty'), creates('external'), creates('many')]).toEqual([2, 1, 1, 1, 2])
    expect(planOf(plan, 'many').service.pools[0].pods).toHaveLength(120)
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes'])
    expect(code).toBe(0)
    expect(report.results.filter((r: Json) => r.outcome !== 'ok').map((r: Json) => [r.controller.name, r.action, r.skipReason ?? r.error?.message])).toEqual([])
    const slices = (await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io/service-name=web`)).items
    expect(slices).toHaveLength(2)
    for (const s of slices) {
      expect(s.metadata.generateName).toBe('web-')
      expect(s.metadata.ownerReferences).toMatchObject([{kind: 'Service', name: 'web', controller: true}])
    }
    const created = report.results.filter((r: Json) => r.action === 'createEndpointSlice').map((r: Json) => r.done.name)
    expect(created).toHaveLength(7)
    // The pool went out whole: the pods of each slice, in name order, every one once.
    const drawn = resultsOf(report, 'many').filter((r: Json) => r.action === 'createEndpointSlice').map((r: Json) => r.done.chosen)
    expect(drawn.map((d: string[]) => d.length).sort()).toEqual([100, 20])
    expect(drawn.flat().sort()).toEqual(planOf(plan, 'many').service.pools[0].pods)
    expect((await apiOk('GET', `/api/v1/namespaces/${ns}/endpoints/web`)).subsets).toHaveLength(2)
    expect((await planJson(['-n', ns])).controllers.filter((c: Json) => !c.inSync).map((c: Json) => c.name)).toEqual([])
  })

  it('after a change: slices updated in place and deleted, Endpoints updated, each over the version planned; a leftover Endpoints object deleted', async () => {
    // E12.1: no Service of its name, so the Endpoints controller would delete it.
    await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: {apiVersion: 'v1', kind: 'Endpoints', metadata: {name: 'leftover'}, subsets: [{addresses: [{ip: '192.0.2.20'}], ports: [{port: 80, protocol: 'TCP'}]}]}})
    await setPodStatus(ns, 'web-notready', {phase: 'Running', ready: true, podIP: (await apiOk('GET', `/api/v1/namespaces/${ns}/pods/web-notready`)).status.podIP})
    await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/web-other-port?gracePeriodSeconds=0`)
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/db`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {team: 'data'}}}})
    const plan = await planJson(['-n', ns])
    const writes = (name: string) => planOf(plan, name).actions.map((a: Json) => a.type)
    expect(writes('web')).toEqual(['updateEndpointSlice', 'deleteEndpointSlice', 'writeEndpoints'])
    expect(writes('db')).toEqual(['updateEndpointSlice', 'writeEndpoints'])
    expect(writes('leftover')).toEqual(['deleteEndpoints'])
    const {code, report} = await reconcileJson(['-n', ns, '--apply', '--yes'])
    expect(code).toBe(0)
    expect(report.results.map((r: Json) => [r.controller.name, r.action, r.outcome])).toEqual([
      ['db', 'updateEndpointSlice', 'ok'],
      ['db', 'writeEndpoints', 'ok'],
      ['leftover', 'deleteEndpoints', 'ok'],
      ['web', 'updateEndpointSlice', 'ok'],
      ['web', 'deleteEndpointSlice', 'ok'],
      ['web', 'writeEndpoints', 'ok'],
    ])
    const [slice] = (await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io/service-name=db`)).items
    expect(slice.metadata.labels.team).toBe('data')
    expect((await api('GET', `/api/v1/namespaces/${ns}/endpoints/leftover`)).status).toBe(404)
    expect((await planJson(['-n', ns])).controllers.filter((c: Json) => !c.inSync).map((c: Json) => c.name)).toEqual([])
  })

  it('the real endpointslice, endpoint and endpointslicemirroring controllers, started, change none of it', async () => {
    const before = await written()
    // A Service kctl did not write for: its slice appearing shows the controllers are syncing.
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'sentinel'}, spec: {selector: {app: 'web'}, ports: [{port: 81, targetPort: 8080}]}}})
    await controllerManager.start(['endpointslice', 'endpoint', 'endpointslicemirroring'])
    await waitUntil(async () => (await apiOk('GET', `/api/v1/namespaces/${ns}/endpoints`)).items.some((e: Json) => e.metadata.name === 'sentinel'), {what: 'the controllers to write for the sentinel Service'})
    await waitUntilQuiet(async () => JSON.stringify(await written()), {quietMs: 4000, what: 'the controllers to go quiet'})
    const after = await written()
    const sentinel = (k: string) => k === 'Endpoints/sentinel' || !(k in before)
    expect(Object.fromEntries(Object.entries(after).filter(([k]) => !sentinel(k)))).toEqual(before)
  }, 120_000)
})
