// What reading a file yields: objects (SourceObject) that remember only where their chunk of the
// file is (Chunk, Locator), and the unpacking of lists common to YAML and JSON. See documents.ts
// for the design.
import {isDeepStrictEqual} from 'node:util'

import {load as loadYaml, type YAMLException} from 'js-yaml'
import {yamlPackage} from '../yaml-package.js'
import {UserError} from '../errors.js'
import type {Origin} from '../model/objects.js'
import {SourceFile} from './files.js'
import {linePos, locateInJson, locateInYaml, type Path} from './locate.js'
import {FALLBACK, parseBlockYaml} from './fastyaml.js'
import {KUBE_YAML_SCHEMA} from './yaml11.js'

export type RawObject = Record<string, unknown>

let lastText: {chunk: Chunk; text: string} | undefined

/** The path of a value that is its chunk's whole value: one list shared by every such object. */
export const TOP: Path = Object.freeze([])

/** Where an object is, and how to find any of its fields. Holds no parsed data. */
export abstract class Locator {
  #origin?: Origin
  /** Its chunk (a chunk locates its whole value itself). */
  protected abstract readonly chunk: Chunk
  /** The object's path inside its chunk's value ([] for a document; ['items', 3] for a list item). */
  protected abstract readonly inner: Path

  get file(): string {
    return this.chunk.source.name
  }

  get format(): 'yaml' | 'json' {
    return this.chunk.source.format
  }

  /** The apply set of the input the object is in (layout.ts). */
  get applySet(): string {
    return this.chunk.source.applySet
  }

  /**
   * The object parsed again from its text, managedFields and all: for the rare comparison that
   * needs a whole object after its parsed form is gone (are two copies identical?).
   */
  reread(): unknown {
    const {chunk} = this
    if (chunk.source.format === 'json' && chunk.skip > 0) return undefined // a value inside a JSON stream: not worth a second scanner
    let value: unknown = chunk.source.format === 'json' ? JSON.parse(chunk.text()) : parseYamlText(chunk.text())
    for (const step of this.inner) value = isMapping(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[step] : undefined
    return value
  }

  /**
   * Whether the text the object was read from holds none of `bytes` (byte values), when that text
   * is in memory and is all the object comes from (no transform adds to it); false when that
   * cannot be told without reading again.
   */
  textLacks(bytes: readonly number[]): boolean {
    const {chunk} = this
    const held = chunk.source.held
    if (chunk.source.transform || !held) return false
    const text = held.subarray(chunk.start, chunk.end)
    for (const b of bytes) if (text.indexOf(b) >= 0) return false
    return true
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
    // The file's lines first: counting them reads the file once, and the chunk's text comes from that read.
    const first = chunk.source.lineOf(chunk.start)
    const text = chunk.text()
    const full = this.inner.length === 0 ? path : [...this.inner, ...path]
    const found =
      chunk.source.format === 'json' ? locateInJson(text, full, !!opts.key, 0, chunk.skip) : locateInYaml(text, full, !!opts.key)
    const {line, col} = linePos(text, found.offset)
    return {file: chunk.source.name, line: first + line - 1, column: line === 1 ? col + chunk.leadingColumns : col}
  }
}

/** The locator of a value inside its chunk's value (an item of a list that is one YAML document). */
export class InnerLocator extends Locator {
  constructor(
    protected readonly chunk: Chunk,
    protected readonly inner: Path,
  ) {
    super()
  }
}

/**
 * A span of a file that parses to one value: a YAML document, a list item, a JSON value. It is
 * also the locator of that whole value (one object per list item, not two; and of few fields:
 * there is one per object read, kept as long as the object).
 */
export class Chunk extends Locator {
  constructor(
    /** The file the span is in. */
    readonly source: SourceFile,
    /** Byte offsets; `start` is at the beginning of a line, unless `lineStart` says otherwise. */
    readonly start: number,
    readonly end: number,
    /** For JSON streams: how many values to skip from `start`. */
    readonly skip = 0,
    /** Where the line holding `start` starts: before it for a list item on a shared line (minified JSON). */
    readonly lineStart = start,
  ) {
    super()
    source.chunkStarts.push(start)
  }

  protected get chunk(): Chunk {
    return this
  }

  protected get inner(): Path {
    return TOP
  }

  /** How many characters precede `start` on its line (0 when it starts a line). */
  get leadingColumns(): number {
    if (this.lineStart === this.start) return 0
    return this.source.text(this.lineStart, this.start).length
  }

  /** The chunk's text; the last one read is kept, as positions are asked for an object at a time. */
  text(): string {
    if (lastText?.chunk !== this) lastText = {chunk: this, text: this.source.text(this.start, this.end)}
    return lastText.text
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

  /**
   * The apply set the object belongs to (layout.ts): what is applied with it. With the default
   * `--apply-set dir`, the folder its file is directly in, or the kustomize root that reads it;
   * '' for files named with -f, stdin, and the files directly in a directory -f names.
   */
  get applySet(): string {
    return this.locator.applySet
  }

  get origin(): Origin {
    return this.locator.origin
  }

  locate(path: Path, opts?: {key?: boolean}): Origin {
    return this.locator.locate(path, opts)
  }
}

export type Report = (error: UserError) => void

// ---------------------------------------------------------------------------------------------
// Lists and checks common to both formats

export function isMapping(v: unknown): v is RawObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  return `${typeof v} ${JSON.stringify(v)}`
}

export function isListKind(kind: unknown): kind is string {
  return typeof kind === 'string' && kind.endsWith('List')
}

/**
 * Yields the objects in a parsed value: the value itself, or the items of a `List` / `*List`
 * (recursively). Items of a typed list (`PodList`) that lack kind/apiVersion get the list's, as
 * the API server leaves them out of list responses.
 */
export function* unpack(value: unknown, chunk: Chunk, inner: Path, counter: {n: number}, report: Report, listDefaults?: ListDefaults): Generator<SourceObject> {
  const one = unpackOne(value, chunk, inner, counter, report, listDefaults)
  if (one === NESTED) {
    const list = value as RawObject
    const kind = list.kind as string
    const items = (list.items ?? []) as unknown[]
    const defaults = {kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion: list.apiVersion}
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      items[i] = undefined // let the parsed item go once it has been handed out
      yield* unpack(item, chunk, [...inner, 'items', i], counter, report, defaults)
    }
  } else if (one !== undefined) yield one
}

