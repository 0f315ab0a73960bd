// JSON text as JSON.stringify(value, null, 2) writes it, encoded as UTF-8 straight into large
// buffers: a document of hundreds of megabytes is written without building it (or the wire
// copy of what it holds) as strings first.

/** Bytes are handed out in buffers of about this size. */
const CHUNK = 1 << 20
/**
 * The first buffer's size: small, so that handing out a buffer (and taking a fresh one) happens
 * early, while the writer's functions are still collecting type feedback; otherwise their first
 * optimized code, made without it, is thrown away at the first megabyte and compiled again.
 */
const FIRST = 1 << 12

const QUOTE = 34
const BACKSLASH = 92
const NEWLINE = 10
const SPACE = 32
/** Four spaces, written at once (about half of an indented document is indentation). */
const SPACES = 0x20202020

/**
 * The keys of a copy JSON.stringify would write in this order: array indices (`"0"`, `"12"`)
 * first in numeric order, as every object holds them, then the others sorted by code unit.
 * `keys` is sorted in place.
 */
export function outputOrder(keys: string[]): string[] {
  keys.sort()
  let indices: string[] | undefined
  for (const key of keys) if (isArrayIndex(key)) (indices ??= []).push(key)
  if (!indices) return keys
  return [...indices.sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))]
}

export const isArrayIndex = (key: string): boolean => {
  const c = key.charCodeAt(0) // (most keys start with a letter: no pattern run for them)
  return c >= 0x30 && c <= 0x39 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295
}

/** Whether JSON.stringify leaves out a field of this value (and writes null for it in a list). */
export const unwritable = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol'

/**
 * Where a JsonWriter's bytes go, a buffer at a time: true when the buffer was consumed at once
 * (written out, copied) and may be filled again, false when it must be left as it is.
 */
export type ByteSink = (bytes: Uint8Array) => boolean

/**
 * `s` quoted at `pos` of `buf` (room made for it) when none of its characters needs an escape: the
 * offset after the closing quote; else -1, and what was copied is to be written over.
 */
function plainQuoted(buf: Buffer, pos: number, s: string): number {
  buf[pos++] = QUOTE
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < SPACE || c > 126 || c === QUOTE || c === BACKSLASH) return -1
    buf[pos++] = c
  }
  buf[pos] = QUOTE
  return pos + 1
}

export class JsonWriter {
  private buf!: Buffer
  /** The same bytes, to write four spaces at a time. */
  private view!: DataView
  private pos = 0

  constructor(
    private readonly sink: ByteSink,
    private readonly chunk = CHUNK,
  ) {
    this.fresh(Math.min(chunk, FIRST))
  }

