// Files that are templates, not manifests: envsubst's `${VAR}` / `${VAR:-default}` placeholders
// (and `{{name}}` ones) standing in a field's value. Such a file is named once, like a Helm
// template, and its objects are not validated field by field: `replicas: ${REPLICAS:-1}` is not
// a wrong type, it is not rendered yet. Its objects still count as what other objects refer to
// (a Service elsewhere may select the pods of a templated Deployment).
//
// A placeholder counts only in a one-line string outside the fields that hold scripts or data
// (command, args, ConfigMap and Secret data): `sh -c "echo ${HOME}"` is a shell's, not a template's.
import type {CheckObject} from './objects.js'

const PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-=?+])[^}]*)?\}|\{\{\s*[\w.]+\s*\}\}/

/** Fields whose strings are scripts or data, where `${…}` belongs to something else. */
const OPAQUE = new Set(['command', 'args', 'data', 'stringData', 'binaryData', 'annotations'])

/** Every placeholder holds a `{`: most strings are passed over without the pattern. */
const mayHold = (s: string) => s.includes('{')

const isPlaceholderString = (s: string) => mayHold(s) && !s.includes('\n') && PLACEHOLDER.test(s)

function hasPlaceholder(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isPlaceholderString(value)
  if (depth > 64 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) {
    for (const v of value) if (hasPlaceholder(v, depth + 1)) return true
    return false
  }
  const o = value as Record<string, unknown>
  for (const k in o) {
    // Most values are strings without a {, and most keys hold none: both are passed over without a call.
    const v = o[k]
    if (typeof v === 'string') {
      if (mayHold(v) && !OPAQUE.has(k) && isPlaceholderString(v)) return true
    } else if (typeof v === 'object' && v !== null && !OPAQUE.has(k) && hasPlaceholder(v, depth + 1)) return true
    if (mayHold(k) && !OPAQUE.has(k) && PLACEHOLDER.test(k)) return true
  }
  return false
}

/**
 * Every placeholder holds a `{`, written as such or through an escape (`\x7b` in a double-quoted
 * YAML string, `\u007b` in JSON): text with neither byte holds none, and its object is not walked.
 */
const OPENERS = [0x7b, 0x5c]

const holdsPlaceholder = (o: CheckObject) => !o.src.locator.textLacks(OPENERS) && hasPlaceholder(o.src.raw)

/** Whether the objects of one file make it a template (any of them holds a placeholder). */
export function isTemplate(objects: readonly CheckObject[]): boolean {
  return objects.some(holdsPlaceholder)
}

/** The files of the input that are templates (any of their objects holds a placeholder). */
export function templateFiles(objects: readonly CheckObject[]): Set<string> {
  const files = new Set<string>()
  for (const o of objects) if (!files.has(o.src.file) && holdsPlaceholder(o)) files.add(o.src.file)
  return files
}

/** The one line said about them, or none. */
export function templateNote(files: ReadonlySet<string>): string | undefined {
  if (files.size === 0) return undefined
  const names = [...files]
  const first = names[0]
  return `skipped ${names.length} template${names.length === 1 ? '' : 's'} with \${VAR} placeholders (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}): not validated field by field; render ${names.length === 1 ? 'it' : 'one'} first, e.g. envsubst < ${first} | kctl check -f -`
}
