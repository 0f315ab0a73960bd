// ControllerRevisions as the StatefulSet and DaemonSet controllers keep them
// (pkg/controller/history/controller_history.go): the template a revision records, equality of
// templates, the order of revisions, and the StatefulSet's revision hash.
import type {ControllerRevisionView} from '../model/objects.js'
import {DEFAULTS} from './hash/defaults.js'
import {podTemplateDump, safeEncode, UnhashableTemplate} from './hash/index.js'
import {POD_TEMPLATE_TYPES} from './hash/pod-template-types.js'
import {QuantityError, quantityString, quantityText, storedQuantity} from './hash/quantity.js'
import {controllerOf} from './pods.js'
import {objectTime} from './time.js'
import {groupBy} from './workload-plan.js'

export const REVISION_HASH_LABEL = 'controller-revision-hash'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The pod template a revision records: `data.spec.template` without its `$patch` directive. */
export function revisionTemplate(rev: ControllerRevisionView): unknown {
  const spec = isObj(rev.data) ? rev.data.spec : undefined
  const t = isObj(spec) ? spec.template : undefined
  if (!isObj(t)) return undefined
  const {$patch: _, ...template} = t
  return template
}

/**
 * A key equal for two templates exactly when the API server stores them alike: the Go print of
 * the defaulted template (as pod-template-hash prints it), or, for what cannot be printed so,
 * the JSON with sorted keys and without empty lists and maps.
 */
export function templateKey(template: unknown): string {
  try {
    return podTemplateDump(template)
  } catch (error) {
    if (!(error instanceof UnhashableTemplate)) throw error
    return `json:${JSON.stringify(canonicalJson(template))}`
  }
}

/**
 * Whether a revision records exactly `template` (same JSON, key for key and in the same order, its
 * `$patch` directive aside): then its templateKey is the template's, whatever that key is, and
 * neither need be computed.
 */
function recordsSameJson(template: unknown, rev: ControllerRevisionView): boolean {
  const spec = isObj(rev.data) ? rev.data.spec : undefined
  const t = isObj(spec) ? spec.template : undefined
  return isObj(t) && isObj(template) && sameJson(template, t, '$patch')
}

/** Plain JSON data alike, keys in the same order; `skip`: a key of `b` (at the top) not compared. */
function sameJson(a: unknown, b: unknown, skip?: string): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b)
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = skip !== undefined && Object.hasOwn(b, skip) ? Object.keys(b).filter((k) => k !== skip) : Object.keys(b)
  if (ka.length !== kb.length) return false
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameJson((a as Obj)[ka[i]], (b as Obj)[kb[i]])) return false
  }
  return true
}

/**
 * Two templates with another image in a container at the same place: their keys differ (an image
 * is printed as written, never defaulted), so neither need be printed.
 */
export function imagesDiffer(a: unknown, b: unknown): boolean {
  const containers = (t: unknown) => (t as {spec?: {containers?: unknown}} | null)?.spec?.containers
  const ca = containers(a)
  const cb = containers(b)
  if (!Array.isArray(ca) || !Array.isArray(cb) || ca.length !== cb.length) return false
  return ca.some((c, i) => {
    const ia = (c as {image?: unknown} | null)?.image
    const ib = (cb[i] as {image?: unknown} | null)?.image
    return typeof ia === 'string' && typeof ib === 'string' && ia !== '' && ib !== '' && ia !== ib
  })
}

/**
 * Whether a revision records `template` (their templateKeys are equal). A revision recording the
 * very same JSON does, one with another image in a container does not: neither is printed then,
 * and the template itself is printed at most once.
 */
export function recordsTemplate(template: unknown): (rev: ControllerRevisionView) => boolean {
  let key: string | undefined
  return (rev) => {
    if (recordsSameJson(template, rev)) return true
    const t = revisionTemplate(rev)
    return !imagesDiffer(template, t) && templateKey(t) === (key ??= templateKey(template))
  }
}

export function canonicalJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(canonicalJson)
  if (typeof v !== 'object' || v === null) return v
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v).sort()) {
    const x = canonicalJson((v as Record<string, unknown>)[k])
    if (x !== undefined && x !== null) out[k] = x
  }
  return out
}

/**
 * The revisions a controller may claim, grouped once for every controller of a plan: those whose
 * controller reference has its uid, then the orphans of its namespace (neither in any set order:
 * the histories sort what they claim).
 */
export function revisionCandidates(revisions: readonly ControllerRevisionView[]): (namespace: string, uid: string) => ControllerRevisionView[] {
  const owned = groupBy(revisions, (r) => controllerOf(r)?.uid)
  const orphans = groupBy(revisions, (r) => (controllerOf(r) ? undefined : r.namespace))
  return (namespace, uid) => [...(owned.get(uid) ?? []).filter((r) => r.namespace === namespace), ...(orphans.get(namespace) ?? [])]
}

