// A Deployment's timeline in the Simulation document (model/simulation.ts joins the controllers' timelines).
import type {DeploymentCondition} from '../../model/objects.js'
import type {RolloutVerdict} from '../../model/simulation.js'

export interface DeploymentTimeline {
  namespace: string
  name: string
  replicas: number
  strategy: string
  /** What the strategy promises: at least `minAvailable` available, at most `maxPods` pods. */
  bounds: {minAvailable: number; maxPods: number; maxSurge: number; maxUnavailable: number}
  /**
   * What the simulation went through. Availability below the bound is only a breach when the
   * Deployment started above it (a new Deployment starts with none); so are more pods than the
   * bound only when it started with fewer (`startPods`: pods not terminating at the start).
   */
  observed: {startAvailable: number; minAvailable: number; maxPods: number; maxPodsWithTerminating: number; startPods: number}
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
  /** How its rollout ended: complete (and when), stalled, or ProgressDeadlineExceeded. */
  verdict: RolloutVerdict
}
