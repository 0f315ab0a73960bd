// PodControl against a live API server: the calls RealPodControl makes, plus the preconditions a
// person-driven tool owes (delete preconditions, the status write's resourceVersion), and
// `dryRun=All` on every write of a dry run so admission, quota and RBAC answer for real.
import {
  type ControllerKey,
  type ControllerObject,
  type CreatedPod,
  type DeletePreconditions,
  type OwnerPatch,
  type PodControl,
  PodControlError,
  type PodManifest,
  type ReplicaSetManifest,
  type ReplicaSetPatch,
  type ObjectPatch,
  type ScaleObject,
  type SideKind,
  type SideObject,
  actionError,
  podsPath,
  replicaSetsPath,
} from './pod-control.js'
import {controllerPath, sidePath} from './resources.js'

/** The part of the API client used here (sources/cluster-client.ts's ClusterClient fits it). */
export interface ApiRequester {
  request<T = unknown>(
    path: string,
    opts: {
      method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT'
      query?: Record<string, string | number | boolean | undefined>
      body?: unknown
      rawBody?: string
      contentType?: string
      what: string
    },
  ): Promise<T>
}

type Obj = Record<string, any>

export class ClusterPodControl implements PodControl {
  constructor(
    private readonly api: ApiRequester,
    readonly dryRun: boolean,
  ) {}

  private get query() {
    return this.dryRun ? {dryRun: 'All'} : undefined
  }

  async getController(key: ControllerKey): Promise<ControllerObject> {
    const raw = await this.call<Obj>(controllerPath(key), {what: `get ${key.kind} ${key.namespace}/${key.name}`})
    return controllerObject(raw)
  }

  async createPod(pod: PodManifest): Promise<CreatedPod> {
    const made = await this.call<Obj>(podsPath(pod.metadata.namespace), {
      method: 'POST',
      query: this.query,
      body: pod,
      what: `create a pod ${pod.metadata.generateName}* in namespace "${pod.metadata.namespace}"`,
    })
    return {name: String(made?.metadata?.name ?? ''), uid: made?.metadata?.uid}
  }

  deletePod(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    return this.delete(podsPath(namespace, name), preconditions, `delete pod ${namespace}/${name}`)
  }

  patchPod(namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}> {
    return this.patch(podsPath(namespace, name), patch, `patch the owner references of pod ${namespace}/${name}`)
  }

