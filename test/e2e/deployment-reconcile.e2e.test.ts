// `kctl reconcile` and `kctl watch` on Deployments, against the real control plane. kctl stands in
// for kube-controller-manager (stopped): it carries out the deployment controller's and the
// ReplicaSet controller's syncs until neither has anything to do; then the real deployment
// controller runs and is the judge — it must find nothing left to change: every ReplicaSet and
// Deployment keeps the resourceVersion kctl left. Also: a stale saved plan is refused (exit 4)
// with nothing written, a dry run writes nothing, and `kctl watch` re-plans a Deployment whose
// template changes.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {podTemplateHash} from '../../src/reconcile/hash/index.js'
import {build, type Built, endState, type Json, SCENARIOS, template, world} from './deployment-worlds.js'
import {kctl, reconcileJson} from './kctl.js'
import {apiOk, controllerManager, controlPlane, deleteNamespace, newNamespace, waitUntil} from './setup/cluster.js'
import {WatchRun} from './watch-run.js'

/** New Deployment, mid-rollout, a scale mid-rollout (proportional), history cleanup, an orphan adopted. */
const JUDGED = ['t1', 't5', 't9', 't21', 't28']
const scenario = (id: string) => SCENARIOS.find((s) => s.id === id)!

/** `namespace/kind/name@resourceVersion` of every Deployment and ReplicaSet (pods are the ReplicaSet controller's). */
async function versions(ns: string): Promise<string[]> {
  return (await world(ns))
    .filter((o) => o.kind !== 'Pod')
    .map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
    .sort()
}

describe('kctl reconcile on Deployments, judged by the deployment controller', () => {
  const built: Built[] = []
  const extra: string[] = []
  /** Left alone by kctl: the controller must write to it, or it did not look. */
  let control: Built

  beforeAll(async () => {
    await controllerManager.stop()
    for (const id of JUDGED) built.push(await build(scenario(id)))
    control = await build(scenario('t3'))
    extra.push(control.ns)
  }, 120_000)

  afterAll(async () => {
    await controllerManager.stop()
    for (const ns of [...built.map((b) => b.ns), ...extra]) await deleteNamespace(ns).catch(() => {})
  })

  it('--apply --until-converged carries out both controllers\' syncs; the real deployment controller then has nothing left to change', async () => {
    const written = new Map<string, {versions: string[]; state: Json}>()
    for (const b of built) {
      const {code, report, stderr} = await reconcileJson(['-n', b.ns, '--apply', '--yes', '--until-converged', '--timeout', '90s'])
      expect({id: b.scenario.id, code, outcome: report.outcome, converged: report.converged}, stderr).toEqual({id: b.scenario.id, code: 0, outcome: 'succeeded', converged: true})
      // The Deployment's writes were sent, and none failed.
      const deploymentResults = report.results.filter((r: Json) => r.controller.kind === 'Deployment')
      expect(deploymentResults.length, b.scenario.id).toBeGreaterThan(0)
      expect(deploymentResults.filter((r: Json) => r.outcome === 'failed')).toEqual([])
      // What the first round planned to create exists by that name.
      const created = report.results.filter((r: Json) => r.action === 'createReplicaSet' && r.outcome === 'ok').map((r: Json) => r.replicaSet)
      const names = (await world(b.ns)).filter((o) => o.kind === 'ReplicaSet').map((o) => o.metadata.name)
      for (const name of created) expect(names, b.scenario.id).toContain(name)
      written.set(b.ns, {versions: await versions(b.ns), state: endState(await world(b.ns))})
    }
    // t1 creates its ReplicaSet; t21 deletes its two oldest revisions.
    expect(written.get(built[0].ns)!.state.replicaSets).toHaveLength(1)
    expect(written.get(built[3].ns)!.state.replicaSets.map((rs: Json) => rs.name)).not.toContain('web-r1')

    // The judge. A Deployment created now proves the controller is syncing; the judged ones were
    // queued before it, at its start, with one kctl left alone, which the controller must write.
    const untouched = await versions(control.ns)
    await controllerManager.start(['deployment'])
    const probe = await newNamespace('dep-probe')
    extra.push(probe)
    await apiOk('POST', `/apis/apps/v1/namespaces/${probe}/deployments`, {
      body: {apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name: 'probe'}, spec: {replicas: 1, selector: {matchLabels: {app: 'web'}}, template: template('A')}},
    })
    await waitUntil(async () => (await apiOk('GET', `/apis/apps/v1/namespaces/${probe}/replicasets`)).items.length > 0, {timeoutMs: 60_000, what: 'the deployment controller to sync'})
    let last = ''
    let stableSince = Date.now()
    await waitUntil(
      async () => {
        const now = (await Promise.all(built.map((b) => versions(b.ns)))).flat().join(',')
        if (now !== last) [last, stableSince] = [now, Date.now()]
        return Date.now() - stableSince > 3000
      },
      {timeoutMs: 60_000, intervalMs: 500, what: 'the deployment controller to settle'},
    )
    const rows: string[] = []
    for (const b of built) {
      const want = written.get(b.ns)!
      const got = {versions: await versions(b.ns), state: endState(await world(b.ns))}
      if (JSON.stringify(got) !== JSON.stringify(want)) rows.push(`${b.scenario.id}\n  kctl left    ${JSON.stringify(want)}\n  controller   ${JSON.stringify(got)}`)
    }
    expect(rows).toEqual([])
    expect(await versions(control.ns), 'the controller synced the Deployment kctl left alone').not.toEqual(untouched)
  }, 300_000)
})

