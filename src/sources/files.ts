// Which files `-f` names, and cheap access to their bytes afterwards. Inputs are read once, whole,
// as bytes; nothing keeps a file's text after it has been parsed. When a position is needed later
// (an error message, `kctl check`), the file is read again and only the part needed is decoded.
import {closeSync, openSync, readdirSync, readFileSync, readSync, statSync} from 'node:fs'
import {basename, dirname, extname, join, normalize} from 'node:path'

import {UserError} from '../errors.js'
import {applySetOf, dirLayout, KUSTOMIZATION_FILES, kustomizeResources, SHARED_SET, type ApplySetMode, type Skipped} from './layout.js'
import {readKustomizeRoot, type Transform} from './kustomize-read.js'

export type SourceFormat = 'yaml' | 'json'

const EXTENSIONS = new Set(['.yaml', '.yml', '.json'])
export const STDIN_NAME = '<stdin>'

/** One input: a file named by -f (or found in a directory given to -f), or stdin. */
export class SourceFile {
  /** Chunk starts in increasing order and the line of each, counted on the first position request (one pass over the file). */
  #lines?: {starts: readonly number[]; lines: number[]}
  /** Byte offsets where chunks (documents, list items) start. */
  chunkStarts: number[] = []
  /** The apply set this input belongs to (layout.ts). */
  applySet = SHARED_SET
  /** What a kustomization read without kustomize does to each of its objects (kustomize-read.ts). */
  transform?: (raw: Record<string, unknown>) => void

  constructor(
    /** As the user sees it: the -f value, joined with the relative path for directory entries. */
    readonly name: string,
    /** The file on disk; undefined for stdin, whose bytes are kept in `data` instead. */
    readonly fsPath: string | undefined,
    readonly format: SourceFormat,
    private readonly data?: Buffer,
  ) {}

  /**
   * Keep the bytes once read: for a run that asks many positions afterwards (kctl check), which
   * then reads no file twice.
   */
  keepBytes = false
  #kept?: Buffer

  /**
   * Every chunk of the input has been read: their starts are kept in a list of their exact number
   * (a list grown by push holds room for more, and is kept as long as the file's objects).
   */
  chunksRead(): void {
    this.chunkStarts = this.chunkStarts.slice()
  }

  /** The whole input when it is in memory (given, or kept once read); undefined otherwise. */
  get held(): Buffer | undefined {
    return this.data ?? this.#kept
  }

  /** The whole input. */
  read(): Buffer {
    if (this.data) return this.data
    if (this.#kept) return this.#kept
    try {
      if (this.keepBytes) return (this.#kept = readKept(this.fsPath!))
      return readFileSync(this.fsPath!)
    } catch (error) {
      throw fileError(this.name, error)
    }
  }

  /** The input's length in bytes. */
  byteLength(): number {
    if (this.data) return this.data.length
    try {
      return statSync(this.fsPath!).size
    } catch (error) {
      throw fileError(this.name, error)
    }
  }

  /**
   * Reads up to `length` bytes at `position` into `target` from `offset`; how many were read (fewer
   * only at the end). For reading a large input a window at a time.
   */
  readAt(target: Buffer, offset: number, length: number, position: number): number {
    if (this.data) return this.data.copy(target, offset, position, Math.min(this.data.length, position + length))
    let fd: number
    try {
      fd = openSync(this.fsPath!, 'r')
    } catch (error) {
      throw fileError(this.name, error)
    }
    try {
      let got = 0
      while (got < length) {
        const n = readSync(fd, target, offset + got, length - got, position + got)
        if (n === 0) break
        got += n
      }
      return got
    } catch (error) {
      throw fileError(this.name, error)
    } finally {
      closeSync(fd)
    }
  }

  /** Bytes [start, end) decoded as UTF-8 (re-read from disk, unless kept or this file is the one lineOf read last). */
  text(start: number, end: number): string {
    const kept = this.data ?? this.#kept
    if (kept) return kept.toString('utf8', start, end)
    if (lastLined?.file === this) return lastLined.bytes.toString('utf8', start, end)
    const length = Math.max(0, end - start)
    const buf = Buffer.allocUnsafe(length)
    const fd = openSync(this.fsPath!, 'r')
    try {
      let got = 0
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, start + got)
        if (n === 0) break
        got += n
      }
      return buf.toString('utf8', 0, got)
    } finally {
      closeSync(fd)
    }
  }

