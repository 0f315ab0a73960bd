// One Service's plan carried out: the next syncs of the three controllers that write for it, each
// on its own as upstream runs them, in the plan's order —
//   1. the EndpointSlice controller (or the mirroring controller): creates (generateName
//      `<service>-`), then full-object updates, then deletes (reconciler.go finalize); the first
//      failure ends that controller's writes, as its sync returns the error (E8.10);
//   2. the legacy Endpoints controller: one create or update of the Endpoints object (or, for an
//      Endpoints object no Service owns, its delete: E12.1);
//   3. the service controller, through the cloud provider: the finalizer first, then the call
//      (EnsureLoadBalancer, UpdateLoadBalancer, or GetLoadBalancer + EnsureLoadBalancerDeleted),
//      then the status (processServiceCreateOrUpdate, processLoadBalancerDelete). A failed call ends
//      it there: the finalizer stays, no status is written.
// Updates and deletes carry the planned uid and resourceVersion as preconditions (a slice or
// Endpoints object that changed since planning stops the run); the Service's patches carry the
// version read, then the one each patch leaves. Without a cloud provider, or in a dry run (a
// provider has no dry run), the load-balancer writes are not sent and the result says why.
import type {ActionError, ActionResult} from '../../model/apply.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {
  CreateEndpointSliceAction,
  DeleteEndpointsAction,
  EndpointSubsetView,
  EndpointView,
  LoadBalancerIngress,
  ServiceAction,
  UpdateEndpointSliceAction,
  WriteEndpointsAction,
} from './model.js'
import {LB_FINALIZER} from './model.js'
import type {Cloud, CloudNode} from '../../cloud/provider.js'
import {CloudProviderError} from '../../cloud/provider.js'
import {deepEqual} from '../../reconcile/deep-equal.js'
import {OVER_CAPACITY} from './endpoints.js'
import {TRIGGER_TIME} from './endpoints-common.js'
import {actionError} from '../../apply/pod-control.js'
import type {EndpointKind, ServiceControl} from './control.js'
import {SKIP, SyncBase, type Run} from '../../apply/sync.js'

type Obj = Record<string, any>

export const SERVICE_SKIP = {
  noCloud: 'not sent: no cloud provider was given (--lb-pool CIDR or --cloud-provider-exec PATH)',
  dryRunCloud: 'not sent: a dry run does not call the cloud provider (a provider has no dry run)',
  noEndpointsControl: 'not sent: Service writes are carried out against a cluster only',
  serviceDeleting: 'not sent: the Service is being deleted, and the controller skips creates then',
  randomDraw: 'not sent: this slice takes endpoints from a pool (service.pools) whose endpoints the plan does not hold (saved by an older kctl); plan again',
  implementedElsewhere: 'not sent: the provider answered ImplementedElsewhere (another component owns this load balancer), so the controller writes nothing more',
} as const

/** The service controller's writes (the rest of a Service's plan is the endpoint controllers'). */
export const LOAD_BALANCER_ACTIONS = new Set<string>(['addLoadBalancerFinalizer', 'ensureLoadBalancer', 'updateLoadBalancerHosts', 'writeLoadBalancerStatus', 'ensureLoadBalancerDeleted', 'removeLoadBalancerFinalizer'])
const SLICE_ACTIONS = new Set<ServiceAction['type']>(['createEndpointSlice', 'updateEndpointSlice', 'deleteEndpointSlice'])

export class ServiceSync extends SyncBase {
  private service!: Obj
  /** The Service's resourceVersion now (each patch of this sync moves it). */
  private version!: string
  /** Per pool: how many of its endpoints the slices written so far took. */
  private readonly poolCursor = new Map<number, number>()

  constructor(
    run: Run,
    cp: ControllerPlan,
    private readonly writes: ServiceControl | undefined,
    private readonly cloud: Cloud | undefined,
  ) {
    super(run, cp)
  }

  private get actions(): readonly ServiceAction[] {
    return this.cp.actions as ServiceAction[]
  }

  protected async steps(): Promise<void> {
    if (!this.writes) return this.stop(SERVICE_SKIP.noEndpointsControl)
    if (this.cp.service?.absent) return this.leftoverEndpoints()
    const controller = await this.readController()
    if (!controller) return
    this.service = controller.raw as Obj
    this.version = controller.resourceVersion
    const slices = (mirror: boolean) => this.indexesWhere((a) => SLICE_ACTIONS.has(a.type) && ('controller' in a && a.controller === 'endpointslicemirroring') === mirror)
    await this.inOrder(slices(false), (i) => this.sliceWrite(i))
    await this.inOrder(slices(true), (i) => this.sliceWrite(i))
    await this.inOrder(this.indexesWhere((a) => a.type === 'writeEndpoints'), (i) => this.endpointsWrite(i))
    await this.loadBalancer(this.indexesWhere((a) => LOAD_BALANCER_ACTIONS.has(a.type)))
  }

