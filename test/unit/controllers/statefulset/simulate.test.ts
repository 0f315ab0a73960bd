// StatefulSets and DaemonSets in the event loop: their planners and the executor run forward with
// the kubelet model, as for Deployments. Rollouts start as an operator starts them: a settled set,
// then a change.
import {describe, expect, it} from 'vitest'
import type {LoopResult} from '../../../../src/simulate/loop.js'
import {applyScale, applySetImage, parseScale, parseSetImage} from '../../../../src/simulate/changes.js'
import {openSim} from '../../simulate/helpers.js'

function statefulSet(replicas: number, extra: {podManagementPolicy?: string; partition?: number; claims?: boolean; minReadySeconds?: number} = {}): string {
  return `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default, resourceVersion: "1", generation: 1, creationTimestamp: "2026-11-22T09:00:00Z"}
spec:
  replicas: ${replicas}
  serviceName: web
  ${extra.podManagementPolicy ? `podManagementPolicy: ${extra.podManagementPolicy}` : ''}
  ${extra.partition !== undefined ? `updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: ${extra.partition}}}` : ''}
  ${extra.minReadySeconds ? `minReadySeconds: ${extra.minReadySeconds}` : ''}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      # As the API server stores it (defaults filled in): a StatefulSet's revision name is computed from that.
      containers:
        - {name: c, image: "nginx:1.27", imagePullPolicy: IfNotPresent, resources: {}, terminationMessagePath: /dev/termination-log, terminationMessagePolicy: File${extra.claims ? ', volumeMounts: [{name: data, mountPath: /data}]' : ''}}
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 5
  ${extra.claims ? 'volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]' : ''}
`
}

function daemonSet(strategy: string, extra: {minReadySeconds?: number} = {}): string {
  const nodes = ['node-a', 'node-b', 'node-c'].map((n) => `---
apiVersion: v1
kind: Node
metadata: {name: ${n}, labels: {kubernetes.io/os: linux}}
`)
  return `apiVersion: apps/v1
kind: DaemonSet
# The API server keeps a template generation on every DaemonSet; its pods carry it as a label.
metadata: {name: agent, namespace: default, resourceVersion: "1", generation: 1, creationTimestamp: "2026-11-22T09:00:00Z", annotations: {deprecated.daemonset.template.generation: "1"}}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: ${strategy}
  ${extra.minReadySeconds ? `minReadySeconds: ${extra.minReadySeconds}` : ''}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 5
      containers: [{name: c, image: "agent:1"}]
${nodes.join('')}`
}

/** Pods per revision at the end of each instant where they changed, revisions shortened to their order of appearance (r1, r2). */
function revisionEnds(r: LoopResult): Array<{t: number; pods: Record<string, number>}> {
  const names: string[] = []
  const short = (name: string) => {
    if (!names.includes(name)) names.push(name)
    return `r${names.indexOf(name) + 1}`
  }
  const ends: Array<{t: number; pods: Record<string, number>}> = []
  for (const s of r.steps) {
    const pods = Object.fromEntries((s.counts.revisions ?? []).map((x) => [short(x.name), x.pods]))
    const last = ends.at(-1)
    if (last && last.t === s.offsetSeconds) last.pods = pods
    else ends.push({t: s.offsetSeconds, pods})
  }
  return ends.filter((e, i) => i === 0 || JSON.stringify(e.pods) !== JSON.stringify(ends[i - 1].pods))
}

/**
 * Three pods replaced one at a time, as a StatefulSet's rolling update and a DaemonSet's with
 * maxUnavailable 1 both go: deleted, gone 5 s later (the grace period) and re-created, Ready 10 s
 * after that, when the next one is deleted.
 */
const ONE_AT_A_TIME = [
  {t: 0, pods: {r1: 2}},
  {t: 5, pods: {r1: 2, r2: 1}},
  {t: 15, pods: {r1: 1, r2: 1}},
  {t: 20, pods: {r1: 1, r2: 2}},
  {t: 30, pods: {r2: 2}},
  {t: 35, pods: {r2: 3}},
]

const actionsOf = (r: LoopResult, type: string) =>
  r.steps.flatMap((s) => s.actions.filter((a) => a.type === type).map((a) => ({t: s.offsetSeconds, ...(a as unknown as Record<string, unknown>)})))

async function settled(yaml: string) {
  const sim = await openSim(yaml)
  const first = await sim.run()
  expect(first.endedBy).toBe('quiet')
  return {sim, first}
}

