// Deployment worlds built on the real control plane while no controller runs: a Deployment, the
// ReplicaSets it owns (their status written through /status, as a ReplicaSet controller would),
// and pods where Recreate looks at them; the end state the tests compare; and the oracle's
// machinery: kctl's plans applied sync by sync, and the writes of each sync the controller logs.
// Shared by the Deployment oracles (hand-made and random) and the reconcile tests.
import {podTemplateHash} from '../../src/reconcile/hash/index.js'
import {computePlan} from '../../src/services/plan.js'
import {api, apiOk, newNamespace} from './setup/cluster.js'
import {completedStatus as available, replicaSetAnnotations, type ReplicaSetShape} from '../helpers/deployments.js'

export type Json = Record<string, any>

export const ANN = 'deployment.kubernetes.io/'

export const IMAGES = {A: 'nginx:1.27', B: 'nginx:1.28', C: 'nginx:1.29', D: 'nginx:1.30', E: 'nginx:1.31', R: 'nginx:1.27'} as const
export type TemplateName = keyof typeof IMAGES

/** R: template A with a downward-API resourceFieldRef that names no divisor (the server stores "0"). */
const EXTRA: Partial<Record<TemplateName, Json>> = {R: {env: [{name: 'MEM', valueFrom: {resourceFieldRef: {resource: 'limits.memory'}}}]}}

export const template = (t: TemplateName, extra: Json = {}): Json => ({
  metadata: {labels: {app: 'web'}},
  spec: {containers: [{name: 'web', image: IMAGES[t], ...EXTRA[t], ...extra}]},
})

/** Its status is written through /status with observedGeneration. */
export interface RsSpec extends ReplicaSetShape {
  template: TemplateName
  replicas: number
  /** status.observedGeneration below generation (never synced since the last change). */
  stale?: boolean
  /** Controlled by another Deployment (one that does not exist): no claim touches it. */
  foreign?: boolean
  /** The collision count its pod-template-hash (and name) was computed with. */
  hashedWith?: number
  minReadySeconds?: number
  /** status.terminatingReplicas. */
  terminating?: number
  /** More annotations (revision-history, odd values). */
  annotations?: Json
  /** Its pods, by phase (Recreate waits for those still running). */
  pods?: string[]
  /** Its own labels, when they differ from its selector's and template's (relabelled by hand). */
  relabelled?: Json
}

export interface DeploymentSpec {
  name?: string
  template: TemplateName
  replicas: number
  strategy?: Json
  paused?: boolean
  revisionHistoryLimit?: number
  progressDeadlineSeconds?: number
  minReadySeconds?: number
  annotations?: Json
  /** The status a previous sync left (counters and conditions). */
  status?: Json
  /** Being deleted (held by a finalizer). */
  deleting?: boolean
}

export interface Scenario {
  id: string
  title: string
  deployments: DeploymentSpec[]
  replicaSets?: RsSpec[]
  /** Pods of the (first) old ReplicaSet, by phase. */
  oldPods?: string[]
}

