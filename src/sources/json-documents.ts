// Reading JSON fixture files into objects: `kubectl get -o json` lists cut into their items at the
// byte level, JSON streams, and anything else parsed whole (see documents.ts).
import {isAscii} from 'node:buffer'
import {UserError} from '../errors.js'
import {SourceFile} from './files.js'
import {linePos} from './locate.js'
import {bomLength, Chunk, isBlankByte, isListKind, isMapping, NESTED, type RawObject, type Report, SourceObject, TOP, unpack, unpackListTail, unpackOne} from './source-object.js'
import {readYaml} from './yaml-documents.js'

// ---------------------------------------------------------------------------------------------
// JSON

export function readJson(file: SourceFile, counter: {n: number}, report: Report, window: number, parsed?: readonly RawObject[]): IterableIterator<SourceObject> {
  return new JsonReading(file, counter, report, window, parsed)
}

/**
 * A large `kubectl get -o json` list is read a window at a time, item by item; anything else, or
 * a list that turns out not to be laid out as expected, is parsed whole (skipping the items
 * already handed out). The readers are taken in turn by a plain iterator rather than a generator
 * of its own: each item then passes through one generator fewer (resuming one costs about as
 * much as reading a small item).
 */
class JsonReading implements IterableIterator<SourceObject> {
  /** The reader handing out items now, and what it is (the pretty list, the compact list, the whole file). */
  private reader: Generator<SourceObject, number | undefined | void>
  private stage: 'pretty' | 'compact' | 'whole' | 'done' = 'pretty'

  constructor(
    private readonly file: SourceFile,
    private readonly counter: {n: number},
    private readonly report: Report,
    private readonly window: number,
    private readonly parsed?: readonly RawObject[],
  ) {
    this.reader = readPrettyJsonList(file, counter, report, window, parsed)
  }

  [Symbol.iterator](): IterableIterator<SourceObject> {
    return this
  }

  next(): IteratorResult<SourceObject, undefined> {
    for (;;) {
      if (this.stage === 'done') return {done: true, value: undefined}
      const r = this.reader.next()
      if (r.done !== true) return r
      this.nextReader(r.value)
    }
  }

  /** The reader after the one that returned `handedOut`: how many items it handed out (undefined: all of them). */
  private nextReader(handedOut: number | undefined | void): void {
    const {file, counter, report} = this
    if (this.stage === 'pretty' && handedOut === 0 && this.parsed === undefined) {
      this.stage = 'compact'
      this.reader = readCompactJsonList(file, counter, report, this.window)
    } else if (this.stage !== 'whole' && handedOut !== undefined) {
      this.stage = 'whole'
      const buf = file.read()
      this.reader = readJsonWhole(file, buf, bomLength(buf), counter, report, handedOut as number)
    } else this.stage = 'done'
  }
}

/**
 * Objects already parsed (a live cluster's lists), read as if from `file`, which must hold exactly
 * them as one pretty-printed JSON List (`JSON.stringify(list, null, 1)`): each item gets the chunk
 * and locator reading the file would give it, without being parsed a second time. Anything else
 * (a small file, another layout) is read from the file as usual.
 */
export function* readParsedJsonList(file: SourceFile, items: RawObject[]): Generator<SourceObject> {
  const report: Report = (error) => {
    throw error
  }
  yield* readJson(file, {n: 0}, report, WINDOW, items)
}

