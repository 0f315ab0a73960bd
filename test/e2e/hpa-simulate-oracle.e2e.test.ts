// The autoscaling simulation oracle: `kctl simulate --load`'s HorizontalPodAutoscaler timeline
// against the real kube-controller-manager under a stepped CPU load.
//
// One kube-controller-manager runs the deployment, replicaset and horizontalpodautoscaling
// controllers with the HPA defaults kctl models (15 s sync period, tolerance 0.1, 5 min downscale
// stabilization, 5 min CPU initialization period, 30 s initial readiness delay); kube-scheduler
// binds pods and kwok plays the kubelet with the `timed` stages: every pod is Running at once,
// Ready 3 s later and gone 1 s after its deletion starts (pod-template annotations), as
// `kctl simulate --ready-after 3s --terminate-after 1s` models. The fake metrics APIs
// (controlplane/fake-metrics.ts) answer the controller's PodMetrics requests.
//
// Each scenario (its own namespace; all run side by side) settles a Deployment, waits until its
// pods have been Ready for 20 s (so that the CPU initialization rules count them from the first
// sync on), creates the HPA and reads the world at once — before the controller's first sync, a
// period later. While the real controller runs, the test plays the load exactly as `kctl simulate`
// models it (src/controllers/hpa/simulate.ts, loadAnswers): every POLL_MS it lists the pods and
// sets each Running, not terminating pod's CPU usage to its share of the demand at that moment
// (SPEC's step at the time since the HPA's creation), spread in whole millicores over the Ready
// pods by name, the remainder one each to the first; a Running pod not Ready reports 0; samples are
// stamped with the time they were set (whole seconds) and a 30 s window. It records the HPA's
// status (each new lastScaleTime is a scale event: from currentReplicas to desiredReplicas, with
// ScalingLimited) and the Deployment's spec.replicas. Then `kctl simulate -f <the world read>
// --now <the HPA's creationTimestamp> --until HORIZON --load deployment/web=SPEC` runs, and:
// - the scale events' replica counts, in order, must be identical, and so must the Deployment's
//   spec.replicas sequence and the final size;
// - each scale event's ScalingLimited reason (when True) and its rescale reason (the
//   SuccessfulRescale events' `New size: N; reason: R` messages, compared as a set since client-go
//   aggregates repeats) must agree, and so must the sequence of ScalingLimited=True stretches;
// - each event's time must agree within TIME_TOLERANCE: the real controller syncs one period after
//   its informer saw the HPA and each later sync a period after the previous one's end, so its
//   sync k is at creation + 15 k s plus the creation time's dropped fraction (< 1 s), the informer's
//   delay, and each sync's own duration carried over (tens of ms each on a loaded machine); the
//   simulation syncs at creation + 15 k s exactly (k ≥ 1: a new HPA's first sync is a period after
//   its creation, in both). The real time can therefore only be later, never earlier: 0–5 s
//   (seen: up to 2 s by t+150 s, with a load average of 21 on 2 cores).
//   ScalingLimited stretches are seen by polling: POLL_MS more.
// kwok's stage delays do not add to the tolerance; they only eat into margins, which the scenarios
// keep wide: every load step is 7–8 s from the syncs around it; the behavior periods and windows
// (20, 25, 40 s) are no multiple of the 15 s period, so each recommendation or scale event is at
// least 5 s inside or outside them; a pod created by a scale at sync s is Ready at s + 3 s and
// counted by the CPU initialization rule from s + 33 s (its sample's window must start after its
// readiness): 3 s after sync s + 30, 12 s before sync s + 45, and the real delays (scheduling,
// kwok, a metric sample up to POLL_MS + 1 s older than the sync: set every POLL_MS, stamped in
// whole seconds) only move it later, away from s + 30.
// Excluded, for timing only: nothing beyond the tolerance above; a scale event within
// TIME_TOLERANCE of HORIZON is not expected (every scenario's HORIZON lies mid-period).
//
// Every disagreement prints a one-line replay: the `kctl simulate` command on the world as read
// (kept in a temporary directory) with the real timeline beside it.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {FakeMetrics} from '../../controlplane/fake-metrics.js'
import {demandAt, parseSpec, type LoadSeries} from '../../src/simulate/load.js'
import {kctl} from './kctl.js'
import {apiOk, deleteNamespace, fakeMetrics, newNamespace, waitUntil} from './setup/cluster.js'
import {startTimedCluster, type TimedCluster} from './simulate-helpers.js'

