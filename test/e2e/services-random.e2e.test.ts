// The random differential oracle for the endpoint controllers: seeded random Service worlds, one
// namespace each — 1–3 Services (ClusterIP and headless, single- and dual-stack, named and numeric
// target ports, one to three ports, TCP and UDP, publishNotReadyAddresses), pods matching or not,
// with and without IPs, in every phase, ready or not, terminating, with named container ports that
// differ between pods (sidecars too), on nodes with and without a zone or on a node that does not
// exist; EndpointSlices of the controller that are current, stale, of the other family, owned by an
// earlier Service of the same name, holding pods that are gone or an endpoint another slice holds
// too; slices of another manager; Endpoints objects written by hand, with or without their Service;
// Services without a selector whose custom Endpoints object the mirroring controller copies.
// About half the worlds are first settled by the real controllers and then changed (pods go, come,
// turn ready or terminating; ports, selectors and publishNotReadyAddresses change; a Service is
// deleted and made again under its name; the controllers' slices are deleted or edited).
// Each batch (one --max-endpoints-per-slice value: 100, 2, 3 or 5) is planned live by
// `kctl plan -A -l …` with the same maximum, then kube-controller-manager 1.36.4 runs the
// `endpointslice`, `endpoint` and `endpointslicemirroring` controllers until nothing more is
// written, and every Service's slices (per managing controller) and Endpoints object must be what
// its plan says: slices deleted, updated (by name: content, labels, trigger time), untouched (same
// resourceVersion) and created (content; the names upstream generates are not compared), endpoints
// the plan draws at random from a pool compared as a set. A random choice the plan names
// (`service.choices`) agrees when the controller's outcome is one of those named.
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/services-random.e2e.test.ts
//
// (KCTL_ORACLE_FIRST=n starts at world n: a replay builds only the worlds it needs.)
//
// Excluded by construction, because upstream's outcome is a matter of chance and time: a mirrored
// slice whose name a new slice takes while new mirrored slices of both families are made (the
// mirroring controller's recycleSlices removes creates by their empty name, so by map order the
// sync fails with AlreadyExists and is retried after 1 s, 2 s, 4 s… until it falls right; kctl
// warns of it): an Endpoints object of both families has no mirrored slice made by hand and is
// replaced only by one of a single family. Every object is written while no controller runs, and
// the judge waits until each controller has written for a sentinel namespace and then nothing has
// changed for 5 s. Events are not compared. A disagreement prints the world and a replay command.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, inParallel, makeNode, newNamespace, waitUntil, waitUntilQuiet} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Json = any
type Rnd = () => number

/** Worlds per run of the controllers, BATCH: the Service CIDR is a /24, keep the ClusterIPs of a batch well under it. */
const {seed: SEED, count: COUNT, first: FIRST, batch: BATCH} = oracleSettings({seed: 20261127, count: 100, batch: 40})
const MAXES = [100, 2, 3, 5] as const
const CONTROLLERS = ['endpointslice', 'endpoint', 'endpointslicemirroring']
const ES = 'endpointslice-controller.k8s.io'
const MIRROR = 'endpointslicemirroring-controller.k8s.io'
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by'
const SERVICE_NAME = 'kubernetes.io/service-name'
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time'
const RUN = `r${(SEED >>> 0).toString(36)}`

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const chance = (r: Rnd, p: number) => r() < p
const some = <T>(r: Rnd, xs: readonly T[], p: number): T[] => xs.filter(() => chance(r, p))

type NodeRef = 'n1' | 'n2' | 'n3' | 'gone'
interface PodSpec {
  name: string
  app: string
  node?: NodeRef
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed'
  ready: boolean
  /** IPv4 and/or IPv6, first one primary; none: no IP yet. */
  ips: string[]
  terminating: boolean
  ports: {name: string; containerPort: number; protocol?: string}[]
  sidecar?: {name: string; containerPort: number}[]
  hostname?: string
  subdomain?: string
}
interface EndpointSpec {
  pod: string
  family: 'IPv4' | 'IPv6'
  ready?: boolean
  zoneless?: boolean
  hints?: boolean
}
interface SliceSpec {
  name: string
  service: string
  by: 'es' | 'mirror' | 'other'
  owner: 'mine' | 'earlier' | 'none'
  addressType: 'IPv4' | 'IPv6'
  ports: Json[]
  endpoints: EndpointSpec[]
  labels?: Record<string, string>
}
interface ServiceSpec {
  name: string
  spec: Json
  labels: Record<string, string>
  /** An Endpoints object written by hand (the mirroring controller's source when there is no selector). */
  endpoints?: Json
}
type Change =
  | {op: 'deletePod' | 'terminate'; pod: string}
  | {op: 'ready'; pod: string; ready: boolean}
  | {op: 'addPod'; pod: PodSpec}
  | {op: 'patchService'; service: string; spec: Json}
  | {op: 'recreateService'; service: string; spec: Json}
  | {op: 'deleteSlice' | 'trimSlice'; service: string; k: number}
  | {op: 'endpoints'; service: string; endpoints: Json}
interface World {
  index: number
  max: number
  settle: boolean
  services: ServiceSpec[]
  pods: PodSpec[]
  slices: SliceSpec[]
  /** Endpoints objects without a Service. */
  orphans: string[]
  changes: Change[]
}

const v4 = (w: number, k: number) => `10.${64 + ((w >> 8) & 63)}.${w & 255}.${k + 1}`
const v6 = (w: number, k: number) => `fd00::${(w + 1).toString(16)}:${(k + 1).toString(16)}`
const PORT_NAMES = ['http', 'dns', 'metrics'] as const

function drawServicePorts(r: Rnd, headless: boolean): Json[] {
  const n = headless && chance(r, 0.2) ? 0 : pick(r, [1, 1, 1, 2, 3])
  const out: Json[] = []
  for (let i = 0; i < n; i++) {
    const protocol = chance(r, 0.2) ? 'UDP' : 'TCP'
    const port = [80, 53, 9100][i] + (protocol === 'UDP' ? 1 : 0)
    const targetPort = pick(r, ['web', 'web', 'metrics', 8080, 9100, undefined])
    out.push({...(n > 1 || chance(r, 0.5) ? {name: PORT_NAMES[i]} : {}), port, protocol, ...(targetPort === undefined ? {} : {targetPort}), ...(chance(r, 0.1) ? {appProtocol: 'http'} : {})})
  }
  return out
}

