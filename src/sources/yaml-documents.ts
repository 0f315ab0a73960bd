// Reading YAML fixture files into objects: documents cut at the byte level, big `kind: List`
// documents cut into their items, managedFields blanked before parsing (see documents.ts).
import {isAscii} from 'node:buffer'
import {load as loadYaml, type YAMLException} from 'js-yaml'
import {UserError} from '../errors.js'
import {SourceFile} from './files.js'
import {linePos} from './locate.js'
import {KUBE_YAML_SCHEMA} from './yaml11.js'
import {bomLength, Chunk, isBlankByte, isListKind, isMapping, NESTED, parseYamlText, type Report, SourceObject, TOP, unpack, unpackListTail, unpackOne} from './source-object.js'

// ---------------------------------------------------------------------------------------------
// YAML

/** Is there a document marker (`---` or `...`, then a blank or the end) at byte `p`, a line start? */
function markerAt(buf: Buffer, p: number): '---' | '...' | undefined {
  const c = buf[p]
  if ((c !== 0x2d && c !== 0x2e) || buf[p + 1] !== c || buf[p + 2] !== c || !isBlankByte(buf[p + 3])) return undefined
  return c === 0x2d ? '---' : '...'
}

const DASHES = Buffer.from('\n---')
const DOTS = Buffer.from('...')

/**
 * Cuts a YAML stream into documents: [start, end) byte ranges, each starting at a line start.
 * `---` starts a new document (the marker line belongs to it); `...` ends one (its line belongs to
 * the document it ends).
 */
export function splitYamlDocuments(buf: Buffer, from = 0): Array<[number, number]> {
  const boundaries: Array<[number, '---' | '...']> = []
  const atStart = markerAt(buf, from)
  if (atStart) boundaries.push([from, atStart])
  for (let i = buf.indexOf(DASHES, from); i >= 0; i = buf.indexOf(DASHES, i + 1)) {
    if (markerAt(buf, i + 1)) boundaries.push([i + 1, '---'])
  }
  // `...` lines (rare) are found by their dots, which are rarer than line breaks, then merged in
  // by sorting (`---` lines come in order).
  let sorted = true
  for (let i = buf.indexOf(DOTS, from + 1); i >= 0; i = buf.indexOf(DOTS, i + 1)) {
    if (buf[i - 1] === 0x0a && markerAt(buf, i)) {
      boundaries.push([i, '...'])
      sorted = false
    }
  }
  if (!sorted) boundaries.sort((a, b) => a[0] - b[0])
  const ranges: Array<[number, number]> = []
  let cur = from
  for (const [at, kind] of boundaries) {
    if (kind === '---') {
      if (at > cur) ranges.push([cur, at])
      cur = at
    } else {
      const nl = buf.indexOf(10, at)
      const end = nl < 0 ? buf.length : nl + 1
      ranges.push([cur, end])
      cur = end
    }
  }
  if (cur < buf.length) ranges.push([cur, buf.length])
  return ranges
}

/**
 * The first byte of content in [start, end): skips blank lines, comment lines, directives and the
 * `---` marker itself. -1 when the range holds no document content. `directivesOnly` tells whether
 * the range held directives (a `%YAML` line belongs to the document that follows).
 */
function contentStart(buf: Buffer, start: number, end: number): {at: number; directives: boolean} {
  let p = start
  let directives = false
  while (p < end) {
    const c = buf[p]
    if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) {
      p++
      continue
    }
    if (c === 0x23 /* # */ || (c === 0x25 /* % */ && (p === start || buf[p - 1] === 0x0a))) {
      if (c === 0x25) directives = true
      const nl = buf.indexOf(10, p)
      p = nl < 0 || nl >= end ? end : nl + 1
      continue
    }
    const marker = (p === start || buf[p - 1] === 0x0a) && markerAt(buf, p)
    if (marker === '---') {
      p += 3
      continue
    }
    if (marker === '...') {
      const nl = buf.indexOf(10, p)
      p = nl < 0 || nl >= end ? end : nl + 1
      continue
    }
    return {at: p, directives}
  }
  return {at: -1, directives}
}

