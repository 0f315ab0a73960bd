// A fast reader for the block-style YAML that kubectl, Helm and most people write: nested block
// mappings and sequences (compact `- ` or indented), plain scalars, single-line quoted scalars and
// one-line flow collections of such scalars (`args: ["--port=80", -v]`, `labels: {app: web}`). It reads line by line, by offsets into the document text, and is much faster
// than a general parser on such text. Anything else (multi-line flow collections, block scalars
// `|` `>`, anchors, aliases, tags, merge keys, multi-line scalars, comments after a value, tabs,
// CR, non-ASCII, duplicate keys, anything malformed) makes it give up and return FALLBACK: the
// caller then parses the document with js-yaml, which also produces the error messages. Scalars
// are resolved by the same function as js-yaml's kctl schema (yaml11.ts), so the result is the
// same object either way (test/unit/sources/fastyaml.test.ts compares the two on generated input).
import {plainKey, plainValue} from './yaml11.js'

export const FALLBACK: unique symbol = Symbol('fallback')

class GiveUp extends Error {}
const GIVE_UP = new GiveUp()

const SPACE = 0x20
const NL = 0x0a
const TILDE = 0x7e

/**
 * Parses one YAML document (its text may start with a `---` line and end with a `...` line).
 *
 * The reader takes printable ASCII and newlines only (no tabs, carriage returns, control or
 * non-ASCII characters). The copy of the text as bytes (asciiBytes) finds a non-ASCII one; any
 * other is checked where the reader meets it: the loops over keys, quoted and flow scalars check
 * theirs, and a plain value or a comment that is passed over whole is checked by `printable`.
 * Spaces and line breaks are read one by one.
 */
export function parseBlockYaml(text: string): unknown {
  const bytes = asciiBytes(text)
  if (bytes === undefined) return FALLBACK
  b = bytes
  try {
    return new Reader(text).document()
  } catch (error) {
    if (error === GIVE_UP) return FALLBACK
    throw error
  }
}

/**
 * The characters of the document being read, as bytes: the reader's loops read them here rather
 * than by charCodeAt, which costs about twice as much a character (reading is mostly such loops).
 * Its length is the text's: past the end a read gives undefined, which compares as charCodeAt's NaN.
 */
let b: Uint8Array = new Uint8Array(0)
let scratch = new Uint8Array(1 << 16)
const encoder = new TextEncoder()

/** The text's characters as bytes (in a buffer reused from document to document); undefined when one is outside ASCII, which the reader gives up on wherever it stands. */
function asciiBytes(text: string): Uint8Array | undefined {
  if (scratch.length < text.length) scratch = new Uint8Array(2 * text.length)
  const {read, written} = encoder.encodeInto(text, scratch)
  return read === text.length && written === text.length ? scratch.subarray(0, written) : undefined
}

class Reader {
  /** Start of the current line. */
  pos = 0
  /**
   * A sequence item that starts a mapping on its own line (`- key: value`): that line is read as
   * if it were indented to where `key` starts (its content then starts at pos + indent as usual).
   */
  private virtualPos = -1
  private virtualIndent = 0
  /** The content line peek found last, and its indentation: a line is peeked at again after its value is read. */
  private peekedLine = -1
  private peekedIndent = 0

  constructor(private readonly t: string) {}

  document(): unknown {
    const t = this.t
    this.peek()
    if (t.startsWith('---', this.pos)) {
      if (!this.restIsBlank(this.pos + 3)) throw GIVE_UP // a node on the marker line
      this.nextLine()
    } else if (b[this.pos] === 0x25 /* % */) throw GIVE_UP
    const indent = this.peek()
    if (indent < 0) return null
    const value = this.block(indent) // (a root node may be indented)
    if (this.peek() >= 0) throw GIVE_UP // something after the root node
    return value
  }

  /** Moves to the next content line (skipping blank and comment lines, and a final `...`); its indentation, or -1 at the end. */
  private peek(): number {
    const t = this.t
    let p = this.pos
    for (;;) {
      if (p >= t.length) {
        this.pos = t.length
        return -1
      }
      if (p === this.virtualPos) {
        this.pos = p
        return this.virtualIndent
      }
      if (p === this.peekedLine) {
        this.pos = p
        return this.peekedIndent
      }
      let k = p
      while (b[k] === SPACE) k++
      const c = b[k]
      if (k >= t.length) {
        p = k
        continue
      }
      if (c === NL) {
        p = k + 1
        continue
      }
      if (c === 0x23 /* # */ || (k === p && c === 0x2e && t.startsWith('...', k) && this.restIsBlank(k + 3))) {
        // A comment line; or the document end marker, after which only comments may follow (the
        // splitter makes sure of it).
        const nl = lineEnd(t, k)
        printable(k, nl)
        p = nl + 1
        continue
      }
      this.pos = this.peekedLine = p
      return (this.peekedIndent = k - p)
    }
  }