function drawPod(r: Rnd, w: number, k: number, app: string, dual: boolean): PodSpec {
  const phase = pick(r, ['Running', 'Running', 'Running', 'Running', 'Pending', 'Succeeded', 'Failed'] as const)
  const node = phase === 'Pending' && chance(r, 0.3) ? undefined : pick(r, ['n1', 'n1', 'n2', 'n2', 'n3', 'gone'] as const)
  const family = dual ? pick(r, ['both', 'both', 'v4', 'v6', 'v6first'] as const) : chance(r, 0.05) ? 'v6' : 'v4'
  const ips = (phase === 'Pending' && chance(r, 0.5)) || !node ? [] : family === 'both' ? [v4(w, k), v6(w, k)] : family === 'v6first' ? [v6(w, k), v4(w, k)] : family === 'v6' ? [v6(w, k)] : [v4(w, k)]
  const ports: PodSpec['ports'] = []
  if (chance(r, 0.85)) ports.push({name: 'web', containerPort: pick(r, [8080, 8080, 9090]), ...(chance(r, 0.1) ? {protocol: 'UDP'} : {})})
  if (chance(r, 0.5)) ports.push({name: 'metrics', containerPort: pick(r, [9100, 9101])})
  const p: PodSpec = {name: `${app}-${k}`, app, node, phase, ready: phase === 'Running' ? chance(r, 0.75) : phase === 'Pending' && chance(r, 0.1), ips, terminating: Boolean(node) && chance(r, 0.12), ports}
  if (chance(r, 0.1)) p.sidecar = [{name: pick(r, ['web', 'metrics']), containerPort: 7070}]
  if (chance(r, 0.15)) {
    p.hostname = `h${k}`
    p.subdomain = pick(r, [app, 'other'])
  }
  return p
}

/** A hand-written Endpoints object; `mixed`: its addresses of both families (else of one, IPv6 at times). */
function drawEndpointsObject(r: Rnd, w: number, labels: Record<string, string>, mixed: boolean): Json {
  const subsets: Json[] = []
  const n = int(r, 0, 2)
  const v6 = chance(r, 0.15)
  for (let i = 0; i < n; i++) {
    const addr = (k: number) => ({ip: (mixed ? chance(r, 0.3) : v6) ? `2001:db8::${(w + 1).toString(16)}:${k + 1}` : `192.0.${2 + i}.${(w % 200) + k + 1}`})
    const addresses = Array.from({length: int(r, 0, 4)}, (_, k) => addr(k))
    const notReadyAddresses = Array.from({length: int(r, 0, 2)}, (_, k) => addr(k + 10))
    if (addresses.length + notReadyAddresses.length === 0) continue
    const nPorts = int(r, 1, 2)
    const ports = Array.from({length: nPorts}, (_, k) => ({...(nPorts > 1 || chance(r, 0.5) ? {name: ['db', 'admin'][k]} : {}), port: 5432 + k, protocol: chance(r, 0.2) ? 'UDP' : 'TCP'}))
    subsets.push({...(addresses.length ? {addresses} : {}), ...(notReadyAddresses.length ? {notReadyAddresses} : {}), ports})
  }
  return {labels, subsets}
}

