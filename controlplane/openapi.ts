// The OpenAPI v3 schemas of every built-in API group-version, as the project's own kube-apiserver
// serves them (/openapi/v3), reduced as `kctl check` stores them. The committed schemas are
// generated from the published documents of each Kubernetes version (scripts/schemas.mjs); the
// e2e suite compares the set of the control plane's version with what this server serves.
import {request} from './http.js'
import type {ControlPlaneInfo} from './start.js'
import versions from './versions.json' with {type: 'json'}
import {isObjectKind, reduceSchema} from '../scripts/schemas.mjs'

type Json = any

/** The reduced schema document: what the validator needs, in a stable order. */
export interface SchemaDocument {
  kubernetes: string
  /** `group/version/Kind` (group '' for core) → the schema name of the object. */
  kinds: Record<string, string>
  /** Schema name → schema, with descriptions dropped and $refs reduced to schema names. */
  schemas: Record<string, Json>
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
      schemas[name] ??= reduceSchema(schema)
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        // Only the kinds this group-version serves (other GVKs appear as shared types, e.g. DeleteOptions).
        const gv = gvk.group === '' ? `api/${gvk.version}` : `apis/${gvk.group}/${gvk.version}`
        if (gv === path && isObjectKind(gvk.kind)) kinds[`${gvk.group}/${gvk.version}/${gvk.kind}`] = name
      }
    }
  }
  const sorted = (o: Record<string, Json>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))
  return {kubernetes: versions.kubernetes, kinds: sorted(kinds), schemas: sorted(schemas)}
}