  private restIsBlank(from: number): boolean {
    const t = this.t
    let k = from
    while (b[k] === SPACE) k++
    return k >= t.length || b[k] === NL
  }

  /** End of the current line (its `\n`, or the end of the text). */
  private eol(): number {
    return lineEnd(this.t, this.pos + (this.pos === this.virtualPos ? this.virtualIndent : 0))
  }

  private nextLine(): void {
    const e = this.eol()
    this.pos = e + 1
  }

  private isSeqItemAt(p: number): boolean {
    const t = this.t
    if (b[p] !== 0x2d /* - */) return false
    const c = b[p + 1]
    return c === SPACE || c === NL || p + 1 >= t.length
  }

  private block(indent: number): unknown {
    return this.isSeqItemAt(this.pos + indent) ? this.sequence(indent) : this.mapping(indent)
  }

  private mapping(indent: number): Record<string, unknown> {
    const t = this.t
    const obj: Record<string, unknown> = {}
    /** A bit for each key read (keyBit): a key whose bit is not set yet is not a duplicate. */
    let seen = 0
    for (;;) {
      const next = this.peek()
      if (next < indent) return obj
      if (next > indent) throw GIVE_UP // bad indentation, or a multi-line scalar
      const cs = this.pos + indent
      if (this.isSeqItemAt(cs)) throw GIVE_UP
      let key: string
      let bit: number
      let keySlot = -1 // a plain key's slot
      let vs: number // where the value starts on this line
      const q = b[cs]
      if (q === 0x22 /* " */ || q === 0x27 /* ' */) {
        const end = trimmedEnd(cs, this.eol())
        const close = closingQuote(cs, end)
        if (b[close + 1] !== 0x3a /* : */) throw GIVE_UP
        key = quoted(t, cs, close)
        if (key === '<<' || key === '__proto__') throw GIVE_UP
        bit = keyBit(key)
        vs = close + 2
        if (vs < end && b[vs] !== SPACE) throw GIVE_UP
      } else {
        keySlot = this.plainKey(cs)
        key = slotKey[keySlot]
        bit = slotBit[keySlot]
        vs = this.pos
      }
      // A key written twice: let js-yaml report the duplicate.
      if ((seen & bit) !== 0 && Object.hasOwn(obj, key)) throw GIVE_UP
      seen |= bit
      while (b[vs] === SPACE) vs++
      // The value this key had last time, when it is written again (then nothing is hashed). Any
      // slot is a sound guess, its text being compared.
      const guess = keySlot < 0 ? 0 : NEXT_VALUE[keySlot]
      let end = textAt(vs, VALUE_TEXTS, guess)
      let eol = end
      if (end >= 0) {
        while (b[eol] === SPACE) eol++
        if (eol < t.length && b[eol] !== NL) end = eol = -1
      }
      if (end >= 0) {
        obj[key] = valueSlot[guess]
        this.pos = eol + 1 // (a continuation line gives up at the next turn)
        continue
      }
      // The value's characters are hashed on the way to the line's end, the last one that is not
      // a space ending it: a short plain scalar is then looked up by that hash (inlineValue).
      eol = end = vs
      let hash = 0
      for (let h = 0; eol < t.length; eol++) {
        const c = b[eol]
        if (c === NL) break
        h = (Math.imul(h, 31) + c) | 0
        if (c !== SPACE) {
          end = eol + 1
          hash = h
        }
      }
      this.pos = eol + 1
      let value: unknown
      if (vs >= end) {
        // The value is on the next lines: a nested block, a compact sequence, or nothing (null).
        const sub = this.peek()
        if (sub > indent) value = this.block(sub)
        else if (sub === indent && this.isSeqItemAt(this.pos + indent)) value = this.sequence(indent)
        else value = null
      } else {
        value = inlineValue(t, vs, end, hash)
        if (keySlot >= 0 && end - vs <= SHARED_MAX) NEXT_VALUE[keySlot] = slotOf(hash, end - vs)
        if (this.peek() > indent) throw GIVE_UP // a continuation line, or an error
      }
      obj[key] = value
    }
  }

