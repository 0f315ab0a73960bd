// StatefulSet and DaemonSet worlds for the workloads oracle, built on the real control plane while
// no controller runs; a world's export (what `kctl plan -f` reads), a model of what the cluster
// does with one sync's writes, and the end state the oracle compares.
//
// The cluster around the controllers: kube-scheduler binds new pods, and kwok runs the pods bound to
// its fake nodes (Running and Ready at once; deleted at once). A pod bound to any other node — the
// "ghost" node no Node object names, or a hand-made Node (no allocatable, so the scheduler never
// picks it) — keeps the status written by hand, and once deleted it stays terminating: that is how
// a world stops after the sync under test.
import {REVISION_HASH_LABEL, statefulSetRevisionData, statefulSetRevisionHash} from '../../src/reconcile/revisions.js'
import {POD_INDEX_LABEL, POD_NAME_LABEL} from '../../src/controllers/statefulset/sync.js'
import {createFakeNodes, type FakeNodeOptions, waitForReadyNodes} from '../../controlplane/fake-nodes.js'
import {podTemplateHash} from '../../src/reconcile/hash/index.js'
import {daemonPodAffinity, daemonTolerations} from '../../src/controllers/daemonset/nodes.js'
import {apiOk, controlPlane, makeNode, setPodStatus, waitUntil} from './setup/cluster.js'

export type Json = Record<string, any>

/** No Node object has this name: pods bound to it keep the status they are given. */
export const GHOST = 'wlo-ghost'
/** kwok nodes every scenario's StatefulSet pods are scheduled to. */
export const POOL = ['wlo-pool-0', 'wlo-pool-1']
export const HOLD = 'kctl.test/hold'

export interface Ctx {
  ns: string
  id: string
  /** Names of the kwok nodes (the scheduler and kwok make pods bound there run). */
  kwok: Set<string>
  /** The nodes this world made (deleted after the test). */
  nodes: string[]
}

export interface Scenario {
  id: string
  kind: 'StatefulSet' | 'DaemonSet'
  title: string
  /** Whether the plan leaves a choice to the controller (DaemonSet map order); undefined: either. */
  random?: boolean
  build(c: Ctx): Promise<void>
}

const IMAGES = {A: 'registry.invalid/web:1', B: 'registry.invalid/web:2'} as const
export type Image = keyof typeof IMAGES | `registry.invalid/${string}`
const imageOf = (i: Image): string => (i in IMAGES ? IMAGES[i as keyof typeof IMAGES] : i)

export const template = (app: string, image: Image, spec: Json = {}, labels: Json = {}): Json => ({
  metadata: {labels: {app, ...labels}},
  spec: {containers: [{name: 'c', image: imageOf(image)}], terminationGracePeriodSeconds: 5, ...spec},
})

const merge = {contentType: 'application/merge-patch+json'}
const apps = (ns: string, plural: string) => `/apis/apps/v1/namespaces/${ns}/${plural}`

// ---------------------------------------------------------------- StatefulSets

export interface SetOptions {
  replicas?: number
  image?: Image
  parallel?: boolean
  start?: number
  /** `{type: 'OnDelete'}`, `{type: 'RollingUpdate'}` (no rollingUpdate), or a partition. */
  updateStrategy?: Json
  claims?: boolean
  retention?: [string, string]
  minReadySeconds?: number
  revisionHistoryLimit?: number
  finalizers?: string[]
}

export async function createSet(c: Ctx, o: SetOptions = {}): Promise<Json> {
  const name = 'web'
  return apiOk('POST', apps(c.ns, 'statefulsets'), {
    body: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {name, ...(o.finalizers ? {finalizers: o.finalizers} : {})},
      spec: {
        replicas: o.replicas ?? 3,
        serviceName: name,
        selector: {matchLabels: {app: name}},
        template: template(name, o.image ?? 'A'),
        ...(o.parallel ? {podManagementPolicy: 'Parallel'} : {}),
        ...(o.start !== undefined ? {ordinals: {start: o.start}} : {}),
        ...(o.updateStrategy ? {updateStrategy: o.updateStrategy} : {}),
        ...(o.minReadySeconds ? {minReadySeconds: o.minReadySeconds} : {}),
        ...(o.revisionHistoryLimit !== undefined ? {revisionHistoryLimit: o.revisionHistoryLimit} : {}),
        ...(o.claims ? {volumeClaimTemplates: [{metadata: {name: 'data'}, spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}}}]} : {}),
        ...(o.retention ? {persistentVolumeClaimRetentionPolicy: {whenDeleted: o.retention[0], whenScaled: o.retention[1]}} : {}),
      },
    },
  })
}

