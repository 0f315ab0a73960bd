// A StatefulSet's timeline in the Simulation document (model/simulation.ts joins the controllers' timelines).
import type {RolloutVerdict, WorkloadObserved} from '../../model/simulation.js'

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
  /** How its rollout ended: complete (and when), or stalled. */
  verdict: RolloutVerdict
}
