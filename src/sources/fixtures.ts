// `-f` inputs → Snapshot: the fixtures source. Reading and parsing are in documents.ts, defaulting
// and validation in normalize.ts; this file ties them together for `plan`, `list` and friends.
import {UserError} from '../errors.js'
import type {Snapshot} from '../model/objects.js'
import {openSources, readDocuments, type SourceFile} from './documents.js'
import type {KustomizeRoots} from './files.js'
import {rendererOnPath} from './kustomize.js'
import {emptyInputError, SHARED_SET, type ApplySetMode, type Skipped} from './layout.js'
import {firstProblem, Normalizer, problemError, type LeftOut, type Problem} from './normalize.js'

export {openSources, readAllDocuments, readDocuments, SourceObject, Locator, type Path, type RawObject} from './documents.js'
export {firstProblem, formatPath, normalize, Normalizer, problemError, type LeftOut, type NormalizeOptions, type Problem} from './normalize.js'

export interface FixtureOptions {
  /** -f values: files, directories (recursive), `-` for stdin. */
  paths: string[]
  /** -n: default namespace for objects without one; without allNamespaces, the only one kept. */
  namespace?: string
  allNamespaces?: boolean
  /** -l, kubectl syntax: only controllers whose labels match are planned. */
  selector?: string
  /** Reads all of stdin (for `-f -`). */
  readStdin?: () => Promise<string>
  /** -k: a kustomization directory to render and read, after the -f inputs. */
  kustomize?: string
  /** Without it, inputs that hold no object at all are an error (a misspelt or empty directory). */
  allowEmpty?: boolean
  /** --apply-set: which inputs are applied together (layout.ts); default `dir`. */
  applySet?: ApplySetMode
  /** Told once what a directory walk skipped (kustomizations, Helm charts). */
  onSkipped?: (skipped: Skipped[]) => void
  /**
   * Each input that cannot be read (one error per file: its first problem, in input order). With
   * it, everything else is still read; without it, the first problem is thrown.
   */
  onUnreadable?: (error: UserError) => void
  /** Notes about what was read: later definitions replacing earlier ones, placeholder names. */
  onWarning?: (message: string) => void
  /** Controllers that -n/-l left out, over all sets. */
  onLeftOut?: (leftOut: LeftOut) => void
  /** How a walk reads kustomize roots (files.ts); default: render them if kustomize or kubectl is on PATH, else read them here. */
  kustomizeRoots?: KustomizeRoots
  /** Folders are not told apart (for a command that acts on one world). */
  mergeFolders?: boolean
}

/** One apply set's world: what would be applied together. */
export interface ApplySetSnapshot {
  /** The set's name (layout.ts); '' for files named with -f (or everything, with --apply-set=all). */
  applySet: string
  snapshot: Snapshot
}

/**
 * Reads, validates and defaults the fixtures, one world per apply set, in input order. Bad input
 * (unreadable file, malformed YAML/JSON, something the API server would reject) goes to
 * `onUnreadable`, one error per file; without it, a UserError naming the file, line and column of
 * the first problem in input order is thrown.
 */