/** The status getNewReplicaSet leaves after creating `name` (a minute ago, well within the progress deadline). */
function recordedCreation(name: string): Json {
  const t = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z')
  return {
    observedGeneration: 1,
    conditions: [{type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${name}"`, lastUpdateTime: t, lastTransitionTime: t}],
  }
}

export const recreate = {type: 'Recreate'}
export const rolling = (maxSurge: number | string, maxUnavailable: number | string) => ({type: 'RollingUpdate', rollingUpdate: {maxSurge, maxUnavailable}})

export const SCENARIOS: Scenario[] = [
  {id: 't1', title: 'T1 a new Deployment creates its ReplicaSet by the hashed name', deployments: [{template: 'A', replicas: 3}]},
  {id: 't2', title: 'T2 replicas 0: the ReplicaSet is created at 0', deployments: [{template: 'A', replicas: 0}]},
  {id: 't3', title: 'T3 all available: status only', deployments: [{template: 'A', replicas: 3}], replicaSets: [{template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 4]}]},
  {id: 't4', title: 'T4 template change, 10 replicas: create with 3, old 10→8, then new 3→5', deployments: [{template: 'B', replicas: 10, status: available(10)}], replicaSets: [{template: 'A', replicas: 10, status: [10, 10, 10], revision: 1, sized: [10, 13]}]},
  {
    id: 't5',
    title: 'T5 old 8 available, new 5 available: old 8→3, then new 5→10',
    deployments: [{template: 'B', replicas: 10}],
    replicaSets: [
      {template: 'A', replicas: 8, status: [8, 8, 8], revision: 1, sized: [10, 13]},
      {template: 'B', replicas: 5, status: [5, 5, 5], revision: 2, sized: [10, 13]},
    ],
  },
  {
    id: 't6',
    title: 'T6 new all available, old 3 left: old 3→0',
    deployments: [{template: 'B', replicas: 10}],
    replicaSets: [
      {template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [10, 13]},
      {template: 'B', replicas: 10, status: [10, 10, 10], revision: 2, sized: [10, 13]},
    ],
  },
  {id: 't7', title: 'T7 maxSurge 0 / maxUnavailable 1: new created at 0, old 3→2', deployments: [{template: 'B', replicas: 3, strategy: rolling(0, 1), status: available(3)}], replicaSets: [{template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 3]}]},
  {id: 't8', title: 'T8 old has unavailable replicas: cleanupUnhealthyReplicas', deployments: [{template: 'B', replicas: 4}], replicaSets: [{template: 'A', replicas: 4, status: [4, 2, 2], revision: 1, sized: [4, 5]}]},
  {
    id: 't9',
    title: 'T9 scale 10→15 mid-rollout: proportional, old 8→12, new 5→7',
    deployments: [{template: 'B', replicas: 15}],
    replicaSets: [
      {template: 'A', replicas: 8, status: [8, 8, 8], revision: 1, sized: [10, 13]},
      {template: 'B', replicas: 5, status: [5, 0, 0], revision: 2, sized: [10, 13]},
    ],
  },
  {
    id: 't10',
    title: 'T10 scale 15→6 mid-rollout: proportional down, old 12→5, new 7→3',
    deployments: [{template: 'B', replicas: 6}],
    replicaSets: [
      {template: 'A', replicas: 12, status: [8, 8, 8], revision: 1, sized: [15, 19]},
      {template: 'B', replicas: 7, status: [5, 0, 0], revision: 2, sized: [15, 19]},
    ],
  },
  {
    id: 't11',
    title: 'T11 scale to 0 mid-rollout: both to 0',
    deployments: [{template: 'B', replicas: 0}],
    replicaSets: [
      {template: 'A', replicas: 8, status: [8, 8, 8], revision: 1, sized: [10, 13]},
      {template: 'B', replicas: 5, status: [5, 0, 0], revision: 2, sized: [10, 13]},
    ],
  },
  {id: 't12', title: 'T12 replicas and template changed together: scaling event first', deployments: [{template: 'B', replicas: 8, status: available(4)}], replicaSets: [{template: 'A', replicas: 4, status: [4, 4, 4], revision: 1, sized: [4, 5]}]},
  {id: 't13', title: 'T13 paused from the start: no ReplicaSet', deployments: [{template: 'A', replicas: 3, paused: true}]},
  {id: 't15', title: 'T15 paused with a new template: no new ReplicaSet', deployments: [{template: 'B', replicas: 4, paused: true, minReadySeconds: 7, status: available(4)}], replicaSets: [{template: 'A', replicas: 4, status: [4, 4, 4], revision: 1, sized: [4, 5]}]},
  {id: 't16', title: 'T16 scaled while paused: the one active ReplicaSet takes it', deployments: [{template: 'B', replicas: 6, paused: true, status: available(4)}], replicaSets: [{template: 'A', replicas: 4, status: [4, 4, 4], revision: 1, sized: [4, 5]}]},
  {id: 't17', title: 'T17 Recreate: old scaled to 0 first, no new ReplicaSet yet', deployments: [{template: 'B', replicas: 2, strategy: recreate, status: available(2)}], replicaSets: [{template: 'A', replicas: 2, status: [2, 2, 2], revision: 1, sized: [2, 2]}]},
  {id: 't18', title: 'T18 Recreate with the old pods gone: create the new one at full size', deployments: [{template: 'B', replicas: 2, strategy: recreate}], replicaSets: [{template: 'A', replicas: 0, status: [0, 0, 0], revision: 1, sized: [2, 2]}]},
  {id: 't19', title: 'T19 Recreate waits while an old pod runs', deployments: [{template: 'B', replicas: 2, strategy: recreate}], replicaSets: [{template: 'A', replicas: 0, status: [0, 0, 0], revision: 1, sized: [2, 2]}], oldPods: ['Running']},
  {id: 't20', title: 'T20 Recreate: a Succeeded old pod does not block', deployments: [{template: 'B', replicas: 2, strategy: recreate}], replicaSets: [{template: 'A', replicas: 0, status: [0, 0, 0], revision: 1, sized: [2, 2]}], oldPods: ['Succeeded', 'Failed']},
  {
    id: 't21',
    title: 'T21 history limit 2 with four old ReplicaSets at 0: the two oldest revisions go',
    deployments: [{template: 'C', replicas: 2, strategy: recreate, revisionHistoryLimit: 2, status: available(2)}],
    replicaSets: [
      {template: 'A', replicas: 0, status: [0, 0, 0], revision: 1, name: 'web-r1', labels: {app: 'web', gen: 'r1'}},
      {template: 'A', replicas: 0, status: [0, 0, 0], revision: 2, name: 'web-r2', labels: {app: 'web', gen: 'r2'}},
      {template: 'A', replicas: 0, status: [0, 0, 0], revision: 3, name: 'web-r3', labels: {app: 'web', gen: 'r3'}},
      {template: 'B', replicas: 0, status: [0, 0, 0], revision: 4},
      {template: 'C', replicas: 2, status: [2, 2, 2], revision: 5, sized: [2, 2]},
    ],
  },
  {
    id: 't22',
    title: 'T22 limit 1: an old ReplicaSet still reporting a pod uses up the slot',
    deployments: [{template: 'C', replicas: 1, revisionHistoryLimit: 1, status: available(1)}],
    replicaSets: [
      {template: 'A', replicas: 0, status: [1, 0, 0], revision: 1},
      {template: 'B', replicas: 0, status: [0, 0, 0], revision: 2},
      {template: 'C', replicas: 1, status: [1, 1, 1], revision: 3, sized: [1, 2]},
    ],
  },
  {
    id: 't23',
    title: 'T23 limit 0: only the ReplicaSet whose status is current is deleted',
    deployments: [{template: 'C', replicas: 1, revisionHistoryLimit: 0, status: available(1)}],
    replicaSets: [
      {template: 'A', replicas: 0, status: [0, 0, 0], revision: 1, stale: true},
      {template: 'B', replicas: 0, status: [0, 0, 0], revision: 2},
      {template: 'C', replicas: 1, status: [1, 1, 1], revision: 3, sized: [1, 2]},
    ],
  },
  {id: 't28', title: 'T28 an orphan ReplicaSet with the template is adopted, not replaced', deployments: [{template: 'A', replicas: 2}], replicaSets: [{template: 'A', replicas: 2, status: [2, 2, 2], owned: false, name: 'web-handmade', labels: {app: 'web'}}]},
  {id: 't29', title: 'T29 a ReplicaSet of the hashed name with another template: collision, then another name', deployments: [{template: 'A', replicas: 2}], replicaSets: [{template: 'C', replicas: 0, owned: false, name: 'web-8448b6f544', labels: {app: 'other'}}]},
  {id: 't30', title: 'T30 two Deployments with one selector each create their own', deployments: [{template: 'A', replicas: 1, name: 'one'}, {template: 'B', replicas: 1, name: 'two'}]},
  {id: 't31', title: 'T31 an owned ReplicaSet relabelled away is released', deployments: [{template: 'B', replicas: 2, status: available(2)}], replicaSets: [{template: 'A', replicas: 2, status: [2, 2, 2], revision: 1, labels: {app: 'gone'}}]},
  {id: 't34', title: 'T34 no progress deadline: no Progressing condition', deployments: [{template: 'B', replicas: 2, progressDeadlineSeconds: 2147483647}], replicaSets: [{template: 'A', replicas: 2, status: [2, 2, 2], revision: 1, sized: [2, 3]}]},
  {id: 't35', title: 'T35 an annotation added to the Deployment is copied to its new ReplicaSet', deployments: [{template: 'A', replicas: 3, annotations: {'example.com/note': 'hello'}}], replicaSets: [{template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 4]}]},
  {id: 't36', title: 'T36 minReadySeconds changed: synced onto the new ReplicaSet only', deployments: [{template: 'B', replicas: 2, minReadySeconds: 5}], replicaSets: [{template: 'A', replicas: 0, status: [0, 0, 0], revision: 1}, {template: 'B', replicas: 2, status: [2, 2, 2], revision: 2, sized: [2, 3]}]},
  {id: 't37', title: 'T37 scale 10→5 when complete: the single active ReplicaSet', deployments: [{template: 'A', replicas: 5, status: available(10)}], replicaSets: [{template: 'A', replicas: 10, status: [10, 10, 10], revision: 1, sized: [10, 13]}]},
  {
    id: 't38',
    title: 'T38 template back to an old one: it becomes the new ReplicaSet (revision 3, history "1")',
    deployments: [{template: 'A', replicas: 10}],
    replicaSets: [
      {template: 'A', replicas: 8, status: [8, 8, 8], revision: 1, sized: [10, 13]},
      {template: 'B', replicas: 5, status: [5, 0, 0], revision: 2, sized: [10, 13]},
    ],
  },
  {id: 't39', title: 'T39 a Deployment being deleted: status only', deployments: [{template: 'B', replicas: 3, deleting: true}], replicaSets: [{template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 4]}]},
  {id: 'pct50', title: 'D5.1 50%/50% of 10: create 5, old down to 5', deployments: [{template: 'B', replicas: 10, strategy: rolling('50%', '50%'), status: available(10)}], replicaSets: [{template: 'A', replicas: 10, status: [10, 10, 10], revision: 1, sized: [10, 15]}]},
  {id: 'ints35', title: 'D5.1 maxSurge 3 / maxUnavailable 5 of 3', deployments: [{template: 'B', replicas: 3, strategy: rolling(3, 5), status: available(3)}], replicaSets: [{template: 'A', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 6]}]},
  {
    id: 'three-rs',
    title: 'D7.2 three active ReplicaSets scaled 11 with maxSurge 1: the leftover to the newest of the largest',
    deployments: [{template: 'C', replicas: 11, strategy: rolling(1, 0)}],
    replicaSets: [
      {template: 'A', replicas: 4, status: [4, 4, 4], revision: 1, sized: [10, 11]},
      {template: 'B', replicas: 4, status: [4, 4, 4], revision: 2, sized: [10, 11]},
      {template: 'C', replicas: 3, status: [3, 0, 0], revision: 3, sized: [10, 11]},
    ],
  },
  {
    id: 'adopt-stale',
    title: 'D2.5 an adopted ReplicaSet with an old template and no replica available: its scale conflicts, reconcileOldReplicaSets swallows it, the status is written',
    deployments: [{template: 'B', replicas: 3, strategy: rolling(2, 0), annotations: {[`${ANN}revision`]: '1'}, status: available(3)}],
    replicaSets: [
      {template: 'B', replicas: 3, status: [3, 3, 3], revision: 1, sized: [3, 5]},
      {template: 'A', replicas: 2, status: [2, 0, 0], owned: false, name: 'web-orphan', labels: {app: 'web'}},
    ],
  },
  {
    id: 'recorded-status',
    title: 'D2.4 the new ReplicaSet deleted by hand: the status write after the create stores nothing, and the rollout status after it succeeds',
    deployments: [{template: 'A', replicas: 2, annotations: {[`${ANN}revision`]: '1'}, status: recordedCreation('web-8448b6f544')}],
  },
  {id: 'no-annotation', title: 'D7.1 an old ReplicaSet without desired-replicas never makes a scaling event', deployments: [{template: 'B', replicas: 3}], replicaSets: [{template: 'A', replicas: 5, status: [5, 5, 5], revision: 1}]},
  {
    id: 'released-collides',
    title: 'D4.6 a ReplicaSet relabelled away holds the new name: released, then the create collides (the lister has seen the release)',
    deployments: [{template: 'A', replicas: 2}],
    replicaSets: [{template: 'A', replicas: 2, status: [2, 2, 2], revision: 1, sized: [2, 3], relabelled: {app: 'gone', 'pod-template-hash': '8448b6f544'}}],
  },
  {id: 'no-divisor', title: 'D13.9 a resourceFieldRef without divisor: the ReplicaSet is named by the hash of the stored zero quantity', deployments: [{template: 'R', replicas: 2}]},
  {
    id: 'collision-adopted',
    title: 'D4.6 an orphan of the hashed name with another template is adopted, the create collides, and the next sync creates web-5f46654bf',
    deployments: [{template: 'A', replicas: 2}],
    replicaSets: [{template: 'C', replicas: 0, owned: false, name: 'web-8448b6f544', labels: {app: 'web'}}],
  },
]

