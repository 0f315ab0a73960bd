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
