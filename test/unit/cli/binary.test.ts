// The single executable (`npm run build:binary`, scripts/build-binary.mjs): built, copied alone to a
// directory outside the repository (no node_modules, no package.json anywhere above it, no Node on
// the PATH), it prints what `node bin/run.js` prints for the same command line, with the same exit
// code: --version, plan, check (its schemas come from the executable), simulate, an unknown command
// and help. The build takes a while (a copy of Node with the bundle injected); it is kept between
// runs under the system's temporary directory, keyed by a hash of everything it is made from.
import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {NOW, ROOT} from './run-cli.js'

const EXE = process.platform === 'win32' ? 'kctl.exe' : 'kctl'

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

/** A hash of what the executable is made from: the sources, the build scripts, the manifests, the lock file and this Node. */
function inputsHash(): string {
  const h = createHash('sha256').update(`${process.version} ${process.platform} ${process.arch}\n`)
  const inputs = [...files(join(ROOT, 'src')), ...['scripts/build-binary.mjs', 'scripts/vm-script.mjs', 'package.json', 'package-lock.json', 'oclif.manifest.json'].map((f) => join(ROOT, f))]
  for (const f of inputs.sort()) h.update(`${relative(ROOT, f)}\n`).update(readFileSync(f))
  return h.digest('hex').slice(0, 16)
}

/** The executable, built once per content of its inputs (older builds, about 100 MB each, are removed). */
function buildOnce(): string {
  const builds = join(tmpdir(), 'kctl-binary-test')
  const key = inputsHash()
  const cache = join(builds, key)
  const exe = join(cache, EXE)
  if (existsSync(exe)) return exe
  mkdirSync(builds, {recursive: true})
  for (const old of readdirSync(builds)) if (/^[0-9a-f]{16}$/.test(old) && old !== key) rmSync(join(builds, old), {recursive: true, force: true})
  const building = `${cache}.${process.pid}`
  rmSync(building, {recursive: true, force: true})
  execFileSync(process.execPath, ['scripts/build-binary.mjs'], {cwd: ROOT, env: {...process.env, KCTL_BINARY_DIR: building}, stdio: 'pipe'})
  rmSync(cache, {recursive: true, force: true})
  renameSync(building, cache)
  return exe
}

const work = mkdtempSync(join(tmpdir(), 'kctl-binary-'))
afterAll(() => rmSync(work, {recursive: true, force: true}))

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs `command` in the work directory with a user's environment: no PATH to a Node, none of vitest's variables. */
function runIn(command: string, args: string[]): Run {
  const env: NodeJS.ProcessEnv = {HOME: work, PATH: '/nonexistent', LANG: 'C.UTF-8', KCTL_CACHE_DIR: join(work, '.cache')}
  const r = spawnSync(command, args, {cwd: work, env, encoding: 'utf8', timeout: 60_000})
  if (r.error) throw r.error
  return {status: r.status, stdout: r.stdout, stderr: r.stderr}
}

let exe = ''
beforeAll(() => {
  const built = buildOnce()
  exe = join(work, 'bin', EXE)
  mkdirSync(join(work, 'bin'))
  copyFileSync(built, exe)
  for (const example of ['rollout', 'statefulset']) cpSync(join(ROOT, 'examples', example), join(work, 'examples', example), {recursive: true})
}, 600_000)

const node = (args: string[]) => runIn(process.execPath, [join(ROOT, 'bin', 'run.js'), ...args])

describe('the single executable', () => {
  it('lives alone: nothing above it is a package, no node_modules beside it', () => {
    for (let dir = work; ; dir = join(dir, '..')) {
      expect(existsSync(join(dir, 'node_modules'))).toBe(false)
      expect(existsSync(join(dir, 'package.json'))).toBe(false)
      if (join(dir, '..') === dir) break
    }
  })

  it.each([
    {name: 'kctl --version', args: ['--version'], status: 0},
    {name: 'kctl plan -f', args: ['plan', '-f', 'examples/rollout', '--now', NOW, '-o', 'json'], status: 0},
    {name: 'kctl plan -f, a table', args: ['plan', '-f', 'examples/rollout', '--now', NOW, '-o', 'table'], status: 0},
    {name: 'kctl check -f (a warning)', args: ['check', '-f', 'examples/statefulset', '--fail-on', 'warning'], status: 3},
    {name: 'kctl check -f, no findings', args: ['check', '-f', 'examples/rollout'], status: 0},
    {name: 'kctl simulate --detailed-exitcode', args: ['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'table', '--detailed-exitcode'], status: 2},
    {name: 'an unknown command', args: ['plna'], status: 1},
    {name: 'a missing file', args: ['plan', '-f', 'examples/nope', '--now', NOW], status: 1},
    {name: 'kctl help plan', args: ['help', 'plan'], status: 0},
  ])('$name: the same output and exit code as node bin/run.js', ({args, status}) => {
    const binary = runIn(exe, args)
    const reference = node(args)
    expect(reference.status).toBe(status)
    expect({status: binary.status, stdout: binary.stdout, stderr: binary.stderr}).toEqual(reference)
  })

  it('kctl --version names kctl and the Kubernetes version', () => {
    const run = runIn(exe, ['--version'])
    expect(run.stdout).toMatch(/^kctl\/\d+\.\d+\.\d+ \S+ node-v\d+/)
    expect(run.stdout).toContain('\nKubernetes v1.')
  })
})
