// The Simulation document: a rollout's whole timeline as `kctl simulate` runs it in virtual time.
import type {DeploymentCondition, PlanSource} from './objects.js'
import type {Action, ControllerKind} from './plan.js'
import {PLAN_API_VERSION} from './plan.js'

export const SIMULATION_KIND = 'Simulation'

/** Pods and ReplicaSet sizes of one Deployment (or of a ReplicaSet without one) at an instant. */
export interface WorldCounts {
  /** spec.replicas of each ReplicaSet, oldest first. */
  replicaSets: Array<{name: string; replicas: number}>
  pods: {
    /** Not terminating. */
    total: number
    ready: number
    /** Ready for the ReplicaSet's minReadySeconds. */
    available: number
    terminating: number
  }
}

/** One controller's sync that changed the world. */
export interface SimulationStep {
  /** RFC 3339, virtual. */
  time: string
  /** Seconds since the start. */
  offsetSeconds: number
  /** The round of syncs it belongs to (all controllers with work, planned from one view of the world). */
  round: number
  controller: {kind: ControllerKind; namespace: string; name: string}
  /** The Deployment the controller belongs to (itself, or its ReplicaSet's owner). */
  deployment?: string
  /** The actions carried out, as `kctl plan -o json` prints them (a delete with its reasons); a create also names the pod it made. */
  actions: Array<Action & {pod?: string}>
  /** The Deployment's (or the lone ReplicaSet's) pods and ReplicaSets after the round; a Job's pods (no ReplicaSets). */
  counts: WorldCounts
  /** The CronJob the controller belongs to (itself, or its Job's owner): the chain CronJob → Job → pods. */
  cronJob?: string
  /** A Job's counts after the round. */
  job?: {active: number; succeeded: number; failed: number}
}

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
  deleted: Array<{time: string; offsetSeconds: number; job: string; reason: 'replace' | 'history-limit'}>
  final: {active: string[]; lastScheduleTime?: string; lastSuccessfulTime?: string}
}

export interface DeploymentTimeline {
  namespace: string
  name: string
  replicas: number
  strategy: string
  /** What the strategy promises: at least `minAvailable` available, at most `maxPods` pods. */
  bounds: {minAvailable: number; maxPods: number; maxSurge: number; maxUnavailable: number}
  /**
   * What the simulation went through. Availability below the bound is only a breach when the
   * Deployment started above it (a new Deployment starts with none).
   */
  observed: {startAvailable: number; minAvailable: number; maxPods: number; maxPodsWithTerminating: number}
  steps: number
  /** Seconds from the start to this Deployment's last step. */
  durationSeconds: number
  final: {
    replicaSets: Array<{name: string; replicas: number; revision?: string}>
    revision?: string
    replicasStatus: {replicas: number; updated: number; ready: number; available: number}
    conditions: Array<Pick<DeploymentCondition, 'type' | 'status' | 'reason'>>
    /** The rollout's state in a few words, as the plan says it. */
    rollout?: string
  }
}

export interface SimulationSettings {
  readyAfterSeconds: number
  /** How long a Job's pod runs once Ready before it exits (a pod's stage.kctl.io/complete-after overrides it). */
  runForSeconds: number
  /** Absent: each pod's terminationGracePeriodSeconds, capped. */
  terminateAfterSeconds?: number
  terminateCapSeconds: number
  fail: string[]
  untilSeconds?: number
  seed?: string
}

export interface Simulation {
  apiVersion: typeof PLAN_API_VERSION
  kind: typeof SIMULATION_KIND
  start: string
  end: string
  source: PlanSource
  settings: SimulationSettings
  /** What was changed before the first sync (--apply-manifests, --scale, --set-image). */
  changes: string[]
  steps: SimulationStep[]
  deployments: DeploymentTimeline[]
  jobs: JobTimeline[]
  cronJobs: CronJobTimeline[]
  summary: {
    steps: number
    rounds: number
    /** Controller syncs planned (each controller with work in each round). */
    syncs: number
    durationSeconds: number
    /** quiet: nothing left to happen; until: --until was reached first. */
    endedBy: 'quiet' | 'until'
  }
  /** Controllers read but not simulated (StatefulSets and DaemonSets). */
  notSimulated: string[]
  warnings: string[]
}

export {PLAN_API_VERSION}
