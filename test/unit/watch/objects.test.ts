// What the watch cache keeps is enough: plans from stripped, interned, frozen objects are exactly
// the plans from the whole objects read by the fixture path.
import {describe, expect, it} from 'vitest'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {planSnapshot} from '../../../src/reconcile/planner.js'
import {readdirSync} from 'node:fs'
import {readAllDocuments, readFixtures} from '../../../src/sources/fixtures.js'
import {normalizeWorkloads} from '../../../src/controllers/replicaset/watch.js'
import {Interner} from '../../../src/watch/objects.js'
import {normalizePods} from '../../../src/watch/pods.js'

const OPTIONS = {now: '2026-11-22T10:00:00Z', featureGates: {...DEFAULT_FEATURE_GATES}, burstReplicas: 500}
const EXAMPLES = readdirSync('examples').map((d) => `examples/${d}`)

/** The raw objects of a fixture directory, as list items come from the API server (no kind/apiVersion). */
async function raws(dir: string): Promise<Record<string, any[]>> {
  const byKind: Record<string, any[]> = {Pod: [], ReplicaSet: [], ReplicationController: []}
  for (const o of await readAllDocuments([dir])) {
    const {kind, apiVersion: _a, ...rest} = structuredClone(o.raw) as any
    byKind[kind]?.push(rest)
  }
  return byKind
}

describe('the watch cache', () => {
  it.each(EXAMPLES)('plans from cached objects equal plans from the whole objects: %s', async (dir) => {
    const full = await readFixtures({paths: [dir], allNamespaces: true})
    const interner = new Interner()
    const r = await raws(dir)
    const pods = normalizePods(r.Pod, interner)
    const replicaSets = normalizeWorkloads('ReplicaSet', r.ReplicaSet, interner)
    const rcs = normalizeWorkloads('ReplicationController', r.ReplicationController, interner)
    expect([...pods.problems, ...replicaSets.problems, ...rcs.problems]).toEqual([])
    const cached = {...full, pods: pods.objects, workloads: [...replicaSets.objects, ...rcs.objects], replicaSets: replicaSets.objects}
    // The watch cache serves the ReplicaSet controller's plans (watch does not follow Deployments yet).
    expect(planSnapshot(cached, OPTIONS, ['replicaset']).controllers).toEqual(planSnapshot(full, OPTIONS, ['replicaset']).controllers)
  })

  it('keeps only what planning reads, frozen, and shares what pods repeat', async () => {
    const world = await raws('examples/scale-down')
    const interner = new Interner()
    const raw = {
      ...world.Pod[0],
      metadata: {
        ...world.Pod[0].metadata,
        annotations: {'kubectl.kubernetes.io/last-applied-configuration': 'x'.repeat(5000), 'controller.kubernetes.io/pod-deletion-cost': '7'},
        ownerReferences: [{apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u1'}, ...world.Pod[0].metadata.ownerReferences],
        managedFields: [{manager: 'kubectl', operation: 'Update', fieldsV1: {'f:metadata': {}}}],
      },
    }
    const [a] = normalizePods([raw], interner).objects
    const [b] = normalizePods([world.Pod[1]], interner).objects
    expect(a.annotations).toEqual({'controller.kubernetes.io/pod-deletion-cost': '7'})
    expect(a.ownerReferences).toHaveLength(1)
    expect(a.ownerReferences[0].controller).toBe(true)
    expect(Object.isFrozen(a)).toBe(true)
    expect(Object.isFrozen(a.labels)).toBe(true)
    expect(Object.isFrozen(a.ownerReferences[0])).toBe(true)
    expect(() => ((a as any).phase = 'Failed')).toThrow(TypeError)
    expect('origin' in a).toBe(false)
    expect(a.labels).toBe(b.labels)
    expect(a.namespace).toBe(b.namespace)
    const [rs] = normalizeWorkloads('ReplicaSet', [world.ReplicaSet[0]], interner).objects
    expect(rs.template.spec).toEqual({})
    expect(Object.isFrozen(rs.selector)).toBe(true)
  })

  it('reports what the Normalizer refuses, naming the object, and keeps the rest', async () => {
    const world = await raws('examples/scale-down')
    const bad = {metadata: {name: 'bad', namespace: 'x', uid: 'u'}, spec: {replicas: -1, selector: {matchLabels: {a: 'b'}}, template: {metadata: {labels: {a: 'b'}}}}}
    const r = normalizeWorkloads('ReplicaSet', [bad, world.ReplicaSet[0]], new Interner())
    expect(r.objects.map((o) => o.name)).toEqual([world.ReplicaSet[0].metadata.name])
    expect(r.problems).toEqual([{namespace: 'x', name: 'bad', message: expect.stringMatching(/^ReplicaSet: spec\.replicas: /)}])
  })
})