  /** The 1-based line on which byte `offset` lies (offset must be a line start or any byte). */
  lineOf(offset: number): number {
    if (!this.#lines) {
      // One pass: the line of every chunk start at once, so asking for many objects stays linear.
      const buf = this.read()
      if (!this.data && !this.#kept) lastLined = {file: this, bytes: buf}
      // Chunks are met in file order: their starts are mostly in order and distinct already.
      const starts = increasing(this.chunkStarts) ? this.chunkStarts : [...new Set(this.chunkStarts)].sort((a, b) => a - b)
      const lines = new Array<number>(starts.length)
      let line = 1
      let pos = 0
      for (let i = 0; i < starts.length; i++) {
        line += countNewlines(buf, pos, starts[i])
        pos = starts[i]
        lines[i] = line
      }
      this.#lines = {starts, lines}
    }
    const {starts, lines} = this.#lines
    // Among the starts counted: a file still being read may have more by now.
    const i = indexIn(starts, lines.length, offset)
    if (i >= 0) return lines[i]
    return 1 + countNewlines(this.read(), 0, offset)
  }
}

/** Where `x` is among the first `n` of the increasing list `xs`, or -1. */
function indexIn(xs: readonly number[], n: number, x: number): number {
  let lo = 0
  let hi = n - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (xs[mid] < x) lo = mid + 1
    else if (xs[mid] > x) hi = mid - 1
    else return mid
  }
  return -1
}

/**
 * Inputs kept to the end of a run are read into shared slabs, each file's bytes a view of one:
 * no buffer allocated, nor the file's size asked, for each of many small files.
 */
const SLAB_BYTES = 1 << 20
let slab: Buffer | undefined
let slabUsed = 0

function readKept(path: string): Buffer {
  const fd = openSync(path, 'r')
  try {
    if (slab === undefined || slab.length - slabUsed < SLAB_BYTES / 8) {
      slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
      slabUsed = 0
    }
    let got = 0
    for (;;) {
      const room = slab.length - slabUsed - got
      // Larger than what is left of the slab: the rest is read into a buffer of its own (from
      // where the reads stopped, as for a pipe), and the slab's space is left for the next file.
      if (room === 0) return Buffer.concat([slab.subarray(slabUsed, slabUsed + got), readFileSync(fd)])
      const n = readSync(fd, slab, slabUsed + got, room, null)
      if (n === 0) break
      got += n
    }
    const bytes = slab.subarray(slabUsed, slabUsed + got)
    slabUsed += got
    return bytes
  } finally {
    closeSync(fd)
  }
}

/**
 * The bytes of the last file whose lines were counted: positions are asked for a file's objects
 * one after another, and their text is then taken from these bytes rather than read again.
 */
let lastLined: {file: SourceFile; bytes: Buffer} | undefined

function increasing(xs: readonly number[]): boolean {
  for (let i = 1; i < xs.length; i++) if (xs[i] <= xs[i - 1]) return false
  return true
}

/**
 * How many line breaks buf[from, to) holds, four bytes at a time (one indexOf call per line cost
 * three times as much): a byte of a word XOR 0x0a0a0a0a is zero exactly where it was a line break.
 */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  to = Math.min(to, buf.length)
  let n = 0
  let i = from
  while (i < to && ((buf.byteOffset + i) & 3) !== 0) if (buf[i++] === NEWLINE) n++
  const words = (to - i) >> 2
  if (words > 0) {
    const w32 = wordsOf(buf.buffer)
    const first = (buf.byteOffset + i) >> 2
    for (let k = first; k < first + words; k++) {
      const x = w32[k] ^ 0x0a0a0a0a
      // The top bit of each byte set where that byte is zero (exact: nothing borrows across bytes), then those bits summed.
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f)
      if (zero !== 0) n += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24
    }
    i += words * 4
  }
  for (; i < to; i++) if (buf[i] === NEWLINE) n++
  return n
}

const NEWLINE = 0x0a

/**
 * The memory under the last buffer counted, as 32-bit words: the bytes kept of many files are views
 * of a few shared slabs, and a view made for each count cost as much as the count.
 */
let lastWords: {buffer: ArrayBufferLike; words: Int32Array} | undefined

function wordsOf(buffer: ArrayBufferLike): Int32Array {
  if (lastWords?.buffer !== buffer) lastWords = {buffer, words: new Int32Array(buffer, 0, buffer.byteLength >> 2)}
  return lastWords.words
}

