// Array equality by item: what the check engine compares paths with, and overlapping-selectors the
// controllers constraining a label key.

/** Whether `a` and `b` hold the same items (===) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
