// Reading fixture files into objects, fast, with every object's origin at hand.
//
// Design (speed is measured: 150,000 pods must read at tens of MB/s):
//   - A file is read once, as bytes. YAML is cut into documents at the byte level: a line that
//     starts with `---` or `...` (followed by a blank or the end of the line) is always a document
//     boundary, even inside a block scalar. Each document is decoded and parsed on its own by
//     js-yaml with a schema that resolves scalars as go-yaml v2 does (yaml11.ts), so memory holds
//     one document's text at a time; documents in the plain block style kubectl writes go through
//     a faster line-oriented reader (fastyaml.ts) that hands anything else back to js-yaml.
//     `metadata.managedFields` (often a third of `kubectl get -o
//     yaml` output, never read by kctl) is blanked in the text before parsing when it is written in
//     the usual block style.
//   - A big `kind: List` document (`kubectl get -o yaml`) is cut into its items the same way (the
//     lines that start an entry of the top-level `items:` sequence), so it is never held whole.
//   - JSON: `kubectl get -o json` output (pretty-printed, one `*List`) is cut into its items at the
//     byte level by indentation, and each item is parsed by JSON.parse on its own; anything else is
//     parsed whole by JSON.parse. JSON streams (several values in a row) are read too.
//   - Every object remembers only where its chunk (document / list item / JSON value) starts and
//     ends in the file. Positions, of the object or of any field in it, are computed when asked
//     for: the chunk is read again from disk and parsed with the exact `yaml` package (or a JSON
//     scanner). Parse errors are reported with the `yaml` package's position and message.
import {isAscii} from 'node:buffer'

import {load as loadYaml, type YAMLException} from 'js-yaml'

import {UserError} from '../errors.js'
import type {Origin} from '../model/objects.js'
import {expandPaths, formatOf, SourceFile, STDIN_NAME, type ExpandOptions} from './files.js'
import {renderKustomization} from './kustomize.js'
import {SHARED_SET} from './layout.js'
import {linePos, locateInJson, locateInYaml, type Path} from './locate.js'
import {FALLBACK, parseBlockYaml} from './fastyaml.js'
import {KUBE_YAML_SCHEMA} from './yaml11.js'

export {SourceFile} from './files.js'
export type {Path} from './locate.js'

export type RawObject = Record<string, unknown>

/** A span of a file that parses to one value: a YAML document, a list item, a JSON value. */
class Chunk {
  constructor(
    readonly file: SourceFile,
    /** Byte offsets; `start` is always at the beginning of a line. */
    readonly start: number,
    readonly end: number,
    /** For JSON streams: how many values to skip from `start`. */
    readonly skip = 0,
  ) {
    file.chunkStarts.push(start)
  }

  text(): string {
    return this.file.text(this.start, this.end)
  }
}

/** Where an object is, and how to find any of its fields. Holds no parsed data. */
export class Locator {
  #origin?: Origin
  constructor(
    private readonly chunk: Chunk,
    /** The object's path inside its chunk's value ([] for a document; ['items', 3] for a list item). */
    private readonly inner: Path,
  ) {}

  get file(): string {
    return this.chunk.file.name
  }

  get format(): 'yaml' | 'json' {
    return this.chunk.file.format
  }

  /** The apply set of the input the object is in (layout.ts). */
  get applySet(): string {
    return this.chunk.file.applySet
  }

