// The compiler flags every start sets (src/cli/compiler-tuning.ts): flags this Node knows, set
// before the code cache is loaded, so that the cache one run writes is the one the next run takes.
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
  it('names flags this Node takes (setFlagsFromString would pass over an unknown one)', () => {
    const r = spawnSync(process.execPath, [...COMPILER_FLAGS, '-e', '0'], {encoding: 'utf8'})
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('is set before the code cache is read: a second run takes the cache the first wrote, and leaves it', () => {
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
