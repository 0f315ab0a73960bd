// The Simulation document: a rollout's whole timeline as `kctl simulate` runs it in virtual time.
import type {DeploymentCondition, PlanSource} from './objects.js'
import type {DeleteJobAction} from '../controllers/cronjob/model.js'
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
  /** A StatefulSet's or DaemonSet's pods (not terminating) by revision, oldest revision first. */
  revisions?: Array<{name: string; pods: number}>
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
  /** The Deployment the controller belongs to (itself, or its ReplicaSet's owner); absent for a StatefulSet or DaemonSet (the controller is the set). */
  deployment?: string
  /** The actions carried out, as `kctl plan -o json` prints them (a delete with its reasons); a create also names the pod it made. */
  actions: Array<Action & {pod?: string; chosen?: string[]; pods?: string[]}>
  /** The Deployment's (or the lone ReplicaSet's, or the StatefulSet's or DaemonSet's) pods and ReplicaSets or revisions after the round; a Job's pods (no ReplicaSets). */
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
  deleted: Array<{time: string; offsetSeconds: number; job: string; reason: DeleteJobAction['reason']}>
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

/** What a StatefulSet's or DaemonSet's rollout went through, at the instants the simulation looked. */
export interface WorkloadObserved {
  startAvailable: number
  /** Pods (not terminating) at the start: a set scaling down starts above its bound. */
  startPods: number
  minAvailable: number
  /** Pods not terminating. */
  maxPods: number
  maxPodsWithTerminating: number
}

/** A StatefulSet pod at the end, in ordinal order. */
export interface StatefulPodFinal {
  name: string
  revision: string
  ready: boolean
}

export interface StatefulSetTimeline {
  namespace: string
  name: string
  replicas: number
  podManagementPolicy: 'OrderedReady' | 'Parallel'
  /** RollingUpdate or OnDelete. */
  strategy: string
  /** RollingUpdate: ordinals below it keep the current revision. */
  partition?: number
  /**
   * What the controller promises: at least `minAvailable` available during a rolling update
   * (replicas − maxUnavailable: 1 unless the MaxUnavailableStatefulSet gate is on), never more
   * pods than `maxPods` (a StatefulSet never surges), and with OrderedReady at most
   * `maxInFlight` (1) pods unavailable or terminating at once.
   */
  bounds: {minAvailable: number; maxPods: number; maxUnavailable: number; maxInFlight: number}
  observed: WorkloadObserved & {maxInFlight: number}
  steps: number
  /** Seconds from the start to this StatefulSet's last step. */
  durationSeconds: number
  final: {
    currentRevision: string
    updateRevision: string
    /** Its ControllerRevisions by number, oldest first. */
    revisions: Array<{name: string; revision: number}>
    pods: StatefulPodFinal[]
    /** The PersistentVolumeClaims named after its claim templates and ordinals, by name. */
    claims: string[]
    replicasStatus: {replicas: number; ready: number; current: number; updated: number; available: number}
    rollout?: string
  }
}

export interface DaemonSetTimeline {
  namespace: string
  name: string
  /** Nodes that should run its pod (at the end). */
  desiredNodes: number
  /** RollingUpdate or OnDelete. */
  strategy: string
  /**
   * What the rolling update promises, against the desired nodes: at least `minAvailable`
   * (desired − maxUnavailable) available, at most `maxPods` (desired + maxSurge) pods, and on one
   * node at most `maxPodsPerNode` (2 with a surge, else 1; terminating pods not counted).
   */
  bounds: {minAvailable: number; maxPods: number; maxSurge: number; maxUnavailable: number; maxPodsPerNode: number}
  observed: WorkloadObserved & {maxPodsPerNode: number}
  steps: number
  durationSeconds: number
  final: {
    /** The revision of its current template. */
    updateRevision?: string
    revisions: Array<{name: string; revision: number}>
    /** Per node with a pod, by node name: the revision of each of its pods. */
    nodes: Array<{node: string; revisions: string[]}>
    replicasStatus: {desired: number; current: number; updated: number; ready: number; available: number; misscheduled: number}
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
  statefulSets: StatefulSetTimeline[]
  daemonSets: DaemonSetTimeline[]
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
  /** Controllers read but not simulated (none since StatefulSets and DaemonSets are). */
  notSimulated: string[]
  warnings: string[]
}

export {PLAN_API_VERSION}
