// Did-you-mean: the known name a mistyped one was probably meant to be (a field, a command).

/** The known name a misspelt one was probably meant to be: same letters in another case, or at most two edits away. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  let best: string | undefined
  let bestDistance = Math.min(2, Math.floor(name.length / 3))
  for (const k of known) {
    if (k.toLowerCase() === lower) return k
    const d = editDistance(lower, k.toLowerCase(), bestDistance)
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = k
      bestDistance = d
    }
  }
  return best
}

/** Damerau–Levenshtein (adjacent swaps count once: `contianers`), stopping early beyond `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  const rows: number[][] = [Array.from({length: b.length + 1}, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1)
      row.push(d)
      rowMin = Math.min(rowMin, d)
    }
    if (rowMin > limit) return limit + 1
    rows.push(row)
  }
  return rows[a.length][b.length]
}
