// The StatefulSet planner, rule by rule (workloads semantics S2–S8).
import {describe, expect, it} from 'vitest'
import type {ControllerRevisionView, PodView} from '../../../../src/model/objects.js'
import type {Action} from '../../../../src/model/plan.js'
import type {ClaimView, StatefulSetView} from '../../../../src/controllers/statefulset/model.js'
import {statefulSetRevisionData, statefulSetRevisionHash} from '../../../../src/reconcile/revisions.js'
import {parseOrdinal, planStatefulSet, statefulSetMaxUnavailable} from '../../../../src/controllers/statefulset/sync.js'
import {parseRfc3339} from '../../../../src/reconcile/time.js'
import {ago, FIXED_NOW, pod} from '../../../helpers/builders.js'

const NOW = parseRfc3339(FIXED_NOW)!
const TEMPLATE = {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'nginx:1'}]}}
const R1 = 'web-r1'
const owner = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true}

function set(o: Partial<StatefulSetView> = {}, image = 'nginx:1'): StatefulSetView {
  const spec = {containers: [{name: 'c', image}]}
  return {
    kind: 'StatefulSet', apiVersion: 'apps/v1', namespace: 'default', name: 'web', uid: 'uid-web', resourceVersion: '1', generation: 1,
    labels: {}, annotations: {}, ownerReferences: [], replicas: 3, minReadySeconds: 0, selector: {matchLabels: {app: 'web'}},
    template: {labels: {app: 'web'}, annotations: {}, finalizers: [], spec}, rawTemplate: {...TEMPLATE, spec}, serverDefaulted: false,
    serviceName: 'web', podManagementPolicy: 'OrderedReady', updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0}},
    revisionHistoryLimit: 10, ordinalsStart: 0, volumeClaimTemplates: [], retention: {whenDeleted: 'Retain', whenScaled: 'Retain'},
    status: {observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, currentRevision: R1, updateRevision: R1, collisionCount: 0},
    ...o,
  }
}

const revision = (name: string, rev: number, image: string): ControllerRevisionView => ({
  namespace: 'default', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0, labels: {app: 'web', 'controller-revision-hash': name.slice(4)},
  annotations: {}, ownerReferences: [owner], revision: rev,
  data: {spec: {template: {$patch: 'replace', metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image}]}}}},
})
const REV1 = revision(R1, 1, 'nginx:1')

const member = (ordinal: number, o: Parameters<typeof pod>[1] = {}, rev = R1): PodView =>
  pod(`web-${ordinal}`, {labels: {app: 'web', 'controller-revision-hash': rev, 'statefulset.kubernetes.io/pod-name': `web-${ordinal}`}, owner, created: ago(1000 - ordinal), ...o})

const claim = (name: string, o: Partial<ClaimView> = {}): ClaimView => ({
  namespace: 'default', name, uid: `uid-${name}`, resourceVersion: '1', generation: 0, labels: {app: 'web'}, annotations: {}, ownerReferences: [], ...o,
})

function plan(s: StatefulSetView, pods: PodView[], revisions: ControllerRevisionView[] = [REV1], claims: ClaimView[] = [], maxUnavailableGate = false) {
  return planStatefulSet(s, {candidates: pods, revisions, claims: new Map(claims.map((c) => [c.name, c])), now: NOW, maxUnavailableGate})
}
const podWrites = (actions: Action[]) =>
  actions.flatMap((a) => (a.type === 'createStatefulPod' ? [`+${a.pod}`] : a.type === 'deleteStatefulPod' ? [`-${a.pod}:${a.reason}`] : []))
const healthy = () => [member(0), member(1), member(2)]

