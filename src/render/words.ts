// Small word helpers shared by the human renderers. Pure: no clock, no environment.

/** `1 pod`, `2 pods`; `plural` defaults to `singular + 's'`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`
}

/** `+2`, `-1`, `0`: a diff as upstream's `len(activePods) - replicas`, sign always shown. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n)
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(items: readonly string[], last = 'and'): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`
}

/**
 * A duration the way kubectl prints ages (k8s.io/apimachinery/pkg/util/duration.HumanDuration):
 * `45s`, `3m20s`, `12m`, `5h30m`, `20h`, `3d4h`, `40d`, `2y30d`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 60 * 2) return `${seconds}s`
  const minutes = Math.trunc(seconds / 60)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 60 * 3) return `${minutes}m`
  const hours = Math.trunc(minutes / 60)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  if (hours < 24 * 365 * 8) {
    const d = Math.trunc(hours / 24) % 365
    const y = Math.trunc(hours / 24 / 365)
    return d === 0 ? `${y}y` : `${y}y${d}d`
  }
  return `${Math.trunc(hours / 24 / 365)}y`
}

/** How long before `now` the RFC 3339 time `then` was, as kubectl prints ages; undefined if unparsable. */
export function age(then: string | undefined, now: string): string | undefined {
  if (!then) return undefined
  const a = Date.parse(then)
  const b = Date.parse(now)
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined
  return humanDuration(b - a)
}
