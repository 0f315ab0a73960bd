// `kctl reconcile` against the real control plane, standing in for kube-controller-manager (which
// is stopped, except for the closing timing comparison): the dry run, the apply, stale saved
// plans, RBAC, slow start, quota, and an interrupted apply, each checked against what the API
// server then holds.
import {spawn} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, reconcileJson, planJson} from './kctl.js'
import {api, apiOk, controlPlane, controllerManager, deleteNamespace, kubectl, newNamespace, waitUntil} from './setup/cluster.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
const IMAGE = 'registry.invalid/app:1'
const namespaces: string[] = []

async function ns(prefix: string): Promise<string> {
  const name = await newNamespace(prefix)
  namespaces.push(name)
  return name
}

async function replicaSet(namespace: string, name: string, replicas: number, app = name): Promise<any> {
  return apiOk('POST', `/apis/apps/v1/namespaces/${namespace}/replicasets`, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {name},
      spec: {
        replicas,
        selector: {matchLabels: {app}},
        template: {metadata: {labels: {app}, annotations: {'example.com/note': 'from the template'}}, spec: {containers: [{name: 'c', image: IMAGE}]}},
      },
    },
  })
}

async function replicationController(namespace: string, name: string, replicas: number): Promise<any> {
  return apiOk('POST', `/api/v1/namespaces/${namespace}/replicationcontrollers`, {
    body: {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: {name},
      spec: {replicas, selector: {app: name}, template: {metadata: {labels: {app: name}}, spec: {containers: [{name: 'c', image: IMAGE}]}}},
    },
  })
}

async function pod(namespace: string, name: string, labels: Record<string, string>, owner?: any): Promise<any> {
  const ownerReferences = owner
    ? [{apiVersion: owner.apiVersion ?? 'apps/v1', kind: owner.kind ?? 'ReplicaSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true}]
    : undefined
  return apiOk('POST', `/api/v1/namespaces/${namespace}/pods`, {
    body: {apiVersion: 'v1', kind: 'Pod', metadata: {name, labels, ...(ownerReferences ? {ownerReferences} : {})}, spec: {containers: [{name: 'c', image: IMAGE}]}},
  })
}

async function pods(namespace: string): Promise<any[]> {
  return (await apiOk('GET', `/api/v1/namespaces/${namespace}/pods`)).items
}

/** A ResourceQuota whose status says `used` of `hard` pods: quota admission enforces it without the quota controller. */
async function podQuota(namespace: string, hard: number, used: number): Promise<void> {
  await apiOk('POST', `/api/v1/namespaces/${namespace}/resourcequotas`, {body: {apiVersion: 'v1', kind: 'ResourceQuota', metadata: {name: 'pods'}, spec: {hard: {pods: String(hard)}}}})
  await apiOk('PATCH', `/api/v1/namespaces/${namespace}/resourcequotas/pods/status`, {
    contentType: 'application/merge-patch+json',
    body: {status: {hard: {pods: String(hard)}, used: {pods: String(used)}}},
  })
}

const of = (report: any, name: string) => report.results.filter((r: any) => r.controller.name === name)
const owned = (list: any[], owner: any) => list.filter((p) => p.metadata.ownerReferences?.some((r: any) => r.uid === owner.metadata.uid && r.controller))

beforeAll(async () => {
  // kctl stands in for the controller: it must not race it.
  await controllerManager.stop()
})

afterAll(async () => {
  await controllerManager.stop()
  for (const n of namespaces) await deleteNamespace(n).catch(() => {})
})

describe('the dry run (default)', () => {
  it('sends every call with dryRun=All: nothing persists, and what would fail is reported', async () => {
    const n = await ns('dry')
    const web = await replicaSet(n, 'web', 3)
    const api1 = await replicaSet(n, 'api', 1)
    for (const i of [1, 2, 3]) await pod(n, `api-${i}`, {app: 'api'}, api1)
    // Quota already full with api's 3 pods: every create of web is refused by quota admission.
    await podQuota(n, 3, 3)
    const before = await pods(n)

    const {code, report, stderr} = await reconcileJson(['-n', n])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^error: 1 of \d+ actions would fail/m)
    expect(report).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'ApplyReport', mode: 'dry-run', outcome: 'failed', changesPending: true})
    const web1 = of(report, 'web')
    const creates = web1.filter((r: any) => r.action === 'create')
    expect(creates.map((r: any) => r.outcome)).toEqual(['failed', 'skipped', 'skipped'])
    expect(creates[0]).toMatchObject({batch: 1, error: {code: 403, reason: 'Forbidden', message: expect.stringContaining('exceeded quota: pods')}})
    expect(creates[1].skipReason).toMatch(/slow start stops after a batch with a failure/)
    // The status write that follows a failed create carries ReplicaFailure, as the controller's would.
    expect(web1.find((r: any) => r.action === 'updateStatus')).toMatchObject({outcome: 'ok', done: {status: {conditions: [expect.objectContaining({type: 'ReplicaFailure', reason: 'FailedCreate'})]}}})
    const deletes = of(report, 'api').filter((r: any) => r.action === 'delete')
    expect(deletes.map((r: any) => r.outcome)).toEqual(['ok', 'ok'])

    // Nothing changed on the server.
    expect((await pods(n)).map((p) => [p.metadata.name, p.metadata.resourceVersion])).toEqual(before.map((p) => [p.metadata.name, p.metadata.resourceVersion]))
    const webNow = await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)
    expect(webNow.metadata.resourceVersion).toBe(web.metadata.resourceVersion)
  })

  it('--detailed-exitcode: 2 when changes are pending and every call would succeed, 0 when in sync', async () => {
    const n = await ns('dryx')
    await replicaSet(n, 'web', 2)
    const r = await reconcileJson(['-n', n, '--detailed-exitcode'])
    expect(r.code).toBe(2)
    expect(r.report.outcome).toBe('succeeded')
    expect(r.report.results.filter((x: any) => x.action === 'create').every((x: any) => x.outcome === 'ok' && x.done.name.startsWith('web-'))).toBe(true)
    expect(await pods(n)).toEqual([])
  })
})

