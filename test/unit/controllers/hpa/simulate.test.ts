// The HPA controller in `kctl simulate --load`: metrics made from the demand (spread over the
// target's Ready pods, stamped so the CPU initialization rules read start and readiness), the
// controller's own memory over the run (stabilization window, initial recommendation, scale-up
// limit), the autoscalers timeline, unmet demand and --max-unmet.
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {detailedExitCode} from '../../../../src/commands/simulate.js'
import {firstSync, loadAnswers, METRIC_WINDOW_SECONDS, perPodTarget, spread} from '../../../../src/controllers/hpa/simulate.js'
import type {HpaObject} from '../../../../src/controllers/hpa/model.js'
import type {PodView} from '../../../../src/model/objects.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {fixtureWorld} from '../../../../src/services/reconcile.js'
import {simulate} from '../../../../src/services/simulate.js'
import {parseLoad} from '../../../../src/simulate/load.js'
import {plainPod} from '../../../../src/sources/pods.js'

const NOW = '2026-11-22T10:00:00Z'
const START = parseRfc3339(NOW)!
const STEP_LOAD = 'deployment/web=cpu:300m@0s,3000m@1m,200m@20m'

const run = (load: string[] | undefined, extra: {maxUnmet?: string; until?: string} = {}) => simulate({filename: ['examples/hpa'], namespace: 'autoscale', now: NOW, load, ...extra})

async function examplePods(): Promise<{pods: PodView[]; hpa: HpaObject}> {
  const {memory} = await fixtureWorld({filename: ['examples/hpa'], namespace: 'autoscale'}, () => NOW, {})
  const snap = memory.snapshot()
  return {pods: [...snap.pods], hpa: snap.hpas![0]}
}

describe('metrics made from a load', () => {
  it('spreads a total in integer thousandths, the remainder to the first', () => {
    expect(spread(1000, 3)).toEqual([334, 333, 333])
    expect(spread(7, 0)).toEqual([])
    expect(spread(0, 2)).toEqual([0, 0])
  })

  it('gives each Ready pod its share of the demand, a pod not Ready 0, stamped with the sync time and a 30 s window', async () => {
    const {pods, hpa} = await examplePods()
    const load = {...parseLoad('deployment/web=cpu:1000m@0s,2000m@1m'), namespace: 'autoscale'}
    const [answer] = loadAnswers(hpa, load, pods, START, START)
    expect(answer).toEqual({
      kind: 'podMetrics',
      items: ['web-5794467bd5-4xk2p', 'web-5794467bd5-9qzrt', 'web-5794467bd5-c7m5w'].map((name, i) => ({
        name,
        timestamp: NOW,
        windowSeconds: METRIC_WINDOW_SECONDS,
        containers: [{name: 'web', usage: {cpu: `${[334, 333, 333][i]}m`}}],
      })),
    })
    const notReady = pods.map((p, i) => (i === 0 ? {...plainPod(p), ready: false} : p))
    const later = START + 90_000_000_000n
    const [after] = loadAnswers(hpa, load, notReady, later, START)
    expect(after.kind === 'podMetrics' && after.items.map((i) => [i.containers[0].usage.cpu, i.timestamp])).toEqual([
      ['0m', '2026-11-22T10:01:30Z'],
      ['1000m', '2026-11-22T10:01:30Z'],
      ['1000m', '2026-11-22T10:01:30Z'],
    ])
    // A metric no series names is answered with an error, never guessed.
    const other = {...parseLoad('deployment/web=memory:1Gi'), namespace: 'autoscale'}
    expect(loadAnswers(hpa, other, pods, START, START)).toEqual([{kind: 'error', message: 'no --load series names cpu'}])
  })

  it('a Ready pod carries its request × the target utilization', async () => {
    const {pods, hpa} = await examplePods()
    expect(perPodTarget(hpa.spec.metrics[0], pods[0])).toBe(100)
  })
})

