// The simulation oracle: `kctl simulate`'s timeline against the real controllers.
//
// kube-controller-manager runs the deployment and replicaset controllers, kube-scheduler binds
// pods, and kwok plays the kubelet with the `timed` stages: every pod of these Deployments is
// Ready 3 s after it starts and gone 1 s after its deletion starts (pod-template annotations), the
// same delays `kctl simulate --ready-after 3s --terminate-after 1s` models. Each scenario settles
// a Deployment at revision 1, then `kctl simulate` reads the live namespace and simulates the
// change (--set-image, --scale, --apply-manifests), and only then is the same change made for
// real, while the ReplicaSets' sizes are recorded (polled every 100 ms) until the rollout is done.
//
// What is compared:
// - exactly: the ReplicaSets' names, the final size of each, the revision annotations, the
//   Available condition, and the Progressing reason where it is deterministic (a completed
//   rollout, a deadline exceeded);
// - the end of every burst: the sizes the simulation holds at the end of each virtual instant must
//   all be states the real ReplicaSets went through, in the same order. Between burst ends any
//   interleaving is accepted: the real ReplicaSet controller reports a wave's pods becoming Ready
//   in however many status writes catch them, and the deployment controller reacts to each, so
//   the real run passes through more states than the simulation, never fewer.
// Finally `--apply-manifests` against the cluster changes nothing there (every resourceVersion
// in the namespace is the same before and after).
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, it} from 'vitest'

import {kctl} from './kctl.js'
import {apiOk, deleteNamespace, newNamespace, waitUntil} from './setup/cluster.js'
import {inOrder, startTimedCluster, type TimedCluster} from './simulate-helpers.js'

type Json = Record<string, any>
type Sizes = Record<string, number>

const READY_AFTER = '3s'
const DELETE_AFTER = '1s'

interface Scenario {
  name: string
  replicas: number
  strategy?: Json
  progressDeadlineSeconds?: number
  /** The change, as kctl simulate's flags. */
  flags: (ns: string) => string[]
  /** The same change made for real. */
  change: (ns: string) => Promise<void>
  /** The real rollout is over. */
  done: (d: Json) => boolean
  /** Starts paused (the change then resumes it). */
  paused?: boolean
}

const image = (v: string) => `registry.example.com/web:${v}`

function deploymentManifest(s: Pick<Scenario, 'replicas' | 'strategy' | 'progressDeadlineSeconds' | 'paused'>, img = image('v1'), paused = s.paused ?? false): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web'},
    spec: {
      replicas: s.replicas,
      ...(s.strategy ? {strategy: s.strategy} : {}),
      ...(s.progressDeadlineSeconds ? {progressDeadlineSeconds: s.progressDeadlineSeconds} : {}),
      ...(paused ? {paused: true} : {}),
      selector: {matchLabels: {app: 'web'}},
      template: {
        metadata: {labels: {app: 'web'}, annotations: {'stage.kctl.io/ready-after': READY_AFTER, 'stage.kctl.io/delete-after': DELETE_AFTER}},
        spec: {containers: [{name: 'c', image: img}]},
      },
    },
  }
}

const deploymentPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments/web`
const patchDeployment = (ns: string, patch: Json) =>
  apiOk('PATCH', deploymentPath(ns), {body: patch, contentType: 'application/strategic-merge-patch+json'})
const setImage = (ns: string, img: string) => patchDeployment(ns, {spec: {template: {spec: {containers: [{name: 'c', image: img}]}}}})

const complete = (d: Json) => {
  const s = d.status ?? {}
  return (
    s.observedGeneration === d.metadata.generation &&
    s.updatedReplicas === d.spec.replicas &&
    s.replicas === d.spec.replicas &&
    s.availableReplicas === d.spec.replicas &&
    (s.terminatingReplicas ?? 0) === 0 &&
    s.conditions?.some((c: Json) => c.type === 'Progressing' && c.reason === 'NewReplicaSetAvailable')
  )
}
const deadlineExceeded = (d: Json) => d.status?.conditions?.some((c: Json) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')

const SCENARIOS: Scenario[] = [
  {name: 'default 25%/25%, 10 replicas', replicas: 10, flags: () => ['--set-image', `deployment/web=c=${image('v2')}`], change: (ns) => setImage(ns, image('v2')), done: complete},
  {
    name: 'maxSurge 1, maxUnavailable 0',
    replicas: 4,
    strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}},
    flags: () => ['--set-image', `deployment/web=c=${image('v2')}`],
    change: (ns) => setImage(ns, image('v2')),
    done: complete,
  },
  {
    name: 'maxSurge 0, maxUnavailable 2',
    replicas: 5,
    strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 0, maxUnavailable: 2}},
    flags: () => ['--set-image', `deployment/web=c=${image('v2')}`],
    change: (ns) => setImage(ns, image('v2')),
    done: complete,
  },
  {
    name: 'percentages 50%/30%, 6 replicas',
    replicas: 6,
    strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: '50%', maxUnavailable: '30%'}},
    flags: () => ['--set-image', `deployment/web=c=${image('v2')}`],
    change: (ns) => setImage(ns, image('v2')),
    done: complete,
  },
  {
    name: 'Recreate, 3 replicas',
    replicas: 3,
    strategy: {type: 'Recreate'},
    flags: () => ['--set-image', `deployment/web=c=${image('v2')}`],
    change: (ns) => setImage(ns, image('v2')),
    done: complete,
  },
  {
    name: 'a new image and a scale to 8 at once',
    replicas: 4,
    flags: () => ['--set-image', `deployment/web=c=${image('v2')}`, '--scale', 'deployment/web=8'],
    change: (ns) => patchDeployment(ns, {spec: {replicas: 8, template: {spec: {containers: [{name: 'c', image: image('v2')}]}}}}),
    done: complete,
  },
  {
    name: 'a version that never becomes Ready, progressDeadlineSeconds 8',
    replicas: 4,
    progressDeadlineSeconds: 8,
    // kwok's timed stages never make a pod Ready whose image contains "never-ready".
    flags: () => ['--set-image', `deployment/web=c=${image('never-ready')}`, '--fail', image('never-ready')],
    change: (ns) => setImage(ns, image('never-ready')),
    done: deadlineExceeded,
  },
  {
    name: 'paused with a new image, then resumed (--apply-manifests)',
    replicas: 4,
    paused: true,
    // paused: false said outright: kubectl apply leaves a field its last apply did not set as it is.
    flags: (ns) => ['--apply-manifests', manifestDir(ns, unpaused(deploymentManifest({replicas: 4}, image('v2'))))],
    change: (ns) => patchDeployment(ns, {spec: {paused: null, template: {spec: {containers: [{name: 'c', image: image('v2')}]}}}}),
    done: complete,
  },
]

const unpaused = (m: Json): Json => ({...m, spec: {...m.spec, paused: false}})

function manifestDir(ns: string, manifest: Json): string {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-sim-apply-'))
  writeFileSync(join(dir, 'web.json'), JSON.stringify({...manifest, metadata: {...manifest.metadata, namespace: ns}}))
  return dir
}

async function replicaSetSizes(ns: string): Promise<Sizes> {
  const list = await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)
  const items: Json[] = [...list.items].sort((a, b) => (a.metadata.creationTimestamp < b.metadata.creationTimestamp ? -1 : a.metadata.creationTimestamp > b.metadata.creationTimestamp ? 1 : a.metadata.name < b.metadata.name ? -1 : 1))
  return Object.fromEntries(items.map((rs) => [rs.metadata.name, rs.spec.replicas]))
}

/** The simulation's burst ends: the ReplicaSet sizes at the end of each virtual instant where they changed. */
function burstEnds(sim: Json): Sizes[] {
  const ends: Array<{t: number; sizes: Sizes}> = []
  for (const step of sim.steps) {
    const sizes: Sizes = Object.fromEntries(step.counts.replicaSets.map((r: Json) => [r.name, r.replicas]))
    const last = ends.at(-1)
    if (last && last.t === step.offsetSeconds) last.sizes = sizes
    else ends.push({t: step.offsetSeconds, sizes})
  }
  return ends.map((e) => e.sizes).filter((s, i, all) => i === 0 || JSON.stringify(s) !== JSON.stringify(all[i - 1]))
}

async function resourceVersions(ns: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const path of [`/apis/apps/v1/namespaces/${ns}/deployments`, `/apis/apps/v1/namespaces/${ns}/replicasets`, `/api/v1/namespaces/${ns}/pods`]) {
    for (const o of (await apiOk('GET', path)).items as Json[]) out[`${o.kind ?? path}/${o.metadata.name}`] = o.metadata.resourceVersion
  }
  return out
}

describe('kctl simulate against the real controllers, scheduler and a timed kubelet', () => {
  let cluster: TimedCluster | undefined
  const namespaces: string[] = []

  beforeAll(async () => {
    cluster = await startTimedCluster(['deployment', 'replicaset'], 'sim-node')
  }, 180_000)

  afterAll(async () => {
    await cluster?.stop()
    await Promise.all(namespaces.map((ns) => deleteNamespace(ns)))
  })

  // The scenarios run side by side (each in its own namespace, up to the e2e project's
  // maxConcurrency at once): most of a scenario's time is the timed kubelet's delays.
  for (const s of SCENARIOS) it.concurrent(s.name, async ({expect}) => {
    const ns = await newNamespace('sim')
    namespaces.push(ns)
    // Revision 1, settled; the paused scenario is paused only then, and given its new image while paused.
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deploymentManifest(s, image('v1'), false)})
    await waitUntil(async () => complete(await apiOk('GET', deploymentPath(ns))), {what: `${ns}/web at revision 1`, timeoutMs: 60_000})
    if (s.paused) {
      await patchDeployment(ns, {spec: {paused: true}})
      await setImage(ns, image('v2'))
      await waitUntil(async () => {
        const d = await apiOk('GET', deploymentPath(ns))
        return d.status.observedGeneration === d.metadata.generation
      }, {what: 'the paused Deployment observed'})
    }

    // The simulation, from the live namespace as it is now.
    const before = await resourceVersions(ns)
    const run = await kctl(['simulate', '-n', ns, '-o', 'json', '--ready-after', READY_AFTER, '--terminate-after', DELETE_AFTER, ...s.flags(ns)])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const sim = JSON.parse(run.stdout)
    // Nothing the simulation did (the dry-run apply included) reached the cluster.
    expect(await resourceVersions(ns)).toEqual(before)

    // The same change for real, recorded.
    const seen: Sizes[] = [await replicaSetSizes(ns)]
    await s.change(ns)
    const started = Date.now()
    for (;;) {
      const sizes = await replicaSetSizes(ns)
      if (JSON.stringify(sizes) !== JSON.stringify(seen.at(-1))) seen.push(sizes)
      const d = await apiOk('GET', deploymentPath(ns))
      if (s.done(d)) break
      if (Date.now() - started > 90_000) throw new Error(`${s.name}: not done after 90 s; seen ${JSON.stringify(seen)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    // The controllers go quiet: a last look after the delays have passed.
    await new Promise((r) => setTimeout(r, 1500))
    const final = await replicaSetSizes(ns)
    if (JSON.stringify(final) !== JSON.stringify(seen.at(-1))) seen.push(final)

    const ends = burstEnds(sim)
    expect(sim.summary.endedBy).toBe('quiet')
    // The change shows in the timeline: at least one burst end differs from the start.
    expect(ends.some((e) => JSON.stringify(e) !== JSON.stringify(seen[0]))).toBe(true)
    console.info(`${s.name}: ${ends.length} simulated burst ends, ${seen.length} real states, ${sim.summary.steps} steps over ${sim.summary.durationSeconds} s`)
    const simulated = sim.deployments.find((d: Json) => d.name === 'web')
    const simFinal: Sizes = Object.fromEntries(simulated.final.replicaSets.map((r: Json) => [r.name, r.replicas]))
    // Exact: the ReplicaSets (by name) and their final sizes.
    expect(simFinal).toEqual(final)
    // Every burst end, in order, is a state the real ReplicaSets went through.
    const order = inOrder(ends, seen)
    expect(order.ok, `burst end ${JSON.stringify(order.missing)} not among the real states ${JSON.stringify(seen)}`).toBe(true)

    const real = await apiOk('GET', deploymentPath(ns))
    const rss = (await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).items as Json[]
    const revisions = Object.fromEntries(rss.map((rs) => [rs.metadata.name, rs.metadata.annotations?.['deployment.kubernetes.io/revision']]))
    expect(Object.fromEntries(simulated.final.replicaSets.map((r: Json) => [r.name, r.revision]))).toEqual(revisions)
    expect(simulated.final.revision).toBe(real.metadata.annotations['deployment.kubernetes.io/revision'])
    const condition = (list: Json[], type: string) => {
      const c = list.find((x) => x.type === type)
      return c && {status: c.status, reason: c.reason}
    }
    expect(condition(simulated.final.conditions, 'Available')).toEqual(condition(real.status.conditions, 'Available'))
    // Deterministic at the end of a completed rollout or an exceeded deadline (not after some multi-write chains).
    expect(condition(simulated.final.conditions, 'Progressing')).toEqual(condition(real.status.conditions, 'Progressing'))
    expect(simulated.final.replicasStatus).toEqual({
      replicas: real.status.replicas,
      updated: real.status.updatedReplicas,
      ready: real.status.readyReplicas ?? 0,
      available: real.status.availableReplicas ?? 0,
    })
  }, 180_000)
})
