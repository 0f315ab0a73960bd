// Proves the e2e harness itself: a real, version-stamped kube-apiserver with RBAC, a real ReplicaSet controller,
// and pods that can be made Running/Ready without a kubelet.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {CoreV1Api, KubeConfig} from '@kubernetes/client-node'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {request} from '../../controlplane/http.js'
import {startControlPlane, type ControlPlane} from '../../controlplane/start.js'
import {
  api,
  apiOk,
  bindPod,
  compactEtcdNow,
  controlPlane,
  controllerManager,
  deleteNamespace,
  kubectl,
  makeNode,
  newNamespace,
  restartApiServer,
  setPodStatus,
  waitUntil,
} from './setup/cluster.js'

const versions = JSON.parse(readFileSync(join(import.meta.dirname, '../../controlplane/versions.json'), 'utf8')) as {
  kubernetes: string
}

const rsManifest = (ns: string, name: string, replicas: number) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {name, namespace: ns},
    spec: {
      replicas,
      selector: {matchLabels: {app: name}},
      template: {
        metadata: {labels: {app: name}},
        spec: {containers: [{name: 'c', image: 'registry.k8s.io/pause:3.10'}]},
      },
    },
  })

const podsOf = async (ns: string, app: string) =>
  (await apiOk('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`)).items as any[]

describe('control plane', () => {
  const namespaces: string[] = []
  const ns = async (prefix: string) => {
    const n = await newNamespace(prefix)
    namespaces.push(n)
    return n
  }

  afterAll(async () => {
    await controllerManager.stop()
    for (const n of namespaces) await deleteNamespace(n)
  })

  it(`reports the pinned version ${versions.kubernetes} on /version`, async () => {
    const r = await api('GET', '/version', {as: 'restricted'})
    expect(r.status).toBe(200)
    expect(r.json.gitVersion).toBe(versions.kubernetes)
    expect(r.json.gitTreeState).toBe('clean')
    expect(`v${r.json.major}.${r.json.minor}`).toBe(versions.kubernetes.split('.').slice(0, 2).join('.'))
  })

  it('lets the admin create a namespace and a ReplicaSet (kubectl)', async () => {
    const n = await ns('admin')
    await kubectl(['apply', '-f', '-'], {input: rsManifest(n, 'web', 0)})
    const {stdout} = await kubectl(['get', 'rs', 'web', '-n', n, '-o', 'json'])
    const rs = JSON.parse(stdout)
    expect(rs.metadata.uid).toMatch(/^[0-9a-f-]{36}$/)
    expect(rs.spec.replicas).toBe(0)
  })

  it('gives the restricted user 403 Forbidden when listing pods', async () => {
    const n = await ns('rbac')
    const r = await api('GET', `/api/v1/namespaces/${n}/pods`, {as: 'restricted'})
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({kind: 'Status', reason: 'Forbidden', code: 403, details: {kind: 'pods'}})
    expect(r.json.message).toContain('User "restricted" cannot list resource "pods"')

    // The same through kubectl (v1.36.4, built with the control plane) and @kubernetes/client-node 1.4.0,
    // loading the harness's kubeconfig files.
    const k = await kubectl(['get', 'pods', '-n', n], {kubeconfig: controlPlane().restrictedKubeconfig, allowFailure: true})
    expect(k.code).not.toBe(0)
    expect(k.stderr).toContain('Forbidden')
    const kc = new KubeConfig()
    kc.loadFromFile(controlPlane().restrictedKubeconfig)
    await expect(kc.makeApiClient(CoreV1Api).listNamespacedPod({namespace: n})).rejects.toMatchObject({code: 403})
    const admin = new KubeConfig()
    admin.loadFromFile(controlPlane().adminKubeconfig)
    const list = await admin.makeApiClient(CoreV1Api).listNamespacedPod({namespace: n})
    expect(list.items).toEqual([])
  })

  it('lets a test grant the restricted user a role', async () => {
    const n = await ns('grant')
    await kubectl(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods', '-n', n])
    await kubectl(['create', 'rolebinding', 'pod-reader', '--role=pod-reader', '--user=restricted', '-n', n])
    // RBAC changes reach the authorizer through its informer: allow a moment.
    await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${n}/pods`, {as: 'restricted'})).status === 200, {
      timeoutMs: 10_000,
      what: 'the rolebinding to take effect',
    })
  })

  describe('with kube-controller-manager running only the replicaset controller', () => {
    beforeAll(async () => {
      const t0 = performance.now()
      await controllerManager.start(['replicaset'])
      process.stderr.write(`[e2e] kube-controller-manager ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
    })

    it('creates the pods of a ReplicaSet with replicas=2', async () => {
      const n = await ns('rs')
      await kubectl(['apply', '-f', '-'], {input: rsManifest(n, 'web', 2)})
      const pods = await waitUntil(async () => {
        const p = await podsOf(n, 'web')
        return p.length === 2 ? p : undefined
      }, {timeoutMs: 30_000, what: '2 pods'})
      for (const p of pods) {
        expect(p.metadata.generateName).toBe('web-')
        expect(p.metadata.ownerReferences).toEqual([
          expect.objectContaining({kind: 'ReplicaSet', name: 'web', controller: true, blockOwnerDeletion: true}),
        ])
        expect(p.status.phase).toBe('Pending')
      }
      // Pending, unscheduled pods count as active: the controller is satisfied and reports it.
      const rs = await waitUntil(async () => {
        const r = await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)
        return r.status?.observedGeneration === r.metadata.generation && r.status?.replicas === 2 ? r : undefined
      }, {what: 'rs status'})
      expect(rs.status.readyReplicas ?? 0).toBe(0)
    })

    it('sees a pod bound to a hand-made Node and patched Running/Ready as ready', async () => {
      const n = await ns('ready')
      const node = `node-${n}`
      await makeNode(node)
      await kubectl(['apply', '-f', '-'], {input: rsManifest(n, 'web', 2)})
      const pods = await waitUntil(async () => {
        const p = await podsOf(n, 'web')
        return p.length === 2 ? p : undefined
      }, {what: '2 pods'})
      for (const p of pods) {
        await bindPod(n, p.metadata.name, node)
        const updated = await setPodStatus(n, p.metadata.name, {phase: 'Running', ready: true, readySince: new Date(Date.now() - 60_000)})
        expect(updated.spec.nodeName).toBe(node)
        expect(updated.status.phase).toBe('Running')
        expect(updated.status.conditions).toContainEqual(expect.objectContaining({type: 'Ready', status: 'True'}))
      }
      const {stdout} = await kubectl(['get', 'pods', '-n', n, '-o', 'jsonpath={range .items[*]}{.status.containerStatuses[0].ready}{"\\n"}{end}'])
      expect(stdout.trim().split('\n')).toEqual(['true', 'true'])
      // And the real controller agrees: both count as ready and available.
      await waitUntil(async () => {
        const r = await apiOk('GET', `/apis/apps/v1/namespaces/${n}/replicasets/web`)
        return r.status?.readyReplicas === 2 && r.status?.availableReplicas === 2
      }, {what: 'readyReplicas=2'})
    })
  })

  it('can compact etcd to its current revision', async () => {
    const n = await ns('compact')
    const first = await apiOk('POST', `/api/v1/namespaces/${n}/configmaps`, {body: {metadata: {name: 'a'}}})
    await apiOk('POST', `/api/v1/namespaces/${n}/configmaps`, {body: {metadata: {name: 'b'}}})
    const rev = await compactEtcdNow()
    const old = Number(first.metadata.resourceVersion)
    expect(rev).toBeGreaterThan(old)
    // Reading etcd at the older revision now fails: that history is gone.
    const r = await request(`${controlPlane().etcdEndpoint}/v3/kv/range`, {
      body: {key: Buffer.from('/registry/configmaps/').toString('base64'), revision: String(old)},
    })
    expect(r.body).toContain('required revision has been compacted')
    // Compacting again with nothing written in between is harmless.
    await expect(compactEtcdNow()).resolves.toBeGreaterThanOrEqual(rev)

    // With the watch cache on (the default), a watch from that RV is still served from the cache, so the
    // compaction is invisible to clients; see the --watch-cache=false control plane below for the 410.
  })

  it('survives an apiserver restart on the same address with the same data', async () => {
    const n = await ns('restart')
    await apiOk('POST', `/api/v1/namespaces/${n}/configmaps`, {body: {metadata: {name: 'kept'}}})
    const before = (await api('GET', '/readyz')).status
    expect(before).toBe(200)
    await restartApiServer()
    const cm = await apiOk('GET', `/api/v1/namespaces/${n}/configmaps/kept`)
    expect(cm.metadata.name).toBe('kept')
  })

  describe('a private control plane with --watch-cache=false', () => {
    // Tests that need etcd-driven behaviour (compaction → 410 Expired) start their own control plane; it costs
    // a few seconds and shows that startControlPlane() works from a test worker too.
    let cp: ControlPlane
    beforeAll(async () => {
      cp = await startControlPlane({apiServerArgs: ['--watch-cache=false'], log: () => {}})
    })
    afterAll(async () => {
      await cp?.stop()
    })

    it('turns a compacted resourceVersion into a watch ERROR event: 410 Expired', async () => {
      const ca = readFileSync(cp.caFile)
      const call = (method: string, path: string, body?: unknown) =>
        request(`${cp.server}${path}`, {method, body, token: cp.adminToken, ca})
      await call('POST', '/api/v1/namespaces', {metadata: {name: 'w'}})
      const a = (await call('POST', '/api/v1/namespaces/w/configmaps', {metadata: {name: 'a'}})).json
      // Two more writes: a watch from RV a starts reading etcd at a+1, which must be below the compaction point.
      await call('POST', '/api/v1/namespaces/w/configmaps', {metadata: {name: 'b'}})
      await call('POST', '/api/v1/namespaces/w/configmaps', {metadata: {name: 'c'}})
      await cp.compactEtcd()
      // Errors after the watch is accepted arrive inside the 200 stream as one ERROR event, then it ends.
      const w = await call('GET', `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${a.metadata.resourceVersion}&timeoutSeconds=10`)
      expect(w.status).toBe(200)
      const events = w.body.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
      expect(events).toEqual([
        expect.objectContaining({type: 'ERROR', object: expect.objectContaining({kind: 'Status', code: 410, reason: 'Expired'})}),
      ])
    })
  })
})