describe('--apply', () => {
  it('refuses without a terminal to confirm on, unless --yes', async () => {
    const n = await ns('noyes')
    await replicaSet(n, 'web', 1)
    const r = await kctl(['reconcile', '-n', n, '--apply'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toEqual(['error: refusing to --apply without confirmation: standard input is not a terminal (review the plan, then pass --yes)'])
    expect(await pods(n)).toEqual([])
  })

  it('reaches the planned state: creates, deletes, adoption, release; then --until-converged brings the status in sync', async () => {
    const n = await ns('apply')
    const web = await replicaSet(n, 'web', 4)
    const api1 = await replicaSet(n, 'api', 1)
    const legacy = await replicationController(n, 'legacy', 2)
    await pod(n, 'web-owned', {app: 'web'}, web)
    await pod(n, 'web-orphan', {app: 'web'})
    // Owned by web but relabelled: released, and replaced.
    await pod(n, 'web-relabelled', {app: 'elsewhere'}, web)
    for (const i of [1, 2, 3]) await pod(n, `api-${i}`, {app: 'api'}, api1)

    const {code, report, stderr} = await reconcileJson(['-n', n, '--apply', '--yes'])
    expect(code, stderr).toBe(0)
    expect(report).toMatchObject({mode: 'apply', outcome: 'succeeded'})
    expect(report.summary.failed + report.summary.skipped).toBe(0)
    expect(report.summary.byAction).toMatchObject({create: {planned: 4, ok: 4}, delete: {planned: 2, ok: 2}, adopt: {planned: 1, ok: 1}, release: {planned: 1, ok: 1}})

    const now = await pods(n)
    expect(owned(now, web)).toHaveLength(4)
    expect(owned(now, api1)).toHaveLength(1)
    expect(owned(now, {metadata: legacy.metadata})).toHaveLength(2)
    expect(now.find((p) => p.metadata.name === 'web-relabelled').metadata.ownerReferences ?? []).toEqual([])
    expect(now.find((p) => p.metadata.name === 'web-orphan').metadata.ownerReferences).toEqual([
      {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: web.metadata.uid, controller: true, blockOwnerDeletion: true},
    ])
    // Created exactly as the controller would: generateName, template labels and annotations, controller ref.
    const created = report.results.filter((r: any) => r.action === 'create' && r.controller.name === 'web').map((r: any) => r.done.name)
    for (const name of created) {
      const p = now.find((x) => x.metadata.name === name)
      expect(p.metadata).toMatchObject({generateName: 'web-', labels: {app: 'web'}, annotations: {'example.com/note': 'from the template'}})
      expect(p.metadata.ownerReferences).toEqual([{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: web.metadata.uid, controller: true, blockOwnerDeletion: true}])
      expect(p.spec.containers[0].image).toBe(IMAGE)
    }
    const rc = report.results.find((r: any) => r.action === 'create' && r.controller.name === 'legacy')
    expect(now.find((x) => x.metadata.name === rc.done.name).metadata.ownerReferences[0]).toMatchObject({apiVersion: 'v1', kind: 'ReplicationController'})

    // One sync done: the pods are right; only status writes remain (the controller's next sync).
    const after = await planJson(['-n', n])
    expect(after.controllers.flatMap((c: any) => c.actions.map((a: any) => a.type)).filter((t: string) => t !== 'updateStatus')).toEqual([])

    const conv = await reconcileJson(['-n', n, '--apply', '--yes', '--until-converged', '--timeout', '60s'])
    expect(conv.code, conv.stderr).toBe(0)
    expect(conv.report.converged).toBe(true)
    expect((await planJson(['-n', n])).controllers.every((c: any) => c.inSync)).toBe(true)
    const ws = (await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)).status
    expect(ws).toMatchObject({replicas: 4, fullyLabeledReplicas: 4, observedGeneration: 1})
  })

  it('slow-start batch sizes are in the report; quota stops the run after a failing batch, as upstream (1.8.1)', async () => {
    const n = await ns('slow')
    await replicaSet(n, 'big', 20)
    const {code, report} = await reconcileJson(['-n', n, '--apply', '--yes'])
    expect(code).toBe(0)
    expect(report.controllers[0].batches).toEqual([1, 2, 4, 8, 5])
    expect(report.results.filter((r: any) => r.action === 'create').map((r: any) => r.batch)).toEqual([1, 2, 2, 3, 3, 3, 3, ...Array(8).fill(4), ...Array(5).fill(5)])
    expect(await pods(n)).toHaveLength(20)

    const q = await ns('quota')
    await replicaSet(q, 'web', 5)
    await podQuota(q, 2, 0)
    const r = await reconcileJson(['-n', q, '--apply', '--yes'])
    expect(r.code).toBe(1)
    const creates = r.report.results.filter((x: any) => x.action === 'create')
    expect(r.report.controllers[0].batches).toEqual([1, 2])
    expect(creates.filter((x: any) => x.outcome === 'ok')).toHaveLength(2)
    expect(creates.filter((x: any) => x.outcome === 'failed')).toEqual([expect.objectContaining({batch: 2, error: expect.objectContaining({code: 403, message: expect.stringContaining('exceeded quota')})})])
    expect(creates.filter((x: any) => x.outcome === 'skipped')).toHaveLength(2)
    const onServer = await pods(q)
    expect(onServer.map((p) => p.metadata.name).sort()).toEqual(creates.filter((x: any) => x.outcome === 'ok').map((x: any) => x.done.name).sort())
    const status = (await apiOk('GET', `/apis/apps/v1/namespaces/${q}/replicasets/web`)).status
    expect(status.conditions).toEqual([expect.objectContaining({type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: expect.stringContaining('exceeded quota')})])
  })

  it('a namespace deleted between plan and apply: every create is refused, each counted as done as upstream does (no ReplicaFailure)', async () => {
    const n = await ns('ending')
    await replicaSet(n, 'web', 7)
    const saved = join(mkdtempSync(join(tmpdir(), 'kctl-ending-')), 'plan.json')
    writeFileSync(saved, JSON.stringify(await planJson(['-n', n])))
    // No namespace controller runs: the namespace stays Terminating, its ReplicaSet untouched.
    await apiOk('DELETE', `/api/v1/namespaces/${n}`)
    const {code, report, stderr} = await reconcileJson(['-n', n, '--plan', saved, '--apply', '--yes'])
    expect({code, stderr}).toEqual({code: 0, stderr: ''})
    const creates = report.results.filter((r: any) => r.action === 'create')
    expect(report.controllers[0].batches).toEqual([1, 2, 4])
    expect(creates.map((r: any) => [r.outcome, r.done])).toEqual(Array(7).fill(['ok', {namespaceTerminating: true}]))
    expect(await pods(n)).toEqual([])
    const status = (await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)).status
    expect(status.conditions ?? []).toEqual([])
  })
})