type Json = Record<string, any>

const READY_AFTER = '3s'
const DELETE_AFTER = '1s'
/** Every pod requests 100m CPU; every HPA targets 50% of it: 50m of demand per pod. */
const REQUEST = '100m'
const TARGET_UTILIZATION = 50
/** Virtual and real time compared, from the HPA's creation (mid-period: syncs at 150 and 165 s). */
const HORIZON_SECONDS = 157
/** The pods have been Ready this long when the HPA is created (its first sync is 15 s later: 35 s > 30 s window). */
const SETTLED_READY_SECONDS = 20
const POLL_MS = 500
/** How much later than the simulation a real scale event may be (see the header). */
const TIME_TOLERANCE_SECONDS = 5

interface Scenario {
  name: string
  replicas: number
  minReplicas: number
  maxReplicas: number
  behavior?: Json
  /** The --load SPEC on deployment/web. */
  load: string
}

const SCENARIOS: Scenario[] = [
  {name: 'no behavior: the legacy scale-up limit, step by step to maxReplicas', replicas: 2, minReplicas: 1, maxReplicas: 20, load: 'cpu:100m@0s,1000m@22s'},
  // Above target from the start: the size the controller first saw (its first recommendation, at its
  // first sync a period after the HPA's creation) holds a scale-up for the 20 s window.
  {
    name: 'above target from the start: a 20 s scaleUp window holds the first size, then maxReplicas (TooManyReplicas)',
    replicas: 2,
    minReplicas: 1,
    maxReplicas: 8,
    behavior: {scaleUp: {stabilizationWindowSeconds: 20}},
    load: 'cpu:300m@0s,800m@67s',
  },
  {
    name: 'scaleUp Max of Pods 2 and Percent 50 per 40 s; down after a 20 s window, 3 pods per 20 s',
    replicas: 2,
    minReplicas: 2,
    maxReplicas: 12,
    behavior: {
      scaleUp: {stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{type: 'Pods', value: 2, periodSeconds: 40}, {type: 'Percent', value: 50, periodSeconds: 40}]},
      scaleDown: {stabilizationWindowSeconds: 20, policies: [{type: 'Pods', value: 3, periodSeconds: 20}]},
    },
    load: 'cpu:100m@0s,600m@22s,200m@97s',
  },
  {
    name: 'scaleUp Min of Pods 4 and Percent 100 per 40 s; down after a 25 s window, 50% per 20 s',
    replicas: 3,
    minReplicas: 1,
    maxReplicas: 15,
    behavior: {
      scaleUp: {selectPolicy: 'Min', policies: [{type: 'Pods', value: 4, periodSeconds: 40}, {type: 'Percent', value: 100, periodSeconds: 40}]},
      scaleDown: {stabilizationWindowSeconds: 25, policies: [{type: 'Percent', value: 50, periodSeconds: 20}]},
    },
    load: 'cpu:150m@0s,700m@22s,100m@97s',
  },
  {
    name: 'the minReplicas floor on a step down (TooFewReplicas)',
    replicas: 8,
    minReplicas: 3,
    maxReplicas: 10,
    behavior: {scaleDown: {stabilizationWindowSeconds: 20}},
    load: 'cpu:400m@0s,20m@37s',
  },
  {
    name: 'scale-down Disabled after a step up and back (ScaleDownLimit)',
    replicas: 4,
    minReplicas: 1,
    maxReplicas: 8,
    behavior: {scaleDown: {selectPolicy: 'Disabled'}},
    load: 'cpu:200m@0s,500m@22s,50m@67s',
  },
]

const deploymentPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments/web`
const hpaPath = (ns: string) => `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/web`

function deploymentManifest(s: Scenario): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web'},
    spec: {
      replicas: s.replicas,
      selector: {matchLabels: {app: 'web'}},
      template: {
        metadata: {labels: {app: 'web'}, annotations: {'stage.kctl.io/ready-after': READY_AFTER, 'stage.kctl.io/delete-after': DELETE_AFTER}},
        spec: {containers: [{name: 'c', image: 'registry.example.com/web:v1', resources: {requests: {cpu: REQUEST}}}]},
      },
    },
  }
}

function hpaManifest(s: Scenario): Json {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: {name: 'web'},
    spec: {
      scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'},
      minReplicas: s.minReplicas,
      maxReplicas: s.maxReplicas,
      metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: TARGET_UTILIZATION}}}],
      ...(s.behavior ? {behavior: s.behavior} : {}),
    },
  }
}

const complete = (d: Json) => {
  const st = d.status ?? {}
  return st.observedGeneration === d.metadata.generation && st.replicas === d.spec.replicas && st.readyReplicas === d.spec.replicas && st.availableReplicas === d.spec.replicas
}

const readyCondition = (p: Json) => (p.status?.conditions ?? []).find((c: Json) => c.type === 'Ready')
const isRunning = (p: Json) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp
const isReady = (p: Json) => isRunning(p) && readyCondition(p)?.status === 'True'
const wholeSecondsIso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z')

/** `total` thousandths over `n` pods: equal whole shares, the remainder one each to the first. */
function shares(total: number, n: number): number[] {
  const base = Math.floor(total / n)
  return Array.from({length: n}, (_, i) => base + (i < total - base * n ? 1 : 0))
}

interface ScaleEvent {
  offsetSeconds: number
  from: number
  to: number
  limitedBy?: string
}

/** A ScalingLimited=True stretch's start (reason), or its end (reason ''). */
interface LimitChange {
  offsetSeconds: number
  reason: string
}

interface RealRun {
  ns: string
  created: string
  worldDir: string
  events: ScaleEvent[]
  limits: LimitChange[]
  deploymentReplicas: number[]
  rescaleMessages: string[]
  finalReplicas: number
  podsSeen: number
  metricsSets: number
}

/** The world as read right after the HPA's creation, as a List that -f reads back. */
async function readWorld(ns: string): Promise<string> {
  const items: Json[] = []
  for (const [path, apiVersion, kind] of [
    [`/apis/apps/v1/namespaces/${ns}/deployments`, 'apps/v1', 'Deployment'],
    [`/apis/apps/v1/namespaces/${ns}/replicasets`, 'apps/v1', 'ReplicaSet'],
    [`/api/v1/namespaces/${ns}/pods`, 'v1', 'Pod'],
    [`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, 'autoscaling/v2', 'HorizontalPodAutoscaler'],
  ] as const) {
    for (const o of (await apiOk('GET', path)).items as Json[]) items.push({apiVersion, kind, ...o})
  }
  const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-sim-'))
  writeFileSync(join(dir, 'world.json'), JSON.stringify({apiVersion: 'v1', kind: 'List', items}, null, 1))
  return dir
}

/** Plays the load on the real cluster until HORIZON and records what the HPA controller did. */
async function playAndRecord(ns: string, s: Scenario, series: LoadSeries, fake: FakeMetrics): Promise<Omit<RealRun, 'ns' | 'worldDir' | 'rescaleMessages' | 'finalReplicas'>> {
  const hpa0 = await apiOk('GET', hpaPath(ns))
  const created: string = hpa0.metadata.creationTimestamp
  const t0 = Date.parse(created)
  const events: ScaleEvent[] = []
  const limits: LimitChange[] = []
  const deploymentReplicas: number[] = [s.replicas]
  let lastScaleTime: string | undefined
  let limited = ''
  let podsSeen = 0
  let metricsSets = 0
  const seenPods = new Set<string>()
  for (;;) {
    const now = Date.now()
    const elapsed = (now - t0) / 1000
    if (elapsed >= HORIZON_SECONDS) break
    // The load: the demand now, over the Ready pods.
    const pods = ((await apiOk('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dweb`)).items as Json[]).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    for (const p of pods) seenPods.add(p.metadata.name)
    const running = pods.filter(isRunning)
    const ready = running.filter(isReady)
    const demand = demandAt(series, (Date.now() - t0) / 1000)
    const share = new Map(ready.map((p, i) => [p.metadata.name, shares(demand, ready.length)[i]]))
    const stamp = wholeSecondsIso(Date.now())
    await fake.set(ns, {
      pods: running.map((p) => ({name: p.metadata.name, labels: p.metadata.labels, timestamp: stamp, window: '30s', containers: [{name: 'c', usage: {cpu: `${share.get(p.metadata.name) ?? 0}m`}}]})),
    })
    metricsSets++
    // What the controller did.
    const hpa = await apiOk('GET', hpaPath(ns))
    const st = hpa.status ?? {}
    const lim = (st.conditions ?? []).find((c: Json) => c.type === 'ScalingLimited')
    const limitedNow = lim?.status === 'True' ? lim.reason : ''
    if (st.lastScaleTime && st.lastScaleTime !== lastScaleTime) {
      lastScaleTime = st.lastScaleTime
      events.push({offsetSeconds: (Date.parse(st.lastScaleTime) - t0) / 1000, from: st.currentReplicas, to: st.desiredReplicas, ...(limitedNow ? {limitedBy: limitedNow} : {})})
    }
    if (limitedNow !== limited) {
      limits.push({offsetSeconds: (Date.now() - t0) / 1000, reason: limitedNow})
      limited = limitedNow
    }
    const d = await apiOk('GET', deploymentPath(ns))
    if (d.spec.replicas !== deploymentReplicas.at(-1)) deploymentReplicas.push(d.spec.replicas)
    await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (Date.now() - now))))
  }
  podsSeen = seenPods.size
  return {created, events, limits, deploymentReplicas, podsSeen, metricsSets}
}