function fileError(name: string, error: unknown): UserError {
  const code = (error as NodeJS.ErrnoException)?.code
  const at = {origin: {file: name, line: 1, column: 1}, wholeFile: true, cause: error}
  if (code === 'ENOENT') return new UserError('no such file or directory', {...at, hint: 'check the -f path'})
  if (code === 'EACCES' || code === 'EPERM') return new UserError('permission denied', at)
  if (code === 'EISDIR') return new UserError('is a directory', at)
  const message = error instanceof Error ? error.message : String(error)
  return new UserError(`cannot read: ${message}`, at)
}

export function formatOf(name: string): SourceFormat {
  // Only a name ending with `n`, `N` or a separator can have the extension .json: most (`.yaml`)
  // are told by their last character, without extname's pass over the whole path.
  const last = name.charCodeAt(name.length - 1)
  if (last !== 0x6e && last !== 0x4e && last !== 0x2f && last !== 0x5c) return 'yaml'
  return extname(name).toLowerCase() === '.json' ? 'json' : 'yaml'
}

/** A file to read, as -f named it or a directory walk found it. */
export interface PathEntry {
  name: string
  fsPath?: string
  /** The apply set it belongs to (layout.ts). */
  applySet: string
  /** A kustomize root to render (the entry is its output). */
  kustomize?: string
  /** What a kustomization read without kustomize does to each object of this file (innermost first). */
  transforms?: Transform[]
}

/**
 * What a directory walk does with a kustomize root: `files` reads its files as they are, each in
 * the root's apply set; `render` renders it (kustomize or kubectl on PATH) as one input; `read`
 * reads the files its kustomization lists, with its namespace, labels and name prefix/suffix
 * applied (kustomize-read.ts), or skips it when it asks for more.
 */
export type KustomizeRoots = 'files' | 'render' | 'read'

export interface ExpandOptions {
  applySet?: ApplySetMode
  /** Collects what a directory walk passed over (kustomizations, Helm charts). */
  skipped?: Skipped[]
  /** Default `files`. */
  kustomizeRoots?: KustomizeRoots
  /** --apply-set=dir for a command that acts on one world: the folders' files are one set (kustomize roots stay apart). */
  mergeFolders?: boolean
}

/**
 * Expands -f values into files, in order: a file as given (whatever its extension); a directory
 * recursively, keeping `*.yaml`, `*.yml` and `*.json`, entries sorted by name at every level (the
 * order of Go's filepath.Walk, which kubectl uses), less what layout.ts says is not an object;
 * `-` as stdin (at most once).
 */
export function expandPaths(paths: readonly string[], opts: ExpandOptions = {}): PathEntry[] {
  const mode = opts.applySet ?? 'dir'
  const out: PathEntry[] = []
  let stdin = false
  for (const p of paths) {
    if (p === '-') {
      if (stdin) throw new UserError('"-f -" (stdin) can be given only once')
      stdin = true
      out.push({name: STDIN_NAME, applySet: applySetOf(mode, STDIN_NAME, undefined)})
      continue
    }
    if (p === '') throw new UserError('empty -f value', {hint: 'pass a file, a directory or -'})
    let isDir = false
    try {
      isDir = statSync(p).isDirectory()
    } catch {
      // Reported when it is read, in input order (and per input, for `kctl check`).
    }
    if (isDir) {
      const roots = opts.kustomizeRoots ?? 'files'
      const scan = roots === 'files' ? {notObjects: new Set<string>(), listed: new Set<string>()} : scanKustomizations(p)
      walk(p, out, {mode, roots, mergeFolders: opts.mergeFolders ?? false, skipped: opts.skipped ?? [], root: undefined, top: p, ...scan})
    } else {
      if (KUSTOMIZATION_FILES.includes(basename(p))) {
        throw new UserError('is a kustomization, not a manifest', {origin: {file: p, line: 1, column: 1}, hint: `render it with -k ${dirname(p)}`})
      }
      out.push({name: p, fsPath: p, applySet: applySetOf(mode, p, undefined)})
    }
  }
  return out
}

interface Walk {
  mode: ApplySetMode
  roots: KustomizeRoots
  mergeFolders: boolean
  skipped: Skipped[]
  /** The innermost kustomize root above this directory (`files` only). */
  root: string | undefined
  /** The directory -f named: its own files are named with -f too (one set with the files -f names). */
  top: string
  /** Files that the kustomizations seen so far (all of them, unless `files`) name as patches or generator inputs. */
  notObjects: Set<string>
  /** Files that a kustomization reads as resources (not `files`): read through it, not on their own. */
  listed: Set<string>
}

