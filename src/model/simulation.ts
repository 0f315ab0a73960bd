// The Simulation document: a rollout's whole timeline as `kctl simulate` runs it in virtual time.
import type {PlanSource} from './objects.js'
import type {Action, ControllerKind} from './plan.js'
import type {CronJobTimeline} from '../controllers/cronjob/timeline.js'
import type {AutoscalerTimeline} from '../controllers/hpa/timeline.js'
import type {DaemonSetTimeline} from '../controllers/daemonset/timeline.js'
import type {DeploymentTimeline} from '../controllers/deployment/timeline.js'
import type {JobTimeline} from '../controllers/job/timeline.js'
import type {StatefulSetTimeline} from '../controllers/statefulset/timeline.js'
import {PLAN_API_VERSION} from './plan.js'

export const SIMULATION_KIND = 'Simulation'

// Each controller's timeline is its own (src/controllers/<name>/timeline.ts); the document joins them.
export type {AutoscalerTimeline, CronJobTimeline, DaemonSetTimeline, DeploymentTimeline, JobTimeline, StatefulSetTimeline}
export type {StatefulPodFinal} from '../controllers/statefulset/timeline.js'

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

/**
 * How a workload's rollout ended in the simulation (simulate/verdict.ts): `complete` as
 * `kubectl rollout status` reads the status, `stalled` (not complete when nothing was left to
 * happen, or at --until), or `progressDeadlineExceeded` (a Deployment's Progressing=False).
 */
export interface RolloutVerdict {
  result: 'complete' | 'stalled' | 'progressDeadlineExceeded'
  /** Seconds from the start when the rollout completed (and stayed complete). */
  completeAtSeconds?: number
  /** Seconds from the start when its last terminating pod was gone, when later than completion. */
  podsGoneAtSeconds?: number
  /** Seconds from the start when the Deployment reported ProgressDeadlineExceeded. */
  deadlineExceededAtSeconds?: number
  /** The bounds it broke, each in a few words (`max pods 6 > 5`); empty when it kept them. */
  boundsBroken: string[]
  /** The verdict in one line, as the table prints it. */
  text: string
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
  /** --load, as given. */
  loads?: string[]
  /** --max-unmet, in seconds. */
  maxUnmetSeconds?: number
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
  /** The HorizontalPodAutoscalers run under --load (present only then). */
  autoscalers?: AutoscalerTimeline[]
  summary: {
    steps: number
    rounds: number
    /** Controller syncs planned (each controller with work in each round). */
    syncs: number
    durationSeconds: number
    /** quiet: nothing left to happen; until: --until was reached first. */
    endedBy: 'quiet' | 'until'
    /** The workloads (`Deployment ns/name`) whose rollout did not complete within its bounds: what --detailed-exitcode exits 3 for. */
    incomplete: string[]
    /** With --max-unmet: the autoscalers (`HorizontalPodAutoscaler ns/name`) whose demand went unmet longer than that (--detailed-exitcode exits 3 for them too). */
    unmet?: string[]
  }
  /**
   * Objects read whose controllers `kctl simulate` does not run (Services: the endpoint, EndpointSlice
   * and load-balancer controllers; HorizontalPodAutoscalers), each with the reason and what `kctl plan` plans for it now.
   */
  notSimulated: string[]
  warnings: string[]
}

export {PLAN_API_VERSION}