describe('a saved plan', () => {
  it('is refused (exit 4) when a pod it deletes changed since planning: that pod is not deleted, nor any other; --replan plans again', async () => {
    const n = await ns('stale')
    const web = await replicaSet(n, 'web', 1)
    for (const i of [1, 2, 3]) await pod(n, `web-${i}`, {app: 'web'}, web)
    const plan = await planJson(['-n', n])
    const victims = plan.controllers[0].actions.filter((a: any) => a.type === 'delete').map((a: any) => a.pod)
    expect(victims).toHaveLength(2)
    const dir = mkdtempSync(join(tmpdir(), 'kctl-plan-'))
    const file = join(dir, 'plan.json')
    writeFileSync(file, JSON.stringify(plan))

    // Someone edits one of the pods the plan deletes.
    await apiOk('PATCH', `/api/v1/namespaces/${n}/pods/${victims[0]}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {touched: 'yes'}}}})

    const r = await kctl(['reconcile', '--plan', file, '--apply', '--yes', '-o', 'json'])
    expect(r.code).toBe(4)
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: saved plan is stale; run kctl plan again \\(or pass --replan\\): pod ${n}/${victims[0]} \\(to delete\\) changed \\(resourceVersion \\d+ → \\d+\\)$`))])
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({outcome: 'refused', refusal: {reason: 'stale'}, plan: {origin: 'saved', file}})
    expect(report.results.every((x: any) => x.outcome === 'skipped')).toBe(true)
    expect((await pods(n)).map((p) => p.metadata.name).sort()).toEqual(['web-1', 'web-2', 'web-3'])

    // Asked to, kctl plans again instead, and applies that plan.
    const replanned = await reconcileJson(['--plan', file, '--replan', '--apply', '--yes'])
    expect(replanned.code, replanned.stderr).toBe(0)
    expect(replanned.report.plan.replanned).toBe(true)
    expect(replanned.stderr).toMatch(/saved plan is stale .*planning again \(--replan\)/)
    expect(await pods(n)).toHaveLength(1)
  })

  it('made against another cluster is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-plan-'))
    const file = join(dir, 'plan.json')
    const n = await ns('other')
    await replicaSet(n, 'web', 1)
    const plan = await planJson(['-n', n])
    plan.source.server = 'https://elsewhere.example:6443'
    writeFileSync(file, JSON.stringify(plan))
    const r = await kctl(['reconcile', '--plan', file, '--apply', '--yes'])
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/saved plan is stale; run kctl plan again: it was made against https:\/\/elsewhere\.example:6443/)
    expect(await pods(n)).toEqual([])
  })
})