function generate(r: Rnd, index: number): World {
  const max = pick(r, [100, 100, 2, 3, 5])
  const settle = chance(r, 0.5)
  const nServices = pick(r, [1, 1, 2, 2, 3])
  const services: ServiceSpec[] = []
  const pods: PodSpec[] = []
  const slices: SliceSpec[] = []
  const apps = ['web', 'api', 'db']
  let k = 0
  for (let i = 0; i < nServices; i++) {
    const name = apps[i]
    const headless = chance(r, 0.3)
    const stack = pick(r, ['v4', 'v4', 'v4', 'dual46', 'dual64', 'v6'] as const)
    const dual = stack === 'dual46' || stack === 'dual64'
    const families = stack === 'dual46' ? ['IPv4', 'IPv6'] : stack === 'dual64' ? ['IPv6', 'IPv4'] : stack === 'v6' ? ['IPv6'] : ['IPv4']
    const mirrored = chance(r, 0.15)
    const external = !mirrored && chance(r, 0.04)
    const labels: Record<string, string> = {team: pick(r, ['a', 'b'])}
    const spec: Json = external
      ? {type: 'ExternalName', externalName: 'example.com'}
      : {
          ...(mirrored ? {} : {selector: {app: chance(r, 0.1) ? pick(r, apps) : name}}),
          ...(headless ? {clusterIP: 'None'} : {}),
          ipFamilyPolicy: dual ? 'RequireDualStack' : 'SingleStack',
          ipFamilies: families,
          ports: drawServicePorts(r, headless),
          ...(chance(r, 0.2) ? {publishNotReadyAddresses: true} : {}),
        }
    if (!headless && !external && spec.ports.length === 0) spec.ports = [{port: 80, protocol: 'TCP'}]
    const svc: ServiceSpec = {name, spec, labels}
    const mixed = chance(r, 0.3)
    if (mirrored || (external && chance(r, 0.5))) svc.endpoints = drawEndpointsObject(r, index, chance(r, 0.5) ? {source: 'dba'} : {}, mixed)
    else if (!external && chance(r, 0.15)) svc.endpoints = {labels: {stale: 'yes'}, subsets: [{addresses: [{ip: v4(index, 200 + i)}], ports: [{port: 1, protocol: 'TCP'}]}]}
    services.push(svc)
    const nPods = mirrored || external ? 0 : pick(r, [0, 1, 2, 3, 4, 5, 6, 8])
    const mine: PodSpec[] = []
    for (let j = 0; j < nPods; j++) {
      const p = drawPod(r, index, k++, chance(r, 0.1) ? 'stray' : name, dual || chance(r, 0.1))
      if (pods.some((x) => x.name === p.name)) continue
      pods.push(p)
      mine.push(p)
    }
    // Slices made by hand (in settled worlds too: the controller's first run meets them).
    if (external) continue
    const nSlices = pick(r, [0, 0, 1, 1, 2, 3])
    for (let s = 0; s < nSlices; s++) {
      const addressType = (spec.ipFamilies ?? ['IPv4']).length > 1 ? pick(r, spec.ipFamilies) : chance(r, 0.1) ? 'IPv6' : (spec.ipFamilies ?? ['IPv4'])[0]
      // Not beside an Endpoints object of both families (see the header).
      const by = mirrored ? pick(r, mixed ? (['other'] as const) : (['mirror', 'mirror', 'other'] as const)) : pick(r, ['es', 'es', 'es', 'es', 'other'] as const)
      const owner = by === 'other' ? 'none' : chance(r, 0.15) ? 'earlier' : 'mine'
      const members = some(r, mine, 0.5)
      const endpoints: EndpointSpec[] = members.map((p) => ({pod: p.name, family: addressType as 'IPv4' | 'IPv6', ...(chance(r, 0.2) ? {ready: !p.ready} : {}), ...(chance(r, 0.1) ? {zoneless: true} : {}), ...(chance(r, 0.05) ? {hints: true} : {})}))
      if (chance(r, 0.3)) endpoints.push({pod: `~ghost${s}`, family: addressType as 'IPv4' | 'IPv6'})
      // An endpoint another slice holds too.
      const earlier = slices.filter((x) => x.service === name && x.by === by && x.addressType === addressType)
      if (earlier.length > 0 && chance(r, 0.4)) {
        const dup = pick(r, earlier).endpoints[0]
        if (dup && !endpoints.some((e) => e.pod === dup.pod)) endpoints.push({...dup})
      }
      const resolved = mine.find((p) => p.ports.some((x) => x.name === 'web'))?.ports.find((x) => x.name === 'web')?.containerPort ?? 8080
      const ports = addressType !== (spec.ipFamilies ?? ['IPv4'])[0] && chance(r, 0.5) ? [] : (spec.ports ?? []).map((p: Json) => ({...(p.name ? {name: p.name} : {}), port: typeof p.targetPort === 'number' ? p.targetPort : p.targetPort === undefined ? p.port : chance(r, 0.8) ? resolved : 1234, protocol: p.protocol}))
      slices.push({name: `${name}-hand${s}`, service: name, by, owner, addressType: addressType as 'IPv4' | 'IPv6', ports, endpoints: endpoints.slice(0, max + (chance(r, 0.2) ? 1 : 0)), ...(chance(r, 0.15) ? {labels: {'added-by': 'someone'}} : {})})
    }
  }
  const orphans = chance(r, 0.08) ? ['orphan'] : []
  const changes: Change[] = []
  if (settle) {
    for (let c = int(r, 1, 4); c > 0; c--) {
      const svc = pick(r, services)
      const p = pods.length > 0 ? pick(r, pods) : undefined
      const op = pick(r, ['deletePod', 'terminate', 'ready', 'ready', 'addPod', 'addPod', 'patchService', 'recreateService', 'deleteSlice', 'trimSlice', 'endpoints'] as const)
      if ((op === 'deletePod' || op === 'ready' || op === 'terminate') && p) {
        if (changes.some((x) => 'pod' in x && (x.pod === p.name || (typeof x.pod === 'object' && x.pod.name === p.name)))) continue
        if (op === 'terminate' && (!p.node || p.terminating)) continue
        changes.push(op === 'ready' ? {op, pod: p.name, ready: !p.ready} : {op, pod: p.name})
      } else if (op === 'addPod' && svc.spec.selector) {
        const dual = (svc.spec.ipFamilies ?? []).length > 1
        changes.push({op, pod: drawPod(r, index, k++, svc.spec.selector.app, dual)})
      } else if (op === 'patchService' && svc.spec.type !== 'ExternalName') {
        const headless = svc.spec.clusterIP === 'None'
        const patch = pick(r, [
          () => ({ports: drawServicePorts(r, headless).map((x, i, all) => ({...x, ...(all.length > 1 ? {name: PORT_NAMES[i]} : {})}))}),
          () => ({publishNotReadyAddresses: !svc.spec.publishNotReadyAddresses}),
          () => ({selector: svc.spec.selector ? null : {app: svc.name}}),
          () => ({selector: {app: pick(r, apps)}}),
        ])()
        if (!headless && patch.ports?.length === 0) patch.ports = [{port: 80, protocol: 'TCP'}]
        changes.push({op, service: svc.name, spec: patch})
      } else if (op === 'recreateService' && svc.spec.type !== 'ExternalName') {
        changes.push({op, service: svc.name, spec: {...svc.spec, ...(chance(r, 0.5) ? {publishNotReadyAddresses: !svc.spec.publishNotReadyAddresses} : {})}})
      } else if (op === 'deleteSlice' || op === 'trimSlice') changes.push({op, service: svc.name, k: int(r, 0, 3)})
      else if (op === 'endpoints' && !svc.spec.selector && svc.spec.type !== 'ExternalName') changes.push({op, service: svc.name, endpoints: drawEndpointsObject(r, index, {source: pick(r, ['dba', 'ops'])}, false)})
    }
  }
  return {index, max, settle, services, pods, slices, orphans, changes}
}

// ---- Building worlds on the API server ----

let nodeName: (n: NodeRef) => string = (n) => n
const ZONES: Record<string, string | undefined> = {n1: 'zone-1', n2: 'zone-2', n3: undefined}

async function createPod(ns: string, p: PodSpec): Promise<Json> {
  const spec: Json = {containers: [{name: 'app', image: 'app', ports: p.ports}], terminationGracePeriodSeconds: 3600}
  if (p.node) spec.nodeName = nodeName(p.node)
  if (p.sidecar) spec.initContainers = [{name: 'proxy', image: 'proxy', restartPolicy: 'Always', ports: p.sidecar}]
  if (p.hostname) spec.hostname = p.hostname
  if (p.subdomain) spec.subdomain = p.subdomain
  await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: p.name, labels: {app: p.app}}, spec}})
  const pod = await setStatus(ns, p.name, p.phase, p.ready, p.ips)
  if (p.terminating) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
  return pod
}

