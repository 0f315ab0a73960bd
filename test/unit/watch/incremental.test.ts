// The incremental planner against planSnapshot: after any sequence of pod and controller adds,
// updates and deletes, re-planning only the controllers each change names gives exactly the plans
// planSnapshot gives for a snapshot of the same objects.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import type {LabelSelector, PodView, Workload} from '../../../src/model/objects.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {controllerKey, IncrementalPlanner} from '../../../src/reconcile/incremental.js'
import {PodIndex} from '../../../src/reconcile/pod-index.js'
import {planSnapshot} from '../../../src/reconcile/planner.js'
import {compileLabelSelector, parseSelectorString, selectorMatches} from '../../../src/reconcile/selector.js'
import {ago, deploymentOwner, FIXED_NOW, pod, replicaSet, replicationController, snapshotOf} from '../../helpers/builders.js'

const NAMESPACES = ['default', 'other']
const CONTROLLERS = ['alpha', 'beta', 'gamma', 'delta']
const APPS = ['web', 'api']
const NODES = ['', 'n1', 'n2']
const READY_AGES = [30, 60, 3600, 3600, 7200]

interface World {
  workloads: Map<string, Workload>
  pods: Map<string, PodView>
}

const selectorArb: fc.Arbitrary<LabelSelector> = fc.oneof(
  fc.constantFrom<LabelSelector>(null),
  fc.record({app: fc.constantFrom(...APPS), tier: fc.constantFrom(undefined, 'a', 'b')}).map(({app, tier}) => ({matchLabels: tier ? {app, tier} : {app}})),
  // A Deployment's ReplicaSets differ by pod-template-hash: siblings with disjoint selectors.
  fc.record({app: fc.constantFrom(...APPS), hash: fc.constantFrom('h1', 'h2', 'h3')}).map(({app, hash}) => ({matchLabels: {app, 'pod-template-hash': hash}})),
  fc.constantFrom<LabelSelector>(
    {matchExpressions: [{key: 'app', operator: 'In', values: ['web', 'api']}]},
    {matchExpressions: [{key: 'app', operator: 'Exists'}, {key: 'tier', operator: 'NotIn', values: ['b']}]},
    {matchLabels: {app: 'web'}, matchExpressions: [{key: 'tier', operator: 'In', values: ['a']}]},
  ),
)

const workloadArb = fc
  .record({
    kind: fc.constantFrom('ReplicaSet', 'ReplicationController'),
    name: fc.constantFrom(...CONTROLLERS),
    namespace: fc.constantFrom(...NAMESPACES),
    replicas: fc.integer({min: 0, max: 5}),
    minReadySeconds: fc.constantFrom(0, 0, 60),
    selector: selectorArb,
    templateApp: fc.constantFrom(...APPS),
    deployment: fc.constantFrom(undefined, 'd1', 'd1', 'd2'),
    deleting: fc.boolean().map((b) => b && Math.random() < 0.3),
    team: fc.constantFrom('x', 'y'),
    uidGen: fc.integer({min: 0, max: 1}),
    rv: fc.integer({min: 1, max: 1000}),
    statusReplicas: fc.integer({min: 0, max: 4}),
  })
  .map((o) => {
    const build = o.kind === 'ReplicaSet' ? replicaSet : replicationController
    return build(o.name, {
      namespace: o.namespace,
      uid: `uid-${o.kind}-${o.namespace}-${o.name}-${o.uidGen}`,
      resourceVersion: String(o.rv),
      replicas: o.replicas,
      minReadySeconds: o.minReadySeconds,
      selector: o.kind === 'ReplicationController' && o.selector !== null && !o.selector.matchExpressions ? o.selector : o.kind === 'ReplicaSet' ? o.selector : undefined,
      templateLabels: {app: o.templateApp, tier: 'a'},
      labels: {team: o.team},
      owner: o.deployment ? deploymentOwner(o.deployment, `uid-deploy-${o.namespace}-${o.deployment}`) : undefined,
      deleting: o.deleting ? true : undefined,
      status: {replicas: o.statusReplicas, fullyLabeledReplicas: o.statusReplicas},
    })
  })

