// A live read lists the nodes only when something read plans with them (ClusterRequest.nodesWhenRead,
// what plan and list ask for): against a real kube-apiserver, each world planned from a read that
// lists every kind and from one that may leave the nodes out gives the same plan, and `kctl plan`
// plans the same controllers.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {readCluster} from '../../src/sources/cluster.js'
import {planSnapshot} from '../../src/reconcile/planner.js'
import {parseFeatureGates, plannerOptions} from '../../src/services/options.js'
import {planJson} from './kctl.js'
import {apiOk, bindPod, controllerManager, controlPlane, deleteNamespace, makeNode, newNamespace} from './setup/cluster.js'

const NOW = '2026-11-22T10:00:00Z'
const NODE = `live-nodes-${process.pid}`

const labels = (app: string) => ({matchLabels: {app}})
const template = (app: string) => ({metadata: {labels: {app}}, spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}]}})

/** A namespace holding a ReplicaSet with two pods on the node, a Service without selector, and what `more` adds. */
async function world(more: (ns: string) => Promise<unknown>): Promise<string> {
  const ns = await newNamespace('nodes')
  const rs = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
    body: {apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: {name: 'web'}, spec: {replicas: 1, selector: labels('web'), template: template('web')}},
  })
  for (const name of ['web-a', 'web-b']) {
    const ownerReferences = [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true}]
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {body: {apiVersion: 'v1', kind: 'Pod', metadata: {name, labels: {app: 'web'}, ownerReferences}, spec: template('web').spec}})
    await bindPod(ns, name, NODE)
  }
  await apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'plain'}, spec: {ports: [{port: 80}]}}})
  await more(ns)
  return ns
}

/** The namespace's plan from a read of every list, and from one that lists the nodes only when read; and the nodes each read. */
async function bothWays(ns: string) {
  const req = {kubeconfig: controlPlane().adminKubeconfig, namespace: ns}
  const options = plannerOptions(NOW, parseFeatureGates(undefined))
  const every = await readCluster(req)
  const whenRead = await readCluster({...req, nodesWhenRead: true})
  return {
    every: planSnapshot(every, options),
    whenRead: planSnapshot(whenRead, options),
    nodes: {every: every.nodes?.length ?? 0, whenRead: whenRead.nodes?.length ?? 0},
  }
}

describe('the nodes, listed only when something read plans with them', () => {
  const namespaces: string[] = []

  beforeAll(async () => {
    await controllerManager.stop()
    await makeNode(NODE)
  })

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns).catch(() => {})
    await apiOk('DELETE', `/api/v1/nodes/${NODE}`).catch(() => {})
  })

  it.each<[string, boolean, (ns: string) => Promise<unknown>]>([
    ['no DaemonSet, no Service with a selector: not listed', false, async () => {}],
    [
      'a DaemonSet: listed',
      true,
      (ns) => apiOk('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, {body: {apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: {name: 'agent'}, spec: {selector: labels('agent'), template: template('agent')}}}),
    ],
    [
      'a Service with a selector: listed',
      true,
      (ns) => apiOk('POST', `/api/v1/namespaces/${ns}/services`, {body: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web'}, spec: {selector: {app: 'web'}, ports: [{port: 80}]}}}),
    ],
  ])('%s; the same plan both ways, of the controllers kctl plan prints', async (_, listed, more) => {
    const ns = await world(more)
    namespaces.push(ns)
    const {every, whenRead, nodes} = await bothWays(ns)
    expect(nodes.every).toBeGreaterThan(0)
    expect(nodes.whenRead).toBe(listed ? nodes.every : 0)
    expect(whenRead).toEqual(every)
    expect(every.controllers.length).toBeGreaterThan(listed ? 2 : 1)
    const printed = await planJson(['-n', ns, '--now', NOW])
    const names = (plan: {controllers: Array<{kind: string; name: string; desired: number; active: number}>}) => plan.controllers.map((c) => [c.kind, c.name, c.desired, c.active])
    expect(names(printed)).toEqual(names(every))
  })
})
