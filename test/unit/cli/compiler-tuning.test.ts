// The compiler flags every start sets (src/cli/compiler-tuning.ts): flags this Node knows, put back
// to V8's defaults before a code cache is written, so that the next run takes the cache.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {COMPILER_FLAGS} from '../../../src/cli/compiler-tuning.js'
import {kctl} from './run-cli.js'

const cacheDir = mkdtempSync(join(tmpdir(), 'kctl-tuning-'))
afterAll(() => rmSync(cacheDir, {recursive: true, force: true}))

describe('compiler tuning', () => {
  it("names flags this Node has, with V8's own defaults (setFlagsFromString would pass over an unknown one)", () => {
    const r = spawnSync(process.execPath, ['--v8-options'], {encoding: 'utf8'})
    for (const {flag, v8Default} of COMPILER_FLAGS) expect(r.stdout).toContain(`default: ${flag}=${v8Default}\n`)
  })

  it('leaves a code cache the next run takes: a second run keeps the cache the first wrote', () => {
    const env = {KCTL_CACHE_DIR: cacheDir}
    expect(kctl(['check', '-f', 'examples/adoption'], {env}).status).toBe(0)
    const cacheFiles = readdirSync(join(cacheDir, 'code-cache'))
    expect(cacheFiles).toHaveLength(1)
    const written = statSync(join(cacheDir, 'code-cache', cacheFiles[0])).mtimeMs
    expect(kctl(['check', '-f', 'examples/adoption'], {env}).status).toBe(0)
    // A refused cache is written again at exit (script-cache.ts).
    expect(statSync(join(cacheDir, 'code-cache', cacheFiles[0])).mtimeMs).toBe(written)
  })
})
