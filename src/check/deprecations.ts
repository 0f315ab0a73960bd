// Which apiVersions a Kubernetes release serves, from the Deprecated API Migration Guide
// (kubernetes.io/docs/reference/using-api/deprecation-guide, "Removed APIs by release": 1.16,
// 1.22, 1.25, 1.26, 1.27, 1.29, 1.32) and the releases that deprecated them (the API server's
// deprecation warnings, "X is deprecated in v1.N+, unavailable in v1.M+"). Versions are minor
// numbers of Kubernetes 1.x.
import {UserError} from '../errors.js'

export interface ApiChange {
  apiVersion: string
  kinds: readonly string[]
  /** First minor release that warns about it (undefined: not known to have warned). */
  deprecatedIn?: number
  /** First minor release that no longer serves it (undefined: deprecated, no removal planned). */
  removedIn?: number
  replacement?: string
  /** When the replacement is another kind (Endpoints → EndpointSlice). */
  replacementKind?: string
  /** First minor release that serves the replacement. */
  replacementSince?: number
}

export const API_CHANGES: readonly ApiChange[] = [
  // 1.16
  {apiVersion: 'extensions/v1beta1', kinds: ['Deployment', 'DaemonSet', 'ReplicaSet'], deprecatedIn: 9, removedIn: 16, replacement: 'apps/v1', replacementSince: 9},
  {apiVersion: 'apps/v1beta1', kinds: ['Deployment', 'StatefulSet', 'ReplicaSet'], deprecatedIn: 9, removedIn: 16, replacement: 'apps/v1', replacementSince: 9},
  {apiVersion: 'apps/v1beta2', kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'], deprecatedIn: 9, removedIn: 16, replacement: 'apps/v1', replacementSince: 9},
  {apiVersion: 'extensions/v1beta1', kinds: ['NetworkPolicy'], deprecatedIn: 9, removedIn: 16, replacement: 'networking.k8s.io/v1', replacementSince: 8},
  {apiVersion: 'extensions/v1beta1', kinds: ['PodSecurityPolicy'], deprecatedIn: 10, removedIn: 16, replacement: 'policy/v1beta1', replacementSince: 10},
  // 1.22
  {apiVersion: 'admissionregistration.k8s.io/v1beta1', kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], deprecatedIn: 16, removedIn: 22, replacement: 'admissionregistration.k8s.io/v1', replacementSince: 16},
  {apiVersion: 'apiextensions.k8s.io/v1beta1', kinds: ['CustomResourceDefinition'], deprecatedIn: 16, removedIn: 22, replacement: 'apiextensions.k8s.io/v1', replacementSince: 16},
  {apiVersion: 'apiregistration.k8s.io/v1beta1', kinds: ['APIService'], deprecatedIn: 19, removedIn: 22, replacement: 'apiregistration.k8s.io/v1', replacementSince: 10},
  {apiVersion: 'authentication.k8s.io/v1beta1', kinds: ['TokenReview'], deprecatedIn: 19, removedIn: 22, replacement: 'authentication.k8s.io/v1', replacementSince: 6},
  {apiVersion: 'authorization.k8s.io/v1beta1', kinds: ['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SubjectAccessReview', 'SelfSubjectRulesReview'], deprecatedIn: 19, removedIn: 22, replacement: 'authorization.k8s.io/v1', replacementSince: 6},
  {apiVersion: 'certificates.k8s.io/v1beta1', kinds: ['CertificateSigningRequest'], deprecatedIn: 19, removedIn: 22, replacement: 'certificates.k8s.io/v1', replacementSince: 19},
  {apiVersion: 'coordination.k8s.io/v1beta1', kinds: ['Lease'], deprecatedIn: 19, removedIn: 22, replacement: 'coordination.k8s.io/v1', replacementSince: 14},
  {apiVersion: 'extensions/v1beta1', kinds: ['Ingress'], deprecatedIn: 14, removedIn: 22, replacement: 'networking.k8s.io/v1', replacementSince: 19},
  {apiVersion: 'networking.k8s.io/v1beta1', kinds: ['Ingress', 'IngressClass'], deprecatedIn: 19, removedIn: 22, replacement: 'networking.k8s.io/v1', replacementSince: 19},
  {apiVersion: 'rbac.authorization.k8s.io/v1beta1', kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'], deprecatedIn: 17, removedIn: 22, replacement: 'rbac.authorization.k8s.io/v1', replacementSince: 8},
  {apiVersion: 'rbac.authorization.k8s.io/v1alpha1', kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'], deprecatedIn: 17, removedIn: 22, replacement: 'rbac.authorization.k8s.io/v1', replacementSince: 8},
  {apiVersion: 'scheduling.k8s.io/v1beta1', kinds: ['PriorityClass'], deprecatedIn: 14, removedIn: 22, replacement: 'scheduling.k8s.io/v1', replacementSince: 14},
  {apiVersion: 'storage.k8s.io/v1beta1', kinds: ['CSIDriver'], deprecatedIn: 19, removedIn: 22, replacement: 'storage.k8s.io/v1', replacementSince: 19},
  {apiVersion: 'storage.k8s.io/v1beta1', kinds: ['CSINode'], deprecatedIn: 17, removedIn: 22, replacement: 'storage.k8s.io/v1', replacementSince: 17},
  {apiVersion: 'storage.k8s.io/v1beta1', kinds: ['StorageClass'], deprecatedIn: 19, removedIn: 22, replacement: 'storage.k8s.io/v1', replacementSince: 6},
  {apiVersion: 'storage.k8s.io/v1beta1', kinds: ['VolumeAttachment'], deprecatedIn: 19, removedIn: 22, replacement: 'storage.k8s.io/v1', replacementSince: 13},
  // 1.25
  {apiVersion: 'batch/v1beta1', kinds: ['CronJob'], deprecatedIn: 21, removedIn: 25, replacement: 'batch/v1', replacementSince: 21},
  {apiVersion: 'discovery.k8s.io/v1beta1', kinds: ['EndpointSlice'], deprecatedIn: 21, removedIn: 25, replacement: 'discovery.k8s.io/v1', replacementSince: 21},
  {apiVersion: 'events.k8s.io/v1beta1', kinds: ['Event'], deprecatedIn: 22, removedIn: 25, replacement: 'events.k8s.io/v1', replacementSince: 19},
  {apiVersion: 'autoscaling/v2beta1', kinds: ['HorizontalPodAutoscaler'], deprecatedIn: 22, removedIn: 25, replacement: 'autoscaling/v2', replacementSince: 23},
  {apiVersion: 'policy/v1beta1', kinds: ['PodDisruptionBudget'], deprecatedIn: 21, removedIn: 25, replacement: 'policy/v1', replacementSince: 21},
  {apiVersion: 'policy/v1beta1', kinds: ['PodSecurityPolicy'], deprecatedIn: 21, removedIn: 25},
  {apiVersion: 'node.k8s.io/v1beta1', kinds: ['RuntimeClass'], deprecatedIn: 22, removedIn: 25, replacement: 'node.k8s.io/v1', replacementSince: 20},
  // 1.26
  {apiVersion: 'autoscaling/v2beta2', kinds: ['HorizontalPodAutoscaler'], deprecatedIn: 23, removedIn: 26, replacement: 'autoscaling/v2', replacementSince: 23},
  {apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], deprecatedIn: 23, removedIn: 26, replacement: 'flowcontrol.apiserver.k8s.io/v1', replacementSince: 29},
  // 1.27
  {apiVersion: 'storage.k8s.io/v1beta1', kinds: ['CSIStorageCapacity'], deprecatedIn: 24, removedIn: 27, replacement: 'storage.k8s.io/v1', replacementSince: 24},
  // 1.29
  {apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], deprecatedIn: 26, removedIn: 29, replacement: 'flowcontrol.apiserver.k8s.io/v1', replacementSince: 29},
  // 1.32
  {apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], deprecatedIn: 29, removedIn: 32, replacement: 'flowcontrol.apiserver.k8s.io/v1', replacementSince: 29},
  // Deprecated, still served.
  {apiVersion: 'v1', kinds: ['Endpoints'], deprecatedIn: 33, replacement: 'discovery.k8s.io/v1', replacementKind: 'EndpointSlice', replacementSince: 21},
  {apiVersion: 'v1', kinds: ['ComponentStatus'], deprecatedIn: 19},
]