const podArb = fc
  .record({
    name: fc.integer({min: 0, max: 11}).map((i) => `p${i}`),
    namespace: fc.constantFrom(...NAMESPACES),
    owner: fc.constantFrom(-1, -1, 0, 1, 2, 3, 9),
    ownerKind: fc.constantFrom('ReplicaSet', 'ReplicationController'),
    ownerGen: fc.integer({min: 0, max: 1}),
    app: fc.constantFrom(...APPS, 'other'),
    tier: fc.constantFrom('a', 'b', undefined),
    hash: fc.constantFrom('h1', 'h2', 'h3', undefined),
    phase: fc.constantFrom('Running', 'Running', 'Pending', 'Failed', ''),
    ready: fc.boolean(),
    readyAgo: fc.constantFrom(...READY_AGES),
    node: fc.constantFrom(...NODES),
    deleting: fc.boolean().map((b) => b && Math.random() < 0.2),
    restarts: fc.constantFrom(0, 0, 3),
    rv: fc.integer({min: 1, max: 100000}),
    cost: fc.constantFrom(undefined, undefined, '5', '-1'),
    // A controller reference with the owner's uid under another kind (1) or name (2): the
    // controller does not see such a pod.
    misref: fc.constantFrom(0, 0, 0, 0, 0, 1, 2),
  })
  .map((o) => {
    const labels: Record<string, string> = {app: o.app}
    if (o.tier) labels.tier = o.tier
    if (o.hash) labels['pod-template-hash'] = o.hash
    const ownerName = o.owner === 9 ? 'ghost' : CONTROLLERS[o.owner]
    return pod(o.name, {
      namespace: o.namespace,
      uid: `uid-pod-${o.namespace}-${o.name}`,
      resourceVersion: String(o.rv),
      labels,
      phase: o.phase,
      ready: o.ready && o.phase === 'Running',
      readySince: ago(o.readyAgo),
      node: o.node,
      deleting: o.deleting ? true : undefined,
      restarts: o.restarts,
      cost: o.cost,
      owner:
        o.owner === -1
          ? undefined
          : {
              apiVersion: o.ownerKind === 'ReplicaSet' ? 'apps/v1' : 'v1',
              kind: o.misref === 1 ? (o.ownerKind === 'ReplicaSet' ? 'ReplicationController' : 'ReplicaSet') : o.ownerKind,
              name: o.misref === 2 ? `${ownerName}-old` : ownerName,
              uid: `uid-${o.ownerKind}-${o.namespace}-${ownerName}-${o.ownerGen}`,
              controller: true,
              blockOwnerDeletion: true,
            },
    })
  })

type Op = {type: 'setPod'; pod: PodView} | {type: 'deletePod'; index: number} | {type: 'setWorkload'; workload: Workload} | {type: 'deleteWorkload'; index: number}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {weight: 5, arbitrary: podArb.map((p) => ({type: 'setPod' as const, pod: p}))},
  {weight: 2, arbitrary: fc.nat().map((index) => ({type: 'deletePod' as const, index}))},
  {weight: 3, arbitrary: workloadArb.map((w) => ({type: 'setWorkload' as const, workload: w}))},
  {weight: 1, arbitrary: fc.nat().map((index) => ({type: 'deleteWorkload' as const, index}))},
)

// A Deployment's three ReplicaSets (selectors differ by pod-template-hash) and their pods, spread
// over two nodes: deletion ranking by co-location across siblings.
const HASHES = ['h1', 'h2', 'h3']
const DEPLOYMENT = deploymentOwner('d')
const siblingArb = fc.record({i: fc.integer({min: 0, max: 2}), replicas: fc.integer({min: 0, max: 3}), rv: fc.nat()}).map(({i, replicas, rv}) =>
  replicaSet(`d-${HASHES[i]}`, {
    owner: DEPLOYMENT,
    replicas,
    resourceVersion: String(rv),
    selector: {matchLabels: {app: 'web', 'pod-template-hash': HASHES[i]}},
    templateLabels: {app: 'web', 'pod-template-hash': HASHES[i]},
  }),
)
const siblingPodArb = fc
  .record({name: fc.integer({min: 0, max: 9}), hash: fc.integer({min: 0, max: 2}), owned: fc.boolean(), node: fc.constantFrom('n1', 'n2'), ready: fc.boolean(), rv: fc.nat()})
  .map((o) =>
    pod(`p${o.name}`, {
      uid: `uid-p${o.name}`,
      resourceVersion: String(o.rv),
      labels: {app: 'web', 'pod-template-hash': HASHES[o.hash]},
      node: o.node,
      ready: o.ready,
      owner: o.owned ? {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `d-${HASHES[o.hash]}`, uid: `uid-rs-d-${HASHES[o.hash]}`, controller: true, blockOwnerDeletion: true} : undefined,
    }),
  )
const siblingOpArb: fc.Arbitrary<Op> = fc.oneof(
  {weight: 6, arbitrary: siblingPodArb.map((p) => ({type: 'setPod' as const, pod: p}))},
  {weight: 2, arbitrary: fc.nat().map((index) => ({type: 'deletePod' as const, index}))},
  {weight: 2, arbitrary: siblingArb.map((w) => ({type: 'setWorkload' as const, workload: w}))},
)

const OPTIONS = {featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 3}

