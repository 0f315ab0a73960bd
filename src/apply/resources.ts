// Where the API server serves the objects the executor writes: REST paths, and the resource
// (plural.group) as the API server names it in errors. The controllers' kinds come from their
// parts (`resources`); the objects besides them a sync writes are listed here.
import type {ControllerKind} from '../model/plan.js'
import {CONTROLLERS} from '../controllers/registry.js'
import {type ControllerKey, podsPath, type SideKind} from './pod-control.js'

/** Pods, and the objects a sync writes that are not a controller's: ControllerRevisions and claims. */
const OTHERS: Record<string, {apiPath: string; resource: string}> = {
  Pod: {apiPath: '/api/v1', resource: 'pods'},
  ControllerRevision: {apiPath: '/apis/apps/v1', resource: 'controllerrevisions.apps'},
  PersistentVolumeClaim: {apiPath: '/api/v1', resource: 'persistentvolumeclaims'},
}

function served(kind: string): {apiPath: string; resource: string} {
  const r = OTHERS[kind] ?? CONTROLLERS.map((c) => c.apply?.resources[kind as ControllerKind]).find((x) => x !== undefined)
  if (!r) throw new Error(`internal: no resource for ${kind}`)
  return r
}

/** The resource (plural.group) of a kind, as the API server names it in errors. */
export function resourceName(kind: ControllerKind | SideKind | 'Pod'): string {
  return served(kind).resource
}

/** The collection of `kind` in `namespace`. */
function collectionPath(kind: string, namespace: string): string {
  const {apiPath, resource} = served(kind)
  return `${apiPath}/namespaces/${encodeURIComponent(namespace)}/${resource.split('.')[0]}`
}

/** REST path of a controller (or, with `sub`, one of its subresources). */
export function controllerPath(key: ControllerKey, sub?: string): string {
  return `${collectionPath(key.kind, key.namespace)}/${encodeURIComponent(key.name)}${sub ? `/${sub}` : ''}`
}

/** REST path of a ControllerRevision, claim or Job (or of the collection, without a name). */
export function sidePath(kind: SideKind | 'Pod', namespace: string, name?: string): string {
  if (kind === 'Pod') return podsPath(namespace, name)
  const base = collectionPath(kind, namespace)
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`
}