  /**
   * The slot of the plain key that starts at `cs` (pos then after its colon). The key that followed
   * the last one read last time is tried first, by its text; otherwise the key's characters are
   * hashed on the way to the colon that ends it (`: `, or `:` at the end of the line), and the key
   * is looked up by its text in place.
   */
  private plainKey(cs: number): number {
    const t = this.t
    const guess = NEXT_KEY[lastKey]
    let colon = textAt(cs, KEY_TEXTS, guess)
    if (colon >= 0 && isKeyColon(colon)) {
      this.pos = colon + 1
      return (lastKey = guess)
    }
    let h = 0
    for (colon = cs; ; colon++) {
      const c = b[colon]
      if (c === 0x3a && isKeyColon(colon)) break
      if (!(c >= SPACE && c <= TILDE)) throw GIVE_UP // a line break (no colon: a multi-line scalar, or an error), the end, or a character outside the subset
      h = (Math.imul(h, 31) + c) | 0
    }
    const slot = slotOf(h, colon - cs)
    if (!sameText(cs, colon, KEY_TEXTS, slot)) {
      const raw = t.slice(cs, colon)
      if (!isPlainStart(raw) || raw.charCodeAt(raw.length - 1) === SPACE || raw.includes(' #')) throw GIVE_UP
      const key = keyOf(raw)
      if (key === '<<' || key === '__proto__') throw GIVE_UP
      keepText(cs, colon, KEY_TEXTS, slot)
      slotKey[slot] = key
      slotBit[slot] = keyBit(key)
    }
    NEXT_KEY[lastKey] = slot
    this.pos = colon + 1
    return (lastKey = slot)
  }

  private sequence(indent: number): unknown[] {
    const t = this.t
    const arr: unknown[] = []
    for (;;) {
      const next = this.peek()
      if (next < indent) return fit(arr)
      if (next > indent) throw GIVE_UP
      const cs = this.pos + indent
      if (!this.isSeqItemAt(cs)) return fit(arr) // the next key of the mapping this compact sequence is in
      const eol = this.eol()
      const end = trimmedEnd(cs, eol)
      let rs = cs + 1
      while (rs < end && b[rs] === SPACE) rs++
      if (rs >= end) {
        // `-` alone: the item is the block on the next lines (or null).
        this.pos = eol + 1
        const sub = this.peek()
        arr.push(sub > indent ? this.block(sub) : null)
        continue
      }
      if (b[rs] === 0x23 || this.isSeqItemAt(rs)) throw GIVE_UP
      if (startsMappingEntry(t, rs, end)) {
        // `- key: value`: a mapping whose keys line up with `key`.
        this.virtualPos = this.pos
        this.virtualIndent = rs - this.pos
        arr.push(this.mapping(rs - this.pos))
        continue
      }
      this.pos = eol + 1
      arr.push(inlineValue(t, rs, end, textHash(rs, end)))
      if (this.peek() > indent) throw GIVE_UP
    }
  }
}

/** The end of the line `from` is on (its `\n`, or the end of the text). */
function lineEnd(t: string, from: number): number {
  const nl = t.indexOf('\n', from)
  return nl < 0 ? t.length : nl
}

/** Gives up unless t[from, to) is printable ASCII. */
function printable(from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const c = b[i]
    if (c < SPACE || c > TILDE) throw GIVE_UP
  }
}

/** `end`, less the spaces before it (down to `start`). */
function trimmedEnd(start: number, end: number): number {
  while (end > start && b[end - 1] === SPACE) end--
  return end
}

/** May a plain scalar start like this (no indicator, no leading space)? */
function isPlainStart(s: string): boolean {
  if (s === '') return false
  switch (s.charCodeAt(0)) {
    case 0x2d: // -
    case 0x3f: // ?
    case 0x3a: // :
      return s.length > 1 && s.charCodeAt(1) !== SPACE
    case 0x2c: case 0x5b: case 0x5d: case 0x7b: case 0x7d: // , [ ] { }
    case 0x23: case 0x26: case 0x2a: case 0x21: case 0x7c: // # & * ! |
    case 0x3e: case 0x27: case 0x22: case 0x25: case 0x40: // > ' " % @
    case 0x60: case SPACE: // ` and a space
      return false
    default:
      return true
  }
}

/** Is t[from, end) a mapping entry (`key: value` or `key:`)? */
function startsMappingEntry(t: string, from: number, end: number): boolean {
  const q = b[from]
  if (q === 0x22 || q === 0x27) return b[closingQuote(from, end) + 1] === 0x3a
  const sp = t.indexOf(': ', from)
  return (sp >= 0 && sp < end) || b[end - 1] === 0x3a
}

