// The simulation oracle for StatefulSets and DaemonSets: `kctl simulate`'s timeline against the
// real statefulset and daemonset controllers.
//
// As in simulate-oracle.e2e.test.ts: kube-controller-manager runs the two controllers,
// kube-scheduler binds pods, and kwok plays the kubelet on three fake nodes with the `timed` stages
// (every pod Ready 3 s after it starts, gone 1 s after its deletion starts), the delays
// `kctl simulate --ready-after 3s --terminate-after 1s` models. Each scenario settles a set at its
// first revision, then `kctl simulate` reads the live namespace and simulates the change (--scale,
// --set-image, --apply-manifests: kubectl apply's patch as a dry run), changing nothing there (every
// resourceVersion in the namespace is the same before and after), and only then is the same
// change made for real, while the set's pods are recorded (polled every 100 ms) as the number of
// pods (not terminating) at each revision.
//
// What is compared:
// - exactly: the final pods (a StatefulSet's by name, a DaemonSet's by node) with their revision,
//   the ControllerRevisions by name and number, and the status;
// - the end of every burst: the pods per revision the simulation holds at the end of each virtual
//   instant must all be states the real pods went through, in the same order. Between burst ends
//   any interleaving is accepted. Per revision rather than per pod: where the DaemonSet controller
//   picks which node's pod to replace at random, the simulation takes the first by node name.
// The DaemonSets select the three fake nodes by a label, so nodes other tests leave behind play no part.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, it, type ExpectStatic} from 'vitest'

import {kctl} from './kctl.js'
import {apiOk, deleteNamespace, newNamespace, waitUntil} from './setup/cluster.js'
import {inOrder, startTimedCluster, type TimedCluster} from './simulate-helpers.js'

type Json = Record<string, any>
/** Pods (not terminating) per revision name. */
type PerRevision = Record<string, number>

const READY_AFTER = '3s'
const DELETE_AFTER = '1s'
const NODE_LABEL = 'kctl.io/simulate-oracle'

const image = (v: string) => `registry.example.com/agent:${v}`

interface Scenario {
  name: string
  kind: 'StatefulSet' | 'DaemonSet'
  /** The set's spec besides selector and template. */
  spec: Json
  /** The change, as kctl simulate's flags. */
  flags: (ns: string) => string[]
  /** The same change made for real, as a strategic merge patch of the set. */
  patch: Json
  /** The real rollout is over. */
  done: (set: Json) => boolean
}

const plural = (kind: Scenario['kind']) => (kind === 'StatefulSet' ? 'statefulsets' : 'daemonsets')
const setPath = (s: Scenario, ns: string) => `/apis/apps/v1/namespaces/${ns}/${plural(s.kind)}/web`
const newImage: Json = {spec: {template: {spec: {containers: [{name: 'c', image: image('v2')}]}}}}

function manifest(s: Pick<Scenario, 'kind' | 'spec'>): Json {
  return {
    apiVersion: 'apps/v1',
    kind: s.kind,
    metadata: {name: 'web'},
    spec: {
      ...s.spec,
      selector: {matchLabels: {app: 'web'}},
      template: {
        metadata: {labels: {app: 'web'}, annotations: {'stage.kctl.io/ready-after': READY_AFTER, 'stage.kctl.io/delete-after': DELETE_AFTER}},
        spec: {
          ...(s.kind === 'DaemonSet' ? {nodeSelector: {[NODE_LABEL]: 'true'}} : {}),
          containers: [{name: 'c', image: image('v1')}],
        },
      },
    },
  }
}

const withImage = (m: Json, img: string): Json => ({...m, spec: {...m.spec, template: {...m.spec.template, spec: {...m.spec.template.spec, containers: [{name: 'c', image: img}]}}}})

function manifestDir(ns: string, m: Json): string {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-simwl-apply-'))
  writeFileSync(join(dir, 'web.json'), JSON.stringify({...m, metadata: {...m.metadata, namespace: ns}}))
  return dir
}

/** Every object's resourceVersion in the namespace: the simulation must change none. */
async function resourceVersions(ns: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const path of [`/apis/apps/v1/namespaces/${ns}/statefulsets`, `/apis/apps/v1/namespaces/${ns}/daemonsets`, `/apis/apps/v1/namespaces/${ns}/controllerrevisions`, `/api/v1/namespaces/${ns}/pods`]) {
    for (const o of (await apiOk('GET', path)).items as Json[]) out[`${path}/${o.metadata.name}`] = o.metadata.resourceVersion
  }
  return out
}

const observed = (o: Json) => o.status?.observedGeneration === o.metadata.generation
// Counts of 0 are left out of a status.
const statefulDone = (updated: number) => (o: Json) =>
  observed(o) && (o.status.readyReplicas ?? 0) === o.spec.replicas && (o.status.availableReplicas ?? 0) === o.spec.replicas && (o.status.updatedReplicas ?? 0) === updated
