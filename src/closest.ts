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

/**
 * Damerau–Levenshtein (adjacent swaps count once: `contianers`), stopping early beyond `limit`.
 * Three rows are kept (a swap looks two back), reused in turn: a schema's unknown field is compared
 * with every field it knows.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  const n = b.length
  let twoBack: number[] = new Array<number>(n + 1).fill(0)
  let above: number[] = new Array<number>(n + 1)
  let row: number[] = new Array<number>(n + 1).fill(0)
  for (let j = 0; j <= n; j++) above[j] = j
  for (let i = 1; i <= a.length; i++) {
    row[0] = i
    let rowMin = i
    const ai = a.charCodeAt(i - 1)
    for (let j = 1; j <= n; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1
      let d = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost)
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, twoBack[j - 2] + 1)
      row[j] = d
      rowMin = Math.min(rowMin, d)
    }
    if (rowMin > limit) return limit + 1
    const spare = twoBack
    twoBack = above
    above = row
    row = spare
  }
  return above[n]
}