export const DELETING_FINALIZER = 'kctl.test/hold'

export interface Built {
  scenario: Scenario
  ns: string
  uids: Record<string, string>
}

export async function build(s: Scenario): Promise<Built> {
  const ns = await newNamespace(`dep-${s.id}`)
  const uids: Record<string, string> = {}
  for (const d of s.deployments) {
    const name = d.name ?? 'web'
    const spec: Json = {
      replicas: d.replicas,
      selector: {matchLabels: {app: 'web'}},
      template: template(d.template),
    }
    if (d.strategy) spec.strategy = d.strategy
    if (d.paused) spec.paused = true
    if (d.revisionHistoryLimit !== undefined) spec.revisionHistoryLimit = d.revisionHistoryLimit
    if (d.progressDeadlineSeconds !== undefined) spec.progressDeadlineSeconds = d.progressDeadlineSeconds
    if (d.minReadySeconds !== undefined) spec.minReadySeconds = d.minReadySeconds
    const metadata: Json = {name, annotations: d.annotations ?? {}}
    if (d.deleting) metadata.finalizers = [DELETING_FINALIZER]
    const created = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: {apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec}})
    uids[name] = created.metadata.uid
    if (d.status) await apiOk('PUT', `/apis/apps/v1/namespaces/${ns}/deployments/${name}/status`, {body: {...created, status: d.status}})
    if (d.deleting) await apiOk('DELETE', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)
  }
  const owner = s.deployments[0].name ?? 'web'
  for (const [i, r] of (s.replicaSets ?? []).entries()) {
    const t = template(r.template)
    const hash = podTemplateHash(t, r.hashedWith)
    const labels = r.labels ?? {app: 'web', 'pod-template-hash': hash}
    const name = r.name ?? `web-${hash}`
    const metadata: Json = {name, labels: r.relabelled ?? labels, annotations: {...replicaSetAnnotations(r), ...r.annotations}}
    const controllerUid = r.foreign ? '0d1f0c2e-0000-4000-8000-00000000f0f0' : uids[owner]
    if (r.owned !== false) metadata.ownerReferences = [{apiVersion: 'apps/v1', kind: 'Deployment', name: r.foreign ? 'someone-else' : owner, uid: controllerUid, controller: true, blockOwnerDeletion: true}]
    const selector = {matchLabels: r.labels ? {...r.labels} : {app: 'web', 'pod-template-hash': hash}}
    const rsTemplate = {...t, metadata: {labels: {...selector.matchLabels}}}
    const spec: Json = {replicas: r.replicas, selector, template: rsTemplate}
    if (r.minReadySeconds !== undefined) spec.minReadySeconds = r.minReadySeconds
    const created = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {body: {apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata, spec}})
    uids[name] = created.metadata.uid
    const [replicas, ready, avail] = r.status ?? [0, 0, 0]
    if (r.status || !r.stale) {
      const observedGeneration = r.stale ? 0 : created.metadata.generation
      const terminating = r.terminating === undefined ? {} : {terminatingReplicas: r.terminating}
      await apiOk('PUT', `/apis/apps/v1/namespaces/${ns}/replicasets/${name}/status`, {
        body: {...created, status: {replicas, fullyLabeledReplicas: replicas, readyReplicas: ready, availableReplicas: avail, observedGeneration, ...terminating}},
      })
    }
    const phases = [...(i === 0 ? (s.oldPods ?? []) : []), ...(r.pods ?? [])]
    for (const [j, phase] of phases.entries()) {
      const pod = await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {name: i === 0 ? `old-${j}` : `${name}-${j}`, labels, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: created.metadata.uid, controller: true}]},
          spec: t.spec,
        },
      })
      await apiOk('PUT', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {body: {...pod, status: {phase}}})
    }
  }
  return {scenario: s, ns, uids}
}