/** JSON.parse of the whole file (several values in a row are read as a stream). */
function* readJsonWhole(file: SourceFile, buf: Buffer, bom: number, counter: {n: number}, report: Report, skipItems: number): Generator<SourceObject> {
  let text: string
  try {
    text = buf.toString('utf8', bom)
  } catch (error) {
    report(new UserError(`cannot read: ${(error as Error).message}`, {origin: {file: file.name, line: 1, column: 1}, hint: 'split the input into smaller files'}))
    return
  }
  const values: unknown[] = []
  let pos = 0
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos])) pos++
    if (pos >= text.length) break
    const rest = pos === 0 ? text : text.slice(pos)
    try {
      values.push(JSON.parse(rest))
      break
    } catch (error) {
      const message = (error as Error).message
      const trailing = /^Unexpected non-whitespace character after JSON at position (\d+)/.exec(message)
      if (trailing) {
        const n = Number(trailing[1])
        values.push(JSON.parse(rest.slice(0, n)))
        pos += n
        continue
      }
      if (values.length === 0 && text[pos] !== '{' && text[pos] !== '[') {
        // Not JSON at all: a YAML file named .json. Read it as YAML, as kubectl would.
        const yamlFile = new SourceFile(file.name, file.fsPath, 'yaml', buf)
        yield* readYaml(yamlFile, buf, counter, report)
        return
      }
      const at = /at position (\d+)/.exec(message)
      const offset = pos + (at ? Number(at[1]) : /end of JSON input/.test(message) ? rest.length : 0)
      const {line, col} = linePos(text, offset)
      report(
        new UserError(`invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/ at position \d+.*$/, '')}`, {
          origin: {file: file.name, line, column: col},
        }),
      )
      return
    }
  }
  text = ''
  const chunk = new Chunk(file, bom, buf.length)
  for (let k = 0; k < values.length; k++) {
    const streamChunk = k === 0 ? chunk : new Chunk(file, bom, buf.length, k)
    let value = values[k]
    values[k] = undefined
    if (k === 0 && skipItems > 0 && isMapping(value) && Array.isArray(value.items)) {
      // The fast path already handed out the first items.
      const items = value.items as unknown[]
      for (let i = 0; i < skipItems && i < items.length; i++) items[i] = undefined
      yield* unpackListTail(value, items, skipItems, streamChunk, counter, report)
      value = undefined
      continue
    }
    yield* unpack(value, streamChunk, TOP, counter, report)
  }
}

/**
 * Bytes read at a time from a large JSON list: an item larger than this grows the window. Small:
 * each page of a fresh window costs a fault when first filled, and a larger read saves nothing.
 */
export const WINDOW = 1 << 20

/**
 * `kubectl get -o json` output cut into items without parsing it whole, and read a window at a
 * time (a 500 MB list is never one buffer, let alone one string): the file is a pretty-printed
 * object whose `items` array holds one object per item, each opening with `{` and closing with `}`
 * alone on lines at the items' indentation. JSON strings cannot hold a raw line break, so such a
 * line is always structure (and in UTF-8 no byte of a multi-byte character is ASCII, so the search
 * works on bytes); each item is then checked by JSON.parse itself (a slice that parses is exactly
 * one whole value). The list's other members are read first, from the file's head and tail.
 * Returns undefined when every item was handed out; otherwise how many were before the layout
 * stopped matching (0: none, the file is not such a list).
 */
