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

interface Line {
  /** Offset of the first character that is not a space. */
  start: number
  indent: number
  /** The line's content from `start`, without trailing spaces and without a comment-only line. */
  content: string
}

function blockLines(text: string): Line[] | undefined {
  const lines: Line[] = []
  let pos = 0
  while (pos <= text.length) {
    let end = text.indexOf('\n', pos)
    if (end < 0) end = text.length
    let i = pos
    while (i < end && text.charCodeAt(i) === 0x20) i++
    // The line without its CR (a CRLF file), and without trailing whitespace.
    const content = text.slice(i, end > i && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end).trimEnd()
    if (text.charCodeAt(i) === 0x09 && i < end) return undefined
    if (content !== '' && !content.startsWith('#')) {
      if (i === pos && (content.startsWith('---') || content.startsWith('...') || content.startsWith('%'))) {
        if (content !== '---') return undefined // a marker with content, a directive: not this reader's
      } else lines.push({start: i, indent: i - pos, content})
    }
    pos = end + 1
  }
  return lines
}

/**
 * The colon of `key: rest` on a line (or `- key: rest`, with `from` past the dash), the key plain
 * and safe; -1 otherwise. Read in place: the lines before the one looked for are only checked.
 */
function keyColon(content: string, from: number): number {
  const colon = content.indexOf(':', from)
  if (colon <= from) return -1
  for (let i = from; i < colon; i++) {
    const c = content.charCodeAt(i)
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f // A-Z a-z _
    if (!letter && (i === from || !((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2f || c === 0x2d))) return -1 // then also 0-9 . / -
  }
  if (colon - from <= 5 && RESOLVED_WORDS.test(content.slice(from, colon))) return -1
  if (colon + 1 < content.length && content.charCodeAt(colon + 1) !== 0x20) return -1 // `a:b` is a scalar, not a key
  return colon
}

/** Where the value of the `key: rest` whose colon is at `colon` starts. */
function restAfter(content: string, colon: number): number {
  let rest = colon + 1
  while (content.charCodeAt(rest) === 0x20) rest++
  return rest
}

/** A value that starts on the key's line: a plain or quoted scalar (not a flow collection, anchor, alias, tag or block scalar header). */
function isSimpleScalar(text: string): boolean {
  const c = text[0]
  return c !== '{' && c !== '[' && c !== '&' && c !== '*' && c !== '!' && c !== '|' && c !== '>' && c !== '?' && !text.includes(' #')
}

/** The lines of the last text searched: several fields of one object are located in a row. */
let lastLines: {text: string; lines: Line[] | undefined} | undefined

export function locateInBlockYaml(text: string, path: Path, wantKey: boolean): Found | undefined {
  if (lastLines?.text !== text) lastLines = {text, lines: blockLines(text)}
  const lines = lastLines.lines
  if (!lines || lines.length === 0) return undefined
  // The current node: lines [from, to), its entries at column `indent`; `firstColumn` is where
  // the first entry starts on line `from` (further right than the line's indentation when the
  // entry shares its line with a `- `).
  let from = 0
  let to = lines.length
  let indent = lines[0].indent
  let firstColumn = lines[0].indent
  let offset = lines[0].start
  let keyOffset: number | undefined
  let depth = 0
  for (const step of path) {
    if (from >= to) return undefined
    const entryIndent = (l: number) => (l === from ? firstColumn : lines[l].indent)
    const entryText = (l: number) => (l === from ? lines[l].content.slice(firstColumn - lines[l].indent) : lines[l].content)
    let hit = -1
    let at = 0
    let rest = ''
    if (typeof step === 'number') {
      let n = -1
      for (let l = from; l < to; l++) {
        if (entryIndent(l) !== indent) continue
        const t = entryText(l)
        if (!(t === '-' || t.startsWith('- '))) return undefined // a mapping where a sequence was expected
        if (++n === step) {
          hit = l
          let c = 1
          while (t.charCodeAt(c) === 0x20) c++
          at = c
          rest = t.slice(c)
          break
        }
      }
    } else {
      if (!safeKey(String(step))) return undefined
      for (let l = from; l < to; l++) {
        if (entryIndent(l) !== indent) continue
        const t = entryText(l)
        if (t.startsWith('- ') || t === '-') return undefined // a sequence where a mapping was expected
        const colon = keyColon(t, 0)
        if (colon < 0) return undefined
        if (colon === step.length && t.startsWith(step)) {
          hit = l
          at = restAfter(t, colon)
          rest = t.slice(at)
          break
        }
      }
    }
    if (hit < 0) return {offset: keyOffset ?? offset, depth} // a missing field: the deepest key that exists
    const lineStart = lines[hit].start + (hit === from ? firstColumn - lines[hit].indent : 0)
    keyOffset = typeof step === 'number' ? lineStart + at : lineStart
    // The node's lines: those after the entry line, indented deeper than the entry (a sequence
    // under a key may also sit at the key's own indentation).
    let end = hit + 1
    while (end < to && (lines[end].indent > indent || (typeof step !== 'number' && lines[end].indent === indent && (lines[end].content === '-' || lines[end].content.startsWith('- '))))) end++
    if (rest !== '') {
      // The value starts on this line: a scalar, or (in a sequence) the first entry of a nested mapping or sequence.
      if (typeof step === 'number' && (rest.startsWith('- ') || keyColon(rest, 0) >= 0)) {
        const lineBegin = lines[hit].start - lines[hit].indent
        offset = lineStart + at
        from = hit
        to = end
        firstColumn = lineStart + at - lineBegin
        indent = firstColumn
        depth++
        continue
      }
      if (!isSimpleScalar(rest)) return undefined
      offset = lineStart + at
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
    indent = lines[from].indent
    firstColumn = indent
    offset = lines[from].start
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