/** The index of the quote closing the quoted scalar that opens at `start`, before `end`. */
function closingQuote(start: number, end: number): number {
  const q = b[start]
  for (let j = start + 1; j < end; j++) {
    const c = b[j]
    if (c < SPACE || c > TILDE) throw GIVE_UP
    if (q === 0x22) {
      if (c === 0x5c /* \ */) {
        j++
        continue
      }
      if (c === 0x22) return j
    } else if (c === 0x27) {
      if (b[j + 1] === 0x27 && j + 1 < end) {
        j++
        continue
      }
      return j
    }
  }
  throw GIVE_UP // a multi-line quoted scalar
}

const JSON_ESCAPE = /\\[^"\\/bfnrtu]/

function quoted(t: string, open: number, close: number): string {
  const body = own(t.slice(open + 1, close))
  if (b[open] === 0x27) return body.includes("''") ? body.replaceAll("''", "'") : body
  if (!body.includes('\\')) return body
  if (JSON_ESCAPE.test(body)) throw GIVE_UP // a YAML-only escape (\x, \0, \e, \N, ...)
  try {
    return JSON.parse(`"${body}"`) as string
  } catch {
    throw GIVE_UP
  }
}

/** A quoted scalar's value, found by its text (quotes and all) when it is short and was met before. */
function quotedScalar(t: string, open: number, close: number): string {
  const end = close + 1
  const slot = end - open <= SHARED_MAX ? keySlot(open, end) : -1
  if (slot >= 0 && sameText(open, end, VALUE_TEXTS, slot)) return valueSlot[slot] as string
  const value = quoted(t, open, close)
  if (slot >= 0) {
    keepText(open, end, VALUE_TEXTS, slot)
    valueSlot[slot] = value
  }
  return value
}

/** A value written on the same line as its key or dash: t[from, end), end trimmed, whose textHash is `hash`. */
function inlineValue(t: string, from: number, end: number, hash: number): unknown {
  const c = b[from]
  if (c === 0x22 || c === 0x27) {
    const close = closingQuote(from, end)
    if (close !== end - 1) throw GIVE_UP // something after the closing quote
    return quotedScalar(t, from, close)
  }
  if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
    if (end - from === 2 && b[from + 1] === (c === 0x7b ? 0x7d : 0x5d)) return c === 0x7b ? {} : []
    const flow = new FlowReader(t, from, end)
    const value = flow.value()
    if (flow.pos !== end) throw GIVE_UP // something after the closing bracket
    return value
  }
  const slot = end - from <= SHARED_MAX ? slotOf(hash, end - from) : -1
  if (slot >= 0 && sameText(from, end, VALUE_TEXTS, slot)) return valueSlot[slot]
  printable(from, end)
  const v = t.slice(from, end)
  if (!isPlainStart(v) || v.includes(': ') || v.charCodeAt(v.length - 1) === 0x3a || v.includes(' #')) throw GIVE_UP
  const value = valueOf(v)
  if (slot >= 0) {
    keepText(from, end, VALUE_TEXTS, slot)
    valueSlot[slot] = value
  }
  return value
}

// ---------------------------------------------------------------------------------------------
// What the parsed value keeps. Objects read are kept to the end of a run, so they should hold no
// more than their values: a slice of 13 characters or more is a view into the whole document's
// text, which would keep that text alive (own() copies it); the same short scalar (`v1`, `TCP`,
// `http`) on every object is one string (valueOf); an array grown by push has room for 16.

/** Plain scalars resolved so far, and keys; bounded, so that a huge input does not grow it without end. */
const VALUES = new Map<string, unknown>()
const KEYS = new Map<string, string>()
const CACHE_MAX = 1 << 16
/** Longer scalars are mostly names and unique: not remembered. */
const SHARED_MAX = 24

function valueOf(s: string): unknown {
  return s.length > SHARED_MAX ? plainValue(own(s)) : remembered(VALUES, s, plainValue)
}

const keyOf = (raw: string): string => remembered(KEYS, raw, plainKey)

/** `resolve(s)`, remembered in `cache` (keyed by a copy of `s` of its own). */
function remembered<T>(cache: Map<string, T>, s: string, resolve: (s: string) => T): T {
  const known = cache.get(s)
  if (known !== undefined) return known
  const copy = own(s)
  const v = resolve(copy)
  if (cache.size < CACHE_MAX) cache.set(copy, v)
  return v
}

