// The cloud a command talks to, from its flags: `--lb-pool CIDR` (the built-in local provider,
// which needs the cluster for its ConfigMap) or `--cloud-provider-exec PATH`; neither: none, and
// load-balancer writes are planned but not sent.
import type {ApiRequester} from '../apply/cluster-control.js'
import {Limiter} from '../apply/limit.js'
import {UserError} from '../errors.js'
import type {CloudLoadBalancerView, ServiceView} from '../controllers/service/model.js'
import {LB_FINALIZER} from '../controllers/service/model.js'
import {ExecProvider} from './exec.js'
import {DEFAULT_LB_NAMESPACE, LocalProvider, parsePool} from './local.js'
import {type Cloud, type CloudService, DEFAULT_CLUSTER_NAME} from './provider.js'

export interface CloudRequest {
  /** --lb-pool CIDR: the local provider. */
  lbPool?: string
  /** --lb-namespace: where the local provider keeps its ConfigMap. */
  lbNamespace?: string
  /** --cloud-provider-exec PATH. */
  cloudProviderExec?: string
  /** --cluster-name, sent with every call. */
  clusterName?: string
}

export const wantsCloud = (req: CloudRequest): boolean => req.lbPool !== undefined || req.cloudProviderExec !== undefined

/** Checks the flags before anything is read: a bad pool or two providers fail at once. */
export function checkCloudFlags(req: CloudRequest, fixtures: boolean): void {
  if (req.lbPool !== undefined && req.cloudProviderExec !== undefined) throw new UserError('--lb-pool and --cloud-provider-exec each name a cloud provider; pass one of them')
  if (req.lbPool !== undefined) {
    parsePool(req.lbPool)
    if (fixtures) throw new UserError('--lb-pool keeps its addresses in a ConfigMap of the cluster, and -f reads files', {hint: 'drop -f, or use --cloud-provider-exec'})
  }
  if (req.lbNamespace !== undefined && req.lbPool === undefined) throw new UserError('--lb-namespace goes with --lb-pool')
}

/** The cloud of the flags, or undefined; `api` is the cluster's (the local provider's ConfigMap). */
export function cloudOf(req: CloudRequest, api: ApiRequester | undefined): Cloud | undefined {
  const clusterName = req.clusterName ?? DEFAULT_CLUSTER_NAME
  if (req.cloudProviderExec !== undefined) return {provider: new ExecProvider(req.cloudProviderExec), clusterName}
  if (req.lbPool === undefined) return undefined
  if (!api) throw new UserError('--lb-pool needs a cluster: drop -f')
  return {provider: new LocalProvider(api, parsePool(req.lbPool), req.lbNamespace ?? DEFAULT_LB_NAMESPACE), clusterName}
}

/** The Service as a provider's GetLoadBalancer receives it before planning (what the snapshot keeps of it). */
export function serviceObject(svc: ServiceView): CloudService {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {namespace: svc.namespace, name: svc.name, uid: svc.uid, resourceVersion: svc.resourceVersion, labels: {...svc.labels}, annotations: {...svc.annotations}, finalizers: [...svc.finalizers]},
    spec: {
      type: svc.type,
      ports: svc.ports.map((p) => ({...p})),
      ...(svc.loadBalancerClass ? {loadBalancerClass: svc.loadBalancerClass} : {}),
      ...(svc.externalTrafficPolicy ? {externalTrafficPolicy: svc.externalTrafficPolicy} : {}),
    },
    status: {loadBalancer: {ingress: svc.ingress.map((i) => ({...i}))}},
  }
}

/**
 * GetLoadBalancer for every Service the service controller acts on (a LoadBalancer without a
 * class, or one with the cleanup finalizer): whether its load balancer exists and the hosts it
 * was last sent, for the planner's node sync.
 */
export async function readLoadBalancers(cloud: Cloud, services: readonly ServiceView[]): Promise<CloudLoadBalancerView[]> {
  const {provider, clusterName} = cloud
  // Services -l leaves out are not planned: their load balancers are not asked about.
  const asked = services.filter((s) => !s.notPlanned && ((s.type === 'LoadBalancer' && s.loadBalancerClass === undefined) || s.finalizers.includes(LB_FINALIZER))).map(serviceObject)
  const calls = new Limiter(PROVIDER_CALLS)
  const states = provider.getLoadBalancers
    ? await provider.getLoadBalancers(clusterName, asked)
    : await Promise.all(asked.map((svc) => calls.run(() => provider.getLoadBalancer(clusterName, svc))))
  return asked.map((svc, i) => ({name: provider.getLoadBalancerName(clusterName, svc), exists: states[i].exists, ...(states[i].hosts ? {hosts: states[i].hosts} : {})}))
}

/** Provider calls in flight at once (an exec provider runs a process per call). */
export const PROVIDER_CALLS = 4

/** The snapshot with the provider's answers, for a request that names a provider. */
export async function withLoadBalancers<S extends {services?: readonly ServiceView[]}>(snapshot: S, cloud: Cloud | undefined): Promise<S> {
  if (!cloud) return snapshot
  return {...snapshot, loadBalancers: await readLoadBalancers(cloud, snapshot.services ?? [])}
}
