// Small helpers the simulation's loop and its StatefulSet/DaemonSet counting share.

/** Appends to the list under `key`, starting one when there is none. */
export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** Strings by code unit, as Go's sort compares them. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
