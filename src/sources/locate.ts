// Finding where a field is written: given the text of one chunk (a YAML document, a YAML list
// item, a JSON value) and a path such as ['spec', 'selector', 'matchExpressions', 0, 'operator'],
// the 0-based offset of that field's value (or of its key). Only used when a position is actually
// needed, so it favours exactness over speed: YAML goes through the `yaml` package's full parser,
// JSON through a small scanner that skips what it does not need.
import type {Document, Node} from 'yaml'

import {yamlPackage} from '../yaml-package.js'

import {plainKey} from './yaml11.js'

export type Path = readonly (string | number)[]

export interface Found {
  /** Offset of the value (or of its key, when asked and the last step is a mapping key). */
  offset: number
  /** How many steps of the path were found (path.length when all were). */
  depth: number
}

/** The YAML path → offset search: plain block style by lines, anything else over the `yaml` package's AST. */
export function locateInYaml(text: string, path: Path, wantKey: boolean): Found {
  return locateInBlockYaml(text, path, wantKey) ?? locateInYamlAst(text, path, wantKey)
}

/** The search over the `yaml` package's AST: exact for any YAML, and about 30 times slower. */
export function locateInYamlAst(text: string, path: Path, wantKey: boolean): Found {
  const doc = yamlPackage().parseDocument(text, {schema: 'failsafe', uniqueKeys: false, prettyErrors: false, strict: false})
  return walkYaml(doc, path, wantKey)
}

// ---------------------------------------------------------------------------------------------
// Block-style YAML, by lines
//
// Most manifests are plain block style (as kubectl writes them): mappings of `key: value` lines,
// sequences of `- ` lines, nesting by indentation. Each step of the path is found by scanning the
// lines of the current node for its key (or its n-th `- ` item) at the node's indentation. The
// first line met that this reading is not sure of (a quoted or complex key, flow collections, tags,
// anchors and aliases, tabs, document markers inside) gives up, and the full parser decides.

/** Keys this reader compares as written: plain, and never resolved to something else by YAML 1.1. */
const SAFE_KEY = /^[A-Za-z_][A-Za-z0-9_.\/-]*$/
const RESOLVED_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/
const safeKey = (k: string) => SAFE_KEY.test(k) && !RESOLVED_WORDS.test(k)

/**
 * The content lines of the text being read, as far as read (lineAt): for line l, at 3l the offset
 * of its first character that is not a space, at 3l+1 its indentation, at 3l+2 the end of its
 * content (without trailing whitespace or a CR). Comment-only and blank lines are left out.
 * Offsets into the text, nothing cut out of it; one table, reused from text to text.
 */
let table = new Int32Array(3 * 256)