/** A ControllerRevision of the set's template as stored (name and data as the controller makes them, unless `reordered`). */
export async function setRevision(c: Ctx, set: Json, revision: number, image?: Image, o: {reordered?: boolean} = {}): Promise<string> {
  const stored = image ? withImage(set, image) : set.spec.template
  const data = statefulSetRevisionData(stored)
  const hash = statefulSetRevisionHash(data, 0)
  const name = `${set.metadata.name}-${hash}`
  await apiOk('POST', apps(c.ns, 'controllerrevisions'), {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {name, labels: {...stored.metadata.labels, 'controller.kubernetes.io/hash': hash}, ownerReferences: [controllerRef(set)]},
      // `reordered`: the same JSON with the template's keys in the server's order (as another client might write it).
      data: o.reordered ? {spec: {template: {...stored, $patch: 'replace'}}} : JSON.parse(data),
      revision,
    },
  })
  return name
}

/** The stored template with another image (the defaults the server adds do not depend on it). */
function withImage(set: Json, image: Image): Json {
  const t = structuredClone(set.spec.template)
  t.spec.containers[0].image = imageOf(image)
  return t
}

/** The name the controller gives a revision of the set's template with this image. */
export function revisionName(set: Json, image: Image): string {
  return `${set.metadata.name}-${statefulSetRevisionHash(statefulSetRevisionData(withImage(set, image)), 0)}`
}

/** A change of spec by its owner: `web` the StatefulSet, `agent` the DaemonSet. */
export async function patchSet(c: Ctx, spec: Json, plural: 'statefulsets' | 'daemonsets' = 'statefulsets'): Promise<Json> {
  return apiOk('PATCH', `${apps(c.ns, plural)}/${plural === 'statefulsets' ? 'web' : 'agent'}`, {...merge, body: {spec}})
}

/** The status a previous sync left: every pod at `revision`, `ready` of them ready. */
export async function setStatus(c: Ctx, set: Json, o: {replicas: number; ready?: number; current?: string; update?: string; currentReplicas?: number; updated?: number}): Promise<void> {
  const ready = o.ready ?? o.replicas
  const status = {
    observedGeneration: 1,
    replicas: o.replicas,
    readyReplicas: ready,
    availableReplicas: ready,
    currentReplicas: o.currentReplicas ?? o.replicas,
    updatedReplicas: o.updated ?? o.replicas,
    currentRevision: o.current,
    updateRevision: o.update ?? o.current,
    collisionCount: 0,
  }
  await apiOk('PATCH', `${apps(c.ns, 'statefulsets')}/${set.metadata.name}/status`, {...merge, body: {status}})
}

export type PodState = 'Running' | 'NotReady' | 'Pending' | 'Failed' | 'Succeeded' | 'Terminating'

export interface PodOptions {
  /** kwok runs it (a pool node, or the node named); `ghost`: bound where no kubelet runs; `unbound`. */
  on?: 'kwok' | 'ghost' | 'unbound' | {node: string}
  /** For pods not on kwok: the status written by hand. Default Running. */
  state?: PodState
  readySince?: Date
  labels?: Json
  owner?: Json | null
  claims?: boolean
  /** DaemonSet pods: the node their affinity names. */
  affinityNode?: string
  image?: Image
}

let poolTurn = 0