function* readPrettyJsonList(
  file: SourceFile,
  counter: {n: number},
  report: Report,
  window: number,
  parsed?: readonly RawObject[],
): Generator<SourceObject, number | undefined> {
  const size = file.byteLength()
  if (size < 1 << 16) return 0 // small files: JSON.parse is as fast
  let buf = Buffer.allocUnsafe(Math.min(window, size))
  /** The file offset of buf[0], and how many bytes of buf hold the file. */
  let base = 0
  let filled = file.readAt(buf, 0, buf.length, 0)
  // The head: `{`, the first member's indentation, the `"items": [` line.
  const bom = bomLength(buf)
  let p = bom
  while (isBlankByte(buf[p]) && p < filled) p++
  if (buf[p] !== 0x7b) return 0
  const nl = buf.indexOf(10, p)
  if (nl < 0) return 0
  let q = nl + 1
  while (buf[q] === 0x20) q++
  const memberIndent = buf.toString('latin1', nl + 1, q)
  if (memberIndent.length === 0 || buf[q] !== 0x22) return 0
  const itemsKey = Buffer.from(`\n${memberIndent}"items": [`)
  const keyAt = buf.subarray(0, filled).indexOf(itemsKey, nl)
  if (keyAt < 0) return 0
  const open = keyAt + itemsKey.length // just after '['
  // The tail: from the line closing the items to the end.
  const closeKey = Buffer.from(`\n${memberIndent}]`)
  const tailStart = Math.max(open, size - (1 << 20))
  const tail = Buffer.allocUnsafe(size - tailStart)
  file.readAt(tail, 0, tail.length, tailStart)
  const closeInTail = tail.lastIndexOf(closeKey)
  if (closeInTail < 0) return 0
  const closeAt = tailStart + closeInTail
  let envelope: unknown
  const head = buf.toString('utf8', bom, open)
  try {
    envelope = JSON.parse(head + tail.toString('utf8', closeInTail + 1 + memberIndent.length))
  } catch {
    return 0
  }
  if (!isMapping(envelope) || !isListKind(envelope.kind) || !Array.isArray(envelope.items)) return 0
  const listDefaults = defaultsOf(envelope.kind, envelope.apiVersion)
  const defaultsCertain = parsed !== undefined || headAgrees(head, envelope)

  /** Moves the bytes from file offset `keep` to the front and reads on; false at the end of the file. */
  const slide = (keep: number): boolean => {
    if (base + filled >= size) return false
    const kept = base + filled - keep
    if (kept > buf.length / 2) {
      const bigger = Buffer.allocUnsafe(buf.length * 2)
      buf.copy(bigger, 0, keep - base, filled)
      buf = bigger
    } else buf.copyWithin(0, keep - base, filled)
    base = keep
    filled = kept + file.readAt(buf, kept, buf.length - kept, base + kept)
    win = buf.subarray(0, filled)
    ascii = isAscii(win)
    return true
  }
  /** The bytes of the file in buf. */
  let win = buf.subarray(0, filled)
  let ascii = isAscii(win)

  // The items, each `{` … `}` at the items' indentation, separated by `,`.
  let handedOut = 0
  let lineStart = buf.indexOf(10, open) + 1 // in buf; the first window holds the head
  if (lineStart <= 0 || lineStart > closeAt) return 0
  q = lineStart
  while (buf[q] === 0x20) q++
  if (buf[q] !== 0x7b) return 0
  const width = q - lineStart
  if (width <= memberIndent.length) return 0
  for (;;) {
    let close = findLineBrace(win, lineStart, width)
    while (close < 0 && slide(base + lineStart)) {
      lineStart = 0
      close = findLineBrace(win, lineStart, width)
    }
    if (close < 0 || base + close > closeAt) return handedOut
    let end = close + width + 2
    let item: unknown = parsed?.[handedOut]
    if (item === undefined) {
      try {
        item = JSON.parse(itemText(win, lineStart, end, ascii ? 'latin1' : 'utf8'))
      } catch {
        return handedOut // not laid out as expected after all: the items so far were right
      }
    }
    if (!defaultsCertain && needsDefaults(item)) return handedOut
    const chunk = new Chunk(file, base + lineStart, base + end)
    const one = unpackOne(item, chunk, TOP, counter, report, listDefaults)
    if (one === NESTED) yield* unpack(item, chunk, TOP, counter, report, listDefaults)
    else if (one !== undefined) yield one
    handedOut++
    // Then `,` and the next item on its own line, or the end of the array.
    if (filled - end < 1 << 12 && slide(base + end)) end = 0
    let r = end
    while (win[r] === 0x20 || win[r] === 0x0d) r++
    if (win[r] === 0x0a && base + r === closeAt) return undefined
    if (win[r] !== 0x2c) return handedOut
    const next = win.indexOf(10, r) + 1
    if (next <= 0) return handedOut
    r = next
    while (win[r] === 0x20) r++
    if (win[r] !== 0x7b || r - next !== width) return handedOut
    lineStart = next
  }
}

/** The bytes decoded at once for the items of an ASCII window (FileWindow.text): a young string, freed by the next scavenge once passed. */
const TEXT_BLOCK = 1 << 15

/** The bytes of a file a window at a time, the window sliding (and growing) forward on demand. */
class FileWindow {
  buf: Buffer
  /** The file offset of buf[0], and how many bytes of buf hold the file. */
  base = 0
  filled: number
  ascii: boolean
  /** The window's size once it first slides (the first read may be smaller). */
  private readonly full: number

  constructor(
    private readonly file: SourceFile,
    readonly size: number,
    window: number,
    first = window,
  ) {
    this.full = Math.min(window, size)
    this.buf = Buffer.allocUnsafe(Math.min(first, this.full))
    this.filled = file.readAt(this.buf, 0, this.buf.length, 0)
    this.ascii = isAscii(this.buf.subarray(0, this.filled))
  }