function expectedPlans(world: World, filter?: string) {
  const all = [...world.workloads.values()]
  const selector = filter === undefined ? undefined : parseSelectorString(filter)
  const workloads = selector ? all.filter((w) => selectorMatches(selector, w.labels)) : all
  const snapshot = snapshotOf({workloads, pods: [...world.pods.values()], replicaSets: all.filter((w) => w.kind === 'ReplicaSet')})
  return planSnapshot(snapshot, {...OPTIONS, now: FIXED_NOW}).controllers
}

/** Deeply frozen, so a planner that mutated its inputs would throw. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) frozen(v)
  }
  return value
}

function run(ops: Op[], opts: {filter?: string; planEvery: number}) {
  const world: World = {workloads: new Map(), pods: new Map()}
  const planner = new IncrementalPlanner({...OPTIONS, selector: opts.filter === undefined ? undefined : parseSelectorString(opts.filter)})
  let pending = new Set<string>()
  const flush = () => {
    planner.plan(pending, FIXED_NOW)
    pending = new Set()
    expect(planner.plans()).toEqual(expectedPlans(world, opts.filter))
  }
  ops.forEach((op, i) => {
    let affected: Set<string>
    switch (op.type) {
      case 'setPod': {
        const p = frozen(op.pod)
        const key = `${p.namespace}/${p.name}`
        affected = planner.setPod(p, world.pods.get(key))
        world.pods.set(key, p)
        break
      }
      case 'deletePod': {
        const keys = [...world.pods.keys()]
        if (keys.length === 0) return
        const key = keys[op.index % keys.length]
        affected = planner.deletePod(world.pods.get(key)!)
        world.pods.delete(key)
        break
      }
      case 'setWorkload': {
        const w = frozen(op.workload)
        affected = planner.setWorkload(w)
        world.workloads.set(controllerKey(w), w)
        break
      }
      case 'deleteWorkload': {
        const keys = [...world.workloads.keys()]
        if (keys.length === 0) return
        const key = keys[op.index % keys.length]
        affected = planner.deleteWorkload(world.workloads.get(key)!)
        world.workloads.delete(key)
        break
      }
    }
    for (const k of affected) pending.add(k)
    if ((i + 1) % opts.planEvery === 0) flush()
  })
  flush()
}

describe('IncrementalPlanner', () => {
  it('re-planning only the affected controllers matches planSnapshot after every change', () => {
    fc.assert(
      fc.property(fc.array(opArb, {minLength: 1, maxLength: 40}), (ops) => run(ops, {planEvery: 1})),
      {numRuns: 300},
    )
  })

  it('... and when changes are batched before planning', () => {
    fc.assert(
      fc.property(fc.array(opArb, {minLength: 1, maxLength: 60}), fc.integer({min: 2, max: 10}), (ops, planEvery) => run(ops, {planEvery})),
      {numRuns: 200},
    )
  })

  it('... and with a -l filter on the controllers', () => {
    fc.assert(
      fc.property(fc.array(opArb, {minLength: 1, maxLength: 40}), (ops) => run(ops, {filter: 'team=x', planEvery: 1})),
      {numRuns: 150},
    )
  })

  it('... and for the ReplicaSets of one Deployment, whose deletion ranking counts each other\'s pods', () => {
    fc.assert(
      fc.property(fc.array(siblingOpArb, {minLength: 1, maxLength: 50}), fc.integer({min: 1, max: 4}), (ops, planEvery) => run(ops, {planEvery})),
      {numRuns: 300},
    )
  })

  it('reports a deleted controller as no longer planned', () => {
    const planner = new IncrementalPlanner(OPTIONS)
    const rs = replicaSet('web')
    planner.plan(planner.setWorkload(rs), FIXED_NOW)
    const {replanned} = planner.plan(planner.deleteWorkload(rs), FIXED_NOW)
    expect(replanned).toEqual([{key: 'ReplicaSet/default/web', previous: expect.objectContaining({name: 'web'}), next: undefined}])
    expect(planner.plans()).toEqual([])
  })

  it('a pod event names its owner and every controller matching its old or new labels, not the rest', () => {
    const planner = new IncrementalPlanner(OPTIONS)
    const web = replicaSet('web', {templateLabels: {app: 'web'}})
    const api = replicaSet('api', {templateLabels: {app: 'api'}})
    const db = replicaSet('db', {templateLabels: {app: 'db'}})
    for (const w of [web, api, db]) planner.setWorkload(w)
    planner.plan(planner.plannedKeys(), FIXED_NOW)
    const p = pod('p1', {owner: web, labels: {app: 'web'}})
    expect([...planner.setPod(p)].sort()).toEqual(['ReplicaSet/default/web'])
    const relabelled = pod('p1', {owner: web, labels: {app: 'api'}})
    expect([...planner.setPod(relabelled, p)].sort()).toEqual(['ReplicaSet/default/api', 'ReplicaSet/default/web'])
  })

  it('a pod of one ReplicaSet of a Deployment re-plans a sibling that is scaling down (co-location ranking)', () => {
    const planner = new IncrementalPlanner(OPTIONS)
    const owner = deploymentOwner('d')
    const old = replicaSet('old', {owner, replicas: 0, selector: {matchLabels: {app: 'web', 'pod-template-hash': 'h1'}}, templateLabels: {app: 'web', 'pod-template-hash': 'h1'}})
    const next = replicaSet('new', {owner, replicas: 1, selector: {matchLabels: {app: 'web', 'pod-template-hash': 'h2'}}, templateLabels: {app: 'web', 'pod-template-hash': 'h2'}})
    const world: World = {workloads: new Map(), pods: new Map()}
    const add = (p: PodView) => {
      world.pods.set(p.name, p)
      return planner.setPod(p)
    }
    for (const w of [old, next]) {
      planner.setWorkload(w)
      world.workloads.set(controllerKey(w), w)
    }
    add(pod('n-1', {owner: next, labels: {app: 'web', 'pod-template-hash': 'h2'}, node: 'n1'}))
    add(pod('n-2', {owner: next, labels: {app: 'web', 'pod-template-hash': 'h2'}, node: 'n2'}))
    planner.plan(planner.plannedKeys(), FIXED_NOW)
    const affected = add(pod('o-1', {owner: old, labels: {app: 'web', 'pod-template-hash': 'h1'}, node: 'n1'}))
    expect([...affected].sort()).toEqual(['ReplicaSet/default/new', 'ReplicaSet/default/old'])
    planner.plan(affected, FIXED_NOW)
    expect(planner.plans()).toEqual(expectedPlans(world))
    const victim = planner.planOf('ReplicaSet/default/new')!.actions.find((a) => a.type === 'delete')
    expect(victim).toMatchObject({pod: 'n-1', decidedBy: 'colocated'})
  })

  it('the availability check is when the next Ready pod passes minReadySeconds', () => {
    const planner = new IncrementalPlanner(OPTIONS)
    const rs = replicaSet('web', {minReadySeconds: 60, replicas: 1})
    planner.setWorkload(rs)
    planner.setPod(pod('p1', {owner: rs, readySince: ago(20)}))
    planner.plan(['ReplicaSet/default/web'], FIXED_NOW)
    const now = BigInt(Date.parse(FIXED_NOW)) * 1_000_000n
    expect(planner.nextAvailabilityCheck('ReplicaSet/default/web', now)).toBe(now + 40_000_000_000n + 1n)
  })
})

describe('PodIndex', () => {
  it('answers like a scan of every pod, sorted by name, after pods are set, replaced and deleted', () => {
    fc.assert(
      fc.property(fc.array(podArb, {maxLength: 30}), fc.array(fc.nat(), {maxLength: 8}), selectorArb, fc.constantFrom(...NAMESPACES), (pods, drops, sel, ns) => {
        const index = new PodIndex()
        for (const p of pods) index.set(p)
        const unique = new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p]))
        for (const d of drops) {
          const victim = [...unique.values()][d % Math.max(1, unique.size)]
          if (!victim) continue
          index.delete(victim)
          unique.delete(`${victim.namespace}/${victim.name}`)
        }
        const all = [...unique.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        const selector = compileLabelSelector(sel)
        const ref = (p: (typeof all)[number]) => p.ownerReferences.find((r) => r.controller)
        const owner = (p: (typeof all)[number]) => ref(p)?.uid
        expect(index.size).toBe(unique.size)
        expect(index.matching(ns, selector)).toEqual(all.filter((p) => p.namespace === ns && selectorMatches(selector, p.labels)))
        for (const [kind, name, uid] of [
          ['ReplicaSet', 'alpha', 'uid-ReplicaSet-default-alpha-0'],
          ['ReplicationController', 'beta', 'uid-ReplicationController-other-beta-1'],
        ]) {
          const exact = (p: (typeof all)[number]) => owner(p) === uid && ref(p)!.kind === kind && ref(p)!.name === name
          expect(index.claimCandidates({namespace: ns, kind, name, uid})).toEqual(all.filter((p) => p.namespace === ns && (exact(p) || owner(p) === undefined)))
          expect(index.misreferenced({namespace: ns, kind, name, uid})).toEqual(all.filter((p) => p.namespace === ns && owner(p) === uid && !exact(p)))
          expect(index.controlledByOthers(ns, uid, selector)).toEqual(
            all.filter((p) => p.namespace === ns && selectorMatches(selector, p.labels) && owner(p) !== undefined && owner(p) !== uid),
          )
        }
      }),
      {numRuns: 300},
    )
  })
})
