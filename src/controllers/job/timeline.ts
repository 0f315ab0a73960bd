// A Job's timeline in the Simulation document (model/simulation.ts joins the controllers' timelines).

/** One Job over the simulation: its pods in waves (the instants its syncs created them), and how it ended. */
export interface JobTimeline {
  namespace: string
  name: string
  /** The CronJob that created it. */
  cronJob?: string
  completions?: number
  parallelism: number
  completionMode: string
  /** Each instant the Job's sync created pods: how many, and their names. */
  waves: Array<{time: string; offsetSeconds: number; created: number; pods: string[]}>
  /** Pods that ended Succeeded or Failed, and pods the Job deleted. */
  pods: {created: number; succeeded: number; failed: number; deleted: number}
  /** Seconds from its first step to its last. */
  durationSeconds: number
  /** Deleted during the simulation (a CronJob's history limit or Replace): when. */
  deletedAt?: string
  final: {
    active: number
    succeeded: number
    failed: number
    completedIndexes?: string
    conditions: Array<{type: string; status: string; reason?: string}>
    startTime?: string
    completionTime?: string
  }
}
