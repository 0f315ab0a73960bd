// The StatefulSet and DaemonSet oracle: kctl's plan against what the real statefulset and
// daemonset controllers do.
//
// Each scenario (test/e2e/workload-scenarios.ts) is built in its own namespace while no controller
// runs, on a cluster with kube-scheduler and kwok (fake nodes whose pods run at once) and, where a
// world must stop after the sync under test, pods bound where no kubelet runs (pending, failed or
// terminating as written by hand). kctl plans every scenario live (`kctl plan -A`), then plans on
// from there — each sync's writes done to the world as the cluster does them (workload-worlds.ts
// applySync) — until a sync writes nothing. Then kube-controller-manager runs with only the
// statefulset and daemonset controllers until nothing changes, and the end state is compared,
// exactly: the controller's status and revisions (name, number, owner), every claim (name, labels,
// owners), every pod (a StatefulSet's by name, a new DaemonSet pod by its node) with its phase,
// readiness, termination, owner, labels and the fields the controller writes (hostname,
// subdomain, claim volumes; node affinity, tolerations).
//
// Where the DaemonSet controller picks among nodes in Go's map order (a rolling update whose
// budget allows fewer deletes or surge pods than there are candidates), kctl's plan names the
// candidates and the count (chooseDaemonPods) instead of guessing. The oracle accepts any outcome
// the plan allows: the controller must have taken exactly that many of those candidates, and kctl's
// next syncs are planned from the choice it made.
//
// Random worlds too (test/e2e/workload-random.ts): KCTL_ORACLE_COUNT of each kind (default 100)
// from KCTL_ORACLE_SEED (KCTL_WORKLOADS_SEED and KCTL_WORKLOADS_COUNT are read too), built and
// synced KCTL_ORACLE_BATCH of each kind at a time (default 100: one start of the controllers for the
// default count, the hand-made scenarios in the first batch). A disagreement prints a replay line:
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/workloads-oracle.e2e.test.ts
//
// Nothing is excluded: where the controller may choose (Go's map order), any choice the plan
// allows is accepted, as above.
import {randomBytes} from 'node:crypto'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {startKwok, type Kwok} from '../../controlplane/fake-nodes.js'
import type {Component} from '../../controlplane/procs.js'
import {startScheduler} from '../../controlplane/start.js'
import {computePlan} from '../../src/services/plan.js'
import {planJson} from './kctl.js'
import {readmeText} from './readme-figures.js'
import {api, apiOk, controllerManager, controlPlane, deleteNamespace, waitUntilQuiet} from './setup/cluster.js'
import {randomScenarios} from './workload-random.js'
import {DAEMONSET_SCENARIOS, STATEFULSET_SCENARIOS} from './workload-scenarios.js'
import {applySync, type Chooser, type Ctx, endState, type Json, LIST_PATHS, nodes, POOL, type Scenario} from './workload-worlds.js'
import {oracleSettings} from './oracle-env.js'

const DEFAULT_SEED = 20261125
const DEFAULT_COUNT = 100
/** Random worlds of each kind per start of the controllers: BATCH (the older KCTL_WORKLOADS_SEED/COUNT still count). */
const {seed: SEED, count: COUNT, batch: BATCH} = oracleSettings({
  seed: Number(process.env.KCTL_WORKLOADS_SEED ?? DEFAULT_SEED),
  count: Number(process.env.KCTL_WORKLOADS_COUNT ?? DEFAULT_COUNT),
  batch: 100,
})
const RANDOM = randomScenarios(SEED, COUNT)
const HAND_MADE = [...STATEFULSET_SCENARIOS, ...DAEMONSET_SCENARIOS]
/** The worlds of each start of the controllers: the hand-made ones with the first random batch. */
const BATCHES: Scenario[][] = []
for (let first = 0; first < Math.max(COUNT, 1); first += BATCH) BATCHES.push([...(first === 0 ? HAND_MADE : []), ...RANDOM.slice(2 * first, 2 * (first + BATCH))])
const BUILDERS = 6
const replay = (s: Scenario) => `KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_COUNT=${Number(s.id.slice(2)) + 1} npx vitest run --project e2e test/e2e/workloads-oracle.e2e.test.ts`

type Built = Ctx & {scenario: Scenario}