/** The simulation's ScalingLimited stretches as changes (a start with its reason, an end as ''), up to the horizon. */
function simLimitChanges(a: Json): LimitChange[] {
  const out: LimitChange[] = []
  for (const l of a.scalingLimited as Json[]) {
    const last = out.at(-1)
    if (last && last.reason === '' && last.offsetSeconds === l.fromSeconds) out.pop()
    out.push({offsetSeconds: l.fromSeconds, reason: l.reason})
    if (l.toSeconds !== undefined) out.push({offsetSeconds: l.toSeconds, reason: ''})
  }
  return out
}

const show = (events: readonly ScaleEvent[]) => events.map((e) => `${e.from}→${e.to}@${e.offsetSeconds}s${e.limitedBy ? `(${e.limitedBy})` : ''}`).join(' ') || 'none'

describe('kctl simulate --load against the real HPA controller, a scheduler and a timed kubelet', () => {
  let cluster: TimedCluster | undefined
  let fake: FakeMetrics | undefined
  const runs = new Map<string, RealRun>()
  const namespaces: string[] = []
  let wallSeconds = 0

  beforeAll(async () => {
    const t0 = Date.now()
    fake = await fakeMetrics.start()
    cluster = await startTimedCluster(['deployment', 'replicaset', 'horizontalpodautoscaling'], 'hpa-sim-node')
    // Every world: a settled Deployment whose pods have been Ready for a while.
    const built = await Promise.all(
      SCENARIOS.map(async (s) => {
        const ns = await newNamespace('hpasim')
        namespaces.push(ns)
        await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deploymentManifest(s)})
        await waitUntil(async () => complete(await apiOk('GET', deploymentPath(ns))), {what: `${ns}/web settled`, timeoutMs: 60_000})
        const pods = (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items as Json[]
        const readySince = Math.max(...pods.map((p) => Date.parse(readyCondition(p).lastTransitionTime)))
        return {s, ns, readySince}
      }),
    )
    const settled = Math.max(...built.map((b) => b.readySince)) + SETTLED_READY_SECONDS * 1000 + 1000
    await new Promise((r) => setTimeout(r, Math.max(0, settled - Date.now())))
    // The HPAs, each with its world read at once, then the load played on all of them together.
    const played = await Promise.all(
      built.map(async ({s, ns}) => {
        await fake!.set(ns, {pods: []})
        await apiOk('POST', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {body: hpaManifest(s)})
        const worldDir = await readWorld(ns)
        const [series] = parseSpec(s.load, (m) => new Error(m))
        const real = await playAndRecord(ns, s, series, fake!)
        return {s, ns, worldDir, real}
      }),
    )
    for (const {s, ns, worldDir, real} of played) {
      const events = ((await apiOk('GET', `/api/v1/namespaces/${ns}/events`)).items as Json[]).filter((e) => e.reason === 'SuccessfulRescale')
      const finalReplicas = (await apiOk('GET', deploymentPath(ns))).spec.replicas
      runs.set(s.name, {ns, worldDir, ...real, rescaleMessages: [...new Set(events.map((e) => e.message as string))].sort(), finalReplicas})
    }
    await cluster.stop()
    cluster = undefined
    wallSeconds = (Date.now() - t0) / 1000
    console.info(`hpa-simulate-oracle: ${SCENARIOS.length} scenarios played for real in ${wallSeconds.toFixed(0)} s`)
  }, 330_000)

  afterAll(async () => {
    await cluster?.stop()
    await fakeMetrics.stop()
    await Promise.all(namespaces.map((ns) => deleteNamespace(ns)))
  })

  for (const s of SCENARIOS) {
    it(s.name, async () => {
      const real = runs.get(s.name)
      if (!real) throw new Error(`${s.name}: not played (see beforeAll)`)
      const args = ['simulate', '-f', real.worldDir, '-n', real.ns, '--now', real.created, '--until', `${HORIZON_SECONDS}s`, '--load', `deployment/web=${s.load}`, '--ready-after', READY_AFTER, '--terminate-after', DELETE_AFTER, '-o', 'json']
      const replay = `kctl ${args.map((a) => (/[\s;]/.test(a) ? `'${a}'` : a)).join(' ')}`
      const run = await kctl(args)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const sim = JSON.parse(run.stdout)
      const [a] = sim.autoscalers as Json[]
      const simEvents: ScaleEvent[] = (a.scaleEvents as Json[]).map((e) => ({offsetSeconds: e.offsetSeconds, from: e.from, to: e.to, ...(e.limitedBy ? {limitedBy: e.limitedBy} : {})}))
      const simMessages = [...new Set((a.scaleEvents as Json[]).map((e) => `New size: ${e.to}; reason: ${e.reason}`))].sort()
      const simLimits = simLimitChanges(a)
      const limitsShown = (l: readonly LimitChange[]) => l.map((x) => `${x.reason || 'ends'}@${x.offsetSeconds.toFixed(1)}s`).join(' ') || 'none'
      console.info(
        `${s.name}:\n  simulated: ${show(simEvents)}; ScalingLimited ${limitsShown(simLimits)}\n  real:      ${show(real.events)}; ScalingLimited ${limitsShown(real.limits)} (${real.podsSeen} pods, ${real.metricsSets} metric updates)`,
      )

      const problems: string[] = []
      const counts = (e: readonly ScaleEvent[]) => e.map((x) => `${x.from}→${x.to}`).join(' ')
      if (counts(simEvents) !== counts(real.events)) problems.push(`replica counts: simulated ${counts(simEvents) || 'none'}, real ${counts(real.events) || 'none'}`)
      const sizes = [s.replicas, ...real.events.map((e) => e.to)]
      if (JSON.stringify(sizes) !== JSON.stringify(real.deploymentReplicas)) problems.push(`the Deployment's spec.replicas went ${real.deploymentReplicas.join('→')}, the HPA's status says ${sizes.join('→')}`)
      for (const [i, e] of simEvents.entries()) {
        const r = real.events[i]
        if (!r) break
        const late = r.offsetSeconds - e.offsetSeconds
        if (late < 0 || late > TIME_TOLERANCE_SECONDS) problems.push(`scale ${e.from}→${e.to}: simulated at ${e.offsetSeconds}s, real at ${r.offsetSeconds}s (allowed: 0–${TIME_TOLERANCE_SECONDS} s later)`)
        if ((e.limitedBy ?? '') !== (r.limitedBy ?? '')) problems.push(`scale ${e.from}→${e.to}: ScalingLimited simulated ${e.limitedBy ?? 'no'}, real ${r.limitedBy ?? 'no'}`)
      }
      if (JSON.stringify(simMessages) !== JSON.stringify(real.rescaleMessages)) problems.push(`rescale reasons: simulated ${JSON.stringify(simMessages)}, real ${JSON.stringify(real.rescaleMessages)}`)
      const reasons = (l: readonly LimitChange[]) => l.map((x) => x.reason || '-').join(' ')
      if (reasons(simLimits) !== reasons(real.limits)) problems.push(`ScalingLimited: simulated ${reasons(simLimits)}, real ${reasons(real.limits)}`)
      else
        for (const [i, l] of simLimits.entries()) {
          const late = real.limits[i].offsetSeconds - l.offsetSeconds
          if (late < 0 || late > TIME_TOLERANCE_SECONDS + POLL_MS / 1000) problems.push(`ScalingLimited ${l.reason || 'ends'}: simulated at ${l.offsetSeconds}s, seen at ${real.limits[i].offsetSeconds.toFixed(1)}s`)
        }
      if (a.final.replicas !== real.finalReplicas) problems.push(`final replicas: simulated ${a.final.replicas}, real ${real.finalReplicas}`)
      for (const p of problems) console.error(`replay: ${replay}  # ${s.name}: ${p}; real ${show(real.events)}`)
      expect(problems).toEqual([])
      // The scenario exercises what it names: the HPA scaled at least once.
      expect(real.events.length).toBeGreaterThan(0)
    })
  }
})