export function* readYaml(file: SourceFile, buf: Buffer, counter: {n: number}, report: Report): Generator<SourceObject> {
  const ascii = isAscii(buf)
  const decode = (start: number, end: number) => (ascii ? buf.toString('latin1', start, end) : buf.toString('utf8', start, end))
  const ranges = splitYamlDocuments(buf, bomLength(buf))
  for (let r = 0; r < ranges.length; r++) {
    const [start, end] = ranges[r]
    const content = contentStart(buf, start, end)
    if (content.at < 0) {
      // Only directives: they belong to the next document.
      if (content.directives && r + 1 < ranges.length) ranges[r + 1] = [start, ranges[r + 1][1]]
      continue
    }
    // A big `kind: List` document (`kubectl get -o yaml`): read item by item.
    let done = 0
    const list = end - start > LIST_SPLIT_MIN ? yamlListItems(buf, start, end) : undefined
    if (list) {
      for (const [itemStart, itemEnd] of list.items) {
        let item: unknown
        try {
          item = parseYamlText(blankManagedFields(decode(itemStart, itemEnd), list.indent + 2))
        } catch {
          break // read the document whole, which reports the error where it is
        }
        if (!Array.isArray(item) || item.length !== 1) break // not what it seemed: read the document whole
        yield* unpack(item[0], new Chunk(file, itemStart, itemEnd), [0], counter, report, list.defaults)
        done++
      }
      if (done === list.items.length) continue
    }
    const chunk = new Chunk(file, start, end)
    const text = decode(start, end)
    const template = text.includes('{{') ? helmTemplateAt(text) : -1
    if (template >= 0) {
      report(helmTemplateError(chunk, text, template))
      continue
    }
    let value: unknown
    try {
      value = parseYamlText(blankManagedFields(text))
    } catch (error) {
      report(yamlParseError(chunk, text, error))
      continue
    }
    if (value === null || value === undefined) continue // an empty document (`~`, or comments)
    if (done > 0 && isMapping(value) && Array.isArray(value.items)) yield* unpackListTail(value, value.items as unknown[], done, chunk, counter, report)
    else {
      // Most documents are one object: unpacked without a generator of their own.
      const one = unpackOne(value, chunk, TOP, counter, report) // the chunk is the object's locator
      if (one === NESTED) yield* unpack(value, chunk, TOP, counter, report)
      else if (one !== undefined) yield one
    }
  }
}

/** Documents smaller than this are parsed whole even when they are lists. */
const LIST_SPLIT_MIN = 1 << 18

/**
 * The items of a `kind: List` (or `*List`) document laid out in block style, as byte ranges of
 * whole lines: `items:` at column 0 with nothing after it, then entries `- ` at one indentation I
 * (0 or 2 in practice). Every line inside an entry is indented deeper than I (block scalars and
 * continuation lines included), so the lines starting with I spaces and `- ` are exactly the
 * entries. Each range parses on its own as a one-item sequence; the caller checks that it does.
 * Undefined when the document is anything else (the rest of the document is then checked to be a
 * list envelope here).
 */