function setStatus(ns: string, name: string, phase: PodSpec['phase'], ready: boolean, ips?: string[]): Promise<Json> {
  const at = new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const cond = (type: string, ok: boolean) => ({type, status: ok ? 'True' : 'False', lastTransitionTime: at})
  return apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${name}/status`, {
    contentType: 'application/merge-patch+json',
    body: {
      status: {
        phase,
        conditions: [cond('PodScheduled', true), cond('Initialized', true), cond('ContainersReady', ready), cond('Ready', ready)],
        ...(ips && ips.length > 0 ? {podIP: ips[0], podIPs: ips.map((ip) => ({ip}))} : {}),
      },
    },
  })
}

async function createService(ns: string, s: {name: string; spec: Json; labels: Record<string, string>}, group: string): Promise<Json> {
  const spec = Object.fromEntries(Object.entries(s.spec).filter(([, v]) => v !== null))
  return apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: s.name, labels: {...s.labels, 'kctl-rand': group}}, spec}})
}

function endpointsBody(name: string, e: Json): Json {
  return {apiVersion: 'v1', kind: 'Endpoints', metadata: {name, labels: e.labels}, subsets: e.subsets}
}

async function build(ns: string, w: World, group: string): Promise<void> {
  const uids = new Map<string, string>()
  for (const s of w.services) {
    const svc = await createService(ns, s, group)
    uids.set(s.name, svc.metadata.uid)
    if (s.endpoints) await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: endpointsBody(s.name, s.endpoints)})
  }
  for (const name of w.orphans) await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: endpointsBody(name, {subsets: [{addresses: [{ip: '192.0.2.99'}], ports: [{port: 1, protocol: 'TCP'}]}]})})
  const made = new Map<string, Json>()
  for (let i = 0; i < w.pods.length; i += 4) {
    const got = await Promise.all(w.pods.slice(i, i + 4).map((p) => createPod(ns, p)))
    for (const pod of got) made.set(pod.metadata.name, pod)
  }
  for (const s of w.slices) {
    const svc = w.services.find((x) => x.name === s.service)!
    const endpoints = s.endpoints.flatMap((e) => {
      const spec = w.pods.find((p) => p.name === e.pod)
      const pod = made.get(e.pod)
      const ip = spec ? spec.ips.find((x) => x.includes(':') === (e.family === 'IPv6')) : e.family === 'IPv6' ? 'fd00::dead' : v4(w.index, 240)
      if (!ip) return []
      const node = spec?.node ? nodeName(spec.node) : undefined
      const ready = e.ready ?? (spec ? spec.ready && !spec.terminating : true)
      const ref = {kind: 'Pod', namespace: ns, name: spec ? e.pod : `${s.service}-ghost`, uid: pod?.metadata.uid ?? '00000000-0000-4000-8000-000000000001'}
      const zone = spec?.node && !e.zoneless ? ZONES[spec.node] : undefined
      return [
        {
          addresses: [ip],
          conditions: {ready, serving: spec ? spec.ready : true, terminating: spec?.terminating ?? false},
          ...(node ? {nodeName: node} : {}),
          ...(zone ? {zone} : {}),
          ...(svc.spec.clusterIP === 'None' && spec?.hostname && spec.subdomain === svc.name ? {hostname: spec.hostname} : {}),
          targetRef: ref,
          ...(e.hints ? {hints: {forZones: [{name: 'zone-1'}]}} : {}),
        },
      ]
    })
    const manager = s.by === 'es' ? ES : s.by === 'mirror' ? MIRROR : 'someone-else'
    const owner = s.owner === 'mine' ? uids.get(s.service) : s.owner === 'earlier' ? '00000000-0000-4000-8000-0000000000ff' : undefined
    const labels: Json = {...(s.by === 'mirror' ? {} : svc.labels), ...s.labels, [SERVICE_NAME]: s.service, [MANAGED_BY]: manager}
    if (s.by === 'es' && svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = ''
    await apiOk('POST', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
      body: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {name: s.name, labels, ...(owner ? {ownerReferences: [{apiVersion: 'v1', kind: s.by === 'mirror' ? 'Endpoints' : 'Service', name: s.service, uid: owner, controller: true, blockOwnerDeletion: true}]} : {})},
        addressType: s.addressType,
        ports: s.ports,
        endpoints,
      },
    })
  }
}

async function applyChanges(ns: string, w: World, group: string): Promise<void> {
  for (const c of w.changes) {
    const slicesOf = async (service: string) =>
      (await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=${encodeURIComponent(`${SERVICE_NAME}=${service},${MANAGED_BY}=${ES}`)}`)).items.sort((a: Json, b: Json) =>
        a.metadata.name < b.metadata.name ? -1 : 1,
      )
    if (c.op === 'deletePod') await api('DELETE', `/api/v1/namespaces/${ns}/pods/${c.pod}?gracePeriodSeconds=0`)
    else if (c.op === 'terminate') await api('DELETE', `/api/v1/namespaces/${ns}/pods/${c.pod}`)
    else if (c.op === 'ready') {
      const p = w.pods.find((x) => x.name === c.pod)!
      if (p.phase === 'Running' || p.phase === 'Pending') await setStatus(ns, c.pod, p.phase, c.ready)
    } else if (c.op === 'addPod') await createPod(ns, c.pod).catch(() => {})
    else if (c.op === 'patchService') await apiOk('PATCH', `/api/v1/namespaces/${ns}/services/${c.service}`, {contentType: 'application/merge-patch+json', body: {spec: c.spec}})
    else if (c.op === 'recreateService') {
      const old = w.services.find((x) => x.name === c.service)!
      await apiOk('DELETE', `/api/v1/namespaces/${ns}/services/${c.service}`)
      await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/services/${c.service}`)).status === 404, {what: 'the Service gone'})
      await createService(ns, {name: c.service, spec: c.spec, labels: old.labels}, group)
    } else if (c.op === 'deleteSlice' || c.op === 'trimSlice') {
      const all = await slicesOf(c.service)
      if (all.length === 0) continue
      const s = all[c.k % all.length]
      if (c.op === 'deleteSlice') await api('DELETE', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices/${s.metadata.name}`)
      else await apiOk('PUT', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices/${s.metadata.name}`, {body: {...s, endpoints: (s.endpoints ?? []).slice(1)}})
    } else if (c.op === 'endpoints') {
      const cur = await api('GET', `/api/v1/namespaces/${ns}/endpoints/${c.service}`)
      if (cur.status === 200) await apiOk('PUT', `/api/v1/namespaces/${ns}/endpoints/${c.service}`, {body: {...endpointsBody(c.service, c.endpoints), metadata: {...JSON.parse(cur.body).metadata, labels: c.endpoints.labels}}})
      else await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: endpointsBody(c.service, c.endpoints)})
    }
  }
}

// ---- Judging ----

const portsKey = (ports: Json[] | null): string[] => (ports ?? []).map((x) => `${x.name ?? ''}:${x.port}/${x.protocol ?? 'TCP'}:${x.appProtocol ?? ''}`).sort()
const hintsKey = (h: Json): Json => (h ? {forZones: (h.forZones ?? []).map((z: Json) => z.name).sort(), forNodes: (h.forNodes ?? []).map((n: Json) => n.name).sort()} : null)
const endpointKey = (x: Json): string =>
  JSON.stringify([x.targetRef?.name ?? '', x.addresses, x.conditions?.ready ?? null, x.conditions?.serving ?? null, x.conditions?.terminating ?? null, x.hostname ?? null, x.nodeName ?? null, x.zone ?? null, hintsKey(x.hints)])
const contentKey = (s: Json): string => JSON.stringify([s.addressType, portsKey(s.ports), (s.endpoints ?? []).map(endpointKey).sort()])
const shapeKey = (s: Json, size: number): string => JSON.stringify([s.addressType, portsKey(s.ports), size])
const labelsOf = (s: Json) => JSON.stringify(Object.entries(s.metadata?.labels ?? {}).sort())
const planned = (a: Json) => JSON.stringify(Object.entries(a.labels ?? {}).sort())

/** Written slices' contents against the planned ones: certain ones exactly, random ones by shape, the pool's endpoints all placed. */
function judgeContents(want: Json[], got: Json[], pools: Json[]): string[] {
  const problems: string[] = []
  const left = [...got]
  for (const a of want.filter((x) => !x.random)) {
    const i = left.findIndex((s) => contentKey(s) === contentKey(a))
    if (i < 0) problems.push(`no slice written as planned: ${contentKey(a)}`)
    else left.splice(i, 1)
  }
  const random = want.filter((x) => x.random)
  const shapes = (xs: string[]) => JSON.stringify(xs.sort())
  if (shapes(left.map((s) => shapeKey(s, (s.endpoints ?? []).length))) !== shapes(random.map((a) => shapeKey(a, a.size))))
    problems.push(`slices written beyond the certain ones: ${left.map(contentKey).join(' ')}; planned shapes ${random.map((a) => shapeKey(a, a.size)).join(' ')}`)
  const named = random.flatMap((a) => a.endpoints.map(endpointKey))
  const placed = left.flatMap((s) => (s.endpoints ?? []).map(endpointKey))
  for (const k of named) if (!placed.includes(k)) problems.push(`planned endpoint not written: ${k}`)
  const pooled = [...new Set(random.map((a) => a.pool))].flatMap((id) => (pools.find((p) => p.id === id)?.endpoints ?? []).map(endpointKey))
  const unnamed = placed.filter((k) => !named.includes(k))
  if (random.length > 0 && shapes(unnamed) !== shapes(pooled)) problems.push(`pooled endpoints ${unnamed.join(' ')}; planned ${pooled.join(' ')}`)
  return problems
}

/** One controller's slices of one Service: before, after, and that controller's actions for them. */
function judgeSlices(before: Json[], after: Json[], acts: Json[], pools: Json[], names: Set<string> = new Set()): string[] {
  const problems: string[] = []
  const now = new Map(after.map((s) => [s.metadata.name, s]))
  const updates = new Map(acts.filter((a) => a.type === 'updateEndpointSlice').map((a) => [a.name, a]))
  const deletes = new Set(acts.filter((a) => a.type === 'deleteEndpointSlice').map((a) => a.name))
  const creates = acts.filter((a) => a.type === 'createEndpointSlice' && !a.skipped)
  const wrote: Json[] = []
  const want: Json[] = []
  for (const s of before) {
    const n = s.metadata.name
    if (names.has(n)) continue
    const got = now.get(n)
    const same = got?.metadata.uid === s.metadata.uid
    if (deletes.has(n)) {
      if (same) problems.push(`slice ${n}: planned deleted, still there`)
    } else if (updates.has(n)) {
      const a = updates.get(n)
      if (!same) problems.push(`slice ${n}: planned updated, gone`)
      else {
        wrote.push(got)
        want.push(a)
        if (labelsOf(got) !== planned(a)) problems.push(`slice ${n}: labels ${labelsOf(got)}, planned ${planned(a)}`)
        if (got.metadata.annotations?.[TRIGGER_TIME] !== a.triggerTime) problems.push(`slice ${n}: trigger time ${got.metadata.annotations?.[TRIGGER_TIME]}, planned ${a.triggerTime}`)
      }
    } else if (!same) problems.push(`slice ${n}: deleted, planned untouched`)
    else if (got.metadata.resourceVersion !== s.metadata.resourceVersion) problems.push(`slice ${n}: written, planned untouched (${contentKey(got)})`)
  }
  const created = after.filter((s) => !before.some((b) => b.metadata.uid === s.metadata.uid))
  for (const s of created) {
    const a = creates[0]
    if (a && labelsOf(s) !== planned(a)) problems.push(`created slice ${s.metadata.name}: labels ${labelsOf(s)}, planned ${planned(a)}`)
    if (a && s.metadata.annotations?.[TRIGGER_TIME] !== a.triggerTime) problems.push(`created slice ${s.metadata.name}: trigger time ${s.metadata.annotations?.[TRIGGER_TIME]}, planned ${a.triggerTime}`)
  }
  if (created.length !== creates.length) problems.push(`${created.length} slice(s) created, planned ${creates.length}`)
  problems.push(...judgeContents([...want, ...creates], [...wrote, ...created], pools))
  return problems
}

/** Every endpoint once, as a set per address type: what any outcome of a named choice keeps. */
function endpointSet(slices: Json[]): string {
  return JSON.stringify(slices.flatMap((s) => (s.endpoints ?? []).map((e: Json) => `${s.addressType} ${JSON.stringify(portsKey(s.ports))} ${endpointKey(e)}`)).sort())
}

/**
 * An outcome the plan's choices name, other than the one it shows: slices outside the choices as
 * planned; the names taken among those the choice names; every endpoint held once, as planned.
 */
function judgeChoice(before: Json[], after: Json[], acts: Json[], pools: Json[], choices: Json[]): string[] {
  const chosen = new Set(choices.flatMap((c) => (c.kind === 'recycledName' ? [...c.certain, ...c.groups.flat()] : c.slices)))
  const mirrored = choices.every((c) => c.kind === 'mirroredName')
  const problems: string[] = []
  // Slices the choices do not name: deleted, updated or left as planned.
  const outside = (xs: Json[]) => xs.filter((s) => !chosen.has(s.metadata.name))
  const beforeOut = outside(before)
  for (const s of beforeOut) {
    const got = after.find((x) => x.metadata.uid === s.metadata.uid)
    const a = acts.find((x) => x.name === s.metadata.name)
    if (a?.type === 'deleteEndpointSlice' && got) problems.push(`slice ${s.metadata.name}: planned deleted, still there`)
    if (a?.type === 'updateEndpointSlice' && !a.random && (!got || contentKey(got) !== contentKey(a))) problems.push(`slice ${s.metadata.name}: not written as planned`)
    if (!a && got?.metadata.resourceVersion !== s.metadata.resourceVersion) problems.push(`slice ${s.metadata.name}: written, planned untouched`)
  }
  for (const c of choices) {
    if (c.kind === 'recycledName') {
      const taken = before.filter((s) => [...c.certain, ...c.groups.flat()].includes(s.metadata.name) && after.some((x) => x.metadata.uid === s.metadata.uid)).map((s) => s.metadata.name)
      const partial = c.groups.filter((g: string[]) => g.some((n) => taken.includes(n)) && !g.every((n) => taken.includes(n)))
      if (!c.certain.every((n: string) => taken.includes(n)) || taken.length !== c.certain.length + c.take || partial.length > 1) problems.push(`names kept ${taken.join(', ')}: not an outcome of ${JSON.stringify(c)}`)
    } else if (c.kind === 'fillOrder') {
      const kept = acts.filter((a) => a.type !== 'deleteEndpointSlice' && !a.skipped).length + before.filter((b) => !acts.some((a) => a.name === b.metadata.name)).length
      if (after.length !== kept) problems.push(`${after.length} slices after the sync, planned ${kept}`)
    } else if (c.kind === 'mirroredName') {
      const kept = before.filter((s) => c.slices.includes(s.metadata.name) && after.some((x) => x.metadata.uid === s.metadata.uid)).map((s) => s.metadata.name)
      if (kept.length !== c.keep) problems.push(`names kept ${kept.join(', ')}: not an outcome of ${JSON.stringify(c)}`)
    } else {
      const holders = after.filter((s) => s.addressType === c.addressType && (s.endpoints ?? []).some((e: Json) => e.targetRef?.name === c.pod))
      if (holders.length !== 1 || !c.slices.includes(holders[0].metadata.name)) problems.push(`pod ${c.pod} held by ${holders.map((s) => s.metadata.name).join(', ') || 'no slice'}: not an outcome of ${JSON.stringify(c)}`)
    }
  }
  // The endpoints held, each once, as the plan's slices hold them after the sync.
  const kept = before.filter((s) => !acts.some((a) => a.name === s.metadata.name))
  const wantSlices = [...kept, ...acts.filter((a) => a.type !== 'deleteEndpointSlice' && !a.skipped)]
  const wantSet = JSON.parse(endpointSet(wantSlices)) as string[]
  for (const a of wantSlices.filter((x) => x.random)) {
    const pool = pools.find((p) => p.id === a.pool)
    for (const e of pool?.endpoints ?? []) {
      const k = `${a.addressType} ${JSON.stringify(portsKey(a.ports))} ${endpointKey(e)}`
      if (!wantSet.includes(k)) wantSet.push(k)
    }
  }
  if (mirrored && JSON.stringify(after.map(contentKey).sort()) !== JSON.stringify(wantSlices.map(contentKey).sort())) problems.push(`mirrored slices ${after.map(contentKey).join(' ')}; planned ${wantSlices.map(contentKey).join(' ')}`)
  if (endpointSet(after) !== JSON.stringify(wantSet.sort())) problems.push(`endpoints held ${endpointSet(after)}; planned ${JSON.stringify(wantSet)}`)
  return problems
}

const subsetKeys = (subsets: Json[] | undefined): string =>
  JSON.stringify(
    (subsets ?? [])
      .map((s: Json) =>
        JSON.stringify([
          (s.ports ?? []).map((x: Json) => `${x.name ?? ''}:${x.port}/${x.protocol}`).sort(),
          (s.addresses ?? []).map((a: Json) => `${a.ip} ${a.targetRef?.name ?? ''} ${a.hostname ?? ''} ${a.nodeName ?? ''}`).sort(),
          (s.notReadyAddresses ?? []).map((a: Json) => `${a.ip} ${a.targetRef?.name ?? ''} ${a.hostname ?? ''} ${a.nodeName ?? ''}`).sort(),
        ]),
      )
      .sort(),
  )

interface Snap {
  slices: Json[]
  endpoints: Map<string, Json>
}

async function snapshot(ns: string): Promise<Snap> {
  const [slices, endpoints] = await Promise.all([
    apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`),
    apiOk('GET', `/api/v1/namespaces/${ns}/endpoints`),
  ])
  return {slices: slices.items, endpoints: new Map(endpoints.items.map((e: Json) => [e.metadata.name, e]))}
}

