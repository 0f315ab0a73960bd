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
import {UserError} from '../errors.js'
import {expandPaths, formatOf, SourceFile, STDIN_NAME, type ExpandOptions} from './files.js'
import {renderKustomization} from './kustomize.js'
import {SHARED_SET} from './layout.js'
import {type Report, SourceObject} from './source-object.js'
import {readJson, WINDOW} from './json-documents.js'
import {readYaml} from './yaml-documents.js'

export {SourceFile} from './files.js'
export type {Path} from './locate.js'

export {InnerLocator, Locator, SourceObject, type RawObject} from './source-object.js'
export {blankManagedFields, splitYamlDocuments} from './yaml-documents.js'
export {readParsedJsonList} from './json-documents.js'

export interface OpenOptions extends ExpandOptions {
  /** Reads all of stdin, for `-f -`. */
  readStdin?: () => Promise<string>
  /** -k: a kustomization directory, rendered and read after the -f inputs, as its own apply set. */
  kustomize?: string
  /** A kustomize root found by the walk that fails to render; without it, the failure is thrown. */
  onRenderError?: (error: UserError) => void
}

/** Expands -f values into inputs (reading stdin if `-` is among them). Files are read later. */
export async function openSources(paths: readonly string[], opts: OpenOptions = {}): Promise<SourceFile[]> {
  const files: SourceFile[] = []
  for (const entry of expandPaths(paths, opts)) {
    let file: SourceFile
    if (entry.kustomize !== undefined) {
      let rendered: Buffer
      try {
        rendered = await renderKustomization(entry.kustomize)
      } catch (error) {
        if (!(error instanceof UserError) || !opts.onRenderError) throw error
        opts.onRenderError(new UserError(error.message.replace(/^-k /, ''), {origin: {file: entry.kustomize, line: 1, column: 1}, wholeFile: true, hint: error.hint}))
        continue
      }
      file = new SourceFile(entry.name, undefined, 'yaml', rendered)
    } else if (entry.fsPath === undefined) {
      if (!opts.readStdin) throw new UserError('"-f -" needs standard input, which is not available here')
      const data = Buffer.from(await opts.readStdin(), 'utf8')
      file = new SourceFile(STDIN_NAME, undefined, sniffFormat(data), data)
    } else {
      file = new SourceFile(entry.name, entry.fsPath, formatOf(entry.name))
    }
    file.applySet = entry.applySet
    const transforms = entry.transforms
    if (transforms && transforms.length > 0) file.transform = (raw) => transforms.forEach((t) => t(raw))
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
  /** Bytes read at a time from a large JSON list (1 MiB; tests make it small). */
  jsonWindowBytes?: number
}

/** Every object in the inputs, in order: files in order, documents in file order, list items in order. */
export function readDocuments(files: readonly SourceFile[], opts: ReadOptions = {}): IterableIterator<SourceObject> {
  return new DocumentReading(files, opts)
}

/**
 * The objects of each file in turn, by a plain iterator rather than a generator of its own: each
 * object then passes through one generator fewer (resuming one costs about as much as reading a
 * small list item).
 */
class DocumentReading implements IterableIterator<SourceObject> {
  private readonly counter = {n: 0}
  private readonly report: Report
  /** The next file to read, and the objects of the one being read (with the file). */
  private fileIndex = 0
  private objects?: Iterator<SourceObject>
  private file?: SourceFile

  constructor(
    private readonly files: readonly SourceFile[],
    private readonly opts: ReadOptions,
  ) {
    this.report = (error: UserError) => {
      if (!opts.onError) throw error
      opts.onError(error)
    }
  }

  [Symbol.iterator](): IterableIterator<SourceObject> {
    return this
  }

  next(): IteratorResult<SourceObject, undefined> {
    for (;;) {
      let objects = this.objects
      if (objects === undefined) {
        if (this.fileIndex >= this.files.length) return {done: true, value: undefined}
        const file = (this.file = this.files[this.fileIndex++])
        try {
          objects = this.objects = file.format === 'json' ? readJson(file, this.counter, this.report, this.opts.jsonWindowBytes ?? WINDOW) : readYaml(file, file.read(), this.counter, this.report)
        } catch (error) {
          this.unreadable(error)
          continue
        }
      }
      try {
        const r = objects.next()
        if (r.done === true) {
          this.objects = undefined
          this.file!.chunksRead()
        }
        else {
          this.file!.transform?.(r.value.raw)
          return r
        }
      } catch (error) {
        this.objects = undefined
        this.unreadable(error)
      }
    }
  }

  /** The input cannot be read (a missing file, a permission): one error for the file. */
  private unreadable(error: unknown): void {
    if (!(error instanceof UserError && error.wholeFile)) throw error
    this.report(error)
  }
}

/** Inputs → objects, for callers that want everything at once (tests, `kctl check`). */
export async function readAllDocuments(paths: readonly string[], opts: OpenOptions & ReadOptions = {}): Promise<SourceObject[]> {
  return [...readDocuments(await openSources(paths, opts), opts)]
}
