// What the watch cache keeps is enough: plans from stripped, interned, frozen objects are exactly
// the plans from the whole objects read by the fixture path.
import {describe, expect, it} from 'vitest'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {planSnapshot} from '../../../src/reconcile/planner.js'
import {readdirSync} from 'node:fs'
import {readAllDocuments, readFixtures} from '../../../src/sources/fixtures.js'
import type {CronJobView} from '../../../src/controllers/cronjob/model.js'
import {cronJobWatch} from '../../../src/controllers/cronjob/watch.js'
import type {JobView} from '../../../src/controllers/job/model.js'
import {jobWatch} from '../../../src/controllers/job/watch.js'
import {normalizeWorkloads} from '../../../src/controllers/replicaset/watch.js'
import {serviceWatch} from '../../../src/controllers/service/watch.js'
import {Interner, NODES} from '../../../src/watch/objects.js'
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

  it('Services are planned from the cache as from the whole objects: pods keep their IPs, hostname, subdomain and named ports', async () => {
    const full = await readFixtures({paths: ['examples/services'], allNamespaces: true})
    const byKind: Record<string, any[]> = {}
    for (const o of await readAllDocuments(['examples/services'])) {
      const {kind, apiVersion: _a, ...rest} = structuredClone(o.raw) as any
      ;(byKind[kind] ??= []).push(rest)
    }
    const interner = new Interner()
    const pods = normalizePods(byKind.Pod, interner)
    const kinds = ['Service', 'EndpointSlice', 'Endpoints', 'Node'] as const
    const parts = [serviceWatch.resources[0], ...serviceWatch.by === 'namespace' ? serviceWatch.reads.slice(0, 2) : [], NODES]
    const [services, slices, endpoints, nodes] = kinds.map((k, i) => parts[i].normalize(byKind[k] ?? [], interner) as {objects: any[]; problems: unknown[]})
    expect([pods, services, slices, endpoints, nodes].flatMap((r) => r.problems)).toEqual([])
    expect(pods.objects.filter((p) => p.network !== undefined).length).toBeGreaterThan(0)
    expect(Object.isFrozen(pods.objects[0].network)).toBe(true)
    const cached = {...full, pods: pods.objects, services: services.objects, endpointSlices: slices.objects, endpoints: endpoints.objects, nodes: nodes.objects}
    const plans = planSnapshot(cached, OPTIONS, ['endpointslice']).controllers
    expect(plans.length).toBe(full.services!.length)
    expect(plans).toEqual(planSnapshot(full, OPTIONS, ['endpointslice']).controllers)
  })

  it.each(['examples/job', 'examples/cronjob'])('Job and CronJob plans from cached pods, Jobs and CronJobs equal plans from the whole objects: %s', async (dir) => {
    const full = await readFixtures({paths: [dir], allNamespaces: true})
    const byKind: Record<string, any[]> = {Pod: [], Job: [], CronJob: []}
    for (const o of await readAllDocuments([dir])) {
      const {kind, apiVersion: _a, ...rest} = structuredClone(o.raw) as any
      // What the API server adds to every object, and the watch cache must drop.
      rest.metadata.managedFields = [{manager: 'kube-controller-manager', operation: 'Update'}]
      byKind[kind]?.push(rest)
    }
    const pods = normalizePods(byKind.Pod, new Interner())
    const jobs = jobWatch.resources[0].normalize(byKind.Job, new Interner()) as {objects: JobView[]; problems: unknown[]}
    const cronJobs = cronJobWatch.resources[0].normalize(byKind.CronJob, new Interner()) as {objects: CronJobView[]; problems: unknown[]}
    expect([...pods.problems, ...jobs.problems, ...cronJobs.problems]).toEqual([])
    const cached = {...full, pods: pods.objects, jobs: jobs.objects, cronJobs: cronJobs.objects}
    expect(planSnapshot(cached, OPTIONS, ['job', 'cronjob']).controllers).toEqual(planSnapshot(full, OPTIONS, ['job', 'cronjob']).controllers)
    expect(pods.objects.find((p) => p.batch)?.batch?.finalizers).toContain('batch.kubernetes.io/job-tracking')
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