/** Every disagreement of one Service's plan with what the controllers did. */
function judgeService(cp: Json, before: Snap, after: Snap): string[] {
  const name = cp.name
  const problems: string[] = []
  const of = (s: Snap, by?: string) => s.slices.filter((x) => x.metadata.labels?.[SERVICE_NAME] === name && (by === undefined ? ![ES, MIRROR].includes(x.metadata.labels?.[MANAGED_BY]) : x.metadata.labels?.[MANAGED_BY] === by))
  const slicesActs = cp.actions.filter((a: Json) => a.type.endsWith('EndpointSlice'))
  const pools = cp.service.pools ?? []
  const choices = cp.service.choices ?? []
  for (const by of [ES, MIRROR]) {
    const acts = slicesActs.filter((a: Json) => (a.controller === 'endpointslicemirroring') === (by === MIRROR))
    const exact = judgeSlices(of(before, by), of(after, by), acts, pools)
    if (exact.length === 0) continue
    const mine = choices.filter((c: Json) => (c.kind === 'mirroredName') === (by === MIRROR))
    if (mine.length > 0) {
      const other = judgeChoice(of(before, by), of(after, by), acts, pools, mine)
      if (other.length === 0) continue
      problems.push(...other.map((p) => `${by} (as one of the choices): ${p}`))
    }
    problems.push(...exact.map((p) => `${by}: ${p}`))
  }
  for (const s of of(before)) {
    const got = of(after).find((x) => x.metadata.uid === s.metadata.uid)
    if (got?.metadata.resourceVersion !== s.metadata.resourceVersion) problems.push(`foreign slice ${s.metadata.name} touched`)
  }
  const e0 = before.endpoints.get(name)
  const e1 = after.endpoints.get(name)
  const write = cp.actions.find((a: Json) => a.type === 'writeEndpoints')
  const del = cp.actions.find((a: Json) => a.type === 'deleteEndpoints')
  if (write) {
    if (!e1) problems.push('Endpoints: planned written, absent')
    else {
      if (subsetKeys(e1.subsets) !== subsetKeys(write.subsets)) problems.push(`Endpoints: subsets ${subsetKeys(e1.subsets)}, planned ${subsetKeys(write.subsets)}`)
      if (labelsOf(e1) !== planned(write)) problems.push(`Endpoints: labels ${labelsOf(e1)}, planned ${planned(write)}`)
      if (e1.metadata.annotations?.[TRIGGER_TIME] !== write.triggerTime) problems.push(`Endpoints: trigger time ${e1.metadata.annotations?.[TRIGGER_TIME]}, planned ${write.triggerTime}`)
    }
  } else if (del) {
    if (e1) problems.push('Endpoints: planned deleted, still there')
  } else if (e0?.metadata.resourceVersion !== e1?.metadata.resourceVersion) problems.push(`Endpoints: ${e1 ? `written (${subsetKeys(e1.subsets)})` : 'deleted'}, planned untouched`)
  return problems
}