export async function createPod(c: Ctx, name: string, o: PodOptions = {}): Promise<Json> {
  const on = o.on ?? 'kwok'
  const nodeName = on === 'kwok' ? POOL[poolTurn++ % POOL.length] : on === 'ghost' ? GHOST : on === 'unbound' ? undefined : on.node
  const app = (o.labels?.app as string) ?? 'web'
  const body: Json = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name, labels: o.labels ?? {app}, ...(o.owner ? {ownerReferences: [o.owner]} : {})},
    spec: {
      ...template(app, o.image ?? 'A').spec,
      ...(nodeName ? {nodeName} : {}),
      ...(o.claims ? {volumes: [{name: 'data', persistentVolumeClaim: {claimName: `data-${name}`}}]} : {}),
      ...(o.affinityNode ? {affinity: nodeAffinity(o.affinityNode)} : {}),
    },
  }
  await apiOk('POST', `/api/v1/namespaces/${c.ns}/pods`, {body})
  const state = o.state ?? 'Running'
  if (nodeName && c.kwok.has(nodeName)) {
    const p = await waitUntil(async () => {
      const p = await apiOk('GET', `/api/v1/namespaces/${c.ns}/pods/${name}`)
      return p.status.phase === 'Running' && p
    }, {what: `kwok to run pod ${c.ns}/${name}`})
    if (state === 'Failed' || state === 'Succeeded') return setPodStatus(c.ns, name, {phase: state})
    return p
  }
  if (state === 'Pending') return body
  const p = await setPodStatus(c.ns, name, {phase: state === 'NotReady' || state === 'Terminating' ? 'Running' : state, ready: state !== 'NotReady', readySince: o.readySince})
  if (state === 'Terminating') await apiOk('DELETE', `/api/v1/namespaces/${c.ns}/pods/${name}`)
  return p
}

export const controllerRef = (o: Json): Json => ({apiVersion: 'apps/v1', kind: o.kind ?? 'StatefulSet', name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: true})

const nodeAffinity = (node: string) => ({nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: [node]}]}]}}})

/** A pod of the set at ordinal `ord`, as the controller made it, at `revision`. */
export function setPod(c: Ctx, set: Json, ord: number, revision: string, o: PodOptions = {}): Promise<Json> {
  const name = `${set.metadata.name}-${ord}`
  const labels = {app: set.metadata.name, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ord), [REVISION_HASH_LABEL]: revision}
  return createPod(c, name, {labels, owner: {...controllerRef(set), kind: 'StatefulSet'}, claims: Boolean(set.spec.volumeClaimTemplates), ...o})
}

export async function createClaim(c: Ctx, name: string, o: {owners?: Json[]; finalizers?: string[]} = {}): Promise<void> {
  await apiOk('POST', `/api/v1/namespaces/${c.ns}/persistentvolumeclaims`, {
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {name, labels: {app: 'web'}, ...(o.owners ? {ownerReferences: o.owners} : {}), ...(o.finalizers ? {finalizers: o.finalizers} : {})},
      spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}},
    },
  })
}

// ---------------------------------------------------------------- DaemonSets

export interface DaemonOptions {
  image?: Image
  spec?: Json
  updateStrategy?: Json
  revisionHistoryLimit?: number
}

/** Nodes of this scenario only: a DaemonSet's nodeSelector names the scenario label. */
export const scenarioLabel = (c: Ctx) => ({'kctl-wlo': c.id})

export async function createDaemonSet(c: Ctx, o: DaemonOptions = {}): Promise<Json> {
  const ds = await apiOk('POST', apps(c.ns, 'daemonsets'), {
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {name: 'agent'},
      spec: {
        selector: {matchLabels: {app: 'agent'}},
        template: daemonTemplate(c, o.image ?? 'A', o.spec),
        ...(o.updateStrategy ? {updateStrategy: o.updateStrategy} : {}),
        ...(o.revisionHistoryLimit !== undefined ? {revisionHistoryLimit: o.revisionHistoryLimit} : {}),
      },
    },
  })
  return {...ds, kind: 'DaemonSet'}
}

/** The DaemonSet's template: it runs only on this scenario's nodes. */
export const daemonTemplate = (c: Ctx, image: Image, spec: Json = {}): Json => template('agent', image, {...spec, nodeSelector: {...scenarioLabel(c), ...spec.nodeSelector}})

