// `kctl reconcile` on StatefulSets and DaemonSets, against the real control plane with
// kube-scheduler and kwok (fake nodes that run pods at once): kctl stands in for
// kube-controller-manager (stopped) and carries out the statefulset and daemonset controllers'
// syncs until the workloads are up; then the real controllers run and are the judge — they must
// find nothing left to change: every StatefulSet, DaemonSet, pod, claim and ControllerRevision
// keeps the resourceVersion kctl left. Also: a dry run writes nothing, and a stale saved plan is
// refused (exit 4) with nothing written; `kctl watch` re-plans a StatefulSet when it changes, and
// a DaemonSet when a Node changes; rolling updates of both (the DaemonSet's a random choice made
// by name) leave the real controllers nothing to change either.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {startKwok, type Kwok} from '../../controlplane/fake-nodes.js'
import type {Component} from '../../controlplane/procs.js'
import {startScheduler} from '../../controlplane/start.js'
import {kctl, reconcileJson} from './kctl.js'
import {WatchRun} from './watch-run.js'
import {api, apiOk, controllerManager, controlPlane, deleteNamespace, newNamespace, waitUntil} from './setup/cluster.js'

type Json = Record<string, any>

const spec = {containers: [{name: 'c', image: 'registry.invalid/app:1'}]}

