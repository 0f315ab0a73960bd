// `-f` inputs → Snapshot: the fixtures source. Reading and parsing are in documents.ts, defaulting
// and validation in normalize.ts; this file ties them together for `plan`, `list` and friends.
import {UserError} from '../errors.js'
import type {Snapshot} from '../model/objects.js'
import {openSources, readDocuments} from './documents.js'
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
}

/**
 * Reads, validates and defaults the fixtures. Bad input (unreadable file, malformed YAML/JSON,
 * something the API server would reject) throws a UserError naming the file, line and column of
 * the first problem in input order.
 */
export async function readFixtures(opts: FixtureOptions): Promise<Snapshot> {
  const files = await openSources(opts.paths, {readStdin: opts.readStdin})
  const normalizer = new Normalizer({paths: opts.paths, namespace: opts.namespace, allNamespaces: opts.allNamespaces, selector: opts.selector})
  // Reading stops at the first input that does not parse; problems found in objects before it
  // come first in input order.
  let parseError: UserError | undefined
  try {
    for (const obj of readDocuments(files)) normalizer.add(obj)
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    parseError = error
  }
  const {snapshot, problems} = normalizer.finish()
  if (problems.length > 0) throw problemError(firstProblem(problems), problems.length - 1 + (parseError ? 1 : 0))
  if (parseError) throw parseError
  return snapshot
}