/** A revision of an earlier template (another image), named and labelled as the controller does; returns its hash. */
export async function daemonRevision(c: Ctx, ds: Json, revision: number, image: Image): Promise<string> {
  const t = structuredClone(ds.spec.template)
  t.spec.containers[0].image = imageOf(image)
  const hash = podTemplateHash(t, undefined)
  await apiOk('POST', apps(c.ns, 'controllerrevisions'), {
    body: {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {name: `agent-${hash}`, labels: {...t.metadata.labels, [REVISION_HASH_LABEL]: hash}, ownerReferences: [controllerRef(ds)]},
      data: {spec: {template: {...t, $patch: 'replace'}}},
      revision,
    },
  })
  return hash
}

/** A kwok node of this scenario, Ready (kwok has lifted the API server's not-ready taint). */
export async function kwokNode(c: Ctx, suffix: string, o: {labels?: Json; taints?: FakeNodeOptions['taints']; unschedulable?: boolean} = {}): Promise<string> {
  const name = `${c.id}-${suffix}`
  await createFakeNodes(controlPlane(), [{name, labels: {...scenarioLabel(c), ...o.labels}, taints: o.taints}])
  await waitForReadyNodes(controlPlane(), [name])
  if (o.unschedulable) await apiOk('PATCH', `/api/v1/nodes/${name}`, {...merge, body: {spec: {unschedulable: true}}})
  c.kwok.add(name)
  c.nodes.push(name)
  return name
}

/** A hand-made Node of this scenario: no kubelet, no allocatable; `keepNotReadyTaint` leaves the API server's taint. */
export async function handNode(c: Ctx, suffix: string, o: {keepNotReadyTaint?: boolean; labels?: Json} = {}): Promise<string> {
  const name = `${c.id}-${suffix}`
  await makeNode(name, {labels: {...scenarioLabel(c), ...o.labels}})
  if (!o.keepNotReadyTaint) await apiOk('PATCH', `/api/v1/nodes/${name}`, {...merge, body: {spec: {taints: null}}})
  c.nodes.push(name)
  return name
}

/** A pod of the DaemonSet on `node`, at revision hash `hash` (or template generation `generation`). */
export function daemonPod(c: Ctx, ds: Json | null, node: string, o: PodOptions & {hash?: string; generation?: string; suffix?: string} = {}): Promise<Json> {
  const labels: Json = {app: 'agent', ...(o.hash ? {[REVISION_HASH_LABEL]: o.hash} : {}), ...(o.generation ? {'pod-template-generation': o.generation} : {})}
  const on = o.on ?? {node}
  return createPod(c, `agent-${node.slice(c.id.length + 1)}${o.suffix ?? ''}`, {labels, owner: ds ? controllerRef(ds) : null, affinityNode: node, on, ...o})
}

// ---------------------------------------------------------------- worlds and the model of the cluster

export const LIST_PATHS: Array<[string, string, string]> = [
  ['apps/v1', 'StatefulSet', 'statefulsets'],
  ['apps/v1', 'DaemonSet', 'daemonsets'],
  ['apps/v1', 'ControllerRevision', 'controllerrevisions'],
  ['v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'],
  ['v1', 'Pod', 'pods'],
]

/** A namespace's objects as `kubectl get -o json` gives them, kinds filled in. */
export async function world(ns: string): Promise<Json[]> {
  const out: Json[] = []
  for (const [apiVersion, kind, plural] of LIST_PATHS) {
    const base = apiVersion === 'v1' ? `/api/v1/namespaces/${ns}` : `/apis/${apiVersion}/namespaces/${ns}`
    for (const item of (await apiOk('GET', `${base}/${plural}`)).items) out.push({apiVersion, kind, ...item})
  }
  return out
}

export async function nodes(): Promise<Json[]> {
  return (await apiOk('GET', '/api/v1/nodes')).items.map((n: Json) => ({apiVersion: 'v1', kind: 'Node', ...n}))
}

/** Which of a random choice's candidates the controller took: told by the end state it left. */
export type Chooser = (operation: 'create' | 'delete', candidates: string[], count: number) => string[]

const runningStatus = (now: string) => ({phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: now}]})

/**
 * One sync's writes, done to a world as the cluster does them: a new pod is scheduled and run when
 * a kwok node can take it (a StatefulSet's without claims: any pool node; a DaemonSet's: the node
 * it names) and stays Pending and unbound otherwise; a deleted pod goes at once when it is unbound, finished,
 * or on a kwok node, and stays terminating elsewhere.
 */
