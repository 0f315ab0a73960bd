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
  actionError,
  controllerPath,
  podsPath,
} from './pod-control.js'

/** The part of the API client used here (sources/cluster-client.ts's ClusterClient fits it). */
export interface ApiRequester {
  request<T = unknown>(
    path: string,
    opts: {
      method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT'
      query?: Record<string, string | number | boolean | undefined>
      body?: unknown
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
    return {
      uid: String(raw?.metadata?.uid ?? ''),
      resourceVersion: String(raw?.metadata?.resourceVersion ?? ''),
      deletionTimestamp: raw?.metadata?.deletionTimestamp ?? undefined,
      templateSpec: raw?.spec?.template?.spec ?? {},
      raw,
    }
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

  async deletePod(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    await this.call(podsPath(namespace, name), {
      method: 'DELETE',
      query: this.query,
      // With a body the API server reads DeleteOptions from it alone (the query's dryRun is ignored).
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: {uid: preconditions.uid, resourceVersion: preconditions.resourceVersion},
        ...(this.dryRun ? {dryRun: ['All']} : {}),
      },
      what: `delete pod ${namespace}/${name}`,
    })
  }

  async patchPod(namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}> {
    const patched = await this.call<Obj>(podsPath(namespace, name), {
      method: 'PATCH',
      query: this.query,
      body: patch,
      contentType: 'application/strategic-merge-patch+json',
      what: `patch the owner references of pod ${namespace}/${name}`,
    })
    return {resourceVersion: patched?.metadata?.resourceVersion}
  }

  async updateStatus(key: ControllerKey, object: Record<string, unknown>): Promise<{resourceVersion?: string}> {
    const updated = await this.call<Obj>(controllerPath(key, 'status'), {
      method: 'PUT',
      query: this.query,
      body: object,
      what: `update the status of ${key.kind} ${key.namespace}/${key.name}`,
    })
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
