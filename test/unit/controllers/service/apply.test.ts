// A Service's plan carried out by the executor, through a recording ServiceControl and a scripted
// cloud provider: the order of the three controllers' writes, the preconditions, and what a
// provider's error, ImplementedElsewhere, a dry run or no provider at all leave undone; and the
// delete of an Endpoints object no Service owns.
import {describe, expect, it} from 'vitest'
import {executePlan} from '../../../../src/apply/executor.js'
import {PodControlError} from '../../../../src/apply/pod-control.js'
import {SERVICE_SKIP} from '../../../../src/controllers/service/apply.js'
import type {EndpointKind, ServiceControl} from '../../../../src/controllers/service/control.js'
import {SKIP} from '../../../../src/apply/sync.js'
import {CloudProviderError, type LoadBalancerProvider} from '../../../../src/cloud/provider.js'
import type {ControllerPlan} from '../../../../src/model/plan.js'
import type {Snapshot} from '../../../../src/model/objects.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import type {EndpointsView, ServiceAction, ServiceView} from '../../../../src/controllers/service/model.js'
import {parseSavedPlan} from '../../../../src/apply/saved-plan.js'
import {staleness} from '../../../../src/apply/staleness.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {planToWire} from '../../../../src/render/wire.js'
import {renderApplyRound} from '../../../../src/render/apply-table.js'
import {planService} from '../../../../src/controllers/service/planner.js'
import {pod} from '../../../helpers/builders.js'
import {RecordingPodControl} from '../../../helpers/recording-control.js'
import {NOW, planOf} from '../../apply/plans.js'

type Obj = Record<string, any>

const now = () => NOW
const FINALIZER = 'service.kubernetes.io/load-balancer-cleanup'
const OWNER = {apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}
const EP = {addresses: ['10.0.0.1'], conditions: {ready: true, serving: true, terminating: false}, nodeName: 'node-a', targetRef: {kind: 'Pod', namespace: 'ns', name: 'web-1', uid: 'uid-web-1'}}
const PORTS = [{name: 'http', port: 8080, protocol: 'TCP'}]
const LABELS = {'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io'}

const createSlice: ServiceAction = {type: 'createEndpointSlice', generateName: 'web-', ownerReference: OWNER, addressType: 'IPv4', ports: PORTS, endpoints: [EP], size: 1, labels: LABELS, triggerTime: '2026-11-22T09:00:00Z'}
const updateSlice: ServiceAction = {type: 'updateEndpointSlice', name: 'web-abcde', uid: 'uid-s1', resourceVersion: '20', addressType: 'IPv4', ports: PORTS, endpoints: [EP], size: 1, labels: LABELS, added: ['web-1'], removed: [], changed: []}
const deleteSlice: ServiceAction = {type: 'deleteEndpointSlice', name: 'web-old', uid: 'uid-s2', resourceVersion: '21', addressType: 'IPv4', reason: 'ports-not-desired'}
const writeEndpoints: ServiceAction = {type: 'writeEndpoints', verb: 'create', name: 'web', subsets: [{addresses: [{ip: '10.0.0.1', nodeName: 'node-a'}], notReadyAddresses: [], ports: PORTS}], labels: {app: 'web'}}
const ensure: ServiceAction[] = [
  {type: 'addLoadBalancerFinalizer', finalizer: FINALIZER},
  {type: 'ensureLoadBalancer', loadBalancer: 'auidweb', hosts: ['node-a', 'node-b']},
  {type: 'writeLoadBalancerStatus', ingress: 'fromProvider', from: []},
]

function service(actions: ServiceAction[], o: Partial<ControllerPlan> = {}): ControllerPlan {
  return {kind: 'Service', apiVersion: 'v1', namespace: 'ns', name: 'web', uid: 'uid-web', resourceVersion: '10', desired: 1, active: 0, diff: 0, actions, pending: 0, status: {loadBalancer: {ingress: []}, readyEndpoints: 1}, warnings: [], inSync: false, ...o}
}