  private fresh(size: number): void {
    this.buf = Buffer.allocUnsafe(size)
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length)
  }

  /** Spaces from `pos` on, `n` of them; up to 3 more beyond are written over (room leaves space for them). */
  private spaces(pos: number, n: number): void {
    const view = this.view
    for (let i = 0; i < n; i += 4) view.setUint32(pos + i, SPACES)
  }

  /** Hands out what is left. */
  end(): void {
    if (this.pos > 0) this.sink(this.buf.subarray(0, this.pos))
    this.pos = 0
  }

  /**
   * Makes room for `n` more bytes: what is written is handed out, except what follows `mark` (an
   * object being written that may yet be written again), which moves to the front of the buffer
   * (a bigger one when it does not leave room).
   */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return
    // Every step is taken on every call, whether or not an object is being written: a step met
    // only while one is would first be met late, throwing out the optimised code of every writer.
    const mark = this.mark
    const keep = mark < 0 ? this.pos : mark
    const kept = this.pos - keep
    const old = this.buf
    const grown = 2 * old.length
    const reuse = keep === 0 || this.sink(old.subarray(0, keep))
    if (!reuse || kept + n > old.length || old.length < this.chunk) this.fresh(Math.max(this.chunk, kept + n, kept > 0 ? grown : 0))
    old.copy(this.buf, 0, keep, keep + kept) // (within one buffer, as memmove copies)
    this.pos = kept
    this.mark = mark < 0 ? -1 : 0
  }

  /** Where the outermost object written by `sorted` starts in the buffer (-1: none is being written): nothing after it is handed out yet. */
  private mark = -1

  /** Text of printable ASCII that needs no escape (punctuation, keywords, numbers). */
  ascii(s: string): void {
    const n = s.length
    this.room(n)
    const buf = this.buf
    let pos = this.pos
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i)
    this.pos = pos
  }

  byte(b: number): void {
    this.room(1)
    this.buf[this.pos++] = b
  }

  /** Bytes another JsonWriter wrote of the same value at the same depth, copied as they are. */
  raw(bytes: Uint8Array): void {
    this.room(bytes.length)
    this.buf.set(bytes, this.pos)
    this.pos += bytes.length
  }

  /** What comes before an item of a list at `depth`: `[` for the first, else `,`, the line break and indentation. */
  item(first: boolean, depth: number): void {
    this.lineStart(first ? 91 : 44, depth)
  }

  private lineStart(open: number, depth: number): void {
    this.room(2 * depth + 6)
    this.putLineStart(open, depth)
  }

  /** `open`, the line break and the indentation at `depth`, in room already made. */
  private putLineStart(open: number, depth: number): void {
    const indent = 2 * depth
    const pos = this.pos
    this.buf[pos] = open
    this.buf[pos + 1] = NEWLINE
    this.spaces(pos + 2, indent)
    this.pos = pos + 2 + indent
  }

  /** The end of a list at `depth`: `[]` when it has no items, else its closing line. */
  endList(empty: boolean, depth: number): void {
    this.close(empty, depth, 91, 93)
  }

  /** The end of an object at `depth`: `{}` when no field was written, else its closing line. */
  endObject(empty: boolean, depth: number): void {
    this.close(empty, depth, 123, 125)
  }

  /**
   * The end of a list or object at `depth`: the brackets when it is empty, else a line break, the
   * indentation and the closing bracket. One way for both: a line met only for an empty one would
   * first be met late (empty lists are rare), throwing out the optimised code of every writer.
   */
  private close(empty: boolean, depth: number, open: number, bracket: number): void {
    const indent = empty ? 0 : 2 * depth
    this.room(indent + 6)
    const pos = this.pos
    this.buf[pos] = empty ? open : NEWLINE
    this.spaces(pos + 1, indent)
    this.buf[pos + 1 + indent] = bracket
    this.pos = pos + 2 + indent
  }

  /** A string as JSON.stringify quotes and escapes it. */
  string(s: string): void {
    this.room(s.length + 2)
    const end = plainQuoted(this.buf, this.pos, s)
    if (end < 0) this.escaped(s)
    else this.pos = end
  }

  /** A string with characters to escape or beyond ASCII: JSON.stringify's escapes, as UTF-8. */
  private escaped(s: string): void {
    const text = JSON.stringify(s)
    this.room(3 * text.length)
    this.pos += this.buf.write(text, this.pos, 'utf8')
  }

  number(v: number): void {
    this.ascii(Number.isFinite(v) ? String(v) : 'null')
  }

  /** null, a boolean, a number or a string; anything else JSON.stringify would not write as a field comes out as null, as in a list. */
  scalar(v: unknown): void {
    if (typeof v === 'string') this.string(v)
    else if (typeof v === 'number') this.number(v)
    else if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt')
    // One call for every keyword: a call met only for one of them (null is rare) would first be
    // met late, throwing out the optimised code of every writer.
    else this.ascii(typeof v === 'boolean' ? (v ? 'true' : 'false') : 'null')
  }

  /**
   * What comes before a field of an object at `depth`: `{` for the first, else `,`, the line
   * break and indentation, and the key with the `: ` after it.
   */
  field(first: boolean, key: string, depth: number): void {
    // Room for all of it at once: the key most often needs no escape.
    this.room(2 * depth + key.length + 10)
    this.putLineStart(first ? 123 : 44, depth)
    const end = plainQuoted(this.buf, this.pos, key)
    if (end < 0) {
      this.escaped(key)
      this.room(2)
    } else this.pos = end
    this.buf[this.pos] = 58
    this.buf[this.pos + 1] = SPACE
    this.pos += 2
  }

  /**
   * Plain data with every object's keys in output order (outputOrder), the values JSON.stringify
   * leaves out left out: what JSON.stringify writes of a deep copy with sorted keys.
   */
  sorted(v: unknown, depth: number): void {
    if (v === null || typeof v !== 'object') return this.scalar(v)
    if (Array.isArray(v)) {
      const n = v.length
      for (let i = 0; i < n; i++) {
        this.item(i === 0, depth + 1)
        this.sorted(v[i], depth + 1)
      }
      return this.endList(n === 0, depth)
    }
    const source = v as Record<string, unknown>
    // Most objects have their keys in order already: written in one for-in walk (V8 reads each
    // field by its place then), without a list of keys. Keys found out of order undo what was
    // written of the object (none of it has been handed out: see `mark`) and write it sorted.
    const outer = this.mark < 0
    if (outer) this.mark = this.pos
    const from = this.pos - this.mark // (the object's place moves with the mark)
    let previous: string | undefined
    let first = true
    for (const key in source) {
      if (previous !== undefined && previous > key) {
        this.pos = this.mark + from
        this.reordered(source, depth)
        if (outer) this.mark = -1
        return
      }
      previous = key
      first = this.sortedField(first, key, source[key], depth)
    }
    this.endObject(first, depth)
    if (outer) this.mark = -1
  }

  private reordered(source: Record<string, unknown>, depth: number): void {
    let first = true
    for (const key of this.orderOf(Object.keys(source))) first = this.sortedField(first, key, source[key], depth)
    this.endObject(first, depth)
  }

  /** The keys of the last object reordered, and their output order. */
  private lastKeys: string[] = []
  private lastOrder: string[] = []

  /** outputOrder of `keys`; objects written in a row mostly have the same keys in the same order, sorted once. */
  private orderOf(keys: string[]): string[] {
    const last = this.lastKeys
    const n = keys.length
    if (n === last.length) {
      let i = 0
      while (i < n && keys[i] === last[i]) i++
      if (i === n) return this.lastOrder
    }
    this.lastKeys = keys
    this.lastOrder = outputOrder([...keys])
    return this.lastOrder
  }

  /** Field `key` of an object at `depth`, its value written sorted, unless JSON.stringify leaves it out; whether the object is still empty. */
  private sortedField(first: boolean, key: string, x: unknown, depth: number): boolean {
    if (unwritable(x)) return first
    this.field(first, key, depth + 1)
    this.sorted(x, depth + 1)
    return false
  }
}
