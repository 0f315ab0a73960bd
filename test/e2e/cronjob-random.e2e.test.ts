// The random differential oracle for CronJobs: seeded random worlds — schedules with steps, ranges,
// lists, weekdays, macros and @every, four time zones, every concurrency policy, suspend, starting
// deadlines, history limits (0 included), past runs running, succeeded or failed, listed in
// status.active or not, active entries whose Job is gone, and a Job holding the due run's name (the
// CronJob's own, another owner's, an orphan) — built on the real control plane while no controller
// runs, planned live by `kctl plan --now`, then synced by kube-controller-manager running only the
// `cronjob` controller. Each CronJob's Jobs created (by name, annotations, owner) and deleted (by
// name) and its status (active, lastScheduleTime, lastSuccessfulTime) must be what its plan says.
//
//   KCTL_ORACLE_SEED=7 KCTL_ORACLE_COUNT=1000 npm run build && npx vitest run --project e2e test/e2e/cronjob-random.e2e.test.ts
//
// Excluded by construction, because the outcome depends on when the controller syncs: a schedule
// time within ten minutes after the world is built (the plan's clock and the controller's differ by
// seconds), a schedule time within ten minutes of the starting deadline's edge, and @every with a
// starting deadline (its times then move with the clock). Events are not compared (the controller
// may record them more than once while it retries). A disagreement prints the world and a replay
// command.
import {afterAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {parseSchedule, type Schedule} from '../../src/controllers/cronjob/cron.js'
import {mostRecentScheduleTime} from '../../src/controllers/cronjob/sync.js'
import type {CronJobView} from '../../src/controllers/cronjob/model.js'
import {planJson} from './kctl.js'
import {api, apiOk, controllerManager, newNamespace, waitUntil} from './setup/cluster.js'
import {oracleSettings} from './oracle-env.js'

type Json = Record<string, any>
type Rnd = () => number

/** Worlds per namespace and per run of the controller: BATCH. */
const {seed: SEED, count: COUNT, batch: BATCH} = oracleSettings({seed: 20261127, count: 100, batch: 100})
const MIN = 60_000
const MARGIN = 10 * MIN
const MS = 1_000_000n

const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const chance = (r: Rnd, p: number) => r() < p
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const JOB_SPEC = {template: {spec: {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.invalid/job:1'}]}}}

type JobState = 'running' | 'unstarted' | 'complete' | 'failed'
interface JobSpec {
  name: string
  state: JobState
  /** The run's schedule time (ms), for its start and completion times. */
  at: number
  owner: 'mine' | 'other' | 'none'
  listed: boolean
}
interface World {
  index: number
  name: string
  spec: Json
  lastScheduleTime?: string
  jobs: JobSpec[]
  /** Names listed in status.active whose Job does not exist. */
  missing: string[]
}

function drawSchedule(r: Rnd): string {
  const m = int(r, 0, 59)
  const h = int(r, 0, 23)
  const dow = pick(r, ['*', '1-5', 'mon-fri', '0,6', 'sat,sun', 'tue,thu', '3'])
  return pick(r, [
    () => `${m} ${h} * * *`,
    () => `${m} */${pick(r, [2, 3, 4, 6])} * * *`,
    () => `${m} ${Math.min(h, 20)}-${Math.min(h, 20) + 3} * * ${dow}`,
    () => `${m},${(m + 30) % 60} ${h} * * ${dow}`,
    () => `0-59/${pick(r, [15, 20, 30])} * * * *`,
    () => `${m} ${h} ${int(r, 1, 28)} * *`,
    () => `${m} ${h} * ${pick(r, ['jan-jun', '*/2', 'nov,dec', '*'])} *`,
    () => `${m} ${h} 13 * 5`,
    () => pick(r, ['@hourly', '@daily', '@weekly', '@monthly', '@yearly']),
    () => `@every ${pick(r, ['25m', '90m', '2h', '3h30m'])}`,
  ])()
}

const ZONES = [undefined, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Adelaide']

/** The view kctl's own schedule arithmetic reads, to keep the worlds away from the clock's edges. */
function view(spec: Json, created: number): CronJobView {
  return {schedule: spec.schedule, startingDeadlineSeconds: spec.startingDeadlineSeconds, creationTimestamp: iso(created)} as unknown as CronJobView
}
const parsed = (spec: Json): Schedule => parseSchedule(spec.timeZone ? `TZ=${spec.timeZone} ${spec.schedule}` : spec.schedule)

/** Whether the sync's outcome is the same anywhere in [t0, t0 + MARGIN] (see the exclusions above). */
function stable(spec: Json, last: string | undefined, t0: number): boolean {
  const s = parsed(spec)
  const at = BigInt(t0) * MS
  const to = BigInt(t0 + MARGIN) * MS
  if ((s.next(at) ?? 0n) <= to) return false
  if (spec.startingDeadlineSeconds !== undefined) {
    if (spec.schedule.startsWith('@every')) return false
    const d = BigInt(spec.startingDeadlineSeconds) * 1000n * MS
    if ((s.next(at - d - 1000n * MS) ?? 0n) <= to - d + 1000n * MS) return false
  }
  const a = mostRecentScheduleTime(view(spec, t0), last, at, s, true)
  const b = mostRecentScheduleTime(view(spec, t0 + MARGIN), last, to, s, true)
  return a.time === b.time && a.tooMany === b.tooMany && !a.error
}

/** Schedule times at or before `t0` from `from` on (at most `max`, the latest kept). */
function firesBefore(s: Schedule, from: number, t0: number, max = 2000): number[] {
  const out: number[] = []
  for (let t = s.next(BigInt(from) * MS); t !== undefined && t <= BigInt(t0) * MS && out.length < max; t = s.next(t)) out.push(Number(t / MS))
  return out
}

function generate(r: Rnd, index: number, t0: number): World {
  const name = `w${index}`
  for (let attempt = 0; ; attempt++) {
    const spec: Json = {schedule: attempt < 60 ? drawSchedule(r) : '@yearly'}
    const zone = pick(r, ZONES)
    if (zone && !spec.schedule.startsWith('@every')) spec.timeZone = zone
    spec.concurrencyPolicy = pick(r, ['Allow', 'Forbid', 'Replace'])
    if (chance(r, 0.1)) spec.suspend = true
    if (chance(r, 0.35)) spec.startingDeadlineSeconds = pick(r, [60, 900, 7200, 200_000])
    if (chance(r, 0.5)) spec.successfulJobsHistoryLimit = int(r, 0, 3)
    if (chance(r, 0.5)) spec.failedJobsHistoryLimit = int(r, 0, 2)
    const s = parsed(spec)
    const every = spec.schedule.startsWith('@every')
    // Past schedule times: from three days back (or, for @every, from a last time drawn first).
    let lastMs: number | undefined
    let fires: number[]
    if (every) {
      lastMs = Math.floor((t0 - int(r, 30, 3 * 24 * 60) * MIN) / 1000) * 1000
      fires = firesBefore(s, lastMs, t0)
    } else {
      fires = firesBefore(s, t0 - (chance(r, 0.15) ? 200 : 3 * 24) * 60 * MIN, t0)
      const lastChoice = pick(r, ['none', 'fire', 'back', 'back', 'back', 'random', 'random'] as const)
      if (lastChoice === 'fire' && fires.length > 0) lastMs = fires[fires.length - 1]
      else if (lastChoice === 'back' && fires.length > 1) lastMs = fires[fires.length - 1 - int(r, 1, Math.min(3, fires.length - 1))]
      else if (lastChoice === 'random') lastMs = Math.floor((t0 - int(r, 20, 3 * 24 * 60) * MIN) / 1000) * 1000
    }
    const last = lastMs === undefined ? undefined : iso(lastMs)
    if (!stable(spec, last, t0)) continue
    const jobs: JobSpec[] = []
    const names = new Set<string>()
    const add = (j: JobSpec) => {
      if (names.has(j.name)) return
      names.add(j.name)
      jobs.push(j)
    }
    const runs = fires.filter((f) => lastMs === undefined || f <= lastMs).slice(-int(r, 0, 4))
    for (const at of runs) {
      const state = pick(r, ['running', 'running', 'unstarted', 'complete', 'complete', 'failed'] as const)
      const finished = state === 'complete' || state === 'failed'
      add({name: `${name}-${Math.floor(at / MIN)}`, state, at, owner: 'mine', listed: chance(r, finished ? 0.3 : 0.75)})
    }
    if (chance(r, 0.2)) add({name: `${name}-manual`, state: pick(r, ['complete', 'failed'] as const), at: t0 - int(r, 60, 600) * MIN, owner: 'mine', listed: false})
    // The due run's name, held already.
    const due = mostRecentScheduleTime(view(spec, t0), last, BigInt(t0) * MS, s, true).time
    if (due !== undefined && chance(r, 0.45)) {
      const at = Number(due / MS)
      const owner = pick(r, ['mine', 'mine', 'mine', 'other', 'none'] as const)
      add({name: `${name}-${Math.floor(at / MIN)}`, state: pick(r, ['running', 'running', 'unstarted', 'complete', 'failed'] as const), at, owner, listed: owner === 'mine' && chance(r, 0.2)})
    }
    const missing = chance(r, 0.15) ? [`${name}-gone`] : []
    return {index, name, spec, lastScheduleTime: last, jobs, missing}
  }
}

async function build(ns: string, w: World): Promise<void> {
  const cj = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/cronjobs`, {
    body: {apiVersion: 'batch/v1', kind: 'CronJob', metadata: {name: w.name}, spec: {jobTemplate: {spec: JOB_SPEC}, ...w.spec}},
  })
  const active: Json[] = []
  for (const j of w.jobs) {
    const owners =
      j.owner === 'mine'
        ? [{apiVersion: 'batch/v1', kind: 'CronJob', name: w.name, uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true}]
        : j.owner === 'other'
          ? [{apiVersion: 'batch/v1', kind: 'CronJob', name: 'someone-else', uid: '0d1f0c2e-0000-4000-8000-000000000001', controller: true}]
          : undefined
    const job = await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {body: {apiVersion: 'batch/v1', kind: 'Job', metadata: {name: j.name, ...(owners ? {ownerReferences: owners} : {})}, spec: JOB_SPEC}})
    if (j.state !== 'unstarted') {
      const start = iso(j.at + 1000)
      const end = iso(j.at + MIN)
      const cond = (type: string) => ({type, status: 'True', lastProbeTime: end, lastTransitionTime: end, reason: j.state === 'complete' ? 'CompletionsReached' : 'BackoffLimitExceeded', message: 'as the job controller writes it'})
      const status =
        j.state === 'running'
          ? {startTime: start, active: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}}
          : j.state === 'complete'
            ? {startTime: start, completionTime: end, succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [cond('SuccessCriteriaMet'), cond('Complete')]}
            : {startTime: start, failed: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [cond('FailureTarget'), cond('Failed')]}
      await apiOk('PUT', `/apis/batch/v1/namespaces/${ns}/jobs/${j.name}/status`, {body: {...job, status}})
    }
    if (j.listed) active.push({apiVersion: 'batch/v1', kind: 'Job', name: j.name, namespace: ns, uid: job.metadata.uid})
  }
  for (const name of w.missing) active.push({apiVersion: 'batch/v1', kind: 'Job', name, namespace: ns, uid: `0d1f0c2e-0000-4000-8000-${String(w.index).padStart(12, '0')}`})
  const status = {...(w.lastScheduleTime ? {lastScheduleTime: w.lastScheduleTime} : {}), ...(active.length > 0 ? {active} : {})}
  if (Object.keys(status).length > 0) await apiOk('PATCH', `/apis/batch/v1/namespaces/${ns}/cronjobs/${w.name}/status`, {contentType: 'application/merge-patch+json', body: {status}})
}

/** JSON with its keys sorted, to compare objects whatever order their fields came in. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))
const statusView = (s: Json = {}) => ({active: (s.active ?? []).map((x: Json) => x.name), lastScheduleTime: s.lastScheduleTime, lastSuccessfulTime: s.lastSuccessfulTime})

/** What the controller did to one CronJob's world, in the plan's terms. */
function observed(name: string, before: Map<string, Json>, after: Map<string, Json>, status: Json): Json {
  const mine = (m: Map<string, Json>) => [...m.keys()].filter((n) => n.startsWith(`${name}-`)).sort()
  // By uid: a Job the history limit deletes can be created again under the same name in one sync.
  const same = (a: Map<string, Json>, b: Map<string, Json>, n: string) => a.get(n)?.metadata.uid === b.get(n)?.metadata.uid
  const created = mine(after).filter((n) => !same(after, before, n))
  return {
    created: created.map((n) => ({name: n, annotations: after.get(n)!.metadata.annotations, owner: after.get(n)!.metadata.ownerReferences})),
    deleted: mine(before).filter((n) => !same(before, after, n)),
    status: statusView(status),
  }
}

function predicted(cp: Json, statusBefore: Json): Json {
  const write = cp.actions.find((a: Json) => a.type === 'updateStatus')
  return {
    created: cp.actions.filter((a: Json) => a.type === 'createJob').sort((a: Json, b: Json) => (a.name < b.name ? -1 : 1)).map((a: Json) => ({name: a.name, annotations: a.annotations, owner: [a.ownerReference]})),
    deleted: cp.actions.filter((a: Json) => a.type === 'deleteJob').map((a: Json) => a.name).sort(),
    status: statusView(write ? write.to : statusBefore),
  }
}

const tally = {worlds: 0, agree: 0, created: 0, deleted: 0, writes: 0, refused: 0, disagreements: [] as string[]}

describe(`random CronJob worlds (seed ${SEED}, ${COUNT} worlds) against the cronjob controller`, () => {
  afterAll(async () => {
    await controllerManager.stop()
  })

  for (let first = 0; first < COUNT; first += BATCH) {
    const last = Math.min(COUNT, first + BATCH)
    it(`worlds ${first}–${last - 1}: every CronJob's writes are its plan's`, async () => {
      // This batch's own disagreements: the tally runs across batches.
      const disagreedBefore = tally.disagreements.length
      await controllerManager.stop()
      const ns = await newNamespace('cronrand')
      const t0 = Date.now()
      const worlds: World[] = []
      for (let i = first; i < last; i++) worlds.push(generate(prng(SEED * 7919 + i), i, t0))
      // Built ten at a time: the API server takes them in parallel.
      for (let i = 0; i < worlds.length; i += 10) await Promise.all(worlds.slice(i, i + 10).map((w) => build(ns, w)))
      expect(Date.now() - t0, 'the worlds are built within their margin').toBeLessThan(MARGIN / 2)
      const jobsNow = async () => new Map<string, Json>((await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/jobs`)).items.map((j: Json) => [j.metadata.name, j]))
      const cronJobsNow = async () => new Map<string, Json>((await apiOk('GET', `/apis/batch/v1/namespaces/${ns}/cronjobs`)).items.map((c: Json) => [c.metadata.name, c]))
      const before = await jobsNow()
      const statusBefore = new Map([...(await cronJobsNow())].map(([n, c]) => [n, c.status]))
      const plan = await planJson(['-n', ns, '--now', new Date().toISOString()])
      const plans = new Map<string, Json>(plan.controllers.filter((c: Json) => c.kind === 'CronJob').map((c: Json) => [c.name, c]))
      expect(plans.size).toBe(worlds.length)
      const want = new Map(worlds.map((w) => [w.name, predicted(plans.get(w.name)!, statusBefore.get(w.name))]))
      await controllerManager.start(['cronjob'])
      let got = new Map<string, Json>()
      const look = async () => {
        const after = await jobsNow()
        const cjs = await cronJobsNow()
        got = new Map(worlds.map((w) => [w.name, observed(w.name, before, after, cjs.get(w.name)!.status)]))
        return worlds.every((w) => canon(got.get(w.name)) === canon(want.get(w.name)))
      }
      try {
        const t1 = Date.now()
        // Until every world is as planned, then 3 s more for anything unplanned to show.
        await waitUntil(async () => (await look()) && Date.now() - t1 > 3000, {what: 'the cronjob controller to do what the plans say', timeoutMs: 30_000}).catch(() => {})
        await look()
      } finally {
        await controllerManager.stop()
      }
      for (const w of worlds) {
        const cp = plans.get(w.name)!
        tally.worlds++
        tally.created += want.get(w.name)!.created.length
        tally.deleted += want.get(w.name)!.deleted.length
        if (cp.actions.some((a: Json) => a.type === 'updateStatus')) tally.writes++
        if (cp.requeue?.reason === 'retries-until-next-schedule') tally.refused++
        if (canon(got.get(w.name)) === canon(want.get(w.name))) tally.agree++
        else
          tally.disagreements.push(
            `world ${w.index} (replay: KCTL_ORACLE_SEED=${SEED} KCTL_ORACLE_COUNT=${w.index + 1} npx vitest run --project e2e test/e2e/cronjob-random.e2e.test.ts)\n` +
              `  world: ${JSON.stringify(w)}\n  planned: ${JSON.stringify(want.get(w.name))}\n  controller: ${JSON.stringify(got.get(w.name))}\n  plan: ${cp.rolloutStep ?? ''} ${JSON.stringify(cp.warnings)}`,
          )
      }
      await api('DELETE', `/apis/batch/v1/namespaces/${ns}/cronjobs?propagationPolicy=Background`).catch(() => {})
      await api('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs?propagationPolicy=Background`).catch(() => {})
      await api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})
      process.stderr.write(
        `[cronjob-random] seed ${SEED}: ${tally.agree}/${tally.worlds} worlds agree (${tally.created} Jobs created, ${tally.deleted} deleted, ${tally.writes} status writes, ${tally.refused} refused creates)\n`,
      )
      const mine = tally.disagreements.slice(disagreedBefore)
      expect(mine, mine.join('\n')).toEqual([])
    }, 600_000)
  }
})
