// Machine-readable documents: exactly one per run, byte-for-byte deterministic.
import {yamlPackage} from '../yaml-package.js'

export type DocumentFormat = 'json' | 'yaml'

/**
 * JSON: 2-space indent and a trailing newline. YAML: written under the YAML 1.1 schema so that
 * strings a 1.1 reader (go-yaml, kubectl, PyYAML) would turn into something else — `yes`, `on`,
 * `2026-11-22T10:00:00Z` — come out quoted; a 1.2 reader reads the same values.
 */
export function renderDocument(value: unknown, format: DocumentFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`
  return yamlPackage().stringify(value, {version: '1.1', lineWidth: 0, indentSeq: true})
}

/** Pieces of output are joined up to about this many characters before they are handed out. */
const PIECE = 16_384

/**
 * The same document in pieces, for documents larger than one string may hold (a plan of
 * thousands of Deployments with their following steps): the same bytes as renderDocument, the
 * top-level object's fields and list items stringified one at a time. Small items are joined
 * into pieces of about PIECE characters; no piece holds more than one large item, so every
 * string stays short-lived (the young generation frees it) and the document is never held whole.
 */
export function* renderDocumentChunks(value: unknown, format: DocumentFormat): Generator<string> {
  if (format !== 'json' || typeof value !== 'object' || value === null || Array.isArray(value)) {
    yield renderDocument(value, format)
    return
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  if (entries.length === 0) {
    yield '{}\n'
    return
  }
  yield '{\n'
  for (const [i, [key, v]] of entries.entries()) {
    const comma = i < entries.length - 1 ? ',' : ''
    if (Array.isArray(v) && v.length > 0) {
      // Stringified inside a one-key object, an item comes out at this list's indentation.
      const head = `{\n  ${JSON.stringify(key)}: [\n`
      const tail = '\n  ]\n}'
      yield head.slice(2)
      let pending = ''
      for (let k = 0; k < v.length; k++) {
        const text = JSON.stringify({[key]: [v[k]]}, null, 2)
        const item = `${text.slice(head.length, text.length - tail.length)}${k < v.length - 1 ? ',' : ''}\n`
        if (pending.length + item.length <= PIECE) pending += item
        else {
          if (pending.length > 0) yield pending
          pending = item
        }
      }
      if (pending.length > 0) yield pending
      yield `  ]${comma}\n`
    } else {
      yield `  ${JSON.stringify(key)}: ${JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')}${comma}\n`
    }
  }
  yield '}\n'
}
