// Watch mode's caches over a mutable snapshot, as the informers would hold them, and the
// controllers a namespace watch plans, from the registry.
import {CONTROLLERS} from '../../src/controllers/registry.js'
import type {Snapshot} from '../../src/model/objects.js'
import type {WatchedResource} from '../../src/sources/cluster-watch.js'
import type {NamespaceMember, WatchCaches} from '../../src/watch/part.js'

const FIELDS: Partial<Record<WatchedResource, keyof Snapshot>> = {
  pods: 'pods',
  statefulsets: 'statefulSets',
  daemonsets: 'daemonSets',
  controllerrevisions: 'controllerRevisions',
  persistentvolumeclaims: 'claims',
  nodes: 'nodes',
  jobs: 'jobs',
  cronjobs: 'cronJobs',
  services: 'services',
  endpointslices: 'endpointSlices',
  endpoints: 'endpoints',
  horizontalpodautoscalers: 'hpas',
  deployments: 'deployments',
  replicasets: 'replicaSets',
}

export function snapshotCaches(world: {snapshot: Snapshot}): WatchCaches {
  const all = (resource: WatchedResource) => ((world.snapshot[FIELDS[resource]!] ?? []) as Array<{namespace: string}>)
  return {
    list: <T>(resource: WatchedResource, ns: string) => all(resource).filter((o) => o.namespace === ns) as T[],
    all: <T>(resource: WatchedResource) => all(resource) as T[],
    namespaces: (resource) => new Set(all(resource).map((o) => o.namespace)),
  }
}

/** The registry's controllers of these names, as a namespace watch plans them. */
export function members(...names: string[]): NamespaceMember[] {
  return names.map((name) => {
    const c = CONTROLLERS.find((d) => d.name === name)!
    if (c.watch.by !== 'namespace') throw new Error(`${name} is not planned by namespace`)
    return {name: c.name, kinds: c.kinds, watch: c.watch}
  })
}
