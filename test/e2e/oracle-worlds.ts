// Worlds for the oracles: ReplicaSets, ReplicationControllers and pods built on the real control
// plane while no controller runs (pod status set as a kubelet would), and the comparison of what
// kctl planned with what the real controller then did to each controller's pods.
import {apiOk, newNamespace, setPodStatus} from './setup/cluster.js'

export const HOUR = 3600_000
export const MIN = 60_000
const GHOST_UID = '7c0d5e2a-0000-4000-8000-0000000000ff'

export interface PodSpec {
  name: string
  labels?: Record<string, string>
  /** Name of the ReplicaSet / RC (in this scenario) that controls the pod; none: an orphan. */
  owner?: string
  node?: string
  phase?: 'Pending' | 'Running' | 'Failed' | 'Unknown'
  ready?: boolean
  /** How long ago the pod became Ready (ms), or an exact time shared with other pods. */
  readyAgo?: number
  readyAt?: string
  restarts?: number
  cost?: string
  /** Deleted before the controller starts, held back by a finalizer: Terminating. */
  terminating?: boolean
  /** The controller reference keeps the owner's uid but says this kind or name instead. */
  refAs?: {kind?: string; name?: string}
  /** Controlled by a ReplicaSet that is not in the world (another owner's pod). */
  foreign?: boolean
  /**
   * Held by a finalizer, so that a delete leaves it Terminating and visible: an unbound pod is
   * otherwise removed at once, and an orphan adopted and deleted in one sync would leave no trace.
   */
  held?: boolean
}

export interface ControllerSpec {
  kind: 'ReplicaSet' | 'ReplicationController'
  name: string
  replicas: number
  /** matchLabels for a ReplicaSet, the map for an RC; absent on an RC: defaulted from the template. */
  selector?: Record<string, string>
  template: Record<string, string>
  /** UID of a (made-up) Deployment that controls this ReplicaSet. */
  deploymentUid?: string
  /** ReplicaSet only: requirements besides matchLabels. */
  matchExpressions?: Array<{key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[]}>
  minReadySeconds?: number
  /** Deleted before the controller starts, held back by a finalizer. */
  deleting?: boolean
}

export interface Scenario {
  id: string
  title: string
  controllers: ControllerSpec[]
  pods: PodSpec[]
}


export interface Built {
  scenario: Scenario
  ns: string
  uids: Record<string, string>
  /** Pods before the controller ran: name → uid, controller uid, terminating. */
  before: Map<string, {uid: string; controllerUid?: string; deleting: boolean}>
}

