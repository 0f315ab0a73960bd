// kubectl-style columns: left-aligned, three spaces apart, no borders, no trailing blanks.

export function formatColumns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)))
  return all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('   ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('')
}
