// kctl watch against a real kube-apiserver: the NDJSON stream while kube-controller-manager scales
// a ReplicaSet, a restart of kube-apiserver mid-watch, a forced 410 Gone (a control plane of its
// own without the watch cache, etcd compacted while kctl is cut off), and a user who may list but
// not watch.
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, connect, type Server, type Socket} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {request} from '../../controlplane/http.js'
import {startControlPlane, type ControlPlane} from '../../controlplane/start.js'
import {kctl} from './kctl.js'
import {WatchRun} from './watch-run.js'
import {apiOk, controlPlane, controllerManager, deleteNamespace, grantRestricted, kubectl, newNamespace, restartApiServer, waitUntil} from './setup/cluster.js'


const podBody = (name: string, labels: Record<string, string>, owner?: {name: string; uid: string}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    labels,
    ...(owner ? {ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true}]} : {}),
  },
  spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}]},
})

const rsBody = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {name},
  spec: {
    replicas,
    selector: {matchLabels: {app: name}},
    template: {metadata: {labels: {app: name}}, spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}]}},
  },
})

const types = (c: any) => c.actions.map((a: any) => a.type)

describe('kctl watch on a live cluster', () => {
  const runs: WatchRun[] = []
  const namespaces: string[] = []
  const watch = (args: string[], env: NodeJS.ProcessEnv = {KUBECONFIG: controlPlane().adminKubeconfig}) => {
    const run = new WatchRun(args, env)
    runs.push(run)
    return run
  }

  afterAll(async () => {
    for (const r of runs) r.kill()
    await controllerManager.stop()
    for (const ns of namespaces) await deleteNamespace(ns).catch(() => {})
  })

  describe('while kube-controller-manager runs the replicaset controller', () => {
    beforeAll(async () => {
      await controllerManager.start(['replicaset'])
    })

    it('kubectl scale: the stream shows the diff, then in sync once the pods exist; SIGINT exits 130', async () => {
      const ns = await newNamespace('watch-scale')
      namespaces.push(ns)
      await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {body: rsBody('web', 1)})
      await waitUntil(async () => (await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/replicasets/web`)).status?.replicas === 1, {what: 'the first pod'})

      const run = watch(['-n', ns, '--resync', '1s'])
      const synced = await run.next('synced', (l) => l.kind === 'WatchStatus' && l.status === 'synced')
      expect(synced.controllers).toBe(1)
      const initial = await run.next('the initial plan', (l) => l.kind === 'PlanChange' && l.event.type === 'INITIAL')
      expect(initial.controller).toMatchObject({kind: 'ReplicaSet', namespace: ns, name: 'web', desired: 1, active: 1})
      const mark = run.lines.length

      await kubectl(['scale', 'replicaset', 'web', '-n', ns, '--replicas=3'])
      const scaled = await run.next('the scale-up', (l) => l.kind === 'PlanChange' && l.controller.desired === 3, mark)
      // The queue holds one entry per controller: when the controller's first new pod arrives before
      // the scale is planned (a loaded machine), both are planned at once and the pod is the event named.
      if (scaled.event.kind === 'ReplicaSet') expect(scaled.event).toMatchObject({type: 'MODIFIED', namespace: ns, name: 'web'})
      else expect(scaled.event).toMatchObject({type: 'ADDED', kind: 'Pod', namespace: ns})
      // (All of them, on a very loaded machine: then this one plan is already in sync.)
      const active = scaled.controller.active
      expect(scaled.controller).toMatchObject({desired: 3, diff: active - 3})
      expect(types(scaled.controller).filter((t: string) => t === 'create')).toHaveLength(3 - active)
      // With all 3 pods there, the status write may still be pending (the controller has not written it yet).
      if (active < 3) expect(scaled.inSync).toBe(false)
      else expect(types(scaled.controller).every((t: string) => t === 'updateStatus')).toBe(true)
      expect(scaled.changed).toContain('desired')

      const settled = await run.next('in sync with 3 pods', (l) => l.kind === 'PlanChange' && l.controller.active === 3 && l.inSync, mark)
      expect(settled.controller).toMatchObject({desired: 3, active: 3, diff: 0, actions: []})
      // The pods the controller created are what moved the plan along.
      expect(run.changes('web', mark).some((l) => l.event.kind === 'Pod' && l.event.type === 'ADDED')).toBe(true)
      // Every line is a kctl/v1alpha1 object; every controller is the wire form `plan -o json` gives.
      const plan = JSON.parse((await kctl(['plan', '-n', ns, '-o', 'json'])).stdout)
      expect(Object.keys(settled.controller)).toEqual(Object.keys(plan.controllers[0]))
      expect(run.lines.every((l) => l.apiVersion === 'kctl/v1alpha1')).toBe(true)
      // --resync 1s: every controller planned again each second; an unchanged plan prints nothing.
      const resynced = await run.next('a resync', (l) => l.kind === 'WatchStatus' && l.status === 'resync', mark)
      expect(resynced.controllers).toBe(1)
      const tail = run.lines.length
      await run.next('another resync', (l) => l.kind === 'WatchStatus' && l.status === 'resync', tail)
      expect(run.changes('web', tail)).toEqual([])

      expect(await run.interrupt()).toEqual({code: 130, signal: null})
    })

    it('--until-converged exits 0 on its own once every controller is in sync', async () => {
      const ns = await newNamespace('watch-converge')
      namespaces.push(ns)
      await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {body: rsBody('api', 2)})
      const run = watch(['-n', ns, '--until-converged', '--timeout', '60s'])
      expect(await run.exited).toEqual({code: 0, signal: null})
      expect(run.lines.at(-1)).toMatchObject({kind: 'WatchStatus', status: 'converged', controllers: 1})
      expect(run.changes('api').at(-1)).toMatchObject({inSync: true, controller: {desired: 2, active: 2}})
    })
  })

  describe('without kube-controller-manager (the plan stays what it is)', () => {
    beforeAll(async () => {
      await controllerManager.stop()
    })

    it('--timeout exits 1 naming what is still pending', async () => {
      const ns = await newNamespace('watch-timeout')
      namespaces.push(ns)
      await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {body: rsBody('stuck', 2)})
      const run = watch(['-n', ns, '--until-converged', '--timeout', '3s'])
      const {code} = await run.exited
      expect(code).toBe(1)
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: timed out after 3s with 1 of 1 controllers not in sync: ReplicaSet ${ns}/stuck \\(\\+2 ~1\\)$`))])
      expect(run.lines.at(-1)).toMatchObject({kind: 'WatchStatus', status: 'timeout', pending: [`ReplicaSet/${ns}/stuck`]})
    })

    it('kube-apiserver restarts mid-watch: the watch resumes and misses no change made right after', async () => {
      const ns = await newNamespace('watch-restart')
      namespaces.push(ns)
      const rs = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {body: rsBody('web', 2)})
      for (const name of ['web-a', 'web-b']) await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: podBody(name, {app: 'web'}, {name: 'web', uid: rs.metadata.uid})})

      const run = watch(['-n', ns])
      await run.next('the initial plan', (l) => l.kind === 'PlanChange' && l.controller.active === 2)
      const mark = run.lines.length

      await restartApiServer()
      // Right after the restart, before kctl is back: scale up and add an orphan the RS adopts.
      await apiOk('PATCH', `/apis/apps/v1/namespaces/${ns}/replicasets/web/scale`, {contentType: 'application/merge-patch+json', body: {spec: {replicas: 5}}})
      await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: podBody('stray', {app: 'web'})})

      const after = await run.next('the plan after the restart', (l) => l.kind === 'PlanChange' && l.controller.desired === 5 && l.controller.active === 3, mark)
      expect(types(after.controller).sort()).toEqual(['adopt', 'create', 'create', 'updateStatus'])
      expect(after.controller.actions.find((a: any) => a.type === 'adopt').pod).toBe('stray')
      // It said it lost the watch, and came back (resumed from its resourceVersion, or relisted).
      const statuses = run.lines.slice(mark).filter((l) => l.kind === 'WatchStatus')
      expect(statuses.some((s) => s.status === 'disconnected')).toBe(true)
      expect(statuses.some((s) => s.status === 'reconnected' || s.status === 'relisted')).toBe(true)
      await waitUntil(() => /lost the watch of (pods|replicasets|replicationcontrollers)/.test(run.stderr), {what: 'the lost watch said on stderr'})

      // And the plan it shows is the one `kctl plan` makes from a fresh read.
      const plan = JSON.parse((await kctl(['plan', '-n', ns, '-o', 'json'])).stdout).controllers[0]
      const last = run.changes('web').at(-1).controller
      expect({desired: last.desired, active: last.active, diff: last.diff, actions: types(last)}).toEqual({desired: plan.desired, active: plan.active, diff: plan.diff, actions: types(plan)})
      expect(await run.interrupt()).toEqual({code: 130, signal: null})
    })

    it('a user who may list but not watch gets one clear line and exit 1', async () => {
      const ns = await newNamespace('watch-rbac')
      namespaces.push(ns)
      await grantRestricted(ns, 'list-only', [
        {apiGroups: [''], resources: ['pods', 'replicationcontrollers'], verbs: ['get', 'list']},
        {apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list']},
      ])
      // Listing works for that user (RBAC takes a moment to apply)...
      await waitUntil(async () => (await kctl(['plan', '-n', ns, '-o', 'json'], {as: 'restricted'})).code === 0, {what: 'the role to apply'})
      // ...watching does not.
      const run = watch(['-n', ns], {KUBECONFIG: controlPlane().restrictedKubeconfig})
      const {code} = await run.exited
      expect(code).toBe(1)
      const lines = run.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`^error: forbidden \\(403\\) to watch (pods|replicasets|replicationcontrollers) in namespace "${ns}": .*User "restricted" cannot watch`))
      expect(run.stderr).not.toMatch(/\n\s+at /)
    })
  })
})

