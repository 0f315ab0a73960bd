// `kctl watch -o json` (and whenever stdout is not a terminal): one JSON object per line
// (`kctl/v1alpha1`): a PlanChange per controller whose plan changed, and WatchStatus lines for
// what happened to the watch itself. A controller's plan is exactly its entry in `kctl plan -o
// json`.
import {PLAN_API_VERSION} from '../model/plan.js'
import type {PlanChange, WatchCause, WatchStatus, WatchUpdate} from '../model/watch.js'
import {controllerToWire} from './wire.js'

type Json = ReturnType<typeof controllerToWire>

function defined(entries: Array<[string, unknown]>): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const [k, v] of entries) if (v !== undefined) out[k] = v as Json
  return out
}

function cause(c: WatchCause): Json {
  return defined([
    ['type', c.type],
    ['kind', c.kind],
    ['namespace', c.namespace],
    ['name', c.name],
    ['resourceVersion', c.resourceVersion],
    ['relist', c.relist],
  ])
}

/**
 * `{apiVersion, kind: PlanChange, time, event, controller, inSync, changed, now}`; for a controller
 * that is gone (deleted, or no longer matching -l): `removed: true` and only its identity.
 */
export function planChangeToWire(change: PlanChange): Json {
  const plan = change.next
  const gone = change.previous!
  return defined([
    ['apiVersion', PLAN_API_VERSION],
    ['kind', 'PlanChange'],
    ['time', change.time],
    ['event', cause(change.event)],
    [
      'controller',
      plan
        ? controllerToWire(plan, change.now)
        : {kind: gone.kind, apiVersion: gone.apiVersion, namespace: gone.namespace, name: gone.name, uid: gone.uid},
    ],
    ['inSync', plan ? plan.inSync : true],
    ['removed', plan ? undefined : true],
    ['changed', change.changed],
    ['now', change.now],
  ])
}

export function watchStatusToWire(s: WatchStatus): Json {
  return defined([
    ['apiVersion', PLAN_API_VERSION],
    ['kind', 'WatchStatus'],
    ['time', s.time],
    ['status', s.status],
    ['resource', s.resource],
    ['resourceVersion', s.resourceVersion],
    ['message', s.message],
    ['retryInMs', s.retryInMs],
    ['controllers', s.controllers],
    ['inSync', s.inSync],
    ['added', s.added],
    ['updated', s.updated],
    ['deleted', s.deleted],
    ['pending', s.pending],
  ])
}

/** One NDJSON line (with its newline). */
export function watchUpdateLine(u: WatchUpdate): string {
  return `${JSON.stringify(u.kind === 'PlanChange' ? planChangeToWire(u) : watchStatusToWire(u))}\n`
}
