// A kustomize root read without kustomize: what `-f DIR` does with a kustomization when neither
// kustomize nor kubectl is on PATH. Its resources are read as they are, and the few transformers
// that only stamp fields on every object are applied, the way kustomize's built-in ones do them
// (api/internal/konfig/builtinpluginconsts: the field specs of commonLabels, labels, namespace,
// namePrefix/nameSuffix, commonAnnotations). A kustomization that uses anything else (patches,
// generators, components, images, remote resources…) cannot be read faithfully here: it is
// skipped, and the reason given.
import {statSync} from 'node:fs'
import {join, normalize} from 'node:path'

import {KUSTOMIZATION_FILES, loadKustomization} from './layout.js'
import type {RawObject} from './source-object.js'

/** Changes one object in place, as a kustomization's transformers would. */
export type Transform = (raw: RawObject) => void

/** A file a kustomize root reads as objects, with the transforms of every kustomization on the way (innermost first). */
export interface KustomizeResource {
  fsPath: string
  transforms: Transform[]
}

export type KustomizeRead = {resources: KustomizeResource[]} | {unsupported: string}

/** The fields kctl can apply itself; anything else (non-empty) makes the root unreadable without kustomize. */
const HANDLED = new Set(['apiVersion', 'kind', 'metadata', 'resources', 'bases', 'namespace', 'commonLabels', 'labels', 'commonAnnotations', 'namePrefix', 'nameSuffix', 'buildMetadata', 'sortOptions', 'generatorOptions'])

/** The kustomization file in `dir`, if any. */
export function kustomizationFile(dir: string): string | undefined {
  for (const name of KUSTOMIZATION_FILES) {
    try {
      if (statSync(join(dir, name)).isFile()) return join(dir, name)
    } catch {
      // not this one
    }
  }
  return undefined
}

/** The resources of the kustomization in `dir`, or why they cannot be read without kustomize. */
export function readKustomizeRoot(dir: string, seen: ReadonlySet<string> = new Set()): KustomizeRead {
  const file = kustomizationFile(dir)
  if (!file) return {unsupported: `${dir} has no kustomization file`}
  const key = normalize(dir)
  if (seen.has(key)) return {unsupported: `${dir} includes itself`}
  const k = loadKustomization(file)
  if (!k) return {unsupported: `${file} is not a readable kustomization`}
  const other = Object.keys(k).filter((f) => !HANDLED.has(f) && !isEmpty(k[f]))
  if (other.length > 0) return {unsupported: other.join(', ')}
  const own = transformsOf(k)
  if (typeof own === 'string') return {unsupported: own}
  const resources: KustomizeResource[] = []
  for (const entry of [...strings(k.bases), ...strings(k.resources)]) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(entry) || entry.startsWith('git@')) return {unsupported: `remote resource ${entry}`}
    const path = join(dir, entry)
    let isDir = false
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      return {unsupported: `resource ${entry} does not exist`}
    }
    if (isDir) {
      const inner = readKustomizeRoot(path, new Set([...seen, key]))
      if ('unsupported' in inner) return inner
      for (const r of inner.resources) resources.push({fsPath: r.fsPath, transforms: [...r.transforms, ...own]})
    } else resources.push({fsPath: normalize(path), transforms: own})
  }
  return {resources}
}

const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0) || v === ''
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
const stringMap = (v: unknown): Record<string, string> | undefined => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(v)) out[key] = String(value)
  return out
}

/** The transforms a kustomization's own fields ask for, in kustomize's order, or why not. */
function transformsOf(k: Record<string, unknown>): Transform[] | string {
  const out: Transform[] = []
  if (typeof k.namespace === 'string' && k.namespace !== '') out.push(setNamespace(k.namespace))
  const prefix = typeof k.namePrefix === 'string' ? k.namePrefix : ''
  const suffix = typeof k.nameSuffix === 'string' ? k.nameSuffix : ''
  if (prefix !== '' || suffix !== '') out.push(rename(prefix, suffix))
  const common = stringMap(k.commonLabels)
  if (common && Object.keys(common).length > 0) out.push(addLabels(common, true, true))
  if (k.labels !== undefined && k.labels !== null) {
    if (!Array.isArray(k.labels)) return 'labels is not a list'
    for (const l of k.labels as Array<Record<string, unknown>>) {
      if (l?.fields !== undefined) return 'labels with fields'
      const pairs = stringMap(l?.pairs)
      if (pairs && Object.keys(pairs).length > 0) out.push(addLabels(pairs, l.includeSelectors === true, l.includeSelectors === true || l.includeTemplates === true))
    }
  }
  const annotations = stringMap(k.commonAnnotations)
  if (annotations && Object.keys(annotations).length > 0) out.push(addAnnotations(annotations))
  return out
}

// ---------------------------------------------------------------------------------------------
// Field specs, as data: [path, kinds (undefined: every kind), create missing mappings]

type Spec = readonly [path: readonly string[], kinds: readonly string[] | undefined, create: boolean]