describe('the restricted user', () => {
  it('gets one 403 per action it may not do, and nothing is reported as done', async () => {
    const n = await ns('rbac')
    const web = await replicaSet(n, 'web', 3)
    const api1 = await replicaSet(n, 'api', 1)
    for (const i of [1, 2, 3]) await pod(n, `api-${i}`, {app: 'api'}, api1)
    await pod(n, 'web-orphan', {app: 'web'})
    await kubectl(['create', 'role', 'reader', '--verb=get,list,watch', '--resource=pods,replicasets,replicationcontrollers', '-n', n])
    await kubectl(['create', 'rolebinding', 'reader', '--role=reader', '--user=restricted', '-n', n])
    await waitUntil(async () => (await api('GET', `/apis/apps/v1/namespaces/${n}/replicasets`, {as: 'restricted'})).status === 200, {what: 'RBAC for restricted'})
    const before = await pods(n)

    for (const mode of [[], ['--apply', '--yes']]) {
      const {code, report} = await reconcileJson(['-n', n, ...mode], 'restricted')
      expect(code).toBe(1)
      expect(report.summary.ok).toBe(0)
      // web: the adoption is forbidden, so its sync stops there (creates and status not sent).
      const w = of(report, 'web')
      expect(w[0]).toMatchObject({action: 'adopt', outcome: 'failed', error: {code: 403, reason: 'Forbidden', message: expect.stringContaining('User "restricted" cannot patch resource "pods"')}})
      expect(w.slice(1).every((r: any) => r.outcome === 'skipped' && /adoption or release failed/.test(r.skipReason))).toBe(true)
      // api: each delete its own 403; the status write too.
      const a = of(report, 'api')
      expect(a.filter((r: any) => r.action === 'delete').map((r: any) => [r.outcome, r.error.code])).toEqual([
        ['failed', 403],
        ['failed', 403],
      ])
      expect(a.find((r: any) => r.action === 'delete').error.message).toMatch(/cannot delete resource "pods"/)
      expect(a.find((r: any) => r.action === 'updateStatus')).toMatchObject({outcome: 'failed', error: {code: 403, message: expect.stringContaining('replicasets/status')}})
    }
    expect((await pods(n)).map((p) => [p.metadata.name, p.metadata.resourceVersion])).toEqual(before.map((p) => [p.metadata.name, p.metadata.resourceVersion]))
    expect((await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)).metadata.resourceVersion).toBe(web.metadata.resourceVersion)
  })
})

