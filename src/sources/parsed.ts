// Objects already parsed (a live cluster's lists, an in-memory world) turned into a Snapshot by the
// same reader and normalizer as files: they travel as one JSON List, exactly the document
// `kubectl get -o json` would print, which is there for positions (error lines), not parsed again.
import type {Snapshot} from '../model/objects.js'
import {readParsedJsonList, type RawObject} from './documents.js'
import {SourceFile} from './files.js'
import {normalize, type NormalizeOptions} from './normalize.js'

export function normalizeParsed(name: string, objects: RawObject[], options: NormalizeOptions): Snapshot {
  const list = new SourceFile(name, undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects}, null, 1)))
  // The kinds are all known before reading: readers may leave out what only absent kinds need.
  const kinds = new Set(objects.map((o) => o.kind))
  return normalize(readParsedJsonList(list, objects), {mayHold: (kind) => kinds.has(kind), ...options})
}