// ---- The run ----

const tally = {worlds: 0, agree: 0, services: 0, settled: 0, creates: 0, updates: 0, deletes: 0, endpoints: 0, mirrored: 0, choices: 0, disagreements: [] as string[]}

/** Slices in a line: name, manager, family, ports and the pods (or addresses) they hold. */
const brief = (slices: Json[]): string =>
  slices
    .map((x) => `${x.metadata.name}(${x.metadata.labels?.[MANAGED_BY]?.split('-')[0] ?? '?'} ${x.addressType} ${portsKey(x.ports).join(',')}: ${(x.endpoints ?? []).map((e: Json) => `${e.targetRef?.name ?? e.addresses[0]}${e.conditions?.ready ? '' : '~'}`).join(' ')})`)
    .join(' ')

const replay = (w: World) => `KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_FIRST=${w.index} KCTL_ORACLE_COUNT=${w.index + 1} npx vitest run --project e2e test/e2e/services-random.e2e.test.ts`

/**
 * A namespace whose Services each of the three controllers writes for once it runs: a selected
 * pod's slice and Endpoints object, and a mirrored slice. Made before each start of the controllers.
 */
async function sentinel(): Promise<string> {
  const ns = await newNamespace('svcrand-sentinel')
  await createService(ns, {name: 'probe', spec: {selector: {app: 'probe'}, ports: [{port: 80, protocol: 'TCP'}]}, labels: {}}, 'sentinel')
  await createService(ns, {name: 'mirror', spec: {ports: [{port: 80, protocol: 'TCP'}]}, labels: {}}, 'sentinel')
  await apiOk('POST', `/api/v1/namespaces/${ns}/endpoints`, {body: endpointsBody('mirror', {subsets: [{addresses: [{ip: '192.0.2.1'}], ports: [{port: 80, protocol: 'TCP'}]}]})})
  await createPod(ns, {name: 'probe', app: 'probe', node: 'n1', phase: 'Running', ready: true, ips: ['10.63.0.1'], terminating: false, ports: []})
  return ns
}