  /** Text of the window decoded a block at a time (see `text`): the block, and the window offset it starts at. */
  private block = ''
  private blockStart = 0

  /**
   * The text of window bytes [start, end). In an ASCII window, a slice of a block of the text
   * decoded at once (about TEXT_BLOCK bytes from `start`): JSON.parse reads a slice where it lies,
   * and one decoding serves the many small items in a block.
   */
  text(start: number, end: number): string {
    if (!this.ascii) return this.buf.toString('utf8', start, end)
    if (start < this.blockStart || end > this.blockStart + this.block.length) {
      this.block = this.buf.toString('latin1', start, Math.min(this.filled, Math.max(end, start + TEXT_BLOCK)))
      this.blockStart = start
    }
    return this.block.slice(start - this.blockStart, end - this.blockStart)
  }

  /** Moves the bytes from file offset `keep` to the front and reads on (growing the window when `keep` leaves too little room); false at the end of the file. */
  slide(keep: number): boolean {
    this.block = ''
    this.blockStart = 0
    const {base, filled} = this
    if (base + filled >= this.size) return false
    const kept = base + filled - keep
    if (kept > this.buf.length / 2 || this.buf.length < this.full) {
      const bigger = Buffer.allocUnsafe(Math.max(kept > this.buf.length / 2 ? this.buf.length * 2 : 0, this.full))
      this.buf.copy(bigger, 0, keep - base, filled)
      this.buf = bigger
    } else this.buf.copyWithin(0, keep - base, filled)
    this.base = keep
    this.filled = kept + this.file.readAt(this.buf, kept, this.buf.length - kept, keep + kept)
    this.ascii = isAscii(this.buf.subarray(0, this.filled))
    return true
  }
}

/**
 * A large JSON list in any other layout (on one line, as `jq -c` or an API server writes it) cut
 * into its items by a scanner that follows only strings and brackets, and read a window at a time:
 * each item is then parsed on its own by JSON.parse (which checks it: a slice that parses is
 * exactly one whole value), so the list is never one string or one parsed tree. The members
 * around `items` are read first: those before it from the head, those after it from the file's
 * tail (the `]` closing the items is the one after which the tail, joined to the head, parses).
 * Returns undefined when every item was handed out; otherwise how many were before the layout
 * stopped matching (0: none, the file is not such a list).
 */
