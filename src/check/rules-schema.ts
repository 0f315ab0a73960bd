// unknown-field, invalid-type, missing-field, invalid-value, unknown-api-version: every object of a
// built-in kind against the schema kube-apiserver serves for it, and every custom resource whose
// CustomResourceDefinition is in the input (or under --schemas) against its openAPIV3Schema.
// Custom resources without a definition are counted, not guessed at.
import {readByController} from './controllers.js'
import {apiVerdict, formatMinor} from './deprecations.js'
import type {Draft} from './draft.js'
import type {CheckObject} from './objects.js'
import {SchemaSet, type Schema} from './schema.js'

export interface SchemaResult {
  drafts: Draft[]
  /** Objects of kinds no schema was found for: `group/Kind` → count. */
  unvalidated: Map<string, number>
}

export function schemaDrafts(objects: readonly CheckObject[], definitions: readonly CheckObject[], k8sMinor: number): SchemaResult {
  const pass = new SchemaPass(k8sMinor)
  for (const o of objects) pass.add(o)
  return pass.finish(definitions)
}

/**
 * The schema rules one object at a time: an object of a built-in kind is validated when it is
 * added (a built-in schema is looked up before any custom one, so what follows in the input
 * cannot change it); the others wait for finish(), when every CustomResourceDefinition is known.
 */
export class SchemaPass {
  private readonly schemas: SchemaSet
  private readonly drafts: Draft[] = []
  private readonly definitions: CheckObject[] = []
  private readonly waiting: CheckObject[] = []
  /** apiVersion → kind → its built-in schema (null: none): an input has few kinds and many objects of each. */
  private readonly builtIn = new Map<string, Map<string, {schema: Schema; enabled: boolean} | null>>()

  constructor(private readonly k8sMinor: number) {
    this.schemas = new SchemaSet(k8sMinor)
  }

  /**
   * Judges the object, or keeps it for finish() (then true: its parsed form is read there).
   * `verdict`: whether apiVerdict has something to say of its apiVersion, when the caller asked.
   */
  add(obj: CheckObject, verdict = apiVerdict(obj.apiVersion, obj.kind, this.k8sMinor) !== undefined): boolean {
    if (obj.kind === 'CustomResourceDefinition' && obj.group === 'apiextensions.k8s.io') this.definitions.push(obj)
    // A retired or not-yet-served apiVersion is deprecated-api's to report.
    if (verdict) return false
    let byKind = this.builtIn.get(obj.apiVersion)
    if (!byKind) this.builtIn.set(obj.apiVersion, (byKind = new Map()))
    let found = byKind.get(obj.kind)
    if (found === undefined) byKind.set(obj.kind, (found = this.schemas.builtIn(obj.group, versionOf(obj), obj.kind) ?? null))
    if (found) {
      this.validate(obj, found)
      return false
    }
    this.waiting.push(obj)
    return true
  }

  /** The drafts, with those of the objects whose kind no built-in schema describes; `definitions`: the CustomResourceDefinitions of --schemas. */
  finish(definitions: readonly CheckObject[]): SchemaResult {
    const {schemas, drafts} = this
    for (const o of [...definitions, ...this.definitions]) {
      if (o.kind === 'CustomResourceDefinition' && o.group === 'apiextensions.k8s.io') schemas.addCustomResourceDefinition(o.src.raw)
    }
    const unvalidated = new Map<string, number>()
    const looked = new Map<string, ReturnType<SchemaSet['lookup']>>()
    for (const obj of this.waiting) {
      const key = `${obj.apiVersion}|${obj.kind}`
      let found = looked.get(key)
      if (!found) looked.set(key, (found = schemas.lookup(obj.group, versionOf(obj), obj.kind)))
      if ('schema' in found) {
        this.validate(obj, found)
      } else if (found.servedVersions.length > 0) {
        const served = found.servedVersions.map((v) => (obj.group === '' ? v : `${obj.group}/${v}`)).join(', ')
        drafts.push({
          rule: 'unknown-api-version',
          message: `${obj.kind} ${obj.apiVersion} is not known to Kubernetes ${formatMinor(this.k8sMinor)}: use ${served}`,
          subject: obj,
          path: ['apiVersion'],
          atKey: false,
        })
      } else if (!readByController(obj)) {
        const key = `${obj.group === '' ? 'core' : obj.group}/${obj.kind}`
        unvalidated.set(key, (unvalidated.get(key) ?? 0) + 1)
      }
    }
    return {drafts, unvalidated}
  }

  private validate(obj: CheckObject, found: {schema: Schema; enabled: boolean}): void {
    const {schemas, drafts} = this
    if (!found.enabled) {
      drafts.push({
        rule: 'api-version-not-enabled',
        message: `${obj.kind} ${obj.apiVersion} is known to Kubernetes ${formatMinor(this.k8sMinor)} but not served unless enabled (kube-apiserver --runtime-config=${obj.apiVersion}=true)${servedWords(schemas, obj)}`,
        subject: obj,
        path: ['apiVersion'],
        atKey: false,
      })
    }
    for (const issue of schemas.validate(obj.src.raw, found.schema)) drafts.push({...issue, subject: obj})
  }
}

const versionOf = (obj: CheckObject) => obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1)

/** `; served by default: group/v1`, when the kind has such a version. */
function servedWords(schemas: SchemaSet, obj: CheckObject): string {
  const found = schemas.lookup(obj.group, '', obj.kind)
  if ('schema' in found || found.servedVersions.length === 0) return ''
  return `; served by default: ${found.servedVersions.map((v) => (obj.group === '' ? v : `${obj.group}/${v}`)).join(', ')}`
}

/** The one line said about objects that could not be validated, or none. */
export function unvalidatedNote(unvalidated: ReadonlyMap<string, number>): string | undefined {
  if (unvalidated.size === 0) return undefined
  const total = [...unvalidated.values()].reduce((a, b) => a + b, 0)
  const kinds = [...unvalidated.keys()].sort()
  return `${total} object${total === 1 ? '' : 's'} of ${kinds.length} kind${kinds.length === 1 ? '' : 's'} not validated (${kinds.slice(0, 4).join(', ')}${kinds.length > 4 ? ', …' : ''}): no schema; put their CustomResourceDefinitions in the input or under --schemas DIR`
}
