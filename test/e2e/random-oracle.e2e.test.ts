// The random differential oracle: seeded random worlds of ReplicaSets, ReplicationControllers and
// pods, built on the real control plane while no controller runs, planned live by kctl, then synced
// by the real kube-controller-manager; every controller's creates, deletes, adoptions and releases
// are compared with the plan (a reported tie is honoured: any members of it may go).
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=250 npm run build && npx vitest run --project e2e test/e2e/random-oracle.e2e.test.ts
//
// Worlds whose outcome depends on which controller syncs first are excluded by construction: an
// orphan matches at most one controller that is not being deleted (else both may adopt it), and a
// pod its controller releases matches no other controller (else the other may adopt it once
// released). A disagreement prints the world as a fixture `kctl plan -f` reads.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {planJson} from './kctl.js'
import {agrees, build, MIN, observe, podStates, predicted, type Built, type ControllerSpec, type PodSpec, type Scenario} from './oracle-worlds.js'
import {api, apiOk, controllerManager, inParallel, kubectl, makeNode, waitUntil} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

const {seed: SEED, count: COUNT} = oracleSettings({seed: 20261124, count: 100})
const NODES = ['n1', 'n2', 'n3']

type Rnd = () => number
const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const chance = (r: Rnd, p: number) => r() < p

/** A controller's selector as requirements, to decide what matches it while generating. */
function matches(c: ControllerSpec, labels: Record<string, string>): boolean {
  const sel = c.selector ?? c.template
  if (!Object.entries(sel).every(([k, v]) => labels[k] === v)) return false
  for (const e of c.matchExpressions ?? []) {
    const has = e.key in labels
    if (e.operator === 'In' && !(has && e.values!.includes(labels[e.key]))) return false
    if (e.operator === 'NotIn' && has && e.values!.includes(labels[e.key])) return false
    if (e.operator === 'Exists' && !has) return false
    if (e.operator === 'DoesNotExist' && has) return false
  }
  return true
}

// Ready ages far from the edges of the ranking's log2 buckets, so that the seconds between
// planning and the controller's sync cannot move a pod into another bucket.
const READY_AGES = [10 * MIN, 50 * MIN, 200 * MIN, 1500 * MIN]
const COSTS = ['-2147483648', '-100', '-1', '0', '5', '2147483647', '-007']

function generate(r: Rnd, index: number): Scenario {
  const controllers: ControllerSpec[] = []
  const n = int(r, 1, 3)
  const deploymentUid = chance(r, 0.3) ? `7c0d5e2a-0000-4000-8000-${String(index).padStart(12, '0')}` : undefined
  for (let i = 0; i < n; i++) {
    const kind = chance(r, 0.75) ? 'ReplicaSet' : 'ReplicationController'
    const app = pick(r, ['a', 'b'])
    const selector: Record<string, string> = {app}
    if (chance(r, 0.3)) selector.tier = pick(r, ['x', 'y'])
    const template: Record<string, string> = {...selector}
    const c: ControllerSpec = {kind, name: `c${i}`, replicas: int(r, 0, 5), selector, template}
    if (kind === 'ReplicaSet' && chance(r, 0.3)) {
      const op = pick(r, ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const)
      c.matchExpressions = [op === 'In' || op === 'NotIn' ? {key: 'track', operator: op, values: ['stable']} : {key: 'track', operator: op}]
      if (op === 'In' || op === 'Exists') template.track = 'stable'
    }
    if (kind === 'ReplicaSet' && deploymentUid && chance(r, 0.7)) c.deploymentUid = deploymentUid
    if (chance(r, 0.2)) c.minReadySeconds = pick(r, [30, 600, 7200])
    if (chance(r, 0.08)) c.deleting = true
    controllers.push(c)
  }
  const pods: PodSpec[] = []
  const podCount = int(r, 0, 8)
  for (let i = 0; i < podCount; i++) {
    const labels: Record<string, string> = {app: pick(r, ['a', 'b'])}
    if (chance(r, 0.5)) labels.tier = pick(r, ['x', 'y'])
    if (chance(r, 0.4)) labels.track = pick(r, ['stable', 'canary'])
    const p: PodSpec = {name: `p${i}`, labels, held: true}
    const who = r()
    if (who < 0.55) p.owner = pick(r, controllers).name
    else if (who < 0.65) {
      p.owner = pick(r, controllers).name
      p.refAs = chance(r, 0.5) ? {name: `${p.owner}-old`} : {kind: controllers.find((c) => c.name === p.owner)!.kind === 'ReplicaSet' ? 'ReplicationController' : 'ReplicaSet'}
    } else if (who < 0.72) p.foreign = true
    // else: an orphan
    if (chance(r, 0.85)) p.node = pick(r, NODES)
    p.phase = p.node ? pick(r, ['Running', 'Running', 'Running', 'Pending', 'Failed', 'Unknown'] as const) : 'Pending'
    p.ready = p.phase === 'Running' && chance(r, 0.8)
    p.readyAgo = pick(r, READY_AGES)
    if (chance(r, 0.3)) p.restarts = int(r, 1, 6)
    if (chance(r, 0.3)) p.cost = pick(r, COSTS)
    if (chance(r, 0.1)) p.terminating = true
    if (!syncOrderMatters(p, controllers)) pods.push(p)
  }
  return {id: `w${index}`, title: `random world ${index} (seed ${SEED})`, controllers, pods}
}

