// Watch mode's Deployment side: the incremental planner keeps a Deployment's plan equal to
// planSnapshot's, re-planning it on its own events and on its ReplicaSets' (through the watch
// parts: ReplicaSets are grouped by owner, the Deployment planner plans the owner); the engine
// names the event.
import {describe, expect, it} from 'vitest'

import type {Snapshot} from '../../../../src/model/objects.js'
import {DEFAULT_FEATURE_GATES} from '../../../../src/model/plan.js'
import type {PlanChange, WatchUpdate} from '../../../../src/model/watch.js'
import {controllerKey, IncrementalPlanner} from '../../../../src/reconcile/incremental.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {readSnapshot} from '../../../../src/services/snapshot.js'
import {WatchEngine} from '../../../../src/watch/engine.js'
import {deepFreeze} from '../../../../src/watch/objects.js'
import {plainPod} from '../../../../src/sources/pods.js'
import {ManualClock} from '../../../helpers/manual-clock.js'

function engine(o: {fixedNow?: string} = {}) {
  const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'))
  const updates: WatchUpdate[] = []
  let deferred: (() => void) | undefined
  const e = new WatchEngine({featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500, clock, fixedNow: o.fixedNow, emit: (u) => updates.push(u), defer: (fn) => (deferred = fn)})
  const flush = () => {
    const fn = deferred
    deferred = undefined
    fn?.()
  }
  const changes = () => updates.filter((u): u is PlanChange => u.kind === 'PlanChange')
  return {e, clock, updates, flush, changes}
}

describe('IncrementalPlanner with Deployments', () => {
  const options = {now: '2026-11-22T10:00:00Z', featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500}
  const deploymentPlans = (p: {controllers: readonly {kind: string}[]}) => p.controllers.filter((c) => c.kind === 'Deployment')

  async function fed(): Promise<{planner: IncrementalPlanner; snapshot: Snapshot}> {
    const snapshot = await readSnapshot({filename: ['examples/rollout'], now: options.now})
    const planner = new IncrementalPlanner({featureGates: options.featureGates, burstReplicas: 500})
    for (const w of snapshot.replicaSets) planner.setWorkload(w)
    for (const p of snapshot.pods) planner.setPod(p)
    for (const d of snapshot.deployments ?? []) planner.setDeployment(d)
    planner.plan(planner.plannedKeys(), options.now)
    return {planner, snapshot}
  }

  it('plans each Deployment as planSnapshot does, the following step included', async () => {
    const {planner, snapshot} = await fed()
    expect(deploymentPlans({controllers: planner.plans()})).toEqual(deploymentPlans(planSnapshot(snapshot, options)))
  })

  it('a ReplicaSet change re-plans the Deployment that owns it; a template change plans the new ReplicaSet', async () => {
    const {planner, snapshot} = await fed()
    const d = snapshot.deployments![0]
    const old = snapshot.replicaSets.find((rs) => rs.name === 'web-b54b89fc')!
    const changed = {...old, resourceVersion: `${old.resourceVersion}1`, status: {...old.status, availableReplicas: 0, readyReplicas: 0}}
    const affected = planner.setWorkload(changed)
    expect(affected).toContain(controllerKey(d))
    planner.plan(affected, options.now)
    const after = {...snapshot, replicaSets: snapshot.replicaSets.map((rs) => (rs === old ? changed : rs)), workloads: snapshot.workloads.map((rs) => (rs === old ? changed : rs))}
    expect(planner.planOf(controllerKey(d))).toEqual(deploymentPlans(planSnapshot(after, options))[0])

    const template = {...(d.rawTemplate as Record<string, any>), spec: {containers: [{name: 'web', image: 'registry.example/web:9'}]}}
    const edited = {...d, resourceVersion: `${d.resourceVersion}2`, generation: d.generation + 1, rawTemplate: template, template: {...d.template, spec: template.spec}}
    expect([...planner.setDeployment(edited)]).toEqual([controllerKey(d)])
    const {replanned} = planner.plan([controllerKey(d)], options.now)
    expect(replanned[0].next!.actions.map((a) => a.type)).toContain('createReplicaSet')
    expect(replanned[0].next).toEqual(deploymentPlans(planSnapshot({...after, deployments: [edited]}, options))[0])
  })
})

describe('WatchEngine with Deployments', () => {
  it('plans a Deployment once synced, and again on its own update and on its ReplicaSet\'s, naming the event', async () => {
    const snapshot = await readSnapshot({filename: ['examples/rollout'], now: '2026-11-22T10:00:00Z'})
    const {e, flush, changes} = engine({fixedNow: '2026-11-22T10:00:00Z'})
    const d = deepFreeze({...snapshot.deployments![0]})
    e.deploymentHandler.onAdd!(d, true)
    for (const rs of snapshot.replicaSets) e.workloadHandler.onAdd!(deepFreeze({...rs}), true)
    for (const x of snapshot.pods) e.podHandler.onAdd!(deepFreeze(plainPod(x)), true)
    e.markSynced()
    const initial = changes().find((c) => c.key === 'Deployment/staging/web')!
    expect(initial.event.type).toBe('INITIAL')
    expect(initial.next!.actions.map((a) => a.type)).toEqual(['scaleReplicaSet'])

    const paused = deepFreeze({...d, resourceVersion: '9200', paused: true})
    let from = changes().length
    e.deploymentHandler.onUpdate!(d, paused, 'watch')
    flush()
    expect(changes().slice(from).map((c) => [c.key, c.event.type, c.event.kind])).toEqual([['Deployment/staging/web', 'MODIFIED', 'Deployment']])
    expect(changes().at(-1)!.next!.syncPath).toBe('paused')

    const old = snapshot.replicaSets.find((rs) => rs.name === 'web-b54b89fc')!
    from = changes().length
    e.workloadHandler.onUpdate!(deepFreeze({...old}), deepFreeze({...old, resourceVersion: '9300', replicas: 0}), 'watch')
    flush()
    expect(changes().slice(from).map((c) => c.key)).toContain('Deployment/staging/web')
  })
})
