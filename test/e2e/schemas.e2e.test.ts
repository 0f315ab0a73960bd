// The OpenAPI schemas `kctl check` validates with are the ones this project's kube-apiserver
// serves: regenerated from the running control plane, they equal the committed file. When the
// pinned Kubernetes version changes, this fails until `npx tsx controlplane/openapi.ts` is run.
import {readFileSync} from 'node:fs'
import {gunzipSync} from 'node:zlib'

import {describe, expect, it} from 'vitest'

import {fetchSchemas, SCHEMA_FILE} from '../../controlplane/openapi.js'
import {controlPlane} from './setup/cluster.js'

describe('the committed OpenAPI schemas', () => {
  it('equal what the control plane serves now', async () => {
    const served = await fetchSchemas(controlPlane())
    const committed = JSON.parse(gunzipSync(readFileSync(SCHEMA_FILE)).toString('utf8'))
    expect(Object.keys(served.kinds)).toContain('apps/v1/Deployment')
    expect(committed.kubernetes).toBe(served.kubernetes)
    expect(committed.kinds).toEqual(served.kinds)
    expect(committed.schemas).toEqual(served.schemas)
  })
})
