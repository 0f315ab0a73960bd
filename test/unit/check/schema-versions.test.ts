// The committed schema sets (src/check/schemas/kubernetes.json.gz) against their source: each
// Kubernetes version's published OpenAPI documents and Go types, read from the Go module cache as
// scripts/schemas.mjs reads them. A version the cache lacks is skipped, saying so; the script
// downloads it (`node scripts/schemas.mjs`). And --k8s-version picks the set that validates.
import {readFileSync} from 'node:fs'
import {gunzipSync} from 'node:zlib'

import {describe, expect, it} from 'vitest'

import {expandVersion, moduleDir, readVersion, SCHEMA_FILE, SCHEMA_VERSIONS, typeModules} from '../../../scripts/schemas.mjs'
import {runCheck} from '../../../src/services/check.js'
import {check, EMPTY_CWD, ofRule} from './helpers.js'

const committed = JSON.parse(gunzipSync(readFileSync(SCHEMA_FILE)).toString('utf8'))

describe('the committed schema sets', () => {
  it('cover 1.32 to 1.36, 1.36 the default', () => {
    expect(Object.keys(committed.versions)).toEqual(['1.32', '1.33', '1.34', '1.35', '1.36'])
    expect(committed.default).toBe('1.36')
    expect(Object.keys(SCHEMA_VERSIONS)).toEqual(Object.keys(committed.versions))
  })

  for (const [minor, version] of Object.entries(SCHEMA_VERSIONS) as Array<[string, string]>) {
    const dir = moduleDir(version)
    const types = dir ? typeModules(version) : undefined
    const missing = !dir ? `k8s.io/kubernetes@${version}` : !types ? `the k8s.io type modules of ${version}` : undefined
    it.skipIf(missing !== undefined)(`${minor} equals what ${version}'s published documents give${missing ? ` (skipped: the Go module cache lacks ${missing}; node scripts/schemas.mjs downloads it)` : ''}`, () => {
      const fresh = readVersion(dir, version, types)
      const stored = expandVersion(committed, minor)
      expect(stored.kubernetes).toBe(fresh.kubernetes)
      expect(stored.kinds).toEqual(fresh.kinds)
      expect(stored.notEnabled).toEqual(fresh.notEnabled)
      expect(Object.keys(stored.schemas)).toEqual(Object.keys(fresh.schemas))
      for (const name of Object.keys(fresh.schemas)) expect(stored.schemas[name], name).toEqual(fresh.schemas[name])
    })
  }
})

describe('--k8s-version selects the schemas', () => {
  const POD = 'test/fixtures/check/schema-versions/pod.yaml'

  it('a field added after 1.32 is unknown to 1.32 and known to 1.36', async () => {
    const old = ofRule(await check([POD], {k8sVersion: '1.32'}), 'unknown-field')
    expect(old.map((f) => `${f.field} ${f.message}`)).toEqual(['spec.hostnameOverride unknown field "hostnameOverride"'])
    expect(ofRule(await check([POD], {k8sVersion: '1.36'}), 'unknown-field')).toEqual([])
    expect(ofRule(await check([POD]), 'unknown-field')).toEqual([])
  })

  it('a version kctl has no schemas for is one line naming those it has', async () => {
    await expect(runCheck({filename: [POD], cwd: EMPTY_CWD, k8sVersion: '1.29'})).rejects.toThrow('--k8s-version 1.29: kctl checks against Kubernetes 1.32, 1.33, 1.34, 1.35, 1.36')
  })

  it('a version known but not served by default is api-version-not-enabled (info), not unknown-api-version', async () => {
    const r = await check(['test/fixtures/check/schema-versions/resource-claim.yaml'])
    expect(r.findings.map((f) => `${f.rule} ${f.severity} ${f.kind} ${f.line}:${f.column}`)).toEqual([
      'api-version-not-enabled info ResourceClaimTemplate 1:13',
      'unknown-api-version error ResourceClaimTemplate 10:13',
    ])
    expect(r.findings[0].message).toBe(
      'ResourceClaimTemplate resource.k8s.io/v1beta1 is known to Kubernetes 1.36 but not served unless enabled (kube-apiserver --runtime-config=resource.k8s.io/v1beta1=true); served by default: resource.k8s.io/v1',
    )
    expect(r.findings[1].message).toBe('ResourceClaimTemplate resource.k8s.io/v1gamma1 is not known to Kubernetes 1.36: use resource.k8s.io/v1')
  })
})