  async createReplicaSet(rs: ReplicaSetManifest): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    const made = await this.call<Obj>(replicaSetsPath(rs.metadata.namespace), {
      method: 'POST',
      query: this.query,
      body: rs,
      what: `create ReplicaSet ${rs.metadata.namespace}/${rs.metadata.name}`,
    })
    return {name: String(made?.metadata?.name ?? rs.metadata.name), uid: made?.metadata?.uid, resourceVersion: made?.metadata?.resourceVersion}
  }

  patchReplicaSet(namespace: string, name: string, patch: OwnerPatch | ReplicaSetPatch): Promise<{resourceVersion?: string}> {
    const what = 'spec' in patch ? `update ReplicaSet ${namespace}/${name}` : `patch the owner references of ReplicaSet ${namespace}/${name}`
    return this.patch(replicaSetsPath(namespace, name), patch, what)
  }

  deleteReplicaSet(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    return this.delete(replicaSetsPath(namespace, name), preconditions, `delete ReplicaSet ${namespace}/${name}`)
  }

  getObject(kind: SideKind, namespace: string, name: string): Promise<Record<string, unknown>> {
    return this.call<Obj>(sidePath(kind, namespace, name), {what: `get ${kind} ${namespace}/${name}`})
  }

  async createObject(object: SideObject, json?: string): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    const {namespace, name} = object.metadata
    const made = await this.call<Obj>(sidePath(object.kind, namespace), {
      method: 'POST',
      query: this.query,
      ...(json === undefined ? {body: object} : {rawBody: json}),
      what: `create ${object.kind} ${namespace}/${name}`,
    })
    return {name: String(made?.metadata?.name ?? name), uid: made?.metadata?.uid, resourceVersion: made?.metadata?.resourceVersion}
  }

  async patchObject(kind: SideKind | 'Pod', namespace: string, name: string, patch: ObjectPatch | OwnerPatch, type: 'merge' | 'strategic'): Promise<{resourceVersion?: string}> {
    const patched = await this.call<Obj>(sidePath(kind, namespace, name), {
      method: 'PATCH',
      query: this.query,
      body: patch,
      contentType: type === 'merge' ? 'application/merge-patch+json' : 'application/strategic-merge-patch+json',
      what: `patch ${kind} ${namespace}/${name}`,
    })
    return {resourceVersion: patched?.metadata?.resourceVersion}
  }

  deleteObject(kind: SideKind, namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    return this.delete(sidePath(kind, namespace, name), preconditions, `delete ${kind} ${namespace}/${name}`)
  }

  private async delete(path: string, preconditions: DeletePreconditions, what: string): Promise<void> {
    await this.call(path, {
      method: 'DELETE',
      query: this.query,
      // With a body the API server reads DeleteOptions from it alone (the query's dryRun is ignored).
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: {uid: preconditions.uid, ...(preconditions.resourceVersion === undefined ? {} : {resourceVersion: preconditions.resourceVersion})},
        ...(preconditions.propagationPolicy ? {propagationPolicy: preconditions.propagationPolicy} : {}),
        ...(this.dryRun ? {dryRun: ['All']} : {}),
      },
      what,
    })
  }

  /** A strategic-merge patch: owner references merge by uid; a resourceVersion in it is a precondition. */
  private async patch(path: string, body: unknown, what: string): Promise<{resourceVersion?: string}> {
    const patched = await this.call<Obj>(path, {method: 'PATCH', query: this.query, body, contentType: 'application/strategic-merge-patch+json', what})
    return {resourceVersion: patched?.metadata?.resourceVersion}
  }

  updateStatus(key: ControllerKey, object: Record<string, unknown>): Promise<{resourceVersion?: string}> {
    return this.put(key, 'status', object)
  }

  updateScale(key: ControllerKey, scale: ScaleObject): Promise<{resourceVersion?: string}> {
    return this.put(key, 'scale', scale)
  }

  /** A PUT of a subresource (`status`, `scale`): the body's resourceVersion is the precondition. */
  private async put(key: ControllerKey, sub: 'status' | 'scale', body: unknown): Promise<{resourceVersion?: string}> {
    const path = key.customScale ? `/apis/${key.apiVersion}/namespaces/${encodeURIComponent(key.namespace)}/${key.customScale.resource.split('.')[0]}/${encodeURIComponent(key.name)}/${sub}` : controllerPath(key, sub)
    const updated = await this.call<Obj>(path, {method: 'PUT', query: this.query, body, what: `update the ${sub} of ${key.kind} ${key.namespace}/${key.name}`})
    return {resourceVersion: updated?.metadata?.resourceVersion}
  }

  /** Every failure becomes a PodControlError carrying the server's code, reason and message. */
  private async call<T>(path: string, opts: Parameters<ApiRequester['request']>[1]): Promise<T> {
    try {
      return await this.api.request<T>(path, opts)
    } catch (error) {
      throw new PodControlError(actionError(error))
    }
  }
}

/** A controller object as read: what the executor checks and copies. */
function controllerObject(raw: Obj): ControllerObject {
  return {
    uid: String(raw?.metadata?.uid ?? ''),
    resourceVersion: String(raw?.metadata?.resourceVersion ?? ''),
    deletionTimestamp: raw?.metadata?.deletionTimestamp ?? undefined,
    templateSpec: raw?.spec?.template?.spec ?? {},
    raw,
  }
}