/** Records every call; objects read answer from `objects` (by kind/name), everything else succeeds unless `fail` says otherwise. */
class RecordingServiceControl implements ServiceControl {
  readonly calls: Array<{call: string; kind?: EndpointKind; object?: Obj; name?: string; pre?: Obj; patch?: Obj}> = []
  private version = 10
  constructor(
    readonly dryRun = false,
    private readonly objects: Record<string, Obj> = {},
    private readonly fail: (call: string) => PodControlError | undefined = () => undefined,
  ) {}

  private check(call: string): void {
    const error = this.fail(call)
    if (error) throw error
  }

  async get(kind: EndpointKind, _ns: string, name: string): Promise<Obj> {
    this.calls.push({call: 'get', kind, name})
    const found = this.objects[`${kind}/${name}`]
    if (!found) throw new PodControlError({code: 404, reason: 'NotFound', message: `${kind} ${name} not found`})
    return found
  }

  async create(kind: EndpointKind, object: Obj) {
    this.calls.push({call: 'create', kind, object})
    this.check(`create ${kind}`)
    return {name: object.metadata.name ?? `${object.metadata.generateName}x1y2z`, uid: 'uid-new'}
  }

  async replace(kind: EndpointKind, object: Obj) {
    this.calls.push({call: 'replace', kind, object})
    this.check(`replace ${kind}`)
    return {resourceVersion: String(++this.version)}
  }

  async delete(kind: EndpointKind, _ns: string, name: string, pre: {uid: string; resourceVersion: string}) {
    this.calls.push({call: 'delete', kind, name, pre})
    this.check(`delete ${kind}`)
  }

  async patchServiceStatus(_ns: string, _name: string, patch: Obj) {
    this.calls.push({call: 'patch', patch})
    this.check('patch')
    return {resourceVersion: String(++this.version)}
  }

  async node(name: string) {
    return {metadata: {name}, spec: {providerID: `test://${name}`}}
  }
}

/** A provider that records its calls and answers as `answer` says. */
function provider(answer: (method: string) => unknown = () => undefined, exists = true): LoadBalancerProvider & {calls: string[]; nodes: string[][]} {
  const calls: string[] = []
  const nodes: string[][] = []
  const call = async (method: string, hosts?: Obj[]) => {
    calls.push(method)
    if (hosts) nodes.push(hosts.map((n) => `${n.metadata.name}=${n.spec?.providerID}`))
    const a = answer(method)
    if (a instanceof Error) throw a
    return a
  }
  return {
    description: 'test',
    calls,
    nodes,
    getLoadBalancerName: () => 'auidweb',
    getLoadBalancer: async () => ((await call('GetLoadBalancer')) as never) ?? {exists},
    ensureLoadBalancer: async (_c, _s, n) => ((await call('EnsureLoadBalancer', n)) as never) ?? {ingress: [{ip: '127.0.200.1', ipMode: 'VIP'}]},
    updateLoadBalancer: async (_c, _s, n) => void (await call('UpdateLoadBalancer', n)),
    ensureLoadBalancerDeleted: async () => void (await call('EnsureLoadBalancerDeleted')),
  }
}