describe('S2 claiming', () => {
  it('S2.1 an orphan named like the set is adopted; an owned pod named otherwise is released; an orphan named otherwise is left', () => {
    const orphan = pod('web-1', {labels: {app: 'web', 'controller-revision-hash': R1, 'statefulset.kubernetes.io/pod-name': 'web-1'}})
    const stranger = pod('other-1', {labels: {app: 'web'}, owner})
    const foo = pod('foo-0', {labels: {app: 'web'}})
    const p = plan(set(), [member(0), orphan, member(2), stranger, foo])
    expect(p.actions.filter((a) => a.type === 'adopt' || a.type === 'release').map((a) => `${a.type}:${'pod' in a ? a.pod : ''}`)).toEqual(['adopt:web-1', 'release:other-1'])
  })
  it('S2.2 orphan revisions that match are adopted', () => {
    const p = plan(set(), healthy(), [{...REV1, ownerReferences: []}])
    expect(p.actions[0]).toMatchObject({type: 'adoptControllerRevision', name: R1})
  })
  it('parses ordinals as getParentNameAndOrdinal does', () => {
    expect(parseOrdinal('web-12')).toEqual({parent: 'web', ordinal: 12})
    expect(parseOrdinal('a-b-3')).toEqual({parent: 'a-b', ordinal: 3})
    expect(parseOrdinal('web').ordinal).toBe(-1)
    // The pattern ^(.*)-([0-9]+)$: digits end the name after a dash, the parent holds no line break.
    for (const name of ['web-', '-3', 'web-1-2', 'web3', 'web-007', 'web--4', 'w\neb-1', 'web-1\n', 'web-2147483647', 'web-2147483648', `web-${'9'.repeat(400)}`, 'web-١']) {
      const m = /^(.*)-([0-9]+)$/.exec(name)
      const want = m && Number(m[2]) <= 2147483647 ? {parent: m[1], ordinal: Number(m[2])} : {parent: '', ordinal: -1}
      expect(parseOrdinal(name), JSON.stringify(name)).toEqual(want)
    }
  })
  it("S2.1 a pod is the set's only when its name is the set's name, a dash and an ordinal", () => {
    const active = (pods: string[]) => plan(set(), pods.map((n) => ({...member(0), name: n, uid: `u-${n}`}))).active
    expect(active(['web-0', 'web-1', 'web-2'])).toBe(3)
    // Pods it controls whose name is not its own are not its pods: not counted, not deleted.
    expect(active(['web-0', 'web-1', 'web-2', 'web1-0', 'we-1', 'web-x', 'web-0-1', 'web-', 'web-9'])).toBe(4)
  })
})

