// L5 with a cloud provider that keeps the hosts it was last sent: the plan is the node sync a
// running service controller makes (UpdateLoadBalancer with the new hosts) instead of a fresh
// controller's Ensure, and only after a node event upstream would sync on.
import {describe, expect, it} from 'vitest'
import type {CloudLoadBalancerView, ServiceView} from '../../../../src/controllers/service/model.js'
import type {NodeView} from '../../../../src/model/objects.js'
import {DELETING_WITHOUT_FINALIZER, loadBalancerName, nodeEventSince, STATUS_CLEARED} from '../../../../src/controllers/service/loadbalancer.js'
import {planService} from '../../../../src/controllers/service/planner.js'

const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers'
const TO_BE_DELETED = {key: 'ToBeDeletedByClusterAutoscaler', value: '1', effect: 'NoSchedule'}

const node = (name: string, o: Partial<NodeView> = {}): NodeView => ({namespace: '', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0, labels: {}, annotations: {}, ownerReferences: [], unschedulable: false, taints: [], ...o})

/** A LoadBalancer Service the controller ensured before: finalizer and status there. */
const ensured = (o: Partial<ServiceView> = {}): ServiceView => ({
  kind: 'Service', apiVersion: 'v1', namespace: 'ns', name: 'web', uid: 'c0ffee00-0000-0000-0000-000000000001', resourceVersion: '7', generation: 0,
  labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: '2026-01-01T00:00:00Z',
  type: 'LoadBalancer', selector: null, clusterIP: '10.0.0.10', headless: false, ipFamilies: ['IPv4'], ports: [{name: 'http', port: 80, protocol: 'TCP', targetPort: 8080}],
  publishNotReadyAddresses: false, finalizers: ['service.kubernetes.io/load-balancer-cleanup'], ingress: [{ip: '127.0.200.1', ipMode: 'VIP'}],
  ...o,
})

function plan(svc: ServiceView, nodes: NodeView[], cloud?: CloudLoadBalancerView) {
  const cp = planService(svc, {pods: [], nodes, nodeByName: new Map(nodes.map((n) => [n.name, n])), slices: [], endpoints: undefined, maxEndpointsPerSlice: 100, ...(cloud ? {cloud} : {})})
  return {actions: cp.actions.filter((a) => /LoadBalancer/.test(a.type)), lb: cp.service!.loadBalancer!, inSync: cp.inSync, warnings: cp.warnings, events: cp.events}
}

const sent = (svc: ServiceView, hosts: Array<{name: string; providerID?: string}>, exists = true): CloudLoadBalancerView => ({name: loadBalancerName(svc), exists, hosts})