const podControl = (raw: Obj = {}) =>
  new RecordingPodControl({controllers: {'Service/ns/web': {uid: 'uid-web', resourceVersion: '10', raw: {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web', namespace: 'ns', uid: 'uid-web', resourceVersion: '10'}, status: {loadBalancer: {}}, ...raw}}}})

const outcomes = (exec: Awaited<ReturnType<typeof executePlan>>) => exec.results.map((r) => [r.action, r.outcome])

describe('a Service\'s writes', () => {
  it('slices (create, update, delete), then the Endpoints object, then finalizer, Ensure and status, each with its precondition', async () => {
    const slice = {metadata: {name: 'web-abcde', namespace: 'ns', uid: 'uid-s1', resourceVersion: '20', annotations: {keep: 'me', 'endpoints.kubernetes.io/last-change-trigger-time': 'old'}, ownerReferences: [OWNER]}}
    const services = new RecordingServiceControl(false, {'EndpointSlice/web-abcde': slice})
    const cloud = provider()
    const exec = await executePlan(planOf(service([createSlice, updateSlice, deleteSlice, writeEndpoints, ...ensure])), {control: podControl(), services, cloud: {provider: cloud, clusterName: 'kubernetes'}, now})
    expect(outcomes(exec).every(([, o]) => o === 'ok')).toBe(true)
    expect(services.calls.map((c) => `${c.call} ${c.kind ?? ''}`.trim())).toEqual(['create EndpointSlice', 'get EndpointSlice', 'replace EndpointSlice', 'delete EndpointSlice', 'create Endpoints', 'patch', 'patch'])
    const [create, , replace, del, endpoints, finalizer, status] = services.calls
    expect(create.object!.metadata).toEqual({generateName: 'web-', namespace: 'ns', labels: LABELS, annotations: {'endpoints.kubernetes.io/last-change-trigger-time': '2026-11-22T09:00:00Z'}, ownerReferences: [OWNER]})
    expect(create.object!.endpoints).toEqual([EP])
    // A full update carrying the version planned; the trigger time the sync computed (none here) replaces the old one.
    expect(replace.object!.metadata).toMatchObject({name: 'web-abcde', resourceVersion: '20', annotations: {keep: 'me'}})
    expect(replace.object!.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']).toBeUndefined()
    expect(del.pre).toEqual({uid: 'uid-s2', resourceVersion: '21'})
    expect(endpoints.object).toEqual({apiVersion: 'v1', kind: 'Endpoints', metadata: {name: 'web', namespace: 'ns', labels: {app: 'web'}}, subsets: [{addresses: [{ip: '10.0.0.1', nodeName: 'node-a'}], ports: PORTS}]})
    expect(finalizer.patch).toEqual({metadata: {finalizers: [FINALIZER], resourceVersion: '10'}})
    // The status patch names the version the finalizer patch answered (the recording control counts every write).
    expect(status.patch).toEqual({status: {loadBalancer: {ingress: [{ip: '127.0.200.1', ipMode: 'VIP'}]}}, metadata: {resourceVersion: '12'}})
    expect(cloud.calls).toEqual(['EnsureLoadBalancer'])
    expect(cloud.nodes).toEqual([['node-a=test://node-a', 'node-b=test://node-b']])
    expect(exec.results.find((r) => r.action === 'ensureLoadBalancer')!.done).toEqual({loadBalancer: {ingress: [{ip: '127.0.200.1', ipMode: 'VIP'}]}})
    // The table words each write as the plan does, with the name the server gave and the address the cloud did.
    const table = renderApplyRound('apply', exec.results, exec.controllers, {color: false})
    expect(table).toContain('+ create EndpointSlice web-<random> IPv4')
    expect(table).toMatch(/→ web-x1y2z {2}ok/)
    expect(table).toMatch(/→ EnsureLoadBalancer auidweb hosts node-a, node-b → 127\.0\.200\.1 {2}ok/)
  })

  it('a slice changed since planning stops the run as a conflict; nothing after it is sent', async () => {
    const services = new RecordingServiceControl(false, {'EndpointSlice/web-abcde': {metadata: {name: 'web-abcde', uid: 'uid-s1', resourceVersion: '99'}}})
    const exec = await executePlan(planOf(service([updateSlice, deleteSlice, writeEndpoints, ...ensure])), {control: podControl(), services, cloud: {provider: provider(), clusterName: 'k'}, now})
    expect(exec.conflict).toMatch(/EndpointSlice ns\/web-abcde changed since planning/)
    expect(outcomes(exec)).toEqual([
      ['updateEndpointSlice', 'failed'],
      ['deleteEndpointSlice', 'skipped'],
      ['writeEndpoints', 'skipped'],
      ['addLoadBalancerFinalizer', 'skipped'],
      ['ensureLoadBalancer', 'skipped'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(services.calls.map((c) => c.call)).toEqual(['get'])
  })

  it('an Endpoints object created since planning (409 on the create by name) stops the run as a conflict', async () => {
    const services = new RecordingServiceControl(false, {}, (call) => (call === 'create Endpoints' ? new PodControlError({code: 409, reason: 'AlreadyExists', message: 'endpoints "web" already exists'}) : undefined))
    const exec = await executePlan(planOf(service([writeEndpoints, ...ensure])), {control: podControl(), services, cloud: {provider: provider(), clusterName: 'k'}, now})
    expect(exec.conflict).toBe('Endpoints ns/web changed since planning: endpoints "web" already exists')
    expect(outcomes(exec).map(([, o]) => o)).toEqual(['failed', 'skipped', 'skipped', 'skipped'])
  })

  it('a failed slice write ends that controller\'s writes only: the Endpoints object and the load balancer still go', async () => {
    const services = new RecordingServiceControl(false, {}, (call) => (call === 'create EndpointSlice' ? new PodControlError({code: 403, reason: 'Forbidden', message: 'forbidden'}) : undefined))
    const exec = await executePlan(planOf(service([createSlice, deleteSlice, writeEndpoints, ...ensure])), {control: podControl(), services, cloud: {provider: provider(), clusterName: 'k'}, now})
    expect(outcomes(exec)).toEqual([
      ['createEndpointSlice', 'failed'],
      ['deleteEndpointSlice', 'skipped'],
      ['writeEndpoints', 'ok'],
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'ok'],
      ['writeLoadBalancerStatus', 'ok'],
    ])
    expect(exec.results[1].skipReason).toBe(SKIP.afterFailedWrite)
  })
})

describe('the load balancer through the provider', () => {
  const run = (actions: ServiceAction[], cloud: LoadBalancerProvider | undefined, o: {dryRun?: boolean; raw?: Obj; fail?: (c: string) => PodControlError | undefined} = {}) => {
    const services = new RecordingServiceControl(o.dryRun ?? false, {}, o.fail)
    return executePlan(planOf(service(actions)), {control: podControl(o.raw), services, ...(cloud ? {cloud: {provider: cloud, clusterName: 'k'}} : {}), now}).then((exec) => ({exec, services}))
  }

  it('a provider error: the finalizer stays, no status is written, the error is one line', async () => {
    const cloud = provider((m) => (m === 'EnsureLoadBalancer' ? new CloudProviderError('cloud provider x EnsureLoadBalancer: quota exceeded') : undefined))
    const {exec, services} = await run(ensure, cloud)
    expect(outcomes(exec)).toEqual([
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'failed'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(exec.results[1].error).toEqual({message: 'cloud provider x EnsureLoadBalancer: quota exceeded'})
    expect(exec.results[2].skipReason).toBe(SKIP.afterFailedWrite)
    expect(services.calls.map((c) => c.call)).toEqual(['patch'])
    expect(exec.conflict).toBeUndefined()
  })

  it('RetryAfter is a failure that says when; ImplementedElsewhere is done, and nothing more is written', async () => {
    const retry = await run(ensure, provider(() => new CloudProviderError('cloud provider x EnsureLoadBalancer: busy', 'RetryAfter', 30)))
    expect(retry.exec.results[1].error!.message).toBe('cloud provider x EnsureLoadBalancer: busy (the provider asks to retry after 30 s)')
    const elsewhere = await run(ensure, provider(() => new CloudProviderError('elsewhere', 'ImplementedElsewhere')))
    expect(outcomes(elsewhere.exec)).toEqual([
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'ok'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(elsewhere.exec.results[1].done).toEqual({implementedElsewhere: true})
    expect(elsewhere.exec.results[2].skipReason).toBe(SERVICE_SKIP.implementedElsewhere)
  })

  it('the status the provider returns is written only when it differs from the Service\'s', async () => {
    const {exec, services} = await run(ensure.slice(1), provider(), {raw: {status: {loadBalancer: {ingress: [{ip: '127.0.200.1', ipMode: 'VIP'}]}}}})
    expect(exec.results[1].done).toEqual({unchanged: true})
    expect(services.calls).toEqual([])
  })

  it('no provider: the load-balancer writes are not sent, and say why; a dry run sends the finalizer only', async () => {
    const none = await run([writeEndpoints, ...ensure], undefined)
    expect(outcomes(none.exec)).toEqual([
      ['writeEndpoints', 'ok'],
      ['addLoadBalancerFinalizer', 'skipped'],
      ['ensureLoadBalancer', 'skipped'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(none.exec.results.slice(1).map((r) => r.skipReason)).toEqual([SERVICE_SKIP.noCloud, SERVICE_SKIP.noCloud, SERVICE_SKIP.noCloud])
    const cloud = provider()
    const dry = await run(ensure, cloud, {dryRun: true})
    expect(outcomes(dry.exec)).toEqual([
      ['addLoadBalancerFinalizer', 'ok'],
      ['ensureLoadBalancer', 'skipped'],
      ['writeLoadBalancerStatus', 'skipped'],
    ])
    expect(dry.exec.results[1].skipReason).toBe(SERVICE_SKIP.dryRunCloud)
    expect(cloud.calls).toEqual([])
  })

  it('delete: GetLoadBalancer, EnsureLoadBalancerDeleted only if it exists, the finalizer removed, the status cleared (a Service already gone is fine)', async () => {
    const deleting: ServiceAction[] = [
      {type: 'ensureLoadBalancerDeleted', loadBalancer: 'auidweb', ifExists: true},
      {type: 'removeLoadBalancerFinalizer', finalizer: FINALIZER},
      {type: 'writeLoadBalancerStatus', ingress: 'clear', from: [{ip: '127.0.200.1'}]},
    ]
    const raw = {metadata: {name: 'web', namespace: 'ns', uid: 'uid-web', resourceVersion: '10', finalizers: ['other', FINALIZER]}, status: {loadBalancer: {ingress: [{ip: '127.0.200.1'}]}}}
    const gone = (call: string) => (call === 'patch' && gone.patched++ > 0 ? new PodControlError({code: 404, reason: 'NotFound', message: 'gone'}) : undefined)
    gone.patched = 0
    const cloud = provider()
    const {exec, services} = await run(deleting, cloud, {raw, fail: gone})
    expect(outcomes(exec).every(([, o]) => o === 'ok')).toBe(true)
    expect(cloud.calls).toEqual(['GetLoadBalancer', 'EnsureLoadBalancerDeleted'])
    expect(exec.results.map((r) => r.done)).toEqual([{existed: true}, {resourceVersion: '11'}, {alreadyGone: true}])
    expect(services.calls.map((c) => c.patch)).toEqual([
      {metadata: {finalizers: ['other'], resourceVersion: '10'}},
      {status: {loadBalancer: {ingress: null}}, metadata: {resourceVersion: '11'}},
    ])
    const absent = provider(undefined, false)
    await run(deleting.slice(0, 1), absent)
    expect(absent.calls).toEqual(['GetLoadBalancer'])
    // ImplementedElsewhere on a delete is ignored upstream: the finalizer still goes.
    const elsewhere = await run(deleting.slice(0, 2), provider((m) => (m === 'EnsureLoadBalancerDeleted' ? new CloudProviderError('elsewhere', 'ImplementedElsewhere') : undefined)), {raw})
    expect(outcomes(elsewhere.exec)).toEqual([
      ['ensureLoadBalancerDeleted', 'ok'],
      ['removeLoadBalancerFinalizer', 'ok'],
    ])
    expect(elsewhere.exec.results[0].done).toEqual({existed: true, implementedElsewhere: true})
  })

  it('UpdateLoadBalancer with the hosts as Nodes; an update of a load balancer that is gone is not an error', async () => {
    const update: ServiceAction[] = [{type: 'updateLoadBalancerHosts', loadBalancer: 'auidweb', hosts: ['node-c']}]
    const cloud = provider()
    expect(outcomes((await run(update, cloud)).exec)).toEqual([['updateLoadBalancerHosts', 'ok']])
    expect(cloud.nodes).toEqual([['node-c=test://node-c']])
    const vanished = provider((m) => (m === 'UpdateLoadBalancer' ? new CloudProviderError('not found') : undefined), false)
    expect(outcomes((await run(update, vanished)).exec)).toEqual([['updateLoadBalancerHosts', 'ok']])
    expect(vanished.calls).toEqual(['UpdateLoadBalancer', 'GetLoadBalancer'])
  })
})

describe('a pool: endpoints the controller spreads over new slices at random', () => {
  it('250 new pods: three slices of 100, 100 and 50 with every pod once, drawn in name order, each result naming its pods', async () => {
    const svcView = {
      kind: 'Service' as const, apiVersion: 'v1' as const, namespace: 'ns', name: 'web', uid: 'uid-web', resourceVersion: '10', generation: 0,
      labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: '2026-11-22T09:00:00Z',
      type: 'ClusterIP', selector: {app: 'web'}, clusterIP: '10.0.0.10', headless: false, ipFamilies: ['IPv4'],
      ports: [{name: 'http', port: 80, protocol: 'TCP', targetPort: 8080}], publishNotReadyAddresses: false, finalizers: [], ingress: [],
    }
    const pods = Array.from({length: 250}, (_, k) => ({
      ...pod(`web-${String(k).padStart(3, '0')}`, {namespace: 'ns', node: 'node-a', labels: {app: 'web'}}),
      network: {podIPs: [`10.1.${k >> 8}.${k & 255}`], hostname: '', subdomain: '', ports: []},
    }))
    const nodes = [{namespace: '', name: 'node-a', uid: 'uid-node-a', resourceVersion: '1', generation: 0, labels: {}, annotations: {}, ownerReferences: [], unschedulable: false, taints: []}]
    const cp = planService(svcView, {pods, nodes, nodeByName: new Map(nodes.map((n) => [n.name, n])), slices: [], endpoints: undefined, maxEndpointsPerSlice: 100})
    const creates = cp.actions.filter((a) => a.type === 'createEndpointSlice')
    expect(creates.map((a) => [a.endpoints.length, a.random])).toEqual([[0, 100], [0, 100], [0, 50]])
    expect(cp.service!.pools![0].endpoints!.map((e) => e.targetRef!.name)).toEqual(pods.map((p) => p.name))

    const services = new RecordingServiceControl()
    const exec = await executePlan(planOf(cp), {control: podControl(), services, now})
    const sent = services.calls.filter((c) => c.call === 'create' && c.kind === 'EndpointSlice').map((c) => c.object!.endpoints.map((e: Obj) => e.targetRef.name))
    expect(sent.map((names) => names.length)).toEqual([100, 100, 50])
    expect(sent.flat()).toEqual(pods.map((p) => p.name))
    const slices = exec.results.filter((r) => r.action === 'createEndpointSlice')
    expect(slices.map((r) => r.done!.chosen)).toEqual(sent)
  })
})

describe('an Endpoints object no Service owns (E12.1)', () => {
  const endpoints = (name: string): EndpointsView => ({
    namespace: 'ns', name, uid: `uid-ep-${name}`, resourceVersion: '4', generation: 0, labels: {}, annotations: {}, ownerReferences: [],
    subsets: [{addresses: [{ip: '192.0.2.1'}], notReadyAddresses: [], ports: [{name: '', port: 80, protocol: 'TCP'}]}],
  })
  const world = (o: Partial<Snapshot> = {}): Snapshot => ({pods: [], workloads: [], replicaSets: [], ignored: {}, source: {type: 'cluster', context: 'test', server: 'https://127.0.0.1:6443'}, services: [], endpoints: [endpoints('gone')], ...o})
  const leftoverPlan = () => planSnapshot(world(), {now: NOW, featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500})

  it('is deleted with the planned uid and resourceVersion as preconditions, once the Service is found still absent', async () => {
    const plan = leftoverPlan()
    expect(plan.controllers.map((c) => c.actions.map((a) => a.type))).toEqual([['deleteEndpoints']])
    const services = new RecordingServiceControl()
    const control = new RecordingPodControl()
    const exec = await executePlan(plan, {control, services, now})
    expect(outcomes(exec)).toEqual([['deleteEndpoints', 'ok']])
    expect(control.calls).toEqual([{type: 'getController', key: expect.objectContaining({kind: 'Service', namespace: 'ns', name: 'gone'})}])
    expect(services.calls).toEqual([{call: 'delete', kind: 'Endpoints', name: 'gone', pre: {uid: 'uid-ep-gone', resourceVersion: '4'}}])
    expect(renderApplyRound('apply', exec.results, exec.controllers, {color: false})).toMatch(/- delete Endpoints gone .*ok/)
  })

  it('a Service of that name created since planning owns it now: nothing is deleted, the run stops as a conflict', async () => {
    const services = new RecordingServiceControl()
    const control = new RecordingPodControl({controllers: {'Service/ns/gone': {uid: 'uid-new', resourceVersion: '1'}}})
    const exec = await executePlan(leftoverPlan(), {control, services, now})
    expect(exec.conflict).toBe('Service ns/gone exists now; the plan deleted its Endpoints object as a leftover')
    expect(outcomes(exec)).toEqual([['deleteEndpoints', 'skipped']])
    expect(services.calls).toEqual([])
  })

  it('one already gone counts as done; one changed since planning (409 on the preconditions) is a conflict', async () => {
    const gone = await executePlan(leftoverPlan(), {control: new RecordingPodControl(), services: new RecordingServiceControl(false, {}, () => new PodControlError({code: 404, reason: 'NotFound', message: 'gone'})), now})
    expect(gone.results[0]).toMatchObject({outcome: 'ok', done: {alreadyGone: true}})
    const changed = await executePlan(leftoverPlan(), {control: new RecordingPodControl(), services: new RecordingServiceControl(false, {}, () => new PodControlError({code: 409, reason: 'Conflict', message: 'Precondition failed: ResourceVersion'})), now})
    expect(changed.results[0].outcome).toBe('failed')
    expect(changed.conflict).toMatch(/Endpoints ns\/gone changed since planning/)
  })

  it('a saved plan reads it back; the plan goes stale when the Service appears or the object changes', () => {
    const plan = leftoverPlan()
    const back = parseSavedPlan(JSON.stringify(planToWire(plan)), 'plan.json')
    expect(planToWire(back)).toEqual(planToWire(plan))
    expect(staleness(plan, world(), plan)).toEqual([])
    const service = {kind: 'Service', namespace: 'ns', name: 'gone', uid: 'uid-svc', resourceVersion: '1'} as ServiceView
    expect(staleness(plan, world({services: [service]}), plan)).toEqual(['Service ns/gone exists now'])
    expect(staleness(plan, world({endpoints: [{...endpoints('gone'), resourceVersion: '5'}]}), plan)).toEqual(['Endpoints ns/gone (to delete) changed (resourceVersion 4 → 5)'])
  })
})