const statefulComplete = (o: Json) => statefulDone(o.spec.replicas)(o) && o.status.currentRevision === o.status.updateRevision
const daemonComplete = (o: Json) => {
  const s = o.status ?? {}
  return observed(o) && s.desiredNumberScheduled === 3 && s.updatedNumberScheduled === 3 && s.numberAvailable === 3 && s.currentNumberScheduled === 3
}

const SCENARIOS: Scenario[] = [
  {
    name: 'StatefulSet OrderedReady scale-up from 0 to 3',
    kind: 'StatefulSet',
    spec: {replicas: 0, serviceName: 'web'},
    flags: () => ['--scale', 'statefulset/web=3'],
    patch: {spec: {replicas: 3}},
    done: statefulComplete,
  },
  {
    name: 'StatefulSet RollingUpdate of 3 replicas',
    kind: 'StatefulSet',
    spec: {replicas: 3, serviceName: 'web'},
    flags: () => ['--set-image', `statefulset/web=c=${image('v2')}`],
    patch: newImage,
    done: statefulComplete,
  },
  {
    name: 'StatefulSet RollingUpdate with partition 1 of 3 replicas',
    kind: 'StatefulSet',
    spec: {replicas: 3, serviceName: 'web', updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 1}}},
    flags: () => ['--set-image', `statefulset/web=c=${image('v2')}`],
    patch: newImage,
    done: statefulDone(2),
  },
  {
    // The manifest from a file is not in the API server's shape; the dry run of kubectl apply's
    // patch returns the object as it would be stored, so the new revision's name is known.
    name: 'StatefulSet RollingUpdate of 2 replicas through --apply-manifests (kubectl apply, dry run)',
    kind: 'StatefulSet',
    spec: {replicas: 2, serviceName: 'web'},
    flags: (ns) => ['--apply-manifests', manifestDir(ns, withImage(manifest({kind: 'StatefulSet', spec: {replicas: 2, serviceName: 'web'}}), image('v2')))],
    patch: newImage,
    done: statefulComplete,
  },
  {
    name: 'DaemonSet RollingUpdate maxUnavailable 1 over 3 nodes',
    kind: 'DaemonSet',
    spec: {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: 1}}},
    flags: () => ['--set-image', `daemonset/web=c=${image('v2')}`],
    patch: newImage,
    done: daemonComplete,
  },
  {
    name: 'DaemonSet RollingUpdate maxSurge 1 over 3 nodes',
    kind: 'DaemonSet',
    spec: {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}},
    flags: () => ['--set-image', `daemonset/web=c=${image('v2')}`],
    patch: newImage,
    done: daemonComplete,
  },
]

const sorted = (o: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)))
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

async function pods(ns: string): Promise<Json[]> {
  return (await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)).items
}

/** A pod's revision name: a StatefulSet pod's label is the name, a DaemonSet pod's the hash. */
const revisionOf = (s: Scenario, pod: Json) => {
  const label = pod.metadata.labels?.['controller-revision-hash'] ?? ''
  return s.kind === 'DaemonSet' ? `web-${label}` : label
}
const live = (pod: Json) => !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed'

async function perRevision(s: Scenario, ns: string): Promise<PerRevision> {
  const out: PerRevision = {}
  for (const p of (await pods(ns)).filter(live)) out[revisionOf(s, p)] = (out[revisionOf(s, p)] ?? 0) + 1
  return sorted(out)
}

/** The simulation's burst ends: pods per revision at the end of each virtual instant where they changed. */
function burstEnds(sim: Json): PerRevision[] {
  const ends: Array<{t: number; state: PerRevision}> = []
  for (const step of sim.steps) {
    const state = sorted(Object.fromEntries((step.counts.revisions ?? []).map((r: Json) => [r.name, r.pods])))
    const last = ends.at(-1)
    if (last && last.t === step.offsetSeconds) last.state = state
    else ends.push({t: step.offsetSeconds, state})
  }
  return ends.map((e) => e.state).filter((s, i, all) => i === 0 || !same(s, all[i - 1]))
}