describe('a node change, with the hosts last sent known', () => {
  const svc = ensured()

  it('a node added: UpdateLoadBalancer with every host, instead of the Ensure; the hosts sent are in the plan', () => {
    const p = plan(svc, [node('a'), node('b')], sent(svc, [{name: 'a'}]))
    expect(p.actions).toEqual([{type: 'updateLoadBalancerHosts', loadBalancer: loadBalancerName(svc), hosts: ['a', 'b']}])
    expect(p.lb).toMatchObject({path: 'update', why: 'nodes-changed', sent: ['a'], hosts: ['a', 'b']})
    expect(p.inSync).toBe(false)
  })

  it('a host gone, labelled out, or with another providerID: an update without it or with the new ID', () => {
    expect(plan(svc, [node('a')], sent(svc, [{name: 'a'}, {name: 'b'}])).actions).toMatchObject([{hosts: ['a']}])
    expect(plan(svc, [node('a'), node('b', {labels: {[EXCLUDE]: 'true'}})], sent(svc, [{name: 'a'}, {name: 'b'}])).actions).toMatchObject([{hosts: ['a']}])
    expect(plan(svc, [node('a', {providerID: 'cloud://2'})], sent(svc, [{name: 'a', providerID: 'cloud://1'}])).actions).toMatchObject([{type: 'updateLoadBalancerHosts', hosts: ['a']}])
  })

  it('the last host gone: an update with no hosts, and the UnAvailableLoadBalancer warning', () => {
    expect(plan(svc, [], sent(svc, [{name: 'a'}])).actions).toEqual([{type: 'updateLoadBalancerHosts', loadBalancer: loadBalancerName(svc), hosts: [], warning: 'UnAvailableLoadBalancer'}])
  })

  it('no change: the fresh controller\'s Ensure stays, and the Service is in sync', () => {
    const p = plan(svc, [node('a'), node('b')], sent(svc, [{name: 'b'}, {name: 'a'}]))
    expect(p.actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(p.lb).toMatchObject({path: 'ensure', sent: ['a', 'b']})
    expect(p.inSync).toBe(true)
  })

  it('L5.3: a host only tainted ToBeDeletedByClusterAutoscaler, or being deleted, syncs nothing; a node added then drops it too', () => {
    const tainted = node('a', {taints: [TO_BE_DELETED]})
    expect(plan(svc, [tainted, node('b')], sent(svc, [{name: 'a'}, {name: 'b'}])).actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(plan(svc, [node('a', {deletionTimestamp: '2026-01-01T00:00:00Z'}), node('b')], sent(svc, [{name: 'a'}, {name: 'b'}])).actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(plan(svc, [tainted, node('b'), node('c')], sent(svc, [{name: 'a'}, {name: 'b'}])).actions).toMatchObject([{type: 'updateLoadBalancerHosts', hosts: ['b', 'c']}])
  })

  it('not ensured yet (no finalizer), or the provider has no load balancer: the Ensure path', () => {
    const s = ensured({finalizers: []})
    expect(plan(s, [node('a'), node('b')], sent(s, [{name: 'a'}])).actions.map((a) => a.type)).toEqual(['addLoadBalancerFinalizer', 'ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(plan(svc, [node('a'), node('b')], {name: loadBalancerName(svc), exists: false}).actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    // A provider that does not keep hosts: nothing to compare with.
    expect(plan(svc, [node('a'), node('b')], {name: loadBalancerName(svc), exists: true}).lb.sent).toBeUndefined()
  })

  it('LB-21: the status cleared by someone else while the load balancer exists: a running controller does nothing, and the plan says why', () => {
    const cleared = ensured({ingress: []})
    const p = plan(cleared, [node('a'), node('b')], sent(cleared, [{name: 'a'}, {name: 'b'}]))
    expect(p.actions).toEqual([])
    expect(p.lb).toMatchObject({path: 'none', why: 'status-cleared', sent: ['a', 'b']})
    expect(p.warnings).toContain(STATUS_CLEARED)
    expect(p.inSync).toBe(true)
    // A node event still sends the hosts; the status stays as it is.
    const q = plan(cleared, [node('a'), node('b'), node('c')], sent(cleared, [{name: 'a'}, {name: 'b'}]))
    expect(q.actions).toEqual([{type: 'updateLoadBalancerHosts', loadBalancer: loadBalancerName(cleared), hosts: ['a', 'b', 'c']}])
    expect(q.warnings).toContain(STATUS_CLEARED)
    // Without the provider's memory it is a fresh controller's sync: Ensure, and the status written.
    expect(plan(cleared, [node('a')]).actions.map((a) => a.type)).toEqual(['ensureLoadBalancer', 'writeLoadBalancerStatus'])
    expect(plan(cleared, [node('a')]).warnings).not.toContain(STATUS_CLEARED)
  })

  it('the delete path with the provider\'s answer: EnsureLoadBalancerDeleted only if it exists', () => {
    const going = ensured({type: 'ClusterIP', ingress: []})
    const there = plan(going, [node('a')], {name: loadBalancerName(going), exists: true})
    expect(there.actions[0]).toEqual({type: 'ensureLoadBalancerDeleted', loadBalancer: loadBalancerName(going), ifExists: true, exists: true})
    expect(there.events).toEqual(['DeletingLoadBalancer', 'DeletedLoadBalancer'])
    const gone = plan(going, [node('a')], {name: loadBalancerName(going), exists: false})
    expect(gone.actions[0]).toMatchObject({type: 'ensureLoadBalancerDeleted', exists: false})
    expect(gone.events).toEqual(['DeletedLoadBalancer'])
    // No provider asked: not known.
    expect(plan(going, [node('a')]).actions[0]).not.toHaveProperty('exists')
  })

  it('LB-22, LB-23: the status is written only after a successful Ensure — not after an error, nor after ImplementedElsewhere', () => {
    const p = plan(ensured({finalizers: [], ingress: []}), [node('a')])
    expect(p.actions.at(-1)).toEqual({type: 'writeLoadBalancerStatus', ingress: 'fromProvider', from: [], notAfter: ['error', 'implemented-elsewhere']})
  })

  it('a LoadBalancer being deleted that lacks the cleanup finalizer (another holds it): the finalizer patch is refused, so no cloud call and no status write', () => {
    // The random load-balancer oracle's world: type LoadBalancer, finalizers [kctl.io/e2e-hold], being deleted, a stale status.
    const going = ensured({finalizers: ['kctl.io/e2e-hold'], deletionTimestamp: '2026-01-01T00:00:00Z', ingress: [{ip: '192.0.2.44', ipMode: 'VIP'}]})
    for (const cloud of [undefined, sent(going, [{name: 'a'}])]) {
      const p = plan(going, [node('a')], cloud)
      expect(p.actions).toEqual([])
      expect(p.lb).toMatchObject({path: 'none', why: 'deleting-without-finalizer'})
      expect(p.warnings).toContain(DELETING_WITHOUT_FINALIZER)
    }
    // With the finalizer it is the delete path as ever.
    expect(plan(ensured({deletionTimestamp: '2026-01-01T00:00:00Z'}), [node('a')]).lb.path).toBe('delete')
  })

  it('the delete path is not a node sync', () => {
    const going = ensured({deletionTimestamp: '2026-01-01T00:00:00Z'})
    expect(plan(going, [node('a'), node('b')], sent(going, [{name: 'a'}])).actions.map((a) => a.type)).toEqual(['ensureLoadBalancerDeleted', 'removeLoadBalancerFinalizer', 'writeLoadBalancerStatus'])
  })
})

describe('nodeEventSince: the node events shouldSyncUpdatedNode and node add/delete stand for', () => {
  it('a node added that the label lets in, a host deleted, the label flipped, a providerID changed', () => {
    expect(nodeEventSince([{name: 'a'}], [node('a'), node('b')])).toBe(true)
    expect(nodeEventSince([{name: 'a'}], [node('a'), node('b', {labels: {[EXCLUDE]: 'true'}})])).toBe(false)
    expect(nodeEventSince([{name: 'a'}, {name: 'b'}], [node('a')])).toBe(true)
    expect(nodeEventSince([{name: 'a'}], [node('a', {labels: {[EXCLUDE]: 'yes'}})])).toBe(true)
    expect(nodeEventSince([{name: 'a'}], [node('a', {labels: {[EXCLUDE]: 'false'}})])).toBe(false)
    expect(nodeEventSince([{name: 'a'}], [node('a', {providerID: 'x://1'})])).toBe(true)
    expect(nodeEventSince([{name: 'a'}], [node('a', {unschedulable: true, taints: [TO_BE_DELETED]})])).toBe(false)
  })
})