describe('the HPA controller under --load', () => {
  it('scales up at the legacy limit, then to maxReplicas (ScalingLimited), then down 300 s after the demand fell', async () => {
    const sim = await run([STEP_LOAD])
    expect(sim.notSimulated).toEqual([])
    const [a] = sim.autoscalers!
    expect(a.scaleEvents.map((e) => [e.offsetSeconds, e.from, e.to, e.limitedBy ?? ''])).toEqual([
      [60, 3, 6, 'ScaleUpLimit'],
      [75, 6, 10, 'TooManyReplicas'],
      [1500, 10, 2, ''],
    ])
    expect(a.scaleEvents[2].reason).toBe('All metrics below target')
    expect(a.scalingLimited.map((l) => [l.fromSeconds, l.toSeconds, l.reason])).toEqual([
      [60, 75, 'ScaleUpLimit'],
      [75, 1500, 'TooManyReplicas'],
    ])
    // 3000m on 10 pods at 100m each: unmet from the step up until the demand fell.
    expect(a.unmet).toEqual({metric: 'cpu', seconds: 1140, intervals: [{fromSeconds: 60, toSeconds: 1200}]})
    expect(a.final).toMatchObject({replicas: 2, desired: 2, ready: 2})
    expect(a.syncs).toBe(121)
    // The Deployment and its ReplicaSet followed each write.
    const rsScales = sim.steps.flatMap((s) => s.actions.flatMap((x) => (x.type === 'scaleReplicaSet' ? [[s.offsetSeconds, x.to]] : [])))
    expect(rsScales).toEqual([
      [60, 6],
      [75, 10],
      [1500, 2],
    ])
    expect(sim.deployments[0].verdict.result).toBe('complete')
    expect(sim.summary.incomplete).toEqual([])
  })

  it('keeps its recommendations: a fresh controller cannot scale below the size it first saw for one window', async () => {
    const sim = await run(['deployment/web=cpu:60m'])
    const [a] = sim.autoscalers!
    // ceil(60m / 100m per pod) = 1, held at minReplicas 2; the initial recommendation of 3 (t+0s) still
    // counts at t+5m (stabilizeRecommendation drops only those Before the cutoff): the sync after.
    expect(a.scaleEvents.map((e) => [e.offsetSeconds, e.from, e.to])).toEqual([[315, 3, 2]])
    expect(a.curve[0]).toMatchObject({offsetSeconds: 0, replicas: 3, desired: 3})
  })

  it('counts the new pods only once Ready and out of their metric window: no overshoot from pods still starting', async () => {
    // 450m on 3 pods at 100m each: 4.5 → 5 pods; once they carry it (90m each) it stays at 5.
    const sim = await run(['deployment/web=cpu:450m'], {until: '10m'})
    expect(sim.autoscalers![0].scaleEvents.map((e) => e.to)).toEqual([5])
    // Unmet until the two new pods are Ready (--ready-after 10s): 5 × 100m then carry 450m.
    expect(sim.autoscalers![0].unmet?.intervals).toEqual([{fromSeconds: 0, toSeconds: 10}])
  })

  it('without --load names the HPA as not simulated and adds no autoscalers', async () => {
    const sim = await run(undefined)
    expect(sim.autoscalers).toBeUndefined()
    expect(sim.notSimulated).toEqual([
      'HorizontalPodAutoscaler autoscale/web: 2 actions planned now; no --load names its target: its metrics are read once, not modelled over time',
    ])
    expect(sim.steps.filter((s) => s.controller.kind === 'HorizontalPodAutoscaler')).toEqual([])
  })

  it('--max-unmet names an autoscaler whose demand went unmet longer, and --detailed-exitcode exits 3 for it', async () => {
    const over = await run([STEP_LOAD], {maxUnmet: '5m'})
    expect(over.summary.unmet).toEqual(['HorizontalPodAutoscaler autoscale/web'])
    expect(over.settings.maxUnmetSeconds).toBe(300)
    expect(detailedExitCode(over)).toBe(3)
    const under = await run([STEP_LOAD], {maxUnmet: '20m'})
    expect(under.summary.unmet).toEqual([])
    expect(detailedExitCode(under)).toBe(2)
  })

  it('stores the status of an autoscaling/v1 HPA as the API server shows it: conditions and metric statuses in their annotations, read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-v1-'))
    const example = readFileSync('examples/hpa/web.yaml', 'utf8')
    const v1 = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: autoscale
  uid: 5b0e8f3a-2c41-4d7e-9a10-7e6f4c2b9d20
  resourceVersion: "81250"
  annotations:
    autoscaling.alpha.kubernetes.io/conditions: '[{"type":"AbleToScale","status":"False","lastTransitionTime":"2026-11-20T08:05:15Z","reason":"FailedGetScale"}]'
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
status: {currentReplicas: 3, desiredReplicas: 3}
`
    writeFileSync(join(dir, 'web.yaml'), `${example.slice(0, example.indexOf('apiVersion: autoscaling/v2'))}${v1}`)
    const sim = await simulate({filename: [dir], namespace: 'autoscale', now: NOW, load: ['deployment/web=cpu:300m'], until: '2m'})
    // In sync at 50%: no scale write. The first status write changes the conditions; each later sync
    // reads them and the metric statuses back from their annotations (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_...)
    // and, the load steady, writes nothing.
    const hpaSteps = sim.steps.filter((s) => s.controller.kind === 'HorizontalPodAutoscaler')
    expect(hpaSteps.flatMap((s) => s.actions.map((a) => a.type))).not.toContain('scaleTarget')
    const conditions = (c: ReadonlyArray<{type: string; status: string; reason?: string}>) => c.map((x) => `${x.type}=${x.status}/${x.reason}`)
    const changed = hpaSteps.filter((s) => s.actions.some((a) => a.type === 'updateHpaStatus' && conditions(a.from.conditions).join() !== conditions(a.to.conditions).join()))
    expect(changed.map((s) => s.offsetSeconds)).toEqual([0])
    expect(hpaSteps.filter((s) => s.actions.some((a) => a.type === 'updateHpaStatus')).map((s) => s.offsetSeconds)).toEqual([0])
    expect(sim.autoscalers![0].final.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['AbleToScale=True', 'ScalingActive=True', 'ScalingLimited=False'])
  })

  it('first syncs an HPA created just before the start, and never synced, one sync period after its creation (enqueueHPA, NewDefaultHPARateLimiter)', async () => {
    const created = '2026-11-22T09:59:55Z'
    const fresh = {creationTimestamp: created, status: {currentReplicas: 0, desiredReplicas: 0, currentMetrics: null, conditions: []}}
    expect(firstSync(fresh, START)).toBe(START + 10_000_000_000n)
    // Created a period or more before the start, already synced (it has conditions), or of unknown age: at the start.
    expect(firstSync({...fresh, creationTimestamp: '2026-11-22T09:59:45Z'}, START)).toBe(START)
    expect(firstSync({...fresh, status: {...fresh.status, conditions: [{type: 'AbleToScale', status: 'True'}]}}, START)).toBe(START)
    expect(firstSync({status: fresh.status}, START)).toBe(START)
    // The whole run: 600m on 3 pods at 100m each (ratio 2.0) scales 3→6 at that first sync, t+10s, not at t+0s.
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-fresh-'))
    const example = readFileSync('examples/hpa/web.yaml', 'utf8')
    const hpa = example.slice(example.indexOf('apiVersion: autoscaling/v2'))
    const newHpa = hpa.replace('creationTimestamp: "2026-11-20T08:05:00Z"', `creationTimestamp: "${created}"`).replace(/\nstatus:[\s\S]*$/, '\n')
    writeFileSync(join(dir, 'web.yaml'), `${example.slice(0, example.indexOf('apiVersion: autoscaling/v2'))}${newHpa}`)
    const sim = await simulate({filename: [dir], namespace: 'autoscale', now: NOW, load: ['deployment/web=cpu:600m'], until: '1m'})
    expect(sim.autoscalers![0].scaleEvents.map((e) => [e.offsetSeconds, e.from, e.to])).toEqual([[10, 3, 6]])
    expect(sim.autoscalers![0].syncs).toBe(4)
  })

  it('a StatefulSet target: its max-pods bound follows the largest size the HPA gave it (updateStatefulSet makes pods below spec.replicas only)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-sts-'))
    // examples/statefulset without its claim retention policy (no garbage collector here to delete a scaled-down claim).
    const sts = readFileSync('examples/statefulset/statefulset.yaml', 'utf8').replace(/  persistentVolumeClaimRetentionPolicy: .*\n/, '')
    writeFileSync(
      join(dir, 'db.yaml'),
      `${sts}\n---\napiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: db, namespace: data, uid: 7a0e8f3a-2c41-4d7e-9a10-7e6f4c2b9d20, resourceVersion: "101"}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  minReplicas: 2
  maxReplicas: 8
  metrics: [{type: Pods, pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}}]