export function applySync(objects: Json[], cp: Json, o: {now: string; kwok: Set<string>; choose: Chooser; serial: {n: number}}): Json[] {
  let out = structuredClone(objects)
  const find = (kind: string, name: string) => out.find((x) => x.kind === kind && x.metadata.name === name)
  const owner = find(cp.kind, cp.name)!
  const ref = {apiVersion: 'apps/v1', kind: cp.kind, name: cp.name, uid: cp.uid, controller: true, blockOwnerDeletion: true}
  const deletePod = (name: string) => {
    const p = find('Pod', name)
    if (!p) return
    const terminal = p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded'
    if (!p.spec.nodeName || terminal || o.kwok.has(p.spec.nodeName)) out = out.filter((x) => x !== p)
    else p.metadata.deletionTimestamp ??= o.now
  }
  // The scheduler's binding copies the node's topology labels onto the pod (PodTopologyLabelsAdmission).
  const topology = (node: string | undefined) =>
    Object.fromEntries(Object.entries((node && find('Node', node)?.metadata.labels) ?? {}).filter(([k]) => k === 'topology.kubernetes.io/zone' || k === 'topology.kubernetes.io/region'))
  const newPod = (name: string, labels: Json, spec: Json, node: string | undefined): Json => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name, namespace: cp.namespace, uid: `sim-${o.serial.n++}`, creationTimestamp: o.now, labels: {...labels, ...topology(node)}, ownerReferences: [ref]},
    spec: {...owner.spec.template.spec, ...spec, ...(node ? {nodeName: node} : {})},
    status: node && o.kwok.has(node) ? runningStatus(o.now) : {phase: 'Pending'},
  })
  const createDaemonPod = (a: Json) =>
    out.push(newPod(`${a.generateName}sim${o.serial.n}`, a.labels, {affinity: a.affinity, tolerations: a.tolerations}, o.kwok.has(a.node) ? a.node : undefined))
  for (const a of cp.actions as Json[]) {
    switch (a.type) {
      case 'createStatefulPod': {
        const volumes = Object.entries(a.claims as Json).map(([name, claimName]) => ({name, persistentVolumeClaim: {claimName}}))
        // No volume provisioner runs: a pod with claims is never scheduled.
        out.push(newPod(a.pod, a.labels, {hostname: a.hostname, subdomain: a.subdomain, ...(volumes.length ? {volumes} : {})}, volumes.length ? undefined : POOL[0]))
        break
      }
      case 'createDaemonPod':
        createDaemonPod(a)
        break
      case 'deleteStatefulPod':
      case 'deleteDaemonPod':
        deletePod(a.pod)
        break
      case 'chooseDaemonPods': {
        const chosen = o.choose(a.operation, a.candidates, a.count)
        if (a.operation === 'delete') for (const pod of chosen) deletePod(pod)
        else {
          // The candidates are nodes; each gets the pod util.CreatePodTemplate builds.
          const spec = owner.spec.template.spec
          const generation = owner.metadata.annotations?.['deprecated.daemonset.template.generation']
          const labels = {...owner.spec.template.metadata.labels, ...(generation ? {'pod-template-generation': generation} : {}), [REVISION_HASH_LABEL]: cp.updateRevision.hash}
          const tolerations = daemonTolerations(spec).map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== '')))
          for (const node of chosen) createDaemonPod({node, generateName: `${cp.name}-`, labels, affinity: daemonPodAffinity(spec.affinity, node), tolerations})
        }
        break
      }
      case 'createClaim':
        out.push({apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: {name: a.claim, namespace: cp.namespace, uid: `sim-${o.serial.n++}`, labels: a.labels, ...(a.annotations && Object.keys(a.annotations).length ? {annotations: a.annotations} : {})}, spec: {}})
        break
      case 'updateClaim':
        find('PersistentVolumeClaim', a.claim)!.metadata.ownerReferences = a.to.map((r: Json) => (r.kind === 'Pod' && !r.uid ? {...r, uid: find('Pod', r.name)?.metadata.uid} : r))
        break
      case 'updatePod': {
        const p = find('Pod', a.pod)!
        if (a.fixes.includes('pod-name-label')) p.metadata.labels[POD_NAME_LABEL] = p.metadata.name
        if (a.fixes.includes('pod-index-label')) p.metadata.labels[POD_INDEX_LABEL] = p.metadata.name.split('-').at(-1)
        break
      }
      case 'adopt':
        find('Pod', a.pod)!.metadata.ownerReferences = [ref]
        break
      case 'release':
        find('Pod', a.pod)!.metadata.ownerReferences = []
        break
      case 'adoptControllerRevision':
        find('ControllerRevision', a.name)!.metadata.ownerReferences = [ref]
        break
      case 'releaseControllerRevision':
        find('ControllerRevision', a.name)!.metadata.ownerReferences = []
        break
      case 'createControllerRevision':
        out.push({
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          metadata: {name: a.name, namespace: cp.namespace, uid: `sim-${o.serial.n++}`, labels: a.labels, ownerReferences: [a.ownerReference]},
          // getPatch's bytes: Go's JSON of the template over a map, keys sorted.
          data: JSON.parse(statefulSetRevisionData(owner.spec.template)),
          revision: a.revision,
        })
        break
      case 'updateControllerRevision':
        find('ControllerRevision', a.name)!.revision = a.to
        break
      case 'deleteControllerRevision':
        out = out.filter((x) => !(x.kind === 'ControllerRevision' && x.metadata.name === a.name))
        break
      case 'updateStatus':
        owner.status = a.to
        break
      default:
        throw new Error(`the model of the cluster does not know action ${a.type}`)
    }
  }
  return out
}

