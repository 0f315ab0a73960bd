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
  /** The Deployment's (or the lone ReplicaSet's) pods and ReplicaSets after the round. */
  counts: WorldCounts
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
