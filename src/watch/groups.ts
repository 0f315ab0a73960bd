// What a live `kctl watch` starts, from the registry: each controller in the registry's order,
// with the controllers planned with it (their watch parts' `plannedWith`) — its informers, in the
// order they start, what it must be allowed to list, and what a refusal leaves out.
import {CONTROLLERS} from '../controllers/registry.js'
import type {WatchedResource} from '../sources/cluster-watch.js'
import type {NamespaceMember, ObjectWatchPart, WatchedResourcePart} from './part.js'

interface GroupCommon {
  /** Its controllers' own resources, as a refusal names them (`<what> are left out: …`). */
  what: string
  /** What it must be allowed to list: the first refused (403) leaves it out. */
  requires: WatchedResource[]
  /** Its informers, in the order they start: its controllers' own kinds, then what their syncs read. */
  resources: WatchedResourcePart[]
}

export type WatchGroup = (GroupCommon & {by: 'object'; part: ObjectWatchPart}) | (GroupCommon & {by: 'namespace'; members: NamespaceMember[]})

export function watchGroups(): WatchGroup[] {
  const groups: WatchGroup[] = []
  // A planOnly controller without a watch part is not watched.
  const watched = CONTROLLERS.flatMap((c) => (c.watch ? [{...c, watch: c.watch}] : []))
  for (const c of watched) {
    if (c.watch.by === 'namespace' && c.watch.plannedWith !== undefined) continue
    const members = [c, ...watched.filter((o) => o.watch.by === 'namespace' && o.watch.plannedWith === c.name)]
    const what = names(members.flatMap((m) => m.watch.resources.map((r) => r.resource)))
    const requires = members.flatMap((m) => m.watch.requires ?? [])
    if (c.watch.by === 'object') {
      groups.push({by: 'object', what, requires, resources: [...c.watch.resources], part: c.watch})
      continue
    }
    const planned = members.flatMap((m) => (m.watch.by === 'namespace' ? [{name: m.name, kinds: m.kinds, watch: m.watch}] : []))
    const resources = new Map<string, WatchedResourcePart>()
    for (const r of [...planned.flatMap((m) => m.watch.resources), ...planned.flatMap((m) => m.watch.reads)]) if (!resources.has(r.resource)) resources.set(r.resource, r)
    groups.push({by: 'namespace', what, requires, resources: [...resources.values()], members: planned})
  }
  return groups
}

/** `a`, `a and b`, `a, b and c`. */
function names(list: readonly string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`
}