/** `kind/name@resourceVersion` of every object the two controllers write in `ns`. */
async function versions(ns: string): Promise<string[]> {
  const out: string[] = []
  for (const [path, kind] of [
    [`/apis/apps/v1/namespaces/${ns}/statefulsets`, 'StatefulSet'],
    [`/apis/apps/v1/namespaces/${ns}/daemonsets`, 'DaemonSet'],
    [`/apis/apps/v1/namespaces/${ns}/controllerrevisions`, 'ControllerRevision'],
    [`/api/v1/namespaces/${ns}/persistentvolumeclaims`, 'PersistentVolumeClaim'],
    [`/api/v1/namespaces/${ns}/pods`, 'Pod'],
  ]) {
    for (const o of (await apiOk('GET', path)).items) out.push(`${kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
  }
  return out.sort()
}

const readyPods = async (ns: string, app: string) =>
  (await apiOk('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`)).items.filter(
    (p: Json) => !p.metadata.deletionTimestamp && p.status.phase === 'Running' && p.status.conditions?.some((c: Json) => c.type === 'Ready' && c.status === 'True'),
  )

/**
 * The StatefulSets and DaemonSets are in sync. (The headless Service's endpoints are planned and
 * written by reconcile too, as no endpoint controller runs here; they are not what is judged.)
 */
function workloadsInSync(plan: Json): boolean {
  const workloads = plan.controllers.filter((c: Json) => c.kind === 'StatefulSet' || c.kind === 'DaemonSet')
  return workloads.length === 3 && workloads.every((c: Json) => c.inSync) // db, cache and agent
}

describe('kctl reconcile on StatefulSets and DaemonSets, judged by the real controllers', () => {
  let ns: string
  let other: string
  let scheduler: Component | undefined
  let kwok: Kwok | undefined

  beforeAll(async () => {
    await controllerManager.stop()
    const info = controlPlane()
    scheduler = await startScheduler({info, log: () => {}})
    kwok = await startKwok({info, nodes: 2, stages: 'fast', nodeNamePrefix: 'wl-reconcile'})
    ns = await newNamespace('wlr')
    other = await newNamespace('wlr-judge')
    // Only these nodes run the DaemonSet (other files may leave nodes behind).
    for (const n of kwok.nodes) await apiOk('PATCH', `/api/v1/nodes/${n}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {[`kctl-${ns}`]: 'yes'}}}})
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'db'}, spec: {clusterIP: 'None', selector: {app: 'db'}}}})
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: {name: 'db'},
        spec: {replicas: 3, serviceName: 'db', selector: {matchLabels: {app: 'db'}}, template: {metadata: {labels: {app: 'db'}}, spec}},
      },
    })
    // Parallel, with claims (which nothing binds here: their pods stay Pending, as Parallel allows).
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: {name: 'cache'},
        spec: {
          replicas: 3,
          serviceName: 'db',
          podManagementPolicy: 'Parallel',
          ordinals: {start: 2},
          selector: {matchLabels: {app: 'cache'}},
          template: {metadata: {labels: {app: 'cache'}}, spec: {...spec, containers: [{...spec.containers[0], volumeMounts: [{name: 'data', mountPath: '/data'}]}]}},
          volumeClaimTemplates: [{metadata: {name: 'data', labels: {tier: 'x'}}, spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}}}],
          persistentVolumeClaimRetentionPolicy: {whenDeleted: 'Delete', whenScaled: 'Delete'},
        },
      },
    })
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: {name: 'agent'},
        spec: {selector: {matchLabels: {app: 'agent'}}, template: {metadata: {labels: {app: 'agent'}}, spec: {...spec, nodeSelector: {[`kctl-${ns}`]: 'yes'}}}},
      },
    })
  }, 120_000)

  afterAll(async () => {
    await controllerManager.stop()
    await kwok?.stop()
    await scheduler?.stop()
    const background = {body: {kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background'}}
    for (const n of [ns, other]) {
      if (!n) continue
      for (const plural of ['statefulsets', 'daemonsets', 'controllerrevisions']) await api('DELETE', `/apis/apps/v1/namespaces/${n}/${plural}`, background).catch(() => {})
      await api('DELETE', `/api/v1/namespaces/${n}/persistentvolumeclaims`).catch(() => {})
      await deleteNamespace(n).catch(() => {})
    }
    for (const n of kwok?.nodes ?? []) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
  })

  it('a dry run sends every write with dryRun=All and changes nothing', async () => {
    const before = await versions(ns)
    const {code, report} = await reconcileJson(['-n', ns])
    expect(code).toBe(0)
    expect(report.mode).toBe('dry-run')
    const sent = report.results.map((r: Json) => `${r.controller.name}:${r.action}:${r.outcome}`)
    expect(sent).toContain('db:createControllerRevision:ok')
    expect(sent).toContain('db:createStatefulPod:ok')
    expect(sent).toContain('agent:createDaemonPod:ok')
    expect(report.summary.failed).toBe(0)
    expect(await versions(ns)).toEqual(before)
  })

  it('a stale saved plan is refused with exit 4, and nothing is written', async () => {
    const plan = await kctl(['plan', '-n', ns, '-o', 'json'])
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-wlr-')), 'plan.json')
    writeFileSync(file, plan.stdout)
    await apiOk('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/db`, {contentType: 'application/merge-patch+json', body: {metadata: {annotations: {touched: 'yes'}}}})
    const before = await versions(ns)
    const {code, report, stderr} = await reconcileJson(['-n', ns, '--plan', file, '--apply', '--yes'])
    expect(code).toBe(4)
    expect(stderr).toMatch(/saved plan is stale.*StatefulSet \S+\/db changed \(resourceVersion/)
    expect(report.outcome).toBe('refused')
    expect(await versions(ns)).toEqual(before)
  })

  it('carries the syncs out until the workloads are up; the real controllers then find nothing to change', async () => {
    const rounds: Json[] = []
    // OrderedReady waits for each pod to run: reconcile again until every pod kctl created is Ready.
    await waitUntil(
      async () => {
        const {code, report, stderr} = await reconcileJson(['-n', ns, '--apply', '--yes', '--until-converged', '--timeout', '60s'])
        if (code !== 0 && code !== 2) throw new Error(`reconcile exited ${code}: ${stderr}`)
        rounds.push(report)
        const plan = JSON.parse((await kctl(['plan', '-n', ns, '-o', 'json'])).stdout)
        const up = (await readyPods(ns, 'db')).length === 3 && (await readyPods(ns, 'agent')).length === 2
        return up && workloadsInSync(plan) ? true : undefined
      },
      {what: 'kctl reconcile to bring the StatefulSets and the DaemonSet up', timeoutMs: 90_000},
    )
    const results = rounds.flatMap((r) => r.results)
    expect(results.filter((r: Json) => r.outcome !== 'ok' && r.outcome !== 'skipped')).toEqual([])
    // The Parallel set's three pods went out in slow-start batches (1, then 2), each after its claim.
    const parallel = rounds.flatMap((r) => r.controllers).find((c: Json) => c.name === 'cache' && c.batches)
    expect(parallel?.batches).toEqual([2, 4])
    const pods: Json[] = (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items
    expect(pods.filter((p) => p.metadata.labels.app === 'db').map((p) => p.metadata.name).sort()).toEqual(['db-0', 'db-1', 'db-2'])
    expect(pods.filter((p) => p.metadata.labels.app === 'cache').map((p) => p.metadata.name).sort()).toEqual(['cache-2', 'cache-3', 'cache-4'])
    const claims: Json[] = (await apiOk('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims`)).items
    expect(claims.map((c) => c.metadata.name).sort()).toEqual(['data-cache-2', 'data-cache-3', 'data-cache-4'])
    const after = await versions(ns)

    // The judge: a StatefulSet and a DaemonSet elsewhere that the controllers must bring up (so
    // they have synced everything), and nothing of ours touched.
    await apiOk('POST', `/apis/apps/v1/namespaces/${other}/statefulsets`, {
      body: {apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: {name: 'judge'}, spec: {replicas: 1, serviceName: 'judge', selector: {matchLabels: {app: 'judge'}}, template: {metadata: {labels: {app: 'judge'}}, spec}}},
    })
    await controllerManager.start(['statefulset', 'daemonset'])
    await waitUntil(async () => ((await readyPods(other, 'judge')).length === 1 ? true : undefined), {what: 'the statefulset controller to run the judge', timeoutMs: 60_000})
    // One more resync's worth of quiet for the daemonset controller's own first pass.
    await new Promise((r) => setTimeout(r, 3000))
    expect(await versions(ns)).toEqual(after)
  }, 240_000)

  it('kctl watch re-plans a StatefulSet when it changes, and a DaemonSet when a Node changes', async () => {
    await controllerManager.stop()
    const run = new WatchRun(['-n', ns], {KUBECONFIG: controlPlane().adminKubeconfig})
    try {
      await run.next('the first plan of the StatefulSet', (l) => l.kind === 'PlanChange' && l.controller.kind === 'StatefulSet' && l.controller.name === 'db')
      let from = run.lines.length
      await apiOk('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/db`, {contentType: 'application/merge-patch+json', body: {spec: {replicas: 4}}})
      const change = await run.next(
        'a plan that creates db-3',
        (l) => l.kind === 'PlanChange' && l.controller.name === 'db' && l.controller.actions.some((a: Json) => a.type === 'createStatefulPod' && a.pod === 'db-3'),
        from,
      )
      expect(change.event).toMatchObject({type: 'MODIFIED', kind: 'StatefulSet', name: 'db'})
      // A node the DaemonSet selects, labelled away: its pod there is to go.
      from = run.lines.length
      const node = kwok!.nodes[0]
      await apiOk('PATCH', `/api/v1/nodes/${node}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {[`kctl-${ns}`]: 'no'}}}})
      const ds = await run.next(
        'a DaemonSet plan that deletes the pod on the relabelled node',
        (l) => l.kind === 'PlanChange' && l.controller.kind === 'DaemonSet' && l.controller.actions.some((a: Json) => a.type === 'deleteDaemonPod' && a.node === node && a.reason === 'not-eligible'),
        from,
      )
      expect(ds.event).toMatchObject({type: 'MODIFIED', kind: 'Node', name: node})
    } finally {
      run.kill()
      await run.exited
    }
  }, 60_000)

  it('rolling updates: a new template of each, carried out until done, and again nothing left for the real controllers', async () => {
    await controllerManager.stop()
    for (const n of kwok!.nodes) await apiOk('PATCH', `/api/v1/nodes/${n}`, {contentType: 'application/merge-patch+json', body: {metadata: {labels: {[`kctl-${ns}`]: 'yes'}}}})
    const image = {spec: {template: {spec: {containers: [{name: 'c', image: 'registry.invalid/app:2'}]}}}}
    await apiOk('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/db`, {contentType: 'application/strategic-merge-patch+json', body: image})
    await apiOk('PATCH', `/apis/apps/v1/namespaces/${ns}/daemonsets/agent`, {contentType: 'application/strategic-merge-patch+json', body: image})
    const reports: Json[] = []
    const updated = async (app: string, want: number) => (await readyPods(ns, app)).filter((p: Json) => p.spec.containers[0].image.endsWith(':2')).length === want
    await waitUntil(
      async () => {
        const {code, report, stderr} = await reconcileJson(['-n', ns, '--apply', '--yes', '--until-converged', '--timeout', '60s'])
        if (code !== 0 && code !== 2) throw new Error(`reconcile exited ${code}: ${stderr}`)
        reports.push(report)
        const plan = JSON.parse((await kctl(['plan', '-n', ns, '-o', 'json'])).stdout)
        return (await updated('db', 4)) && (await updated('agent', 2)) && workloadsInSync(plan) ? true : undefined
      },
      {what: 'the rolling updates to finish', timeoutMs: 120_000},
    )
    const results = reports.flatMap((r) => r.results)
    expect(results.filter((r: Json) => r.outcome === 'failed')).toEqual([])
    // The StatefulSet replaced its old pods one at a time, from the highest ordinal (db-3, scaled up
    // by the watch test, was created at the new revision); the DaemonSet one node at a time, a
    // random choice made by name.
    expect(results.filter((r: Json) => r.controller.name === 'db' && r.action === 'deleteStatefulPod').map((r: Json) => r.predicted.pod)).toEqual(['db-2', 'db-1', 'db-0'])
    const chosen = results.filter((r: Json) => r.action === 'chooseDaemonPods')
    expect(chosen.map((r: Json) => r.done?.chosen?.length)).toEqual([1])
    expect(reports.some((r) => r.notes.some((n: string) => n.includes('chooseDaemonPods')))).toBe(true)
    const after = await versions(ns)
    await apiOk('POST', `/apis/apps/v1/namespaces/${other}/statefulsets`, {
      body: {apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: {name: 'judge2'}, spec: {replicas: 1, serviceName: 'judge2', selector: {matchLabels: {app: 'judge2'}}, template: {metadata: {labels: {app: 'judge2'}}, spec}}},
    })
    await controllerManager.start(['statefulset', 'daemonset'])
    await waitUntil(async () => ((await readyPods(other, 'judge2')).length === 1 ? true : undefined), {what: 'the statefulset controller to run the second judge', timeoutMs: 60_000})
    await new Promise((r) => setTimeout(r, 3000))
    expect(await versions(ns)).toEqual(after)
  }, 240_000)
})
