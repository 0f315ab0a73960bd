// The random differential oracle for the service (load-balancer) controller: seeded random worlds
// — Services of type LoadBalancer, ClusterIP or NodePort, some switched from one to another after
// the controller had ensured them, with no loadBalancerClass, another controller's or one naming
// this cloud, one or two ports, externalTrafficPolicy Local, annotations, the cleanup finalizer
// present or not, deletion in progress (the finalizer the last one, or another holding the Service),
// a status that is the cloud's, stale or empty, a load balancer that exists in the cloud or not, and
// the cloud's planned failures (an error once or twice, a RetryAfter, ImplementedElsewhere) — and a
// node set per batch (Ready or not, the exclude label with true, false and other values, the
// autoscaler's ToBeDeleted taint, the control-plane taint, other taints, cordons, zones, provider
// IDs, nodes being deleted). The worlds are built with no controller running and planned live by
// `kctl plan --cloud-provider-exec` with a provider that answers GetLoadBalancer from the fake
// cloud's own state; then k8s.io/cloud-provider's service controller runs with the fake cloud
// (kctl-fakecloud, controlplane/fake-cloud.ts). Each Service's cloud calls (method, load balancer,
// hosts as a set, the error answered), its finalizer and its status at the end must be what its
// plan says, the planned failures taken in order: an error ends the sync (nothing after the call is
// written) and the controller retries it whole; ImplementedElsewhere ends it for good on the Ensure
// path and is ignored on the delete path.
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/services-lb-random.e2e.test.ts
//
// KCTL_ORACLE_BATCH (default 25) is the number of Services per node set and per start of the
// controller; a replay keeps it. Excluded, as upstream timing: UpdateLoadBalancer calls. The
// controller's node-sync worker runs beside its service worker and at start-up may send the hosts
// again for a Service it has just ensured or deleted (its cache is behind); the plans here are a
// fresh controller's, which never send an update. Events are not compared (the recorder aggregates
// them asynchronously).
import {mkdtempSync, writeFileSync, chmodSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import type {CloudCall, CloudFault, FakeCloud} from '../../controlplane/fake-cloud.js'
import {setExistingBalancers} from '../../controlplane/fake-cloud.js'
import {planJson} from './kctl.js'
import {api, apiOk, deleteNamespace, fakeCloud, makeNode, newNamespace, waitUntil} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Json = any
type Rnd = () => number

const {seed: SEED, count: COUNT, batch: BATCH} = oracleSettings({seed: 20261128, count: 100, batch: 25})
const FILE = 'test/e2e/services-lb-random.e2e.test.ts'

const FINALIZER = 'service.kubernetes.io/load-balancer-cleanup'
const HOLD = 'kctl.io/e2e-hold'
const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers'
const FAKE_IP = '203.0.113.10'
const merge = {contentType: 'application/merge-patch+json'}
const NOW = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const chance = (r: Rnd, p: number) => r() < p

// ---------------------------------------------------------------- worlds

interface NodeSpec {
  name: string
  ready: boolean
  labels: Record<string, string>
  taints: Json[]
  unschedulable: boolean
  providerID?: string
  deleting: boolean
}

type ServiceType = 'LoadBalancer' | 'ClusterIP' | 'NodePort'
type StatusKind = 'none' | 'cloud' | 'stale' | 'cloud-without-ports'

interface World {
  index: number
  name: string
  /** The type it was created with, and the type it has when planned (a switch when they differ). */
  created: ServiceType
  type: ServiceType
  loadBalancerClass?: string
  ports: number
  local: boolean
  annotations: Record<string, string>
  finalizers: string[]
  /** The status written while it was a LoadBalancer. */
  status: StatusKind
  deleting: boolean
  /** Its load balancer exists in the cloud before the controller starts. */
  exists: boolean
  faults: CloudFault[]
}

function drawNodes(r: Rnd, batch: number): NodeSpec[] {
  return Array.from({length: int(r, 1, 5)}, (_, i) => {
    const labels: Record<string, string> = {'topology.kubernetes.io/zone': pick(r, ['zone-a', 'zone-b', 'zone-c'])}
    if (chance(r, 0.35)) labels[EXCLUDE] = pick(r, ['', 'true', 'false', 'maybe', '0', 'F', 'TRUE', '1'])
    const role = chance(r, 0.15)
    if (role) labels['node-role.kubernetes.io/control-plane'] = ''
    const taints: Json[] = []
    if (role) taints.push({key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'})
    if (chance(r, 0.2)) taints.push({key: 'ToBeDeletedByClusterAutoscaler', value: '1700000000', effect: pick(r, ['NoSchedule', 'PreferNoSchedule'])})
    if (chance(r, 0.15)) taints.push({key: 'example.com/dedicated', value: 'x', effect: pick(r, ['NoSchedule', 'NoExecute'])})
    return {
      name: `lbr-${SEED}-${batch}-${i}`,
      ready: chance(r, 0.75),
      labels,
      taints,
      unschedulable: chance(r, 0.15),
      ...(chance(r, 0.2) ? {providerID: `fake://lbr-${batch}-${i}`} : {}),
      deleting: chance(r, 0.12),
    }
  })
}

function generate(r: Rnd, index: number): World {
  const type = pick(r, ['LoadBalancer', 'LoadBalancer', 'LoadBalancer', 'ClusterIP', 'NodePort'] as const)
  // A switch: it was a LoadBalancer (ensured or not) and is now another type, or the other way.
  const created: ServiceType = type !== 'LoadBalancer' ? (chance(r, 0.6) ? 'LoadBalancer' : type) : chance(r, 0.15) ? pick(r, ['ClusterIP', 'NodePort'] as const) : 'LoadBalancer'
  const loadBalancerClass = created === 'LoadBalancer' && type === 'LoadBalancer' && chance(r, 0.2) ? pick(r, ['example.com/other', 'kctl.io/fake-cloud']) : undefined
  const lbFinalizer = chance(r, created === 'LoadBalancer' ? 0.6 : 0.35)
  const deleting = chance(r, 0.2)
  const hold = deleting ? chance(r, 0.5) || !lbFinalizer : chance(r, 0.05)
  const finalizers = [...(lbFinalizer ? [FINALIZER] : []), ...(hold ? [HOLD] : [])]
  const status: StatusKind = created === 'LoadBalancer' ? pick(r, ['none', 'cloud', 'cloud', 'stale', 'cloud-without-ports'] as const) : 'none'
  const exists = chance(r, lbFinalizer || status === 'cloud' ? 0.6 : 0.15)
  const faults: CloudFault[] = pick(r, [
    [],
    [],
    [],
    [],
    [{kind: 'Error', message: 'quota exceeded'}],
    [{kind: 'Error', message: 'quota exceeded'}, {kind: 'Error', message: 'still over quota'}],
    [{kind: 'RetryAfter', message: 'busy', retryAfterSeconds: 1}],
    [{kind: 'ImplementedElsewhere'}],
  ] as CloudFault[][])
  const annotations: Record<string, string> = chance(r, 0.3) ? {'example.com/lb-tier': pick(r, ['gold', 'silver'])} : {}
  return {index, name: `s${index}`, created, type, ...(loadBalancerClass ? {loadBalancerClass} : {}), ports: int(r, 1, 2), local: type === 'LoadBalancer' && created === 'LoadBalancer' && chance(r, 0.25), annotations, finalizers, status, deleting, exists, faults}
}

const portsOf = (w: World) => [{name: 'http', port: 80}, {name: 'https', port: 443}].slice(0, w.ports)
const cloudIngress = (ports: number[]) => [{ip: FAKE_IP, ipMode: 'VIP', ports: ports.map((port) => ({port, protocol: 'TCP'}))}]

async function buildNode(n: NodeSpec): Promise<void> {
  await makeNode(n.name, {labels: n.labels, ready: n.ready})
  const spec: Json = {taints: n.taints.length > 0 ? n.taints : null, ...(n.unschedulable ? {unschedulable: true} : {}), ...(n.providerID ? {providerID: n.providerID} : {})}
  await apiOk('PATCH', `/api/v1/nodes/${n.name}`, {...merge, body: {spec, ...(n.deleting ? {metadata: {finalizers: [HOLD]}} : {})}})
  if (n.deleting) await apiOk('DELETE', `/api/v1/nodes/${n.name}`)
}

async function buildService(ns: string, w: World): Promise<Json> {
  const spec: Json = {type: w.created, ports: portsOf(w), ...(w.loadBalancerClass ? {loadBalancerClass: w.loadBalancerClass} : {}), ...(w.local ? {externalTrafficPolicy: 'Local'} : {})}
  const svc = await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: w.name, annotations: w.annotations, finalizers: w.finalizers}, spec}})
  if (w.status !== 'none') {
    const ingress = w.status === 'cloud' ? cloudIngress(portsOf(w).map((p) => p.port)) : w.status === 'stale' ? [{ip: '192.0.2.44', ipMode: 'VIP'}] : [{ip: FAKE_IP, ipMode: 'VIP'}]
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/${w.name}/status`, {...merge, body: {status: {loadBalancer: {ingress}}}})
  }
  if (w.created !== w.type) {
    const change: Json = {type: w.type}
    if (w.type === 'ClusterIP') Object.assign(change, {externalTrafficPolicy: null, ports: portsOf(w).map((p) => ({...p, nodePort: null}))})
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/${w.name}`, {...merge, body: {spec: change}})
  }
  if (w.deleting) await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/${w.name}`)
  return svc
}

// ---------------------------------------------------------------- the plan, and what the controller did

/** The provider `kctl plan` asks: GetLoadBalancer from the fake cloud's state file (no hosts: the fake keeps none). */
function providerScript(dir: string, stateFile: string): string {
  const path = join(dir, 'provider.mjs')
  writeFileSync(
    path,
    `#!/usr/bin/env node