  private indexesWhere(test: (a: ServiceAction) => boolean): number[] {
    return this.actions.flatMap((a, i) => (test(a) ? [i] : []))
  }

  /** One controller's writes, one at a time; after a failure the rest are not sent. */
  private async inOrder(indexes: number[], write: (i: number) => Promise<boolean>): Promise<void> {
    for (const [n, i] of indexes.entries()) {
      const halt = this.run.stopReason()
      if (halt) return
      if (!(await write(i))) {
        for (const j of indexes.slice(n + 1)) this.results[j].skipReason ??= SKIP.afterFailedWrite
        return
      }
    }
  }

  /**
   * A call settled into result `i`: true when the controller's writes go on. `target` is what the
   * write names, and whether the plan saw it (an update, delete or patch) or not (a create).
   */
  private async attempt(i: number, call: () => Promise<ActionResult['done'] | void>, target: {what: string; seen: boolean}): Promise<boolean> {
    const r = this.results[i]
    try {
      const done = await this.run.calls.run(call)
      if (done) r.done = {...(r.done ?? {}), ...done}
      this.settle(r, 'ok')
      return true
    } catch (e) {
      const error = actionError(e)
      // 409: a precondition, or a name taken since planning; 404/422 on an object the plan saw: gone or replaced.
      if (error.code === 409 || (target.seen && (error.code === 404 || error.code === 422))) this.conflicted(r, error, `${target.what} changed since planning`)
      else this.settle(r, 'failed', error)
      return false
    }
  }

  private async sliceWrite(i: number): Promise<boolean> {
    const a = this.actions[i] as CreateEndpointSliceAction | UpdateEndpointSliceAction | Extract<ServiceAction, {type: 'deleteEndpointSlice'}>
    const ns = this.cp.namespace
    const writes = this.writes!
    if (a.type === 'createEndpointSlice' && a.skipped) {
      this.results[i].skipReason = SERVICE_SKIP.serviceDeleting
      return true
    }
    const drawn = a.type === 'deleteEndpointSlice' ? [] : this.draw(a)
    if (drawn === undefined) {
      this.results[i].skipReason = SERVICE_SKIP.randomDraw
      return true
    }
    // Which of the pool's pods reconcile put here (the controller's pick is random).
    if (drawn.length > 0) this.results[i].done = {chosen: drawn.map((ep) => ep.targetRef?.name ?? ep.addresses.join(','))}
    switch (a.type) {
      case 'createEndpointSlice':
        return this.attempt(i, async () => {
          const made = await writes.create('EndpointSlice', sliceObject(a, drawn, ns, {generateName: a.generateName, ownerReferences: [{...a.ownerReference}]}))
          return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
        }, {what: `EndpointSlice ${ns}/${a.generateName}*`, seen: false})
      case 'updateEndpointSlice':
        return this.attempt(i, async () => {
          const now = await writes.get('EndpointSlice', ns, a.name)
          unchangedSince(now, a, `EndpointSlice ${ns}/${a.name}`)
          // A recycled slice is written fresh under the old name (finalize): the Service owns it.
          const owners = a.recycled && a.controller === undefined ? [this.owner()] : (now.metadata?.ownerReferences ?? [])
          const object = sliceObject(a, drawn, ns, {name: a.name, ownerReferences: owners, resourceVersion: a.resourceVersion, annotations: a.recycled ? {} : now.metadata?.annotations})
          const put = await writes.replace('EndpointSlice', object)
          return put.resourceVersion ? {resourceVersion: put.resourceVersion} : undefined
        }, {what: `EndpointSlice ${ns}/${a.name}`, seen: true})
      case 'deleteEndpointSlice':
        return this.attempt(i, () => this.deleteObject('EndpointSlice', a), {what: `EndpointSlice ${ns}/${a.name}`, seen: true})
    }
  }

