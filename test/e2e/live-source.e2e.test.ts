// The live source against a real kube-apiserver: kubeconfig handling, pagination, RBAC and
// connection errors, each as a user meets them through bin/run.js.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, kubeconfigFor, planJson} from './kctl.js'
import {apiOk, controlPlane, controllerManager, deleteNamespace, newNamespace} from './setup/cluster.js'

const NOW = '2026-11-22T10:00:00Z'

describe('kctl plan and list against a live cluster', () => {
  let ns: string
  let rsUid: string

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('live')
    const rs = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {name: 'web', labels: {team: 'a'}},
        spec: {
          replicas: 3,
          selector: {matchLabels: {app: 'web'}},
          template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}]}},
        },
      },
    })
    rsUid = rs.metadata.uid
    // Seven owned pods: four too many, listed over several pages when the page size is 2.
    for (let i = 0; i < 7; i++) {
      await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `web-${i}`,
            labels: {app: 'web'},
            ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rsUid, controller: true, blockOwnerDeletion: true}],
          },
          spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}]},
        },
      })
    }
  })

  afterAll(async () => {
    await deleteNamespace(ns).catch(() => {})
  })

  it('plans the namespace: 7 active pods for 3 replicas, 4 unscheduled pods deleted', async () => {
    const plan = await planJson(['-n', ns, '--now', NOW])
    expect(plan.source).toEqual({type: 'cluster', context: expect.any(String), server: controlPlane().server})
    expect(plan.controllers).toHaveLength(1)
    const [c] = plan.controllers
    expect(c).toMatchObject({kind: 'ReplicaSet', namespace: ns, name: 'web', uid: rsUid, desired: 3, active: 7, diff: 4})
    expect(c.actions.filter((a: any) => a.type === 'delete')).toHaveLength(4)
  })

  it('lists page by page: a page size of 2 gives the same plan as one page', async () => {
    const paged = await planJson(['-n', ns, '--now', NOW, '--chunk-size', '2'])
    const whole = await planJson(['-n', ns, '--now', NOW])
    expect(paged.controllers[0].active).toBe(7)
    expect(paged).toEqual(whole)
  })

  it('-l filters the controllers by their own labels', async () => {
    expect((await planJson(['-n', ns, '--now', NOW, '-l', 'team=a'])).controllers).toHaveLength(1)
    expect((await planJson(['-n', ns, '--now', NOW, '-l', 'team=b'])).controllers).toHaveLength(0)
  })

  it('kctl list shows one row per controller', async () => {
    const r = await kctl(['list', '-n', ns, '-o', 'json', '--now', NOW])
    expect(r.code, r.stderr).toBe(0)
    const list = JSON.parse(r.stdout)
    expect(list.items).toEqual([expect.objectContaining({kind: 'ReplicaSet', name: 'web', desired: 3, active: 7, diff: 4, inSync: false})])
  })

  it('--detailed-exitcode exits 2 when changes are pending', async () => {
    const r = await kctl(['plan', '-n', ns, '--now', NOW, '-o', 'json', '--detailed-exitcode'])
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout).summary.delete).toBe(4)
  })

  it('a user without RBAC grants gets one clear 403 line naming the verb, resource and namespace', async () => {
    const r = await kctl(['plan', '-n', ns, '--now', NOW], {as: 'restricted'})
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/forbidden \(403\) to list (replicasets|replicationcontrollers|pods) in namespace "/)
    expect(lines[0]).toContain(ns)
    expect(lines[0]).toContain('User "restricted"')
  })

  it('an unknown context is one line naming the known ones', async () => {
    const r = await kctl(['plan', '--context', 'nope', '-n', ns])
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/context "nope" not found in .*\(known contexts: [^)]+\)/)
  })

  it('an unreachable server is one line, not a stack trace', async () => {
    const file = kubeconfigFor()
    const r = await kctl(['plan', '--kubeconfig', file])
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/cannot reach the API server at https:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('KUBECONFIG with several files: the first file\'s current-context wins and missing files are skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-multi-'))
    const other = kubeconfigFor('elsewhere')
    const env = {KUBECONFIG: [controlPlane().adminKubeconfig, join(dir, 'missing'), other].join(':')}
    const r = await kctl(['plan', '-n', ns, '--now', NOW, '-o', 'json'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).controllers[0].name).toBe('web')
  })
})
