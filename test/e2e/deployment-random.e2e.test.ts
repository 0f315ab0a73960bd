// The random differential oracle for Deployments: seeded random worlds mid-rollout — up to five
// ReplicaSets with sizes, status counts, stale status, terminating replicas, revisions in any order
// (gaps, duplicates, unparsable ones, as rollbacks leave them), desired-replicas and max-replicas
// annotations (matching the Deployment, from an earlier size, absent or unparsable), pods in every
// phase behind Recreate; RollingUpdate with maxSurge and maxUnavailable as numbers and percentages
// (the defaults included), Recreate, paused, scaled mid-rollout, revisionHistoryLimit 0–3,
// minReadySeconds, progress deadlines, a collisionCount, a ReplicaSet holding the new name with
// another template (an orphan the selector matches or not, another owner's, the Deployment's own),
// orphans adopted, relabelled ReplicaSets released, the legacy rollback annotation, a Deployment
// being deleted — one namespace per world, built on the real control plane while no controller
// runs. kctl plans every world live (`kctl plan -A --now`) and plans on, sync by sync, until a sync
// writes nothing; then kube-controller-manager runs only the `deployment` controller (one worker,
// every request logged with its answer at --v=6) until nothing changes. As in the hand-made oracle
// (deployment-oracle.e2e.test.ts, whose machinery this shares): each Deployment's first sync must
// be the same requests, in order, with the same answers (a 409 where kctl plans `conflict`), and
// the second one too where the plan names it (after a hash collision); the end state (every
// ReplicaSet's name, size, owner, deployment.kubernetes.io annotations and minReadySeconds, those
// deleted, the Deployment's revision, collisionCount, status counters, Available condition and
// whether it has a Progressing one) must be kctl's.
//
//   npm run build && KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npx vitest run --project e2e test/e2e/deployment-random.e2e.test.ts
//
// Excluded by construction, because the outcome depends on when the controller syncs: a Progressing
// condition whose deadline (lastUpdateTime + progressDeadlineSeconds) falls within ten minutes
// around the batch's run (the plan's clock and the controller's differ by seconds to minutes), and
// progress deadlines shorter than ten minutes (a condition the controller writes itself would
// expire while it runs). The controller lists a namespace's ReplicaSets from its cache in map order,
// so the claim's adopt and release patches, and Recreate's scale-downs, go out in any order: each
// such run of writes is compared as a set. Excluded by construction where that order changes the
// outcome: under Recreate an orphan the selector matches with replicas (its scale conflicts after
// the adoption and ends the sync, before or after the others), and a rollback annotation where two
// ReplicaSets carry one revision (the first listed wins). Progressing's reason is not compared (it
// depends on which status writes conflict), nor are events. A disagreement prints the world and a
// replay command (KCTL_ORACLE_FIRST picks the first world of the run).
import {readFileSync} from 'node:fs'
import {afterAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {podTemplateHash} from '../../src/reconcile/hash/index.js'
import {ANN, build, type Built, type DeploymentSpec, dropWorld, endState, type Json, loggedSyncs, plannedSyncs, recreate, ROLLBACK_TO, rolling, type RsSpec, type Scenario, settleWithKctl, template, type TemplateName, worlds} from './deployment-worlds.js'
import {planJson} from './kctl.js'
import {controllerManager, waitUntilQuiet} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Rnd = () => number

/** Worlds per run of the controller: BATCH. */
const {seed: SEED, count: COUNT, first: FIRST, batch: BATCH} = oracleSettings({seed: 20261127, count: 100, batch: 100})
const MIN = 60_000
/** The clock's slack: a batch runs within it, and no deadline falls within it of the batch's start. */
const MARGIN = 10 * MIN

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const chance = (r: Rnd, p: number) => r() < p
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')

const TEMPLATES: readonly TemplateName[] = ['A', 'B', 'C', 'D', 'E']
const PHASES = ['Running', 'Pending', 'Succeeded', 'Failed', 'Unknown']

/** maxSurge or maxUnavailable as written: a number or a percentage (rounded up for surge, down for unavailability). */
const fencepost = (r: Rnd): number | string => (chance(r, 0.5) ? int(r, 0, 3) : pick(r, ['0%', '10%', '25%', '30%', '33%', '50%', '75%', '100%']))
const isZero = (v: number | string) => v === 0 || v === '0%'

/** Permuted revisions for `n` ReplicaSets: creation and name order are not revision order (rollbacks). */
function revisions(r: Rnd, n: number): Array<number | string | undefined> {
  const out: Array<number | string | undefined> = Array.from({length: n}, (_, i) => i + 1)
  for (let i = n - 1; i > 0; i--) {
    const j = int(r, 0, i)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  const gap = int(r, 0, 4)
  return out.map((v) => {
    if (chance(r, 0.08)) return undefined
    if (chance(r, 0.04)) return 'x1'
    return (v as number) + (chance(r, 0.3) ? gap : 0)
  })
}

function generate(r: Rnd, index: number, t0: number): Scenario {
  const d: DeploymentSpec = {template: chance(r, 0.1) ? 'R' : pick(r, TEMPLATES), replicas: int(r, 0, 8)}
  const s = r()
  if (s < 0.25) d.strategy = recreate
  else if (s < 0.8) {
    const surge = fencepost(r)
    const unavailable = fencepost(r)
    // Both zero is refused by validation.
    d.strategy = rolling(surge, isZero(surge) && isZero(unavailable) ? 1 : unavailable)
  } else if (s < 0.9) d.strategy = {type: 'RollingUpdate'}
  if (chance(r, 0.1)) d.paused = true
  if (chance(r, 0.4)) d.revisionHistoryLimit = pick(r, [0, 0, 1, 2, 3])
  const deadline = pick(r, [undefined, undefined, undefined, 1800, 3600, 2147483647])
  if (deadline !== undefined) d.progressDeadlineSeconds = deadline
  if (chance(r, 0.2)) d.minReadySeconds = pick(r, [5, 30])
  if (chance(r, 0.05)) d.deleting = true
  const collisionCount = chance(r, 0.2) ? int(r, 0, 2) : undefined

  const replicaSets: RsSpec[] = []
  const names = new Set<string>()
  const n = int(r, 0, 4)
  const revs = revisions(r, n)
  for (let k = 0; k < n; k++) {
    const t = pick(r, TEMPLATES)
    const rs: RsSpec = {template: t, replicas: chance(r, 0.35) ? 0 : int(r, 0, 6)}
    // Named under a collision count the Deployment has had (it only grows).
    if (collisionCount !== undefined && chance(r, 0.4)) rs.hashedWith = int(r, 0, collisionCount)
    // Its pod-template-hash label is always its template's hash, as a controller wrote it (kctl takes
    // any other for a controller that hashes differently and leaves the new name unknown).
    const hash = podTemplateHash(template(t), rs.hashedWith)
    // The same template again goes under another name (a second ReplicaSet the selector matches).
    if (names.has(`web-${hash}`)) rs.name = `web-dup${k}`
    names.add(rs.name ?? `web-${hash}`)
    const o = r()
    if (o < 0.1) rs.owned = false
    else if (o < 0.16) rs.foreign = true
    else if (o < 0.24) {
      // Relabelled away from the selector (its own labels: its selector is immutable).
      rs.relabelled = {app: 'gone', 'pod-template-hash': hash}
    }
    if (rs.name) rs.labels = {app: 'web', 'pod-template-hash': hash}
    const st = chance(r, 0.8) ? rs.replicas : int(r, 0, 6)
    rs.status = chance(r, 0.6) ? [st, st, st] : ((ready) => [st, ready, int(r, 0, ready)])(int(r, 0, st))
    if (chance(r, 0.1)) rs.stale = true
    if (chance(r, 0.15)) rs.terminating = int(r, 0, 2)
    const rev = revs[k]
    if (typeof rev === 'number') rs.revision = rev
    else if (rev !== undefined) rs.annotations = {[`${ANN}revision`]: rev}
    if (chance(r, 0.7)) {
      const desired = chance(r, 0.6) ? d.replicas : int(r, 0, 10)
      rs.sized = [desired, desired + int(r, 0, 3)]
    } else if (chance(r, 0.1)) rs.annotations = {...rs.annotations, [`${ANN}desired-replicas`]: 'many'}
    if (chance(r, 0.1)) rs.annotations = {...rs.annotations, [`${ANN}revision-history`]: '1,2'}
    if (chance(r, 0.2)) rs.minReadySeconds = pick(r, [0, 5, 30])
    if (d.strategy?.type === 'Recreate') {
      if (chance(r, 0.4)) rs.pods = Array.from({length: int(r, 1, 2)}, () => pick(r, PHASES))
      // Excluded (see the header): an active orphan the claim adopts.
      if (rs.owned === false) rs.replicas = 0
    }
    replicaSets.push(rs)
  }
  // A ReplicaSet holding the name the new one would take, with another template: a hash collision.
  const newName = `web-${podTemplateHash(template(d.template), collisionCount)}`
  if (chance(r, 0.15) && !names.has(newName)) {
    const rs: RsSpec = {template: pick(r, TEMPLATES.filter((t) => t !== d.template)), replicas: 0, name: newName, status: [0, 0, 0]}
    const o = pick(r, ['unmatched', 'adopted', 'foreign', 'owned'] as const)
    if (o === 'unmatched' || o === 'adopted') rs.owned = false
    if (o === 'unmatched') rs.labels = {app: 'other'}
    if (o === 'adopted') rs.labels = {app: 'web'}
    if (o === 'foreign') rs.foreign = true
    replicaSets.splice(int(r, 0, replicaSets.length), 0, rs)
  }

  const annotations: Json = {}
  if (chance(r, 0.2)) annotations['example.com/note'] = pick(r, ['hello', 'rolled'])
  if (chance(r, 0.1)) annotations['kubectl.kubernetes.io/last-applied-configuration'] = '{}'
  const numbered = replicaSets.map((x) => x.revision).filter((v): v is number => v !== undefined)
  if (chance(r, 0.6)) annotations[`${ANN}revision`] = String(chance(r, 0.7) && numbered.length > 0 ? Math.max(...numbered) : int(r, 1, 5))
  // Excluded (see the header): a rollback where two ReplicaSets carry one revision.
  if (chance(r, 0.05) && new Set(numbered).size === numbered.length) annotations[ROLLBACK_TO] = pick(r, ['0', String(pick(r, numbered.length > 0 ? numbered : [1])), '99'])
  if (Object.keys(annotations).length > 0) d.annotations = annotations

  // The status an earlier sync left: counters, conditions, collisionCount.
  if (chance(r, 0.7)) {
    // As validation allows them: updated and ready within replicas, available within ready.
    const replicas = int(r, 0, 8)
    const ready = int(r, 0, replicas)
    const status: Json = {observedGeneration: chance(r, 0.9) ? 1 : 0, replicas, updatedReplicas: int(r, 0, replicas), readyReplicas: ready, availableReplicas: int(r, 0, ready)}
    const conditions: Json[] = []
    if (chance(r, 0.7)) {
      const ok = chance(r, 0.6)
      const at = iso(t0 - int(r, 60, 7200) * 1000)
      conditions.push({type: 'Available', status: ok ? 'True' : 'False', reason: ok ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable', message: 'as the controller wrote it', lastUpdateTime: at, lastTransitionTime: at})
    }
    if (chance(r, 0.7)) {
      const reason = pick(r, ['NewReplicaSetAvailable', 'ReplicaSetUpdated', 'NewReplicaSetCreated', 'FoundNewReplicaSet', 'ProgressDeadlineExceeded'])
      // Its deadline is past by more than the margin, or more than the margin ahead (see the header).
      const limit = (deadline ?? 600) * 1000
      const age = limit > 2 * MARGIN && chance(r, 0.5) ? int(r, 0, limit - 2 * MARGIN) : limit + MARGIN + int(r, 0, 3600) * 1000
      const at = iso(t0 - Math.min(age, 400 * 24 * 3600 * 1000))
      conditions.push({type: 'Progressing', status: reason === 'ProgressDeadlineExceeded' ? 'False' : 'True', reason, message: 'as the controller wrote it', lastUpdateTime: at, lastTransitionTime: at})
    }
    if (conditions.length > 0) status.conditions = conditions
    if (collisionCount !== undefined) status.collisionCount = collisionCount
    d.status = status
  } else if (collisionCount !== undefined) d.status = {collisionCount}
  return {id: `r${index}`, title: `world ${index}`, deployments: [d], replicaSets}
}

/**
 * A sync's writes with the runs whose order upstream leaves to map iteration sorted (see the header):
 * the claim's leading patches and, under Recreate, each run of ReplicaSet updates (the scale-downs).
 */
function unordered(syncs: string[][], recreate: boolean): string[][] {
  return syncs.map((writes) => {
    const out: string[] = []
    let run: string[] = []
    let runKind = ''
    const kindOf = (w: string, i: number) => {
      if (w.startsWith('PATCH replicasets/') && writes.slice(0, i).every((x) => x.startsWith('PATCH '))) return 'claim'
      if (recreate && w.startsWith('PUT replicasets/')) return 'scale'
      return ''
    }
    const flush = () => {
      out.push(...run.sort())
      run = []
    }
    writes.forEach((w, i) => {
      const kind = kindOf(w, i)
      if (kind !== runKind) flush()
      runKind = kind
      if (kind) run.push(w)
      else out.push(w)
    })
    flush()
    return out
  })
}

const tally = {worlds: 0, agree: 0, writes: 0, refused: 0, followed: 0, created: 0, syncs: 0, disagreements: [] as string[]}

describe(`random Deployment worlds (seed ${SEED}, ${COUNT} worlds from ${FIRST}) against the deployment controller`, () => {
  afterAll(async () => {
    await controllerManager.stop()
  })

  for (let first = FIRST; first < FIRST + COUNT; first += BATCH) {
    const last = Math.min(FIRST + COUNT, first + BATCH)
    it(`worlds ${first}–${last - 1}: every Deployment's syncs and end state are its plans'`, async () => {
      // This batch's own disagreements: the tally runs across batches.
      const disagreedBefore = tally.disagreements.length
      await controllerManager.stop()
      const t0 = Date.now()
      const scenarios: Scenario[] = []
      for (let i = first; i < last; i++) scenarios.push(generate(prng(SEED * 7919 + i), i, t0))
      const built: Built[] = []
      // Built ten at a time: the API server takes them in parallel.
      for (let i = 0; i < scenarios.length; i += 10) built.push(...(await Promise.all(scenarios.slice(i, i + 10).map((s) => build(s)))))
      const nss = built.map((b) => b.ns)
      const now = iso(Date.now())
      const plan = await planJson(['-A', '--now', now])
      const before = await worlds(nss)
      const want = new Map<string, {state: Json; syncs: number; planned: string[][]; cp: Json}>()
      for (const b of built) {
        const cp = plan.controllers.find((c: Json) => c.kind === 'Deployment' && c.namespace === b.ns)
        expect(cp, `world ${b.scenario.id} is planned`).toBeDefined()
        // A plan that cannot name what it creates, or that never settles, disagrees (reported below).
        const settled = cp.actions.some((a: Json) => a.type === 'createReplicaSet' && a.name === null)
          ? {state: {error: `no name: ${cp.warnings.join('; ')}`}, syncs: 0}
          : await settleWithKctl(before.get(b.ns)!, [cp], now).then(
              (x) => ({state: endState(x.objects), syncs: x.syncs}),
              (e: Error) => ({state: {error: e.message}, syncs: 0}),
            )
        want.set(b.ns, {...settled, planned: plannedSyncs(cp), cp})
      }
      let logged = new Map<string, string[][]>()
      try {
        await controllerManager.start(['deployment'], ['--v=6', '--concurrent-deployment-syncs=1'])
        // Until nothing changes for 3 s: every write the controller makes bumps a resourceVersion.
        await waitUntilQuiet(
          async () =>
            [...(await worlds(nss)).values()]
              .flat()
              .map((o) => `${o.metadata.namespace}/${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)
              .join(','),
          {what: 'the deployment controller to settle', timeoutMs: 240_000},
        )
        logged = loggedSyncs(readFileSync(controllerManager.logFile!, 'utf8'))
      } finally {
        await controllerManager.stop()
      }
      expect(Date.now() - t0, 'the batch ran within the clock\'s margin').toBeLessThan(MARGIN)
      const after = await worlds(nss)
      for (const b of built) {
        const w = want.get(b.ns)!
        const got = endState(after.get(b.ns)!)
        const key = `${b.ns}/web`
        const observed = (logged.get(key) ?? []).slice(0, w.planned.length)
        tally.worlds++
        tally.syncs += w.syncs
        tally.followed += w.planned.length - 1
        tally.created += w.cp.actions.filter((a: Json) => a.type === 'createReplicaSet' && a.outcome === 'created').length
        for (const x of observed.flat()) x.endsWith(' 409') ? tally.refused++ : tally.writes++
        const recreate = b.scenario.deployments[0].strategy?.type === 'Recreate'
        const ok = JSON.stringify(got) === JSON.stringify(w.state) && JSON.stringify(unordered(observed, recreate)) === JSON.stringify(unordered(w.planned, recreate))
        if (ok) tally.agree++
        else {
          const index = Number(b.scenario.id.slice(1))
          tally.disagreements.push(
            `world ${index} (replay: npm run build && KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_FIRST=${index} KCTL_ORACLE_COUNT=1 npx vitest run --project e2e test/e2e/deployment-random.e2e.test.ts)\n` +
              `  world: ${JSON.stringify(b.scenario)}\n  planned syncs:  ${JSON.stringify(w.planned)}\n  observed syncs: ${JSON.stringify(observed)}\n` +
              `  planned end:  ${JSON.stringify(w.state)}\n  observed end: ${JSON.stringify(got)}\n  plan: ${w.cp.syncPath} ${w.cp.rolloutStep ?? ''} ${JSON.stringify(w.cp.warnings)}`,
          )
        }
      }
      await Promise.all(nss.map((ns) => dropWorld(ns).catch(() => {})))
      process.stderr.write(
        `[deployment-random] seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.syncs} kctl syncs to settle, ${tally.created} ReplicaSets created in first syncs, ` +
          `${tally.writes} writes and ${tally.refused} refused ones write for write, ${tally.followed} following syncs after a collision)\n`,
      )
      const mine = tally.disagreements.slice(disagreedBefore)
      expect(mine, mine.join('\n')).toEqual([])
    }, 600_000)
  }
})