describe('S3 revisions', () => {
  it('S3.2 the hash of the stored data: FNV-1 with the collision count appended (a name the real controller gave)', () => {
    const data = '{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1","imagePullPolicy":"IfNotPresent","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}'
    expect(statefulSetRevisionHash(data, 0)).toBe('79c7b7dfff')
    const template = JSON.parse(data).spec.template
    delete template.$patch
    expect(statefulSetRevisionData(template)).toBe(data)
  })
  it('S3.4 a changed template from the cluster: a new revision by its hash, numbered after the latest', () => {
    const s = set({serverDefaulted: true}, 'nginx:2')
    const p = plan(s, healthy())
    const hash = statefulSetRevisionHash(statefulSetRevisionData(s.rawTemplate), 0)
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: `web-${hash}`, revision: 2})
    expect(p.updateRevision).toEqual({name: `web-${hash}`, hash, created: true})
  })
  it('S3.4 a name taken by another template: the collision count goes up and the next name is used', () => {
    const s = set({serverDefaulted: true}, 'nginx:2')
    const data = statefulSetRevisionData(s.rawTemplate)
    const taken = {...revision(`web-${statefulSetRevisionHash(data, 0)}`, 1, 'other:1'), ownerReferences: [{...owner, uid: 'uid-someone-else'}]}
    const p = plan(s, healthy(), [REV1, taken])
    const second = `web-${statefulSetRevisionHash(data, 1)}`
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: second, revision: 2})
    expect(p.status).toMatchObject({collisionCount: 1, updateRevision: second})
  })
  it('S3.4 from a file the new revision is created but its name is unknown here', () => {
    const p = plan(set({}, 'nginx:2'), healthy())
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: null, hash: null, revision: 2})
    expect(p.warnings.join(' ')).toMatch(/not computed here/)
  })
  it('S3.2 a template from a file already in the API server\'s shape (an export) is hashed as if read live', () => {
    const stored = {metadata: {labels: {app: 'web'}}, spec: {containers: [{image: 'nginx:2', imagePullPolicy: 'IfNotPresent', name: 'c', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File'}], dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30}}
    const exported = plan({...set(), rawTemplate: stored}, healthy())
    const live = plan({...set(), rawTemplate: stored, serverDefaulted: true}, healthy())
    expect(exported.updateRevision).toEqual(live.updateRevision)
    expect(exported.updateRevision?.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/)
    // Without the always-written `resources: {}` it is not the stored JSON: unknown.
    const {resources: _, ...container} = stored.spec.containers[0]
    expect(plan({...set(), rawTemplate: {...stored, spec: {...stored.spec, containers: [container]}}}, healthy()).updateRevision?.name).toBeNull()
  })
  it('S3.4 rollback: the old revision is bumped to the next number and becomes the update revision', () => {
    const r2 = revision('web-r2', 2, 'nginx:2')
    const p = plan(set({status: {...set().status, currentRevision: 'web-r2', updateRevision: 'web-r2'}}), healthy().map((x) => ({...x, labels: {...x.labels, 'controller-revision-hash': 'web-r2'}})), [REV1, r2])
    expect(p.actions[0]).toEqual({type: 'updateControllerRevision', name: R1, uid: `uid-${R1}`, resourceVersion: '1', from: 1, to: 3})
    expect(podWrites(p.actions)).toEqual(['-web-2:update'])
  })
  it('S3.4 rollback to a revision whose stored bytes differ from the template\'s (keys in another order): not equal; a new revision, its name colliding', () => {
    const s = set({serverDefaulted: true, status: {...set().status, currentRevision: 'web-r2', updateRevision: 'web-r2'}})
    const data = statefulSetRevisionData(s.rawTemplate)
    const name = `web-${statefulSetRevisionHash(data, 0)}`
    const atR2 = healthy().map((x) => ({...x, labels: {...x.labels, 'controller-revision-hash': 'web-r2'}}))
    // Stored as the controller writes it: the rollback bumps it.
    const exact = {...revision(name, 1, 'nginx:1'), data: JSON.parse(data)}
    expect(plan(s, atR2, [exact, revision('web-r2', 2, 'nginx:2')]).actions[0]).toMatchObject({type: 'updateControllerRevision', name, from: 1, to: 3})
    // The same template with its keys in another order: a new revision, and its first name is taken.
    const p = plan(s, atR2, [revision(name, 1, 'nginx:1'), revision('web-r2', 2, 'nginx:2')])
    const second = `web-${statefulSetRevisionHash(data, 1)}`
    expect(p.actions[0]).toMatchObject({type: 'createControllerRevision', name: second, revision: 3})
    expect(p.status).toMatchObject({collisionCount: 1, updateRevision: second})
  })
  it('S3.4 the latest revision is compared by meaning: stored with other bytes, it is still the update revision', () => {
    const s = set({serverDefaulted: true})
    const p = plan(s, healthy(), [revision(R1, 1, 'nginx:1')])
    expect(p.actions.filter((a) => a.type.endsWith('ControllerRevision'))).toEqual([])
    expect(p.updateRevision).toEqual({name: R1, hash: 'r1', created: false})
  })
  it('S3.6 non-live revisions beyond the limit go, oldest first', () => {
    const revs = [1, 2, 3, 4].map((n) => revision(`web-r${n}`, n, `nginx:${n}`))
    const p = plan(set({revisionHistoryLimit: 1, status: {...set().status, currentRevision: 'web-r4', updateRevision: 'web-r4'}}, 'nginx:4'), healthy().map((x) => ({...x, labels: {...x.labels, 'controller-revision-hash': 'web-r4'}})), revs)
    expect(p.actions.flatMap((a) => (a.type === 'deleteControllerRevision' ? [a.name] : []))).toEqual(['web-r1', 'web-r2'])
  })
})

describe('S4 S6 pods by ordinal', () => {
  it('SS-1 a new set creates web-0 only, with its identity labels, hostname and subdomain', () => {
    const p = plan(set({status: {...set().status, replicas: 0, currentRevision: '', updateRevision: ''}}), [])
    const create = p.actions.find((a) => a.type === 'createStatefulPod')
    expect(create).toMatchObject({pod: 'web-0', hostname: 'web-0', subdomain: 'web', revision: R1, labels: {app: 'web', 'controller-revision-hash': R1, 'statefulset.kubernetes.io/pod-name': 'web-0', 'apps.kubernetes.io/pod-index': '0'}})
    expect(podWrites(p.actions)).toEqual(['+web-0'])
    expect(p.blockedBy).toEqual({pod: 'web-0', reason: 'created'})
  })
  it('SS-2 Parallel creates every missing ordinal in one sync', () => {
    expect(podWrites(plan(set({podManagementPolicy: 'Parallel'}), []).actions)).toEqual(['+web-0', '+web-1', '+web-2'])
  })
  it('SS-3 a Pending pod blocks OrderedReady', () => {
    const p = plan(set(), [member(0, {phase: 'Pending', ready: false})])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.blockedBy).toEqual({pod: 'web-0', reason: 'not-running-and-ready'})
  })
  it('SS-4 the first missing ordinal is created', () => {
    expect(podWrites(plan(set(), [member(0), member(2)]).actions)).toEqual(['+web-1'])
  })
  it('SS-5 a Failed pod is deleted and nothing else happens; SS-6 in Parallel a missing one is created too', () => {
    expect(podWrites(plan(set(), [member(0), member(1, {phase: 'Failed', ready: false}), member(2)]).actions)).toEqual(['-web-1:failed'])
    expect(podWrites(plan(set({podManagementPolicy: 'Parallel'}), [member(0, {phase: 'Failed', ready: false}), member(1)]).actions)).toEqual(['-web-0:failed', '+web-2'])
  })
  it('SS-7 scale 3→1 deletes web-2 only; SS-8 Parallel deletes both', () => {
    expect(podWrites(plan(set({replicas: 1}), healthy()).actions)).toEqual(['-web-2:condemned'])
    expect(podWrites(plan(set({replicas: 1, podManagementPolicy: 'Parallel'}), healthy()).actions)).toEqual(['-web-2:condemned', '-web-1:condemned'])
  })
  it('SS-9 two unhealthy condemned pods: the highest is not the first unhealthy one, nothing is deleted; SS-10 alone it goes', () => {
    const pods = [...healthy(), member(3, {phase: 'Pending', ready: false}), member(4, {phase: 'Pending', ready: false})]
    expect(podWrites(plan(set(), pods).actions)).toEqual([])
    expect(podWrites(plan(set(), [...healthy(), member(3), member(4, {phase: 'Pending', ready: false})]).actions)).toEqual(['-web-4:condemned'])
  })
  it('SS-11 scale-down waits for an unready in-range pod; SS-12 and for a terminating condemned one', () => {
    expect(podWrites(plan(set({replicas: 2}), [member(0, {ready: false}), member(1), member(2)]).actions)).toEqual([])
    const p = plan(set({replicas: 1}), [member(0), member(1), member(2, {deleting: true})])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.blockedBy).toEqual({pod: 'web-2', reason: 'terminating'})
  })
  it('SS-28 an owned pod beyond replicas is condemned', () => {
    expect(podWrites(plan(set(), [...healthy(), member(7)]).actions)).toEqual(['-web-7:condemned'])
  })
  it('SS-30 minReadySeconds: a pod ready for less is not available and blocks', () => {
    const p = plan(set({minReadySeconds: 30}), [member(0, {readySince: ago(10)})])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.blockedBy).toEqual({pod: 'web-0', reason: 'not-available'})
    expect(p.status).toMatchObject({readyReplicas: 1, availableReplicas: 0})
  })
  it('SS-26 an orphan without its identity labels is adopted, then updated', () => {
    const orphan = pod('web-1', {labels: {app: 'web', 'controller-revision-hash': R1}})
    const p = plan(set(), [member(0), orphan, member(2)])
    expect(p.actions.filter((a) => a.type !== 'updateStatus').map((a) => a.type)).toEqual(['adopt', 'updatePod'])
  })
  it('S4.5 a pod without its pod-name label is updated', () => {
    const p = plan(set(), [member(0), {...member(1), labels: {app: 'web', 'controller-revision-hash': R1}}, member(2)])
    expect(p.actions.find((a) => a.type === 'updatePod')).toMatchObject({pod: 'web-1', fixes: ['pod-name-label', 'pod-index-label']})
  })
  it('S4.1 ordinals start at spec.ordinals.start', () => {
    expect(podWrites(plan(set({ordinalsStart: 5, podManagementPolicy: 'Parallel'}), []).actions)).toEqual(['+web-5', '+web-6', '+web-7'])
  })
})