export async function readFixtureSets(opts: FixtureOptions): Promise<ApplySetSnapshot[]> {
  const skipped: Skipped[] = []
  const tolerant = opts.onUnreadable !== undefined
  const renderErrors: UserError[] = []
  const files = await openSources(opts.paths, {
    readStdin: opts.readStdin,
    applySet: opts.applySet,
    skipped,
    kustomize: opts.kustomize,
    kustomizeRoots: opts.kustomizeRoots ?? (rendererOnPath() ? 'render' : 'read'),
    mergeFolders: opts.mergeFolders,
    onRenderError: tolerant ? (e) => renderErrors.push(e) : undefined,
  })
  if (skipped.length > 0) opts.onSkipped?.(skipped)
  let normalizers = new Map<string, Normalizer>()
  // Each set's text is scanned for a kind a reader asks about (a pod's HPA fields: is there an HPA?).
  let hinted = true
  // Pods are first read as defined once each (NormalizeOptions.podsOnce): the input is read again if one is not.
  let podsOnce = true
  const normalizerFor = (applySet: string) => {
    let n = normalizers.get(applySet)
    if (!n) {
      const mayHold = hinted ? textMayHold(files.filter((f) => f.applySet === applySet)) : undefined
      normalizers.set(applySet, (n = new Normalizer({paths: opts.paths, namespace: opts.namespace, allNamespaces: opts.allNamespaces, selector: opts.selector, mayHold, podsOnce})))
    }
    return n
  }
  let parseErrors: UserError[] = []
  const readAll = () => {
    // Strict: reading stops at the first input that does not parse; problems found in objects
    // before it come first in input order. Tolerant: every document that parses is read.
    parseErrors = [...renderErrors]
    try {
      // The objects of one apply set mostly come in a row: its normalizer is looked up once for them.
      let applySet: string | undefined
      let n: Normalizer | undefined
      for (const obj of readDocuments(files, tolerant ? {onError: (e) => parseErrors.push(e)} : {})) {
        const set = obj.locator.applySet
        if (n === undefined || set !== applySet) n = normalizerFor((applySet = set))
        n.add(obj)
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error
      parseErrors.push(error)
    }
  }
  readAll()
  for (;;) {
    // A kind the scan did not find was read (its name spelt with escapes), or a pod was defined
    // more than once (a copy, or a later definition that replaces it): read again without that assumption.
    const hintMissed = hinted && [...normalizers.values()].some((n) => n.hintMissed)
    const podsRepeated = podsOnce && [...normalizers.values()].some((n) => n.podsRepeated)
    if (!hintMissed && !podsRepeated) break
    if (hintMissed) hinted = false
    if (podsRepeated) podsOnce = false
    normalizers = new Map()
    readAll()
  }
  if (normalizers.size === 0) {
    if (parseErrors.length === 0 && !opts.allowEmpty) throw emptyInputError(opts.paths, opts.kustomize, files.length, skipped.length)
    normalizerFor(SHARED_SET)
  }
  const sets = [...normalizers].map(([applySet, n]) => ({applySet, normalizer: n, ...n.finish()}))
  // Input order across the sets, as readDocuments gave them (the sort is stable within an object).
  const problems = sets.flatMap((s) => s.problems).sort((a, b) => a.ordinal - b.ordinal)
  // Nothing could be read at all: there is no plan of the rest to show, only the first problem.
  const readable = sets.reduce((n, s) => n + s.normalizer.objects, 0) - new Set(problems.map((p) => p.ordinal)).size
  if (!tolerant || readable === 0) {
    if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1 + parseErrors.length)
    if (parseErrors.length > 0) throw parseErrors[0]
  } else {
    for (const e of unreadableFiles(files, problems, parseErrors)) opts.onUnreadable!(e)
  }
  const normalizersOf = sets.map((s) => s.normalizer)
  for (const w of readingWarnings(normalizersOf)) opts.onWarning?.(w)
  if (opts.onLeftOut) {
    const leftOut: LeftOut = {count: 0, namespaces: {}}
    for (const n of normalizersOf) {
      leftOut.count += n.leftOut.count
      for (const [ns, k] of Object.entries(n.leftOut.namespaces)) leftOut.namespaces[ns] = (leftOut.namespaces[ns] ?? 0) + k
    }
    opts.onLeftOut(leftOut)
  }
  return sets.map(({applySet, snapshot}) => ({applySet, snapshot}))
}

/**
 * Whether an apply set's inputs may hold objects of a kind: its name is somewhere in their text,
 * scanned a window at a time (once per kind asked).
 */
function textMayHold(files: readonly SourceFile[]): (kind: string) => boolean {
  return (kind) => files.some((f) => textHolds(f, Buffer.from(kind)))
}

const SCAN_WINDOW = 1 << 20

function textHolds(file: SourceFile, needle: Buffer): boolean {
  const window = Buffer.allocUnsafe(SCAN_WINDOW + needle.length)
  // Each window starts with the previous one's last bytes, so that a match across the seam is found.
  let carried = 0
  let position = 0
  try {
    for (;;) {
      const got = file.readAt(window, carried, SCAN_WINDOW, position)
      const filled = carried + got
      if (window.subarray(0, filled).includes(needle)) return true
      if (got < SCAN_WINDOW) return false
      position += got
      carried = Math.min(needle.length - 1, filled)
      window.copy(window, 0, filled - carried, filled)
    }
  } catch {
    return true // unreadable: it cannot be told (reading it reports why)
  }
}