/** What String.prototype.trimEnd removes: JavaScript's WhiteSpace and LineTerminator. */
function isTrimmed(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  if (c < 0xa0) return false
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/**
 * The text whose lines are in `table`; how many are there, and where the next one starts (past
 * the end: all read). Lines are read only as far as a search goes: a field near the top of a long
 * object reads a few, and several fields of one object are located in a row.
 */
let lineText: string | undefined
let linesRead = 0
let nextLine = 0
/** A line read was not this reader's: no line after it is read. */
let unsureLine = false

/** What lineAt answers past the last line, and for a line this reader is not sure of. */
const NO_LINE = 0
const UNSURE = -1

/**
 * Whether content line l of `text` exists (1; NO_LINE past the last one), read into `table` if it
 * was not yet; UNSURE when a line before it or it is not this reader's (a tab for indentation, a
 * directive, a document marker with content).
 */
function lineAt(text: string, l: number): number {
  if (lineText !== text) {
    lineText = text
    linesRead = 0
    nextLine = 0
    unsureLine = false
  }
  while (linesRead <= l) {
    const pos = nextLine
    if (unsureLine) return UNSURE
    if (pos > text.length) return NO_LINE
    let end = text.indexOf('\n', pos)
    if (end < 0) end = text.length
    nextLine = end + 1
    let i = pos
    while (i < end && text.charCodeAt(i) === 0x20) i++
    // The line without its CR (a CRLF file), and without trailing whitespace.
    let e = end > i && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end
    while (e > i) {
      const c = text.charCodeAt(e - 1)
      if ((c > 0x20 && c < 0xa0) || !isTrimmed(c)) break // most lines end in a printable ASCII character
      e--
    }
    if (i < end && text.charCodeAt(i) === 0x09) return unsure()
    if (e > i && text.charCodeAt(i) !== 0x23 /* # */) {
      const c = text.charCodeAt(i)
      if (i === pos && e - i >= (c === 0x25 ? 1 : 3) && (text.startsWith('---', i) || text.startsWith('...', i) || c === 0x25 /* % */)) {
        if (e - i !== 3 || c !== 0x2d) return unsure() // a marker with content, a directive: not this reader's
      } else {
        if (3 * linesRead + 3 > table.length) {
          const bigger = new Int32Array(table.length * 2)
          bigger.set(table)
          table = bigger
        }
        table[3 * linesRead] = i
        table[3 * linesRead + 1] = i - pos
        table[3 * linesRead + 2] = e
        linesRead++
      }
    }
  }
  return 1
}

/** Line l of the text being read: read (1), or NO_LINE past the last, or UNSURE. */
function has(text: string, l: number): number {
  return l < linesRead ? 1 : lineAt(text, l)
}

// Line l's first character that is not a space, indentation, and end of content (the table may
// grow while the lines are read: it is looked up each time).
const starts = (l: number) => table[3 * l]
const indents = (l: number) => table[3 * l + 1]
const ends = (l: number) => table[3 * l + 2]

function unsure(): number {
  unsureLine = true
  return UNSURE
}

/**
 * The colon of `key: rest` in t[from, end) (a line's content, or past the dash of `- key: rest`),
 * the key plain and safe; -1 otherwise. Read in place: the lines passed over are only checked.
 */
function keyColon(t: string, from: number, end: number): number {
  const colon = t.indexOf(':', from)
  if (colon <= from || colon >= end) return -1
  for (let i = from; i < colon; i++) {
    const c = t.charCodeAt(i)
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f // A-Z a-z _
    if (!letter && (i === from || !((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2f || c === 0x2d))) return -1 // then also 0-9 . / -
  }
  if (colon - from <= 5 && RESOLVED_WORDS.test(t.slice(from, colon))) return -1
  if (colon + 1 < end && t.charCodeAt(colon + 1) !== 0x20) return -1 // `a:b` is a scalar, not a key
  return colon
}

/** t[from, end) is `-` alone or starts with `- `. */
function isDashEntry(t: string, from: number, end: number): boolean {
  return t.charCodeAt(from) === 0x2d && (end - from === 1 || (end - from >= 2 && t.charCodeAt(from + 1) === 0x20))
}

/** t[from, end) starts with `- `. */
function startsDash(t: string, from: number, end: number): boolean {
  return end - from >= 2 && t.charCodeAt(from) === 0x2d && t.charCodeAt(from + 1) === 0x20
}

/** A value that starts on the key's line, t[from, end): a plain or quoted scalar (not a flow collection, anchor, alias, tag or block scalar header). */
function isSimpleScalar(t: string, from: number, end: number): boolean {
  const c = t.charCodeAt(from)
  if (c === 0x7b || c === 0x5b || c === 0x26 || c === 0x2a || c === 0x21 || c === 0x7c || c === 0x3e || c === 0x3f) return false // { [ & * ! | > ?
  for (let i = from; i < end - 1; i++) if (t.charCodeAt(i) === 0x20 && t.charCodeAt(i + 1) === 0x23) return false // ` #`: a comment follows
  return true
}

/** What keyLine and itemLine answer when a line on the way is not this reader's. */
const NOT_SURE = -2

/** Where the value of the entry keyLine or itemLine found starts on its line, and where the line's content ends. */
let valueStart = 0
let valueEnd = 0

/** Where entry line l starts: past the `- ` that the node's first entry may share its line with. */
function entryStart(l: number, from: number, firstColumn: number): number {
  return l === from ? starts(l) + firstColumn - indents(l) : starts(l)
}

/** The value after t[.., c) on line l, which ends at e: l, with valueStart and valueEnd set. */
function valueAfter(t: string, l: number, c: number, e: number): number {
  while (c < e && t.charCodeAt(c) === 0x20) c++
  valueStart = c
  valueEnd = e
  return l
}

/** The line of mapping entry `key` among lines [from, to) (entries at column `indent`); -1 when there is none; NOT_SURE. */
function keyLine(text: string, from: number, to: number, indent: number, firstColumn: number, key: string): number {
  for (let l = from; l < to; l++) {
    const line = has(text, l)
    if (line !== 1) return line === UNSURE ? NOT_SURE : -1
    if ((l === from ? firstColumn : indents(l)) !== indent) continue
    const s = entryStart(l, from, firstColumn)
    const e = ends(l)
    if (isDashEntry(text, s, e)) return NOT_SURE // a sequence where a mapping was expected
    const colon = keyColon(text, s, e)
    if (colon < 0) return NOT_SURE
    if (colon - s === key.length && text.startsWith(key, s)) return valueAfter(text, l, colon + 1, e)
  }
  return -1
}

/** The line of sequence entry `n` among lines [from, to) (entries at column `indent`); -1 when there is none; NOT_SURE. */
function itemLine(text: string, from: number, to: number, indent: number, firstColumn: number, n: number): number {
  let i = -1
  for (let l = from; l < to; l++) {
    const line = has(text, l)
    if (line !== 1) return line === UNSURE ? NOT_SURE : -1
    if ((l === from ? firstColumn : indents(l)) !== indent) continue
    const s = entryStart(l, from, firstColumn)
    const e = ends(l)
    if (!isDashEntry(text, s, e)) return NOT_SURE // a mapping where a sequence was expected
    if (++i === n) return valueAfter(text, l, s + 1, e)
  }
  return -1
}

/**
 * Where the lines of entry line `hit`'s node end: those after it indented deeper than the entry (a
 * sequence under a key may also sit at the key's own indentation); NOT_SURE. With `one`, only
 * whether there is such a line (hit + 1 when none).
 */
function nodeEnd(text: string, hit: number, to: number, indent: number, isKey: boolean, one: boolean): number {
  let end = hit + 1
  while (end < to) {
    const line = has(text, end)
    if (line === UNSURE) return NOT_SURE
    if (line === NO_LINE || !(indents(end) > indent || (isKey && indents(end) === indent && isDashEntry(text, starts(end), ends(end))))) break
    end++
    if (one) break
  }
  return end
}

export function locateInBlockYaml(text: string, path: Path, wantKey: boolean): Found | undefined {
  if (lineAt(text, 0) !== 1) return undefined
  // The current node: lines [from, to), its entries at column `indent`; `firstColumn` is where
  // the first entry starts on line `from` (further right than the line's indentation when the
  // entry shares its line with a `- `). The whole text's lines end where lineAt finds no more.
  let from = 0
  let to = Infinity
  let indent = indents(0)
  let firstColumn = indents(0)
  let offset = starts(0)
  let keyOffset: number | undefined
  let depth = 0
  for (let k = 0; k < path.length; k++) {
    const step = path[k]
    if (from >= to) return undefined
    const isKey = typeof step !== 'number'
    const hit = isKey ? (safeKey(step) ? keyLine(text, from, to, indent, firstColumn, step) : NOT_SURE) : itemLine(text, from, to, indent, firstColumn, step)
    if (hit === NOT_SURE) return undefined
    if (hit < 0) return {offset: keyOffset ?? offset, depth} // a missing field: the deepest key that exists
    const rest = valueStart // the rest of the entry's line, up to restEnd
    const restEnd = valueEnd
    const lineStart = entryStart(hit, from, firstColumn)
    keyOffset = isKey ? lineStart : rest
    // The node's lines; the last step needs only to know whether there are any.
    const end = nodeEnd(text, hit, to, indent, isKey, k === path.length - 1)
    if (end === NOT_SURE) return undefined
    if (rest < restEnd) {
      // The value starts on this line: a scalar, or (in a sequence) the first entry of a nested mapping or sequence.
      if (!isKey && (startsDash(text, rest, restEnd) || keyColon(text, rest, restEnd) >= 0)) {
        offset = rest
        from = hit
        to = end
        firstColumn = rest - (starts(hit) - indents(hit))
        indent = firstColumn
        depth++
        continue
      }
      if (!isSimpleScalar(text, rest, restEnd)) return undefined
      offset = rest
      depth++
      if (depth < path.length) return {offset: keyOffset, depth} // a scalar has no fields
      continue
    }
    if (end === hit + 1) {
      // `key:` with nothing after it: null.
      offset = keyOffset
      depth++
      if (depth < path.length) return {offset: keyOffset, depth}
      continue
    }
    from = hit + 1
    to = end
    indent = indents(from)
    firstColumn = indent
    offset = starts(from)
    depth++
  }
  return {offset: wantKey && keyOffset !== undefined ? keyOffset : offset, depth}
}

function walkYaml(doc: Document, path: Path, wantKey: boolean): Found {
  let node: unknown = doc.contents
  let offset = startOf(node) ?? 0
  let keyOffset: number | undefined
  let depth = 0
  for (const step of path) {
    node = deref(doc, node)
    const next = childOf(doc, node, step)
    if (!next) {
      // A missing field: point at the key of the deepest field that exists.
      return {offset: keyOffset ?? offset, depth}
    }
    keyOffset = next.key
    node = next.value
    offset = startOf(node) ?? keyOffset ?? offset
    depth++
  }
  return {offset: wantKey && keyOffset !== undefined ? keyOffset : offset, depth}
}

function deref(doc: Document, node: unknown): unknown {
  for (let i = 0; i < 16 && yamlPackage().isAlias(node); i++) node = node.resolve(doc)
  return node
}

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null)?.range
  return range ? range[0] : undefined
}