  /**
   * The object parsed again from its text, managedFields and all: for the rare comparison that
   * needs a whole object after its parsed form is gone (are two copies identical?).
   */
  reread(): unknown {
    const {chunk} = this
    if (chunk.file.format === 'json' && chunk.skip > 0) return undefined // a value inside a JSON stream: not worth a second scanner
    let value: unknown = chunk.file.format === 'json' ? JSON.parse(chunk.text()) : parseYamlText(chunk.text())
    for (const step of this.inner) value = isMapping(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[step] : undefined
    return value
  }

  /** The object's own position: its first key (YAML) or its opening brace (JSON). */
  get origin(): Origin {
    return (this.#origin ??= this.locate([]))
  }

  /**
   * The position of a field's value, e.g. ['spec', 'replicas']; with `key`, of its key. When the
   * field is missing, the key of the deepest field on the path that exists.
   */
  locate(path: Path, opts: {key?: boolean} = {}): Origin {
    const {chunk} = this
    const text = chunk.text()
    const full = this.inner.length === 0 ? path : [...this.inner, ...path]
    const found =
      chunk.file.format === 'json' ? locateInJson(text, full, !!opts.key, 0, chunk.skip) : locateInYaml(text, full, !!opts.key)
    const {line, col} = linePos(text, found.offset)
    return {file: chunk.file.name, line: chunk.file.lineOf(chunk.start) + line - 1, column: col}
  }
}

/** One object read from the input, as parsed (minus managedFields), with its locator. */
export class SourceObject {
  constructor(
    readonly raw: RawObject,
    readonly locator: Locator,
    /** Position in the whole input (0-based), for "first in file order". */
    readonly ordinal: number,
  ) {}

  get apiVersion(): string {
    return this.raw.apiVersion as string
  }

  get kind(): string {
    return this.raw.kind as string
  }

  get file(): string {
    return this.locator.file
  }

  get origin(): Origin {
    return this.locator.origin
  }

  locate(path: Path, opts?: {key?: boolean}): Origin {
    return this.locator.locate(path, opts)
  }
}

export interface OpenOptions extends ExpandOptions {
  /** Reads all of stdin, for `-f -`. */
  readStdin?: () => Promise<string>
  /** -k: a kustomization directory, rendered and read after the -f inputs, as its own apply set. */
  kustomize?: string
}

/** Expands -f values into inputs (reading stdin if `-` is among them). Files are read later. */
export async function openSources(paths: readonly string[], opts: OpenOptions = {}): Promise<SourceFile[]> {
  const files: SourceFile[] = []
  for (const entry of expandPaths(paths, opts)) {
    let file: SourceFile
    if (entry.fsPath === undefined) {
      if (!opts.readStdin) throw new UserError('"-f -" needs standard input, which is not available here')
      const data = Buffer.from(await opts.readStdin(), 'utf8')
      file = new SourceFile(STDIN_NAME, undefined, sniffFormat(data), data)
    } else {
      file = new SourceFile(entry.name, entry.fsPath, formatOf(entry.name))
    }
    file.applySet = entry.applySet
    files.push(file)
  }
  if (opts.kustomize !== undefined) {
    const rendered = new SourceFile(`kustomize build ${opts.kustomize}`, undefined, 'yaml', await renderKustomization(opts.kustomize))
    rendered.applySet = opts.applySet === 'all' ? SHARED_SET : `-k ${opts.kustomize}`
    files.push(rendered)
  }
  return files
}

function sniffFormat(data: Buffer): 'yaml' | 'json' {
  for (let i = 0; i < data.length; i++) {
    const c = data[i]
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue
    if (i === 0 && c === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
      i += 2
      continue
    }
    return c === 0x7b ? 'json' : 'yaml'
  }
  return 'yaml'
}

export interface ReadOptions {
  /** Called for each input that cannot be read or parsed; without it, the first such error is thrown. */
  onError?: (error: UserError) => void
  /** Bytes read at a time from a large JSON list (16 MiB; tests make it small). */
  jsonWindowBytes?: number
}

/** Every object in the inputs, in order: files in order, documents in file order, list items in order. */
export function* readDocuments(files: readonly SourceFile[], opts: ReadOptions = {}): Generator<SourceObject> {
  const report = (error: UserError) => {
    if (!opts.onError) throw error
    opts.onError(error)
  }
  const counter = {n: 0}
  for (const file of files) {
    try {
      if (file.format === 'json') yield* readJson(file, counter, report, opts.jsonWindowBytes ?? WINDOW)
      else yield* readYaml(file, file.read(), counter, report)
    } catch (error) {
      // The input cannot be read (a missing file, a permission): one error for the file.
      if (!(error instanceof UserError && error.wholeFile)) throw error
      report(error)
    }
  }
}

type Report = (error: UserError) => void

// ---------------------------------------------------------------------------------------------
// YAML

function bomLength(buf: Buffer): number {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
}

const isBlankByte = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/** Is there a document marker (`---` or `...`, then a blank or the end) at byte `p`, a line start? */
function markerAt(buf: Buffer, p: number): '---' | '...' | undefined {
  const c = buf[p]
  if ((c !== 0x2d && c !== 0x2e) || buf[p + 1] !== c || buf[p + 2] !== c || !isBlankByte(buf[p + 3])) return undefined
  return c === 0x2d ? '---' : '...'
}

const DASHES = Buffer.from('\n---')
const DOTS = Buffer.from('\n...')

/**
 * Cuts a YAML stream into documents: [start, end) byte ranges, each starting at a line start.
 * `---` starts a new document (the marker line belongs to it); `...` ends one (its line belongs to
 * the document it ends).
 */
export function splitYamlDocuments(buf: Buffer, from = 0): Array<[number, number]> {
  const boundaries: Array<[number, '---' | '...']> = []
  const atStart = markerAt(buf, from)
  if (atStart) boundaries.push([from, atStart])
  for (const needle of [DASHES, DOTS]) {
    for (let i = buf.indexOf(needle, from); i >= 0; i = buf.indexOf(needle, i + 1)) {
      const kind = markerAt(buf, i + 1)
      if (kind) boundaries.push([i + 1, kind])
    }
  }
  if (boundaries.length > 1) boundaries.sort((a, b) => a[0] - b[0])
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

function* readYaml(file: SourceFile, buf: Buffer, counter: {n: number}, report: Report): Generator<SourceObject> {
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
    else yield* unpack(value, chunk, [], counter, report)
  }
}

/** The fast reader when it can, js-yaml otherwise (which throws on malformed YAML). */
function parseYamlText(text: string): unknown {
  const value = parseBlockYaml(text)
  return value === FALLBACK ? loadYaml(text, {schema: KUBE_YAML_SCHEMA}) : value
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
  const first = chunk.file.lineOf(chunk.start)
  return new UserError(`invalid YAML: ${reason}`, {
    origin: {file: chunk.file.name, line: first + (mark?.line ?? 0), column: (mark?.column ?? 0) + 1},
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
    origin: {file: chunk.file.name, line: chunk.file.lineOf(chunk.start) + line - 1, column: col},
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
 * Replaces a block-style `metadata.managedFields` with `[]` (same shape, nothing to parse), where
 * `metadata` is a key at column `base` of the mapping it is in (0 for a document, 2 for an item of
 * a compact `items:` list) and its fields are indented by two more. In any other layout the text
 * is returned unchanged. Line numbers may shift: positions are never taken from this text.
 */
export function blankManagedFields(text: string, base = 0): string {
  const field = base + 2
  const mf = text.indexOf(`\n${' '.repeat(field)}managedFields:`)
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

// ---------------------------------------------------------------------------------------------
// Lists and checks common to both formats

function isMapping(v: unknown): v is RawObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  return `${typeof v} ${JSON.stringify(v)}`
}

function isListKind(kind: unknown): kind is string {
  return typeof kind === 'string' && kind.endsWith('List')
}

/**
 * Yields the objects in a parsed value: the value itself, or the items of a `List` / `*List`
 * (recursively). Items of a typed list (`PodList`) that lack kind/apiVersion get the list's, as
 * the API server leaves them out of list responses.
 */
function* unpack(
  value: unknown,
  chunk: Chunk,
  inner: Path,
  counter: {n: number},
  report: Report,
  listDefaults?: {kind: string; apiVersion: unknown},
): Generator<SourceObject> {
  const locator = new Locator(chunk, inner)
  if (!isMapping(value)) {
    report(
      new UserError(`expected a Kubernetes object (a mapping with apiVersion and kind), got ${describe(value)}`, {
        origin: locator.origin,
      }),
    )
    return
  }
  if (listDefaults) {
    if (value.kind === undefined && listDefaults.kind) value.kind = listDefaults.kind
    if (value.apiVersion === undefined && typeof listDefaults.apiVersion === 'string') value.apiVersion = listDefaults.apiVersion
  }
  const {kind, items} = value
  if (isListKind(kind) && (Array.isArray(items) || items === null || items === undefined)) {
    const list = (items ?? []) as unknown[]
    const defaults = {kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion: value.apiVersion}
    for (let i = 0; i < list.length; i++) {
      const item = list[i]
      list[i] = undefined // let the parsed item go once it has been handed out
      yield* unpack(item, chunk, [...inner, 'items', i], counter, report, defaults)
    }
    return
  }
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = value[field]
    if (typeof v !== 'string' || v === '') {
      report(
        new UserError(v === undefined ? `object has no ${field}` : `${field}: expected a non-empty string, got ${describe(v)}`, {
          origin: v === undefined ? locator.origin : locator.locate([field]),
          hint: 'every object needs apiVersion and kind, e.g. apiVersion: apps/v1, kind: ReplicaSet',
        }),
      )
      return
    }
  }
  const meta = value.metadata
  if (isMapping(meta) && meta.managedFields !== undefined) delete meta.managedFields
  yield new SourceObject(value, locator, counter.n++)
}

// ---------------------------------------------------------------------------------------------
// JSON

function* readJson(file: SourceFile, counter: {n: number}, report: Report, window: number, parsed?: readonly RawObject[]): Generator<SourceObject> {
  // A large `kubectl get -o json` list is read a window at a time, item by item; anything else,
  // or a list that turns out not to be laid out as expected, is parsed whole (skipping the items
  // already handed out).
  const handedOut = yield* readPrettyJsonList(file, counter, report, window, parsed)
  if (handedOut === undefined) return
  const buf = file.read()
  yield* readJsonWhole(file, buf, bomLength(buf), counter, report, handedOut)
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
    yield* unpack(value, streamChunk, [], counter, report)
  }
}

function* unpackListTail(list: RawObject, items: unknown[], from: number, chunk: Chunk, counter: {n: number}, report: Report): Generator<SourceObject> {
  const kind = list.kind as string
  const defaults = {kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion: list.apiVersion}
  for (let i = from; i < items.length; i++) {
    const item = items[i]
    items[i] = undefined
    yield* unpack(item, chunk, ['items', i], counter, report, defaults)
  }
}

/** Bytes read at a time from a large JSON list: an item larger than this grows the window. */
const WINDOW = 16 << 20

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
  try {
    envelope = JSON.parse(buf.toString('utf8', bom, open) + tail.toString('utf8', closeInTail + 1 + memberIndent.length))
  } catch {
    return 0
  }
  if (!isMapping(envelope) || !isListKind(envelope.kind) || !Array.isArray(envelope.items)) return 0
  const listDefaults = {kind: envelope.kind === 'List' ? '' : envelope.kind.slice(0, -4), apiVersion: envelope.apiVersion}

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
    yield* unpack(item, new Chunk(file, base + lineStart, base + end), [], counter, report, listDefaults)
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

/** Inputs → objects, for callers that want everything at once (tests, `kctl check`). */
export async function readAllDocuments(paths: readonly string[], opts: OpenOptions & ReadOptions = {}): Promise<SourceObject[]> {
  return [...readDocuments(await openSources(paths, opts), opts)]
}