interface Planned {
  first: Json
  objects: Json[]
  original: Set<string>
}

/** kctl's end state: the first plan's writes done, planned again, until a sync writes nothing. */
async function settleWithKctl(b: Built, p: Planned, now: string, choose: Chooser): Promise<{state: Json; syncs: number}> {
  let objects = p.objects
  let cp = p.first
  const serial = {n: 0}
  for (let syncs = 1; syncs <= 40; syncs++) {
    if (cp.actions.length === 0) return {state: endState(objects, b.scenario.kind, p.original), syncs}
    objects = applySync(objects, cp, {now, kwok: b.kwok, choose, serial})
    const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects})
    const plan = await computePlan({filename: ['-'], readStdin: async () => text, now, allNamespaces: true})
    cp = (plan.controllers as Json[]).find((c) => c.kind === b.scenario.kind && c.namespace === b.ns)!
  }
  throw new Error(`${b.scenario.id}: kctl planned more than 40 syncs without settling`)
}

/** The lines of two end states that differ. */
function difference(planned: Json, observed: Json): string {
  const lines = (s: Json) => Object.entries(s).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${JSON.stringify(v)}`]))
  const [p, o] = [lines(planned), lines(observed)]
  return [...p.filter((x) => !o.includes(x)).map((x) => `\n  planned only:  ${x}`), ...o.filter((x) => !p.includes(x)).map((x) => `\n  observed only: ${x}`)].join('')
}

/** The choices the controller made, read from its end state; kctl's model then follows them. */
function chooserFrom(observed: Json, notes: string[]): Chooser {
  return (operation, candidates, count) => {
    const gone = (pod: string) => !observed.pods.some((p: string) => p.startsWith(`${pod} `) && !p.includes('"terminating":true'))
    const grew = (node: string) => observed.pods.some((p: string) => p.startsWith(`new pod on ${node} `))
    const taken = candidates.filter(operation === 'delete' ? gone : grew)
    notes.push(`the controller chose ${taken.join(', ') || 'none'} of ${candidates.join(', ')} (${operation} ${count})`)
    // Exactly `count` of the candidates, or kctl follows its own order and the end states differ.
    return taken.length === count ? taken : candidates.slice(0, count)
  }
}

interface Tally {
  StatefulSet: number
  DaemonSet: number
  randomStatefulSet: number
  randomDaemonSet: number
  random: number
  rows: string[]
}

describe(`the workloads oracle: kctl plan vs the statefulset and daemonset controllers (${COUNT} random worlds of each kind, seed ${SEED})`, () => {
  let scheduler: Component | undefined
  let kwok: Kwok | undefined
  const tally: Tally = {StatefulSet: 0, DaemonSet: 0, randomStatefulSet: 0, randomDaemonSet: 0, random: 0, rows: []}

  beforeAll(async () => {
    await controllerManager.stop()
    const info = controlPlane()
    scheduler = await startScheduler({info, log: () => {}})
    kwok = await startKwok({info, nodes: POOL.length, nodeNamePrefix: 'wlo-pool', stages: 'fast', zones: ['zone-a']})
  }, 120_000)

  afterAll(async () => {
    await controllerManager.stop()
    await kwok?.stop()
    await scheduler?.stop()
    for (const n of kwok?.nodes ?? []) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
  }, 120_000)

  for (const [index, scenarios] of BATCHES.entries()) {
    const last = index === BATCHES.length - 1
    const randoms = scenarios.filter((s) => RANDOM.includes(s))
    const span = randoms.length > 0 ? ` and random worlds ${randoms[0]!.id.slice(2)}–${randoms.at(-1)!.id.slice(2)}` : ''
    it(`${index === 0 ? 'the hand-made scenarios' : `batch ${index}`}${span}: the plans, synced on, end where the real controllers do`, async () => {
      const t0 = Date.now()
      const took = (what: string) => process.stderr.write(`[workloads-oracle] batch ${index}: ${what} after ${((Date.now() - t0) / 1000).toFixed(0)} s\n`)
      const built = await buildAll(scenarios, new Set(kwok!.nodes))
      took(`${built.length} worlds built`)
      try {
        const planned = await planAll(built)
        took('planned')
        const rows = tally.rows.length
        await judge(built, planned, tally)
        const seen = tally.rows.slice(rows)
        took(
          `judged: ${seen.length - seen.filter((r) => r.startsWith('DISAGREE')).length}/${seen.length} agree; so far ${tally.randomStatefulSet} StatefulSet and ${tally.randomDaemonSet} DaemonSet random worlds agree (seed ${SEED})` +
            seen.filter((r) => r.startsWith('DISAGREE')).map((r) => `\n${r}`).join(''),
        )
      } finally {
        await controllerManager.stop()
        await cleanUp(built)
        took('cleaned up')
      }
      if (!last) return
      const disagreements = tally.rows.filter((r) => r.startsWith('DISAGREE'))
      const hand = `${tally.StatefulSet}/${STATEFULSET_SCENARIOS.length} StatefulSet and ${tally.DaemonSet}/${DAEMONSET_SCENARIOS.length} DaemonSet scenarios`
      process.stderr.write(
        `\nworkloads oracle: ${hand} and ${tally.random}/${RANDOM.length} random worlds (seed ${SEED}: ${tally.randomStatefulSet}/${COUNT} StatefulSet, ${tally.randomDaemonSet}/${COUNT} DaemonSet) agree\n` +
          (disagreements.length > 0 || COUNT <= 20 ? `${tally.rows.join('\n')}\n` : ''),
      )
      expect(disagreements).toEqual([])
      // The README states these figures; they must be the ones measured here.
      const readme = readmeText()
      expect(readme).toContain(`(\`test/e2e/workloads-oracle.e2e.test.ts\`): ${STATEFULSET_SCENARIOS.length} StatefulSet and ${DAEMONSET_SCENARIOS.length} DaemonSet scenarios`)
      if (SEED === DEFAULT_SEED && COUNT === DEFAULT_COUNT) expect(readme).toContain(`**${tally.random} of ${RANDOM.length}** random worlds`)
      expect(readme).toContain(`Their oracle (see [Tests](#tests)) compares ${STATEFULSET_SCENARIOS.length + DAEMONSET_SCENARIOS.length} scenarios`)
      expect(readme).toContain(`**${tally.StatefulSet} of ${STATEFULSET_SCENARIOS.length}** StatefulSet and **${tally.DaemonSet} of ${DAEMONSET_SCENARIOS.length}** DaemonSet`)
    }, 1_800_000)
  }
})

