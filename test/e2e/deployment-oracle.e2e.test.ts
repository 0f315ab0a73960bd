// The Deployment oracle: kctl's plan against what the real deployment controller does.
//
// Each scenario is built in its own namespace while no controller runs: a Deployment, the
// ReplicaSets it owns (their status written through /status, as a ReplicaSet controller would),
// and pods where Recreate looks at them. kctl plans every scenario live (`kctl plan -A`), and
// plans on from there — applying each sync's writes that do not conflict and planning again —
// until a sync writes nothing. Then kube-controller-manager runs with only the deployment
// controller (no ReplicaSet controller, so ReplicaSet status stays as written) until nothing
// changes, and the end state is compared, exactly, with kctl's: every ReplicaSet's name, size,
// owner and deployment.kubernetes.io annotations, the ReplicaSets deleted, and the Deployment's
// revision, collisionCount, status counters and Available condition. The created ReplicaSet's
// name is the pod-template-hash kctl computed. Progressing's reason depends on which status
// writes conflict (timing), so it is not compared.
//
// The first sync of every Deployment is compared write for write, refused writes included: the
// controller runs with one worker and logs every request it sends with its answer (--v=6), between
// "Started syncing deployment" and "Finished syncing deployment"; each write kctl plans for that
// sync must be there, in order, with the status kctl predicts (409 for `conflict`, 200 for a write
// that stores nothing as for any other), and nothing else.
import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {computePlan} from '../../src/services/plan.js'
import {ANN, build, type Built, endState, type Json, SCENARIOS, world} from './deployment-worlds.js'
import {planJson} from './kctl.js'
import {readmeText} from './readme-figures.js'
import {api, controllerManager, deleteNamespace, waitUntilQuiet} from './setup/cluster.js'

/** Applies one Deployment plan's writes that happen (not those that conflict) to a world. */
function apply(objects: Json[], cp: Json, now: string): Json[] {
  let out = structuredClone(objects)
  const rs = (name: string) => out.find((o) => o.kind === 'ReplicaSet' && o.metadata.name === name)
  const d = out.find((o) => o.kind === 'Deployment' && o.metadata.name === cp.name)!
  for (const a of cp.actions) {
    // Refused: nothing changes (the sync ends there, or the controller swallowed the error and went on).
    if (a.conflict) continue
    switch (a.type) {
      case 'createReplicaSet':
        if (a.outcome !== 'created') break
        out.push({
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {name: a.name, namespace: cp.namespace, uid: `uid-${a.name}`, generation: 1, creationTimestamp: now, labels: a.labels, annotations: a.annotations, ownerReferences: [a.ownerReference]},
          spec: {replicas: a.replicas, minReadySeconds: a.minReadySeconds, selector: a.selector, template: {...d.spec.template, metadata: {...d.spec.template.metadata, labels: a.labels}}},
          status: {replicas: 0},
        })
        break
      case 'scaleReplicaSet': {
        const x = rs(a.replicaSet)!
        x.spec.replicas = a.to
        x.metadata.annotations = {...x.metadata.annotations, ...a.annotations}
        x.metadata.generation++
        break
      }
      case 'updateReplicaSet': {
        const x = rs(a.replicaSet)!
        x.metadata.annotations = a.annotations
        x.spec.minReadySeconds = a.minReadySeconds
        x.metadata.generation++
        break
      }
      case 'deleteReplicaSet':
        out = out.filter((o) => !(o.kind === 'ReplicaSet' && o.metadata.name === a.replicaSet))
        break
      case 'adoptReplicaSet':
        rs(a.replicaSet)!.metadata.ownerReferences = [{apiVersion: 'apps/v1', kind: 'Deployment', name: cp.name, uid: cp.uid, controller: true, blockOwnerDeletion: true}]
        break
      case 'releaseReplicaSet':
        rs(a.replicaSet)!.metadata.ownerReferences = []
        break
      case 'updateStatus':
        d.status = a.to
        if (a.revision) d.metadata.annotations = {...d.metadata.annotations, [`${ANN}revision`]: a.revision.to}
        break
    }
  }
  return out
}

/** One planned write as the request the controller sends and the answer it gets: `PUT deployments/web/status 200`. */
function request(a: Json, deployment: string): string {
  const code = (ok: number) => (a.conflict ? 409 : ok)
  switch (a.type) {
    case 'adoptReplicaSet':
    case 'releaseReplicaSet':
      return `PATCH replicasets/${a.replicaSet} ${code(200)}`
    case 'createReplicaSet':
      return `POST replicasets ${a.outcome === 'created' ? code(201) : 409}`
    case 'scaleReplicaSet':
    case 'updateReplicaSet':
      return `PUT replicasets/${a.replicaSet} ${code(200)}`
    case 'deleteReplicaSet':
      return `DELETE replicasets/${a.replicaSet} ${code(200)}`
    case 'updateStatus':
      return `PUT deployments/${deployment}/status ${code(200)}`
    case 'rollback':
      return `PUT deployments/${deployment} ${code(200)}`
    default:
      return `? ${a.type}`
  }
}

/**
 * The writes of each Deployment's first sync, from kube-controller-manager's log at --v=6 with one
 * worker: "ns/name" → [`PUT deployments/web/status 409`, …]. Reads (GET) and events are left out.
 */