/** A TCP relay in front of an apiserver that can cut every connection and refuse new ones. */
class Relay {
  private readonly sockets = new Set<Socket>()
  private blocked = false
  private readonly server: Server
  port = 0

  constructor(private readonly target: number) {
    this.server = createServer((client) => {
      if (this.blocked) return void client.destroy()
      const upstream = connect(this.target, '127.0.0.1')
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    this.port = (this.server.address() as {port: number}).port
  }

  cut(): void {
    this.blocked = true
    for (const s of this.sockets) s.destroy()
  }

  resume(): void {
    this.blocked = false
  }

  close(): void {
    this.cut()
    this.server.close()
  }
}

describe('kctl watch and 410 Gone (a control plane without the watch cache)', () => {
  let cp: ControlPlane
  let relay: Relay
  let run: WatchRun | undefined
  const ns = 'gone'

  const call = async (method: string, path: string, body?: unknown, contentType?: string) => {
    const r = await request(`${cp.server}${path}`, {method, body, contentType, token: cp.adminToken, ca: readFileSync(cp.caFile)})
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: HTTP ${r.status}: ${r.body}`)
    return r.json
  }

  beforeAll(async () => {
    cp = await startControlPlane({binaries: controlPlane().binaries, apiServerArgs: ['--watch-cache=false'], log: () => {}})
    relay = new Relay(Number(new URL(cp.server).port))
    await relay.start()
  })

  afterAll(async () => {
    run?.kill()
    relay?.close()
    await cp?.stop()
  })

  it('watch cut off while pods change and etcd is compacted: relists, delivers the deletes as tombstones, and plans right', async () => {
    await call('POST', '/api/v1/namespaces', {apiVersion: 'v1', kind: 'Namespace', metadata: {name: ns}})
    const rs = await call('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rsBody('web', 3))
    for (const name of ['web-0', 'web-1', 'web-2']) await call('POST', `/api/v1/namespaces/${ns}/pods`, podBody(name, {app: 'web'}, {name: 'web', uid: rs.metadata.uid}))

    // kctl talks to the apiserver through the relay (same certificate: the relay is TCP only).
    const dir = mkdtempSync(join(tmpdir(), 'kctl-gone-'))
    const kubeconfig = join(dir, 'kubeconfig')
    writeFileSync(kubeconfig, readFileSync(cp.adminKubeconfig, 'utf8').replace(cp.server, `https://127.0.0.1:${relay.port}`))
    run = new WatchRun(['-n', ns], {KUBECONFIG: kubeconfig})
    await run.next('the initial plan', (l) => l.kind === 'PlanChange' && l.controller.active === 3)
    const mark = run.lines.length

    relay.cut()
    await run.next('the watch lost', (l) => l.kind === 'WatchStatus' && l.status === 'disconnected', mark)
    await call('DELETE', `/api/v1/namespaces/${ns}/pods/web-0`, {apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0})
    await call('POST', `/api/v1/namespaces/${ns}/pods`, podBody('stray', {app: 'web'}))
    await call('PATCH', `/apis/apps/v1/namespaces/${ns}/replicasets/web/scale`, {spec: {replicas: 5}}, 'application/merge-patch+json')
    const revision = await cp.compactEtcd()
    expect(revision).toBeGreaterThan(0)
    relay.resume()

    const relisted = await run.next('the pods relisted', (l) => l.kind === 'WatchStatus' && l.status === 'relisted' && l.resource === 'pods', mark)
    expect(relisted).toMatchObject({added: 1, deleted: 1})
    expect(relisted.message).toMatch(/^410 Expired/)
    await waitUntil(() => /relisted pods at resourceVersion \d+ \(410 Expired/.test(run.stderr), {what: 'the relist said on stderr'})
    const adopts = (l: any) => l.controller.actions?.some((a: any) => a.type === 'adopt' && a.pod === 'stray')
    const after = await run.next('the plan after the relists', (l) => l.kind === 'PlanChange' && l.controller.desired === 5 && adopts(l), mark)
    expect(after.controller).toMatchObject({active: 3, diff: -2})
    // What changed meanwhile was found by the relists, not the watch: web-0 went as a tombstone.
    expect(after.event.relist).toBe(true)
    expect(after.controller.actions.filter((a: any) => a.type !== 'updateStatus').map((a: any) => (a.type === 'adopt' ? `adopt ${a.pod}` : a.type))).toEqual(['adopt stray', 'create', 'create'])
    const direct = mkdtempSync(join(tmpdir(), 'kctl-gone-direct-'))
    writeFileSync(join(direct, 'kubeconfig'), readFileSync(cp.adminKubeconfig, 'utf8'))
    const planned = await kctl(['plan', '-n', ns, '-o', 'json'], {env: {KUBECONFIG: join(direct, 'kubeconfig')}})
    const plan = JSON.parse(planned.stdout).controllers[0]
    const last = run.changes('web').at(-1).controller
    expect({active: last.active, diff: last.diff, actions: types(last)}).toEqual({active: plan.active, diff: plan.diff, actions: types(plan)})
    expect(await run.interrupt()).toEqual({code: 130, signal: null})
  })
})
