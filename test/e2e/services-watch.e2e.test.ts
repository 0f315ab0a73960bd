// kctl watch follows Services on a real kube-apiserver: a pod that turns Ready (reported through
// pods/status, as a kubelet would) re-plans its Service's endpoints; the real endpointslice and
// endpoint controllers then write the slice and the Endpoints, and their events bring the plan in
// sync; an identity that may not list EndpointSlices gets Services left out, said once.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {apiOk, bindPod, controlPlane, controllerManager, deleteNamespace, grantRestricted, makeNode, newNamespace, setPodStatus, waitUntil} from './setup/cluster.js'
import {kctl} from './kctl.js'
import {WatchRun} from './watch-run.js'

type Json = any

const serviceChange = (l: Json) => l.kind === 'PlanChange' && l.controller?.kind === 'Service' && l.controller.name === 'web'
const verdict = (l: Json) => l.controller.service.pods.find((p: Json) => p.pod === 'web-1')?.slice

describe('kctl watch follows Services', () => {
  const runs: WatchRun[] = []
  let ns: string
  const node = () => `${ns}-n`
  const watch = (args: string[], kubeconfig = controlPlane().adminKubeconfig) => {
    const run = new WatchRun(args, {KUBECONFIG: kubeconfig})
    runs.push(run)
    return run
  }

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('svc-watch')
    await makeNode(node(), {labels: {'topology.kubernetes.io/zone': 'zone-1'}})
    await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {
      body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web'}, spec: {selector: {app: 'web'}, ports: [{name: 'http', port: 80, targetPort: 'http'}]}},
    })
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'web-1', labels: {app: 'web'}}, spec: {containers: [{name: 'app', image: 'registry.invalid/app:1', ports: [{name: 'http', containerPort: 8080}]}]}},
    })
    await bindPod(ns, 'web-1', node())
    await setPodStatus(ns, 'web-1', {phase: 'Running', ready: false, podIP: '10.78.0.1'})
  }, 60_000)

  afterAll(async () => {
    for (const r of runs) r.kill()
    await controllerManager.stop()
    await deleteNamespace(ns).catch(() => {})
    await apiOk('DELETE', `/api/v1/nodes/${node()}`).catch(() => {})
  })

  it('a pod turning Ready shows as the endpoint change; the controllers\' writes bring the Service in sync', async () => {
    const run = watch(['-n', ns])
    const first = await run.next('the Service\'s first plan', (l) => serviceChange(l) && l.event.type === 'INITIAL')
    expect(verdict(first)).toEqual({in: true, ready: false, serving: false, terminating: false, ports: [8080]})
    expect(first.controller.status.readyEndpoints).toBe(0)
    const create = first.controller.actions.find((a: Json) => a.type === 'createEndpointSlice')
    expect(create.endpoints.map((e: Json) => [e.targetRef.name, e.conditions.ready])).toEqual([['web-1', false]])

    const mark = run.lines.length
    await setPodStatus(ns, 'web-1', {phase: 'Running', ready: true, podIP: '10.78.0.1'})
    const ready = await run.next('the plan after the pod turned Ready', serviceChange, mark)
    expect(ready.event).toMatchObject({type: 'MODIFIED', kind: 'Pod', namespace: ns, name: 'web-1'})
    expect(verdict(ready)).toEqual({in: true, ready: true, serving: true, terminating: false, ports: [8080]})
    expect(ready.controller.status.readyEndpoints).toBe(1)
    const created = ready.controller.actions.find((a: Json) => a.type === 'createEndpointSlice')
    expect(created.endpoints.map((e: Json) => [e.targetRef.name, e.addresses, e.conditions.ready, e.zone])).toEqual([['web-1', ['10.78.0.1'], true, 'zone-1']])
    const legacy = ready.controller.actions.find((a: Json) => a.type === 'writeEndpoints')
    expect(legacy.subsets.map((s: Json) => s.addresses.map((a: Json) => a.ip))).toEqual([['10.78.0.1']])

    // The real controllers write what the plan said: their slice and Endpoints events re-plan it, in sync.
    const before = run.lines.length
    await controllerManager.start(['endpointslice', 'endpoint'])
    const synced = await run.next('the Service in sync after the controllers wrote', (l) => serviceChange(l) && l.controller.inSync, before)
    expect(['EndpointSlice', 'Endpoints']).toContain(synced.event.kind)
    expect(synced.controller.actions).toEqual([])
    expect(synced.controller.status.readyEndpoints).toBe(1)
    const slices = (await apiOk('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`)).items
    expect(slices.flatMap((s: Json) => s.endpoints.map((e: Json) => [e.targetRef.name, e.conditions.ready]))).toEqual([['web-1', true]])
    expect((await run.interrupt()).code).toBe(130)
  }, 120_000)

  it('an identity that may not list EndpointSlices: Services are left out, said in the synced status and not on stderr', async () => {
    await grantRestricted(ns, 'no-slices', [
      {apiGroups: [''], resources: ['pods', 'replicationcontrollers', 'services', 'endpoints'], verbs: ['list', 'watch']},
      {apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'watch']},
    ])
    // The authorizer sees the new binding within moments.
    await waitUntil(async () => (await kctl(['plan', '-n', ns, '-o', 'json'], {as: 'restricted'})).code === 0, {what: 'the role to apply'})
    const run = watch(['-n', ns], controlPlane().restrictedKubeconfig)
    const synced = await run.next('synced', (l) => l.kind === 'WatchStatus' && l.status === 'synced')
    expect(synced.message).toMatch(/services are left out: .*forbidden \(403\).*endpointslices/)
    expect(run.stderr).toBe('')
    expect((await run.interrupt()).code).toBe(130)
  }, 120_000)
})
