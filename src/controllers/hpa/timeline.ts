// An HorizontalPodAutoscaler's timeline in the Simulation document (`autoscalers`): what the
// controller did under the --load given, sync by sync, with its memory kept over the run.

/** One point of the replica curve: where the HPA and its target stood after a sync that changed something shown. */
export interface AutoscalerPoint {
  time: string
  offsetSeconds: number
  /** The target's spec.replicas after the sync. */
  replicas: number
  /** status.desiredReplicas after the sync. */
  desired: number
  /** The target's pods that are Ready (they carry the load). */
  ready: number
  /** The demand of the first loaded metric at this instant, as a quantity (`1800m`). */
  demand?: string
  /** What the Ready pods carry at the target (Ready pods × per-pod target), for a metric with a per-pod target. */
  capacity?: string
}

/** A scale write. */
export interface AutoscalerScaleEvent {
  time: string
  offsetSeconds: number
  from: number
  to: number
  /** The rescale reason of the SuccessfulRescale event. */
  reason: string
  /** ScalingLimited's reason when the sync's desired count was held by a limit (TooManyReplicas, ScaleUpLimit, ...). */
  limitedBy?: string
}

/** A stretch of time with a condition: from (inclusive) to (exclusive; absent: still so at the end). */
export interface AutoscalerInterval {
  fromSeconds: number
  toSeconds?: number
}

export interface AutoscalerTimeline {
  namespace: string
  name: string
  target: {kind: string; name: string}
  minReplicas: number
  maxReplicas: number
  /** The --load given for its target: each metric's points (seconds after the start, value; a ramp's start, `rampFromSeconds`). */
  load: Array<{metric: string; points: Array<{atSeconds: number; value: string; rampFromSeconds?: number}>}>
  /** Syncs run (one per sync period). */
  syncs: number
  /** The replica curve: the first sync, and each sync after which replicas, desired or Ready pods changed. */
  curve: AutoscalerPoint[]
  scaleEvents: AutoscalerScaleEvent[]
  /** Stretches with ScalingLimited=True, with its reason and message. */
  scalingLimited: Array<AutoscalerInterval & {reason: string; message: string}>
  /**
   * Unmet demand: the stretches when the demand of `metric` exceeded what the target's Ready pods
   * carry at the HPA's target (Ready pods × per-pod target) by more than the HPA's scale-up
   * tolerance. Absent when no loaded metric has a per-pod target (Object and External metrics).
   */
  unmet?: {metric: string; seconds: number; intervals: AutoscalerInterval[]}
  final: {replicas: number; desired: number; ready: number; conditions: Array<{type: string; status: string; reason?: string}>}
}
