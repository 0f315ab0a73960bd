// pod-template-hash, computed as kube-controller-manager computes it (controller.ComputeHash in
// pkg/controller/controller_utils.go): FNV-1a (32 bits) over spew's `%#v` print of the Go value of
// the Deployment's pod template — as the API server stored it (defaulted, quantities rounded and
// canonicalized) and as the controller decoded it from protobuf (empty lists and maps are nil) —
// then the collision count's bytes, then the decimal digits mapped to a safe alphabet.
import {DEFAULTS} from './defaults.js'
import type {GoType} from './go-types.js'
import {POD_TEMPLATE_TYPES} from './pod-template-types.js'
import {dumpQuantity, QuantityError, quantityText, storedQuantity} from './quantity.js'

export {KUBERNETES_VERSION} from './pod-template-types.js'

/** A template kctl cannot print as the controller would: its name is reported unknown, never guessed. */
export class UnhashableTemplate extends Error {}

const TYPES = POD_TEMPLATE_TYPES

/** The exact text the controller hashes for `template` (dump.ForHash). */
export function podTemplateDump(template: unknown): string {
  return `(v1.PodTemplateSpec)${value('v1.PodTemplateSpec', template ?? {}, 'spec.template', false)}`
}

/** ComputeHash(template, collisionCount): the label value and the new ReplicaSet's name suffix. */
export function podTemplateHash(template: unknown, collisionCount: number | undefined): string {
  return podTemplateHasher(template)(collisionCount)
}

/** podTemplateHash of one template for any collision count, the template printed once. */
export function podTemplateHasher(template: unknown): (collisionCount: number | undefined) => string {
  const base = fnv1a(Buffer.from(podTemplateDump(template), 'utf8'), 0x811c9dc5)
  return (collisionCount) => {
    let h = base
    if (collisionCount !== undefined) {
      // binary.LittleEndian.PutUint32 into an 8-byte slice: the count, then four zero bytes.
      const b = Buffer.alloc(8)
      b.writeUInt32LE(collisionCount >>> 0, 0)
      h = fnv1a(b, h)
    }
    return safeEncode(String(h))
  }
}

function fnv1a(bytes: Uint8Array, seed: number): number {
  let h = seed
  // An indexed loop: most templates are hashed a few times each, before the code is optimised,
  // where a for-of loop's iterator costs many times the multiply.
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0
  return h
}