const TEMPLATE_KINDS = ['ReplicationController', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job']
/** metadataLabelsFieldSpecs: where labels go (templates included). */
const TEMPLATE_LABELS: Spec[] = [
  [['spec', 'template', 'metadata', 'labels'], TEMPLATE_KINDS, true],
  [['spec', 'jobTemplate', 'metadata', 'labels'], ['CronJob'], true],
  [['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels'], ['CronJob'], true],
  [['spec', 'volumeClaimTemplates', '[]', 'metadata', 'labels'], ['StatefulSet'], true],
]
const AFFINITY = ['podAffinity', 'podAntiAffinity'].flatMap((a) => [
  ['spec', 'template', 'spec', 'affinity', a, 'preferredDuringSchedulingIgnoredDuringExecution', '[]', 'podAffinityTerm', 'labelSelector', 'matchLabels'],
  ['spec', 'template', 'spec', 'affinity', a, 'requiredDuringSchedulingIgnoredDuringExecution', '[]', 'labelSelector', 'matchLabels'],
])
/** commonLabelsFieldSpecs beyond the templates: the selectors. */
const SELECTOR_LABELS: Spec[] = [
  [['spec', 'selector'], ['Service', 'ReplicationController'], true],
  [['spec', 'selector', 'matchLabels'], ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet'], true],
  ...[...AFFINITY, ['spec', 'template', 'spec', 'topologySpreadConstraints', '[]', 'labelSelector', 'matchLabels']].map((p): Spec => [p, ['Deployment', 'StatefulSet'], false]),
  [['spec', 'selector', 'matchLabels'], ['Job', 'PodDisruptionBudget'], false],
  [['spec', 'jobTemplate', 'spec', 'selector', 'matchLabels'], ['CronJob'], false],
  [['spec', 'podSelector', 'matchLabels'], ['NetworkPolicy'], false],
  [['spec', 'ingress', '[]', 'from', '[]', 'podSelector', 'matchLabels'], ['NetworkPolicy'], false],
  [['spec', 'egress', '[]', 'to', '[]', 'podSelector', 'matchLabels'], ['NetworkPolicy'], false],
]

/** Kinds without a namespace, of those a repository commonly holds (kustomize leaves them unnamespaced). */
const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'StorageClass', 'PriorityClass',
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'APIService',
  'IngressClass', 'RuntimeClass', 'CSIDriver', 'CSINode', 'VolumeAttachment', 'PodSecurityPolicy', 'ClusterIssuer', 'GatewayClass',
])

function setPath(obj: unknown, path: readonly string[], create: boolean, apply: (m: Record<string, unknown>) => void): void {
  if (path.length === 0) {
    if (isMap(obj)) apply(obj)
    return
  }
  if (!isMap(obj)) return
  const [head, ...rest] = path
  if (rest[0] === '[]') {
    const list = obj[head]
    if (Array.isArray(list)) for (const item of list) setPath(item, rest.slice(1), create, apply)
    return
  }
  if (obj[head] === undefined || obj[head] === null) {
    if (!create) return
    obj[head] = {}
  }
  setPath(obj[head], rest, create, apply)
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function applies(spec: Spec, kind: unknown): boolean {
  return spec[1] === undefined || spec[1].includes(kind as string)
}

function addLabels(labels: Record<string, string>, selectors: boolean, templates: boolean): Transform {
  const specs: Spec[] = [[['metadata', 'labels'], undefined, true], ...(templates ? TEMPLATE_LABELS : []), ...(selectors ? SELECTOR_LABELS : [])]
  return (raw) => {
    for (const spec of specs) if (applies(spec, raw.kind)) setPath(raw, spec[0], spec[2], (m) => Object.assign(m, labels))
  }
}

function addAnnotations(annotations: Record<string, string>): Transform {
  const specs: Spec[] = [[['metadata', 'annotations'], undefined, true], ...TEMPLATE_LABELS.map(([p, kinds, create]): Spec => [[...p.slice(0, -1), 'annotations'], kinds, create])]
  return (raw) => {
    for (const spec of specs) if (applies(spec, raw.kind)) setPath(raw, spec[0], spec[2], (m) => Object.assign(m, annotations))
  }
}

function setNamespace(namespace: string): Transform {
  return (raw) => {
    if (CLUSTER_SCOPED.has(raw.kind as string)) return
    setPath(raw, ['metadata'], true, (m) => {
      m.namespace = namespace
    })
  }
}

/** Kinds whose spec.serviceName names a Service of the same kustomization. */
const GOVERNED = new Set(['StatefulSet'])

/** namePrefix/nameSuffix on metadata.name, and the references kctl's controllers follow to a renamed object. */
function rename(prefix: string, suffix: string): Transform {
  const renamed = (name: unknown) => (typeof name === 'string' && name !== '' ? `${prefix}${name}${suffix}` : name)
  return (raw) => {
    if (raw.kind === 'CustomResourceDefinition' || raw.kind === 'Namespace') return
    setPath(raw, ['metadata'], false, (m) => {
      m.name = renamed(m.name)
    })
    // nameReference: a HorizontalPodAutoscaler's target, a StatefulSet's governing Service, a pod
    // template's claims (the objects of one kustomization are renamed together).
    setPath(raw, ['spec', 'scaleTargetRef'], false, (m) => {
      m.name = renamed(m.name)
    })
    if (GOVERNED.has(raw.kind as string)) {
      setPath(raw, ['spec'], false, (m) => {
        if (typeof m.serviceName === 'string') m.serviceName = renamed(m.serviceName)
      })
    }
    setPath(raw, ['spec', 'template', 'spec', 'volumes', '[]', 'persistentVolumeClaim'], false, (m) => {
      m.claimName = renamed(m.claimName)
    })
  }
}