/** Every world of a batch in its own namespace, BUILDERS at a time, while no controller runs. */
async function buildAll(scenarios: Scenario[], kwokNodes: Set<string>): Promise<Built[]> {
  const ctxs: Built[] = scenarios.map((s) => ({scenario: s, id: `wlo-${s.id}-${randomBytes(2).toString('hex')}`, ns: '', kwok: kwokNodes, nodes: []}))
  let next = 0
  const worker = async () => {
    for (let i = next++; i < ctxs.length; i = next++) {
      const c = ctxs[i]!
      const r = await apiOk('POST', '/api/v1/namespaces', {body: {apiVersion: 'v1', kind: 'Namespace', metadata: {generateName: `${c.id}-`, labels: {'kctl-e2e': 'true'}}}})
      c.ns = r.metadata.name
      await c.scenario.build(c)
    }
  }
  await Promise.all(Array.from({length: BUILDERS}, worker))
  return ctxs
}

/** One live plan of the whole cluster (`kctl plan -A`), each world's first sync with the names of the revisions it creates. */
async function planAll(built: Built[]): Promise<Map<string, Planned & {now: string}>> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  const plan = await planJson(['-A', '--now', now])
  const allNodes = await nodes()
  const worlds = await worldsOf(built)
  const planned = new Map<string, Planned & {now: string}>()
  for (const b of built) {
    const mine = plan.controllers.filter((c: Json) => c.namespace === b.ns)
    expect(mine.map((c: Json) => c.kind), b.scenario.id).toEqual([b.scenario.kind])
    expect(mine[0].updateRevision?.name, `${b.scenario.id}: the revision's name is known`).toBeTruthy()
    const objects = [...worlds.get(b.ns)!, ...allNodes]
    const original = new Set(objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name as string))
    planned.set(b.ns, {first: mine[0], objects, original, now})
    const chooses = mine[0].actions.some((a: Json) => a.type === 'chooseDaemonPods')
    if (b.scenario.random !== undefined) expect(chooses, `${b.scenario.id}: a random choice is ${b.scenario.random ? '' : 'not '}planned`).toBe(b.scenario.random)
  }
  return planned
}

