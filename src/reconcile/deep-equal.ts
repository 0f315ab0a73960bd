/** Structural equality of plain data; a key holding undefined equals a missing key. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    if (a.length !== bb.length) return false
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false
    return true
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  for (const k in ao) if (ao[k] !== undefined && !deepEqual(ao[k], bo[k])) return false
  for (const k in bo) if (bo[k] !== undefined && ao[k] === undefined) return false
  return true
}
