// The DaemonSet planner, rule by rule (workloads semantics DS2–DS8).
import {describe, expect, it} from 'vitest'
import type {ControllerRevisionView, NodeView, PodView, Taint} from '../../../../src/model/objects.js'
import type {Action} from '../../../../src/model/plan.js'
import type {DaemonSetView} from '../../../../src/controllers/daemonset/model.js'
import {podTemplateHash} from '../../../../src/reconcile/hash/index.js'
import {daemonPodAffinity, daemonTolerations, shouldRunDaemonPod} from '../../../../src/controllers/daemonset/nodes.js'
import {planDaemonSet} from '../../../../src/controllers/daemonset/sync.js'
import {statefulSetRevisionData} from '../../../../src/reconcile/revisions.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {ago, FIXED_NOW, pod} from '../../../helpers/builders.js'

const NOW = parseRfc3339(FIXED_NOW)!
const TEMPLATE = {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:2'}]}}
const HASH = podTemplateHash(TEMPLATE, undefined)

function ds(o: Partial<DaemonSetView> = {}, spec: Record<string, unknown> = TEMPLATE.spec): DaemonSetView {
  const rawTemplate = {...TEMPLATE, spec}
  return {
    kind: 'DaemonSet', apiVersion: 'apps/v1', namespace: 'default', name: 'agent', uid: 'uid-agent', resourceVersion: '1', generation: 1,
    labels: {}, annotations: {}, ownerReferences: [], minReadySeconds: 0, selector: {matchLabels: {app: 'agent'}},
    template: {labels: {app: 'agent'}, annotations: {}, finalizers: [], spec}, rawTemplate, serverDefaulted: false,
    updateStrategy: {type: 'RollingUpdate', maxUnavailable: 1, maxSurge: 0}, revisionHistoryLimit: 10,
    status: {currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, observedGeneration: 1, updatedNumberScheduled: 0, numberAvailable: 0, numberUnavailable: 0},
    ...o,
  }
}

const node = (name: string, o: {labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean} = {}): NodeView => ({
  namespace: '', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0, labels: o.labels ?? {}, annotations: {}, ownerReferences: [],
  unschedulable: o.unschedulable ?? false, taints: o.taints ?? [],
})

const owner = {apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-agent', controller: true}
const agentPod = (name: string, nodeName: string, o: Parameters<typeof pod>[1] = {}, hash = HASH): PodView =>
  pod(name, {labels: {app: 'agent', 'controller-revision-hash': hash}, owner, node: nodeName, ...o})

const revision = (name: string, rev: number, template: unknown, hash = podTemplateHash(template, undefined)): ControllerRevisionView => ({
  namespace: 'default', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0, labels: {app: 'agent', 'controller-revision-hash': hash},
  annotations: {}, ownerReferences: [owner], revision: rev, data: {spec: {template: {...(template as object), $patch: 'replace'}}},
})
const CURRENT = revision(`agent-${HASH}`, 1, TEMPLATE, HASH)

function plan(set: DaemonSetView, nodes: NodeView[], pods: PodView[], revisions: ControllerRevisionView[] = [CURRENT]) {
  return planDaemonSet(set, {nodes, candidates: pods, revisions, now: NOW})
}
const types = (actions: Action[]) => actions.map((a) => a.type)
const deleted = (actions: Action[]) => actions.flatMap((a) => (a.type === 'deleteDaemonPod' ? [`${a.pod}:${a.reason}`] : []))
const createdOn = (actions: Action[]) => actions.flatMap((a) => (a.type === 'createDaemonPod' ? [a.node] : []))

describe('DS2 which nodes run the daemon pod', () => {
  const tol = daemonTolerations({})
  it('DS2.1 a template nodeName naming another node: neither run nor keep', () => {
    expect(shouldRunDaemonPod(node('a'), {nodeName: 'b'}, tol)).toEqual({shouldRun: false, shouldContinueRunning: false, excludedBy: 'node-name'})
  })
  it('DS2.2 nodeSelector and required node affinity', () => {
    expect(shouldRunDaemonPod(node('a', {labels: {pool: 'z'}}), {nodeSelector: {pool: 'x'}}, tol).excludedBy).toBe('node-selector')
    const affinity = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: 'zone', operator: 'In', values: ['a']}]}]}}}
    expect(shouldRunDaemonPod(node('n', {labels: {zone: 'b'}}), {affinity}, tol).excludedBy).toBe('node-affinity')
    expect(shouldRunDaemonPod(node('n', {labels: {zone: 'a'}}), {affinity}, tol).shouldRun).toBe(true)
    const empty = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}]}}}
    expect(shouldRunDaemonPod(node('n'), {affinity: empty}, tol).shouldRun).toBe(false)
  })
  it('DS2.3 an untolerated NoSchedule taint: no new pod, the existing one stays; NoExecute: it goes; PreferNoSchedule is ignored', () => {
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'foo', value: 'bar', effect: 'NoSchedule'}]}), {}, tol)).toMatchObject({shouldRun: false, shouldContinueRunning: true, excludedBy: 'taint'})
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'foo', value: 'bar', effect: 'NoExecute'}]}), {}, tol)).toMatchObject({shouldRun: false, shouldContinueRunning: false})
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'foo', value: '', effect: 'PreferNoSchedule'}]}), {}, tol).shouldRun).toBe(true)
    const own = daemonTolerations({tolerations: [{key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule'}]})
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'foo', value: 'bar', effect: 'NoSchedule'}]}), {}, own).shouldRun).toBe(true)
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'foo', value: 'baz', effect: 'NoSchedule'}]}), {}, own).shouldRun).toBe(false)
    const any = daemonTolerations({tolerations: [{operator: 'Exists'}]})
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'x', value: 'y', effect: 'NoExecute'}]}), {}, any).shouldRun).toBe(true)
  })
  it('DS2.4 unschedulable alone is not looked at; not-ready:NoSchedule is not tolerated, not-ready:NoExecute is', () => {
    expect(shouldRunDaemonPod(node('a', {unschedulable: true}), {}, tol).shouldRun).toBe(true)
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'node.kubernetes.io/not-ready', value: '', effect: 'NoSchedule'}]}), {}, tol)).toMatchObject({shouldRun: false, shouldContinueRunning: true})
    expect(shouldRunDaemonPod(node('a', {taints: [{key: 'node.kubernetes.io/not-ready', value: '', effect: 'NoExecute'}]}), {}, tol).shouldRun).toBe(true)
    const net = {key: 'node.kubernetes.io/network-unavailable', value: '', effect: 'NoSchedule'}
    expect(shouldRunDaemonPod(node('a', {taints: [net]}), {}, tol).shouldRun).toBe(false)
    expect(shouldRunDaemonPod(node('a', {taints: [net]}), {hostNetwork: true}, daemonTolerations({hostNetwork: true})).shouldRun).toBe(true)
  })
  it('DS2.5 the default tolerations in order; a user one with the same key, operator, value and effect loses its tolerationSeconds', () => {
    const t = daemonTolerations({tolerations: [{key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300}, {key: 'x', operator: 'Exists'}]})
    expect(t.map((x) => `${x.key}:${x.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute', 'x:', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
    ])
    expect(t[0].tolerationSeconds).toBeUndefined()
  })
})

describe('DS4 manage', () => {
  it('walks the nodes by name, in whatever order they were read', () => {
    const names = ['n10', 'n2', 'a', 'n1', 'b']
    const pods = [agentPod('agent-n2', 'n2'), agentPod('agent-b', 'b')]
    const sorted = plan(ds(), [...names].sort().map((n) => node(n)), pods)
    const shuffled = plan(ds(), names.map((n) => node(n)), pods)
    expect(shuffled).toEqual(sorted)
    expect(createdOn(shuffled.actions)).toEqual(['a', 'n1', 'n10'])
    expect((shuffled.nodes as {node: string}[]).map((n) => n.node)).toEqual(['a', 'b', 'n1', 'n10', 'n2'])
  })
  it('DS4.1 a node that should run one and has none gets one, with the injected affinity and the revision hash', () => {
    const p = plan(ds(), [node('a'), node('b')], [agentPod('agent-1', 'a')])
    const create = p.actions.find((a) => a.type === 'createDaemonPod')
    expect(create).toMatchObject({node: 'b', generateName: 'agent-', labels: {app: 'agent', 'controller-revision-hash': HASH}})
    expect(create && 'affinity' in create && create.affinity).toEqual({nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: ['b']}]}]}}})
  })
  it('DS4.2 duplicates: the bound, oldest pod is kept; failed and succeeded pods go and no create this sync', () => {
    const p = plan(ds(), [node('a'), node('b')], [
      agentPod('agent-young', 'a', {created: ago(10)}),
      agentPod('agent-old', 'a', {created: ago(1000)}),
      agentPod('agent-unbound', '', {created: ago(5000)}),
      agentPod('agent-failed', 'b', {phase: 'Failed', ready: false}),
    ].map((x) => (x.name === 'agent-unbound' ? {...x, affinityNode: 'a'} : x)))
    expect(deleted(p.actions)).toEqual(['agent-young:duplicate', 'agent-unbound:duplicate', 'agent-failed:failed'])
    expect(createdOn(p.actions)).toEqual([])
  })
  it('DS4.3 a node that no longer matches loses its pod; DS4.4 an untolerated NoSchedule taint keeps it', () => {
    const p = plan(ds({}, {...TEMPLATE.spec, nodeSelector: {pool: 'x'}}), [node('a', {labels: {pool: 'z'}}), node('b', {labels: {pool: 'x'}, taints: [{key: 'k', value: '', effect: 'NoSchedule'}]})], [agentPod('agent-a', 'a'), agentPod('agent-b', 'b')], [])
    expect(deleted(p.actions)).toEqual(['agent-a:not-eligible'])
  })
  it('DS4.5 an unbound pod whose node is gone is deleted; a bound one is left to pod GC', () => {
    const unbound = {...agentPod('agent-x', ''), affinityNode: 'gone'}
    const p = plan(ds(), [node('a')], [agentPod('agent-a', 'a'), unbound, agentPod('agent-y', 'gone-too')])
    expect(deleted(p.actions)).toEqual(['agent-x:no-node'])
  })
  it('DS4.5 a node read twice counts once: an unbound pod of a node gone is still found', () => {
    const unbound = {...agentPod('agent-x', ''), affinityNode: 'gone'}
    const p = plan(ds(), [node('a'), node('a')], [agentPod('agent-a', 'a'), unbound])
    expect(deleted(p.actions)).toEqual(['agent-x:no-node'])
    expect(deleted(plan(ds(), [node('a'), node('a')], [agentPod('agent-a', 'a')]).actions)).toEqual([])
  })
  it('DS6 a surge rolling update meets an old pod on a node not read: the sync ends there', () => {
    const set = ds({updateStrategy: {type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 1}})
    const p = plan(set, [node('a'), node('b')], [agentPod('old-a', 'a', {}, 'old'), agentPod('old-b', 'b', {}, 'old'), agentPod('old-c', 'c', {}, 'old')])
    expect(p.endedBy).toBe('node c of pod old-c is not in the node list: the rolling update fails this sync')
  })
  it('surge: zero running pods on a node means a create in the same sync; an available new pod replaces the old one', () => {
    const set = ds({updateStrategy: {type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 1}})
    const p = plan(set, [node('a'), node('b')], [agentPod('agent-f', 'a', {phase: 'Failed', ready: false}), agentPod('old-b', 'b', {created: ago(9000)}, 'old'), agentPod('new-b', 'b', {created: ago(60)})])
    expect(createdOn(p.actions)).toEqual(['a'])
    expect(deleted(p.actions)).toEqual(['agent-f:failed', 'old-b:surge-replaced'])
  })
})

describe('DS6 rolling update', () => {
  const nodes = [node('a'), node('b'), node('c')]
  const old = (n: string, o: Parameters<typeof pod>[1] = {}) => agentPod(`agent-${n}`, n, o, 'old')
  it('DS6.2 maxUnavailable 1, all old and available: one of three, chosen by the controller at random', () => {
    const p = plan(ds(), nodes, [old('a'), old('b'), old('c')])
    const choice = p.actions.find((a) => a.type === 'chooseDaemonPods')
    expect(choice).toMatchObject({type: 'chooseDaemonPods', operation: 'delete', count: 1, candidates: ['agent-a', 'agent-b', 'agent-c']})
    // The write each candidate would get, for reconcile to pick from.
    expect(choice?.type === 'chooseDaemonPods' && choice.choices?.map((c) => `${c.type}:${c.type === 'deleteDaemonPod' ? c.pod : c.node}`)).toEqual([
      'deleteDaemonPod:agent-a',
      'deleteDaemonPod:agent-b',
      'deleteDaemonPod:agent-c',
    ])
  })
  it('DS6.2 an unavailable old pod is replaced first and uses the budget', () => {
    const p = plan(ds(), nodes, [old('a'), old('b', {ready: false}), old('c')])
    expect(deleted(p.actions)).toEqual(['agent-b:update'])
    expect(types(p.actions)).not.toContain('chooseDaemonPods')
  })
  it('DS6.1 maxUnavailable 50% of 3 nodes rounds up to 2', () => {
    const p = plan(ds({updateStrategy: {type: 'RollingUpdate', maxUnavailable: '50%', maxSurge: 0}}), nodes, [old('a'), old('b'), old('c')])
    expect(p.actions.find((a) => a.type === 'chooseDaemonPods')).toMatchObject({count: 2})
  })
  it('DS6.1 both budgets resolving to 0 with nodes to run on: maxUnavailable counts as 1', () => {
    const p = plan(ds({updateStrategy: {type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 0}}), nodes, [old('a'), old('b'), old('c')])
    expect(p.actions.find((a) => a.type === 'chooseDaemonPods')).toMatchObject({count: 1})
  })
  it('DS6.3 maxSurge 1: a new pod beside an old one on one node, nothing deleted', () => {
    const p = plan(ds({updateStrategy: {type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 1}}), nodes, [old('a'), old('b'), old('c')])
    expect(p.actions.find((a) => a.type === 'chooseDaemonPods')).toMatchObject({operation: 'create', count: 1, candidates: ['a', 'b', 'c']})
    expect(deleted(p.actions)).toEqual([])
  })
  it('DS1.2 when manage creates or deletes, the rolling update waits for the next sync', () => {
    const p = plan(ds(), [...nodes, node('d')], [old('a'), old('b'), old('c')])
    expect(createdOn(p.actions)).toEqual(['d'])
    expect(types(p.actions)).not.toContain('chooseDaemonPods')
  })
  it('DS6.4 OnDelete: no rolling deletes', () => {
    const p = plan(ds({updateStrategy: {type: 'OnDelete'}}), nodes, [old('a'), old('b'), old('c')])
    expect(deleted(p.actions)).toEqual([])
  })
})

describe('DS7 revisions', () => {
  it('DS7.3 no revision of the template: one is created, named by the template hash, numbered after the old ones', () => {
    const oldRev = revision('agent-old', 3, {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:1'}]}})
    const p = plan(ds(), [], [], [oldRev])
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: `agent-${HASH}`, hash: HASH, revision: 4})
  })
  it('DS7.3 an existing revision hashed otherwise than kctl hashes its template: the new name is not guessed', () => {
    const oldRev = revision('agent-old', 3, {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:1'}]}}, 'zzzzz')
    const p = plan(ds(), [], [], [oldRev])
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: null, hash: null, revision: 4})
    expect(p.warnings.join(' ')).toMatch(/hashes templates differently/)
  })
  it('DS7.3 an existing revision hashed at any collision count up to the set\'s is hashed as kctl hashes: the new name is guessed', () => {
    const oldTemplate = {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:1'}]}}
    const status = {...ds().status, collisionCount: 2}
    for (const count of [undefined, 0, 1, 2]) {
      const p = plan(ds({status}), [], [], [revision('agent-old', 3, oldTemplate, podTemplateHash(oldTemplate, count))])
      expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: `agent-${podTemplateHash(TEMPLATE, 2)}`, revision: 4})
    }
    const beyond = plan(ds({status}), [], [], [revision('agent-old', 3, oldTemplate, podTemplateHash(oldTemplate, 3))])
    expect(beyond.actions[0]).toMatchObject({type: 'createControllerRevision', name: null, hash: null})
  })
  it('DS7.2 a rollback bumps the matching revision above the others; a duplicate of it goes', () => {
    const newer = revision('agent-newer', 5, {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:1'}]}})
    const dup = revision('agent-dup', 2, TEMPLATE)
    const p = plan(ds(), [], [], [CURRENT, dup, newer])
    expect(p.actions.filter((a) => a.type.endsWith('ControllerRevision'))).toEqual([
      {type: 'deleteControllerRevision', name: `agent-${HASH}`, uid: `uid-agent-${HASH}`, resourceVersion: '1', revision: 1, reason: 'duplicate'},
      {type: 'updateControllerRevision', name: 'agent-dup', uid: 'uid-agent-dup', resourceVersion: '1', from: 2, to: 6},
    ])
  })
  it('DS7.2 a revision of the template stored with other bytes is not current: the new name collides with it', () => {
    // Read from the API server, the template's getPatch bytes are known: sorted keys, "$patch" in them.
    const stored = {...CURRENT, data: JSON.parse(statefulSetRevisionData(TEMPLATE))}
    const same = plan(ds({serverDefaulted: true}), [], [], [stored])
    expect(same.endedBy).toBeUndefined()
    expect(same.updateRevision).toEqual({name: `agent-${HASH}`, hash: HASH, created: false})
    // The same template with its keys in another order: an old revision, and the name is taken.
    const reordered = plan(ds({serverDefaulted: true}), [], [], [CURRENT])
    expect(reordered.endedBy).toMatch(/exists with another template/)
    expect(reordered.status).toMatchObject({collisionCount: 1})
    // From a hand-written file the bytes are unknown: the templates are compared.
    expect(plan(ds(), [], [], [CURRENT]).endedBy).toBeUndefined()
  })
  it('DS7.4 len(old) − limit revisions go, oldest first, skipping any a pod still carries', () => {
    const olds = [1, 2, 3].map((n) => revision(`agent-r${n}`, n, {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: `agent:0.${n}`}]}}))
    const p = plan(ds({revisionHistoryLimit: 1}), [node('a')], [agentPod('agent-a', 'a', {}, olds[0].labels['controller-revision-hash'])], [...olds, {...CURRENT, revision: 4}])
    expect(p.actions.flatMap((a) => (a.type === 'deleteControllerRevision' ? [a.name] : []))).toEqual(['agent-r2', 'agent-r3'])
  })
})

describe('DS8 status', () => {
  it('counts the first pod of each node; misscheduled pods on nodes that should not run it', () => {
    const nodes = [node('a'), node('b'), node('c', {taints: [{key: 'k', value: '', effect: 'NoSchedule'}]}), node('d')]
    const p = plan(ds(), nodes, [agentPod('agent-a', 'a'), agentPod('agent-b', 'b', {ready: false}), agentPod('agent-c', 'c')])
    expect(p.status).toEqual({currentNumberScheduled: 2, numberMisscheduled: 1, desiredNumberScheduled: 3, numberReady: 1, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 1, numberUnavailable: 2})
  })
})

describe('DS scenarios', () => {
  it('DS-21 a terminating pod that is still Running and Ready: no create; counted current, ready and available', () => {
    const p = plan(ds(), [node('a')], [agentPod('agent-a', 'a', {deleting: true})])
    expect(createdOn(p.actions)).toEqual([])
    expect(p.status).toMatchObject({currentNumberScheduled: 1, numberReady: 1, numberAvailable: 1})
  })
  it('DS-22 an orphan that matches is adopted and no second pod is created', () => {
    const orphan = pod('agent-o', {labels: {app: 'agent', 'controller-revision-hash': HASH}, node: 'a'})
    const p = plan(ds(), [node('a')], [orphan])
    expect(types(p.actions).filter((t) => t !== 'updateStatus')).toEqual(['adopt'])
  })
  it('DS-9 a Failed pod is deleted and its replacement waits for a later sync; DS-10 likewise a Succeeded one', () => {
    const p = plan(ds(), [node('a'), node('b')], [agentPod('f', 'a', {phase: 'Failed', ready: false}), agentPod('s', 'b', {phase: 'Succeeded', ready: false})])
    expect(deleted(p.actions)).toEqual(['f:failed', 's:succeeded'])
    expect(createdOn(p.actions)).toEqual([])
  })
  it('a terminal pod already being deleted is not on its node any more: the node gets a new pod', () => {
    const p = plan(ds(), [node('a')], [agentPod('gone', 'a', {phase: 'Failed', ready: false, deleting: true})])
    expect(createdOn(p.actions)).toEqual(['a'])
  })
  it('DS8.3 status is not written when nothing changed', () => {
    const p = plan(ds({status: {currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1, observedGeneration: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 0}}), [node('a')], [agentPod('agent-a', 'a')])
    expect(p.actions).toEqual([])
    expect(p.inSync).toBe(true)
  })
})

describe('DS5.2 the node affinity of a created pod', () => {
  it('replaces required terms, keeps preferred ones and pod affinity', () => {
    const affinity = {
      nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: 'zone', operator: 'In', values: ['a']}]}]}, preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1}]},
      podAntiAffinity: {x: 1},
    }
    expect(daemonPodAffinity(affinity, 'n1')).toEqual({
      nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: ['n1']}]}]}, preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1}]},
      podAntiAffinity: {x: 1},
    })
  })
})

describe('DS7.4 cleanupHistory after rollbacks: revision order, not creation or name order', () => {
  // Templates 1, 2, 3 rolled out in turn, then rollbacks to 1 (its revision becomes 4) and to 2
  // (5), then a new template (6): the lowest revisions are neither the oldest objects nor the first names.
  const tpl = (image: string) => ({metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image}]}})
  const old = (name: string, rev: number, created: string): ControllerRevisionView => ({...revision(name, rev, tpl(`agent:${name}`)), creationTimestamp: created})
  const history = [old('agent-aaa', 4, '2026-11-01T00:00:00Z'), old('agent-bbb', 5, '2026-11-02T00:00:00Z'), old('agent-ccc', 3, '2026-11-03T00:00:00Z')]
  const current = {...CURRENT, revision: 6, creationTimestamp: '2026-11-04T00:00:00Z'}
  const cleaned = (limit: number) =>
    plan(ds({revisionHistoryLimit: limit}), [node('a')], [agentPod('agent-a', 'a')], [...history, current]).actions.flatMap((a) =>
      a.type === 'deleteControllerRevision' ? [`${a.name}@${a.revision}`] : [],
    )

  it('revisionHistoryLimit 1: revisions 3 and 4 go', () => {
    expect(cleaned(1)).toEqual(['agent-ccc@3', 'agent-aaa@4'])
  })
  it('revisionHistoryLimit 2: revision 3 goes', () => {
    expect(cleaned(2)).toEqual(['agent-ccc@3'])
  })
  it('revisionHistoryLimit 0: every old revision no pod carries goes, lowest first', () => {
    expect(cleaned(0)).toEqual(['agent-ccc@3', 'agent-aaa@4', 'agent-bbb@5'])
  })
  it('revisionHistoryLimit 0: a revision a pod still carries stays', () => {
    const p = plan(ds({revisionHistoryLimit: 0}), [node('a'), node('b')], [agentPod('agent-a', 'a'), agentPod('agent-b', 'b', {}, history[0].labels['controller-revision-hash'])], [...history, current])
    expect(p.actions.flatMap((a) => (a.type === 'deleteControllerRevision' ? [a.name] : []))).toEqual(['agent-ccc', 'agent-bbb'])
  })
})

describe('DS5 syncNodes: at most burstReplicas (250) creates and deletes per sync', () => {
  it('260 nodes without a pod: 250 creates now, 10 pending', () => {
    const nodes = Array.from({length: 260}, (_, i) => node(`n${String(i).padStart(3, '0')}`))
    const p = plan(ds(), nodes, [])
    expect(createdOn(p.actions)).toHaveLength(250)
    expect(createdOn(p.actions).at(-1)).toBe('n249')
    expect(p.pending).toBe(10)
  })
  it('exactly 250: all of them, nothing pending', () => {
    const p = plan(ds(), Array.from({length: 250}, (_, i) => node(`n${i}`)), [])
    expect([createdOn(p.actions).length, p.pending]).toEqual([250, 0])
  })
})

describe('DS4.4 surge: the old pod goes once the new one is available, minReadySeconds counted', () => {
  const set = ds({minReadySeconds: 30, updateStrategy: {type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 1}})
  const onA = (readyFor: number) => [agentPod('old-a', 'a', {created: ago(9000)}, 'old'), agentPod('new-a', 'a', {created: ago(120), readySince: ago(readyFor)})]
  it('Ready 10 s of 30: both stay', () => {
    expect(deleted(plan(set, [node('a')], onA(10)).actions)).toEqual([])
  })
  it('Ready 31 s: the old one is replaced', () => {
    expect(deleted(plan(set, [node('a')], onA(31)).actions)).toEqual(['old-a:surge-replaced'])
  })
})