describe('S5 claims', () => {
  const withClaims = (o: Partial<StatefulSetView> = {}) => set({volumeClaimTemplates: [{name: 'data', labels: {}, annotations: {}}], ...o})
  it('SS-21 claims are created before their pod, labelled with matchLabels, without owners under Retain', () => {
    const p = plan(withClaims(), [])
    expect(p.actions.filter((a) => a.type === 'createClaim' || a.type === 'createStatefulPod').map((a) => a.type)).toEqual(['createClaim', 'createStatefulPod'])
    expect(p.actions.find((a) => a.type === 'createClaim')).toMatchObject({claim: 'data-web-0', labels: {app: 'web'}})
    expect(p.actions.find((a) => a.type === 'createStatefulPod')).toMatchObject({claims: {data: 'data-web-0'}})
  })
  it('SS-22 Delete/Delete, scale 3→1: condemned claims get their pod as controller, then the highest pod goes', () => {
    const s = withClaims({replicas: 1, retention: {whenDeleted: 'Delete', whenScaled: 'Delete'}})
    const setRef = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}
    const claims = [0, 1, 2].map((i) => claim(`data-web-${i}`, {ownerReferences: [setRef]}))
    const pods = healthy().map((x, i) => ({...x, claimVolumes: {data: `data-web-${i}`}}))
    const p = plan(s, pods, [REV1], claims)
    expect(p.actions.flatMap((a) => (a.type === 'updateClaim' ? [`${a.claim}:${a.to.map((r) => `${r.kind}/${r.name}`).join(',')}`] : []))).toEqual(['data-web-2:Pod/web-2', 'data-web-1:Pod/web-1'])
    expect(podWrites(p.actions)).toEqual(['-web-2:condemned'])
  })
  it('SS-23 whenDeleted Delete: a healthy pod\'s claim gets the set as controller, and the pod is written after it', () => {
    const s = withClaims({retention: {whenDeleted: 'Delete', whenScaled: 'Retain'}})
    const pods = healthy().map((x, i) => ({...x, claimVolumes: {data: `data-web-${i}`}}))
    const setRef = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}
    const p = plan(s, pods, [REV1], [claim('data-web-0', {ownerReferences: [setRef]}), claim('data-web-1'), claim('data-web-2', {ownerReferences: [setRef]})])
    expect(p.actions.map((a) => `${a.type}:${'claim' in a ? a.claim : 'pod' in a ? a.pod : ''}`)).toEqual(['updateClaim:data-web-1', 'updatePod:web-1'])
    expect(p.actions[0]).toMatchObject({to: [setRef]})
    expect(p.actions[1]).toMatchObject({fixes: ['claim-owners']})
  })
  it('S5.3 Delete/Delete: a reference to the set or pod that is not a controller one is rewritten (in range, the pod\'s goes)', () => {
    const s = withClaims({retention: {whenDeleted: 'Delete', whenScaled: 'Delete'}})
    const setRef = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}
    const podRef = {apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'uid-web-0', controller: false}
    const pods = healthy().map((x, i) => ({...x, claimVolumes: {data: `data-web-${i}`}}))
    const p = plan(s, pods, [REV1], [claim('data-web-0', {ownerReferences: [setRef, podRef]}), claim('data-web-1', {ownerReferences: [setRef]}), claim('data-web-2', {ownerReferences: [setRef]})])
    expect(p.actions.find((a) => a.type === 'updateClaim')).toMatchObject({claim: 'data-web-0', to: [setRef]})
  })
  it('S5.3 a claim another controller owns: our references go, nothing is added', () => {
    const s = withClaims({retention: {whenDeleted: 'Delete', whenScaled: 'Delete'}})
    const other = {apiVersion: 'example.com/v1', kind: 'Backup', name: 'b', uid: 'uid-b', controller: true}
    const ours = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web'}
    const pods = healthy().map((x, i) => ({...x, claimVolumes: {data: `data-web-${i}`}}))
    const setRef = {...ours, controller: true, blockOwnerDeletion: true}
    const p = plan(s, pods, [REV1], [claim('data-web-0', {ownerReferences: [other, ours]}), claim('data-web-1', {ownerReferences: [setRef]}), claim('data-web-2', {ownerReferences: [setRef]})])
    expect(p.actions.find((a) => a.type === 'updateClaim')).toMatchObject({claim: 'data-web-0', to: [other]})
  })
  it('S6.4 Parallel: a terminating or not-ready pod still gets its claim owners put right (only OrderedReady waits on it)', () => {
    // The random workloads oracle's world (seed 2, world 194): Parallel, Delete/Delete, web-1 terminating, its claim without owners.
    const setRef = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true}
    const pods = [member(0, {deleting: true}), member(1, {ready: false}), member(2)].map((x, i) => ({...x, claimVolumes: {data: `data-web-${i}`}}))
    const claims = [claim('data-web-0'), claim('data-web-1'), claim('data-web-2', {ownerReferences: [setRef]})]
    const parallel = plan(withClaims({podManagementPolicy: 'Parallel', retention: {whenDeleted: 'Delete', whenScaled: 'Delete'}}), pods, [REV1], claims)
    expect(parallel.actions.filter((a) => a.type !== 'updateStatus').map((a) => `${a.type}:${'claim' in a ? a.claim : 'pod' in a ? a.pod : ''}`)).toEqual(['updateClaim:data-web-0', 'updatePod:web-0', 'updateClaim:data-web-1', 'updatePod:web-1'])
    expect(parallel.actions[0]).toMatchObject({to: [setRef]})
    // OrderedReady stops at the terminating web-0.
    const ordered = plan(withClaims({retention: {whenDeleted: 'Delete', whenScaled: 'Delete'}}), pods, [REV1], claims)
    expect(ordered.actions.filter((a) => a.type === 'updateClaim' || a.type === 'updatePod')).toEqual([])
    expect(ordered.blockedBy).toEqual({pod: 'web-0', reason: 'terminating'})
  })
  it('SS-24 a claim still owned by an earlier pod of that name stops the creation', () => {
    const s = withClaims({retention: {whenDeleted: 'Retain', whenScaled: 'Delete'}})
    const stale = claim('data-web-1', {ownerReferences: [{apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'old-uid', controller: true}]})
    const p = plan(s, [{...member(0), claimVolumes: {data: 'data-web-0'}}], [REV1], [claim('data-web-0'), stale])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.blockedBy).toEqual({pod: 'web-1', reason: 'stale-claim'})
  })
  it('SS-25 a claim being deleted: the pod is not created, the sync errs', () => {
    const p = plan(withClaims(), [{...member(0), claimVolumes: {data: 'data-web-0'}}], [REV1], [claim('data-web-0'), claim('data-web-1', {deletionTimestamp: ago(1)})])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.warnings.join(' ')).toMatch(/pvc data-web-1 is being deleted/)
  })
})