describe('StatefulSets in the event loop', () => {
  it('OrderedReady: creates one pod at a time, each after the one before is Ready, with its claim', async () => {
    const {first} = await settled(statefulSet(3, {claims: true}))
    const created = actionsOf(first, 'createStatefulPod').map((a) => [a.t, a.pod])
    expect(created).toEqual([
      [0, 'web-0'],
      [10, 'web-1'],
      [20, 'web-2'],
    ])
    expect(actionsOf(first, 'createClaim').map((a) => [a.t, a.claim])).toEqual([
      [0, 'data-web-0'],
      [10, 'data-web-1'],
      [20, 'data-web-2'],
    ])
    const t = first.statefulSets[0]
    expect(t.final.claims).toEqual(['data-web-0', 'data-web-1', 'data-web-2'])
    expect(t.final.pods.map((p) => p.name)).toEqual(['web-0', 'web-1', 'web-2'])
    expect(t.final.replicasStatus).toEqual({replicas: 3, ready: 3, current: 3, updated: 3, available: 3})
    expect(t.observed.maxInFlight).toBe(1)
    expect(t.bounds.maxInFlight).toBe(1)
    // The set's own steps carry its pods per revision; the last one is written after web-2 is Ready.
    expect(t.durationSeconds).toBe(30)
  })

  it('Parallel: creates every pod at once', async () => {
    const {first} = await settled(statefulSet(3, {podManagementPolicy: 'Parallel'}))
    expect(actionsOf(first, 'createStatefulPod').map((a) => a.t)).toEqual([0, 0, 0])
    expect(first.statefulSets[0].observed.maxInFlight).toBe(3)
  })

  it('RollingUpdate: replaces pods from the highest ordinal down, each after the one before is gone and its replacement Ready', async () => {
    const {sim} = await settled(statefulSet(3))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const r = await sim.run()
    // Delete at t, gone 5 s later (terminationGracePeriodSeconds), re-created then, Ready 10 s after that.
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => [a.t, a.pod, a.reason])).toEqual([
      [0, 'web-2', 'update'],
      [15, 'web-1', 'update'],
      [30, 'web-0', 'update'],
    ])
    expect(revisionEnds(r)).toEqual(ONE_AT_A_TIME)
    const t = r.statefulSets[0]
    expect(t.final.currentRevision).toBe(t.final.updateRevision)
    expect(t.final.revisions.map((x) => x.revision)).toEqual([1, 2])
    expect(t.observed.minAvailable).toBe(t.bounds.minAvailable)
    expect(t.observed.maxPods).toBe(3)
  })

  it('RollingUpdate with a partition: only the ordinals at or above it are replaced', async () => {
    const {sim} = await settled(statefulSet(3, {partition: 2}))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const r = await sim.run()
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => a.pod)).toEqual(['web-2'])
    const t = r.statefulSets[0]
    expect(t.partition).toBe(2)
    const [old, updated] = t.final.revisions.map((x) => x.name)
    expect(t.final.pods.map((p) => p.revision)).toEqual([old, old, updated])
    expect(t.final.currentRevision).toBe(old)
    expect(t.final.updateRevision).toBe(updated)
    expect(t.final.replicasStatus).toMatchObject({current: 2, updated: 1})
  })

  it('a failing revision (--fail by its name) stalls the update at its first pod', async () => {
    const {sim} = await settled(statefulSet(3))
    applySetImage(sim.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const probe = await openSim(statefulSet(3))
    applySetImage(probe.world, 'default', {kind: 'StatefulSet', name: 'web', container: 'c', image: 'nginx:1.28'})
    const revision = (await probe.run({untilSeconds: 0})).statefulSets[0].final.updateRevision
    const r = await sim.run({fail: [revision]})
    expect(r.endedBy).toBe('quiet')
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => a.pod)).toEqual(['web-2'])
    expect(r.statefulSets[0].final.replicasStatus).toMatchObject({ready: 2, updated: 1})
  })

  it('a scale-down removes the highest ordinal first, one at a time', async () => {
    const {sim} = await settled(statefulSet(3))
    applyScale(sim.world, 'default', {kind: 'StatefulSet', name: 'web', replicas: 1})
    const r = await sim.run()
    expect(actionsOf(r, 'deleteStatefulPod').map((a) => [a.t, a.pod, a.reason])).toEqual([
      [0, 'web-2', 'condemned'],
      [5, 'web-1', 'condemned'],
    ])
    expect(r.statefulSets[0].observed.startPods).toBe(3)
  })
})