  /**
   * The endpoints a slice takes from its pool (`random` of them): the controller draws them in Go's
   * map order, reconcile takes the next ones in the pool's order (by pod name). Undefined when the
   * plan does not hold the pool's endpoints (saved by an older kctl).
   */
  private draw(a: CreateEndpointSliceAction | UpdateEndpointSliceAction): EndpointView[] | undefined {
    if (!a.random) return []
    const pool = this.cp.service?.pools?.find((p) => p.id === a.pool && p.addressType === a.addressType)
    if (!pool?.endpoints) return undefined
    const from = this.poolCursor.get(pool.id) ?? 0
    this.poolCursor.set(pool.id, from + a.random)
    return pool.endpoints.slice(from, from + a.random)
  }

  private endpointsWrite(i: number): Promise<boolean> {
    const a = this.actions[i] as WriteEndpointsAction
    const ns = this.cp.namespace
    const writes = this.writes!
    return this.attempt(i, async () => {
      if (a.verb === 'create') {
        const made = await writes.create('Endpoints', endpointsObject(a, ns, {}))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      const now = await writes.get('Endpoints', ns, a.name)
      if (a.resourceVersion !== undefined && now.metadata?.resourceVersion !== a.resourceVersion) throw changed(`Endpoints ${ns}/${a.name}`, a.resourceVersion, now.metadata?.resourceVersion)
      const object = endpointsObject(a, ns, now.metadata?.annotations ?? {})
      object.metadata.resourceVersion = now.metadata?.resourceVersion
      const put = await writes.replace('Endpoints', object)
      return put.resourceVersion ? {resourceVersion: put.resourceVersion} : undefined
    }, {what: `Endpoints ${ns}/${a.name}`, seen: a.verb === 'update'})
  }

  /**
   * E12.1: the Endpoints controller's sync of a key whose Service is not found deletes the
   * Endpoints object (syncService). The Service must still be absent: one created since planning
   * owns the object now.
   */
  private async leftoverEndpoints(): Promise<void> {
    const halt = this.run.stopReason()
    if (halt) return this.stop(halt)
    try {
      await this.run.calls.run(() => this.control.getController(this.cp))
      this.error = {message: `${this.label} exists now; the plan deleted its Endpoints object as a leftover`}
      this.run.conflict ??= this.error.message
      return this.stop(SKIP.controllerChanged)
    } catch (e) {
      const error = actionError(e)
      if (error.code !== 404) {
        this.error = error
        return this.stop(SKIP.controllerUnreadable)
      }
    }
    const ns = this.cp.namespace
    await this.inOrder(this.indexesWhere((a) => a.type === 'deleteEndpoints'), (i) => {
      const a = this.actions[i] as DeleteEndpointsAction
      return this.attempt(i, () => this.deleteObject('Endpoints', a), {what: `Endpoints ${ns}/${a.name}`, seen: true})
    })
  }

  /** A DELETE with the planned uid and resourceVersion as preconditions; one already gone counts as done. */
  private async deleteObject(kind: EndpointKind, a: {name: string; uid: string; resourceVersion: string}): Promise<ActionResult['done'] | void> {
    try {
      await this.writes!.delete(kind, this.cp.namespace, a.name, {uid: a.uid, resourceVersion: a.resourceVersion})
    } catch (e) {
      if (actionError(e).code === 404) return {alreadyGone: true}
      throw e
    }
  }

  // ---- The service controller, through the cloud provider ----

  private async loadBalancer(indexes: number[]): Promise<void> {
    if (indexes.length === 0) return
    if (!this.cloud) {
      for (const i of indexes) this.results[i].skipReason = SERVICE_SKIP.noCloud
      return
    }
    for (const [n, i] of indexes.entries()) {
      if (this.run.stopReason()) return
      const a = this.actions[i]
      if (this.writes!.dryRun && a.type !== 'addLoadBalancerFinalizer') {
        for (const j of indexes.slice(n)) this.results[j].skipReason = SERVICE_SKIP.dryRunCloud
        return
      }
      const go = await this.lbWrite(i)
      if (go !== true) {
        for (const j of indexes.slice(n + 1)) this.results[j].skipReason ??= go === 'elsewhere' ? SERVICE_SKIP.implementedElsewhere : SKIP.afterFailedWrite
        return
      }
    }
  }

  /** One write of the service controller: true to go on, false after a failure, `elsewhere` after ImplementedElsewhere. */
  private async lbWrite(i: number): Promise<boolean | 'elsewhere'> {
    const a = this.actions[i]
    const r = this.results[i]
    const {provider, clusterName} = this.cloud!
    const label = `Service ${this.cp.namespace}/${this.cp.name}`
    switch (a.type) {
      case 'addLoadBalancerFinalizer':
      case 'removeLoadBalancerFinalizer': {
        const had: string[] = this.service.metadata?.finalizers ?? []
        const finalizers = a.type === 'addLoadBalancerFinalizer' ? (had.includes(LB_FINALIZER) ? had : [...had, LB_FINALIZER]) : had.filter((f) => f !== LB_FINALIZER)
        return this.attempt(i, () => this.patchService({metadata: {finalizers: finalizers.length > 0 ? finalizers : null}}, {finalizers}), {what: label, seen: true})
      }
      case 'ensureLoadBalancer':
      case 'updateLoadBalancerHosts': {
        const nodes = await Promise.all(a.hosts.map((h) => this.writes!.node(h) as Promise<CloudNode>))
        return this.providerCall(i, async () => {
          if (a.type === 'updateLoadBalancerHosts') {
            try {
              await provider.updateLoadBalancer(clusterName, this.service, nodes)
            } catch (e) {
              // nodeSyncService: an update of a load balancer that no longer exists is not an error.
              if (e instanceof CloudProviderError && e.kind === 'Error' && !(await provider.getLoadBalancer(clusterName, this.service)).exists) return undefined
              throw e
            }
            return undefined
          }
          const status = await provider.ensureLoadBalancer(clusterName, this.service, nodes)
          return {loadBalancer: {ingress: status.ingress}}
        })
      }
      case 'ensureLoadBalancerDeleted':
        return this.providerCall(i, async () => {
          const {exists} = await provider.getLoadBalancer(clusterName, this.service)
          if (!exists) return {existed: false}
          try {
            await provider.ensureLoadBalancerDeleted(clusterName, this.service)
          } catch (e) {
            // processLoadBalancerDelete ignores ImplementedElsewhere: the finalizer and status still go.
            if (e instanceof CloudProviderError && e.kind === 'ImplementedElsewhere') return {existed: true, implementedElsewhere: true}
            throw e
          }
          return {existed: true}
        })
      case 'writeLoadBalancerStatus': {
        const now: LoadBalancerIngress[] = this.service.status?.loadBalancer?.ingress ?? []
        let ingress: LoadBalancerIngress[] = []
        if (a.ingress === 'fromProvider') {
          const ensured = this.results.find((x) => x.action === 'ensureLoadBalancer')?.done?.loadBalancer
          if (!ensured) return true
          ingress = ensured.ingress
        }
        // Written only when it differs (the ingress alone is compared, L3.4).
        if (deepEqual(now, ingress)) {
          r.done = {unchanged: true}
          this.settle(r, 'ok')
          return true
        }
        return this.attempt(i, async () => {
          try {
            return await this.patchService({status: {loadBalancer: {ingress: ingress.length > 0 ? ingress : null}}}, {})
          } catch (e) {
            // After the finalizer went, the Service may be gone: that clears its status too.
            if (a.ingress === 'clear' && actionError(e).code === 404) return {alreadyGone: true}
            throw e
          }
        }, {what: label, seen: true})
      }
      default:
        return true
    }
  }

  /** A provider call settled into result `i`; a provider error is one line, and the sync ends. */
  private async providerCall(i: number, call: () => Promise<ActionResult['done'] | undefined>): Promise<boolean | 'elsewhere'> {
    const r = this.results[i]
    try {
      const done = await call()
      if (done) r.done = {...(r.done ?? {}), ...done}
      this.settle(r, 'ok')
      return true
    } catch (e) {
      if (e instanceof CloudProviderError && e.kind === 'ImplementedElsewhere') {
        r.done = {implementedElsewhere: true}
        this.settle(r, 'ok')
        return 'elsewhere'
      }
      const message = e instanceof Error ? e.message.split('\n')[0] : String(e)
      const error: ActionError = {message: e instanceof CloudProviderError && e.kind === 'RetryAfter' ? `${message} (the provider asks to retry after ${e.retryAfterSeconds} s)` : message}
      this.settle(r, 'failed', error)
      return false
    }
  }

  /** A merge patch on the Service's /status carrying the version this sync last saw. */
  private async patchService(patch: Obj, changed: {finalizers?: string[]}): Promise<ActionResult['done']> {
    const {resourceVersion} = await this.writes!.patchServiceStatus(this.cp.namespace, this.cp.name, {...patch, metadata: {...(patch.metadata ?? {}), resourceVersion: this.version}})
    if (!this.writes!.dryRun && resourceVersion) {
      this.version = resourceVersion
      if (changed.finalizers) this.service = {...this.service, metadata: {...this.service.metadata, finalizers: changed.finalizers, resourceVersion}}
    }
    return resourceVersion ? {resourceVersion} : {}
  }

  private owner(): Obj {
    return {apiVersion: 'v1', kind: 'Service', name: this.cp.name, uid: this.cp.uid, controller: true, blockOwnerDeletion: true}
  }
}

/** The slice as newEndpointSlice builds it, with the plan's labels, ports, endpoints (and those drawn for it) and trigger time. */
function sliceObject(a: CreateEndpointSliceAction | UpdateEndpointSliceAction, drawn: readonly EndpointView[], namespace: string, meta: {name?: string; generateName?: string; ownerReferences: Obj[]; resourceVersion?: string; annotations?: Record<string, string>}): Obj {
  const annotations: Record<string, string> = {...(meta.annotations ?? {})}
  delete annotations[TRIGGER_TIME]
  if (a.triggerTime) annotations[TRIGGER_TIME] = a.triggerTime
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(meta.name ? {name: meta.name} : {generateName: meta.generateName}),
      namespace,
      labels: {...a.labels},
      ...(Object.keys(annotations).length > 0 ? {annotations} : {}),
      ownerReferences: meta.ownerReferences,
      ...(meta.resourceVersion ? {resourceVersion: meta.resourceVersion} : {}),
    },
    addressType: a.addressType,
    endpoints: [...a.endpoints, ...drawn].map(endpointObject),
    ports: a.ports.map(portObject),
  }
}