describe('SIGINT during a large create', () => {
  it('stops after the calls in flight and reports exactly what was done (exit 130)', async () => {
    const n = await ns('sigint')
    await replicaSet(n, 'big', 500)
    const child = spawn(process.execPath, [BIN, 'reconcile', '-n', n, '--apply', '--yes', '-o', 'json', '--concurrency', '4'], {
      env: {...process.env, KUBECONFIG: controlPlane().adminKubeconfig, NO_COLOR: '1'},
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    let finished = false
    const exited = new Promise<number>((resolve) =>
      child.on('close', (code, signal) => {
        finished = true
        resolve(code ?? (signal ? 128 : -1))
      }),
    )
    child.stdin.end()
    await waitUntil(async () => finished || (await pods(n)).length >= 20, {timeoutMs: 60_000, intervalMs: 20, what: 'the first creates'})
    expect(finished, `kctl ended before the interrupt: ${stderr}`).toBe(false)
    child.kill('SIGINT')
    const code = await exited
    expect(code, stderr).toBe(130)
    expect(stderr).toMatch(/interrupted: \d+ of 501 actions done/)
    const report = JSON.parse(stdout)
    expect(report.outcome).toBe('interrupted')
    const done = report.results.filter((r: any) => r.action === 'create' && r.outcome === 'ok').map((r: any) => r.done.name).sort()
    const onServer = (await pods(n)).map((p) => p.metadata.name).sort()
    expect(done.length).toBeGreaterThanOrEqual(20)
    expect(done.length).toBeLessThan(500)
    expect(onServer).toEqual(done)
    expect(report.results.filter((r: any) => r.outcome === 'failed')).toEqual([])
    expect(report.results.filter((r: any) => r.outcome === 'skipped').every((r: any) => /interrupted/.test(r.skipReason))).toBe(true)
    expect(report.summary.ok + report.summary.skipped).toBe(501)
  })
})

describe('closing figures (printed, not asserted)', () => {
  it('500 creates: kctl reconcile --apply next to kube-controller-manager\'s own scale-up, same control plane', async () => {
    // Leave no controller behind for kube-controller-manager to act on but the one measured.
    for (const n of namespaces.splice(0)) await deleteNamespace(n).catch(() => {})

    const a = await ns('bench-kctl')
    await replicaSet(a, 'scale', 500)
    const t0 = performance.now()
    const r = await reconcileJson(['-n', a, '--apply', '--yes'])
    const kctlMs = performance.now() - t0
    expect(r.code, r.stderr).toBe(0)
    expect(await pods(a)).toHaveLength(500)
    await deleteNamespace(a)

    await controllerManager.start(['replicaset'])
    const b = await ns('bench-kcm')
    const t1 = performance.now()
    await replicaSet(b, 'scale', 500)
    await waitUntil(async () => (await apiOk('GET', `/api/v1/namespaces/${b}/pods?limit=1`)).metadata.remainingItemCount === 499, {timeoutMs: 120_000, intervalMs: 50, what: '500 pods'})
    const kcmMs = performance.now() - t1
    await controllerManager.stop()
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
    process.stderr.write(
      [
        '[bench] 500 creates (slow-start batches 1, 2, 4 … 245) on one control plane, measured in this run:',
        `[bench]   kctl reconcile --apply --yes: ${s(kctlMs)} for the whole command (process start, list, plan, calls); ${s(r.report.rounds[0].durationMs)} from its first call to its last answer (--concurrency 32)`,
        `[bench]   kube-controller-manager (replicaset controller, informers warm): ${s(kcmMs)} from the ReplicaSet's creation to 500 pods listed`,
      ].join('\n') + '\n',
    )
  })
})