function yamlListItems(buf: Buffer, start: number, end: number): {items: Array<[number, number]>; indent: number; defaults: {kind: string; apiVersion: unknown}} | undefined {
  const doc = buf.subarray(start, end)
  const key = doc.indexOf('\nitems:')
  if (key < 0) return undefined
  let p = start + key + 7
  while (buf[p] === 0x20) p++
  if (buf[p] !== 0x0a) return undefined
  const first = p + 1
  // The first entry: skip blank and comment lines.
  let lineStart = first
  let indent = -1
  while (lineStart < end) {
    let k = lineStart
    while (buf[k] === 0x20) k++
    if (buf[k] === 0x0a || buf[k] === 0x23) {
      const nl = buf.indexOf(0x0a, k)
      lineStart = nl < 0 ? end : nl + 1
      continue
    }
    if (buf[k] === 0x2d && (buf[k + 1] === 0x20 || buf[k + 1] === 0x0a)) indent = k - lineStart
    break
  }
  if (indent < 0) return undefined
  const needle = Buffer.from(`\n${' '.repeat(indent)}-`)
  const starts = [lineStart]
  for (let j = doc.indexOf(needle, lineStart - start); j >= 0; j = doc.indexOf(needle, j + 1)) {
    const after = buf[start + j + needle.length]
    if (after === 0x20 || after === 0x0a) starts.push(start + j + 1)
  }
  // The last entry ends at the first line indented at most I that is not an entry.
  let seqEnd = end
  for (let q = starts[starts.length - 1]; q < end; ) {
    const nl = buf.indexOf(0x0a, q)
    q = nl < 0 || nl >= end ? end : nl + 1
    if (q >= end) break
    let k = q
    while (buf[k] === 0x20) k++
    if (buf[k] === 0x0a || buf[k] === 0x23 || k - q > indent) continue
    if (k - q === indent && buf[k] === 0x2d && (buf[k + 1] === 0x20 || buf[k + 1] === 0x0a)) continue
    seqEnd = q
    break
  }
  while (starts.length > 0 && starts[starts.length - 1] >= seqEnd) starts.pop() // later sequences
  if (starts.length === 0) return undefined
  // The rest of the document must be a list envelope.
  let envelope: unknown
  try {
    envelope = parseYamlText(buf.toString('utf8', start, first) + buf.toString('utf8', seqEnd, end))
  } catch {
    return undefined
  }
  if (!isMapping(envelope) || !isListKind(envelope.kind) || envelope.items !== null) return undefined
  const items = starts.map((s, i): [number, number] => [s, i + 1 < starts.length ? starts[i + 1] : seqEnd])
  const kind = envelope.kind
  return {items, indent, defaults: {kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion: envelope.apiVersion}}
}

/**
 * A parse error, at js-yaml's position in the unaltered document text. (js-yaml decides what is
 * accepted, and its positions are exact; the `yaml` package's first error is often reported a line
 * early for bad indentation.)
 */
function yamlParseError(chunk: Chunk, text: string, error: unknown): UserError {
  let reason = (error as YAMLException).reason ?? String(error)
  let mark = (error as YAMLException).mark
  try {
    loadYaml(text, {schema: KUBE_YAML_SCHEMA}) // the error may have come from the blanked text
  } catch (again) {
    reason = (again as YAMLException).reason ?? reason
    mark = (again as YAMLException).mark ?? mark
  }
  const first = chunk.source.lineOf(chunk.start)
  return new UserError(`invalid YAML: ${reason}`, {
    origin: {file: chunk.source.name, line: first + (mark?.line ?? 0), column: (mark?.column ?? 0) + 1},
    hint: yamlHint(text, reason),
    cause: error,
  })
}

const HELM_HINT = 'render it first, e.g. helm template CHART | kctl plan -f -'

