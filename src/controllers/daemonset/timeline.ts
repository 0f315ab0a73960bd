// A DaemonSet's timeline in the Simulation document (model/simulation.ts joins the controllers' timelines).
import type {RolloutVerdict, WorkloadObserved} from '../../model/simulation.js'

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
  /** How its rollout ended: complete (and when), or stalled. */
  verdict: RolloutVerdict
}
