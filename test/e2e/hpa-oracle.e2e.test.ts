// The HPA oracle: kctl's plan of a horizontal pod autoscaler's first sync against the real
// controller's. Each world (one namespace) is built on the real control plane while no controller
// runs — a scale target (Deployment, StatefulSet, ReplicaSet, ReplicationController, or a custom
// resource whose CRD serves /scale) with status.replicas set, its pods with their status set as a kubelet would (Running and Ready or not,
// startTime, Pending, Failed, deleted), the metrics the fake metrics APIs answer
// (controlplane/fake-metrics.ts), and an HPA. `kctl plan -A` reads it all live, metrics included;
// then kube-controller-manager runs only `horizontalpodautoscaling` and its first sync of each HPA
// must be the plan's: the scale it writes (spec.replicas of the target) and the status it writes
// (currentReplicas, desiredReplicas, currentMetrics, each condition's status, reason and message,
// lastScaleTime set or not).
//
// Hand-made scenarios first (every metric type, tolerance, missing and unready pods, the bounds,
// each behavior field, the legacy scale-up limit, a missing target, missing and failing metrics),
// then seeded random worlds:
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/hpa-oracle.e2e.test.ts -t random
//
// The controller runs with its defaults (tolerance 0.1, 5 min downscale stabilization, 5 min CPU
// initialization period, 30 s initial readiness delay), as kctl plans, but a 20 s sync period; it is
// stopped as soon as every HPA has been synced once, before the second sync (a world synced twice
// fails its batch as a harness problem: the metrics requests show it). Excluded by
// construction, because the outcome depends on when the controller syncs: pod start times within
// a few minutes of the CPU initialization period's edge; and after the sync, a random world with a
// pod whose initialization period ended between the plan's clock and the controller's (a batch
// takes minutes on a loaded machine) is left out and counted as such. Two HPAs on one target: which one syncs first (and so sees no ambiguity) is
// the controller's queue order; the oracle checks that one of them is planned and the other reports
// AmbiguousSelector. Events are not compared (client-go aggregates them).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import type {FakeCustomMetric, FakeExternalMetric, FakeMetrics, FakeMetricsState, FakePodMetrics} from '../../controlplane/fake-metrics.js'
import {readFixtures} from '../../src/sources/fixtures.js'
import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, deleteNamespace, fakeMetrics, newNamespace, waitUntil} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Json = Record<string, any>
type Rnd = () => number

/** Worlds per run of the controller: BATCH; FIRST replays from a world on (KCTL_ORACLE_FIRST=600 KCTL_ORACLE_COUNT=100). */
const {seed: SEED, count: COUNT, first: FIRST, batch: BATCH} = oracleSettings({seed: 20261127, count: 40, batch: 80})
// Long enough that a loaded machine syncs every HPA of a batch once before any is synced again.
const SYNC_PERIOD = 20
const FILE = 'test/e2e/hpa-oracle.e2e.test.ts'

/** `Worker`: a custom resource (CRD `workers.hpa-oracle.kctl.test`) whose scale subresource reads .spec.size, .status.size and .status.selector. */
type Kind = 'Deployment' | 'StatefulSet' | 'ReplicaSet' | 'ReplicationController' | 'Worker'
const CR_GROUP = 'hpa-oracle.kctl.test'

interface PodDef {
  phase?: 'Running' | 'Pending' | 'Failed' | 'Succeeded'
  /** The Ready condition's status (default: True when Running). */
  ready?: boolean
  /** Seconds before the build (default 3600). */
  startedAgo?: number
  /** When the Ready condition last changed, seconds before the build (default startedAgo − 20). */
  readyAgo?: number
  /** Deleted, held by a finalizer (deletionTimestamp set). */
  deleted?: boolean
  /** Container usage samples: main's, and the sidecar's when the world has one; null: no sample. */
  usage?: {cpu: string; memory: string; sidecarCpu?: string} | null
  /** Pods metrics' values by metric name (absent: no value). */
  custom?: Record<string, string>
}

interface World {
  name: string
  kind: Kind
  replicas: number
  /** scale.status.replicas (default: replicas). */
  statusReplicas?: number
  /** No scale target is created. */
  noTarget?: boolean
  requests?: {cpu?: string; memory?: string}
  /** A restartPolicy: Always init container `side` requesting 200m CPU. */
  sidecar?: boolean
  /** Pod-level requests (spec.resources). */
  podRequests?: {cpu: string; memory?: string}
  /** A RuntimeClass with a 250m CPU pod overhead. */
  overhead?: boolean
  pods: PodDef[]
  hpa: Json
  /** autoscaling/v1 (the hpa above is then its spec). */
  v1?: boolean
  /** Object metrics' values and other custom values (Pods values come from the pods). */
  custom?: FakeCustomMetric[]
  external?: FakeExternalMetric[]
  fail?: FakeMetricsState['fail']
  /** A second HPA on the same target. */
  second?: boolean
  /** The HPA's annotations. */
  annotations?: Record<string, string>
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))

const cpu = (averageUtilization: number): Json => ({type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization}}})
const ready = (n: number, usage: PodDef['usage'], more: Partial<PodDef> = {}): PodDef[] => Array.from({length: n}, () => ({usage, ...more}))
const use = (c: string, m = '100Mi'): PodDef['usage'] => ({cpu: c, memory: m})

// ---- Building a world ----

const apiVersionOf = (k: Kind) => (k === 'ReplicationController' ? 'v1' : k === 'Worker' ? `${CR_GROUP}/v1` : 'apps/v1')
const collectionOf = (k: Kind, ns: string) =>
  k === 'ReplicationController' ? `/api/v1/namespaces/${ns}/replicationcontrollers` : `/apis/${apiVersionOf(k)}/namespaces/${ns}/${k.toLowerCase()}s`

