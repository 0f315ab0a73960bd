// A CronJob's timeline in the Simulation document (model/simulation.ts joins the controllers' timelines).
import type {DeleteJobAction} from '../job/model.js'

/** One CronJob over the simulation: the Jobs it started, the runs it skipped, the Jobs it deleted. */
export interface CronJobTimeline {
  namespace: string
  name: string
  schedule: string
  timeZone?: string
  concurrencyPolicy: string
  runs: Array<{time: string; offsetSeconds: number; scheduledTime: string; job: string}>
  /**
   * Schedule times not started when due (concurrencyPolicy Forbid with a Job running). Without a
   * startingDeadlineSeconds the latest one starts late, when the running Job finishes: `startedAs` names it.
   */
  skipped: Array<{time: string; offsetSeconds: number; scheduledTime: string; reason: string; startedAs?: {job: string; offsetSeconds: number}}>
  deleted: Array<{time: string; offsetSeconds: number; job: string; reason: DeleteJobAction['reason']}>
  final: {active: string[]; lastScheduleTime?: string; lastSuccessfulTime?: string}
}
