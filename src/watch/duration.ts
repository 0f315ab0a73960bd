// Durations as kubectl's flags take them (Go's time.ParseDuration): `500ms`, `30s`, `5m`,
// `1h30m`, `1.5h`; a unit is required except for `0`.
const UNITS: Record<string, number> = {ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** Milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim()
  if (s === '0') return 0
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy
  let total = 0
  let at = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * UNITS[m[2]]
    at = re.lastIndex
  }
  return at === s.length && at > 0 ? total : undefined
}

/** `2m30s`, `45s`, `1.5s`, `200ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = (ms % 60_000) / 1000
  const sec = Number.isInteger(s) ? String(s) : s.toFixed(1).replace(/\.0$/, '')
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s || (!h && !m) ? `${sec}s` : ''}`
}
