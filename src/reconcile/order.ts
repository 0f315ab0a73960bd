// The order of a plan's controllers (a module of its own, so that controller folders can sort
// without importing the planner, which imports the registry).

/** The order of a plan's controllers: kind, namespace, name. */
export function byKindNamespaceName(a: {kind: string; namespace: string; name: string}, b: {kind: string; namespace: string; name: string}): number {
  return cmp(a.kind, b.kind) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name)
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