export async function build(s: Scenario): Promise<Built> {
  const ns = await newNamespace(`oracle-${s.id}`)
  const uids: Record<string, string> = {}
  for (const c of s.controllers) {
    const meta: Record<string, unknown> = {name: c.name}
    if (c.deleting) meta.finalizers = ['kctl.io/e2e-hold']
    if (c.deploymentUid) {
      meta.ownerReferences = [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: c.deploymentUid, controller: true, blockOwnerDeletion: false}]
    }
    const template = {metadata: {labels: c.template}, spec: {containers: [{name: 'c', image: 'registry.invalid/app:1'}], terminationGracePeriodSeconds: 30}}
    const created =
      c.kind === 'ReplicaSet'
        ? await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
            body: {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              metadata: meta,
              spec: {replicas: c.replicas, minReadySeconds: c.minReadySeconds, selector: {matchLabels: c.selector, matchExpressions: c.matchExpressions}, template},
            },
          })
        : await apiOk('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
            body: {
              apiVersion: 'v1',
              kind: 'ReplicationController',
              metadata: meta,
              spec: {replicas: c.replicas, minReadySeconds: c.minReadySeconds, ...(c.selector ? {selector: c.selector} : {}), template},
            },
          })
    uids[c.name] = created.metadata.uid
    if (c.deleting) await apiOk('DELETE', `/${c.kind === 'ReplicaSet' ? 'apis/apps/v1' : 'api/v1'}/namespaces/${ns}/${c.kind === 'ReplicaSet' ? 'replicasets' : 'replicationcontrollers'}/${c.name}`)
  }
  for (const p of s.pods) {
    const owner = p.owner ? s.controllers.find((c) => c.name === p.owner)! : undefined
    const metadata: Record<string, unknown> = {name: p.name, labels: p.labels ?? {}}
    if (p.foreign) {
      metadata.ownerReferences = [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'ghost', uid: GHOST_UID, controller: true, blockOwnerDeletion: true}]
    } else if (owner) {
      metadata.ownerReferences = [
        {
          apiVersion: (p.refAs?.kind ?? owner.kind) === 'ReplicaSet' ? 'apps/v1' : 'v1',
          kind: p.refAs?.kind ?? owner.kind,
          name: p.refAs?.name ?? owner.name,
          uid: uids[owner.name],
          controller: true,
          blockOwnerDeletion: true,
        },
      ]
    }
    if (p.cost !== undefined) metadata.annotations = {'controller.kubernetes.io/pod-deletion-cost': p.cost}
    if (p.terminating || p.held) metadata.finalizers = ['kctl.io/e2e-hold']
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {apiVersion: 'v1', kind: 'Pod', metadata, spec: {...(p.node ? {nodeName: p.node} : {}), containers: [{name: 'c', image: 'registry.invalid/app:1'}]}},
    })
    if (p.phase && p.phase !== 'Pending') {
      await setPodStatus(ns, p.name, {
        phase: p.phase,
        ready: p.ready ?? p.phase === 'Running',
        readySince: p.readyAt ?? new Date(Date.now() - (p.readyAgo ?? HOUR)),
        restartCount: p.restarts,
      })
    }
    if (p.terminating) await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/${p.name}`)
  }
  return {scenario: s, ns, uids, before: await podState(ns)}
}

export async function podState(ns: string): Promise<Built['before']> {
  return (await podStates([ns], `/api/v1/namespaces/${ns}/pods`)).get(ns)!
}

/** podState of many namespaces at once, read with one list of every pod (or of `path`). */
export async function podStates(namespaces: readonly string[], path = '/api/v1/pods'): Promise<Map<string, Built['before']>> {
  const out = new Map<string, Built['before']>(namespaces.map((ns) => [ns, new Map()]))
  for (const pod of (await apiOk('GET', path)).items) {
    const ref = (pod.metadata.ownerReferences ?? []).find((r: any) => r.controller)
    out.get(pod.metadata.namespace)?.set(pod.metadata.name, {uid: pod.metadata.uid, controllerUid: ref?.uid, deleting: Boolean(pod.metadata.deletionTimestamp)})
  }
  return out
}

export interface Outcome {
  creates: number
  deleted: string[]
  adopted: string[]
  released: string[]
}

/** What the controller did to one controller's pods, read off the pods before and after. */
export function observe(b: Built, controllerUid: string, after: Built['before']): Outcome {
  const deleted: string[] = []
  const adopted: string[] = []
  const released: string[] = []
  let creates = 0
  for (const [name, was] of b.before) {
    const now = after.get(name)
    if (was.controllerUid === controllerUid && !was.deleting && (!now || (now.deleting && now.uid === was.uid))) deleted.push(name)
    if (!was.controllerUid && now?.controllerUid === controllerUid) {
      adopted.push(name)
      if (now.deleting) deleted.push(name)
    }
    if (was.controllerUid === controllerUid && now && now.controllerUid !== controllerUid) released.push(name)
  }
  for (const [name, now] of after) if (!b.before.has(name) && now.controllerUid === controllerUid) creates++
  return {creates, deleted: deleted.sort(), adopted: adopted.sort(), released: released.sort()}
}

export function predicted(plan: any): Outcome & {victims: string[]; tie: string[]} {
  const of = (type: string) => plan.actions.filter((a: any) => a.type === type)
  const deletes = of('delete')
  return {
    creates: of('create').length,
    deleted: deletes.map((a: any) => a.pod).sort(),
    victims: deletes.filter((a: any) => a.tieGroup === undefined).map((a: any) => a.pod).sort(),
    // Every pod of the plan's ties (a delete's own `tie` lists a large one only in part).
    tie: [...new Set<string>((plan.ties ?? []).flatMap((t: any) => t.pods))].sort(),
    adopted: of('adopt').map((a: any) => a.pod).sort(),
    released: of('release').map((a: any) => a.pod).sort(),
  }
}

/** Agreement: same counts and sets; with a tie, the deleted pods are the sure victims plus members of the tie. */
export function agrees(p: ReturnType<typeof predicted>, o: Outcome): boolean {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])
  const deletesAgree =
    p.tie.length === 0
      ? same(p.deleted, o.deleted)
      : o.deleted.length === p.deleted.length && p.victims.every((v) => o.deleted.includes(v)) && o.deleted.every((d) => p.victims.includes(d) || p.tie.includes(d))
  return p.creates === o.creates && deletesAgree && same(p.adopted, o.adopted) && same(p.released, o.released)
}