async function build(ns: string, w: World, run: string, fake: FakeMetrics, t0: number): Promise<void> {
  const labels = {app: 'w', 'hpa-oracle': run}
  const requests = {cpu: '500m', memory: '256Mi', ...w.requests}
  const podSpec: Json = {
    containers: [{name: 'main', image: 'registry.invalid/app:1', resources: {requests}}],
    ...(w.sidecar ? {initContainers: [{name: 'side', image: 'registry.invalid/side:1', restartPolicy: 'Always', resources: {requests: {cpu: '200m', memory: '64Mi'}}}]} : {}),
    ...(w.podRequests ? {resources: {requests: w.podRequests}} : {}),
    ...(w.overhead ? {runtimeClassName: `oracle-overhead`} : {}),
  }
  if (!w.noTarget && w.kind === 'Worker') {
    await apiOk('POST', collectionOf(w.kind, ns), {body: {apiVersion: apiVersionOf(w.kind), kind: w.kind, metadata: {name: 'w', labels}, spec: {size: w.replicas}}})
    await apiOk('PATCH', `${collectionOf(w.kind, ns)}/w/status`, {contentType: 'application/merge-patch+json', body: {status: {size: w.statusReplicas ?? w.replicas, selector: 'app=w'}}})
  } else if (!w.noTarget) {
    const body: Json =
      w.kind === 'ReplicationController'
        ? {apiVersion: 'v1', kind: w.kind, metadata: {name: 'w', labels}, spec: {replicas: w.replicas, selector: {app: 'w'}, template: {metadata: {labels}, spec: podSpec}}}
        : {
            apiVersion: 'apps/v1',
            kind: w.kind,
            metadata: {name: 'w', labels},
            spec: {replicas: w.replicas, selector: {matchLabels: {app: 'w'}}, template: {metadata: {labels}, spec: podSpec}, ...(w.kind === 'StatefulSet' ? {serviceName: 'w'} : {})},
          }
    await apiOk('POST', collectionOf(w.kind, ns), {body})
    await apiOk('PATCH', `${collectionOf(w.kind, ns)}/w/status`, {
      contentType: 'application/merge-patch+json',
      body: {status: {replicas: w.statusReplicas ?? w.replicas}},
    })
  }
  const sampleAt = iso(t0 - 5000)
  const pods: FakePodMetrics[] = []
  // `*ns*` names the world's own namespace (an Object metric of kind Namespace).
  const custom: FakeCustomMetric[] = (w.custom ?? []).map((c) => (c.name === '*ns*' ? {...c, name: ns} : c))
  await Promise.all(
    w.pods.map(async (p, i) => {
      const name = `w-${i}`
      await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
        body: {apiVersion: 'v1', kind: 'Pod', metadata: {name, labels, ...(p.deleted ? {finalizers: ['kctl.test/hold']} : {})}, spec: podSpec},
      })
      const phase = p.phase ?? 'Running'
      const isReady = p.ready ?? phase === 'Running'
      const startedAgo = p.startedAgo ?? 3600
      const readyAgo = p.readyAgo ?? startedAgo - 20
      await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${name}/status`, {
        contentType: 'application/merge-patch+json',
        body: {
          status: {
            phase,
            startTime: iso(t0 - startedAgo * 1000),
            conditions: [{type: 'Ready', status: isReady ? 'True' : 'False', lastTransitionTime: iso(t0 - readyAgo * 1000)}],
          },
        },
      })
      if (p.deleted) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${name}`)
      if (p.usage) {
        const containers = [{name: 'main', usage: {cpu: p.usage.cpu, memory: p.usage.memory}}]
        // `none`: the sample lacks the sidecar (a pod with a container unmeasured).
        if (w.sidecar && p.usage.sidecarCpu !== 'none') containers.push({name: 'side', usage: {cpu: p.usage.sidecarCpu ?? '100m', memory: '32Mi'}})
        pods.push({name, labels, timestamp: sampleAt, window: '30s', containers})
      }
      for (const [metric, value] of Object.entries(p.custom ?? {})) {
        custom.push({resource: 'pods', name, kind: 'Pod', apiVersion: 'v1', labels, metric, value, timestamp: sampleAt})
      }
    }),
  )
  pods.sort((a, b) => (a.name < b.name ? -1 : 1))
  await fake.set(ns, {pods, custom, external: w.external ?? [], fail: w.fail})
  const ref = {apiVersion: apiVersionOf(w.kind), kind: w.kind, name: 'w'}
  const hpaBody = (name: string): Json =>
    w.v1
      ? {apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: {name, labels, annotations: w.annotations}, spec: {scaleTargetRef: ref, ...w.hpa}}
      : {apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: {name, labels, annotations: w.annotations}, spec: {scaleTargetRef: ref, maxReplicas: 10, ...w.hpa}}
  await apiOk('POST', `/apis/${w.v1 ? 'autoscaling/v1' : 'autoscaling/v2'}/namespaces/${ns}/horizontalpodautoscalers`, {body: hpaBody('hpa')})
  if (w.second) await apiOk('POST', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {body: hpaBody('hpa-2')})
}

// ---- Comparing ----

const conditionsOf = (s: Json | undefined) => (s?.conditions ?? []).map((c: Json) => ({type: c.type, status: c.status, reason: c.reason, message: c.message}))
const statusView = (s: Json | undefined) => ({
  currentReplicas: s?.currentReplicas ?? 0,
  desiredReplicas: s?.desiredReplicas ?? 0,
  currentMetrics: s?.currentMetrics ?? null,
  conditions: conditionsOf(s),
  lastScaleTime: s?.lastScaleTime !== undefined,
})

function predicted(plan: Json, w: World): Json {
  const write = (plan.actions ?? []).find((a: Json) => a.type === 'scaleTarget')
  return {scale: w.noTarget ? null : write ? write.to : w.replicas, status: statusView(plan.status)}
}

async function observed(ns: string, w: World, name = 'hpa'): Promise<Json> {
  const hpa = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${name}`)
  const target = w.noTarget ? null : await apiOk('GET', `${collectionOf(w.kind, ns)}/w`)
  return {scale: target ? (w.kind === 'Worker' ? target.spec.size : target.spec.replicas) : null, status: statusView(hpa.status)}
}

/** Each distinct request as `path?k=v&…`, its query decoded and sorted. */
function requestSet(reqs: {path: string; query: string}[]): string[] {
  const one = (r: {path: string; query: string}) => {
    const q = [...new URLSearchParams(r.query)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`)
    return `${decodeURIComponent(r.path)}?${q.join('&')}`
  }
  return [...new Set(reqs.map(one))].sort()
}

interface Outcome {
  name: string
  ns: string
  agree: boolean
  /** Left out: a pod's CPU initialization period ends between the plan's clock and the controller's. */
  excluded?: boolean
  detail: string
}

/**
 * Builds the worlds (one namespace each), plans them with `kctl plan -A`, runs the controller until it has
 * synced every HPA once, and compares.
 */
