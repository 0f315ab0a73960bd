// The writes of the endpoint and service controllers, against a live API server: EndpointSlices and
// Endpoints (create, full-object update, delete with preconditions, as E7.6 says they are
// written), the Service's finalizer and status as merge patches on its /status subresource (as
// PatchService sends them, L3.6, with the resourceVersion read as a precondition), and the Nodes a
// provider call carries. `dryRun=All` on every write of a dry run.
import type {ApiRequester} from '../../apply/cluster-control.js'
import {type DeletePreconditions, PodControlError, actionError} from '../../apply/pod-control.js'

export type EndpointKind = 'EndpointSlice' | 'Endpoints'

type Obj = Record<string, any>

export interface ServiceControl {
  readonly dryRun: boolean
  get(kind: EndpointKind, namespace: string, name: string): Promise<Obj>
  /** POST; `metadata.generateName` without a name lets the server name it. */
  create(kind: EndpointKind, object: Obj): Promise<{name: string; uid?: string; resourceVersion?: string}>
  /** PUT of the whole object; its metadata.resourceVersion is the precondition. */
  replace(kind: EndpointKind, object: Obj): Promise<{resourceVersion?: string}>
  delete(kind: EndpointKind, namespace: string, name: string, preconditions: DeletePreconditions): Promise<void>
  /** A JSON merge patch on services/status; metadata.resourceVersion in it is the precondition. */
  patchServiceStatus(namespace: string, name: string, patch: Obj): Promise<{resourceVersion?: string}>
  /** The Node as read, for a provider call; a node gone is just its name. */
  node(name: string): Promise<Obj & {metadata: {name: string}}>
}

export function endpointPath(kind: EndpointKind, namespace: string, name?: string): string {
  const base = kind === 'EndpointSlice' ? `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/endpointslices` : `/api/v1/namespaces/${encodeURIComponent(namespace)}/endpoints`
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`
}

export class ClusterServiceControl implements ServiceControl {
  private readonly nodes = new Map<string, Promise<Obj & {metadata: {name: string}}>>()

  constructor(
    private readonly api: ApiRequester,
    readonly dryRun: boolean,
  ) {}

  private get query() {
    return this.dryRun ? {dryRun: 'All'} : undefined
  }

  get(kind: EndpointKind, namespace: string, name: string): Promise<Obj> {
    return this.call(endpointPath(kind, namespace, name), {what: `get ${kind} ${namespace}/${name}`})
  }

  async create(kind: EndpointKind, object: Obj): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    const m = object.metadata
    const made = await this.call<Obj>(endpointPath(kind, m.namespace), {method: 'POST', query: this.query, body: object, what: `create ${kind} ${m.namespace}/${m.name ?? `${m.generateName}*`}`})
    return {name: String(made?.metadata?.name ?? m.name ?? ''), uid: made?.metadata?.uid, resourceVersion: made?.metadata?.resourceVersion}
  }

  async replace(kind: EndpointKind, object: Obj): Promise<{resourceVersion?: string}> {
    const m = object.metadata
    const put = await this.call<Obj>(endpointPath(kind, m.namespace, m.name), {method: 'PUT', query: this.query, body: object, what: `update ${kind} ${m.namespace}/${m.name}`})
    return {resourceVersion: put?.metadata?.resourceVersion}
  }

  async delete(kind: EndpointKind, namespace: string, name: string, pre: DeletePreconditions): Promise<void> {
    await this.call(endpointPath(kind, namespace, name), {
      method: 'DELETE',
      body: {apiVersion: 'v1', kind: 'DeleteOptions', preconditions: {uid: pre.uid, resourceVersion: pre.resourceVersion}, ...(this.dryRun ? {dryRun: ['All']} : {})},
      what: `delete ${kind} ${namespace}/${name}`,
    })
  }

  async patchServiceStatus(namespace: string, name: string, patch: Obj): Promise<{resourceVersion?: string}> {
    const patched = await this.call<Obj>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(name)}/status`, {
      method: 'PATCH',
      query: this.query,
      body: patch,
      contentType: 'application/merge-patch+json',
      what: `patch Service ${namespace}/${name}`,
    })
    return {resourceVersion: patched?.metadata?.resourceVersion}
  }

  node(name: string): Promise<Obj & {metadata: {name: string}}> {
    let read = this.nodes.get(name)
    if (!read) {
      read = this.call<Obj>(`/api/v1/nodes/${encodeURIComponent(name)}`, {what: `get Node ${name}`}).then(
        (n) => n as Obj & {metadata: {name: string}},
        () => ({metadata: {name}}),
      )
      this.nodes.set(name, read)
    }
    return read
  }

  private async call<T>(path: string, opts: Parameters<ApiRequester['request']>[1]): Promise<T> {
    try {
      return await this.api.request<T>(path, opts)
    } catch (error) {
      throw new PodControlError(actionError(error))
    }
  }
}