/** Removes a world: the Deployments' test finalizers, then everything in its namespace. */
export async function dropWorld(ns: string): Promise<void> {
  for (const d of (await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/deployments`)).items) {
    if (d.metadata.finalizers) await api('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/${d.metadata.name}`, {body: {metadata: {finalizers: null}}, contentType: 'application/merge-patch+json'})
  }
  for (const path of [`/apis/apps/v1/namespaces/${ns}/deployments`, `/apis/apps/v1/namespaces/${ns}/replicasets`, `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`]) await api('DELETE', path)
  await api('DELETE', `/api/v1/namespaces/${ns}`)
}

/** The objects of one namespace, as `kubectl get deployments,replicasets,pods -o json` lists them. */
export async function world(ns: string): Promise<Json[]> {
  return (await worlds([ns], `namespaces/${ns}/`)).get(ns)!
}

/** The objects of many namespaces, read with one list per kind (of the whole cluster, or `scope`). */
export async function worlds(nss: readonly string[], scope = ''): Promise<Map<string, Json[]>> {
  const out = new Map<string, Json[]>(nss.map((ns) => [ns, []]))
  for (const [path, kind, apiVersion] of [
    [`/apis/apps/v1/${scope}deployments`, 'Deployment', 'apps/v1'],
    [`/apis/apps/v1/${scope}replicasets`, 'ReplicaSet', 'apps/v1'],
    [`/api/v1/${scope}pods`, 'Pod', 'v1'],
  ]) {
    for (const item of (await apiOk('GET', path)).items) out.get(item.metadata.namespace)?.push({apiVersion, kind, ...item})
  }
  return out
}

