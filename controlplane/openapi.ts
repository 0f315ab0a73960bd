// The OpenAPI v3 schemas of every built-in API group-version, as the project's own kube-apiserver
// serves them (/openapi/v3), reduced to what `kctl check` validates with and written to
// src/check/schemas/kubernetes.json.gz. `npx tsx controlplane/openapi.ts` regenerates the file;
// the e2e suite checks that the committed file equals what the running control plane serves.
import {writeFileSync} from 'node:fs'
import {gzipSync} from 'node:zlib'

import {request} from './http.js'
import {startControlPlane, type ControlPlaneInfo} from './start.js'
import versions from './versions.json' with {type: 'json'}

export const SCHEMA_FILE = new URL('../src/check/schemas/kubernetes.json.gz', import.meta.url)

type Json = any

/** The reduced schema document: what the validator needs, in a stable order. */
export interface SchemaDocument {
  kubernetes: string
  /** `group/version/Kind` (group '' for core) → the schema name of the object. */
  kinds: Record<string, string>
  /** Schema name → schema, with descriptions dropped and $refs reduced to schema names. */
  schemas: Record<string, Json>
}

const KEEP = new Set(['type', 'format', 'properties', 'additionalProperties', 'items', 'required', 'enum', 'allOf', 'oneOf', 'anyOf', '$ref', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'nullable'])

function reduce(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(reduce)
  if (schema === null || typeof schema !== 'object') return schema
  const out: Json = {}
  for (const key of Object.keys(schema).sort()) {
    if (!KEEP.has(key)) continue
    const v = schema[key]
    if (key === '$ref') out.$ref = String(v).replace('#/components/schemas/', '')
    else if (key === 'properties') {
      out.properties = {}
      for (const p of Object.keys(v).sort()) out.properties[p] = reduce(v[p])
    } else out[key] = reduce(v)
  }
  return out
}

export async function fetchSchemas(cp: Pick<ControlPlaneInfo, 'server' | 'adminToken' | 'caFile'>): Promise<SchemaDocument> {
  const get = async (path: string) => {
    const res = await request(`${cp.server}${path}`, {token: cp.adminToken, timeoutMs: 60_000})
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`)
    return res.json
  }
  const index = await get('/openapi/v3')
  // Groups that CustomResourceDefinitions add (a test may have created some) are not built in.
  const crds = await get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')
  const customGroups = new Set<string>((crds.items ?? []).map((c: Json) => c.spec.group))
  const kinds: Record<string, string> = {}
  const schemas: Record<string, Json> = {}
  for (const path of Object.keys(index.paths).sort()) {
    if (!/^(api\/v1|apis\/[^/]+\/[^/]+)$/.test(path) || customGroups.has(path.split('/')[1])) continue
    const doc = await get(`/openapi/v3/${path}`)
    for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
      schemas[name] ??= reduce(schema)
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        // Only the kinds this group-version serves (other GVKs appear as shared types, e.g. DeleteOptions).
        const gv = gvk.group === '' ? `api/${gvk.version}` : `apis/${gvk.group}/${gvk.version}`
        if (gv === path && !/List$/.test(gvk.kind) && gvk.kind !== 'DeleteOptions' && gvk.kind !== 'WatchEvent' && gvk.kind !== 'Status') {
          kinds[`${gvk.group}/${gvk.version}/${gvk.kind}`] = name
        }
      }
    }
  }
  const sorted = (o: Record<string, Json>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))
  return {kubernetes: versions.kubernetes, kinds: sorted(kinds), schemas: sorted(schemas)}
}

export function encodeSchemas(doc: SchemaDocument): Buffer {
  return gzipSync(`${JSON.stringify(doc)}\n`, {level: 9})
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cp = await startControlPlane()
  try {
    const doc = await fetchSchemas(cp)
    writeFileSync(SCHEMA_FILE, encodeSchemas(doc))
    process.stderr.write(`wrote ${SCHEMA_FILE.pathname}: ${Object.keys(doc.kinds).length} kinds, ${Object.keys(doc.schemas).length} schemas\n`)
  } finally {
    await cp.stop()
  }
}
