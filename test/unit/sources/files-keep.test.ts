// An input whose bytes are kept once read (kctl check) answers positions from those bytes: the
// file is not read again, so the positions are those of the text that was parsed, even if the
// file changed or went away since.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {openSources, readDocuments} from '../../../src/sources/documents.js'

const TEXT = `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
---
# second
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
`

async function readThenRemove(keep: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-keep-'))
  const file = join(dir, 'app.yaml')
  writeFileSync(file, TEXT)
  const sources = await openSources([file])
  for (const s of sources) s.keepBytes = keep
  const objects = [...readDocuments(sources)]
  rmSync(dir, {recursive: true, force: true})
  return objects
}

describe('kept input bytes', () => {
  it('positions come from the bytes read, without reading the file again', async () => {
    const [cm, deploy] = await readThenRemove(true)
    expect(cm.origin).toMatchObject({line: 1, column: 1})
    expect(deploy.locate(['spec', 'replicas'])).toMatchObject({line: 12, column: 13})
    expect(deploy.locate(['metadata', 'name'], {key: true})).toMatchObject({line: 10, column: 3})
  })

  it('without them, a position reads the file again (and a file gone is an error)', async () => {
    const [, deploy] = await readThenRemove(false)
    expect(() => deploy.locate(['spec', 'replicas'])).toThrow()
  })
})
