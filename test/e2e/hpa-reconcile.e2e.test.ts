// `kctl reconcile` and `kctl watch` on HorizontalPodAutoscalers, against the real control plane with
// the fake metrics APIs (controlplane/fake-metrics.ts) and no controller running. Each world: a
// Deployment of 3 pods requesting 500m CPU each, brought in sync by kctl itself (its ReplicaSet, its
// pods, their statuses), its pods then reported Running and Ready as a kubelet would, their CPU
// samples served by the fake, and an HPA at 50% of the request.
//   - `reconcile --apply` writes the scale through the Deployment's scale subresource and the HPA's
//     status: on the server they are what the plan said, and what kube-controller-manager's own HPA
//     controller writes for the same world (built in another namespace);
//   - a saved plan whose Deployment changed since planning is refused (exit 4) with nothing written;
//   - `kctl watch` plans the HPA again once the metrics change (read every sync period, 15 s).
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {FakeMetrics} from '../../controlplane/fake-metrics.js'
import {kctl, reconcileJson} from './kctl.js'
import {apiOk, controllerManager, controlPlane, deleteNamespace, fakeMetrics, newNamespace, waitUntil} from './setup/cluster.js'
import {WatchRun} from './watch-run.js'

type Json = Record<string, any>

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const LABELS = {app: 'web'}

const deployment = (replicas: number): Json => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {name: 'web', labels: LABELS},
  spec: {
    replicas,
    selector: {matchLabels: LABELS},
    template: {metadata: {labels: LABELS}, spec: {containers: [{name: 'main', image: 'registry.invalid/web:1', resources: {requests: {cpu: '500m'}}}]}},
  },
})

const hpa: Json = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: {name: 'web', labels: LABELS},
  spec: {
    scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'},
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [{type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 50}}}],
  },
}

/** kctl carries out every other controller's syncs until none has anything left. */
async function settle(ns: string): Promise<void> {
  const {code, report, stderr} = await reconcileJson(['-n', ns, '--apply', '--yes', '--until-converged', '--timeout', '60s'])
  expect(code, `${stderr} ${JSON.stringify(report.refusal ?? report.outcome)}`).toBe(0)
}

async function pods(ns: string): Promise<Json[]> {
  return (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items
}

/** Every pod Running and Ready, started an hour ago (past the CPU initialization period), as a kubelet reports it. */
async function runPods(ns: string): Promise<void> {
  const t0 = Date.now()
  for (const p of await pods(ns)) {
    await apiOk('PATCH', `/api/v1/namespaces/${ns}/pods/${p.metadata.name}/status`, {
      contentType: 'application/merge-patch+json',
      body: {status: {phase: 'Running', startTime: iso(t0 - 3_600_000), conditions: [{type: 'Ready', status: 'True', lastTransitionTime: iso(t0 - 3_580_000)}]}},
    })
  }
}

/** Each pod's CPU sample, 5 s old. */
async function serveCpu(fake: FakeMetrics, ns: string, cpu: string): Promise<void> {
  const at = iso(Date.now() - 5000)
  const items = (await pods(ns)).map((p) => ({name: p.metadata.name, labels: p.metadata.labels, timestamp: at, window: '30s', containers: [{name: 'main', usage: {cpu}}]}))
  await fake.set(ns, {pods: items.sort((a, b) => (a.name < b.name ? -1 : 1))})
}

/** A Deployment of 3 Ready pods in sync, its samples at `cpu` each, and the HPA. */
async function buildWorld(fake: FakeMetrics, cpu: string): Promise<string> {
  const ns = await newNamespace('hpa-rec')
  await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deployment(3)})
  await settle(ns)
  await runPods(ns)
  await settle(ns)
  await serveCpu(fake, ns, cpu)
  await apiOk('POST', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {body: hpa})
  return ns
}

