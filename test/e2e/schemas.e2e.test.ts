// The OpenAPI schemas `kctl check` validates with are generated from each Kubernetes version's
// published documents (scripts/schemas.mjs). The set of this control plane's version must equal
// what its kube-apiserver serves (the kinds it serves by default, and their schemas), and must
// judge manifests as the API server does: one it accepts passes, one it refuses is reported.
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {gunzipSync} from 'node:zlib'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {fetchSchemas} from '../../controlplane/openapi.js'
import versions from '../../controlplane/versions.json' with {type: 'json'}
import {expandVersion, SCHEMA_FILE} from '../../scripts/schemas.mjs'
import {kctl} from './kctl.js'
import {api, controlPlane, deleteNamespace, newNamespace} from './setup/cluster.js'

const minor = versions.kubernetes.replace(/^v(\d+\.\d+)\..*$/, '$1')
const committed = JSON.parse(gunzipSync(readFileSync(SCHEMA_FILE)).toString('utf8'))

describe('the committed OpenAPI schemas', () => {
  it("of the control plane's version equal what its API server serves", async () => {
    const served = await fetchSchemas(controlPlane())
    const set = expandVersion(committed, minor)
    expect(set, `no committed schemas for ${minor}`).toBeDefined()
    expect(set.kubernetes).toBe(served.kubernetes)
    const gv = (key: string) => key.split('/').slice(0, 2).filter(Boolean).join('/')
    const enabled = Object.fromEntries(Object.entries(set.kinds).filter(([k]) => !set.notEnabled.includes(gv(k))))
    expect(Object.keys(served.kinds)).toContain('apps/v1/Deployment')
    expect(enabled).toEqual(served.kinds)
    for (const [name, schema] of Object.entries(served.schemas)) expect(set.schemas[name], name).toEqual(schema)
  })
})

describe('the schemas judge a manifest as the API server does', () => {
  let ns: string
  let dir: string
  beforeAll(async () => {
    ns = await newNamespace('schemas')
    dir = mkdtempSync(join(tmpdir(), 'kctl-schemas-'))
  })
  afterAll(async () => deleteNamespace(ns))

  const deployment = (container: Record<string, unknown>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: ns},
    spec: {selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'nginx', ...container}]}}},
  })
  /** The API server's answer (strict field validation, as kubectl apply) and kctl check's schema findings. */
  async function judge(obj: Record<string, unknown>, file: string) {
    const created = await api('POST', `/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All&fieldValidation=Strict`, {body: obj})
    writeFileSync(join(dir, file), JSON.stringify(obj))
    const r = await kctl(['check', '-f', join(dir, file), '-o', 'json', '--k8s-version', minor])
    const findings = JSON.parse(r.stdout).findings.filter((f: {rule: string}) => ['unknown-field', 'invalid-type', 'invalid-value', 'missing-field', 'unknown-api-version'].includes(f.rule))
    return {status: created.status, rules: findings.map((f: {rule: string; field: string}) => `${f.rule} ${f.field}`)}
  }

  it('accepts what the API server accepts', async () => {
    expect(await judge(deployment({imagePullPolicy: 'IfNotPresent', ports: [{containerPort: 80, protocol: 'TCP'}]}), 'good.json')).toEqual({status: 201, rules: []})
  })

  it('rejects a value outside an enum, an unknown field and a wrong type, as the API server does', async () => {
    expect(await judge(deployment({imagePullPolicy: 'ifNotPresent'}), 'enum.json')).toEqual({status: 422, rules: ['invalid-value spec.template.spec.containers[0].imagePullPolicy']})
    const unknown = await judge(deployment({imagePullPolicyy: 'Always'}), 'unknown.json')
    expect(unknown.status).toBeGreaterThanOrEqual(400)
    expect(unknown.rules).toEqual(['unknown-field spec.template.spec.containers[0].imagePullPolicyy'])
    const type = await judge(deployment({ports: [{containerPort: '80'}]}), 'type.json')
    expect(type.status).toBeGreaterThanOrEqual(400)
    expect(type.rules).toEqual(['invalid-type spec.template.spec.containers[0].ports[0].containerPort'])
  })
})