/**
 * One error per input that cannot be read, in input order: its first problem (a parse error, or a
 * field the API server would reject), saying how many more the file holds.
 */
export function unreadableFiles(files: readonly SourceFile[], problems: readonly Problem[], parseErrors: readonly UserError[]): UserError[] {
  const order = new Map(files.map((f, i) => [f.name, i]))
  const byFile = new Map<string, {first: UserError; at: number; more: number}>()
  const note = (file: string, make: () => UserError, at: number) => {
    const seen = byFile.get(file)
    if (!seen) byFile.set(file, {first: make(), at, more: 0})
    else seen.more++
  }
  // Problems: the first in input order per file (firstProblem picks the earliest field of an object).
  const byOrdinal = new Map<number, Problem[]>()
  for (const p of problems) byOrdinal.set(p.ordinal, [...(byOrdinal.get(p.ordinal) ?? []), p])
  const items: Array<{file: string; line: number; make: () => UserError}> = []
  for (const group of byOrdinal.values()) {
    const first = firstProblem(group)
    const at = first.origin()
    items.push({file: at.file, line: at.line, make: () => problemError(first)})
    for (let i = 1; i < group.length; i++) items.push({file: at.file, line: Number.MAX_SAFE_INTEGER, make: () => problemError(group[i])})
  }
  for (const e of parseErrors) items.push({file: e.origin?.file ?? '', line: e.origin?.line ?? 0, make: () => e})
  items.sort((a, b) => (order.get(a.file) ?? Number.MAX_SAFE_INTEGER) - (order.get(b.file) ?? Number.MAX_SAFE_INTEGER) || a.line - b.line)
  for (const item of items) note(item.file, item.make, order.get(item.file) ?? Number.MAX_SAFE_INTEGER)
  return [...byFile.values()].map(({first, more}) => {
    if (more === 0) return first
    const extra = `${more} more problem${more === 1 ? '' : 's'} in this file`
    return new UserError(first.message, {origin: first.origin, wholeFile: first.wholeFile, hint: [first.hint, extra].filter(Boolean).join('; '), cause: first})
  })
}

/** What reading did that the user should know: replaced definitions, placeholder names. */
export function readingWarnings(normalizers: readonly Normalizer[]): string[] {
  const out: string[] = []
  const replacements = normalizers.flatMap((n) => n.replacements).sort((a, b) => a.by.ordinal - b.by.ordinal)
  for (const r of replacements) {
    out.push(`${r.kind} ${r.namespace}/${r.name} at ${at(r.by.origin)} replaces the one at ${at(r.replaced.origin)} (the later definition wins, as with kubectl apply)`)
  }
  const generated = normalizers.flatMap((n) => n.generated)
  if (generated.length > 0) {
    const shown = generated.slice(0, 3).map((g) => `${g.kind} ${g.namespace}/${g.name}`)
    out.push(
      `${generated.length} object${generated.length === 1 ? ' has' : 's have'} only metadata.generateName: planned as ${shown.join(', ')}${generated.length > 3 ? ', …' : ''} (the API server would add a random suffix)`,
    )
  }
  return out
}

const at = (o: {file: string; line: number}) => `${o.file}:${o.line}`

/** The fixtures as one world, for the commands that act on one (watch, reconcile). */
export async function readFixtures(opts: FixtureOptions): Promise<Snapshot> {
  const sets = await readFixtureSets({...opts, mergeFolders: true})
  if (sets.length > 1) {
    const roots = sets.filter((s) => s.applySet !== SHARED_SET).map((s) => s.applySet)
    throw new UserError(`the inputs hold ${sets.length} apply sets (kustomize roots ${roots.slice(0, 3).join(', ')}${roots.length > 3 ? ', …' : ''}), which are never applied together`, {
      hint: 'name one of them with -f, or pass --apply-set=all to read everything as one',
    })
  }
  return sets[0].snapshot
}