function* readCompactJsonList(file: SourceFile, counter: {n: number}, report: Report, window: number): Generator<SourceObject, number | undefined> {
  const size = file.byteLength()
  if (size < 1 << 16) return 0 // small files: JSON.parse is as fast
  // The first read is small, so that the window slides (and grows to its size) within the first
  // items, while the code that follows them still collects type feedback: optimized without it,
  // that code would be thrown away at the first slide and compiled again. A head that does not
  // fit in it is read again with the whole window.
  let w = new FileWindow(file, size, window, FIRST_WINDOW)
  let open = listOpen(w)
  if (open === -1 && w.buf.length < Math.min(window, size)) open = listOpen((w = new FileWindow(file, size, window)))
  if (open < 0) return 0
  const head = w.buf.toString('utf8', bomLength(w.buf), open)
  // The tail: the last `]` (of the last 1 MiB, a few tried) after which the rest completes the head.
  const tailStart = Math.max(open, size - (1 << 20))
  const tail = Buffer.allocUnsafe(size - tailStart)
  file.readAt(tail, 0, tail.length, tailStart)
  let envelope: unknown
  let closeAt = -1
  for (let k = tail.lastIndexOf(0x5d), tries = 0; k >= 0 && tries < 16; k = k > 0 ? tail.lastIndexOf(0x5d, k - 1) : -1, tries++) {
    try {
      envelope = JSON.parse(head + tail.toString('utf8', k))
      closeAt = tailStart + k
      break
    } catch {
      // not the items' end
    }
  }
  if (closeAt < 0 || !isMapping(envelope) || !isListKind(envelope.kind) || !Array.isArray(envelope.items)) return 0
  if (tail.indexOf('"items"', closeAt - tailStart) >= 0) return 0 // a second `items` (the last one counts): read whole
  const listDefaults = defaultsOf(envelope.kind, envelope.apiVersion)
  const defaultsCertain = headAgrees(head, envelope)

  /** The file offset where the line holding the next item starts (for its columns). */
  let lineStart = Math.max(bomLength(w.buf), w.buf.lastIndexOf(0x0a, open) + 1)
  let at = open // file offset
  let handedOut = 0
  /**
   * Moves `at` past blanks (noting line starts), sliding the window on once less than SLIDE_AHEAD
   * bytes are left in it; false at the end of the file. Slid here, ahead, the window is never slid
   * for a small item's scan: a slide met first late in the file would throw out the optimised code.
   */
  const skipToValue = (): boolean => {
    for (;;) {
      if (at - w.base >= w.filled - SLIDE_AHEAD && !w.slide(at) && at >= size) return false
      const c = w.buf[at - w.base]
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return true
      if (c === 0x0a) lineStart = at + 1
      at++
    }
  }
  // Once two items are read, the bytes between them (`},{"apiVersion":`: the closing brace, the
  // comma, the next item's first key) are searched for natively to find where an item ends, rather
  // than following its strings and brackets byte by byte. A match inside an item (a nested object
  // with the same first key) leaves a slice that does not parse (a prefix of an object never is
  // a whole value, nor is an object followed by more): that item is then followed byte by byte.
  let boundary: Buffer | undefined
  let learning = 3 // tries left to learn the boundary
  let previousEnd = -1 // file offset just after the item before
  let misses = 0
  let noBoundaryUntil = -1 // file offset: the window up to here holds no boundary after `at`
  let noNewlineUntil = -1 // file offset: no line break from `at` up to here
  /** The window offset just after the item at `at` (found by the boundary), or -1. */
  const boundaryEnd = (): number => {
    if (boundary === undefined || w.base + w.filled <= noBoundaryUntil) return -1
    const k = w.buf.indexOf(boundary, at - w.base + 1)
    if (k < 0 || k + boundary.length > w.filled) {
      noBoundaryUntil = w.base + w.filled
      return -1
    }
    const end = k + 1
    if (w.base + end > noNewlineUntil) {
      // Line starts are noted as items are followed: an item holding a line break is followed byte by byte.
      const nl = w.buf.indexOf(0x0a, at - w.base)
      noNewlineUntil = nl < 0 || nl >= w.filled ? w.base + w.filled : w.base + nl
      if (w.base + end > noNewlineUntil) return -1
    }
    return end
  }
  const learnBoundary = () => {
    learning--
    const from = previousEnd - 1 - w.base // the `}` closing the item before
    if (from < 0 || w.buf[at - w.base + 1] !== 0x22) return
    const keyEnd = stringEnd(w.buf, at - w.base + 1, w.filled)
    if (keyEnd < 0) return
    const colon = skipBlanks(w.buf, keyEnd, w.filled)
    if (w.buf[colon] !== 0x3a || colon + 1 - from > 64) return
    boundary = Buffer.from(w.buf.subarray(from, colon + 1))
  }
  for (;;) {
    // Blanks, then `]` (the end) or an item.
    if (!skipToValue()) return handedOut
    if (w.buf[at - w.base] === 0x5d && handedOut === 0) return at === closeAt ? undefined : 0
    if (w.buf[at - w.base] !== 0x7b) return handedOut
    if (boundary === undefined && learning > 0 && previousEnd >= 0) learnBoundary()
    let item: unknown
    let end = -1
    let lastNewline = -1
    const found = boundaryEnd()
    if (found >= 0) {
      try {
        item = JSON.parse(w.text(at - w.base, found))
        end = w.base + found
      } catch {
        if (++misses > 16 && misses * 8 > handedOut) boundary = undefined // nested objects like the items: follow bytes
      }
    }
    if (end < 0) {
      let scan = objectEnd(w.buf, at - w.base, w.filled)
      while (scan.end < 0 && w.slide(at)) scan = objectEnd(w.buf, 0, w.filled)
      if (scan.end < 0) return handedOut
      end = w.base + scan.end
      if (scan.lastNewline >= 0) lastNewline = w.base + scan.lastNewline
      try {
        item = JSON.parse(w.text(at - w.base, scan.end))
      } catch {
        return handedOut // not a value after all: the items so far were right
      }
    }
    if (!defaultsCertain && needsDefaults(item)) return handedOut
    const chunk = new Chunk(file, at, end, 0, lineStart)
    const one = unpackOne(item, chunk, TOP, counter, report, listDefaults)
    if (one === NESTED) yield* unpack(item, chunk, TOP, counter, report, listDefaults)
    else if (one !== undefined) yield one
    handedOut++
    if (lastNewline >= 0) lineStart = lastNewline + 1
    at = previousEnd = end
    // Then `,` and the next item, or the end of the array.
    if (!skipToValue()) return handedOut
    const c = w.buf[at - w.base]
    if (c === 0x5d) return at === closeAt ? undefined : handedOut
    if (c !== 0x2c) return handedOut
    at++
  }
}