async function runBatch(fake: FakeMetrics, worlds: World[], label: string, replay: (i: number) => string): Promise<Outcome[]> {
  await controllerManager.stop()
  const run = `${label}-${Date.now().toString(36)}`
  const t0 = Date.now()
  const namespaces: string[] = []
  for (let i = 0; i < worlds.length; i += 10) {
    await Promise.all(
      worlds.slice(i, i + 10).map(async (w, j) => {
        const ns = await newNamespace('hpa')
        namespaces[i + j] = ns
        await build(ns, w, run, fake, t0)
      }),
    )
  }
  const plan = await planJson(['-A', '-l', `hpa-oracle=${run}`])
  // What kctl asked the metrics APIs; the controller's requests are the ones after these.
  const askedByKctl = await Promise.all(namespaces.map((ns) => fake.requests(ns)))
  const plans = new Map<string, Json>()
  for (const c of plan.controllers) if (c.kind === 'HorizontalPodAutoscaler') plans.set(`${c.namespace}/${c.name}`, c)
  const hpaNames = (w: World) => (w.second ? ['hpa', 'hpa-2'] : ['hpa'])
  try {
    await controllerManager.start(['horizontalpodautoscaling'], [`--horizontal-pod-autoscaler-sync-period=${SYNC_PERIOD}s`, '--concurrent-horizontal-pod-autoscaler-syncs=10'])
    // Until every HPA has a status (its first sync always writes one), then stop before any second sync.
    await waitUntil(
      async () => {
        const all = await apiOk('GET', `/apis/autoscaling/v2/horizontalpodautoscalers?labelSelector=hpa-oracle%3D${run}`)
        return all.items.filter((h: Json) => (h.status?.conditions ?? []).length > 0).length === worlds.reduce((n, w) => n + hpaNames(w).length, 0)
      },
      {what: 'every HPA synced once', timeoutMs: 120_000, intervalMs: 250},
    )
  } finally {
    await controllerManager.stop()
  }
  const outcomes: Outcome[] = []
  for (const [i, w] of worlds.entries()) {
    const ns = namespaces[i]!
    const p = plans.get(`${ns}/hpa`)
    const want: Json = p ? predicted(p, w) : {missing: 'no plan'}
    const got = await observed(ns, w)
    // The same requests, path and decoded query (a second HPA's requests are the same ones).
    const kctlSeqs = new Set(askedByKctl[i]!.map((r) => r.seq))
    want.requests = requestSet(askedByKctl[i]!)
    const byController = (await fake.requests(ns)).filter((r) => !kctlSeqs.has(r.seq))
    got.requests = requestSet(byController)
    // One request per metric and sync: more means the controller synced again before it was stopped.
    const metricCount = (w.v1 ? 1 + (w.annotations ? 1 : 0) : (w.hpa.metrics ?? [1]).length) * (w.second ? 2 : 1)
    if (byController.length > metricCount) throw new Error(`${w.name} in ${ns}: the controller synced it more than once (${byController.length} metrics requests); raise SYNC_PERIOD`)
    // The plan's clock and the controller's differ by the time the batch takes: a pod whose CPU
    // initialization period (5 min) ends between the two is classed differently by each. Left out.
    const planNow = Date.parse(plan.now)
    const hpaNow = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/hpa`)
    const syncedAt = Math.max(...(hpaNow.status?.conditions ?? []).map((c: Json) => Date.parse(c.lastTransitionTime)), planNow) + 1000
    const edgeBetween = w.pods.some((pod) => {
      const edge = t0 - (pod.startedAgo ?? 3600) * 1000 + 300_000
      return edge > planNow - 1000 && edge <= syncedAt
    })
    if (edgeBetween) {
      outcomes.push({name: w.name, ns, agree: true, excluded: true, detail: ''})
      continue
    }
    let agree = canon(want) === canon(got)
    let detail = `  planned:    ${canon(want)}\n  controller: ${canon(got)}`
    if (w.second) {
      // One of the two syncs first and is planned; the other then finds them both (AmbiguousSelector).
      const got2 = await observed(ns, w, 'hpa-2')
      const p2 = plans.get(`${ns}/hpa-2`)
      const want2: Json = p2 ? predicted(p2, w) : {missing: 'no plan'}
      const ambiguous = (s: Json) => s.status.conditions.some((c: Json) => c.type === 'ScalingActive' && c.reason === 'AmbiguousSelector')
      want2.requests = want.requests
      got2.requests = got.requests
      agree = (canon(want) === canon(got) && ambiguous(got2)) || (canon(want2) === canon(got2) && ambiguous(got))
      detail += `\n  planned 2:    ${canon(want2)}\n  controller 2: ${canon(got2)}`
    }
    outcomes.push({name: w.name, ns, agree, detail: `${w.name} in ${ns} (${replay(i)})\n  world: ${JSON.stringify(w)}\n${detail}\n  plan: ${JSON.stringify(p?.hpa ?? null)}`})
  }
  await Promise.all(namespaces.map(async (ns) => {
    await fake.clear(ns)
    await api('DELETE', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`).catch(() => {})
    await deleteNamespace(ns).catch(() => {})
  }))
  return outcomes
}

// ---- The hand-made scenarios ----

const svc = (metric: string, value: string, extra: Partial<FakeCustomMetric> = {}): FakeCustomMetric => ({
  resource: 'services', name: 'front', kind: 'Service', apiVersion: 'v1', metric, value, timestamp: iso(Date.now() - 5000), ...extra,
})
const ext = (metricName: string, value: string, metricLabels: Record<string, string> = {}): FakeExternalMetric => ({metricName, metricLabels, value, timestamp: iso(Date.now() - 5000)})
const objectMetric = (name: string, target: Json, describedObject: Json = {apiVersion: 'v1', kind: 'Service', name: 'front'}, selector?: Json): Json => ({
  type: 'Object', object: {describedObject, metric: {name, ...(selector ? {selector} : {})}, target},
})
const externalMetric = (name: string, target: Json, selector?: Json): Json => ({type: 'External', external: {metric: {name, ...(selector ? {selector} : {})}, target}})
const podsMetric = (name: string, averageValue: string, selector?: Json): Json => ({type: 'Pods', pods: {metric: {name, ...(selector ? {selector} : {})}, target: {type: 'AverageValue', averageValue}}})
const downNow = {scaleDown: {stabilizationWindowSeconds: 0}}

const base = (name: string, over: Partial<World>): World => ({name, kind: 'Deployment', replicas: 3, pods: ready(3, use('250m')), hpa: {metrics: [cpu(50)]}, ...over})