/** Until the three controllers have written the sentinel's objects, and then nothing in `namespaces` for 5 s (a retry after a stale cache comes 1, 2, 4 s later). */
async function quiet(namespaces: string[], probe: string): Promise<void> {
  await waitUntil(
    async () => {
      const [slices, ep] = await Promise.all([apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${probe}/endpointslices`), api('GET', `/api/v1/namespaces/${probe}/endpoints/probe`)])
      const by = (name: string, manager: string) => slices.items.some((x: Json) => x.metadata.labels?.[SERVICE_NAME] === name && x.metadata.labels?.[MANAGED_BY] === manager)
      return by('probe', ES) && by('mirror', MIRROR) && ep.status === 200
    },
    {what: 'the three controllers to have written for the sentinel Services', timeoutMs: 120_000},
  )
  await waitUntilQuiet(
    async () => {
      const [s, e] = await Promise.all([apiOk('GET', '/apis/discovery.k8s.io/v1/endpointslices'), apiOk('GET', '/api/v1/endpoints')])
      const mine = new Set(namespaces)
      return [...s.items, ...e.items].filter((x: Json) => mine.has(x.metadata.namespace)).map((x: Json) => `${x.metadata.namespace}/${x.metadata.name}@${x.metadata.resourceVersion}`).sort().join(',')
    },
    {quietMs: 5000, timeoutMs: 120_000, what: 'the endpoint controllers to be quiet'},
  )
}

const worlds: World[] = []
for (let i = FIRST; i < COUNT; i++) worlds.push(generate(prng(SEED * 7919 + i), i))
const batches: World[][] = []
for (const max of MAXES) {
  const ofMax = worlds.filter((w) => w.max === max)
  for (let i = 0; i < ofMax.length; i += BATCH) batches.push(ofMax.slice(i, i + BATCH))
}

describe(`random Service worlds (seed ${SEED}, ${COUNT - FIRST} worlds) against the endpoint controllers`, () => {
  beforeAll(async () => {
    await controllerManager.stop()
    const prefix = `${RUN}-${Math.random().toString(36).slice(2, 6)}`
    nodeName = (n) => `${prefix}-${n}`
    for (const n of ['n1', 'n2', 'n3'] as const) await makeNode(nodeName(n), {labels: ZONES[n] ? {'topology.kubernetes.io/zone': ZONES[n]!} : {}})
  })

  afterAll(async () => {
    await controllerManager.stop()
    for (const n of ['n1', 'n2', 'n3'] as const) await api('DELETE', `/api/v1/nodes/${nodeName(n)}`)
  })

  for (const batch of batches) {
    const max = batch[0].max
    it(`--max-endpoints-per-slice=${max}, worlds ${batch.map((w) => w.index).join(',')}: every Service's slices and Endpoints are its plan's`, async () => {
      await controllerManager.stop()
      const found: string[] = []
      const probes: string[] = []
      const group = `${RUN}-${batch[0].index}`
      const ns = new Map<World, string>()
      await inParallel(batch, 8, async (w) => void ns.set(w, await newNamespace(`svcrand-${w.index}`)))
      const args = [`--max-endpoints-per-slice=${max}`]
      const settled = batch.filter((w) => w.settle)
      await inParallel(settled, 6, (w) => build(ns.get(w)!, w, group))
      try {
        if (settled.length > 0) {
          const probe = await sentinel()
          probes.push(probe)
          await controllerManager.start(CONTROLLERS, args)
          await quiet(settled.map((w) => ns.get(w)!), probe)
          await controllerManager.stop()
        }
        await inParallel(settled, 6, (w) => applyChanges(ns.get(w)!, w, group))
        await inParallel(batch.filter((w) => !w.settle), 6, (w) => build(ns.get(w)!, w, group))
        const before = new Map<World, Snap>()
        await inParallel(batch, 8, async (w) => void before.set(w, await snapshot(ns.get(w)!)))
        const plan = await planJson(['-A', '-l', `kctl-rand=${group}`, '--now', new Date().toISOString(), '--max-endpoints-per-slice', String(max)])
        const probe = await sentinel()
        probes.push(probe)
        await controllerManager.start(CONTROLLERS, args)
        await quiet([...ns.values()], probe)
        await controllerManager.stop()
        for (const w of batch) {
          const n = ns.get(w)!
          const after = await snapshot(n)
          const plans = plan.controllers.filter((c: Json) => c.kind === 'Service' && c.namespace === n)
          const problems: string[] = []
          for (const cp of plans) {
            tally.services++
            for (const a of cp.actions) {
              if (a.type === 'createEndpointSlice') tally.creates++
              if (a.type === 'updateEndpointSlice') tally.updates++
              if (a.type === 'deleteEndpointSlice') tally.deletes++
              if (a.type === 'writeEndpoints') tally.endpoints++
              if (a.controller === 'endpointslicemirroring') tally.mirrored++
            }
            tally.choices += (cp.service.choices ?? []).length
            problems.push(...judgeService(cp, before.get(w)!, after).map((p) => `${cp.name}: ${p}`))
          }
          const expected = w.services.length + w.orphans.filter((o) => before.get(w)!.endpoints.has(o)).length
          if (plans.length !== expected) problems.push(`${plans.length} Service plans, ${expected} Services and orphan Endpoints objects`)
          tally.worlds++
          if (w.settle) tally.settled++
          if (problems.length === 0) tally.agree++
          else
            found.push(
              `world ${w.index} (replay: ${replay(w)})\n  world: ${JSON.stringify(w)}\n  ${problems.join('\n  ')}\n  slices before: ${brief(before.get(w)!.slices)}\n  slices after: ${brief(after.slices)}\n  plans: ${JSON.stringify(plans.map((c: Json) => ({name: c.name, actions: c.actions, choices: c.service.choices, pools: c.service.pools, warnings: c.warnings})))}`,
            )
        }
      } finally {
        await controllerManager.stop()
        await inParallel([...ns.values(), ...probes], 6, async (n) => {
          for (const path of [`/api/v1/namespaces/${n}/services`, `/api/v1/namespaces/${n}/endpoints`, `/apis/discovery.k8s.io/v1/namespaces/${n}/endpointslices`]) {
            const list = await apiOk('GET', path)
            for (const x of list.items) await api('DELETE', `${path}/${x.metadata.name}`)
          }
          await api('DELETE', `/api/v1/namespaces/${n}/pods`, {body: {kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0}})
          await api('DELETE', `/api/v1/namespaces/${n}`)
        })
      }
      process.stderr.write(
        `[services-random] seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.settled} settled first; ${tally.services} Services: ${tally.creates} slice creates, ${tally.updates} updates, ${tally.deletes} deletes, ${tally.mirrored} mirrored writes, ${tally.endpoints} Endpoints writes, ${tally.choices} choices)\n`,
      )
      tally.disagreements.push(...found)
      expect(found, found.join('\n')).toEqual([])
    }, 900_000)
  }
})