// ---- the oracle's machinery ------------------------------------------------------------------

/** Applies one Deployment plan's writes that happen (not those that conflict) to a world. */
export function applyPlan(objects: Json[], cp: Json, now: string): Json[] {
  let out = structuredClone(objects)
  const rs = (name: string) => out.find((o) => o.kind === 'ReplicaSet' && o.metadata.name === name)
  const d = out.find((o) => o.kind === 'Deployment' && o.metadata.name === cp.name)!
  for (const a of cp.actions) {
    // Refused: nothing changes (the sync ends there, or the controller swallowed the error and went on).
    if (a.conflict) continue
    switch (a.type) {
      case 'createReplicaSet':
        if (a.outcome !== 'created') break
        out.push({
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {name: a.name, namespace: cp.namespace, uid: `uid-${a.name}`, generation: 1, creationTimestamp: now, labels: a.labels, annotations: a.annotations, ownerReferences: [a.ownerReference]},
          spec: {replicas: a.replicas, minReadySeconds: a.minReadySeconds, selector: a.selector, template: {...d.spec.template, metadata: {...d.spec.template.metadata, labels: a.labels}}},
          status: {replicas: 0},
        })
        break
      case 'scaleReplicaSet': {
        const x = rs(a.replicaSet)!
        x.spec.replicas = a.to
        x.metadata.annotations = {...x.metadata.annotations, ...a.annotations}
        x.metadata.generation++
        break
      }
      case 'updateReplicaSet': {
        const x = rs(a.replicaSet)!
        x.metadata.annotations = a.annotations
        x.spec.minReadySeconds = a.minReadySeconds
        x.metadata.generation++
        break
      }
      case 'deleteReplicaSet':
        out = out.filter((o) => !(o.kind === 'ReplicaSet' && o.metadata.name === a.replicaSet))
        break
      case 'adoptReplicaSet':
        rs(a.replicaSet)!.metadata.ownerReferences = [{apiVersion: 'apps/v1', kind: 'Deployment', name: cp.name, uid: cp.uid, controller: true, blockOwnerDeletion: true}]
        break
      case 'releaseReplicaSet':
        rs(a.replicaSet)!.metadata.ownerReferences = []
        break
      case 'updateStatus':
        d.status = a.to
        if (a.revision) d.metadata.annotations = {...d.metadata.annotations, [`${ANN}revision`]: a.revision.to}
        break
      case 'rollback': {
        // updateDeploymentAndClearRollbackTo: the annotation goes; rolled back, the template and the
        // annotations are the ReplicaSet's (rollbackToTemplate). Annotations changed: a new generation.
        const annotations: Json = {...d.metadata.annotations}
        delete annotations[ROLLBACK_TO]
        const from = a.outcome === 'rolled-back' ? out.find((o) => o.kind === 'ReplicaSet' && o.metadata.annotations?.[`${ANN}revision`] === a.toRevision && (o.metadata.ownerReferences ?? []).some((r: Json) => r.uid === cp.uid)) : undefined
        if (from) {
          for (const k of Object.keys(annotations)) if (!SKIPPED_ANNOTATIONS.has(k)) delete annotations[k]
          for (const [k, v] of Object.entries(from.metadata.annotations ?? {})) if (!SKIPPED_ANNOTATIONS.has(k)) annotations[k] = v
          const labels = {...from.spec.template.metadata?.labels}
          delete labels['pod-template-hash']
          d.spec.template = {...from.spec.template, metadata: {...from.spec.template.metadata, labels}}
        }
        d.metadata.annotations = annotations
        d.metadata.generation = (d.metadata.generation ?? 1) + 1
        break
      }
    }
  }
  return out
}

