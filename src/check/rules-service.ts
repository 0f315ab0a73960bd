// service-selects-nothing: a Service's selector (an AND of equalities, §5.2) against every pod
// template and Pod of its namespace in the input. Label sets are indexed by label, so each Service
// looks only at the sets that carry its rarest label.
import type {Labels} from '../model/objects.js'
import {describeObject, type Draft} from './draft.js'
import type {CheckObject} from './objects.js'
import {formatLabels} from './selectors.js'

export function serviceDrafts(objects: readonly CheckObject[]): Draft[] {
  const sets = new Map<string, CheckObject[]>() // namespace → objects with pod labels
  for (const o of objects) {
    if (!o.podLabels) continue
    let list = sets.get(o.namespace)
    if (!list) sets.set(o.namespace, (list = []))
    list.push(o)
  }
  const indexes = new Map<string, Map<string, CheckObject[]>>()
  const indexOf = (namespace: string) => {
    let idx = indexes.get(namespace)
    if (idx) return idx
    idx = new Map()
    for (const o of sets.get(namespace) ?? []) {
      for (const [k, v] of Object.entries(o.podLabels!)) {
        const key = `${k}=${v}`
        let list = idx.get(key)
        if (!list) idx.set(key, (list = []))
        list.push(o)
      }
    }
    indexes.set(namespace, idx)
    return idx
  }

  const drafts: Draft[] = []
  for (const svc of objects) {
    const selector = svc.service?.selector
    if (!selector || svc.service!.type === 'ExternalName') continue
    const entries = Object.entries(selector)
    if (entries.length === 0) continue // endpoints managed by hand
    const idx = indexOf(svc.namespace)
    const buckets = entries.map(([k, v]) => idx.get(`${k}=${v}`) ?? [])
    const smallest = buckets.reduce((a, b) => (b.length < a.length ? b : a))
    if (smallest.some((o) => entries.every(([k, v]) => o.podLabels![k] === v))) continue
    drafts.push({
      rule: 'service-selects-nothing',
      message: `selector ${formatLabels(selector)} matches no pod template or pod in namespace ${svc.namespace}: ${closest(selector, buckets, sets.get(svc.namespace)?.length ?? 0)}; the Service would have no endpoints`,
      subject: svc,
      path: ['spec', 'selector'],
      atKey: true,
    })
  }
  return drafts
}

/** The template that comes closest (most of the selector's labels), and what it lacks. */
function closest(selector: Labels, buckets: CheckObject[][], templates: number): string {
  if (templates === 0) return 'the input has none there'
  const score = new Map<CheckObject, number>()
  for (const bucket of buckets) for (const o of bucket) score.set(o, (score.get(o) ?? 0) + 1)
  // Most labels in common; then the values most like the wanted ones (a typo in a name); then input order.
  const likeness = (o: CheckObject) => {
    let n = 0
    for (const [k, v] of Object.entries(selector)) n += commonPrefix(o.podLabels![k] ?? '', v)
    return n
  }
  let best: CheckObject | undefined
  let bestLikeness = -1
  for (const [o, n] of score) {
    const bestScore = best ? score.get(best)! : 0
    if (n < bestScore) continue
    const like = likeness(o)
    if (n > bestScore || like > bestLikeness || (like === bestLikeness && best && o.src.ordinal < best.src.ordinal)) {
      best = o
      bestLikeness = like
    }
  }
  if (!best) return `none of the ${templates} there carries any of these labels`
  const labels = best.podLabels!
  const gaps = Object.entries(selector)
    .filter(([k, v]) => labels[k] !== v)
    .map(([k, v]) => (labels[k] === undefined ? `lacks ${k}=${v}` : `has ${k}=${labels[k]}, not ${k}=${v}`))
  const whose = best.kind === 'Pod' ? `pod ${best.name}` : `the template of ${describeObject(best)}`
  return `closest is ${whose}, which ${gaps.join(' and ')}`
}

function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}