/** Current apiVersions and the first release that served them (for targets older than that). */
export const INTRODUCED: ReadonlyArray<{apiVersion: string; kinds: readonly string[]; since: number}> = [
  {apiVersion: 'apps/v1', kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ControllerRevision'], since: 9},
  {apiVersion: 'batch/v1', kinds: ['CronJob'], since: 21},
  {apiVersion: 'policy/v1', kinds: ['PodDisruptionBudget'], since: 21},
  {apiVersion: 'autoscaling/v2', kinds: ['HorizontalPodAutoscaler'], since: 23},
  {apiVersion: 'networking.k8s.io/v1', kinds: ['Ingress', 'IngressClass'], since: 19},
  {apiVersion: 'discovery.k8s.io/v1', kinds: ['EndpointSlice'], since: 21},
  {apiVersion: 'events.k8s.io/v1', kinds: ['Event'], since: 19},
  {apiVersion: 'node.k8s.io/v1', kinds: ['RuntimeClass'], since: 20},
  {apiVersion: 'certificates.k8s.io/v1', kinds: ['CertificateSigningRequest'], since: 19},
  {apiVersion: 'storage.k8s.io/v1', kinds: ['CSIDriver'], since: 19},
  {apiVersion: 'storage.k8s.io/v1', kinds: ['CSIStorageCapacity'], since: 24},
  {apiVersion: 'admissionregistration.k8s.io/v1', kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'], since: 16},
  {apiVersion: 'apiextensions.k8s.io/v1', kinds: ['CustomResourceDefinition'], since: 16},
  {apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], since: 29},
  {apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kinds: ['FlowSchema', 'PriorityLevelConfiguration'], since: 26},
]

/** The Kubernetes version kctl models when nothing else says which: kube-controller-manager 1.36. */
export const DEFAULT_K8S_MINOR = 36

/** `1.25`, `v1.25`, `1.25.3`, `v1.25.3-gke.100` → 25. */
export function parseK8sVersion(text: string, what = '--k8s-version'): number {
  const m = /^v?1\.(\d{1,3})(?:\.\d+)?(?:[-+].*)?$/.exec(text.trim())
  if (!m) throw new UserError(`invalid ${what} "${text}": expected a Kubernetes version such as 1.29 or v1.29.3`)
  return Number(m[1])
}

export const formatMinor = (minor: number) => `1.${minor}`

export interface ApiVerdict {
  severity: 'error' | 'warning'
  message: string
}

const CHANGES_BY_KEY = new Map<string, ApiChange>()
for (const c of API_CHANGES) for (const k of c.kinds) CHANGES_BY_KEY.set(`${c.apiVersion}|${k}`, c)
const INTRODUCED_BY_KEY = new Map<string, number>()
for (const c of INTRODUCED) for (const k of c.kinds) INTRODUCED_BY_KEY.set(`${c.apiVersion}|${k}`, c.since)

/** Verdicts given so far: target → apiVersion → kind → verdict (null: nothing to say). Inputs use few of each. */
const verdicts = new Map<number, Map<string, Map<string, ApiVerdict | null>>>()

/** What Kubernetes 1.`target` says about `kind` served as `apiVersion`; undefined when nothing. */
export function apiVerdict(apiVersion: string, kind: string, target: number): ApiVerdict | undefined {
  let byVersion = verdicts.get(target)
  if (!byVersion) verdicts.set(target, (byVersion = new Map()))
  let byKind = byVersion.get(apiVersion)
  if (!byKind) byVersion.set(apiVersion, (byKind = new Map()))
  let verdict = byKind.get(kind)
  if (verdict === undefined) byKind.set(kind, (verdict = judgeApi(apiVersion, kind, target) ?? null))
  return verdict ? {...verdict} : undefined
}

function judgeApi(apiVersion: string, kind: string, target: number): ApiVerdict | undefined {
  const key = `${apiVersion}|${kind}`
  const change = CHANGES_BY_KEY.get(key)
  const use = (c: ApiChange) =>
    c.replacement ? `; use ${c.replacementKind ? `${c.replacementKind} ` : ''}${c.replacement}${c.replacementSince !== undefined && c.replacementSince > target ? ` (served from ${formatMinor(c.replacementSince)})` : ''}` : ''
  if (change) {
    if (change.removedIn !== undefined && target >= change.removedIn) {
      return {severity: 'error', message: `${kind} ${apiVersion} is no longer served since Kubernetes ${formatMinor(change.removedIn)} (target ${formatMinor(target)}): the API server rejects it${use(change)}`}
    }
    if (change.deprecatedIn !== undefined && target >= change.deprecatedIn) {
      const removal = change.removedIn !== undefined ? `, and removed in ${formatMinor(change.removedIn)}` : ''
      return {severity: 'warning', message: `${kind} ${apiVersion} is deprecated since Kubernetes ${formatMinor(change.deprecatedIn)}${removal}${use(change)}`}
    }
    return undefined
  }
  const since = INTRODUCED_BY_KEY.get(key)
  if (since !== undefined && target < since) {
    return {severity: 'error', message: `${kind} ${apiVersion} is not served by Kubernetes ${formatMinor(target)} yet (from ${formatMinor(since)} on): the API server rejects it`}
  }
  return undefined
}

/** The current apiVersion to validate an object of a retired version as (it is the same resource). */
export function servedAs(apiVersion: string, kind: string): string | undefined {
  const change = CHANGES_BY_KEY.get(`${apiVersion}|${kind}`)
  return change?.replacementKind ? undefined : change?.replacement
}