/** rand.SafeEncodeString: each character mapped into an alphabet without vowels or look-alikes. */
export function safeEncode(s: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
  let out = ''
  for (let i = 0; i < s.length; i++) out += alphabet[s.charCodeAt(i) % alphabet.length]
  return out
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function fail(path: string, message: string): never {
  throw new UnhashableTemplate(`${path}: ${message}`)
}

function typeOf(name: string, path: string): GoType {
  const t = TYPES[name]
  if (!t) fail(path, `no Go type ${name} in the table`)
  return t
}

/** The value of Go type `name` read from JSON `v`, printed as spew does; `tag`: with its `(T)` prefix. */
function value(name: string, v: unknown, path: string, tag: boolean, inline = false): string {
  const prefix = tag ? `(${name})` : ''
  // Types whose JSON form is not their Go layout.
  switch (name) {
    case 'resource.Quantity':
      // A Quantity held by value (a ResourceFieldSelector's divisor) is not defaulted by the API
      // server: left out, it is Go's zero Quantity, stored as its string "0" and read back parsed.
      return prefix + quantity(v === undefined || v === null ? '0' : v, path, false)
    case 'intstr.IntOrString':
      if (typeof v === 'number' && Number.isInteger(v)) return `${prefix}{Type:(intstr.Type)0 IntVal:(int32)${v} StrVal:(string)}`
      if (typeof v === 'string') return `${prefix}{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)${v}}`
      if (v === undefined || v === null) return `${prefix}{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}`
      return fail(path, 'expected an integer or a string')
    case 'v1.Time':
      if (v === undefined || v === null) return `${prefix}{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}`
      return fail(path, 'a timestamp inside a pod template is not supported here')
  }
  const t = typeOf(name, path)
  switch (t.kind) {
    case 'struct':
      return prefix + struct(name, t, v, path, inline)
    case 'ptr':
      if (v === undefined || v === null) return `${prefix}<nil>`
      return prefix + value(t.elem!, v, path, false)
    case 'slice': {
      if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return `${prefix}<nil>`
      if (!Array.isArray(v)) return fail(path, 'expected a list')
      return `${prefix}[${v.map((x, i) => value(t.elem!, x, `${path}[${i}]`, false)).join(' ')}]`
    }
    case 'map': {
      if (v === undefined || v === null) return `${prefix}<nil>`
      if (!isObj(v)) return fail(path, 'expected a mapping')
      const keys = Object.keys(v).sort(byUtf8)
      if (keys.length === 0) return `${prefix}<nil>`
      const resourceList = name === 'v1.ResourceList'
      const items = keys.map((k) => {
        const x = v[k]
        const printed = resourceList ? quantity(x, `${path}.${k}`, true) : value(t.elem!, x ?? '', `${path}.${k}`, false)
        return `${k}:${printed}`
      })
      return `${prefix}map[${items.join(' ')}]`
    }
    case 'string':
      if (v === undefined || v === null) return prefix
      if (typeof v !== 'string') return fail(path, 'expected a string')
      return prefix + v
    case 'bool':
      if (v === undefined || v === null) return `${prefix}false`
      if (typeof v !== 'boolean') return fail(path, 'expected true or false')
      return `${prefix}${v}`
    case 'int32':
    case 'int64':
    case 'int':
    case 'uint8':
    case 'uint':
    case 'uint64':
      if (v === undefined || v === null) return `${prefix}0`
      if (typeof v !== 'number' || !Number.isInteger(v)) return fail(path, 'expected an integer')
      return `${prefix}${v}`
    default:
      return fail(path, `values of kind ${t.kind} are not supported`)
  }
}

/** `inline`: an embedded struct reading its fields from its parent's object (the parent checks the keys). */
function struct(name: string, t: GoType, v: unknown, path: string, inline: boolean): string {
  if (v !== undefined && v !== null && !isObj(v)) return fail(path, 'expected a mapping')
  let obj: Record<string, unknown> = isObj(v) ? v : {}
  const defaults = DEFAULTS[name]
  if (defaults) {
    obj = {...obj}
    defaults(obj)
  }
  let out = '{'
  for (const f of fieldsOf(t)) {
    if (out.length > 1) out += ' '
    const x = f.json === undefined ? undefined : f.json === '*inline' ? obj : obj[f.json]
    if (x === undefined) {
      // Most of a template's fields are absent: their print depends on the type alone.
      if (f.absent === undefined) f.absent = `${f.name}:${value(f.type, undefined, `${path}.${f.json}`, true)}`
      out += f.absent
    } else out += `${f.name}:${value(f.type, x, f.json === '*inline' ? path : `${path}.${f.json}`, true, f.json === '*inline')}`
  }
  out += '}'
  if (inline) return out
  const known = knownKeys(t)
  for (const key in obj) {
    if (known.has(key) || obj[key] === null) continue
    fail(`${path}.${key}`, `unknown field (not in ${name})`)
  }
  return out
}

interface FieldPrint {
  name: string
  type: string
  /** undefined: not read from JSON. */
  json?: string
  /** The field's print when absent, once printed. */
  absent?: string
}

const fieldPrints = new WeakMap<GoType, FieldPrint[]>()

function fieldsOf(t: GoType): FieldPrint[] {
  let fields = fieldPrints.get(t)
  if (!fields) {
    fields = t.fields!.map((f) => ({name: f.name, type: f.type, json: f.json === '-' ? undefined : f.json}))
    fieldPrints.set(t, fields)
  }
  return fields
}

/** The JSON keys a struct reads: its own fields' and those of its embedded (inline) structs. */
const knownKeysOf = new WeakMap<GoType, Set<string>>()

function knownKeys(t: GoType): Set<string> {
  let known = knownKeysOf.get(t)
  if (!known) {
    known = new Set()
    for (const f of t.fields!) {
      if (f.json === '*inline') {
        const inner = TYPES[f.type]
        if (inner?.kind === 'struct') for (const k of knownKeys(inner)) known.add(k)
      } else if (f.json !== undefined && f.json !== '-') known.add(f.json)
    }
    knownKeysOf.set(t, known)
  }
  return known
}

/** Prints of quantities by their text (templates repeat a few: `100m`, `1Gi`), each in and out of a ResourceList. */
const quantityPrints = [new Map<string, string>(), new Map<string, string>()]

function quantity(v: unknown, path: string, inResourceList: boolean): string {
  try {
    const text = quantityText(v)
    const known = quantityPrints[inResourceList ? 1 : 0]
    let printed = known.get(text)
    if (printed === undefined) {
      printed = dumpQuantity(storedQuantity(text, inResourceList))
      if (known.size >= 1024) known.clear()
      known.set(text, printed)
    }
    return printed
  } catch (error) {
    if (error instanceof QuantityError) return fail(path, error.message)
    throw error
  }
}

/** Go's string order: bytewise over UTF-8. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}
