// CronJobs in the simulation: the instants the CronJob controller asks to be woken at (its next
// schedule time), the runs concurrencyPolicy Forbid held back, and the per-CronJob timelines built
// from the steps. Its Jobs and their pods are the Job controller's (../job/simulate.ts).
import type {Snapshot} from '../../model/objects.js'
import type {ReconcilePlan} from '../../model/plan.js'
import type {Simulation, SimulationStep} from '../../model/simulation.js'
import type {CronJobTimeline} from './timeline.js'
import {formatRfc3339} from '../../reconcile/time.js'
import {cmp} from '../../simulate/collections.js'
import type {ControllerSimulation, Described, StepAction, SimulationRun} from '../../simulate/part.js'
import {OBJECT_META, TEMPLATE} from '../../simulate/patch-strategies.js'
import {offset} from '../../simulate/report.js'
import {count} from '../../render/words.js'
import {requeueTimes} from '../job/simulate.js'

/** What the CronJob timelines need beyond the steps: the runs Forbid skipped. */
export class CronJobRun implements SimulationRun {
  private readonly skipped = new Map<string, CronJobTimeline['skipped']>()

  constructor(private readonly start: bigint) {}

  observe(_snapshot: Snapshot, plan: ReconcilePlan, now: bigint): void {
    for (const cp of plan.controllers) {
      if (cp.kind !== 'CronJob' || !cp.scheduledTime || !cp.rolloutStep?.includes('Forbid')) continue
      const list = this.skipped.get(cp.uid) ?? []
      if (list.some((s) => s.scheduledTime === cp.scheduledTime)) continue
      list.push({time: formatRfc3339(now), offsetSeconds: this.offset(now), scheduledTime: cp.scheduledTime, reason: 'concurrencyPolicy Forbid: a Job is running'})
      this.skipped.set(cp.uid, list)
    }
  }

  private offset(t: bigint): number {
    return Number(t - this.start) / 1e9
  }

  timelines(snapshot: Snapshot, _plan: ReconcilePlan, steps: readonly SimulationStep[]): {cronJobs: CronJobTimeline[]} {
    const cronJobs = [...(snapshot.cronJobs ?? [])]
      .sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name))
      .map((cj): CronJobTimeline => {
        const mine = steps.filter((s) => s.controller.kind === 'CronJob' && s.controller.namespace === cj.namespace && s.controller.name === cj.name)
        const runs: CronJobTimeline['runs'] = []
        const deleted: CronJobTimeline['deleted'] = []
        for (const s of mine) {
          for (const a of s.actions) {
            if (a.type === 'createJob') runs.push({time: s.time, offsetSeconds: s.offsetSeconds, scheduledTime: a.scheduledTime, job: a.name})
            if (a.type === 'deleteJob') deleted.push({time: s.time, offsetSeconds: s.offsetSeconds, job: a.name, reason: a.reason})
          }
        }
        return {
          namespace: cj.namespace,
          name: cj.name,
          schedule: cj.schedule,
          ...(cj.timeZone ? {timeZone: cj.timeZone} : {}),
          concurrencyPolicy: cj.concurrencyPolicy,
          runs,
          // A run held back in one round and started in a later round of the same instant was not held back.
          skipped: (this.skipped.get(cj.uid) ?? []).flatMap((x) => {
            const late = runs.find((run) => run.scheduledTime === x.scheduledTime)
            if (late?.offsetSeconds === x.offsetSeconds) return []
            return [late ? {...x, startedAs: {job: late.job, offsetSeconds: late.offsetSeconds}} : x]
          }),
          deleted,
          final: {
            active: cj.status.active.map((r) => r.name),
            ...(cj.status.lastScheduleTime ? {lastScheduleTime: cj.status.lastScheduleTime} : {}),
            ...(cj.status.lastSuccessfulTime ? {lastSuccessfulTime: cj.status.lastSuccessfulTime} : {}),
          },
        }
      })
    return {cronJobs}
  }
}

function cronJobSummary(c: CronJobTimeline): string[] {
  const out = [`CronJob ${c.namespace}/${c.name}  "${c.schedule}"${c.timeZone ? ` (${c.timeZone})` : ''}, ${c.concurrencyPolicy}: ${count(c.runs.length, 'run')}${c.runs.length > 0 ? ` (${c.runs.map((r) => r.job).join(', ')})` : ''}`]
  if (c.skipped.length > 0) out.push(`  held back: ${c.skipped.map((x) => `${x.scheduledTime} (${x.reason}${x.startedAs ? `; started late, ${offset(x.startedAs.offsetSeconds)}, as ${x.startedAs.job}` : '; never started'})`).join(', ')}`)
  if (c.deleted.length > 0) out.push(`  deleted: ${c.deleted.map((x) => `${x.job} (${x.reason === 'replace' ? 'Replace' : 'history limit'})`).join(', ')}`)
  out.push(`  final: active ${c.final.active.length > 0 ? c.final.active.join(', ') : 'none'}${c.final.lastScheduleTime ? `, last scheduled ${c.final.lastScheduleTime}` : ''}${c.final.lastSuccessfulTime ? `, last succeeded ${c.final.lastSuccessfulTime}` : ''}`)
  return out
}

/** Its own actions' lines in the simulation's timeline. */
function describeAction(a: StepAction): Described | undefined {
  switch (a.type) {
    case 'createJob':
      return {sign: '+', text: `create Job ${a.name} (scheduled ${a.scheduledTime})`}
    case 'deleteJob':
      return {sign: '-', text: `delete Job ${a.name} (${a.reason === 'replace' ? 'concurrencyPolicy Replace' : 'beyond the history limit'})`}
    default:
      return undefined
  }
}

/** The CronJob controller in `kctl simulate`. */
export const cronJobSimulation: ControllerSimulation = {
  manifests: {
    CronJob: {group: '/apis/batch/v1', plural: 'cronjobs', patchStrategy: {fields: {metadata: {fields: OBJECT_META}, spec: {fields: {jobTemplate: {fields: {metadata: {fields: OBJECT_META}, spec: {fields: {template: TEMPLATE}}}}}}}}},
  },
  wakeTimes: (_snapshot, plan) => requeueTimes(plan, 'CronJob'),
  // A CronJob's step: its name, no pods of its own (its Jobs' steps count theirs).
  counter: () => (cp) => ({counts: {replicaSets: [], pods: {total: 0, ready: 0, available: 0, terminating: 0}}, cronJob: cp.name}),
  start: ({start}) => new CronJobRun(start),
  report: {
    order: 40,
    summaries: (sim: Simulation) => (sim.cronJobs ?? []).map(cronJobSummary),
    markdown: {
      header: ['| CronJob | schedule | policy | runs | skipped | deleted |', '| --- | --- | --- | --- | --- | --- |'],
      rows: (sim) => (sim.cronJobs ?? []).map((c) => `| ${c.namespace}/${c.name} | \`${c.schedule}\` | ${c.concurrencyPolicy} | ${c.runs.map((r) => `\`${r.job}\``).join(' ')} | ${c.skipped.length} | ${c.deleted.map((d) => `\`${d.job}\``).join(' ')} |`),
    },
  },
  // A CronJob never goes quiet: a simulation without --until stops at a default.
  endless: (snapshot) => (snapshot.cronJobs ?? []).some((cj) => !cj.suspend),
  describe: describeAction,
}
