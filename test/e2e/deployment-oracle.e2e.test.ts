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
// that stores nothing as for any other), and nothing else. Where the plan names the Deployment's
// own next sync in `then` (after a hash collision), the controller's second sync is compared too.
import {readFileSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {build, type Built, dropWorld, endState, type Json, loggedSyncs, plannedSyncs, SCENARIOS, settleWithKctl, worlds} from './deployment-worlds.js'
import {planJson} from './kctl.js'
import {readmeText} from './readme-figures.js'
import {controllerManager, inParallel, waitUntilQuiet} from './setup/cluster.js'

describe('the Deployment oracle: kctl plan vs the deployment controller of kube-controller-manager', () => {
  const built: Built[] = []
  const predicted = new Map<string, {state: Json; syncs: number; created: string[]; planned: Map<string, string[][]>}>()

  beforeAll(async () => {
    await controllerManager.stop()
    built.push(...(await inParallel(SCENARIOS, 8, build)))
  }, 240_000)

  afterAll(async () => {
    await controllerManager.stop()
    await inParallel(built, 8, (b) => dropWorld(b.ns).catch(() => {}))
  })

  it('plans every scenario live and settles each, sync by sync', async () => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
    const plan = await planJson(['-A', '--now', now])
    const before = await worlds(built.map((b) => b.ns))
    for (const b of built) {
      const mine = plan.controllers.filter((c: Json) => c.kind === 'Deployment' && c.namespace === b.ns)
      expect(mine.length, b.scenario.id).toBe(b.scenario.deployments.length)
      for (const cp of mine) expect(cp.newReplicaSet?.name ?? '', `${b.scenario.id}: a name is known`).not.toBeNull()
      const settled = await settleWithKctl(before.get(b.ns)!, mine, now)
      const created = mine.flatMap((cp: Json) => cp.actions.filter((a: Json) => a.type === 'createReplicaSet').map((a: Json) => a.name))
      const planned = new Map<string, string[][]>(mine.map((cp: Json) => [`${cp.namespace}/${cp.name}`, plannedSyncs(cp)]))
      predicted.set(b.ns, {state: endState(settled.objects), syncs: settled.syncs, created, planned})
    }
  }, 120_000)

  it('agrees with the real controller on every scenario', async () => {
    expect(predicted.size, 'the planning test ran first').toBe(built.length)
    // One worker, every request logged with its answer: each Deployment's first sync, write for write
    // (and its second where the plan names it: the sync after a hash collision).
    await controllerManager.start(['deployment'], ['--v=6', '--concurrent-deployment-syncs=1'])
    // Until nothing changes for 3 s: every write the controller makes bumps a resourceVersion.
    await waitUntilQuiet(
      async () =>
        [...(await worlds(built.map((b) => b.ns))).values()]
          .flat()
          .map((o) => `${o.metadata.namespace}/${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
          .join(','),
      {what: 'the deployment controller to settle'},
    )
    const sent = loggedSyncs(readFileSync(controllerManager.logFile!, 'utf8'))
    const rows: string[] = []
    let agreed = 0
    let writes = 0
    let refused = 0
    let followed = 0
    const after = await worlds(built.map((b) => b.ns))
    for (const b of built) {
      const want = predicted.get(b.ns)!
      const got = endState(after.get(b.ns)!)
      const syncs = [...want.planned.entries()].map(([key, planned]) => ({key, planned, observed: (sent.get(key) ?? []).slice(0, planned.length)}))
      const syncsOk = syncs.every((f) => JSON.stringify(f.planned) === JSON.stringify(f.observed))
      for (const f of syncs) {
        followed += f.planned.length - 1
        for (const w of f.observed.flat()) w.endsWith(' 409') ? refused++ : writes++
      }
      const ok = JSON.stringify(got) === JSON.stringify(want.state) && syncsOk
      if (ok) agreed++
      const syncRows = syncsOk ? '' : syncs.map((f) => `\n  syncs of ${f.key}: planned ${JSON.stringify(f.planned)}\n  syncs of ${f.key}: observed ${JSON.stringify(f.observed)}`).join('')
      rows.push(`${ok ? 'agree   ' : 'DISAGREE'} ${b.scenario.id} (${want.syncs} syncs; created ${want.created.join(', ') || 'none'})${ok ? '' : `\n  planned  ${JSON.stringify(want.state)}\n  observed ${JSON.stringify(got)}${syncRows}`}`)
    }
    process.stderr.write(`\ndeployment oracle: ${agreed}/${built.length} scenarios agree (first syncs and ${followed} following ones: ${writes} writes and ${refused} refused ones, write for write)\n${rows.join('\n')}\n`)
    expect(rows.filter((r) => r.startsWith('DISAGREE'))).toEqual([])
    // The README states these figures; they must be the ones measured here.
    expect(readmeText()).toContain(`(\`test/e2e/deployment-oracle.e2e.test.ts\`): ${built.length} scenarios`)
    expect(readmeText()).toContain(`**${agreed} of ${built.length}**`)
  }, 180_000)
})
