// What kctl asks of a cloud to carry out a load-balancer plan: the LoadBalancer methods of
// k8s.io/cloud-provider (cloud.go: GetLoadBalancer, GetLoadBalancerName, EnsureLoadBalancer,
// UpdateLoadBalancer, EnsureLoadBalancerDeleted), asynchronous, with the Service and Nodes as the
// API server stores them. Two implementations: `local` (addresses from a pool, kept in a
// ConfigMap: local.ts) and `exec` (an executable per call, JSON on stdin and stdout: exec.ts).
import {UserError} from '../errors.js'
import type {LoadBalancerIngress, SentHost} from '../controllers/service/model.js'

export type {SentHost} from '../controllers/service/model.js'

type Obj = Record<string, any>

/** A v1 Service as read (metadata, spec, status); providers read what they need from it. */
export type CloudService = Obj

/** A host as the provider receives it: the Node as read, or at least its name. */
export type CloudNode = Obj & {metadata: {name: string}}

export interface LoadBalancerStatus {
  ingress: LoadBalancerIngress[]
}

/** GetLoadBalancer's answer; `hosts` when the provider keeps the hosts it was last sent. */
export interface LoadBalancerState {
  exists: boolean
  status?: LoadBalancerStatus
  hosts?: SentHost[]
}

/**
 * Why a call failed, as upstream distinguishes it: `ImplementedElsewhere` (the sentinel
 * cloudprovider.ImplementedElsewhere: another component owns this load balancer, so the
 * controller writes nothing more), `RetryAfter` (api.RetryError: try again after a fixed delay),
 * or `Error`.
 */
export type CloudErrorKind = 'ImplementedElsewhere' | 'RetryAfter' | 'Error'

export class CloudProviderError extends UserError {
  constructor(
    message: string,
    readonly kind: CloudErrorKind = 'Error',
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'CloudProviderError'
  }
}

export interface LoadBalancerProvider {
  /** `local` or `exec <path>`: how results and notes name it. */
  readonly description: string
  getLoadBalancer(clusterName: string, svc: CloudService): Promise<LoadBalancerState>
  getLoadBalancerName(clusterName: string, svc: CloudService): string
  /** Create or update; answers the status to write. */
  ensureLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<LoadBalancerStatus>
  /** The hosts only. */
  updateLoadBalancer(clusterName: string, svc: CloudService, nodes: CloudNode[]): Promise<void>
  /** Idempotent: a load balancer that is gone already is fine. */
  ensureLoadBalancerDeleted(clusterName: string, svc: CloudService): Promise<void>
  /** Not upstream's: GetLoadBalancer for many Services in one go, for a provider that can (one read of its state). */
  getLoadBalancers?(clusterName: string, services: CloudService[]): Promise<LoadBalancerState[]>
}

/** The provider and the cluster name every call carries (cloud-controller-manager's --cluster-name). */
export interface Cloud {
  provider: LoadBalancerProvider
  clusterName: string
}

/** upstream's --cluster-name default. */
export const DEFAULT_CLUSTER_NAME = 'kubernetes'

/** DefaultLoadBalancerName: "a" + the UID without dashes, at most 32 characters. */
export const defaultLoadBalancerName = (uid: string): string => `a${uid.replaceAll('-', '')}`.slice(0, 32)

export const serviceKey = (svc: CloudService): string => `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`
