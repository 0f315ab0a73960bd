// Finding where a field is written: given the text of one chunk (a YAML document, a YAML list
// item, a JSON value) and a path such as ['spec', 'selector', 'matchExpressions', 0, 'operator'],
// the 0-based offset of that field's value (or of its key). Only used when a position is actually
// needed, so it favours exactness over speed: YAML goes through the `yaml` package's full parser,
// JSON through a small scanner that skips what it does not need.
import {isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node} from 'yaml'

import {plainKey} from './yaml11.js'

export type Path = readonly (string | number)[]

export interface Found {
  /** Offset of the value (or of its key, when asked and the last step is a mapping key). */
  offset: number
  /** How many steps of the path were found (path.length when all were). */
  depth: number
}

/** The YAML path → offset search, over the `yaml` package's AST. */
export function locateInYaml(text: string, path: Path, wantKey: boolean): Found {
  const doc = parseDocument(text, {schema: 'failsafe', uniqueKeys: false, prettyErrors: false, strict: false})
  return walkYaml(doc, path, wantKey)
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
  for (let i = 0; i < 16 && isAlias(node); i++) node = node.resolve(doc)
  return node
}

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null)?.range
  return range ? range[0] : undefined
}

function childOf(doc: Document, node: unknown, step: string | number): {key?: number; value: unknown} | undefined {
  if (isSeq(node)) {
    if (typeof step !== 'number' || step < 0 || step >= node.items.length) return undefined
    const item = node.items[step]
    return {value: item, key: startOf(item)}
  }
  if (isMap(node)) {
    const wanted = String(step)
    for (const pair of node.items) {
      if (keyString(pair.key) === wanted) return {key: startOf(pair.key), value: pair.value ?? pair.key}
    }
    // Merge keys (`<<: *base` or `<<: [*a, *b]`): explicit keys win, then the merged mappings in
    // order (the first one that has the key wins, as in the YAML merge-key spec).
    for (const pair of node.items) {
      if (keyString(pair.key) !== '<<') continue
      const sources = isSeq(deref(doc, pair.value)) ? (deref(doc, pair.value) as {items: unknown[]}).items : [pair.value]
      for (const source of sources) {
        const hit = childOf(doc, deref(doc, source), step)
        if (hit) return hit
      }
    }
  }
  return undefined
}

function keyString(key: unknown): string | undefined {
  if (isScalar(key)) {
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