/** history.SortControllerRevisions: by revision, then creation time, then name. */
export function sortRevisions(revisions: readonly ControllerRevisionView[]): ControllerRevisionView[] {
  return [...revisions].sort((a, b) => {
    if (a.revision !== b.revision) return a.revision - b.revision
    const ta = objectTime(a.creationTimestamp) ?? 0n
    const tb = objectTime(b.creationTimestamp) ?? 0n
    if (ta !== tb) return ta < tb ? -1 : 1
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  })
}

export function maxRevision(revisions: readonly ControllerRevisionView[]): number {
  return revisions.reduce((m, r) => Math.max(m, r.revision), 0)
}

/**
 * The bytes the StatefulSet controller stores as a revision's data (getPatch, S3.1): Go's
 * encoding/json of `{"spec":{"template":{...,"$patch":"replace"}}}` over a generic map — keys
 * sorted, compact, `<`, `>`, `&`, U+2028 and U+2029 escaped. `template` must already be the
 * API server's JSON of the template (read live), where defaults and omitted fields are as Go wrote them.
 */
export function statefulSetRevisionData(template: unknown): string {
  return goJson({spec: {template: {...(isObj(template) ? template : {}), $patch: 'replace'}}})
}

/**
 * A revision's data as it is stored, byte for byte: Go's encoding of it with the keys in the order
 * they were read (the DaemonSet controller compares these bytes, DS7.2).
 */
export function storedRevisionData(rev: ControllerRevisionView): string {
  return goJson(rev.data, false)
}

function goJson(v: unknown, sorted = true): string {
  if (v === null || v === undefined) return 'null'
  if (Array.isArray(v)) return `[${v.map((x) => goJson(x, sorted)).join(',')}]`
  if (typeof v === 'object') {
    const keys = sorted ? Object.keys(v).sort() : Object.keys(v)
    return `{${keys.map((k) => `${goString(k)}:${goJson((v as Obj)[k], sorted)}`).join(',')}}`
  }
  if (typeof v === 'string') return goString(v)
  return JSON.stringify(v)
}

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * history.HashControllerRevision as the StatefulSet controller calls it (S3.2): FNV-1 (not 1a),
 * 32 bits, over the data and then the decimal collision count (always given, so "0" when none).
 */
export function statefulSetRevisionHash(data: string, collisionCount: number): string {
  let h = 0x811c9dc5
  for (const byte of Buffer.from(data + String(collisionCount), 'utf8')) h = (Math.imul(h, 0x01000193) ^ byte) >>> 0
  return safeEncode(String(h))
}

/**
 * Whether a template from a file is already in the shape the API server returns it in (a
 * `kubectl get -o yaml` dump): the defaults it would fill in are all there and quantities are
 * canonical. Its JSON is then the stored JSON, and a StatefulSet's revision hash can be computed.
 */
export function isServerShaped(template: unknown): boolean {
  // The defaults always give the pod spec a terminationGracePeriodSeconds: one without it is not so shaped.
  if (isObj(template) && isObj(template.spec) && (template.spec.terminationGracePeriodSeconds === undefined || template.spec.terminationGracePeriodSeconds === null)) return false
  try {
    return JSON.stringify(canonicalJson(template)) === JSON.stringify(canonicalJson(withDefaults('v1.PodTemplateSpec', template)))
  } catch (error) {
    if (error instanceof QuantityError) return false
    throw error
  }
}

const ALWAYS_WRITTEN = (type: string) => POD_TEMPLATE_TYPES[type]?.kind === 'struct' && !['v1.Time', 'intstr.IntOrString', 'resource.Quantity'].includes(type)

/** A copy of `v` (of Go type `name`) with the API server's defaults filled in and quantities canonical. */
function withDefaults(name: string, v: unknown): unknown {
  if (v === undefined || v === null) return v
  if (name === 'resource.Quantity') return quantityString(storedQuantity(quantityText(v), false))
  if (name === 'v1.ResourceList' && isObj(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, q]) => [k, quantityString(storedQuantity(quantityText(q), true))]))
  }
  const t = POD_TEMPLATE_TYPES[name]
  if (!t) return v
  switch (t.kind) {
    case 'struct': {
      if (!isObj(v)) return v
      let o: Obj = {...v}
      DEFAULTS[name]?.(o)
      for (const f of t.fields ?? []) {
        // Go's encoding/json writes a struct-valued field even when empty (`resources: {}`);
        // only a zero metav1.Time is left out.
        if (f.json !== undefined && f.json !== '*inline' && f.json !== '-' && o[f.json] === undefined && ALWAYS_WRITTEN(f.type)) o[f.json] = {}
        if (f.json === '*inline') o = {...o, ...(withDefaults(f.type, o) as Obj)}
        else if (f.json !== undefined && f.json !== '-' && o[f.json] !== undefined) o[f.json] = withDefaults(f.type, o[f.json])
      }
      return o
    }
    case 'ptr':
      return withDefaults(t.elem!, v)
    case 'slice':
      return Array.isArray(v) ? v.map((x) => withDefaults(t.elem!, x)) : v
    case 'map':
      return isObj(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withDefaults(t.elem!, x)])) : v
    default:
      return v
  }
}
