// User input echoed back in a message (a value in quotes, a path, a line of a file) is cut at 200
// characters: a 5 MB line of YAML is named, not printed again whole.

export const ECHO_LIMIT = 200

/** `"…"` strings and unbroken runs longer than `limit` characters, cut, with their full length. */
export function cutEchoes(message: string, limit = ECHO_LIMIT): string {
  if (message.length <= limit) return message
  return message
    .replace(/"((?:[^"\\]|\\.)*)"/g, (whole, body: string) => (body.length > limit ? `"${head(body, limit)}…" (${body.length} characters)` : whole))
    .replace(new RegExp(`[^\\s"…]{${limit + 1},}`, 'g'), (whole) => {
      // The punctuation that ends a run (`path:`) is the message's, not the echo's.
      const [, run, end] = /^([\s\S]*?)([:;,.)]?)$/.exec(whole)!
      return run.length > limit ? `${head(run, limit)}… (${run.length} characters)${end}` : whole
    })
}

/** The first `n` characters, never half of a surrogate pair. */
function head(text: string, n: number): string {
  const cut = text.slice(0, n)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}