/** JSON with sorted keys: the server's order of fields is not the plan's. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))

const ownerText = (refs: Json[] | undefined) => (refs ?? []).map((r) => `${r.kind}/${r.name}${r.controller ? '(controller)' : ''}`).join(',')

/** A DaemonSet pod's node: its nodeName, else the node its affinity names. */
export const podNode = (p: Json): string =>
  p.spec.nodeName ?? p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0] ?? ''

/**
 * What the oracle compares: the controller's status; its revisions (name, number, owner); its
 * claims (labels, owners); every pod (a StatefulSet's by name, a DaemonSet's new ones by node) with
 * its phase, readiness, whether it is terminating, owner, labels, and the fields the controller
 * writes (hostname, subdomain, claim volumes; node affinity and tolerations).
 */
export function endState(objects: Json[], kind: string, original: ReadonlySet<string>): Json {
  const of = (k: string) => objects.filter((o) => o.kind === k)
  const owner = of(kind)[0]
  const status = Object.fromEntries(Object.entries(owner?.status ?? {}).filter(([k, v]) => k !== 'conditions' && v !== 0).sort(([a], [b]) => (a < b ? -1 : 1)))
  const pods = of('Pod')
    .map((p) => {
      const ready = p.status?.conditions?.find((x: Json) => x.type === 'Ready')?.status === 'True'
      const id = kind === 'DaemonSet' && !original.has(p.metadata.name) ? `new pod on ${podNode(p)}` : p.metadata.name
      const fields: Json = {node: kind === 'DaemonSet' ? podNode(p) : undefined, phase: p.status?.phase, ready, terminating: Boolean(p.metadata.deletionTimestamp), owner: ownerText(p.metadata.ownerReferences), labels: p.metadata.labels}
      if (!original.has(p.metadata.name)) {
        if (kind === 'StatefulSet') Object.assign(fields, {hostname: p.spec.hostname, subdomain: p.spec.subdomain, volumes: (p.spec.volumes ?? []).filter((v: Json) => v.persistentVolumeClaim)})
        else Object.assign(fields, {affinity: p.spec.affinity, tolerations: p.spec.tolerations})
      }
      return `${id} ${canonical(fields)}`
    })
    .sort()
  return {
    status,
    revisions: of('ControllerRevision').map((r) => `${r.metadata.name} #${r.revision} ${ownerText(r.metadata.ownerReferences)}`).sort(),
    claims: of('PersistentVolumeClaim').map((c) => `${c.metadata.name} ${canonical(c.metadata.labels)} ${ownerText(c.metadata.ownerReferences)}${c.metadata.deletionTimestamp ? ' deleting' : ''}`).sort(),
    pods,
  }
}
