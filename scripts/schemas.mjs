// The OpenAPI v3 schemas `kctl check` validates with, one set per Kubernetes minor version, from
// each version's published documents: api/openapi-spec/v3 of the k8s.io/kubernetes Go module of
// that version, with the enums the API server adds from the Go types of the same release (all
// downloaded here with `go mod download`). They are reduced to what the validator
// reads (schema.ts) and written to src/check/schemas/kubernetes.json.gz, definitions that are the
// same in several versions stored once:
//
//   {default, versions: {"1.NN": {kubernetes, kinds: {"group/version/Kind": name}, notEnabled: [gv],
//     schemas: {name: index}}}, definitions: [schema, …]}
//
// The published documents describe every group-version a version can serve, alpha and beta ones
// too; those are off by default (kube-apiserver's DefaultAPIResourceConfigSource enables GA
// group-versions only, which this script checks in each version's source) and listed in
// notEnabled. `node scripts/schemas.mjs` regenerates the file; test/unit/check/schema-versions.test.ts
// fails when the committed file differs from what the Go module cache holds.
import {execFileSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {gzipSync} from 'node:zlib'

/** The versions kctl check knows, each at the latest patch release the module proxy had. */
export const SCHEMA_VERSIONS = {
  '1.32': 'v1.32.13',
  '1.33': 'v1.33.13',
  '1.34': 'v1.34.4',
  '1.35': 'v1.35.4',
  '1.36': 'v1.36.4',
}
export const DEFAULT_VERSION = '1.36'

export const SCHEMA_FILE = new URL('../src/check/schemas/kubernetes.json.gz', import.meta.url)

const KEEP = new Set(['type', 'format', 'properties', 'additionalProperties', 'items', 'required', 'enum', 'allOf', 'oneOf', 'anyOf', '$ref', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'nullable'])

/** A schema with what the validator does not read dropped (descriptions, defaults), keys sorted, $refs reduced to names. */
export function reduceSchema(schema) {
  if (Array.isArray(schema)) return schema.map(reduceSchema)
  if (schema === null || typeof schema !== 'object') return schema
  const out = {}
  for (const key of Object.keys(schema).sort()) {
    if (!KEEP.has(key)) continue
    const v = schema[key]
    if (key === '$ref') out.$ref = String(v).replace('#/components/schemas/', '')
    else if (key === 'properties') {
      out.properties = {}
      for (const p of Object.keys(v).sort()) out.properties[p] = reduceSchema(v[p])
    } else out[key] = reduceSchema(v)
  }
  return out
}

/** Whether a kind of a group-version document is one objects are written as (not a list or a status). */
export const isObjectKind = (kind) => !/List$/.test(kind) && kind !== 'DeleteOptions' && kind !== 'WatchEvent' && kind !== 'Status'

/** Where the Go module cache holds a version of k8s.io/kubernetes, or undefined. */
export function moduleDir(version) {
  const dir = cachedModule('k8s.io/kubernetes', version)
  return dir && existsSync(join(dir, 'api', 'openapi-spec', 'v3')) ? dir : undefined
}

let modCache
/** The Go module cache (`go env GOMODCACHE`); undefined without Go. */
function goModCache() {
  if (modCache === undefined) {
    try {
      modCache = execFileSync('go', ['env', 'GOMODCACHE'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim()
    } catch {
      modCache = ''
    }
  }
  return modCache || undefined
}

/** Downloads a version of a module into the Go module cache; its directory. */
export function download(module, version) {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {encoding: 'utf8', cwd: '/', stdio: ['ignore', 'pipe', 'inherit'], env: {...process.env, GOFLAGS: '-mod=mod'}})
  return JSON.parse(out).Dir
}

/** The GA-only check: kube-apiserver enables no alpha or beta group-version by default. */
function checkDefaults(dir, version) {
  const source = readFileSync(join(dir, 'pkg', 'controlplane', 'instance.go'), 'utf8')
  for (const m of source.matchAll(/EnabledByDefault = \[\]schema\.GroupVersion\{([^}]*)\}/g)) {
    if (/v\d+(alpha|beta)\d*\./.test(m[1])) throw new Error(`${version}: an alpha or beta group-version is enabled by default; notEnabled needs reading from instance.go`)
  }
}

// ---- enums --------------------------------------------------------------------------------------
// The published documents carry no enums: kube-apiserver adds them when it serves its schemas,
// from the Go types of k8s.io/api (kube-openapi's enum generator: a string type marked `+enum`
// takes the values of the constants of that type; a field of that type, or a pointer to it, gets
// them as `enum`, a slice of it as `items.enum`). They are read here from the modules of the same
// release that define the types (k8s.io/api, apiextensions-apiserver, kube-aggregator), with the same rules.

/** The modules that define the built-in types (their enums), at the release of a k8s.io/kubernetes one (v1.36.4 → v0.36.4). */
export const TYPE_MODULES = ['k8s.io/api', 'k8s.io/apiextensions-apiserver', 'k8s.io/kube-aggregator']
export const stagingVersionOf = (version) => version.replace(/^v1\./, 'v0.')

/** The type modules of a release, from the Go module cache; undefined when one is missing. */
export function typeModules(version, fetch = false) {
  const out = {}
  for (const m of TYPE_MODULES) {
    const dir = cachedModule(m, stagingVersionOf(version)) ?? (fetch ? download(m, stagingVersionOf(version)) : undefined)
    if (!dir) return undefined
    out[m] = dir
  }
  return out
}

/** Where the Go module cache holds a version of a module, or undefined. */
export function cachedModule(module, version) {
  const cache = goModCache()
  const dir = cache && join(cache, `${module}@${version}`)
  return dir && existsSync(dir) ? dir : undefined
}

function goFiles(dir) {
  return readdirSync(dir, {withFileTypes: true}).filter((e) => e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go')).map((e) => join(dir, e.name))
}

/** Every package directory of a module that holds API types (a types.go), relative: core/v1, pkg/apis/apiextensions/v1, … */
function apiPackages(root) {
  const out = []
  const walk = (rel) => {
    const here = join(root, rel)
    const entries = readdirSync(here, {withFileTypes: true})
    if (rel !== '' && entries.some((e) => e.isFile() && e.name === 'types.go') && /\/v\d+(alpha\d+|beta\d+)?$/.test(rel)) out.push(rel)
    for (const e of entries) if (e.isDirectory() && e.name !== 'testdata' && e.name !== 'vendor') walk(rel === '' ? e.name : `${rel}/${e.name}`)
  }
  walk('')
  return out.sort()
}

/**
 * name → schema patches ({property: {enum} | {items: {enum}} | {additionalProperties: {enum}}}),
 * from the Go source of the modules that define the built-in types: `modules` maps a module path
 * (k8s.io/api) to its directory.
 */
export function readEnums(modules) {
  const texts = new Map() // import path → file texts
  for (const [module, root] of Object.entries(modules)) {
    for (const p of apiPackages(root)) texts.set(`${module}/${p}`, goFiles(join(root, p)).map((f) => readFileSync(f, 'utf8')))
  }
  const importsOf = (text, pkg) => {
    const imports = new Map()
    for (const m of text.matchAll(/^\s*(?:(\w+)\s+)?"(k8s\.io\/[\w/.-]+)"/gm)) imports.set(m[1] ?? m[2].split('/').pop(), m[2])
    return (q) => (q ? imports.get(q) : pkg)
  }
  // 1. enum types (`+enum` in the comment above `type T string`), by `importpath/T`.
  const enums = new Map()
  for (const [pkg, files] of texts) {
    for (const text of files) {
      for (const m of text.matchAll(/((?:^\/\/.*\n)+)type (\w+) string\b/gm)) {
        if (/^\/\/\s*\+enum\s*$/m.test(m[1])) enums.set(`${pkg}/${m[2]}`, new Set())
      }
    }
  }
  // 2. their values: constants of the type, written `C T = "v"`, `C = T("v")` or `C = T(pkg.Other)`.
  const strings = new Map() // importpath/C → "v", for constants defined from others
  const typed = []
  for (const [pkg, files] of texts) {
    for (const text of files) {
      const at = importsOf(text, pkg)
      for (const m of text.matchAll(/^\s*(?:const\s+)?(\w+)\s+(?:(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"|=\s*"((?:[^"\\]|\\.)*)")/gm)) {
        strings.set(`${pkg}/${m[1]}`, m[3] ?? m[4])
        if (m[2]) typed.push({type: `${pkg}/${m[2]}`, value: m[3]})
      }
      for (const m of text.matchAll(/^\s*(?:const\s+)?(\w+)\s*=\s*(\w+)\((?:"((?:[^"\\]|\\.)*)"|(?:(\w+)\.)?(\w+))\)/gm)) {
        const value = m[3] ?? strings.get(`${at(m[4])}/${m[5]}`) ?? {ref: `${at(m[4])}/${m[5]}`}
        typed.push({type: `${pkg}/${m[2]}`, value})
        if (typeof value === 'string') strings.set(`${pkg}/${m[1]}`, value)
      }
    }
  }
  for (const {type, value} of typed) {
    const v = typeof value === 'string' ? value : strings.get(value.ref)
    if (v !== undefined) enums.get(type)?.add(v)
  }
  // 3. struct fields of those types (fields of structs embedded inline count as the struct's own).
  const structs = new Map()
  for (const [pkg, files] of texts) {
    for (const text of files) {
      const at = importsOf(text, pkg)
      for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
        const fields = []
        for (const f of m[2].matchAll(/^\s+(\w+\s+)?(\[\]|map\[\w+\])?\*?(?:(\w+)\.)?(\w+)\s+`json:"([^",]*)([^"]*)"/gm)) {
          const typePkg = at(f[3])
          if (!f[1] && f[5] === '' && f[6].includes('inline')) fields.push({inline: `${typePkg}/${f[4]}`})
          else if (f[1] && f[5] !== '') fields.push({json: f[5], wrap: f[2] === '[]' ? 'items' : f[2] ? 'additionalProperties' : undefined, type: typePkg ? `${typePkg}/${f[4]}` : undefined})
        }
        structs.set(`${pkg}/${m[1]}`, fields)
      }
    }
  }
  const flat = (key, depth = 0) => (depth > 8 ? [] : (structs.get(key) ?? []).flatMap((f) => (f.inline ? flat(f.inline, depth + 1) : [f])))
  const patches = {}
  for (const key of structs.keys()) {
    // k8s.io/api/core/v1/Container → io.k8s.api.core.v1.Container
    const name = `io.${key.replace(/^k8s\.io\//, 'k8s/').replaceAll('/', '.')}`
    for (const f of flat(key)) {
      const values = f.type ? enums.get(f.type) : undefined
      if (!values || values.size === 0) continue
      const e = {enum: [...values].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))}
      ;(patches[name] ??= {})[f.json] = f.wrap ? {[f.wrap]: e} : e
    }
  }
  return patches
}

const sortKeys = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))

/** The schemas with the enums of k8s.io/api put in, as the API server serves them. */
function withEnums(schemas, patches) {
  for (const [name, fields] of Object.entries(patches)) {
    const schema = schemas[name]
    if (!schema?.properties) continue
    for (const [field, patch] of Object.entries(fields)) {
      const prop = schema.properties[field]
      if (!prop) continue
      const wrap = patch.items ? 'items' : patch.additionalProperties ? 'additionalProperties' : undefined
      if (wrap) {
        if (prop[wrap]?.type === 'string') prop[wrap] = sortKeys({...prop[wrap], enum: patch[wrap].enum})
      } else if (prop.type === 'string') schema.properties[field] = sortKeys({...prop, enum: patch.enum})
    }
  }
  return schemas
}

/** One version's schemas: its kinds, the group-versions off by default, and its schemas by name. */
export function readVersion(dir, version, typeModules) {
  checkDefaults(dir, version)
  const specDir = join(dir, 'api', 'openapi-spec', 'v3')
  const kinds = {}
  const schemas = {}
  const notEnabled = []
  for (const file of readdirSync(specDir).sort()) {
    const m = /^(?:api__(v\d\w*)|apis__([^_]+(?:_[^_]+)*)__(v\d\w*))_openapi\.json$/.exec(file)
    if (!m) continue // an index of groups or versions, not a group-version
    const group = m[1] ? '' : m[2]
    const gv = m[1] ? m[1] : m[3]
    if (/alpha|beta/.test(gv)) notEnabled.push(group === '' ? gv : `${group}/${gv}`)
    const doc = JSON.parse(readFileSync(join(specDir, file), 'utf8'))
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      schemas[name] ??= reduceSchema(schema)
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        if (gvk.group === group && gvk.version === gv && isObjectKind(gvk.kind)) kinds[`${gvk.group}/${gvk.version}/${gvk.kind}`] = name
      }
    }
  }
  const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]))
  return {kubernetes: version, kinds: sorted(kinds), notEnabled: notEnabled.sort(), schemas: withEnums(sorted(schemas), readEnums(typeModules))}
}

/** The file's document from each version's reading: identical definitions stored once. */
export function combine(readings) {
  const definitions = []
  const index = new Map()
  const versions = {}
  for (const [minor, r] of Object.entries(readings)) {
    const names = {}
    for (const [name, schema] of Object.entries(r.schemas)) {
      const text = JSON.stringify(schema)
      let i = index.get(text)
      if (i === undefined) index.set(text, (i = definitions.push(schema) - 1))
      names[name] = i
    }
    versions[minor] = {kubernetes: r.kubernetes, kinds: r.kinds, notEnabled: r.notEnabled, schemas: names}
  }
  return {default: DEFAULT_VERSION, versions, definitions}
}

/** One version of the committed document, as readVersion reads it (for comparisons). */
export function expandVersion(doc, minor) {
  const v = doc.versions[minor]
  if (!v) return undefined
  const schemas = {}
  for (const [name, i] of Object.entries(v.schemas)) schemas[name] = doc.definitions[i]
  return {kubernetes: v.kubernetes, kinds: v.kinds, notEnabled: v.notEnabled, schemas}
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const readings = {}
  for (const [minor, version] of Object.entries(SCHEMA_VERSIONS)) {
    const dir = moduleDir(version) ?? download('k8s.io/kubernetes', version)
    readings[minor] = readVersion(dir, version, typeModules(version, true))
    process.stderr.write(`${version}: ${Object.keys(readings[minor].kinds).length} kinds, ${Object.keys(readings[minor].schemas).length} schemas, ${readings[minor].notEnabled.length} group-versions off by default\n`)
  }
  const doc = combine(readings)
  const bytes = gzipSync(`${JSON.stringify(doc)}\n`, {level: 9})
  writeFileSync(SCHEMA_FILE, bytes)
  process.stderr.write(`wrote ${SCHEMA_FILE.pathname}: ${doc.definitions.length} distinct definitions, ${bytes.length} bytes\n`)
}