function childOf(doc: Document, node: unknown, step: string | number): {key?: number; value: unknown} | undefined {
  if (yamlPackage().isSeq(node)) {
    if (typeof step !== 'number' || step < 0 || step >= node.items.length) return undefined
    const item = node.items[step]
    return {value: item, key: startOf(item)}
  }
  if (yamlPackage().isMap(node)) {
    const wanted = String(step)
    for (const pair of node.items) {
      if (keyString(pair.key) === wanted) return {key: startOf(pair.key), value: pair.value ?? pair.key}
    }
    // Merge keys (`<<: *base` or `<<: [*a, *b]`): explicit keys win, then the merged mappings in
    // order (the first one that has the key wins, as in the YAML merge-key spec).
    for (const pair of node.items) {
      if (keyString(pair.key) !== '<<') continue
      const sources = yamlPackage().isSeq(deref(doc, pair.value)) ? (deref(doc, pair.value) as {items: unknown[]}).items : [pair.value]
      for (const source of sources) {
        const hit = childOf(doc, deref(doc, source), step)
        if (hit) return hit
      }
    }
  }
  return undefined
}

function keyString(key: unknown): string | undefined {
  if (yamlPackage().isScalar(key)) {
    if (key.type === 'PLAIN') return plainKey(String(key.source ?? key.value))
    return String(key.value)
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// JSON

const WS = new Set([0x20, 0x09, 0x0a, 0x0d])

/** A tiny JSON scanner: enough to skip values and read keys, assuming the text is valid JSON. */
class JsonCursor {
  pos: number
  constructor(readonly text: string, start = 0) {
    this.pos = start
  }

  ws(): number {
    const t = this.text
    while (this.pos < t.length && WS.has(t.charCodeAt(this.pos))) this.pos++
    return t.charCodeAt(this.pos)
  }

  /** Skips a string starting at pos (on the opening quote); returns its decoded value. */
  string(): string {
    const t = this.text
    const start = this.pos
    let i = start + 1
    for (;;) {
      const q = t.indexOf('"', i)
      if (q < 0) throw new Error('unterminated string')
      let backslashes = 0
      for (let j = q - 1; t.charCodeAt(j) === 0x5c; j--) backslashes++
      i = q + 1
      if (backslashes % 2 === 0) break
    }
    this.pos = i
    return JSON.parse(t.slice(start, i)) as string
  }

  value(): void {
    const c = this.ws()
    if (c === 0x22) {
      this.string()
    } else if (c === 0x7b || c === 0x5b) {
      const close = c === 0x7b ? 0x7d : 0x5d
      this.pos++
      if (this.ws() === close) {
        this.pos++
        return
      }
      for (;;) {
        if (c === 0x7b) {
          this.ws()
          this.string()
          this.ws()
          this.pos++ // ':'
        }
        this.value()
        const d = this.ws()
        this.pos++
        if (d === close) return
      }
    } else {
      const t = this.text
      while (this.pos < t.length) {
        const d = t.charCodeAt(this.pos)
        if (d === 0x2c || d === 0x7d || d === 0x5d || WS.has(d)) break
        this.pos++
      }
    }
  }
}

/**
 * The offset of `path` in the JSON text (from `start`; skipping `skip` top-level values first, for
 * JSON streams). Missing steps stop at the deepest field found, at its key.
 */
export function locateInJson(text: string, path: Path, wantKey: boolean, start = 0, skip = 0): Found {
  const cur = new JsonCursor(text, start)
  for (let i = 0; i < skip; i++) cur.value()
  cur.ws()
  let offset = cur.pos
  let keyOffset: number | undefined
  let depth = 0
  for (const step of path) {
    const c = cur.ws()
    let found = false
    if (c === 0x7b && typeof step === 'string') {
      cur.pos++
      if (cur.ws() !== 0x7d) {
        for (;;) {
          cur.ws()
          const keyAt = cur.pos
          const key = cur.string()
          cur.ws()
          cur.pos++ // ':'
          if (key === step) {
            keyOffset = keyAt
            found = true
            break
          }
          cur.value()
          if (cur.ws() === 0x7d) break
          cur.pos++ // ','
        }
      }
    } else if (c === 0x5b && typeof step === 'number') {
      cur.pos++
      if (cur.ws() !== 0x5d) {
        for (let i = 0; ; i++) {
          if (i === step) {
            cur.ws()
            keyOffset = cur.pos
            found = true
            break
          }
          cur.value()
          if (cur.ws() === 0x5d) break
          cur.pos++ // ','
        }
      }
    }
    if (!found) return {offset: depth > 0 && keyOffset !== undefined ? keyOffset : offset, depth}
    cur.ws()
    offset = cur.pos
    depth++
  }
  return {offset: wantKey && keyOffset !== undefined ? keyOffset : offset, depth}
}

// ---------------------------------------------------------------------------------------------

/** 0-based offset in `text` → 1-based line and column (columns count UTF-16 code units). */
export function linePos(text: string, offset: number): {line: number; col: number} {
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return {line, col: offset - lineStart + 1}
}
