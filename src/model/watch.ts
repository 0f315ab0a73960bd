// What `kctl watch` reports: plan changes and the state of the watch itself. The wire form of
// both (NDJSON, `kctl/v1alpha1`) is made in render/watch-ndjson.ts.
import type {ControllerPlan} from './plan.js'

/**
 * What made kctl plan a controller again. `type` is the watch event's (ADDED, MODIFIED, DELETED)
 * for a change to an object (`relist: true` when a relist found it rather than the watch);
 * INITIAL for the first plan once the caches synced; RESYNC for --resync; CLOCK when the clock
 * alone changes the plan (a pod passing minReadySeconds); FILE for a fixture file that changed.
 */
export interface WatchCause {
  type: 'INITIAL' | 'ADDED' | 'MODIFIED' | 'DELETED' | 'RESYNC' | 'CLOCK' | 'FILE'
  /** The object: Pod, ReplicaSet, ReplicationController, or File. */
  kind?: string
  namespace?: string
  name?: string
  resourceVersion?: string
  relist?: true
}

/** The plan of one controller changed (or it stopped being planned: `next` undefined). */
export interface PlanChange {
  kind: 'PlanChange'
  /** When kctl planned it (RFC 3339); also the plan's clock unless --now fixed it. */
  time: string
  /** The clock the plan used (RFC 3339). */
  now: string
  event: WatchCause
  /** `Kind/namespace/name`. */
  key: string
  previous?: ControllerPlan
  next?: ControllerPlan
  /** Fields of the controller's row that changed: desired, active, ready, diff, actions, warnings, status. */
  changed: ChangedField[]
}

export type ChangedField = 'desired' | 'active' | 'ready' | 'diff' | 'actions' | 'pending' | 'status' | 'warnings' | 'other'

export type WatchStatusType =
  /** Every cache listed; planning starts. */
  | 'synced'
  /** A watch could not resume (410 Gone): the resource was listed again. */
  | 'relisted'
  /** A watch broke; kctl retries after `retryInMs`. */
  | 'disconnected'
  /** A watch resumed from the last resourceVersion after a break. */
  | 'reconnected'
  /** --resync: every controller is planned again. */
  | 'resync'
  /** Something went wrong that kctl carries on after (a fixture that does not parse, a plan that threw). */
  | 'error'
  /** --until-converged: every controller is in sync. */
  | 'converged'
  /** --timeout ran out. */
  | 'timeout'

export interface WatchStatus {
  kind: 'WatchStatus'
  time: string
  status: WatchStatusType
  /** pods, replicasets, replicationcontrollers (or files, for fixtures). */
  resource?: string
  resourceVersion?: string
  message?: string
  retryInMs?: number
  /** Counts at this point: controllers watched, in sync. */
  controllers?: number
  inSync?: number
  /** For `relisted`: what the relist found changed. */
  added?: number
  updated?: number
  deleted?: number
  /** For `timeout`: the controllers still not in sync (Kind/namespace/name). */
  pending?: string[]
}

export type WatchUpdate = PlanChange | WatchStatus

export type WatchEnd = 'converged' | 'timeout' | 'interrupted'

export interface WatchOutcome {
  end: WatchEnd
  /** The plans of the controllers not in sync when the watch ended. */
  pending: ControllerPlan[]
  controllers: number
}