const SCENARIOS: World[] = [
  // Resource utilization, tolerance, stabilization.
  base('cpu utilization above target scales up', {pods: ready(3, use('400m'))}),
  base('cpu utilization within the tolerance keeps the size', {pods: ready(3, use('270m'))}),
  base('cpu utilization at exactly 1.1 is within the tolerance', {pods: ready(3, use('275m'))}),
  base('cpu below target is held by the downscale stabilization window', {pods: ready(3, use('100m'))}),
  base('cpu below target scales down with a zero scaleDown window', {pods: ready(4, use('100m')), replicas: 4, hpa: {metrics: [cpu(50)], behavior: downNow}}),
  base('memory average value', {pods: ready(3, use('100m', '200Mi')), hpa: {metrics: [{type: 'Resource', resource: {name: 'memory', target: {type: 'AverageValue', averageValue: '100Mi'}}}]}}),
  base('memory utilization', {pods: ready(3, use('100m', '230Mi')), hpa: {metrics: [{type: 'Resource', resource: {name: 'memory', target: {type: 'Utilization', averageUtilization: 60}}}]}}),
  base('cpu average value', {pods: ready(3, use('300m')), hpa: {metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'AverageValue', averageValue: '200m'}}}]}}),
  // Container resources, sidecars, pod-level requests, overhead.
  base('container resource utilization of main beside a sidecar', {sidecar: true, pods: ready(3, {cpu: '450m', memory: '10Mi', sidecarCpu: '190m'}), hpa: {metrics: [{type: 'ContainerResource', containerResource: {name: 'cpu', container: 'main', target: {type: 'Utilization', averageUtilization: 60}}}]}}),
  base('container resource average value of the sidecar', {sidecar: true, pods: ready(3, {cpu: '100m', memory: '10Mi', sidecarCpu: '300m'}), hpa: {metrics: [{type: 'ContainerResource', containerResource: {name: 'cpu', container: 'side', target: {type: 'AverageValue', averageValue: '100m'}}}]}}),
  base('resource utilization counts the sidecar request and usage', {sidecar: true, pods: ready(3, {cpu: '400m', memory: '10Mi', sidecarCpu: '200m'})}),
  base('a sample without one of the containers leaves the pod missing', {sidecar: true, replicas: 4, pods: [...ready(3, {cpu: '450m', memory: '10Mi', sidecarCpu: '150m'}), {usage: {cpu: '450m', memory: '10Mi', sidecarCpu: 'none'}}]}),
  base('a container resource metric for a container the pods lack', {replicas: 1, pods: ready(1, use('300m')), hpa: {metrics: [{type: 'ContainerResource', containerResource: {name: 'cpu', container: 'side', target: {type: 'Utilization', averageUtilization: 50}}}]}}),
  base('pod-level requests feed utilization', {podRequests: {cpu: '1'}, pods: ready(3, use('800m'))}),
  base('pod-level requests with an overhead', {podRequests: {cpu: '1'}, overhead: true, pods: ready(3, use('900m'))}),
  base('pod-level cpu only: memory utilization of the containers\' aggregate', {
    podRequests: {cpu: '1'},
    sidecar: true,
    pods: ready(3, use('100m', '300Mi')),
    hpa: {metrics: [{type: 'Resource', resource: {name: 'memory', target: {type: 'Utilization', averageUtilization: 60}}}]},
  }),
  base('pod overhead is not part of the container requests', {overhead: true, pods: ready(3, use('400m'))}),
  // Pods, Object, External.
  base('pods metric above target', {pods: ready(3, null, {custom: {packets: '10'}}), hpa: {metrics: [podsMetric('packets', '5')]}}),
  base('pods metric with a metric selector', {
    pods: ready(3, null),
    custom: [0, 1, 2].flatMap((i) => [
      {resource: 'pods', name: `w-${i}`, kind: 'Pod', labels: {app: 'w'}, metric: 'packets', metricLabels: {port: '80'}, value: '12', timestamp: iso(Date.now())},
      {resource: 'pods', name: `w-${i}`, kind: 'Pod', labels: {app: 'w'}, metric: 'packets', metricLabels: {port: '443'}, value: '1', timestamp: iso(Date.now())},
    ]),
    hpa: {metrics: [podsMetric('packets', '5', {matchLabels: {port: '80'}})]},
  }),
  base('pods metric answered for a pod the target does not list', {
    pods: ready(2, null, {custom: {packets: '4'}}),
    replicas: 2,
    custom: [{resource: 'pods', name: 'stray', kind: 'Pod', labels: {app: 'w'}, metric: 'packets', value: '40', timestamp: iso(Date.now())}],
    hpa: {metrics: [podsMetric('packets', '5')]},
  }),
  base('object value on a Service, limited by the legacy scale-up limit', {custom: [svc('rps', '30')], hpa: {metrics: [objectMetric('rps', {type: 'Value', value: '10'})]}}),
  base('object average value on a Deployment', {
    custom: [{resource: 'deployments.apps', name: 'other', kind: 'Deployment', apiVersion: 'apps/v1', metric: 'queue', value: '12', timestamp: iso(Date.now())}],
    hpa: {metrics: [objectMetric('queue', {type: 'AverageValue', averageValue: '2'}, {apiVersion: 'apps/v1', kind: 'Deployment', name: 'other'})]},
  }),
  base('object metric of the namespace itself', {
    custom: [{resource: 'namespaces', name: '*ns*', kind: 'Namespace', metric: 'load', value: '9', timestamp: iso(Date.now())}],
    hpa: {metrics: [objectMetric('load', {type: 'Value', value: '3'}, {apiVersion: 'v1', kind: 'Namespace', name: 'ignored'})]},
  }),
  base('object metric with a metric selector', {
    custom: [svc('rps', '8', {metricLabels: {path: 'a'}}), svc('rps', '90', {metricLabels: {path: 'b'}})],
    hpa: {metrics: [objectMetric('rps', {type: 'Value', value: '4'}, undefined, {matchLabels: {path: 'a'}})]},
  }),
  base('an invalid metric selector fails the metric before any request', {
    custom: [svc('rps', '8', {metricLabels: {path: '/a'}})],
    hpa: {metrics: [objectMetric('rps', {type: 'Value', value: '4'}, undefined, {matchLabels: {path: '/a'}})]},
  }),
  base('external metric with a set-based metric selector', {
    external: [ext('queue', '20', {q: 'a'}), ext('queue', '30', {q: 'b'}), ext('queue', '900', {q: 'c'})],
    hpa: {metrics: [externalMetric('queue', {type: 'Value', value: '10'}, {matchExpressions: [{key: 'q', operator: 'In', values: ['b', 'a']}]})]},
  }),
  base('object metric answered twice fails', {custom: [svc('rps', '8'), svc('rps', '9')], hpa: {metrics: [objectMetric('rps', {type: 'Value', value: '4'})]}}),
  base('external value', {external: [ext('queue', '45')], hpa: {metrics: [externalMetric('queue', {type: 'Value', value: '10'})]}}),
  base('external average value over matching series', {
    external: [ext('queue', '20', {q: 'a'}), ext('queue', '10', {q: 'a', shard: '2'}), ext('queue', '500', {q: 'b'})],
    hpa: {metrics: [externalMetric('queue', {type: 'AverageValue', averageValue: '5'}, {matchLabels: {q: 'a'}})]},
  }),
  // Missing, unready, ignored pods.
  base('a pod without a sample counts as 0% on a scale-up', {pods: [...ready(3, use('450m')), {usage: null}], replicas: 4}),
  base('a pod without a sample counts as 100% on a scale-down', {pods: [...ready(3, use('100m')), {usage: null}], replicas: 4, hpa: {metrics: [cpu(50)], behavior: downNow}}),
  base('a pod in its CPU initialization period, not ready, does not push a scale-up', {pods: [...ready(2, use('450m')), {usage: use('450m'), startedAgo: 60, ready: false, readyAgo: 60}]}),
  base('a pod started recently and ready since counts', {pods: [...ready(2, use('450m')), {usage: use('450m'), startedAgo: 90, readyAgo: 80}]}),
  base('an old pod that went unready counts', {pods: [...ready(2, use('450m')), {usage: use('450m'), ready: false, readyAgo: 600}]}),
  base('a pending pod is unready', {pods: [...ready(3, use('450m')), {phase: 'Pending', ready: false, usage: null}], replicas: 4}),
  base('failed and deleted pods are ignored', {pods: [...ready(3, use('400m')), {phase: 'Failed', ready: false, usage: use('900m')}, {deleted: true, usage: use('900m')}], replicas: 3}),
  base('pods metric with a pending pod on a scale-up', {pods: [...ready(3, null, {custom: {packets: '12'}}), {phase: 'Pending', ready: false, usage: null}], replicas: 4, hpa: {metrics: [podsMetric('packets', '6')]}}),
  // Bounds and the legacy limit.
  base('below minReplicas is raised without metrics', {replicas: 1, pods: ready(1, use('100m')), hpa: {minReplicas: 2, metrics: [cpu(50)]}}),
  base('above maxReplicas is lowered without metrics', {replicas: 6, pods: ready(6, use('400m')), hpa: {maxReplicas: 4, metrics: [cpu(50)]}}),
  base('maxReplicas caps a scale-up', {pods: ready(3, use('500m')), hpa: {maxReplicas: 5, metrics: [cpu(50)]}}),
  base('minReplicas floors a scale-down', {replicas: 4, pods: ready(4, use('50m')), hpa: {minReplicas: 3, metrics: [cpu(50)], behavior: downNow}}),
  base('the legacy scale-up limit of 4 from one replica', {replicas: 1, pods: ready(1, use('500m')), hpa: {metrics: [cpu(10)]}}),
  base('zero replicas disable scaling', {replicas: 0, pods: []}),
  // behavior.
  base('scaleUp Pods policy limits the scale-up', {pods: ready(3, use('500m')), hpa: {metrics: [cpu(25)], behavior: {scaleUp: {policies: [{type: 'Pods', value: 1, periodSeconds: 60}]}}}}),
  base('scaleUp selectPolicy Min of two policies', {pods: ready(3, use('500m')), hpa: {metrics: [cpu(25)], behavior: {scaleUp: {selectPolicy: 'Min', policies: [{type: 'Pods', value: 4, periodSeconds: 60}, {type: 'Percent', value: 50, periodSeconds: 60}]}}}}),
  base('scaleUp Disabled', {pods: ready(3, use('500m')), hpa: {metrics: [cpu(25)], behavior: {scaleUp: {selectPolicy: 'Disabled'}}}}),
  base('scaleUp stabilization window holds the scale-up', {pods: ready(3, use('500m')), hpa: {metrics: [cpu(25)], behavior: {scaleUp: {stabilizationWindowSeconds: 120}}}}),
  base('scaleDown Percent and Pods, selectPolicy Max', {replicas: 8, pods: ready(8, use('50m')), hpa: {metrics: [cpu(50)], behavior: {scaleDown: {stabilizationWindowSeconds: 0, policies: [{type: 'Percent', value: 25, periodSeconds: 60}, {type: 'Pods', value: 3, periodSeconds: 60}]}}}}),
  base('scaleDown selectPolicy Min', {replicas: 8, pods: ready(8, use('50m')), hpa: {metrics: [cpu(50)], behavior: {scaleDown: {stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{type: 'Percent', value: 25, periodSeconds: 60}, {type: 'Pods', value: 3, periodSeconds: 60}]}}}}),
  base('scaleDown Disabled', {replicas: 6, pods: ready(6, use('50m')), hpa: {metrics: [cpu(50)], behavior: {scaleDown: {stabilizationWindowSeconds: 0, selectPolicy: 'Disabled'}}}}),
  base('scaleDown with the default (flag) window is held', {replicas: 6, pods: ready(6, use('50m')), hpa: {metrics: [cpu(50)], behavior: {scaleUp: {stabilizationWindowSeconds: 0}}}}),
  base('scaleUp tolerance keeps a 1.4 ratio', {pods: ready(3, use('350m')), hpa: {metrics: [cpu(50)], behavior: {scaleUp: {tolerance: '0.5'}}}}),
  base('scaleDown tolerance lets a 0.85 ratio scale down', {replicas: 6, pods: ready(6, use('212m')), hpa: {metrics: [cpu(50)], behavior: {scaleDown: {stabilizationWindowSeconds: 0, tolerance: '0.05'}}}}),
  // Several metrics, failures.
  base('the largest of several metrics wins', {external: [ext('queue', '20')], pods: ready(3, use('300m')), hpa: {metrics: [cpu(50), externalMetric('queue', {type: 'AverageValue', averageValue: '4'})]}}),
  base('a failed metric does not block a scale-up from another', {pods: ready(3, use('450m')), hpa: {metrics: [externalMetric('absent', {type: 'Value', value: '1'}), cpu(50)]}}),
  base('a failed metric blocks a scale-down', {replicas: 5, pods: ready(5, use('50m')), hpa: {metrics: [cpu(50), externalMetric('absent', {type: 'Value', value: '1'})], behavior: downNow}}),
  base('no pod metrics at all', {pods: ready(3, null)}),
  base('the resource metrics API fails', {fail: {resource: 'metrics backend is down'}}),
  base('the external metrics API fails', {fail: {external: 'no such queue'}, hpa: {metrics: [externalMetric('queue', {type: 'Value', value: '10'})]}}),
  base('a missing scale target', {noTarget: true, pods: []}),
  // One pod: the controller names the first pod its informer lists, in no fixed order.
  base('a container without a request', {replicas: 1, requests: {memory: '64Mi', cpu: undefined}, pods: ready(1, use('300m'))}),
  // Other targets and v1.
  base('StatefulSet target', {kind: 'StatefulSet', pods: ready(3, use('400m'))}),
  base('ReplicaSet target', {kind: 'ReplicaSet', pods: ready(3, use('400m'))}),
  base('ReplicationController target with an autoscaling/v1 HPA', {kind: 'ReplicationController', v1: true, pods: ready(3, use('400m')), hpa: {minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 50}}),
  // A custom resource with a scale subresource (.spec.size, .status.size, .status.selector).
  base('custom resource target scaled through its scale subresource', {kind: 'Worker', pods: ready(3, use('400m'))}),
  base('custom resource target: status size differs for an object average value', {kind: 'Worker', statusReplicas: 2, custom: [svc('rps', '30')], hpa: {metrics: [objectMetric('rps', {type: 'AverageValue', averageValue: '4'})]}}),
  base('custom resource target below minReplicas', {kind: 'Worker', replicas: 1, pods: ready(1, use('100m')), hpa: {minReplicas: 2, metrics: [cpu(50)]}}),
  base('a missing custom resource', {kind: 'Worker', noTarget: true, pods: []}),
  base('status.replicas differs from spec for an object average value', {statusReplicas: 2, custom: [svc('rps', '30')], hpa: {metrics: [objectMetric('rps', {type: 'AverageValue', averageValue: '4'})]}}),
  base('two HPAs on one target', {second: true, pods: ready(3, use('400m'))}),
  base('autoscaling/v1 with the metrics and behavior annotations', {
    v1: true,
    external: [ext('queue', '30')],
    pods: ready(4, use('100m')),
    replicas: 4,
    hpa: {minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 50},
    annotations: {
      'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify([{type: 'External', external: {metricName: 'queue', targetAverageValue: '10'}}]),
      'autoscaling.alpha.kubernetes.io/behavior': JSON.stringify({ScaleDown: {StabilizationWindowSeconds: 0, Policies: [{Type: 'Pods', Value: 1, PeriodSeconds: 15}]}}),
    },
  }),
]