`,
    )
    const sim = await simulate({filename: [dir], namespace: 'data', now: NOW, load: ['statefulset/db=rps:30@0s,80@1m,10@10m']})
    expect(sim.autoscalers![0].scaleEvents.map((e) => [e.offsetSeconds, e.from, e.to])).toEqual([
      [60, 3, 6],
      [75, 6, 8],
      [900, 8, 2],
    ])
    const [set] = sim.statefulSets!
    expect(set.replicas).toBe(2)
    expect(set.observed.maxPods).toBe(8)
    // Bounded by the largest spec.replicas (8), not the final 2 nor the 4 it started with.
    expect(set.bounds.maxPods).toBe(8)
    expect(set.verdict.boundsBroken).toEqual([])
    expect(sim.summary.incomplete).toEqual([])
  })

  it('two HPAs on one target: the controller\'s selector map (validateAndParseSelector, hpasControllingPodsUnderSelector) makes both AmbiguousSelector', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-two-'))
    const example = readFileSync('examples/hpa/web.yaml', 'utf8')
    const second = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-2, namespace: autoscale, uid: 5b0e8f3a-2c41-4d7e-9a10-7e6f4c2b9d21, resourceVersion: "81251"}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
`
    writeFileSync(join(dir, 'web.yaml'), `${example}\n${second}`)
    const sim = await simulate({filename: [dir], namespace: 'autoscale', now: NOW, load: [STEP_LOAD], until: '5m'})
    const ambiguous = (s: ReadonlyArray<{type: string; status: string; reason?: string}>) => s.some((c) => c.type === 'ScalingActive' && c.status === 'False' && c.reason === 'AmbiguousSelector')
    // The first to sync at t+0s sees no other registered selector; the second sees the first's;
    // from t+15s each sees the other's: no scale write at all, though the load asks for 10.
    const byName = new Map(sim.autoscalers!.map((a) => [a.name, a]))
    expect([...byName.keys()]).toEqual(['web', 'web-2'])
    for (const a of byName.values()) {
      expect(a.scaleEvents).toEqual([])
      expect(ambiguous(a.final.conditions)).toBe(true)
    }
    const writes = sim.steps.flatMap((s) => (s.controller.kind === 'HorizontalPodAutoscaler' ? s.actions.flatMap((a) => (a.type === 'updateHpaStatus' ? [[s.offsetSeconds, s.controller.name, ambiguous(a.to.conditions)]] : [])) : []))
    // web's first sync finds its status as read (in sync at 50%): no write; web-2's reports the ambiguity.
    expect(writes.slice(0, 2)).toEqual([
      [0, 'web-2', true],
      [15, 'web', true],
    ])
    expect(sim.warnings.some((w) => w.startsWith('HorizontalPodAutoscaler autoscale/web: AmbiguousSelector: pods by selector app=web are controlled by multiple HPAs: [autoscale/web autoscale/web-2]'))).toBe(true)
  })

  it('is deterministic, and a load on a workload not read is refused', async () => {
    expect(JSON.stringify(await run([STEP_LOAD]))).toBe(JSON.stringify(await run([STEP_LOAD])))
    await expect(run(['deployment/api=cpu:1'])).rejects.toThrow('--load: no Deployment "api" in namespace "autoscale" was read')
  })
})