describe('S6.8 S7 updates', () => {
  const r2 = revision('web-r2', 2, 'nginx:2')
  const s = (o: Partial<StatefulSetView> = {}) => set(o, 'nginx:2')
  it('SS-13 a template change replaces the highest ordinal first, one per sync', () => {
    const p = plan(s(), healthy(), [REV1, r2])
    expect(podWrites(p.actions)).toEqual(['-web-2:update'])
    expect(p.status).toMatchObject({currentReplicas: 2, updatedReplicas: 0, updateRevision: 'web-r2', currentRevision: R1})
  })
  it('SS-14 the rollout waits for an updated pod that is not ready', () => {
    const p = plan(s(), [member(0), member(1), member(2, {phase: 'Pending', ready: false}, 'web-r2')], [REV1, r2])
    expect(podWrites(p.actions)).toEqual([])
  })
  it('SS-16 a partition keeps the ordinals below it at the current revision', () => {
    const p = plan(s({updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 2}}}), [member(0), member(1), member(2, {}, 'web-r2')], [REV1, r2])
    expect(podWrites(p.actions)).toEqual([])
    const missing = plan(s({updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 2}}}), [member(0), member(2, {}, 'web-r2')], [REV1, r2])
    expect(missing.actions.find((a) => a.type === 'createStatefulPod')).toMatchObject({pod: 'web-1', revision: R1, template: 'current'})
  })
  it('SS-17 ordinals from 5, partition 1, Parallel: the partition counts from the start ordinal', () => {
    const pods = [5, 6, 7].map((i) => member(i))
    const o = {ordinalsStart: 5, podManagementPolicy: 'Parallel' as const, updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 1}}}
    expect(podWrites(plan(s(o), pods, [REV1, r2]).actions)).toEqual(['-web-7:update'])
    const updated = [member(5), member(6), member(7, {}, 'web-r2')]
    expect(podWrites(plan(s(o), updated, [REV1, r2]).actions)).toEqual(['-web-6:update'])
    const done = [member(5), member(6, {}, 'web-r2'), member(7, {}, 'web-r2')]
    expect(podWrites(plan(s(o), done, [REV1, r2]).actions)).toEqual([])
    // Missing pods: web-5 (below start + partition) comes back at the current revision, web-6 at the update one.
    const created = plan(s(o), [member(7, {}, 'web-r2')], [REV1, r2]).actions.flatMap((a) => (a.type === 'createStatefulPod' ? [`${a.pod}:${a.revision}`] : []))
    expect(created).toEqual([`web-5:${R1}`, 'web-6:web-r2'])
  })
  it('SS-18 OnDelete: no replacement; a missing pod comes back at the update revision', () => {
    const p = plan(s({updateStrategy: {type: 'OnDelete'}}), [member(0), member(2)], [REV1, r2])
    expect(p.actions.find((a) => a.type === 'createStatefulPod')).toMatchObject({pod: 'web-1', revision: 'web-r2'})
    expect(podWrites(p.actions)).toEqual(['+web-1'])
  })
  it('SS-20 RollingUpdate without rollingUpdate: ordinals below status.currentReplicas are created at the current revision', () => {
    const p = plan(s({replicas: 3, updateStrategy: {type: 'RollingUpdate'}, status: {...set().status, replicas: 2, currentReplicas: 1}}), [member(0), member(2, {}, 'web-r2')], [REV1, r2])
    expect(p.actions.find((a) => a.type === 'createStatefulPod')).toMatchObject({pod: 'web-1', revision: 'web-r2'})
    const low = plan(s({updateStrategy: {type: 'RollingUpdate'}, status: {...set().status, currentReplicas: 2}}), [member(0), member(2, {}, 'web-r2')], [REV1, r2])
    expect(low.actions.find((a) => a.type === 'createStatefulPod')).toMatchObject({pod: 'web-1', revision: R1})
  })
  it('S6.9 with MaxUnavailableStatefulSet on, maxUnavailable 2 replaces two pods at once, from the highest ordinal; off (1.36), one', () => {
    const o = {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0, maxUnavailable: 2}}}
    expect(podWrites(plan(s(o), healthy(), [REV1, r2], [], true).actions)).toEqual(['-web-2:update', '-web-1:update'])
    const off = plan(s(o), healthy(), [REV1, r2])
    expect(podWrites(off.actions)).toEqual(['-web-2:update'])
    expect(off.warnings.join(' ')).toMatch(/MaxUnavailableStatefulSet/)
    // An unavailable pod uses the budget; a percentage rounds down, to at least 1.
    expect(podWrites(plan(s(o), [member(0), member(1, {ready: false}), member(2)], [REV1, r2], [], true).actions)).toEqual([])
    const pct = {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0, maxUnavailable: '50%'}}}
    expect(podWrites(plan(s(pct), healthy(), [REV1, r2], [], true).actions)).toEqual(['-web-2:update'])
  })
  it('S8.3 the rollout is complete only when every pod is also ready; S8.1 terminating pods count in no revision', () => {
    const pods = [member(0, {}, 'web-r2'), member(1, {}, 'web-r2'), member(2, {ready: false}, 'web-r2')]
    expect(plan(s({podManagementPolicy: 'Parallel'}), pods, [REV1, r2]).status).toMatchObject({currentRevision: R1, updatedReplicas: 3, readyReplicas: 2})
    const leaving = plan(s({replicas: 2}), [member(0), member(1), member(2, {deleting: true})], [REV1, r2])
    expect(leaving.status).toMatchObject({replicas: 3, currentReplicas: 2, readyReplicas: 3})
  })
  it('SS-31 S8.3 every pod updated and ready: the current revision becomes the update revision', () => {
    const pods = [0, 1, 2].map((i) => member(i, {}, 'web-r2'))
    const p = plan(s(), pods, [REV1, r2])
    expect(p.status).toMatchObject({currentRevision: 'web-r2', updateRevision: 'web-r2', currentReplicas: 3, updatedReplicas: 3})
  })
})