/** The size of the first read of a compact list (see readCompactJsonList). */
const FIRST_WINDOW = 1 << 16

/** How many bytes of a compact list the window holds ahead of the next item before it slides on. */
const SLIDE_AHEAD = 1 << 12

/**
 * The offset just after the `[` opening the items of the list at the start of the window: `{`,
 * then members up to `"items":` and its `[`, all in the window. -1 when they do not all fit in it;
 * -2 when the file is not such a list.
 */
function listOpen(w: FileWindow): number {
  let p = skipBlanks(w.buf, bomLength(w.buf), w.filled)
  if (w.buf[p] !== 0x7b) return p < w.filled ? -2 : -1
  p++
  for (;;) {
    p = skipBlanks(w.buf, p, w.filled)
    if (p >= w.filled) return -1
    if (w.buf[p] !== 0x22) return -2
    const keyEnd = stringEnd(w.buf, p, w.filled)
    if (keyEnd < 0) return -1
    const isItems = keyEnd - p === 7 && w.buf.toString('latin1', p, keyEnd) === '"items"'
    p = skipBlanks(w.buf, keyEnd, w.filled)
    if (p >= w.filled) return -1
    if (w.buf[p] !== 0x3a) return -2
    p = skipBlanks(w.buf, p + 1, w.filled)
    if (p >= w.filled) return -1
    if (isItems) return w.buf[p] === 0x5b ? p + 1 : -2
    p = valueEnd(w.buf, p, w.filled)
    if (p < 0) return -1
    p = skipBlanks(w.buf, p, w.filled)
    if (p >= w.filled) return -1
    if (w.buf[p] !== 0x2c) return -2
    p++
  }
}

/** What a list gives its items that lack kind or apiVersion (see unpack). */
const defaultsOf = (kind: string, apiVersion: unknown) => ({kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion})

/**
 * Whether the list's members before `items` (the head, ending with `[`) already say the kind and
 * apiVersion that the head joined to the file's tail says. When they do not, the tail may belong
 * to another list after this one in a stream, and items that take the list's kind or apiVersion
 * cannot be handed out before the whole file is parsed.
 */
function headAgrees(head: string, envelope: RawObject): boolean {
  let before: unknown
  try {
    before = JSON.parse(`${head}]}`)
  } catch {
    return false
  }
  return isMapping(before) && before.kind === envelope.kind && before.apiVersion === envelope.apiVersion
}

/** An item that would take the list's kind or apiVersion. */
const needsDefaults = (item: unknown): boolean => isMapping(item) && (item.kind === undefined || item.apiVersion === undefined)

const skipBlanks = (buf: Buffer, p: number, end: number): number => {
  while (p < end && (buf[p] === 0x20 || buf[p] === 0x0a || buf[p] === 0x0d || buf[p] === 0x09)) p++
  return p
}

/** The offset just after the JSON string opening at `p` (a `"`), or -1 when it does not close before `end`. */
function stringEnd(buf: Buffer, p: number, end: number): number {
  for (let q = buf.indexOf(0x22, p + 1); q >= 0 && q < end; q = buf.indexOf(0x22, q + 1)) {
    let k = q - 1
    while (buf[k] === 0x5c) k--
    if ((q - 1 - k) % 2 === 0) return q + 1 // not escaped: an even run of backslashes before it
  }
  return -1
}