/** Every kustomization below `dir`: the files they read as patches or inputs, and as resources. */
function scanKustomizations(dir: string): {notObjects: Set<string>; listed: Set<string>} {
  const notObjects = new Set<string>()
  const listed = new Set<string>()
  const visit = (d: string) => {
    let entries
    try {
      entries = readdirSync(d, {withFileTypes: true})
    } catch {
      return
    }
    const names = entries.map((e) => e.name)
    if (names.includes('Chart.yaml')) return
    const layout = dirLayout(d, names)
    for (const f of layout.notObjects) notObjects.add(f)
    if (layout.kustomizeRoot) for (const f of listedResources(d)) listed.add(f)
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) visit(join(d, e.name))
  }
  visit(dir)
  return {notObjects, listed}
}

function walk(dir: string, out: PathEntry[], w: Walk): void {
  let entries
  try {
    entries = readdirSync(dir, {withFileTypes: true})
  } catch (error) {
    throw fileError(dir, error)
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const layout = dirLayout(dir, entries.map((e) => e.name))
  for (const f of layout.notObjects) w.notObjects.add(f)
  if (layout.helmChart) {
    w.skipped.push({name: dir, reason: 'helm-chart'})
    return
  }
  const readRoot = layout.kustomizeRoot && w.roots !== 'files'
  if (readRoot) rootEntries(dir, out, w)
  const here: Walk = layout.kustomizeRoot && !readRoot ? {...w, root: dir} : w
  const folder = here.root ?? (w.mergeFolders || dir === w.top ? SHARED_SET : folderSet(dir))
  const prefix = entryPrefix(dir)
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue // .git, .github: never manifests
    const full = prefix + entry.name
    let isDir = entry.isDirectory()
    let isFile = entry.isFile()
    if (entry.isSymbolicLink()) {
      // filepath.Walk does not descend into linked directories; linked files are read.
      try {
        const target = statSync(full)
        isFile = target.isFile()
        isDir = false
      } catch {
        continue // a dangling link
      }
    }
    if (isDir) walk(full, out, here)
    else if (isFile && KUSTOMIZATION_FILES.includes(entry.name)) {
      if (!readRoot) w.skipped.push({name: full, reason: 'kustomization'})
    } else if (isFile && EXTENSIONS.has(entryExtension(entry.name))) {
      // (normalized only when a kustomization named files: most walks meet none)
      const key = w.notObjects.size === 0 && w.listed.size === 0 ? '' : normalize(full)
      if (w.notObjects.has(key)) w.skipped.push({name: full, reason: 'kustomize-input'})
      else if (w.listed.has(key)) continue // read through its kustomization
      else if (readRoot) w.skipped.push({name: full, reason: 'kustomize-unlisted'})
      else out.push({name: full, fsPath: full, applySet: w.mode === 'dir' ? folder : applySetOf(w.mode, full, undefined)})
    }
  }
}

/**
 * What join(dir, name) puts before `name`, for a name that is one plain path segment (a directory
 * entry's): join once per directory rather than once per entry (it normalizes the whole path).
 */
function entryPrefix(dir: string): string {
  return join(dir, '_').slice(0, -1)
}

/** extname(name), lower-cased, for a directory entry's name not starting with a dot (no pass over the name). */
function entryExtension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot).toLowerCase() : ''
}

/** The input(s) a kustomize root gives: its rendering, or its resources read here. */
function rootEntries(dir: string, out: PathEntry[], w: Walk): void {
  const setOf = (name: string) => (w.mode === 'all' ? SHARED_SET : w.mode === 'file' ? name : folderSet(dir))
  if (w.roots === 'render') {
    const name = `kustomize build ${folderSet(dir)}`
    out.push({name, kustomize: dir, applySet: setOf(name)})
    return
  }
  const read = readKustomizeRoot(dir)
  if ('unsupported' in read) {
    w.skipped.push({name: folderSet(dir), reason: 'kustomize-unsupported', detail: read.unsupported})
    return
  }
  for (const r of read.resources) out.push({name: r.fsPath, fsPath: r.fsPath, applySet: setOf(r.fsPath), transforms: r.transforms})
}

/** A directory's name as an apply set: as the user wrote it, without a trailing slash. */
function folderSet(dir: string): string {
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir
}

/** The files a kustomization in `dir` reads as resources, through other kustomizations too. */
function listedResources(dir: string, seen = new Set<string>()): string[] {
  const key = normalize(dir)
  if (seen.has(key)) return []
  seen.add(key)
  const out: string[] = []
  for (const entry of kustomizeResources(dir)) {
    const path = join(dir, entry)
    let isDir = false
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      continue
    }
    if (isDir) out.push(...listedResources(path, seen))
    else out.push(normalize(path))
  }
  return out
}
