// Deployment worlds built on the real control plane while no controller runs: a Deployment, the
// ReplicaSets it owns (their status written through /status, as a ReplicaSet controller would),
// and pods where Recreate looks at them; and the end state the tests compare. Shared by the
// Deployment oracle and the reconcile tests.
import {podTemplateHash} from '../../src/reconcile/hash/index.js'
import {apiOk, newNamespace} from './setup/cluster.js'
import {completedStatus as available, replicaSetAnnotations, type ReplicaSetShape} from '../helpers/deployments.js'

export type Json = Record<string, any>

export const ANN = 'deployment.kubernetes.io/'

export const IMAGES = {A: 'nginx:1.27', B: 'nginx:1.28', C: 'nginx:1.29'} as const
export type TemplateName = keyof typeof IMAGES

export const template = (t: TemplateName, extra: Json = {}): Json => ({
  metadata: {labels: {app: 'web'}},
  spec: {containers: [{name: 'web', image: IMAGES[t], ...extra}]},
})

/** Its status is written through /status with observedGeneration. */
export interface RsSpec extends ReplicaSetShape {
  template: TemplateName
  replicas: number
  /** status.observedGeneration below generation (never synced since the last change). */
  stale?: boolean
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
    const hash = podTemplateHash(t, undefined)
    const labels = r.labels ?? {app: 'web', 'pod-template-hash': hash}
    const name = r.name ?? `web-${hash}`
    const metadata: Json = {name, labels, annotations: replicaSetAnnotations(r)}
    if (r.owned !== false) metadata.ownerReferences = [{apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: uids[owner], controller: true, blockOwnerDeletion: true}]
    const selector = {matchLabels: r.labels ? {...r.labels} : {app: 'web', 'pod-template-hash': hash}}
    const rsTemplate = {...t, metadata: {labels: {...selector.matchLabels}}}
    const created = await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      body: {apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata, spec: {replicas: r.replicas, selector, template: rsTemplate}},
    })
    uids[name] = created.metadata.uid
    const [replicas, ready, avail] = r.status ?? [0, 0, 0]
    if (r.status || !r.stale) {
      const observedGeneration = r.stale ? 0 : created.metadata.generation
      await apiOk('PUT', `/apis/apps/v1/namespaces/${ns}/replicasets/${name}/status`, {
        body: {...created, status: {replicas, fullyLabeledReplicas: replicas, readyReplicas: ready, availableReplicas: avail, observedGeneration}},
      })
    }
    if (i === 0) {
      for (const [j, phase] of (s.oldPods ?? []).entries()) {
        const pod = await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
          body: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {name: `old-${j}`, labels, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: created.metadata.uid, controller: true}]},
            spec: t.spec,
          },
        })
        await apiOk('PUT', `/api/v1/namespaces/${ns}/pods/old-${j}/status`, {body: {...pod, status: {phase}}})
      }
    }
  }
  return {scenario: s, ns, uids}
}

/** The objects of one namespace, as `kubectl get deployments,replicasets,pods -o json` lists them. */
export async function world(ns: string): Promise<Json[]> {
  const out: Json[] = []
  for (const [path, kind, apiVersion] of [
    [`/apis/apps/v1/namespaces/${ns}/deployments`, 'Deployment', 'apps/v1'],
    [`/apis/apps/v1/namespaces/${ns}/replicasets`, 'ReplicaSet', 'apps/v1'],
    [`/api/v1/namespaces/${ns}/pods`, 'Pod', 'v1'],
  ]) {
    for (const item of (await apiOk('GET', path)).items) out.push({apiVersion, kind, ...item})
  }
  return out
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