function firstSyncs(log: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  let current: string[] | undefined
  for (const line of log.split('\n')) {
    const started = /"Started syncing deployment" deployment="([^"]+)"/.exec(line)
    if (started) {
      current = out.has(started[1]) ? undefined : []
      if (current) out.set(started[1], current)
      continue
    }
    if (line.includes('"Finished syncing deployment"')) {
      current = undefined
      continue
    }
    const response = /"Response" verb="([A-Z]+)" url="[^"]*\/apis\/apps\/v1\/namespaces\/[^/]+\/([^"?]+)(?:\?[^"]*)?" status="(\d+)/.exec(line)
    if (current && response && response[1] !== 'GET') current.push(`${response[1]} ${response[2]} ${response[3]}`)
  }
  return out
}

/** kctl's end state for a namespace: plan, apply, plan again, until a sync writes nothing. */
async function settleWithKctl(objects: Json[], first: Json[], now: string): Promise<{objects: Json[]; syncs: number}> {
  let current = objects
  let plans = first
  for (let syncs = 1; syncs <= 12; syncs++) {
    if (plans.every((cp) => cp.actions.length === 0)) return {objects: current, syncs}
    for (const cp of plans) current = apply(current, cp, now)
    const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: current})
    const plan = await computePlan({filename: ['-'], readStdin: async () => text, now, allNamespaces: true})
    plans = (plan.controllers as Json[]).filter((c) => c.kind === 'Deployment')
  }
  throw new Error('kctl planned more than 12 syncs without settling')
}

describe('the Deployment oracle: kctl plan vs the deployment controller of kube-controller-manager', () => {
  const built: Built[] = []
  const predicted = new Map<string, {state: Json; syncs: number; created: string[]; first: Map<string, string[]>}>()

  beforeAll(async () => {
    await controllerManager.stop()
    for (const s of SCENARIOS) built.push(await build(s))
  }, 240_000)

  afterAll(async () => {
    await controllerManager.stop()
    for (const b of built) {
      await api('PATCH', `/apis/apps/v1/namespaces/${b.ns}/deployments/web`, {body: {metadata: {finalizers: null}}, contentType: 'application/merge-patch+json'}).catch(() => {})
      await deleteNamespace(b.ns).catch(() => {})
    }
  })

  it('plans every scenario live and settles each, sync by sync', async () => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
    const plan = await planJson(['-A', '--now', now])
    for (const b of built) {
      const mine = plan.controllers.filter((c: Json) => c.kind === 'Deployment' && c.namespace === b.ns)
      expect(mine.length, b.scenario.id).toBe(b.scenario.deployments.length)
      for (const cp of mine) expect(cp.newReplicaSet?.name ?? '', `${b.scenario.id}: a name is known`).not.toBeNull()
      const settled = await settleWithKctl(await world(b.ns), mine, now)
      const created = mine.flatMap((cp: Json) => cp.actions.filter((a: Json) => a.type === 'createReplicaSet').map((a: Json) => a.name))
      const first = new Map<string, string[]>(mine.map((cp: Json) => [`${cp.namespace}/${cp.name}`, cp.actions.map((a: Json) => request(a, cp.name))]))
      predicted.set(b.ns, {state: endState(settled.objects), syncs: settled.syncs, created, first})
    }
  }, 120_000)

  it('agrees with the real controller on every scenario', async () => {
    expect(predicted.size, 'the planning test ran first').toBe(built.length)
    // One worker, every request logged with its answer: each Deployment's first sync, write for write.
    await controllerManager.start(['deployment'], ['--v=6', '--concurrent-deployment-syncs=1'])
    // Until nothing changes for 3 s: every write the controller makes bumps a resourceVersion.
    await waitUntilQuiet(
      async () =>
        (await Promise.all(built.map((b) => world(b.ns))))
          .flat()
          .map((o) => `${o.metadata.namespace}/${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
          .join(','),
      {what: 'the deployment controller to settle'},
    )
    const sent = firstSyncs(readFileSync(controllerManager.logFile!, 'utf8'))
    const rows: string[] = []
    let agreed = 0
    let writes = 0
    let refused = 0
    for (const b of built) {
      const want = predicted.get(b.ns)!
      const got = endState(await world(b.ns))
      const firstWrites = [...want.first.entries()].map(([key, planned]) => ({key, planned, observed: sent.get(key)}))
      const firstOk = firstWrites.every((f) => JSON.stringify(f.planned) === JSON.stringify(f.observed))
      for (const f of firstWrites) for (const w of f.observed ?? []) w.endsWith(' 409') ? refused++ : writes++
      const ok = JSON.stringify(got) === JSON.stringify(want.state) && firstOk
      if (ok) agreed++
      const firstRows = firstOk ? '' : firstWrites.map((f) => `\n  first sync of ${f.key}: planned ${JSON.stringify(f.planned)}\n  first sync of ${f.key}: observed ${JSON.stringify(f.observed ?? null)}`).join('')
      rows.push(`${ok ? 'agree   ' : 'DISAGREE'} ${b.scenario.id} (${want.syncs} syncs; created ${want.created.join(', ') || 'none'})${ok ? '' : `\n  planned  ${JSON.stringify(want.state)}\n  observed ${JSON.stringify(got)}${firstRows}`}`)
    }
    process.stderr.write(`\ndeployment oracle: ${agreed}/${built.length} scenarios agree (first syncs: ${writes} writes and ${refused} refused ones, write for write)\n${rows.join('\n')}\n`)
    expect(rows.filter((r) => r.startsWith('DISAGREE'))).toEqual([])
    // The README states these figures; they must be the ones measured here.
    expect(readmeText()).toContain(`(\`test/e2e/deployment-oracle.e2e.test.ts\`): ${built.length} scenarios`)
    expect(readmeText()).toContain(`**${agreed} of ${built.length}**`)
  }, 180_000)
})
