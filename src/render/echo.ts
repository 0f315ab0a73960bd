// User input echoed back in a message (a value in quotes, a path, a line of a file) is cut at 200
// characters: a 5 MB line of YAML is named, not printed again whole.

export const ECHO_LIMIT = 200

/** `"…"` strings and unbroken runs longer than `limit` characters, cut, with their full length. */
export function cutEchoes(message: string, limit = ECHO_LIMIT): string {
  if (message.length <= limit || !mayEcho(message, limit)) return message
  return message
    .replace(/"((?:[^"\\]|\\.)*)"/g, (whole, body: string) => (body.length > limit ? `"${head(body, limit)}…" (${body.length} characters)` : whole))
    .replace(new RegExp(`[^\\s"…]{${limit + 1},}`, 'g'), (whole) => {
      // The punctuation that ends a run (`path:`) is the message's, not the echo's.
      const [, run, end] = /^([\s\S]*?)([:;,.)]?)$/.exec(whole)!
      return run.length > limit ? `${head(run, limit)}… (${run.length} characters)${end}` : whole
    })
}

/**
 * Whether the message holds text between two quotes, or a run without blanks and quotes, longer
 * than `limit` (what cutEchoes cuts); most messages hold neither and are passed over in one scan.
 */
function mayEcho(message: string, limit: number): boolean {
  if (message.indexOf('"') < 0) return hasLongRun(message, limit)
  let run = 0
  /** Characters since the last quote; -1 before the first (text there is not quoted). */
  let sinceQuote = -1
  for (let i = 0; i < message.length; i++) {
    const c = message.charCodeAt(i)
    if (c === 0x22 /* " */) {
      if (sinceQuote > limit) return true
      // (a quote after a backslash may be inside a quoted text: the text goes on)
      if (sinceQuote < 0 || message.charCodeAt(i - 1) !== 0x5c) sinceQuote = 0
      else sinceQuote++
      run = 0
      continue
    }
    if (sinceQuote >= 0) sinceQuote++
    // (only ASCII blanks end a run here: a run counted too long is merely cut the slow way)
    run = isBlank(c) ? 0 : run + 1
    if (run > limit) return true
  }
  return false // (text after the last quote is not closed: not a quoted text)
}

/**
 * Whether the message holds more than `limit` characters in a row that are not ASCII blanks (what
 * mayEcho counts as a run). Every such run holds one of the characters at limit, 2·limit+1, …
 * (limit+1 apart): only the runs through those are measured, not every character.
 */
function hasLongRun(message: string, limit: number): boolean {
  for (let p = limit; p < message.length; p += limit + 1) {
    if (isBlank(message.charCodeAt(p))) continue
    let start = p
    while (start > 0 && !isBlank(message.charCodeAt(start - 1))) start--
    let end = p + 1
    while (end < message.length && !isBlank(message.charCodeAt(end))) end++
    if (end - start > limit) return true
  }
  return false
}

/** An ASCII blank: a space, or a tab, line feed, vertical tab, form feed or carriage return. */
const isBlank = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d)

/** The first `n` characters, never half of a surrogate pair. */
function head(text: string, n: number): string {
  const cut = text.slice(0, n)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}