/**
 * Block mapping keys met before, found by their text in place (nothing cut out of the document):
 * a table indexed by a hash of the key's characters, one key per slot, with the key it resolves
 * to and that key's bit (keyBit). Only keys that passed the checks of a plain key (and are
 * neither `<<` nor `__proto__`) are remembered, so a key found here needs none.
 */
const SLOT_BITS = 12
const KEY_SLOTS = 1 << SLOT_BITS
const slotKey: string[] = new Array(KEY_SLOTS).fill('')
const slotBit: number[] = new Array(KEY_SLOTS).fill(0)

/** The same for scalars of up to SHARED_MAX characters written as a whole value (plain, or quoted with their quotes): their text, and what it resolves to. */
const valueSlot: unknown[] = new Array(KEY_SLOTS).fill(null)

/**
 * The texts of a table's slots, as character codes (each slot TEXT_MAX of them, and its length; 0:
 * empty). Compared with the document's characters in place: bytes in one typed array read faster
 * than the characters of strings of several kinds (sliced, flat), and hold no string alive.
 */
interface SlotTexts {
  chars: Uint8Array
  lengths: Uint8Array
}
/** Longer keys are not remembered (they are looked up by their text, keyOf). */
const TEXT_MAX = 64
const slotTexts = (): SlotTexts => ({chars: new Uint8Array(KEY_SLOTS * TEXT_MAX), lengths: new Uint8Array(KEY_SLOTS)})
const KEY_TEXTS = slotTexts()
const VALUE_TEXTS = slotTexts()

/**
 * Manifests repeat themselves: the key read after a key is most often the one read after it last
 * time, and a key's value the one it had last time. Each is remembered by slot, and tried first by
 * its text (a guess costs one comparison; hashing the text is then not needed).
 */
const NEXT_KEY = new Uint16Array(KEY_SLOTS)
const NEXT_VALUE = new Uint16Array(KEY_SLOTS)
/** The slot of the plain key read last (in any document). */
let lastKey = 0

/**
 * The slot of a text of `length` characters whose hash (h * 31 + c over its characters, from 0) is
 * `h`: the top bits of a multiplication by the golden ratio, which spreads the keys of a manifest
 * evenly (the low bits of the hash alone made keys such as `memory` and `tier` share a slot, and
 * each then put the other out, on every object).
 */
function slotOf(h: number, length: number): number {
  return Math.imul((h + length) | 0, 0x9e3779b1) >>> (32 - SLOT_BITS)
}

/** The hash slotOf takes: h * 31 + c over the characters of t[from, to), from 0. */
function textHash(from: number, to: number): number {
  let h = 0
  for (let i = from; i < to; i++) h = (Math.imul(h, 31) + b[i]) | 0
  return h
}

function keySlot(from: number, to: number): number {
  return slotOf(textHash(from, to), to - from)
}

/** Is t[from, to) the text of `slot` in `texts`? */
function sameText(from: number, to: number, texts: SlotTexts, slot: number): boolean {
  return texts.lengths[slot] === to - from && textAt(from, texts, slot) >= 0
}

/** Where the text of `slot` in `texts` ends when t has it at `from`; -1 otherwise (and for an empty slot: no text read is empty). */
function textAt(from: number, texts: SlotTexts, slot: number): number {
  const n = texts.lengths[slot]
  if (n === 0) return -1
  const chars = texts.chars
  const at = slot * TEXT_MAX
  for (let i = 0; i < n; i++) if (b[from + i] !== chars[at + i]) return -1
  return from + n
}

/** Does the colon at `colon` end a block mapping key (a space, a line break or the end after it)? */
function isKeyColon(colon: number): boolean {
  if (b[colon] !== 0x3a) return false
  const after = b[colon + 1]
  return after === SPACE || after === NL || colon + 1 >= b.length
}

/** Makes t[from, to) (printable ASCII) the text of `slot` in `texts`, or empties the slot when it is longer than TEXT_MAX. */
function keepText(from: number, to: number, texts: SlotTexts, slot: number): void {
  const n = to - from
  texts.lengths[slot] = n <= TEXT_MAX ? n : 0
  if (n > TEXT_MAX) return
  const at = slot * TEXT_MAX
  for (let i = 0; i < n; i++) texts.chars[at + i] = b[from + i]
}

/** One of 32 bits for a mapping key, by its characters: keys with different bits differ. */
function keyBit(key: string): number {
  let h = 0 // (textHash, over the key's characters rather than the document's)
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0
  return 1 << (slotOf(h, key.length) & 31)
}

