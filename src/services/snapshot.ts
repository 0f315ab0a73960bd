// The one seam between "where objects come from" and everything after: fixtures when -f is
// given, otherwise the live cluster. Both yield the same Snapshot.
import type {Snapshot} from '../model/objects.js'
import type {ClusterRequest} from '../sources/cluster.js'
import {readFixtures} from '../sources/fixtures.js'

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
}

export async function readSnapshot(req: SourceRequest): Promise<Snapshot> {
  if (req.filename && req.filename.length > 0) {
    return readFixtures({
      paths: req.filename,
      namespace: req.namespace,
      allNamespaces: req.allNamespaces,
      selector: req.selector,
      readStdin: req.readStdin,
    })
  }
  // Lazy: the cluster code pulls in client-node, which costs ~0.3 s to import.
  const {readCluster} = await import('../sources/cluster.js')
  return readCluster(clusterRequest(req))
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
  }
}