/** The usual causes of a YAML error in manifests, and what to do. */
function yamlHint(text: string, reason: string): string | undefined {
  if (/\{\{-?\s*[.$\w]/.test(text)) return `this is a Helm template: ${HELM_HINT}`
  // `cat a.yaml b.yaml` where a.yaml does not end with `---`: one document with every key twice.
  if (/duplicated mapping key/.test(reason) && (text.match(/^(?:apiVersion|kind):/gm)?.length ?? 0) > 2) {
    return 'two documents seem joined without a `---` line between them, as `cat a.yaml b.yaml` does; separate them with ---'
  }
  return undefined
}

/**
 * Where template syntax stands as YAML structure, or -1: a `{{` at the start of a line (a control
 * line: YAML content of a manifest is never there) or as a field's or list item's whole unquoted
 * value. Such text often parses as YAML (`{{ .Values.x }}` is a flow mapping) into nonsense. A
 * `{{` inside a quoted or block string (Prometheus alert texts) is left alone.
 */
function helmTemplateAt(text: string): number {
  const m = /^(?:\{\{|[ \t]*(?:-[ \t]+|[\w./-]+:[ \t]+)\{\{)[-\s]*[.$\w(/]/m.exec(text)
  return m ? m.index + m[0].indexOf('{{') : -1
}

function helmTemplateError(chunk: Chunk, text: string, offset: number): UserError {
  const {line, col} = linePos(text, offset)
  return new UserError('Helm template syntax ({{ … }}), not a manifest', {
    origin: {file: chunk.source.name, line: chunk.source.lineOf(chunk.start) + line - 1, column: col},
    hint: HELM_HINT,
  })
}

/** Column of the first non-space character of the line starting at `p`, and that character. */
function indentAt(text: string, p: number): {indent: number; c: number} {
  let k = p
  while (text.charCodeAt(k) === 0x20) k++
  return {indent: k - p, c: k < text.length ? text.charCodeAt(k) : 0x0a}
}

const isBlankOrComment = (c: number) => c === 0x0a || c === 0x0d || c === 0x23

/**
 * Where the first `\n`, `field` spaces and `managedFields:` are in the text, or -1. Searched by
 * `Fields:`, whose capital is rare in manifests: a search for the line break would stop at every line.
 */
function managedFieldsLine(text: string, field: number): number {
  const before = field + 8 // the line break, the spaces and `managed`
  for (let i = text.indexOf('Fields:', before); i >= 0; i = text.indexOf('Fields:', i + 1)) {
    if (text.startsWith(`\n${' '.repeat(field)}managed`, i - before)) return i - before
  }
  return -1
}

/**
 * Replaces a block-style `metadata.managedFields` with `[]` (same shape, nothing to parse), where
 * `metadata` is a key at column `base` of the mapping it is in (0 for a document, 2 for an item of
 * a compact `items:` list) and its fields are indented by two more. In any other layout the text
 * is returned unchanged. Line numbers may shift: positions are never taken from this text.
 */
export function blankManagedFields(text: string, base = 0): string {
  const field = base + 2
  const mf = managedFieldsLine(text, field)
  if (mf < 0) return text
  // Nothing after `managedFields:` on its line (a comment at most): a block value.
  let p = mf + 1 + field + 'managedFields:'.length
  while (text.charCodeAt(p) === 0x20) p++
  if (!isBlankOrComment(text.charCodeAt(p)) && p < text.length) return text
  // Its parent: the nearest line above indented less than `field` must be `metadata:` at `base`
  // (possibly after the `- ` of a list item).
  for (let end = mf; ; ) {
    // The line before the one that `end` (a line break) ends.
    if (end <= 0) return text
    const prev = text.lastIndexOf('\n', end - 1) + 1
    end = prev - 1
    const {indent, c} = indentAt(text, prev)
    if (isBlankOrComment(c) || indent >= field) continue
    const key = prev + base
    const dashed = base >= 2 && indent === base - 2 && text.startsWith('- ', prev + indent)
    if ((indent === base || dashed) && text.startsWith('metadata:', key) && isBlankOrComment(indentAt(text, key + 9).c)) break
    return text
  }
  // Its end: the first line indented less than `field`, or at `field` but not a `- ` entry.
  let q = mf + 1
  for (;;) {
    const nl = text.indexOf('\n', q)
    if (nl < 0) {
      q = text.length
      break
    }
    q = nl + 1
    if (q >= text.length) break
    const {indent, c} = indentAt(text, q)
    if (isBlankOrComment(c)) continue
    if (indent > field) continue
    if (indent === field && c === 0x2d && (text.charCodeAt(q + field + 1) === 0x20 || isBlankOrComment(text.charCodeAt(q + field + 1)))) continue
    break
  }
  return `${text.slice(0, mf)}\n${' '.repeat(field)}managedFields: []\n${text.slice(q)}`
}