import {existsSync, readFileSync} from 'node:fs'
const req = JSON.parse(readFileSync(0, 'utf8'))
const names = existsSync(${JSON.stringify(stateFile)}) ? JSON.parse(readFileSync(${JSON.stringify(stateFile)}, 'utf8')) : []
if (req.method === 'GetLoadBalancer') process.stdout.write(JSON.stringify({exists: names.includes(req.loadBalancerName)}))
else process.stdout.write(JSON.stringify({error: {kind: 'Error', message: 'this provider only answers GetLoadBalancer'}}))
`,
  )
  chmodSync(path, 0o755)
  return path
}

interface Outcome {
  calls: string[]
  finalizer: boolean
  /** The Service is gone (its last finalizer removed while it was being deleted). */
  gone: boolean
  ingress: Json[]
}

const callLine = (method: string, lb: string, hosts?: string[], error?: string) =>
  `${method} ${lb}${hosts ? ` [${[...hosts].sort().join(',')}]` : ''}${error ? ` ! ${error}` : ''}`

/** The error text the fake cloud prints: cloudprovider.ImplementedElsewhere's own, or the fault's message. */
const faultText = (f: CloudFault) => (f.kind === 'ImplementedElsewhere' ? 'implemented by alternate to cloud provider' : f.message ?? 'planned failure')

/**
 * What the controller does with the plan's actions when the cloud answers `faults` in order: an
 * error ends the sync, which is retried whole (the finalizer added already stays; GetLoadBalancer
 * answers again); ImplementedElsewhere ends an Ensure sync for good and is ignored by a delete.
 */
function predicted(w: World, cp: Json, before: Json): Outcome {
  const faults = [...w.faults]
  const calls: string[] = []
  let finalizer = (before.metadata.finalizers ?? []).includes(FINALIZER)
  let ingress: Json[] = before.status?.loadBalancer?.ingress ?? []
  const actions = cp.actions.filter((a: Json) => /LoadBalancer/.test(a.type))
  let exists: boolean | undefined
  for (let attempt = 0; attempt < 10; attempt++) {
    let retry = false
    let stop = false
    for (const a of actions) {
      if (a.type === 'addLoadBalancerFinalizer') finalizer = true
      else if (a.type === 'removeLoadBalancerFinalizer') finalizer = false
      else if (a.type === 'ensureLoadBalancer') {
        const f = faults.shift()
        calls.push(callLine('EnsureLoadBalancer', a.loadBalancer, a.hosts, f && faultText(f)))
        if (f?.kind === 'ImplementedElsewhere') stop = true
        else if (f) retry = true
      } else if (a.type === 'ensureLoadBalancerDeleted') {
        exists ??= a.exists
        calls.push(callLine('GetLoadBalancer', a.loadBalancer) + ` exists=${exists}`)
        if (exists) {
          const f = faults.shift()
          calls.push(callLine('EnsureLoadBalancerDeleted', a.loadBalancer, undefined, f && faultText(f)))
          if (f && f.kind !== 'ImplementedElsewhere') retry = true
          else if (!f) exists = false
        }
      } else if (a.type === 'writeLoadBalancerStatus') {
        ingress = a.ingress === 'clear' ? [] : cloudIngress(before.spec.ports.map((p: Json) => p.port))
      }
      if (retry || stop) break
    }
    if (!retry) break
    // The retried sync finds the finalizer it added: its plan is the same without that write.
  }
  const gone = Boolean(before.metadata.deletionTimestamp) && !finalizer && (before.metadata.finalizers ?? []).every((f: string) => f === FINALIZER)
  return {calls, finalizer, gone, ingress: gone ? [] : ingress}
}

function observed(calls: CloudCall[], svc: Json | undefined): Outcome {
  const lines = calls
    .filter((c) => c.method !== 'UpdateLoadBalancer')
    .map((c) => (c.method === 'GetLoadBalancer' ? `${callLine(c.method, c.loadBalancer)} exists=${c.exists}` : callLine(c.method, c.loadBalancer, c.method === 'EnsureLoadBalancer' ? c.hosts ?? [] : undefined, c.error)))
  return {calls: lines, finalizer: Boolean(svc?.metadata.finalizers?.includes(FINALIZER)), gone: svc === undefined, ingress: svc?.status?.loadBalancer?.ingress ?? []}
}

const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))

// ---------------------------------------------------------------- the run

const tally = {worlds: 0, agree: 0, ensures: 0, deletes: 0, faults: 0, none: 0, updatesLeftOut: 0, disagreements: [] as string[]}

describe(`random load-balancer worlds (seed ${SEED}, ${COUNT} worlds) against the service controller and the fake cloud`, () => {
  afterAll(async () => {
    await fakeCloud.stop()
  })

  for (let first = 0; first < COUNT; first += BATCH) {
    const last = Math.min(COUNT, first + BATCH)
    const batch = first / BATCH
    it(`worlds ${first}–${last - 1}: every Service's cloud calls, finalizer and status are its plan's`, async () => {
      // This batch's own disagreements: the tally runs across batches.
      const disagreedBefore = tally.disagreements.length
      await fakeCloud.stop()
      const dir = mkdtempSync(join(tmpdir(), 'kctl-lb-random-'))
      const stateFile = join(dir, 'balancers.json')
      const callsFile = join(dir, 'calls.jsonl')
      setExistingBalancers(stateFile, [])
      const provider = providerScript(dir, stateFile)
      const nodes = drawNodes(prng(SEED * 7919 + 1_000_003 * (batch + 1)) as Rnd, batch)
      const worlds: World[] = []
      for (let i = first; i < last; i++) worlds.push(generate(prng(SEED * 7919 + i) as Rnd, i))
      const ns = await newNamespace('lbrand')
      let cloud: FakeCloud | undefined
      try {
        for (const n of nodes) await buildNode(n)
        const uids = new Map<string, string>()
        for (let i = 0; i < worlds.length; i += 8) {
          const made = await Promise.all(worlds.slice(i, i + 8).map((w) => buildService(ns, w)))
          for (const s of made) uids.set(s.metadata.name, s.metadata.uid)
        }
        const lbName = (w: World) => `a${uids.get(w.name)!.replaceAll('-', '')}`.slice(0, 32)
        setExistingBalancers(stateFile, worlds.filter((w) => w.exists).map(lbName))
        const before = new Map<string, Json>((await apiOk('GET', `/api/v1/namespaces/${ns}/services`)).items.map((s: Json) => [s.metadata.name, s]))
        const plan = await planJson(['-n', ns, '--now', NOW(), '--cloud-provider-exec', provider])
        const plans = new Map<string, Json>(plan.controllers.filter((c: Json) => c.kind === 'Service').map((c: Json) => [c.name, c]))
        expect(plans.size, 'every Service is planned').toBe(worlds.length)
        const want = new Map(worlds.map((w) => [w.name, predicted(w, plans.get(w.name)!, before.get(w.name)!)]))
        const faults = Object.fromEntries(worlds.filter((w) => w.faults.length > 0).map((w) => [`${ns}/${w.name}`, w.faults]))
        cloud = await fakeCloud.start({stateFile, callsFile, faults})
        let got = new Map<string, Outcome>()
        const look = async () => {
          const calls = cloud!.calls().filter((c) => c.service.startsWith(`${ns}/`))
          const services = new Map<string, Json>((await apiOk('GET', `/api/v1/namespaces/${ns}/services`)).items.map((s: Json) => [s.metadata.name, s]))
          got = new Map(worlds.map((w) => [w.name, observed(calls.filter((c) => c.service === `${ns}/${w.name}`), services.get(w.name))]))
          return worlds.every((w) => canon(got.get(w.name)) === canon(want.get(w.name)))
        }
        // Until every world is as planned (the retries of two errors take 15 s), then 4 s more for
        // anything unplanned (a retry too many) to show.
        const t1 = Date.now()
        let agreedAt: number | undefined
        await waitUntil(
          async () => {
            if (!(await look())) return (agreedAt = undefined), false
            agreedAt ??= Date.now()
            return Date.now() - agreedAt > 4000 && Date.now() - t1 > 6000
          },
          {what: 'the service controller to do what the plans say', timeoutMs: 60_000},
        ).catch(() => {})
        await look()
        tally.updatesLeftOut += cloud.calls().filter((c) => c.service.startsWith(`${ns}/`) && c.method === 'UpdateLoadBalancer').length
        for (const w of worlds) {
          const cp = plans.get(w.name)!
          const types = cp.actions.map((a: Json) => a.type)
          tally.worlds++
          if (types.includes('ensureLoadBalancer')) tally.ensures++
          if (types.includes('ensureLoadBalancerDeleted')) tally.deletes++
          if (!types.some((t: string) => /LoadBalancer/.test(t))) tally.none++
          if (w.faults.length > 0) tally.faults++
          if (canon(got.get(w.name)) === canon(want.get(w.name))) tally.agree++
          else
            tally.disagreements.push(
              `world ${w.index} (replay: KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_COUNT=${w.index + 1}${BATCH !== 25 ? ` KCTL_ORACLE_BATCH=${BATCH}` : ''} npx vitest run --project e2e ${FILE})\n` +
                `  world: ${JSON.stringify(w)}\n  nodes: ${JSON.stringify(nodes)}\n  plan: ${JSON.stringify(cp.actions.filter((a: Json) => /LoadBalancer/.test(a.type)))} ${JSON.stringify(cp.warnings)}\n` +
                `  planned:    ${JSON.stringify(want.get(w.name))}\n  controller: ${JSON.stringify(got.get(w.name))}`,
            )
        }
      } finally {
        await fakeCloud.stop()
        for (const s of (await apiOk('GET', `/api/v1/namespaces/${ns}/services`)).items) {
          if (s.metadata.finalizers?.length) await api('PATCH', `/api/v1/namespaces/${ns}/services/${s.metadata.name}`, {...merge, body: {metadata: {finalizers: null}}})
        }
        await deleteNamespace(ns).catch(() => {})
        for (const n of nodes) {
          if (n.deleting) await api('PATCH', `/api/v1/nodes/${n.name}`, {...merge, body: {metadata: {finalizers: null}}})
          await api('DELETE', `/api/v1/nodes/${n.name}`)
        }
      }
      process.stderr.write(
        `[services-lb-random] seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.ensures} Ensure, ${tally.deletes} delete, ${tally.none} untouched, ${tally.faults} with cloud failures; ${tally.updatesLeftOut} UpdateLoadBalancer calls left out)\n`,
      )
      const mine = tally.disagreements.slice(disagreedBefore)
      expect(mine, mine.join('\n')).toEqual([])
    }, 600_000)
  }
})