let fake: FakeMetrics

beforeAll(async () => {
  fake = await fakeMetrics.start()
  // For the overhead scenario: a RuntimeClass whose pods get a fixed overhead.
  const rc = await api('POST', '/apis/node.k8s.io/v1/runtimeclasses', {
    body: {apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: {name: 'oracle-overhead'}, handler: 'oracle', overhead: {podFixed: {cpu: '250m', memory: '0'}}},
  })
  if (rc.status !== 201 && rc.status !== 409) throw new Error(`RuntimeClass: ${rc.status} ${rc.body}`)
  // For the custom-resource scenarios: a CRD with a scale subresource, established before the controller starts.
  const crd = await api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {name: `workers.${CR_GROUP}`},
      spec: {
        group: CR_GROUP,
        names: {kind: 'Worker', plural: 'workers', singular: 'worker', listKind: 'WorkerList'},
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {openAPIV3Schema: {type: 'object', 'x-kubernetes-preserve-unknown-fields': true}},
            subresources: {status: {}, scale: {specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.status.selector'}},
          },
        ],
      },
    },
  })
  if (crd.status !== 201 && crd.status !== 409) throw new Error(`CRD: ${crd.status} ${crd.body}`)
  await waitUntil(async () => (await api('GET', `/apis/${CR_GROUP}/v1`)).status === 200, {what: 'the Worker CRD served', timeoutMs: 60_000, intervalMs: 250})
}, 180_000)