/** What a list gives its items that lack kind or apiVersion. */
export type ListDefaults = {kind: string; apiVersion: unknown}

/** What unpackOne answers for a value that is itself a list: its items are to be unpacked (unpack). */
export const NESTED = Symbol('nested list')

/**
 * unpack without a generator, for a value that is most often one object (a list's item): the
 * object; undefined when it is not one (reported); NESTED when it is a list, whose items unpack reads.
 */
export function unpackOne(value: unknown, chunk: Chunk, inner: Path, counter: {n: number}, report: Report, listDefaults?: ListDefaults): SourceObject | undefined | typeof NESTED {
  const locator = inner === TOP ? chunk : new InnerLocator(chunk, inner)
  if (!isMapping(value)) {
    report(
      new UserError(`expected a Kubernetes object (a mapping with apiVersion and kind), got ${describe(value)}`, {
        origin: locator.origin,
      }),
    )
    return undefined
  }
  if (listDefaults) {
    if (value.kind === undefined && listDefaults.kind) value.kind = listDefaults.kind
    if (value.apiVersion === undefined && typeof listDefaults.apiVersion === 'string') value.apiVersion = listDefaults.apiVersion
  }
  const {apiVersion, kind, items} = value
  if (isListKind(kind) && (Array.isArray(items) || items === null || items === undefined)) return NESTED
  // Each field read by its name (a read by a key held in a variable is a lookup by name in every
  // object, items of many kinds coming in many hidden classes).
  if (!isNamingString(apiVersion)) return reportTypeField(locator, 'apiVersion', apiVersion, report)
  if (!isNamingString(kind)) return reportTypeField(locator, 'kind', kind, report)
  const meta = value.metadata
  if (isMapping(meta) && meta.managedFields !== undefined) delete meta.managedFields
  return new SourceObject(value, locator, counter.n++)
}

const isNamingString = (v: unknown): boolean => typeof v === 'string' && v !== ''

/** Reports apiVersion or kind missing or not a non-empty string. */
function reportTypeField(locator: Locator, field: 'apiVersion' | 'kind', v: unknown, report: Report): undefined {
  report(
    new UserError(v === undefined ? `object has no ${field}` : `${field}: expected a non-empty string, got ${describe(v)}`, {
      origin: v === undefined ? locator.origin : locator.locate([field]),
      hint: 'every object needs apiVersion and kind, e.g. apiVersion: apps/v1, kind: ReplicaSet',
    }),
  )
  return undefined
}

export function* unpackListTail(list: RawObject, items: unknown[], from: number, chunk: Chunk, counter: {n: number}, report: Report): Generator<SourceObject> {
  const kind = list.kind as string
  const defaults = {kind: kind === 'List' ? '' : kind.slice(0, -4), apiVersion: list.apiVersion}
  for (let i = from; i < items.length; i++) {
    const item = items[i]
    items[i] = undefined
    yield* unpack(item, chunk, ['items', i], counter, report, defaults)
  }
}

export function bomLength(buf: Buffer): number {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
}

export const isBlankByte = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/** The fast reader when it can, js-yaml otherwise (which throws on malformed YAML). */
export function parseYamlText(text: string): unknown {
  const value = parseBlockYaml(text)
  if (value !== FALLBACK) return value
  try {
    return loadYaml(text, {schema: KUBE_YAML_SCHEMA})
  } catch (error) {
    // A key written twice with the same value is accepted, as kubectl (and PyYAML) accept it; with
    // different values it stays an error.
    if (!/duplicated mapping key/.test((error as YAMLException).reason ?? '') || !duplicatesAgree(text)) throw error
    return loadYaml(text, {schema: KUBE_YAML_SCHEMA, json: true})
  }
}

/** Every key written twice in one mapping of `text` has the same value each time (and the text parses). */
function duplicatesAgree(text: string): boolean {
  const yaml = yamlPackage()
  const doc = yaml.parseDocument(text, {schema: 'failsafe', uniqueKeys: false, prettyErrors: false})
  if (doc.errors.length > 0) return false
  const same = (a: unknown, b: unknown) => isDeepStrictEqual((a as {toJSON?: () => unknown})?.toJSON?.() ?? a, (b as {toJSON?: () => unknown})?.toJSON?.() ?? b)
  const visit = (node: unknown): boolean => {
    if (yaml.isMap(node)) {
      const values = new Map<string, unknown>()
      for (const pair of node.items) {
        const key = JSON.stringify((pair.key as {toJSON?: () => unknown})?.toJSON?.() ?? pair.key)
        if (values.has(key) && !same(values.get(key), pair.value)) return false
        values.set(key, pair.value)
        if (!visit(pair.value)) return false
      }
      return true
    }
    if (yaml.isSeq(node)) return node.items.every(visit)
    return true
  }
  return visit(doc.contents)
}