describe('S8 status', () => {
  it('S8.4 no write when nothing changed', () => {
    const p = plan(set(), healthy())
    expect(p.actions).toEqual([])
    expect(p.inSync).toBe(true)
  })
  it('SS-32 a set being deleted writes status only', () => {
    const p = plan(set({deletionTimestamp: ago(1), generation: 2}), [member(0)])
    expect(p.actions.map((a) => a.type)).toEqual(['updateStatus'])
  })
})

describe('S3.6 truncateHistory with revisionHistoryLimit 0', () => {
  const revs = [1, 2, 3, 4].map((n) => revision(`web-r${n}`, n, `nginx:${n}`))
  const at4 = (limit: number, pods = healthy().map((x) => ({...x, labels: {...x.labels, 'controller-revision-hash': 'web-r4'}}))) =>
    plan(set({revisionHistoryLimit: limit, status: {...set().status, currentRevision: 'web-r4', updateRevision: 'web-r4'}}, 'nginx:4'), pods, revs).actions.flatMap((a) =>
      a.type === 'deleteControllerRevision' ? [a.name] : [],
    )
  it('every revision that is neither current, update nor a pod\'s goes', () => {
    expect(at4(0)).toEqual(['web-r1', 'web-r2', 'web-r3'])
  })
  it('a revision a pod still carries stays, even at 0', () => {
    const pods = [member(0, {}, 'web-r4'), member(1, {}, 'web-r2'), member(2, {}, 'web-r4')]
    expect(at4(0, pods)).toEqual(['web-r1', 'web-r3'])
  })
  it('limit 3 keeps all three old revisions', () => {
    expect(at4(3)).toEqual([])
  })
})

describe('S6.6 S6.9 edges', () => {
  it('OrderedReady scale-down: a condemned pod Ready for less than minReadySeconds blocks unless it is the first unavailable one', () => {
    const p = plan(set({replicas: 2, minReadySeconds: 30}), [member(0), member(1), member(2, {readySince: ago(10)}), member(3, {readySince: ago(10)})])
    expect(podWrites(p.actions)).toEqual([])
    expect(p.blockedBy).toEqual({pod: 'web-3', reason: 'not-available'})
  })
  it('getStatefulSetMaxUnavailable: a percentage of replicas rounded down, at least 1', () => {
    const budget = (maxUnavailable: number | string, replicas = 3) => statefulSetMaxUnavailable(set({replicas, updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0, maxUnavailable}}}))
    expect([budget('10%'), budget('50%'), budget('67%'), budget(2), budget('0%', 10)]).toEqual([1, 1, 2, 2, 1])
  })
})