const conditions = (s: Json | undefined) => (s?.conditions ?? []).map((c: Json) => `${c.type} ${c.status} ${c.reason}: ${c.message}`)
/** The status as the plan wrote it and the server keeps it: times only as set or not. */
const statusView = (s: Json | undefined) => ({
  currentReplicas: s?.currentReplicas,
  desiredReplicas: s?.desiredReplicas,
  currentMetrics: s?.currentMetrics ?? null,
  conditions: conditions(s),
  lastScaleTime: s?.lastScaleTime !== undefined,
})

async function savedPlan(ns: string): Promise<{file: string; plan: Json}> {
  const r = await kctl(['plan', '-n', ns, '-o', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const file = join(mkdtempSync(join(tmpdir(), 'kctl-hpa-plan-')), 'plan.json')
  writeFileSync(file, r.stdout)
  return {file, plan: JSON.parse(r.stdout)}
}

const hpaPlanOf = (plan: Json) => plan.controllers.find((c: Json) => c.kind === 'HorizontalPodAutoscaler')

describe('kctl reconcile and watch on an HPA', () => {
  let fake: FakeMetrics
  const namespaces: string[] = []
  // Built together: one for kctl's apply; one for a stale saved plan and the watch (neither writes
  // anything the HPA reads), then for the real controller.
  let applied: string
  let judged: string
  /** What kctl's apply left on the server, for the real controller to match (run last: it syncs every namespace). */
  let kctlWrote: {replicas: number; status: Json} | undefined

  beforeAll(async () => {
    await controllerManager.stop()
    fake = await fakeMetrics.start()
    ;[applied, judged] = await Promise.all([buildWorld(fake, '450m'), buildWorld(fake, '450m')])
    namespaces.push(applied, judged)
  }, 150_000)

  afterAll(async () => {
    await controllerManager.stop()
    await fakeMetrics.stop()
    for (const ns of namespaces) await deleteNamespace(ns).catch(() => {})
  })

  it('reconcile --apply writes the scale through the scale subresource, then the status: what the plan said', async () => {
    const {file, plan} = await savedPlan(applied)
    // Only the HPA has work: kctl settled the Deployment, its ReplicaSet and pods.
    expect(plan.controllers.filter((c: Json) => !c.inSync).map((c: Json) => c.kind)).toEqual(['HorizontalPodAutoscaler'])
    const planned = hpaPlanOf(plan)
    // 450m of 500m is 90% against 50%: ceil(1.8 × 3) = 6, within max(2 × 3, 4).
    expect(planned.actions.map((a: Json) => (a.type === 'scaleTarget' ? `scale ${a.target.kind}/${a.target.name} ${a.from}→${a.to}` : a.type))).toEqual([
      'scale Deployment/web 3→6',
      'updateHpaStatus',
    ])
    const before = await apiOk('GET', `/apis/apps/v1/namespaces/${applied}/deployments/web`)
    const write = planned.actions[0]
    expect({uid: write.uid, resourceVersion: write.resourceVersion}).toEqual({uid: before.metadata.uid, resourceVersion: before.metadata.resourceVersion})

    const {code, report, stderr} = await reconcileJson(['--plan', file, '--apply', '--yes'])
    expect(code, stderr).toBe(0)
    expect(report.results.map((r: Json) => `${r.controller.kind} ${r.action} ${r.outcome}`)).toEqual([
      'HorizontalPodAutoscaler scaleTarget ok',
      'HorizontalPodAutoscaler updateHpaStatus ok',
    ])
    const after = await apiOk('GET', `/apis/apps/v1/namespaces/${applied}/deployments/web`)
    expect(after.spec.replicas).toBe(6)
    // The scale subresource changes spec.replicas only: a new generation, the template untouched.
    expect(after.metadata.generation).toBe(before.metadata.generation + 1)
    expect(after.spec.template).toEqual(before.spec.template)
    const written = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${applied}/horizontalpodautoscalers/web`)
    expect(statusView(written.status)).toEqual(statusView(planned.status))
    expect(written.status.lastScaleTime).toBe(planned.status.lastScaleTime)

    kctlWrote = {replicas: after.spec.replicas, status: statusView(written.status)}
  }, 120_000)

  it('a saved plan whose Deployment changed is refused (exit 4): nothing is scaled, no status written', async () => {
    const {file, plan} = await savedPlan(judged)
    expect(hpaPlanOf(plan).actions.map((a: Json) => a.type)).toEqual(['scaleTarget', 'updateHpaStatus'])
    // Someone touches the Deployment between plan and apply.
    const touched = await apiOk('PATCH', `/apis/apps/v1/namespaces/${judged}/deployments/web`, {
      body: {metadata: {annotations: {'example.com/touched': 'yes'}}},
      contentType: 'application/merge-patch+json',
    })
    const hpaBefore = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${judged}/horizontalpodautoscalers/web`)
    const r = await kctl(['reconcile', '--plan', file, '--apply', '--yes'])
    expect(r.code).toBe(4)
    const write = hpaPlanOf(plan).actions[0]
    expect(r.stderr.trim().split('\n')[0]).toBe(
      `error: saved plan is stale; run kctl plan again (or pass --replan): Deployment ${judged}/web (to scale) changed (resourceVersion ${write.resourceVersion} → ${touched.metadata.resourceVersion})`,
    )
    const after = await apiOk('GET', `/apis/apps/v1/namespaces/${judged}/deployments/web`)
    expect({replicas: after.spec.replicas, resourceVersion: after.metadata.resourceVersion}).toEqual({replicas: 3, resourceVersion: touched.metadata.resourceVersion})
    const hpaAfter = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${judged}/horizontalpodautoscalers/web`)
    expect(hpaAfter.metadata.resourceVersion).toBe(hpaBefore.metadata.resourceVersion)
  }, 60_000)

  it('kctl watch plans the HPA again when its metrics change', async () => {
    const watch = new WatchRun(['-n', judged], {KUBECONFIG: controlPlane().adminKubeconfig})
    try {
      const hpaChange = (l: Json) => l.kind === 'PlanChange' && l.controller?.kind === 'HorizontalPodAutoscaler' && l.controller.name === 'web'
      const scaleTo = (l: Json) => l.controller.actions.find((a: Json) => a.type === 'scaleTarget')?.to
      const first = await watch.next('the HPA\'s first plan', (l) => hpaChange(l) && l.event.type === 'INITIAL')
      expect(scaleTo(first)).toBe(6)
      const mark = watch.lines.length
      // 100m of 500m is 20% against 50%: a proposal of ceil(0.4 × 3) = 2, which the controller's initial
      // recommendation (3, its first sync) holds for the stabilization window: no scale write.
      await serveCpu(fake, judged, '100m')
      const next = await watch.next('the HPA planned again with the new metrics', (l) => hpaChange(l) && scaleTo(l) === undefined, mark, 60_000)
      expect(next.event.type).toBe('CLOCK')
      expect(next.controller.hpa.proposals[0].replicas).toBe(2)
    } finally {
      await watch.interrupt()
      // The real controller judges this world next, with the samples kctl's apply saw.
      await serveCpu(fake, judged, '450m')
    }
  }, 90_000)

  it('the HPA controller writes the same scale and status for the same world', async () => {
    expect(kctlWrote, 'the apply test ran first').toBeDefined()
    await controllerManager.start(['horizontalpodautoscaling'], ['--horizontal-pod-autoscaler-sync-period=3s'])
    try {
      const real = await waitUntil(
        async () => {
          const h = await apiOk('GET', `/apis/autoscaling/v2/namespaces/${judged}/horizontalpodautoscalers/web`)
          return h.status?.conditions?.length ? h : undefined
        },
        {timeoutMs: 60_000, what: 'the HPA controller to sync the judged HPA'},
      )
      const scaled = await apiOk('GET', `/apis/apps/v1/namespaces/${judged}/deployments/web`)
      expect({replicas: scaled.spec.replicas, status: statusView(real.status)}).toEqual(kctlWrote)
    } finally {
      await controllerManager.stop()
    }
  }, 90_000)
})