export const ROLLBACK_TO = 'deprecated.deployment.rollback.to'
/** The annotations never copied between a Deployment and its ReplicaSets (annotationsToSkip). */
const SKIPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration', `${ANN}revision`, `${ANN}revision-history`, `${ANN}desired-replicas`, `${ANN}max-replicas`, ROLLBACK_TO])

/** One planned write as the request the controller sends and the answer it gets: `PUT deployments/web/status 200`. */
export function request(a: Json, deployment: string): string {
  const code = (ok: number) => (a.conflict ? 409 : ok)
  switch (a.type) {
    case 'adoptReplicaSet':
    case 'releaseReplicaSet':
      return `PATCH replicasets/${a.replicaSet} ${code(200)}`
    case 'createReplicaSet':
      return `POST replicasets ${a.outcome === 'created' ? code(201) : 409}`
    case 'scaleReplicaSet':
    case 'updateReplicaSet':
      return `PUT replicasets/${a.replicaSet} ${code(200)}`
    case 'deleteReplicaSet':
      return `DELETE replicasets/${a.replicaSet} ${code(200)}`
    case 'updateStatus':
      return `PUT deployments/${deployment}/status ${code(200)}`
    case 'rollback':
      return `PUT deployments/${deployment} ${code(200)}`
    default:
      return `? ${a.type}`
  }
}