afterAll(async () => {
  await controllerManager.stop()
  await fakeMetrics.stop()
})

describe('the HPA controller\'s first sync of hand-made worlds', () => {
  it(`${SCENARIOS.length} scenarios: the scale write and the status are the plan's`, async () => {
    const outcomes = await runBatch(fake, SCENARIOS, 'scenarios', () => `npx vitest run --project e2e ${FILE} -t scenarios`)
    const bad = outcomes.filter((o) => !o.agree)
    const left = outcomes.filter((o) => o.excluded).length
    process.stderr.write(`[hpa-oracle] scenarios: ${outcomes.length - bad.length - left}/${outcomes.length - left} agree (${left} left out)\n`)
    expect(bad.map((o) => o.detail).join('\n\n')).toBe('')
  }, 600_000)
})


describe('HPAs read from files as the API server stores them', () => {
  it('autoscaling/v2 defaulted and autoscaling/v1 converted (annotations included) give the spec the server returns as v2', async () => {
    const ref = {apiVersion: 'apps/v1', kind: 'Deployment', name: 'w'}
    const objects: Json[] = [
      {apiVersion: 'autoscaling/v2', spec: {scaleTargetRef: ref, maxReplicas: 5}},
      {apiVersion: 'autoscaling/v2', spec: {scaleTargetRef: ref, maxReplicas: 5, behavior: {}}},
      {apiVersion: 'autoscaling/v2', spec: {scaleTargetRef: ref, minReplicas: 2, maxReplicas: 5, metrics: [cpu(60)], behavior: {scaleDown: {selectPolicy: 'Min', tolerance: '50m'}, scaleUp: {policies: [{type: 'Pods', value: 2, periodSeconds: 30}]}}}},
      {apiVersion: 'autoscaling/v1', spec: {scaleTargetRef: ref, maxReplicas: 5}},
      {apiVersion: 'autoscaling/v1', spec: {scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 40}},
      {
        apiVersion: 'autoscaling/v1',
        metadata: {
          annotations: {
            'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify([
              {type: 'External', external: {metricName: 'queue', metricSelector: {matchLabels: {q: 'a'}}, targetValue: '5'}},
              {type: 'Object', object: {target: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metricName: 'rps', targetValue: '0', averageValue: '3'}},
              {type: 'Pods', pods: {metricName: 'packets', targetAverageValue: '10'}},
              {type: 'Resource', resource: {name: 'memory', targetAverageValue: '100Mi'}},
              {type: 'ContainerResource', containerResource: {name: 'cpu', container: 'main', targetAverageUtilization: 70}},
            ]),
            'autoscaling.alpha.kubernetes.io/behavior': JSON.stringify({
              ScaleUp: {SelectPolicy: 'Disabled', policies: [{type: 'Pods', value: 1, periodSeconds: 15}]},
              scaleDown: {stabilizationWindowSeconds: 30, Policies: [{Type: 'Percent', Value: 10, PeriodSeconds: 60}]},
            }),
          },
        },
        spec: {scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 40},
      },
    ]
    const ns = await newNamespace('hpa-read')
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-read-'))
    try {
      const files: string[] = []
      for (const [i, o] of objects.entries()) {
        const body = {kind: 'HorizontalPodAutoscaler', ...o, metadata: {name: `h${i}`, namespace: ns, ...o.metadata}}
        await apiOk('POST', `/apis/${o.apiVersion}/namespaces/${ns}/horizontalpodautoscalers`, {body})
        files.push(join(dir, `h${i}.json`))
        writeFileSync(files.at(-1)!, JSON.stringify(body))
      }
      const read = await readFixtures({paths: files})
      const mine = new Map((read.hpas ?? []).map((h) => [h.name, h.spec]))
      const stored = (await apiOk('GET', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`)).items as Json[]
      expect(stored).toHaveLength(objects.length)
      for (const h of stored) expect(canon(mine.get(h.metadata.name)), h.metadata.name).toBe(canon(h.spec))
    } finally {
      rmSync(dir, {recursive: true, force: true})
      await deleteNamespace(ns).catch(() => {})
    }
  }, 120_000)
})

describe('autoscaling/v1 HPAs read from files with a status the controller wrote', () => {
  it('the v1 form (current-metrics and conditions annotations) reads back as the v2 status the server stores', async () => {
    const ns = await newNamespace('hpa-v1-status')
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-v1-status-'))
    const at = iso(Date.now() - 60_000)
    const statuses: Json[] = [
      // Every metric type, both value kinds of Object and External, a failed metric; three conditions.
      {
        currentReplicas: 3,
        desiredReplicas: 4,
        lastScaleTime: at,
        currentMetrics: [
          {type: 'Resource', resource: {name: 'cpu', current: {averageValue: '450m', averageUtilization: 90}}},
          {type: 'Resource', resource: {name: 'memory', current: {averageValue: '100Mi'}}},
          {type: 'ContainerResource', containerResource: {name: 'cpu', container: 'main', current: {averageValue: '200m', averageUtilization: 40}}},
          {type: 'Pods', pods: {metric: {name: 'packets', selector: {matchLabels: {port: '80'}}}, current: {averageValue: '12'}}},
          {type: 'Object', object: {describedObject: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metric: {name: 'rps'}, current: {value: '30'}}},
          {type: 'Object', object: {describedObject: {apiVersion: 'v1', kind: 'Service', name: 'front'}, metric: {name: 'rps'}, current: {averageValue: '10'}}},
          {type: 'External', external: {metric: {name: 'queue', selector: {matchLabels: {q: 'a'}}}, current: {value: '45'}}},
          {type: 'External', external: {metric: {name: 'queue'}, current: {averageValue: '1500m'}}},
          {type: ''},
        ],
        conditions: [
          {type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 4', lastTransitionTime: at},
          {type: 'ScalingActive', status: 'False', reason: 'FailedGetExternalMetric', message: 'x', lastTransitionTime: at},
          {type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range', lastTransitionTime: at},
        ],
      },
      // Only a CPU status, no conditions.
      {currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{type: 'Resource', resource: {name: 'cpu', current: {averageValue: '100m', averageUtilization: 20}}}]},
      // Nothing.
      {currentReplicas: 0, desiredReplicas: 0},
    ]
    try {
      const files: string[] = []
      for (const [i, status] of statuses.entries()) {
        const name = `h${i}`
        const created = await apiOk('POST', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {
          body: {apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: {name}, spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'w'}, maxReplicas: 5, metrics: [cpu(50)]}},
        })
        await apiOk('PUT', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${name}/status`, {body: {...created, status}})
        const v1 = await apiOk('GET', `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers/${name}`)
        files.push(join(dir, `${name}.json`))
        writeFileSync(files.at(-1)!, JSON.stringify(v1))
      }
      const read = await readFixtures({paths: files})
      const mine = new Map((read.hpas ?? []).map((h) => [h.name, h]))
      const stored = (await apiOk('GET', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`)).items as Json[]
      expect(stored).toHaveLength(statuses.length)
      const {statusEqual} = await import('../../src/controllers/hpa/sync.js')
      for (const h of stored) {
        const got = mine.get(h.metadata.name)!
        const want = {currentReplicas: 0, desiredReplicas: 0, currentMetrics: null, conditions: [], ...h.status}
        // Semantically equal (quantities by value), as the controller decides whether to write.
        expect(statusEqual(got.status, want), `${h.metadata.name}\n  kctl:   ${canon(got.status)}\n  server: ${canon(want)}`).toBe(true)
        expect(canon(got.spec), h.metadata.name).toBe(canon(h.spec))
      }
    } finally {
      rmSync(dir, {recursive: true, force: true})
      await deleteNamespace(ns).catch(() => {})
    }
  }, 120_000)
})

// ---- Seeded random worlds ----

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const chance = (r: Rnd, p: number) => r() < p
const milli = (q: string) => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000)
const mib = (q: string) => (q.endsWith('Gi') ? Number(q.slice(0, -2)) * 1024 : Number(q.slice(0, -2)))

function randomPod(r: Rnd): PodDef {
  return pick<() => PodDef>(r, [
    ...Array<() => PodDef>(12).fill(() => ({})),
    () => ({startedAgo: 120, readyAgo: pick(r, [100, 20])}),
    () => ({startedAgo: 90, ready: false, readyAgo: 90}),
    () => ({ready: false, readyAgo: 3595}),
    () => ({ready: false, readyAgo: 600}),
    () => ({phase: 'Pending', ready: false}),
    () => ({phase: 'Failed', ready: false}),
    () => ({deleted: true}),
    () => ({phase: 'Succeeded', ready: false}),
  ])()
}

function randomRules(r: Rnd, up: boolean): Json {
  const rules: Json = {}
  if (chance(r, 0.6)) rules.stabilizationWindowSeconds = pick(r, up ? [0, 0, 60] : [0, 0, 0, 60])
  if (chance(r, 0.5)) rules.selectPolicy = pick(r, ['Max', 'Min', 'Disabled'])
  if (chance(r, 0.6)) {
    rules.policies = Array.from({length: int(r, 1, 2)}, () =>
      chance(r, 0.5) ? {type: 'Pods', value: int(r, 1, 4), periodSeconds: pick(r, [15, 60])} : {type: 'Percent', value: pick(r, [10, 25, 50, 100, 200]), periodSeconds: pick(r, [15, 60])},
    )
  }
  if (chance(r, 0.2)) rules.tolerance = pick(r, ['0.05', '0.2', '0.5', '0'])
  return rules
}

/** One random world: its target, pods and their samples, 1–3 metrics and their answers, maybe a behavior. */
function generate(r: Rnd, index: number): World {
  const kind = pick(r, ['Deployment', 'Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'] as const)
  const replicas = chance(r, 0.03) ? 0 : int(r, 1, 8)
  const minReplicas = pick(r, [1, 1, 1, 2, 3])
  const maxReplicas = int(r, Math.max(minReplicas, 2), 12)
  const requests = {cpu: pick(r, ['100m', '250m', '500m', '1']), memory: pick(r, ['64Mi', '256Mi', '1Gi'])}
  const sidecar = chance(r, 0.2)
  const podRequests = chance(r, 0.05) ? {cpu: pick(r, ['1500m', '2']), memory: '2Gi'} : undefined
  const now = Date.now()
  const pods: PodDef[] = Array.from({length: Math.max(0, replicas + int(r, -1, 2))}, () => randomPod(r))
  const cpuLoad = pick(r, [0.1, 0.3, 0.5, 0.8, 1, 1.5, 2.5])
  const memLoad = pick(r, [0.2, 0.5, 1, 1.5, 3])
  for (const p of pods) {
    if (chance(r, 0.12)) continue
    const c = Math.max(1, Math.round(milli(requests.cpu) * cpuLoad * (0.6 + 0.8 * r())))
    const m = Math.max(1, Math.round(mib(requests.memory) * memLoad * (0.6 + 0.8 * r())))
    // As metrics-server reports them (nanocores, kibibytes) or rounder.
    const cpuText = chance(r, 0.4) ? `${c * 1_000_000 - int(r, 0, 999_999)}n` : `${c}m`
    const memText = chance(r, 0.4) ? `${m * 1024 + int(r, -500, 500)}Ki` : `${m}Mi`
    p.usage = {cpu: cpuText, memory: memText, ...(sidecar ? {sidecarCpu: `${int(r, 10, 400)}m`} : {})}
  }
  const w: World = {name: `world ${index}`, kind, replicas, requests, sidecar, pods, hpa: {}, custom: [], external: []}
  if (podRequests) w.podRequests = podRequests
  if (chance(r, 0.15)) w.statusReplicas = int(r, 1, 8)
  if (chance(r, 0.02)) w.noTarget = true
  if (chance(r, 0.08)) {
    w.v1 = true
    w.hpa = {minReplicas, maxReplicas, targetCPUUtilizationPercentage: pick(r, [30, 50, 80])}
    return w
  }
  const ts = iso(now - 5000)
  const metrics: Json[] = []
  const count = pick(r, [1, 1, 1, 2, 2, 3])
  for (let i = 0; i < count; i++) {
    const type = pick(r, ['cpu', 'cpu', 'memory', 'cpuAvg', 'container', 'pods', 'objectValue', 'objectAverage', 'externalValue', 'externalAverage'])
    switch (type) {
      case 'cpu':
        metrics.push(cpu(pick(r, [30, 50, 70, 90])))
        break
      case 'memory':
        metrics.push(
          chance(r, 0.5)
            ? {type: 'Resource', resource: {name: 'memory', target: {type: 'AverageValue', averageValue: pick(r, ['100Mi', '200Mi', '1Gi'])}}}
            : {type: 'Resource', resource: {name: 'memory', target: {type: 'Utilization', averageUtilization: pick(r, [40, 60, 80])}}},
        )
        break
      case 'cpuAvg':
        metrics.push({type: 'Resource', resource: {name: 'cpu', target: {type: 'AverageValue', averageValue: pick(r, ['100m', '300m', '1'])}}})
        break
      case 'container': {
        const container = sidecar && chance(r, 0.5) ? 'side' : 'main'
        metrics.push({
          type: 'ContainerResource',
          containerResource: {name: 'cpu', container, target: chance(r, 0.7) ? {type: 'Utilization', averageUtilization: pick(r, [40, 60])} : {type: 'AverageValue', averageValue: '150m'}},
        })
        break
      }
      case 'pods': {
        const name = `packets${i}`
        const target = pick(r, [2, 5, 10])
        for (const p of pods) if (chance(r, 0.9)) (p.custom ??= {})[name] = `${Math.max(0, Math.round(1000 * target * pick(r, [0.2, 0.7, 1, 1.3, 3]) * (0.5 + r())))}m`
        metrics.push(podsMetric(name, String(target)))
        break
      }
      case 'objectValue':
      case 'objectAverage': {
        const name = `rps${i}`
        const target = pick(r, [3, 10, 25])
        if (chance(r, 0.95)) w.custom!.push(svc(name, chance(r, 0.5) ? String(int(r, 0, target * 5)) : `${int(r, 0, target * 5000)}m`, {timestamp: ts}))
        metrics.push(objectMetric(name, type === 'objectValue' ? {type: 'Value', value: String(target)} : {type: 'AverageValue', averageValue: String(target)}))
        break
      }
      default: {
        const name = `queue${i}`
        const target = pick(r, [2, 10, 40])
        const selector = chance(r, 0.4) ? {matchLabels: {q: 'a'}} : undefined
        const series = int(r, 0, 3)
        for (let s = 0; s < series; s++) w.external!.push({...ext(name, String(int(r, 0, target * 4)), {q: pick(r, ['a', 'b'])}), timestamp: ts})
        metrics.push(externalMetric(name, type === 'externalValue' ? {type: 'Value', value: String(target)} : {type: 'AverageValue', averageValue: String(target)}, selector))
      }
    }
  }
  w.hpa = {minReplicas, maxReplicas, metrics}
  if (chance(r, 0.5)) {
    const behavior: Json = {}
    if (chance(r, 0.7)) behavior.scaleUp = randomRules(r, true)
    if (chance(r, 0.8)) behavior.scaleDown = randomRules(r, false)
    w.hpa.behavior = behavior
  }
  if (chance(r, 0.03)) w.fail = {[pick(r, ['resource', 'custom', 'external'])]: 'the adapter is down'}
  return w
}

describe(`random HPA worlds (seed ${SEED}, ${COUNT} worlds) against the controller's first sync`, () => {
  const tally = {worlds: 0, agree: 0, excluded: 0, disagreements: [] as string[]}
  for (let first = FIRST; first < FIRST + COUNT; first += BATCH) {
    const last = Math.min(FIRST + COUNT, first + BATCH)
    it(`random worlds ${first}–${last - 1}: the scale write and the status are the plan's`, async () => {
      // This batch's own disagreements: the tally runs across batches.
      const disagreedBefore = tally.disagreements.length
      const worlds: World[] = []
      for (let i = first; i < last; i++) worlds.push(generate(prng(SEED * 7919 + i), i))
      const outcomes = await runBatch(fake, worlds, `random-${first}`, (i) => `KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_FIRST=${first + i} KCTL_ORACLE_COUNT=1 npx vitest run --project e2e ${FILE} -t random`)
      for (const o of outcomes) {
        if (o.excluded) {
          tally.excluded++
          continue
        }
        tally.worlds++
        if (o.agree) tally.agree++
        else tally.disagreements.push(o.detail)
      }
      process.stderr.write(`[hpa-oracle] random seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.excluded} left out: a CPU initialization period ending between the two clocks)\n`)
      expect(tally.disagreements.slice(disagreedBefore).join('\n\n')).toBe('')
    }, 900_000)
  }
})

describe('the fake metrics APIs, stopped', () => {
  it('leave no APIService behind (discovery stays complete for the files that run next)', async () => {
    await fakeMetrics.stop()
    const groups = ((await apiOk('GET', '/apis')).groups as Json[]).map((g) => g.name)
    expect(groups.filter((g) => g.endsWith('metrics.k8s.io'))).toEqual([])
    expect((await api('GET', '/api/v1/namespaces/kube-system/services/kctl-fakemetrics')).status).toBe(404)
  })
})
