// Load balancers against the real service controller: k8s.io/cloud-provider's controller with the
// upstream fake cloud (kctl-fakecloud, controlplane/fake-cloud.ts), which prints every cloud call.
// The world is built with no controller running, `kctl plan` says what the next sync does, then the
// controller is started and its calls (method, host list), the finalizer and the status it leaves
// are compared with the plan. Host lists are sets (the controller sends them in lister order).
// Left out, as upstream timing: the UpdateLoadBalancer calls a freshly started controller's node
// sync may make beside a Service's first sync (ofItsSyncs); each is still checked to send the hosts.
//
// Node changes need the hosts last sent, which the controller keeps in memory: it runs first to
// converge, then each node change is judged by kctl's node-change rules (nodeUpdateSyncs,
// hostUpdate in src/controllers/service/loadbalancer.ts, which `plan` does not show yet) with the
// host list `kctl plan` gives for the world after the change.
//
// The controller acts on every Node of the shared cluster, so the host lists are the whole
// cluster's; both sides read the same Nodes. LB-10 (no eligible node) excludes every Node of the
// shared cluster for its time. LB-21 (a status cleared by someone else) is judged against the running controller
// with the plan of a provider that keeps the hosts last sent; LB-23 (ImplementedElsewhere) with the
// fake cloud's planned answers (--faults).
import {chmodSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {CloudCall, FakeCloud} from '../../controlplane/fake-cloud.js'
import {setExistingBalancers} from '../../controlplane/fake-cloud.js'
import {hostUpdate, nodeUpdateSyncs} from '../../src/controllers/service/loadbalancer.js'
import type {ServiceView} from '../../src/controllers/service/model.js'
import type {NodeView} from '../../src/model/objects.js'
import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, deleteNamespace, fakeCloud, makeNode, newNamespace, waitUntil, waitUntilQuiet} from './setup/cluster.js'

type Json = any

const FINALIZER = 'service.kubernetes.io/load-balancer-cleanup'
const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers'
const FAKE_INGRESS = (ports: number[]) => [{ip: '203.0.113.10', ipMode: 'VIP', ports: ports.map((port) => ({port, protocol: 'TCP'}))}]
const NOW = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
const merge = {contentType: 'application/merge-patch+json'}