/** A Deployment plan's writes as requests, and those of the Deployment's own next sync where the plan names it (after a hash collision). */
export function plannedSyncs(cp: Json): string[][] {
  const out = [cp.actions.map((a: Json) => request(a, cp.name))]
  const next = (cp.then ?? []).find((p: Json) => p.kind === 'Deployment')
  if (next) out.push(...plannedSyncs(next))
  return out
}

/**
 * The writes of each sync of each Deployment, in order, from kube-controller-manager's log at --v=6
 * with one worker: "ns/name" → [[`PUT deployments/web/status 409`, …], …]. Reads (GET) and events
 * are left out.
 */
export function loggedSyncs(log: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>()
  let current: string[] | undefined
  for (const line of log.split('\n')) {
    const started = /"Started syncing deployment" deployment="([^"]+)"/.exec(line)
    if (started) {
      current = []
      const syncs = out.get(started[1])
      if (syncs) syncs.push(current)
      else out.set(started[1], [current])
      continue
    }
    if (line.includes('"Finished syncing deployment"')) {
      current = undefined
      continue
    }
    const response = /"Response" verb="([A-Z]+)" url="[^"]*\/apis\/apps\/v1\/namespaces\/[^/]+\/([^"?]+)(?:\?[^"]*)?" status="(\d+)/.exec(line)
    if (current && response && response[1] !== 'GET') current.push(`${response[1]} ${response[2]} ${response[3]}`)
  }
  return out
}