/** The offset just after the JSON value at `p` (a string, object, array or scalar), or -1 when it does not end before `end`. */
function valueEnd(buf: Buffer, p: number, end: number): number {
  const c = buf[p]
  if (c === 0x22) return stringEnd(buf, p, end)
  if (c === 0x7b || c === 0x5b) return objectEnd(buf, p, end).end
  while (p < end && buf[p] !== 0x2c && buf[p] !== 0x7d && buf[p] !== 0x5d && !isBlankByte(buf[p])) p++
  return p < end ? p : -1
}

/**
 * The offset just after the object or array opening at `p`, following strings and brackets only
 * (JSON.parse checks the rest), or -1 when it does not close before `end`; and the offset of the
 * last line break in it (-1: none). One pass over the bytes: a call per string costs more than
 * the string's few bytes.
 */
function objectEnd(buf: Buffer, p: number, end: number): {end: number; lastNewline: number} {
  let depth = 0
  let lastNewline = -1
  while (p < end) {
    const c = buf[p++]
    if (c === 0x22) {
      // A string: on to its closing quote (an escape takes the byte after it along).
      for (;;) {
        if (p >= end) return {end: -1, lastNewline}
        const d = buf[p++]
        if (d === 0x22) break
        if (d === 0x5c) p++
      }
    } else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return {end: p, lastNewline}
    } else if (c === 0x0a) lastNewline = p - 1
  }
  return {end: -1, lastNewline}
}

const MANAGED_FIELDS_JSON = Buffer.from('"managedFields": [')

/**
 * The text of a pretty-printed JSON item, with `metadata.managedFields` (a fifth of `kubectl get -o
 * json` output when it is shown, never read by kctl) replaced by `[]` so JSON.parse does not build
 * it. The array ends at the first line holding only `]` at the key's indentation (JSON strings hold
 * no raw line breaks). `latin1` is exact (and faster) for an ASCII file.
 */
function itemText(buf: Buffer, start: number, end: number, encoding: 'latin1' | 'utf8'): string {
  const found = buf.subarray(start, end).indexOf(MANAGED_FIELDS_JSON) // bounded: never search past the item
  if (found < 0) return buf.toString(encoding, start, end)
  const key = start + found
  let lineStart = key
  while (lineStart > start && buf[lineStart - 1] === 0x20) lineStart--
  if (buf[lineStart - 1] !== 0x0a) return buf.toString(encoding, start, end)
  const width = key - lineStart
  const open = key + MANAGED_FIELDS_JSON.length
  if (buf[open] !== 0x0a && !(buf[open] === 0x0d && buf[open + 1] === 0x0a)) return buf.toString(encoding, start, end)
  // Walk its lines: each is indented deeper than the key, up to the line that is just `]` at the
  // key's indentation. Anything else: leave the item as it is.
  let close = -1
  for (let nl = buf.indexOf(0x0a, open); nl >= 0 && nl < end; nl = buf.indexOf(0x0a, nl + 1)) {
    let k = nl + 1
    const deep = nl + 1 + width
    while (k <= deep && buf[k] === 0x20) k++
    if (k > deep) continue // indented deeper than the key: inside the array
    if (k === deep && buf[k] === 0x5d) close = k
    break
  }
  if (close < 0) return buf.toString(encoding, start, end)
  return buf.toString(encoding, start, open) + buf.toString(encoding, close, end)
}

/**
 * The offset of the next `\n` + `width` spaces + `}` from `from` (the `\n`), or -1. Searching for
 * the single byte `}` and looking back is much faster than a multi-byte search here, where almost
 * every line starts with the same run of spaces.
 */
function findLineBrace(buf: Buffer, from: number, width: number): number {
  for (let j = buf.indexOf(0x7d, from); j >= 0; j = buf.indexOf(0x7d, j + 1)) {
    const nl = j - width - 1
    if (nl < from || buf[nl] !== 0x0a) continue
    let k = nl + 1
    while (k < j && buf[k] === 0x20) k++
    if (k === j) return nl
  }
  return -1
}