function endpointObject(ep: EndpointView): Obj {
  return {
    addresses: [...ep.addresses],
    conditions: {...ep.conditions},
    ...(ep.hostname ? {hostname: ep.hostname} : {}),
    ...(ep.nodeName ? {nodeName: ep.nodeName} : {}),
    ...(ep.zone ? {zone: ep.zone} : {}),
    ...(ep.targetRef ? {targetRef: {...ep.targetRef}} : {}),
    ...(ep.hints ? {hints: structuredClone(ep.hints)} : {}),
  }
}

const portObject = (p: {name: string; port: number; protocol: string; appProtocol?: string}): Obj => ({
  name: p.name,
  port: p.port,
  protocol: p.protocol,
  ...(p.appProtocol ? {appProtocol: p.appProtocol} : {}),
})

/** The Endpoints object the legacy controller writes: its annotations kept, the two it manages set or removed. */
function endpointsObject(a: WriteEndpointsAction, namespace: string, had: Record<string, string>): Obj {
  const annotations: Record<string, string> = {...had}
  delete annotations[TRIGGER_TIME]
  delete annotations[OVER_CAPACITY]
  if (a.triggerTime) annotations[TRIGGER_TIME] = a.triggerTime
  if (a.truncated) annotations[OVER_CAPACITY] = 'truncated'
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {name: a.name, namespace, labels: {...a.labels}, ...(Object.keys(annotations).length > 0 ? {annotations} : {})},
    subsets: a.subsets.map(subsetObject),
  }
}

