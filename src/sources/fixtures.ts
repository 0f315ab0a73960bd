// `-f` inputs → Snapshot: the fixtures source. Reading and parsing are in documents.ts, defaulting
// and validation in normalize.ts; this file ties them together for `plan`, `list` and friends.
import {UserError} from '../errors.js'
import type {Snapshot} from '../model/objects.js'
import {openSources, readDocuments} from './documents.js'
import {emptyInputError, SHARED_SET, type ApplySetMode, type Skipped} from './layout.js'
import {firstProblem, Normalizer, problemError} from './normalize.js'

export {openSources, readAllDocuments, readDocuments, SourceObject, Locator, type Path, type RawObject} from './documents.js'
export {firstProblem, formatPath, normalize, Normalizer, problemError, type NormalizeOptions, type Problem} from './normalize.js'

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
}

/** One apply set's world: what would be applied together. */
export interface ApplySetSnapshot {
  /** '' for the inputs outside any kustomize root (or everything, with --apply-set=all). */
  applySet: string
  snapshot: Snapshot
}

/**
 * Reads, validates and defaults the fixtures, one world per apply set, in input order. Bad input
 * (unreadable file, malformed YAML/JSON, something the API server would reject) throws a
 * UserError naming the file, line and column of the first problem in input order.
 */
export async function readFixtureSets(opts: FixtureOptions): Promise<ApplySetSnapshot[]> {
  const skipped: Skipped[] = []
  const files = await openSources(opts.paths, {readStdin: opts.readStdin, applySet: opts.applySet, skipped, kustomize: opts.kustomize})
  if (skipped.length > 0) opts.onSkipped?.(skipped)
  const normalizers = new Map<string, Normalizer>()
  const normalizerFor = (applySet: string) => {
    let n = normalizers.get(applySet)
    if (!n) normalizers.set(applySet, (n = new Normalizer({paths: opts.paths, namespace: opts.namespace, allNamespaces: opts.allNamespaces, selector: opts.selector})))
    return n
  }
  // Reading stops at the first input that does not parse; problems found in objects before it
  // come first in input order.
  let parseError: UserError | undefined
  try {
    for (const obj of readDocuments(files)) normalizerFor(obj.locator.applySet).add(obj)
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    parseError = error
  }
  if (normalizers.size === 0) {
    if (!parseError && !opts.allowEmpty) throw emptyInputError(opts.paths, opts.kustomize, files.length, skipped.length)
    normalizerFor(SHARED_SET)
  }
  const sets = [...normalizers].map(([applySet, n]) => ({applySet, ...n.finish()}))
  // Input order across the sets, as readDocuments gave them (the sort is stable within an object).
  const problems = sets.flatMap((s) => s.problems).sort((a, b) => a.ordinal - b.ordinal)
  if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1 + (parseError ? 1 : 0))
  if (parseError) throw parseError
  return sets.map(({applySet, snapshot}) => ({applySet, snapshot}))
}

/** The fixtures as one world, for the commands that act on one (watch, reconcile). */
export async function readFixtures(opts: FixtureOptions): Promise<Snapshot> {
  const sets = await readFixtureSets(opts)
  if (sets.length > 1) {
    const roots = sets.filter((s) => s.applySet !== SHARED_SET).map((s) => s.applySet)
    throw new UserError(`the inputs hold ${sets.length} apply sets (kustomize roots ${roots.slice(0, 3).join(', ')}${roots.length > 3 ? ', …' : ''}), which are never applied together`, {
      hint: 'name one of them with -f, or pass --apply-set=all to read everything as one',
    })
  }
  return sets[0].snapshot
}
