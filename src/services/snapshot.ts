// The one seam between "where objects come from" and everything after: fixtures when -f is
// given, otherwise the live cluster. Both yield the same Snapshot.
import type {Snapshot} from '../model/objects.js'
import type {ClusterRequest} from '../sources/cluster.js'
import type {UserError} from '../errors.js'
import {readFixtures, readFixtureSets, type ApplySetSnapshot, type FixtureOptions, type LeftOut} from '../sources/fixtures.js'
import {SHARED_SET, skippedNotice, type ApplySetMode} from '../sources/layout.js'

export interface SourceRequest {
  /** -f values: files, directories or `-` (stdin). Empty or absent: the live cluster. */
  filename?: string[]
  kubeconfig?: string
  context?: string
  namespace?: string
  allNamespaces?: boolean
  /** -l, kubectl syntax; applied to the controllers' own labels. */
  selector?: string
  /** Page size for the API server's lists. */
  chunkSize?: number
  /** Reads all of stdin, for `-f -` (injected by tests). */
  readStdin?: () => Promise<string>
  /** -k: a kustomization directory to render and read (a fixture source, like -f). */
  kustomize?: string
  /** Inputs that hold no object are not an error. */
  allowEmpty?: boolean
  /** --apply-set: which fixture inputs are applied together. */
  applySet?: ApplySetMode
  /** Where notes about the input go (stderr in the CLI): what a directory walk skipped, replaced definitions. */
  onNote?: (message: string) => void
  /** Fixtures: each input that cannot be read; with it, the rest is still read (plan, list). */
  onUnreadable?: (error: UserError) => void
  /** Fixtures: the controllers -n/-l left out. */
  onLeftOut?: (leftOut: LeftOut) => void
}

export async function readSnapshot(req: SourceRequest): Promise<Snapshot> {
  if (fromFixtures(req)) return readFixtures(fixtureOptions(req))
  // Lazy: the cluster code pulls in client-node, which costs ~0.3 s to import.
  const {readCluster} = await import('../sources/cluster.js')
  // Planned as read: the nodes only if something read plans with them.
  return readCluster({...clusterRequest(req), nodesWhenRead: true})
}

/**
 * One world per apply set: fixtures may hold several (kustomize roots, layout.ts), a cluster is
 * one. `plan` and `list` plan each on its own.
 */
export async function readSnapshots(req: SourceRequest): Promise<ApplySetSnapshot[]> {
  if (fromFixtures(req)) return readFixtureSets(fixtureOptions(req))
  return [{applySet: SHARED_SET, snapshot: await readSnapshot(req)}]
}

/** -f or -k: fixtures; neither: the live cluster. */
export function fromFixtures(req: SourceRequest): boolean {
  return (req.filename !== undefined && req.filename.length > 0) || req.kustomize !== undefined
}

function fixtureOptions(req: SourceRequest, command = 'plan'): FixtureOptions {
  return {
    paths: req.filename ?? [],
    kustomize: req.kustomize,
    allowEmpty: req.allowEmpty,
    namespace: req.namespace,
    allNamespaces: req.allNamespaces,
    selector: req.selector,
    readStdin: req.readStdin,
    applySet: req.applySet,
    onUnreadable: req.onUnreadable,
    onLeftOut: req.onLeftOut,
    onWarning: req.onNote,
    onSkipped: (skipped) => {
      const note = skippedNotice(skipped, command)
      if (note) req.onNote?.(note)
    },
  }
}

/** The live-source part of a request. */
export function clusterRequest(req: SourceRequest): ClusterRequest {
  return {
    kubeconfig: req.kubeconfig,
    context: req.context,
    namespace: req.namespace,
    allNamespaces: req.allNamespaces,
    selector: req.selector,
    pageSize: req.chunkSize,
    onNote: req.onNote,
  }
}