function subsetObject(s: EndpointSubsetView): Obj {
  const address = (x: EndpointSubsetView['addresses'][number]): Obj => ({ip: x.ip, ...(x.hostname ? {hostname: x.hostname} : {}), ...(x.nodeName ? {nodeName: x.nodeName} : {}), ...(x.targetRef ? {targetRef: {...x.targetRef}} : {})})
  return {
    ...(s.addresses.length > 0 ? {addresses: s.addresses.map(address)} : {}),
    ...(s.notReadyAddresses.length > 0 ? {notReadyAddresses: s.notReadyAddresses.map(address)} : {}),
    ...(s.ports.length > 0 ? {ports: s.ports.map(portObject)} : {}),
  }
}

/** The object read before a full update must still be the one planned (uid and resourceVersion). */
function unchangedSince(now: Obj, a: {uid: string; resourceVersion: string}, what: string): void {
  if (now.metadata?.uid !== a.uid || now.metadata?.resourceVersion !== a.resourceVersion) throw changed(what, `${a.uid}/${a.resourceVersion}`, `${now.metadata?.uid}/${now.metadata?.resourceVersion}`)
}

function changed(what: string, planned: string | undefined, now: string | undefined): Error & {status: {code: number; reason: string; message: string}} {
  const message = `${what} is not the version planned (uid/resourceVersion ${planned} → ${now})`
  return Object.assign(new Error(message), {status: {code: 409, reason: 'Conflict', message}})
}