/** The string as a copy of its own (not a view into the text it was sliced from). */
function own(s: string): string {
  return s.length < 13 ? s : ('\n' + s).slice(1)
}

/** The array at its length. */
function fit<T>(arr: T[]): T[] {
  return arr.length === 0 ? [] : arr.slice()
}

/**
 * A flow collection written on one line, t[from, end): nested `[…]` and `{key: value}` whose
 * scalars are quoted or plain. Anything a reader could take two ways gives up: a plain scalar
 * holding `:` `#` `?` or a quote, an empty entry (`[a, ]`, `{a: }`), a key without `: `, a
 * duplicate key, a single-pair mapping inside a sequence.
 */
class FlowReader {
  constructor(
    private readonly t: string,
    public pos: number,
    private readonly end: number,
  ) {}

  private skipSpaces(): void {
    while (this.pos < this.end && b[this.pos] === SPACE) this.pos++
  }

  /** A plain scalar's text, `pos` after it; a key's ends at its `: `. */
  private plain(key: boolean): string {
    const t = this.t
    const start = this.pos
    let p = start
    for (; p < this.end; p++) {
      const x = b[p]
      if (x === 0x2c /* , */ || x === 0x5d /* ] */ || x === 0x7d /* } */) break
      if (key && x === 0x3a && b[p + 1] === SPACE) break
      if (x < SPACE || x > TILDE) throw GIVE_UP
      if (x === 0x5b || x === 0x7b || x === 0x3a /* : */ || x === 0x23 /* # */ || x === 0x22 || x === 0x27 || x === 0x3f /* ? */) throw GIVE_UP
    }
    let e = p
    while (e > start && b[e - 1] === SPACE) e--
    const raw = t.slice(start, e)
    if (!isPlainStart(raw)) throw GIVE_UP
    this.pos = p
    return raw
  }

  /** A quoted scalar's value, or a plain scalar's text (`plain` tells which). */
  private quotedOrPlain(key: boolean): {text: string; plain: boolean} {
    const t = this.t
    const c = b[this.pos]
    if (c === 0x22 || c === 0x27) {
      const close = closingQuote(this.pos, this.end)
      const text = quotedScalar(t, this.pos, close)
      this.pos = close + 1
      return {text, plain: false}
    }
    return {text: this.plain(key), plain: true}
  }

  value(): unknown {
    const c = b[this.pos]
    if (c === 0x5b) return this.sequence()
    if (c === 0x7b) return this.mapping()
    const {text, plain} = this.quotedOrPlain(false)
    return plain ? valueOf(text) : text
  }

  /** After an entry: `,` then more, or the closing bracket (true). */
  private close(bracket: number): boolean {
    this.skipSpaces()
    const c = b[this.pos]
    if (this.pos >= this.end) throw GIVE_UP
    if (c === bracket) {
      this.pos++
      return true
    }
    if (c !== 0x2c) throw GIVE_UP
    this.pos++
    this.skipSpaces()
    if (this.pos >= this.end || b[this.pos] === bracket || b[this.pos] === 0x2c) throw GIVE_UP // an empty entry
    return false
  }

  private sequence(): unknown[] {
    this.pos++ // [
    const arr: unknown[] = []
    this.skipSpaces()
    if (b[this.pos] === 0x5d) {
      this.pos++
      return arr
    }
    for (;;) {
      arr.push(this.value())
      if (this.close(0x5d)) return fit(arr)
    }
  }

  private mapping(): Record<string, unknown> {
    this.pos++ // {
    const obj: Record<string, unknown> = {}
    this.skipSpaces()
    if (b[this.pos] === 0x7d) {
      this.pos++
      return obj
    }
    for (;;) {
      const c = b[this.pos]
      if (c === 0x5b || c === 0x7b) throw GIVE_UP // a complex key
      const {text, plain} = this.quotedOrPlain(true)
      const key = plain ? keyOf(text) : text
      if (key === '<<' || key === '__proto__' || Object.hasOwn(obj, key)) throw GIVE_UP // a key written twice
      // `key: value`, the colon right after the key
      if (b[this.pos] !== 0x3a || b[this.pos + 1] !== SPACE) throw GIVE_UP
      this.pos += 2
      this.skipSpaces()
      const v = b[this.pos]
      if (this.pos >= this.end || v === 0x2c || v === 0x7d) throw GIVE_UP // an empty value
      obj[key] = this.value()
      if (this.close(0x7d)) return obj
    }
  }
}