/** The Nodes: one per predicate of L4.1 and per thing that does not count (L4.2). */
const NODES: {suffix: string; labels?: Record<string, string>; ready?: boolean; spec?: Json; deleting?: boolean}[] = [
  {suffix: 'ready'},
  {suffix: 'notready', ready: false},
  {suffix: 'excl', labels: {[EXCLUDE]: ''}},
  {suffix: 'excl-false', labels: {[EXCLUDE]: 'false'}},
  {suffix: 'excl-garbage', labels: {[EXCLUDE]: 'maybe'}},
  {suffix: 'tbd', spec: {taints: [{key: 'ToBeDeletedByClusterAutoscaler', value: '1700000000', effect: 'NoSchedule'}]}},
  {suffix: 'cp', labels: {'node-role.kubernetes.io/control-plane': ''}, spec: {taints: [{key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'}]}},
  {suffix: 'unsched', spec: {unschedulable: true}},
  {suffix: 'deleting', deleting: true},
]
const HOLD = 'kctl.io/e2e-hold'

const LB = {type: 'LoadBalancer', ports: [{name: 'http', port: 80}]}
const CLUSTER_IP = {ports: [{name: 'http', port: 80}]}

/** Phase 1: one Service per scenario, all synced by one freshly started controller. */
const FRESH: {name: string; rule: string; spec: Json; finalizer?: boolean; ingress?: boolean; exists?: boolean; deleting?: boolean; converged?: boolean}[] = [
  {name: 'create', rule: 'LB-1', spec: LB},
  {name: 'local', rule: 'LB-2', spec: {...LB, externalTrafficPolicy: 'Local'}},
  {name: 'class', rule: 'LB-3', spec: {...LB, loadBalancerClass: 'example.com/other'}},
  {name: 'plain', rule: 'LB-4', spec: CLUSTER_IP},
  // A ClusterIP Service may not have a load-balancer status (the API server forbids it), so these have none.
  {name: 'gone-absent', rule: 'LB-5', spec: CLUSTER_IP, finalizer: true},
  {name: 'gone-exists', rule: 'LB-6', spec: CLUSTER_IP, finalizer: true, exists: true},
  {name: 'deleting', rule: 'LB-7', spec: LB, finalizer: true, ingress: true, exists: true, deleting: true},
  {name: 'class-fin', rule: 'LB-8', spec: {...LB, loadBalancerClass: 'example.com/other'}, finalizer: true},
  {name: 'converged', rule: 'LB-9', spec: LB, finalizer: true, ingress: true, exists: true, converged: true},
]

/** What the cloud is called with, from the plan's actions; `exists` is the cloud's answer to GetLoadBalancer. */
function expectedCalls(actions: Json[], exists: boolean): Partial<CloudCall>[] {
  const calls: Partial<CloudCall>[] = []
  for (const a of actions) {
    if (a.type === 'ensureLoadBalancer') calls.push({method: 'EnsureLoadBalancer', loadBalancer: a.loadBalancer, hosts: a.hosts})
    if (a.type === 'updateLoadBalancerHosts') calls.push({method: 'UpdateLoadBalancer', loadBalancer: a.loadBalancer, hosts: a.hosts})
    if (a.type === 'ensureLoadBalancerDeleted') {
      calls.push({method: 'GetLoadBalancer', loadBalancer: a.loadBalancer, exists})
      if (exists) calls.push({method: 'EnsureLoadBalancerDeleted', loadBalancer: a.loadBalancer})
    }
  }
  return calls
}

const strip = (c: CloudCall): Partial<CloudCall> => {
  const {seq: _seq, service: _service, error: _error, ...rest} = c
  return rest
}

/** An exec provider that answers GetLoadBalancer from `answers` (by load-balancer name; others do not exist). */
function answering(answers: Record<string, {exists: boolean; hosts?: {name: string; providerID?: string}[]}>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kctl-lb-provider-')), 'provider.mjs')
  writeFileSync(
    path,
    `#!/usr/bin/env node
import {readFileSync} from 'node:fs'
const req = JSON.parse(readFileSync(0, 'utf8'))
const answers = ${JSON.stringify(answers)}
process.stdout.write(JSON.stringify(req.method === 'GetLoadBalancer' ? (answers[req.loadBalancerName] ?? {exists: false}) : {error: {kind: 'Error', message: 'read-only'}}))
`,
  )
  chmodSync(path, 0o755)
  return path
}

/** The parts of a Node the load-balancer rules read. */
function nodeView(n: Json): NodeView {
  return {
    name: n.metadata.name,
    labels: n.metadata.labels ?? {},
    taints: n.spec?.taints ?? [],
    ...(n.metadata.deletionTimestamp ? {deletionTimestamp: n.metadata.deletionTimestamp} : {}),
    ...(n.spec?.providerID ? {providerID: n.spec.providerID} : {}),
  } as unknown as NodeView
}

describe('Services: the plan against the real service controller and a fake cloud', () => {
  let ns: string
  let cloud: FakeCloud
  let stateFile: string
  let callsFile: string
  let plan: Json
  const nodeName = (suffix: string) => `${ns}-${suffix}`
  const made: string[] = []

  const planOf = (p: Json, name: string): Json => p.controllers.find((c: Json) => c.kind === 'Service' && c.name === name)
  const getService = (name: string) => api('GET', `/api/v1/namespaces/${ns}/services/${name}`)
  const mine = (): CloudCall[] => cloud.calls().filter((c) => c.service.startsWith(`${ns}/`))
  const callsOf = (name: string, calls = mine()) => calls.filter((c) => c.service === `${ns}/${name}`)
  /**
   * A Service's calls from its own syncs. A freshly started controller's node-sync worker runs beside
   * its service worker and syncs every Service in the controller's cache, which
   * processServiceCreateOrUpdate fills before it syncs the Service: so at start-up an
   * UpdateLoadBalancer may come just before or after the first Ensure (or after a deletion). No sync
   * of the Service makes it and `plan` does not predict it: each one is checked apart, to send
   * `hosts`, and left out.
   */
  function ofItsSyncs(name: string, hosts: string[]): CloudCall[] {
    const calls = callsOf(name)
    for (const update of calls.filter((c) => c.method === 'UpdateLoadBalancer')) expect(update.hosts).toEqual(hosts)
    return calls.filter((c) => c.method !== 'UpdateLoadBalancer')
  }
  async function allNodes(): Promise<NodeView[]> {
    return (await apiOk('GET', '/api/v1/nodes')).items.map(nodeView)
  }
  /** Quiet: no new call and no Service of the namespace rewritten for a while. */
  async function settle(what: string): Promise<void> {
    await waitUntilQuiet(
      async () => `${mine().length} ${(await apiOk('GET', `/api/v1/namespaces/${ns}/services`)).items.map((s: Json) => s.metadata.resourceVersion).join(',')}`,
      {quietMs: 2000, timeoutMs: 60_000, what},
    )
  }

  beforeAll(async () => {
    await controllerManager.stop()
    const dir = mkdtempSync(join(tmpdir(), 'kctl-lb-oracle-'))
    stateFile = join(dir, 'balancers.json')
    callsFile = join(dir, 'calls.jsonl')
    ns = await newNamespace('lb')
    for (const n of NODES) {
      await makeNode(nodeName(n.suffix), {labels: n.labels, ready: n.ready})
      made.push(nodeName(n.suffix))
      if (n.spec) await apiOk('PATCH', `/api/v1/nodes/${nodeName(n.suffix)}`, {...merge, body: {spec: n.spec}})
      if (n.deleting) {
        await apiOk('PATCH', `/api/v1/nodes/${nodeName(n.suffix)}`, {...merge, body: {metadata: {finalizers: [HOLD]}}})
        await apiOk('DELETE', `/api/v1/nodes/${nodeName(n.suffix)}`)
      }
    }
    for (const s of FRESH) {
      const metadata: Json = {name: s.name, ...(s.finalizer ? {finalizers: [FINALIZER]} : {})}
      await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata, spec: s.spec}})
      if (s.ingress) {
        const ingress = s.converged ? FAKE_INGRESS([80]) : [{ip: '192.0.2.44'}]
        await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/${s.name}/status`, {...merge, body: {status: {loadBalancer: {ingress}}}})
      }
      if (s.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/${s.name}`)
    }
    plan = await planJson(['-n', ns, '--now', NOW()])
    // The balancers that exist before the controller runs (a real cloud's memory).
    setExistingBalancers(stateFile, FRESH.filter((s) => s.exists).map((s) => planOf(plan, s.name).service.loadBalancer.name))
    cloud = await fakeCloud.start({stateFile, callsFile})
    await settle('the fresh controller to converge')
  }, 120_000)

  afterAll(async () => {
    await fakeCloud.stop()
    if (ns) {
      // Let Services with the finalizer go without a controller.
      for (const s of (await apiOk('GET', `/api/v1/namespaces/${ns}/services`)).items) {
        if (s.metadata.finalizers?.length) await api('PATCH', `/api/v1/namespaces/${ns}/services/${s.metadata.name}`, {...merge, body: {metadata: {finalizers: null}}})
      }
      await deleteNamespace(ns)
      for (const n of made) {
        await api('PATCH', `/api/v1/nodes/${n}`, {...merge, body: {metadata: {finalizers: null}}})
        await api('DELETE', `/api/v1/nodes/${n}`)
      }
    }
  })

  it('L4: the hosts are the Nodes the stable predicates keep, whatever their readiness, role or cordon', () => {
    const hosts: string[] = planOf(plan, 'create').service.loadBalancer.hosts
    expect(hosts.filter((h) => h.startsWith(`${ns}-`)).sort()).toEqual(['cp', 'excl-false', 'notready', 'ready', 'unsched'].map(nodeName).sort())
  })

  it.each(FRESH.map((s) => [s.rule, s.name]))('%s (%s): the calls, finalizer and status are the ones planned', async (_rule, name) => {
    const s = FRESH.find((x) => x.name === name)!
    const cp = planOf(plan, name)
    const lbActions = cp.actions.filter((a: Json) => /LoadBalancer/.test(a.type))
    const ofTheSync = ofItsSyncs(name, planOf(plan, 'create').service.loadBalancer.hosts).map(strip)
    expect(ofTheSync).toEqual(expectedCalls(lbActions, s.exists ?? false))

    const after = await getService(name)
    const types = lbActions.map((a: Json) => a.type)
    if (s.deleting) {
      // The finalizer was the last one: once removed, the Service is gone.
      expect(types).toContain('removeLoadBalancerFinalizer')
      expect(after.status).toBe(404)
      return
    }
    const svc = after.json
    const hadFinalizer = Boolean(s.finalizer)
    const wantFinalizer = types.includes('addLoadBalancerFinalizer') || (hadFinalizer && !types.includes('removeLoadBalancerFinalizer'))
    expect((svc.metadata.finalizers ?? []).includes(FINALIZER)).toBe(wantFinalizer)
    const status = lbActions.find((a: Json) => a.type === 'writeLoadBalancerStatus')
    const ingress = svc.status?.loadBalancer?.ingress ?? []
    if (status?.ingress === 'clear') expect(ingress).toEqual([])
    else if (status?.ingress === 'fromProvider') expect(ingress).toEqual(FAKE_INGRESS(svc.spec.ports.map((p: Json) => p.port)))
    else expect(ingress).toEqual(s.ingress ? [{ip: '192.0.2.44'}] : [])
    if (s.converged) {
      // LB-9: Ensure is called, and nothing is written.
      expect(cp.inSync).toBe(true)
      expect(svc.metadata.resourceVersion).toBe(planOf(plan, name).resourceVersion)
    }
  })

  // Phase 2: the controller keeps running; each node change is judged with the hosts it last sent.
  describe('node changes (L5)', () => {
    const wanting = ['create', 'local', 'converged']
    const lastSent = new Map<string, NodeView[]>()
    let seen = 0
    let services: Record<string, ServiceView>

    beforeAll(async () => {
      const nodes = (await allNodes()).filter((n) => planOf(plan, 'create').service.loadBalancer.hosts.includes(n.name))
      for (const name of wanting) lastSent.set(name, nodes)
      services = Object.fromEntries(
        await Promise.all(wanting.map(async (name) => [name, {...((await getService(name)).json.metadata), type: 'LoadBalancer', finalizers: [FINALIZER]} as unknown as ServiceView])),
      )
      seen = mine().length
    })

    /** Applies a change, then checks the calls it caused against kctl's verdict and `kctl plan`'s hosts. */
    async function judge(change: () => Promise<void>, kind: 'add' | 'delete' | {update: string}): Promise<Json[]> {
      const before = await allNodes()
      await change()
      await settle('the node sync')
      const after = await allNodes()
      const syncs =
        typeof kind === 'string' ? true : nodeUpdateSyncs(before.find((n) => n.name === kind.update)!, after.find((n) => n.name === kind.update)!)
      const now = await planJson(['-n', ns, '--now', NOW()])
      const calls = mine().slice(seen)
      seen += calls.length
      const want: Json[] = []
      for (const name of wanting) {
        const update = syncs ? hostUpdate(services[name]!, lastSent.get(name)!, after) : undefined
        if (syncs) lastSent.set(name, after.filter((n) => planOf(now, name).service.loadBalancer.hosts.includes(n.name)))
        if (!update) continue
        // What an Ensure would send now is what the update sends.
        expect(update.type === 'updateLoadBalancerHosts' && update.hosts).toEqual(planOf(now, name).service.loadBalancer.hosts)
        want.push({method: 'UpdateLoadBalancer', service: `${ns}/${name}`, ...update})
      }
      const got = calls.map((c) => ({method: c.method, service: c.service, hosts: c.hosts})).sort((a, b) => (a.service < b.service ? -1 : 1))
      expect(got).toEqual(want.map((w) => ({method: w.method, service: w.service, hosts: w.hosts})).sort((a, b) => (a.service < b.service ? -1 : 1)))
      return got
    }

    it('LB-11: a node added: every load balancer gets the new host list', async () => {
      const got = await judge(async () => void (await makeNode(nodeName('new')), made.push(nodeName('new'))), 'add')
      expect(got).toHaveLength(3)
      expect(got[0].hosts).toContain(nodeName('new'))
    })

    it('LB-12: a node going NotReady sends nothing', async () => {
      const got = await judge(
        () => apiOk('PATCH', `/api/v1/nodes/${nodeName('ready')}/status`, {...merge, body: {status: {conditions: [{type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastHeartbeatTime: NOW(), lastTransitionTime: NOW()}]}}}),
        {update: nodeName('ready')},
      )
      expect(got).toEqual([])
    })

    it('LB-14: the autoscaler\'s ToBeDeleted taint sends nothing by itself', async () => {
      const got = await judge(
        () => apiOk('PATCH', `/api/v1/nodes/${nodeName('new')}`, {...merge, body: {spec: {taints: [{key: 'ToBeDeletedByClusterAutoscaler', value: '1', effect: 'NoSchedule'}]}}}),
        {update: nodeName('new')},
      )
      expect(got).toEqual([])
    })

    it('LB-13: the exclude label sends the host list without the node (and without the tainted one, applied lazily)', async () => {
      const got = await judge(() => apiOk('PATCH', `/api/v1/nodes/${nodeName('ready')}`, {...merge, body: {metadata: {labels: {[EXCLUDE]: 'true'}}}}), {update: nodeName('ready')})
      expect(got).toHaveLength(3)
      expect(got[0].hosts).not.toContain(nodeName('ready'))
      expect(got[0].hosts).not.toContain(nodeName('new'))
    })

    it('LB-15: a providerID set sends the same host list again', async () => {
      const got = await judge(() => apiOk('PATCH', `/api/v1/nodes/${nodeName('excl-false')}`, {...merge, body: {spec: {providerID: 'fake://excl-false'}}}), {update: nodeName('excl-false')})
      expect(got).toHaveLength(3)
    })

    it('LB-16: a node deleted: the host list without it', async () => {
      const got = await judge(() => apiOk('DELETE', `/api/v1/nodes/${nodeName('unsched')}`), 'delete')
      expect(got).toHaveLength(3)
      expect(got[0].hosts).not.toContain(nodeName('unsched'))
    })

    it('LB-17: a label-only change of a Service calls nothing (the running controller ignores it)', async () => {
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/create`, {...merge, body: {metadata: {labels: {team: 'other'}}}})
      await settle('the label change')
      expect(mine().slice(seen)).toEqual([])
    })

    it('LB-21: a third party clears the status: no call, it stays empty, and the plan with the hosts last sent says so', async () => {
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/create/status`, {...merge, body: {status: {loadBalancer: {ingress: null}}}})
      await settle('the status cleared')
      expect(mine().slice(seen)).toEqual([])
      expect((await getService('create')).json.status?.loadBalancer?.ingress ?? []).toEqual([])
      // kctl with a provider that keeps the hosts it was last sent plans the running controller's next sync.
      const lb = planOf(plan, 'create').service.loadBalancer.name
      const hosts = lastSent.get('create')!.map((n) => ({name: n.name, ...(n.providerID ? {providerID: n.providerID} : {})}))
      const cp = planOf(await planJson(['-n', ns, '--now', NOW(), '--cloud-provider-exec', answering({[lb]: {exists: true, hosts}})]), 'create')
      expect(cp.actions.filter((a: Json) => /LoadBalancer/.test(a.type))).toEqual([])
      expect(cp.service.loadBalancer).toMatchObject({path: 'none', why: 'status-cleared'})
      expect(cp.warnings.join('\n')).toContain('does not sync a Service for a status change')
      // A fresh controller's plan (no provider) still ensures it and writes the status: LB-18 below does.
      expect(planOf(await planJson(['-n', ns, '--now', NOW()]), 'create').actions.map((a: Json) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    })
  })

  // Phase 3: Service changes, planned with the controller stopped, then carried out by a fresh one.
  describe('Service changes, then a fresh controller', () => {
    let second: Json
    let existsBefore: Set<string>

    beforeAll(async () => {
      await fakeCloud.stop()
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/create`, {...merge, body: {metadata: {annotations: {'example.com/lb-tier': 'gold'}}}})
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/local`, {...merge, body: {spec: {ports: [{name: 'http', port: 80}, {name: 'https', port: 443}]}}})
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/converged`, {...merge, body: {spec: {type: 'ClusterIP', externalTrafficPolicy: null}}})
      second = await planJson(['-n', ns, '--now', NOW()])
      existsBefore = new Set(JSON.parse(readFileSync(stateFile, 'utf8')))
      cloud = await fakeCloud.start({stateFile, callsFile})
      await settle('the restarted controller')
    }, 120_000)

    it.each([
      ['LB-18', 'create'],
      ['LB-19', 'local'],
      ['LB-20', 'converged'],
    ])('%s (%s): the calls, finalizer and status are the ones planned', async (_rule, name) => {
      const cp = planOf(second, name)
      const lbActions = cp.actions.filter((a: Json) => /LoadBalancer/.test(a.type))
      expect(ofItsSyncs(name, planOf(second, 'create').service.loadBalancer.hosts).map(strip)).toEqual(expectedCalls(lbActions, existsBefore.has(cp.service.loadBalancer.name)))
      const svc = (await getService(name)).json
      const types = lbActions.map((a: Json) => a.type)
      expect((svc.metadata.finalizers ?? []).includes(FINALIZER)).toBe(!types.includes('removeLoadBalancerFinalizer'))
      const status = lbActions.find((a: Json) => a.type === 'writeLoadBalancerStatus')
      expect(svc.status?.loadBalancer?.ingress ?? []).toEqual(status?.ingress === 'fromProvider' ? FAKE_INGRESS(svc.spec.ports.map((p: Json) => p.port)) : [])
    })

    it('LB-22: a failing Ensure leaves the finalizer and no status; the retry writes it', async () => {
      await fakeCloud.stop()
      await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'failing'}, spec: LB}})
      const p = planOf(await planJson(['-n', ns, '--now', NOW()]), 'failing')
      expect(p.actions.map((a: Json) => a.type)).toEqual(['addLoadBalancerFinalizer', 'ensureLoadBalancer', 'writeLoadBalancerStatus'])
      cloud = await fakeCloud.start({stateFile, callsFile, error: 'quota exceeded'})
      const failed = await waitUntil(() => callsOf('failing').find((c) => c.method === 'EnsureLoadBalancer'), {what: 'the failing Ensure'})
      expect(failed).toMatchObject({error: 'quota exceeded', hosts: p.actions[1].hosts})
      const svc = (await getService('failing')).json
      expect(svc.metadata.finalizers).toEqual([FINALIZER])
      expect(svc.status?.loadBalancer?.ingress ?? []).toEqual([])
      await cloud.setError(undefined)
      // Requeued after 5 s (the service queue's first backoff step, L7).
      const ok = await waitUntil(async () => ((await getService('failing')).json.status?.loadBalancer?.ingress ?? []).length > 0 && (await getService('failing')).json, {
        what: 'the retried Ensure to write the status',
        timeoutMs: 30_000,
      })
      expect(ok.status.loadBalancer.ingress).toEqual(FAKE_INGRESS([80]))
      expect(callsOf('failing').filter((c) => c.method === 'EnsureLoadBalancer').at(-1)).toMatchObject({hosts: p.actions[1].hosts})
      expect(callsOf('failing').filter((c) => c.method === 'EnsureLoadBalancer').at(-1)!.error).toBeUndefined()
    }, 120_000)

    it('LB-23: an Ensure answered ImplementedElsewhere: the finalizer stays, no status, no retry (an Error beside it is retried)', async () => {
      await fakeCloud.stop()
      for (const name of ['elsewhere', 'retried']) await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name}, spec: LB}})
      const p = await planJson(['-n', ns, '--now', NOW()])
      const status = planOf(p, 'elsewhere').actions.find((a: Json) => a.type === 'writeLoadBalancerStatus')
      expect(status).toMatchObject({ingress: 'fromProvider', notAfter: ['error', 'implemented-elsewhere']})
      cloud = await fakeCloud.start({stateFile, callsFile, faults: {[`${ns}/elsewhere`]: [{kind: 'ImplementedElsewhere'}], [`${ns}/retried`]: [{kind: 'Error', message: 'quota exceeded'}]}})
      // Until the Error's retry (5 s later, L7) has written the other Service's status.
      await waitUntil(async () => ((await getService('retried')).json.status?.loadBalancer?.ingress ?? []).length > 0, {what: 'the retried Ensure', timeoutMs: 30_000})
      await settle('the controller after the retry')
      const hosts = planOf(p, 'elsewhere').actions.find((a: Json) => a.type === 'ensureLoadBalancer').hosts
      const elsewhere = ofItsSyncs('elsewhere', hosts)
      expect(elsewhere.map(strip)).toEqual([{method: 'EnsureLoadBalancer', loadBalancer: planOf(p, 'elsewhere').service.loadBalancer.name, hosts}])
      expect(elsewhere[0]!.error).toBe('implemented by alternate to cloud provider')
      expect(ofItsSyncs('retried', hosts).map((c) => c.error ?? 'ok')).toEqual(['quota exceeded', 'ok'])
      const svc = (await getService('elsewhere')).json
      expect(svc.metadata.finalizers).toEqual([FINALIZER])
      expect(svc.status?.loadBalancer?.ingress ?? []).toEqual([])
      await fakeCloud.stop()
    }, 120_000)

    it('LB-10: no eligible node: Ensure with no hosts, and the status still written', async () => {
      await fakeCloud.stop()
      // Every Node of the cluster excluded for the time of this test, then put back as it was.
      const nodes = (await apiOk('GET', '/api/v1/nodes')).items as Json[]
      const exclude = (n: Json, value: string | null) => apiOk('PATCH', `/api/v1/nodes/${n.metadata.name}`, {...merge, body: {metadata: {labels: {[EXCLUDE]: value}}}})
      try {
        for (const n of nodes) await exclude(n, 'true')
        await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'nohosts'}, spec: LB}})
        const p = planOf(await planJson(['-n', ns, '--now', NOW()]), 'nohosts')
        expect(p.actions[1]).toMatchObject({type: 'ensureLoadBalancer', hosts: [], warning: 'UnAvailableLoadBalancer'})
        cloud = await fakeCloud.start({stateFile, callsFile})
        await settle('the controller with no eligible node')
        expect(callsOf('nohosts').map(strip)).toEqual(expectedCalls(p.actions, false))
        const svc = (await getService('nohosts')).json
        expect(svc.metadata.finalizers).toEqual([FINALIZER])
        expect(svc.status.loadBalancer.ingress).toEqual(FAKE_INGRESS([80]))
      } finally {
        await fakeCloud.stop()
        for (const n of nodes) await exclude(n, n.metadata.labels?.[EXCLUDE] ?? null).catch(() => {})
      }
    }, 120_000)
  })
})