/** Worlds where two controllers race for a pod: left out (see the header). */
function syncOrderMatters(p: PodSpec, controllers: ControllerSpec[]): boolean {
  const takers = controllers.filter((c) => !c.deleting && matches(c, p.labels!))
  if (!p.owner && !p.foreign) return takers.length > 1
  const owner = controllers.find((c) => c.name === p.owner)
  if (!owner || p.refAs || owner.deleting || matches(owner, p.labels!)) return false
  return takers.some((c) => c !== owner) // released by its owner, adoptable by another
}

describe(`the random oracle: ${COUNT} worlds from seed ${SEED}, kctl plan vs kube-controller-manager`, () => {
  let built: Built[] = []
  let plan: any
  let worldsFile = ''

  beforeAll(async () => {
    await controllerManager.stop()
    for (const node of NODES) {
      const res = await api('GET', `/api/v1/nodes/${node}`)
      if (res.status === 404) await makeNode(node)
    }
    const r = prng(SEED)
    const worlds = Array.from({length: COUNT}, (_, i) => generate(r, i))
    built = await inParallel(worlds, 12, build)
    // Creation times are ranked in log2 buckets of age too: let the youngest pod reach 70 s, so
    // that none crosses a bucket edge (64 s, 128 s) between planning and the controller's sync.
    const newest = Math.max(0, ...(await Promise.all(built.map((b) => apiOk('GET', `/api/v1/namespaces/${b.ns}/pods`)))).flatMap((l) => l.items.map((p: any) => Date.parse(p.metadata.creationTimestamp))))
    const wait = newest + 70_000 - Date.now()
    if (wait > 0) await new Promise((res) => setTimeout(res, wait))
    plan = await planJson(['-A', '--now', new Date().toISOString().replace(/\.\d+Z$/, 'Z')])
    // Every world as it was planned, in one file: a disagreement names it with its namespace.
    const exported = await kubectl(['get', 'replicasets,replicationcontrollers,pods', '-A', '-o', 'yaml'])
    worldsFile = join(mkdtempSync(join(tmpdir(), 'kctl-random-oracle-')), `worlds-seed-${SEED}.yaml`)
    writeFileSync(worldsFile, exported.stdout)
  }, 600_000)

  afterAll(async () => {
    await controllerManager.stop()
  })

  it('agrees with the real controller on every controller of every world', async () => {
    await controllerManager.start(['replicaset', 'replicationcontroller'])
    const expected = built.flatMap((b) =>
      b.scenario.controllers.map((c) => ({b, c, p: predicted(plan.controllers.find((x: any) => x.namespace === b.ns && x.name === c.name))})),
    )
    // Until the controllers have done as much as planned everywhere (a disagreement shows as a
    // short count after the timeout), then a moment longer in case one does more.
    const observedAll = async () => {
      const states = await podStates(built.map((b) => b.ns))
      return expected.map((e) => observe(e.b, e.b.uids[e.c.name], states.get(e.b.ns)!))
    }
    await waitUntil(
      async () =>
        (await observedAll()).every((o, i) => {
          const p = expected[i].p
          return o.creates >= p.creates && o.deleted.length >= p.deleted.length && o.adopted.length >= p.adopted.length && o.released.length >= p.released.length
        }),
      {timeoutMs: 60_000, what: 'the controllers to act'},
    ).catch(() => undefined)
    await new Promise((res) => setTimeout(res, 1500))
    const observed = await observedAll()
    const disagreements: string[] = []
    for (let i = 0; i < expected.length; i++) {
      const {b, c, p} = expected[i]
      if (agrees(p, observed[i])) continue
      disagreements.push(
        `${b.scenario.id}/${c.name}: planned ${JSON.stringify({...p, victims: undefined})}, observed ${JSON.stringify(observed[i])}; the world: kctl plan -f ${worldsFile} -n ${b.ns}` +
          ` (replay: KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_COUNT=${Number(b.scenario.id.slice(1)) + 1} npx vitest run --project e2e test/e2e/random-oracle.e2e.test.ts)`,
      )
    }
    process.stderr.write(`\nrandom oracle (seed ${SEED}): ${expected.length - disagreements.length}/${expected.length} controllers agree in ${built.length} worlds\n`)
    expect(disagreements).toEqual([])
    expect(expected.length).toBeGreaterThanOrEqual(COUNT)
  })
})
