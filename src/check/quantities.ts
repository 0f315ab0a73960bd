// Quantities as the API server stores them, for comparing what is written with what is stored.
import {QuantityError, quantityString, quantityText, storedQuantity} from '../reconcile/hash/quantity.js'
import {isMapping} from './objects.js'

/** resources.requests/limits (and dataSourceRef-free specs) with quantities in canonical form. */
export function quantities(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => quantities(x))
  if (!isMapping(v)) return v
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) {
    if ((key === 'requests' || key === 'limits') && (typeof x === 'string' || typeof x === 'number')) {
      try {
        out[k] = quantityString(storedQuantity(quantityText(x), true))
      } catch (error) {
        if (!(error instanceof QuantityError)) throw error
        out[k] = x
      }
    } else out[k] = quantities(x, k)
  }
  return out
}