/** Runs the controllers until nothing changes, then compares each world's end state with kctl's. */
async function judge(built: Built[], planned: Map<string, Planned & {now: string}>, tally: Tally): Promise<void> {
  await controllerManager.start(['statefulset', 'daemonset'])
  // Until nothing changes for 3 s: every write bumps a resourceVersion.
  const ours = new Set(built.map((b) => b.ns))
  await waitUntilQuiet(
    async () => {
      const versions: string[] = []
      for (const [apiVersion, , plural] of LIST_PATHS) {
        const list = await apiOk('GET', apiVersion === 'v1' ? `/api/v1/${plural}` : `/apis/${apiVersion}/${plural}`)
        for (const o of list.items) if (ours.has(o.metadata.namespace)) versions.push(`${o.metadata.namespace}/${plural}/${o.metadata.name}@${o.metadata.resourceVersion}`)
      }
      return versions.sort().join(',')
    },
    {timeoutMs: 180_000, what: 'the controllers to settle'},
  )
  const worlds = await worldsOf(built)
  for (const b of built) {
    const p = planned.get(b.ns)!
    const got = endState(worlds.get(b.ns)!, b.scenario.kind, p.original)
    const notes: string[] = []
    const want = await settleWithKctl(b, p, p.now, chooserFrom(got, notes))
    const ok = JSON.stringify(got) === JSON.stringify(want.state)
    const random = RANDOM.includes(b.scenario)
    if (ok && random) {
      tally.random++
      tally[b.scenario.kind === 'StatefulSet' ? 'randomStatefulSet' : 'randomDaemonSet']++
    } else if (ok) tally[b.scenario.kind]++
    const first = p.first.actions.map((a: Json) => a.type).join(', ') || 'nothing'
    tally.rows.push(
      `${ok ? 'agree   ' : 'DISAGREE'} ${b.scenario.title} [${b.ns}] (${want.syncs} syncs; first: ${first})${notes.length ? `; ${notes.join('; ')}` : ''}` +
        (ok ? '' : `${random ? `\n  replay: ${replay(b.scenario)}` : ''}${difference(want.state, got)}`),
    )
  }
}

/** Every world's objects (as `world` reads one namespace), read with one list of each kind. */
async function worldsOf(built: Built[]): Promise<Map<string, Json[]>> {
  const out = new Map<string, Json[]>(built.map((b) => [b.ns, []]))
  for (const [apiVersion, kind, plural] of LIST_PATHS) {
    const list = await apiOk('GET', apiVersion === 'v1' ? `/api/v1/${plural}` : `/apis/${apiVersion}/${plural}`)
    for (const item of list.items) out.get(item.metadata.namespace)?.push({apiVersion, kind, ...item})
  }
  return out
}

/** A batch's namespaces and nodes go, so the next batch's controllers see only their own worlds. */
async function cleanUp(built: Built[]): Promise<void> {
  const merge = {contentType: 'application/merge-patch+json', body: {metadata: {finalizers: null}}}
  const background = {body: {kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background'}}
  let next = 0
  const worker = async () => {
    for (let i = next++; i < built.length; i = next++) {
      const b = built[i]!
      if (!b.ns) continue
      await api('PATCH', `/apis/apps/v1/namespaces/${b.ns}/statefulsets/web`, merge).catch(() => {})
      await api('PATCH', `/api/v1/namespaces/${b.ns}/persistentvolumeclaims/data-web-1`, merge).catch(() => {})
      for (const plural of ['statefulsets', 'daemonsets', 'controllerrevisions']) await api('DELETE', `/apis/apps/v1/namespaces/${b.ns}/${plural}`, background).catch(() => {})
      await api('DELETE', `/api/v1/namespaces/${b.ns}/persistentvolumeclaims`).catch(() => {})
      await deleteNamespace(b.ns).catch(() => {})
      for (const n of b.nodes) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
    }
  }
  await Promise.all(Array.from({length: BUILDERS}, worker))
}
