// The stale-run reaper: it cleans up after this user's dead runs only, and kills only processes
// this user runs from the binary cache. Another user's data dir, a run whose owner is alive, and a
// recorded pid that now runs something else are left alone.
import {spawn, type ChildProcess} from 'node:child_process'
import {chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {DATA_DIR_PREFIX, reapStale} from '../../../controlplane/procs.js'

const cache = mkdtempSync(join(tmpdir(), 'kctl-reaper-cache-'))
const children: ChildProcess[] = []
const dirs: string[] = []
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  for (const d of [cache, ...dirs]) rmSync(d, {recursive: true, force: true})
})

/** A process running `binary` (a copy of sleep), in its own group as the control plane's are. */
function start(binary: string): ChildProcess {
  const child = spawn(binary, ['60'], {detached: true, stdio: 'ignore'})
  children.push(child)
  return child
}

/** A leftover data dir: its owner pid, and a pid record per process. */
function leftover(owner: number, procs: Array<{pid: number; binary: string}>): string {
  const dir = mkdtempSync(join(tmpdir(), DATA_DIR_PREFIX))
  dirs.push(dir)
  writeFileSync(join(dir, 'owner'), String(owner))
  mkdirSync(join(dir, 'pids'))
  procs.forEach((p, i) => writeFileSync(join(dir, 'pids', `p${i}.json`), JSON.stringify({pid: p.pid, name: `p${i}`, binary: p.binary, owner})))
  return dir
}

const alive = (c: ChildProcess) => {
  try {
    process.kill(c.pid!, 0)
    return true
  } catch {
    return false
  }
}
const exited = (c: ChildProcess) => new Promise((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve(undefined) : c.once('exit', resolve)))

describe('reapStale', () => {
  const cached = join(cache, 'etcd')
  copyFileSync('/bin/sleep', cached)
  const DEAD_OWNER = 2 ** 22 + 12345 // above pid_max: never a live process

  it("reaps this user's dead runs: kills what they ran from the cache, leaves other processes running", async () => {
    const fromCache = start(cached)
    const other = start('/bin/sleep')
    const dir = leftover(DEAD_OWNER, [
      {pid: fromCache.pid!, binary: cached},
      {pid: other.pid!, binary: '/bin/sleep'}, // not a control-plane binary of this cache
    ])
    const logs: string[] = []
    reapStale((s) => logs.push(s), cache)
    await exited(fromCache)
    expect(alive(fromCache)).toBe(false)
    expect(alive(other)).toBe(true)
    expect(existsSync(dir)).toBe(false)
    expect(logs.some((l) => l.includes(dir))).toBe(true)
  })

  it('leaves a run whose owner is alive alone', () => {
    const running = start(cached)
    const dir = leftover(process.pid, [{pid: running.pid!, binary: cached}])
    reapStale(() => {}, cache)
    expect(existsSync(dir)).toBe(true)
    expect(alive(running)).toBe(true)
  })

  it.skipIf(process.getuid?.() !== 0)("leaves another user's leftover alone (needs root to make one)", () => {
    const running = start(cached)
    const dir = leftover(DEAD_OWNER, [{pid: running.pid!, binary: cached}])
    chownSync(dir, 65534, 65534)
    reapStale(() => {}, cache)
    expect(existsSync(dir)).toBe(true)
    expect(alive(running)).toBe(true)
  })
})