/** kctl's end state for a namespace: plan, apply, plan again, until a sync writes nothing. */
export async function settleWithKctl(objects: Json[], first: Json[], now: string): Promise<{objects: Json[]; syncs: number}> {
  let current = objects
  let plans = first
  for (let syncs = 1; syncs <= 12; syncs++) {
    if (plans.every((cp) => cp.actions.length === 0)) return {objects: current, syncs}
    for (const cp of plans) current = applyPlan(current, cp, now)
    const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: current})
    const plan = await computePlan({filename: ['-'], readStdin: async () => text, now, allNamespaces: true})
    plans = (plan.controllers as Json[]).filter((c) => c.kind === 'Deployment')
  }
  throw new Error('kctl planned more than 12 syncs without settling')
}


/** What is compared at the end. */
export function endState(objects: Json[]): Json {
  const replicaSets = objects
    .filter((o) => o.kind === 'ReplicaSet')
    .map((o) => ({
      name: o.metadata.name,
      replicas: o.spec.replicas,
      owned: (o.metadata.ownerReferences ?? []).some((r: Json) => r.controller && r.kind === 'Deployment'),
      annotations: Object.fromEntries(Object.entries(o.metadata.annotations ?? {}).filter(([k]) => k.startsWith(ANN)).sort(([a], [b]) => (a < b ? -1 : 1))),
      minReadySeconds: o.spec.minReadySeconds ?? 0,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
  const deployments = objects
    .filter((o) => o.kind === 'Deployment')
    .map((o) => {
      const s = o.status ?? {}
      const availableCondition = (s.conditions ?? []).find((c: Json) => c.type === 'Available')
      return {
        name: o.metadata.name,
        revision: o.metadata.annotations?.[`${ANN}revision`],
        collisionCount: s.collisionCount,
        observedGeneration: s.observedGeneration ?? 0,
        replicas: s.replicas ?? 0,
        updatedReplicas: s.updatedReplicas ?? 0,
        readyReplicas: s.readyReplicas ?? 0,
        availableReplicas: s.availableReplicas ?? 0,
        unavailableReplicas: s.unavailableReplicas ?? 0,
        terminatingReplicas: s.terminatingReplicas,
        available: availableCondition ? `${availableCondition.status}/${availableCondition.reason}` : undefined,
        progressing: (s.conditions ?? []).some((c: Json) => c.type === 'Progressing'),
      }
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
  return {replicaSets, deployments}
}