describe('DaemonSets in the event loop', () => {
  it('creates one pod per node, bound to that node', async () => {
    const {first} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}'))
    expect(actionsOf(first, 'createDaemonPod').map((a) => [a.t, a.node])).toEqual([
      [0, 'node-a'],
      [0, 'node-b'],
      [0, 'node-c'],
    ])
    const t = first.daemonSets[0]
    expect(t.desiredNodes).toBe(3)
    expect(t.final.nodes.map((n) => n.node)).toEqual(['node-a', 'node-b', 'node-c'])
    expect(t.final.replicasStatus).toEqual({desired: 3, current: 3, updated: 3, ready: 3, available: 3, misscheduled: 0})
  })

  it('maxUnavailable 1: one node at a time, the first by name; never more than one unavailable', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}'))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    expect(revisionEnds(r)).toEqual(ONE_AT_A_TIME)
    // A choice among several old pods takes the first by name; the last one left is simply deleted.
    const replaced = [...actionsOf(r, 'chooseDaemonPods').flatMap((a) => [a.t, ...(a.chosen as string[])]), ...actionsOf(r, 'deleteDaemonPod').flatMap((a) => [a.t, a.pod])]
    expect(replaced).toHaveLength(6)
    const t = r.daemonSets[0]
    expect(t.bounds).toMatchObject({minAvailable: 2, maxPods: 3, maxPodsPerNode: 1})
    expect(t.observed.minAvailable).toBe(2)
    expect(t.observed.maxPodsPerNode).toBe(1)
    expect(t.final.nodes.every((n) => n.revisions.length === 1 && n.revisions[0] === t.final.updateRevision)).toBe(true)
  })

  it('maxSurge 1: a new pod beside the old one, which goes once the new one is available', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}'))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    expect(revisionEnds(r)).toEqual([
      {t: 0, pods: {r1: 3, r2: 1}},
      {t: 10, pods: {r1: 2, r2: 2}},
      {t: 20, pods: {r1: 1, r2: 3}},
      {t: 30, pods: {r2: 3}},
    ])
    const t = r.daemonSets[0]
    expect(t.bounds).toMatchObject({minAvailable: 3, maxPods: 4, maxPodsPerNode: 2})
    expect(t.observed).toMatchObject({minAvailable: 3, maxPods: 4, maxPodsPerNode: 2})
  })

  it('minReadySeconds: the next node waits until the new pod is available, and the loop wakes for it', async () => {
    const {sim} = await settled(daemonSet('{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}', {minReadySeconds: 5}))
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const r = await sim.run()
    // Gone at 5, re-created, Ready at 15, available just after 20: the next delete then.
    const deletes = [...actionsOf(r, 'chooseDaemonPods'), ...actionsOf(r, 'deleteDaemonPod')]
    expect(deletes.map((a) => Math.floor(a.t as number))).toEqual([0, 20, 40])
  })
})

describe('what-ifs on sets', () => {
  it('a new DaemonSet template raises its template generation, as the API server does; a StatefulSet scale does not touch its template', async () => {
    const sim = await openSim(`${daemonSet('{type: OnDelete}')}---\n${statefulSet(3)}`)
    applySetImage(sim.world, 'default', {kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    const ds = sim.world.find('DaemonSet', 'default', 'agent')!.object as {metadata: {generation: number; annotations: Record<string, string>}}
    expect(ds.metadata.generation).toBe(2)
    expect(ds.metadata.annotations['deprecated.daemonset.template.generation']).toBe('2')
    applyScale(sim.world, 'default', {kind: 'StatefulSet', name: 'web', replicas: 5})
    const set = sim.world.find('StatefulSet', 'default', 'web')!.object as {metadata: {generation: number}; spec: {replicas: number}}
    expect([set.metadata.generation, set.spec.replicas]).toEqual([2, 5])
  })

  it('parses statefulset/, sts/ and daemonset/ targets; a DaemonSet cannot be scaled', () => {
    expect(parseScale('sts/db=5')).toEqual({kind: 'StatefulSet', name: 'db', replicas: 5})
    expect(parseSetImage('daemonset/agent=c=agent:2')).toEqual({kind: 'DaemonSet', name: 'agent', container: 'c', image: 'agent:2'})
    expect(() => parseScale('ds/agent=3')).toThrow('a DaemonSet has no replicas')
  })
})

describe('a set the simulation cannot take further', () => {
  it('a StatefulSet template from a file not in the API server\'s shape: its revision name is unknown, so nothing is sent and a warning says why', async () => {
    const sim = await openSim(statefulSet(3).replace(/containers:\n.*\n/, 'containers: [{name: c, image: "nginx:1.27"}]\n'))
    const r = await sim.run()
    expect(r.steps).toEqual([])
    expect(r.warnings).toEqual([expect.stringContaining('StatefulSet default/web is not simulated past its new revision')])
  })
})