describe('kctl simulate of StatefulSets and DaemonSets against the real controllers, scheduler and a timed kubelet', () => {
  let cluster: TimedCluster | undefined
  const namespaces: string[] = []

  beforeAll(async () => {
    cluster = await startTimedCluster(['statefulset', 'daemonset'], 'simwl-node')
    for (const n of cluster.nodes) {
      await apiOk('PATCH', `/api/v1/nodes/${n}`, {body: {metadata: {labels: {[NODE_LABEL]: 'true'}}}, contentType: 'application/strategic-merge-patch+json'})
    }
  }, 180_000)

  afterAll(async () => {
    await cluster?.stop()
    await Promise.all(namespaces.map((ns) => deleteNamespace(ns)))
  })

  // One test per scenario, named in full (it.each would shorten the names). They run side by side
  // (each in its own namespace, up to the e2e project's maxConcurrency at once): most of a
  // scenario's time is the timed kubelet's delays.
  for (const s of SCENARIOS) it.concurrent(s.name, ({expect}) => scenario(s, expect), 180_000)

  async function scenario(s: Scenario, expect: ExpectStatic): Promise<void> {
    const ns = await newNamespace('simwl')
    namespaces.push(ns)
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/${plural(s.kind)}`, {body: manifest(s)})
    const settled = s.kind === 'DaemonSet' ? daemonComplete : statefulComplete
    await waitUntil(async () => settled(await apiOk('GET', setPath(s, ns))), {what: `${ns}/web at its first revision`, timeoutMs: 60_000})

    // The simulation, from the live namespace as it is now; nothing it does reaches the cluster.
    const before = await resourceVersions(ns)
    const run = await kctl(['simulate', '-n', ns, '-o', 'json', '--ready-after', READY_AFTER, '--terminate-after', DELETE_AFTER, ...s.flags(ns)])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const sim = JSON.parse(run.stdout)
    expect(sim.warnings).toEqual([])
    expect(await resourceVersions(ns)).toEqual(before)

    // The same change for real, recorded.
    const seen: PerRevision[] = [await perRevision(s, ns)]
    await apiOk('PATCH', setPath(s, ns), {body: s.patch, contentType: 'application/strategic-merge-patch+json'})
    const started = Date.now()
    for (;;) {
      const state = await perRevision(s, ns)
      if (!same(state, seen.at(-1))) seen.push(state)
      if (s.done(await apiOk('GET', setPath(s, ns)))) break
      if (Date.now() - started > 90_000) throw new Error(`${s.name}: not done after 90 s; seen ${JSON.stringify(seen)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    // The controllers go quiet: a last look after the delays have passed.
    await new Promise((r) => setTimeout(r, 1500))
    const last = await perRevision(s, ns)
    if (!same(last, seen.at(-1))) seen.push(last)

    expect(sim.summary.endedBy).toBe('quiet')
    const ends = burstEnds(sim)
    console.info(`${s.name}: ${ends.length} simulated burst ends, ${seen.length} real states, ${sim.summary.steps} steps over ${sim.summary.durationSeconds} s`)
    expect(ends.some((e) => !same(e, seen[0]))).toBe(true)
    const order = inOrder(ends, seen)
    expect(order.ok, `burst end ${JSON.stringify(order.missing)} not among the real states ${JSON.stringify(seen)}`).toBe(true)
    expect(ends.at(-1)).toEqual(last)

    const real = await apiOk('GET', setPath(s, ns))
    const revisions = ((await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).items as Json[])
      .map((r) => ({name: r.metadata.name, revision: r.revision}))
      .sort((a, b) => a.revision - b.revision)
    const finalPods = (await pods(ns)).filter(live)
    if (s.kind === 'StatefulSet') {
      const t = sim.statefulSets.find((x: Json) => x.name === 'web')
      expect(t.final.revisions).toEqual(revisions)
      expect(t.final.pods.map((p: Json) => ({name: p.name, revision: p.revision}))).toEqual(
        finalPods.map((p) => ({name: p.metadata.name, revision: revisionOf(s, p)})).sort((a, b) => a.name.localeCompare(b.name, 'en', {numeric: true})),
      )
      expect({...t.final.replicasStatus, currentRevision: t.final.currentRevision, updateRevision: t.final.updateRevision}).toEqual({
        replicas: real.status.replicas,
        ready: real.status.readyReplicas ?? 0,
        current: real.status.currentReplicas ?? 0,
        updated: real.status.updatedReplicas ?? 0,
        available: real.status.availableReplicas ?? 0,
        currentRevision: real.status.currentRevision,
        updateRevision: real.status.updateRevision,
      })
      expect(t.observed.maxInFlight).toBeLessThanOrEqual(t.bounds.maxInFlight)
    } else {
      const t = sim.daemonSets.find((x: Json) => x.name === 'web')
      expect(t.final.revisions).toEqual(revisions)
      const byNode = new Map<string, string[]>()
      for (const p of finalPods) byNode.set(p.spec.nodeName, [...(byNode.get(p.spec.nodeName) ?? []), revisionOf(s, p)].sort())
      expect(t.final.nodes).toEqual([...byNode].sort(([a], [b]) => (a < b ? -1 : 1)).map(([node, revs]) => ({node, revisions: revs})))
      expect(t.final.replicasStatus).toEqual({
        desired: real.status.desiredNumberScheduled,
        current: real.status.currentNumberScheduled,
        updated: real.status.updatedNumberScheduled ?? 0,
        ready: real.status.numberReady,
        available: real.status.numberAvailable ?? 0,
        misscheduled: real.status.numberMisscheduled,
      })
      expect(t.observed.minAvailable).toBeGreaterThanOrEqual(t.bounds.minAvailable)
      expect(t.observed.maxPods).toBeLessThanOrEqual(t.bounds.maxPods)
    }
  }
})