describe('kctl reconcile on Deployments: stale plans, dry runs, and kctl watch', () => {
  const namespaces: string[] = []

  beforeAll(async () => {
    await controllerManager.stop()
  })

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns).catch(() => {})
  })

  it('a saved plan whose ReplicaSet changed is refused (exit 4) and nothing is written; --replan plans again and applies', async () => {
    const b = await build(scenario('t5'))
    namespaces.push(b.ns)
    const plan = await kctl(['plan', '-n', b.ns, '-o', 'json'])
    expect(plan.code).toBe(0)
    const saved = JSON.parse(plan.stdout)
    const d = saved.controllers.find((c: Json) => c.kind === 'Deployment')
    const scaled = d.actions.find((a: Json) => a.type === 'scaleReplicaSet')
    expect(scaled, 'the plan scales a ReplicaSet').toBeDefined()
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-dep-plan-')), 'plan.json')
    writeFileSync(file, plan.stdout)
    // Someone touches the ReplicaSet the plan scales.
    await apiOk('PATCH', `/apis/apps/v1/namespaces/${b.ns}/replicasets/${scaled.replicaSet}`, {
      body: {metadata: {annotations: {'example.com/touched': 'yes'}}},
      contentType: 'application/merge-patch+json',
    })
    const before = await versions(b.ns)
    const stale = await reconcileJson(['--plan', file, '--apply', '--yes'])
    expect(stale.code).toBe(4)
    expect(stale.report.refusal.reason).toBe('stale')
    // Only the ReplicaSet changed: named for the Deployment's write to it and for its own plan.
    const rv = before.find((v) => v.startsWith(`ReplicaSet/${scaled.replicaSet}@`))!.split('@')[1]
    expect(stale.report.refusal.details).toEqual([
      `ReplicaSet ${b.ns}/${scaled.replicaSet} (to scale) changed (resourceVersion ${scaled.resourceVersion} → ${rv})`,
      `ReplicaSet ${b.ns}/${scaled.replicaSet} changed (resourceVersion ${scaled.resourceVersion} → ${rv})`,
    ])
    expect(stale.report.results.every((r: Json) => r.outcome === 'skipped')).toBe(true)
    expect(await versions(b.ns)).toEqual(before)

    const replanned = await reconcileJson(['--plan', file, '--replan', '--apply', '--yes'])
    expect({code: replanned.code, replanned: replanned.report.plan.replanned, outcome: replanned.report.outcome}).toEqual({code: 0, replanned: true, outcome: 'succeeded'})
    const rs = await apiOk('GET', `/apis/apps/v1/namespaces/${b.ns}/replicasets/${scaled.replicaSet}`)
    expect(rs.spec.replicas, JSON.stringify(replanned.report.results.map((r: Json) => [r.controller.name, r.action, r.replicaSet, r.outcome, r.skipReason]))).toBe(scaled.to)
  }, 120_000)

  it('a dry run sends every write with dryRun=All: the server accepts them and nothing changes', async () => {
    const b = await build(scenario('t4'))
    namespaces.push(b.ns)
    const before = await versions(b.ns)
    const {code, report} = await reconcileJson(['-n', b.ns])
    expect(code).toBe(0)
    expect(report.mode).toBe('dry-run')
    // Every write of the plan but the one the controller's own sync loses, and the server said yes.
    const results = report.results.filter((r: Json) => r.controller.kind === 'Deployment')
    expect(results.map((r: Json) => `${r.action} ${r.outcome}`)).toEqual(results.map((r: Json) => `${r.action} ${r.predicted.conflict ? 'skipped' : 'ok'}`))
    expect(results.map((r: Json) => r.action)).toEqual(expect.arrayContaining(['createReplicaSet', 'scaleReplicaSet']))
    expect(await versions(b.ns)).toEqual(before)
  }, 60_000)

  it('kctl watch -o json re-plans a Deployment whose template changes: the new ReplicaSet, by name', async () => {
    const b = await build(scenario('t3'))
    namespaces.push(b.ns)
    const run = new WatchRun(['-n', b.ns], {KUBECONFIG: controlPlane().adminKubeconfig})
    try {
      await run.next('the first plan of the Deployment', (l) => l.kind === 'PlanChange' && l.controller.kind === 'Deployment')
      const from = run.lines.length
      const d = await apiOk('GET', `/apis/apps/v1/namespaces/${b.ns}/deployments/web`)
      await apiOk('PUT', `/apis/apps/v1/namespaces/${b.ns}/deployments/web`, {body: {...d, spec: {...d.spec, template: template('B')}}})
      const change = await run.next(
        'a plan that creates the new ReplicaSet',
        (l) => l.kind === 'PlanChange' && l.controller.kind === 'Deployment' && l.controller.actions.some((a: Json) => a.type === 'createReplicaSet'),
        from,
      )
      expect(change.event).toMatchObject({type: 'MODIFIED', kind: 'Deployment', name: 'web'})
      expect(change.controller.actions.find((a: Json) => a.type === 'createReplicaSet').name).toBe(`web-${podTemplateHash(template('B'), undefined)}`)
    } finally {
      run.kill()
      await run.exited
    }
  }, 60_000)
})
