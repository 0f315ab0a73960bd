// The way a newcomer gets a `kctl` command: the packed tarball, installed into a fresh prefix,
// runs from there (`kctl --version`, and a plan of a bundled example) without the clone.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {NOW, ROOT} from './run-cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-pack-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const npm = (args: string[], cwd: string) => execFileSync('npm', args, {cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000})

describe('npm pack, then npm install -g of the tarball', () => {
  it('gives a kctl command that runs on its own', {timeout: 240_000}, () => {
    npm(['pack', '--pack-destination', tmp, '--silent'], ROOT)
    const [tarball] = readdirSync(tmp).filter((f) => f.endsWith('.tgz'))
    expect(tarball).toMatch(/^kctl-\d+\.\d+\.\d+\.tgz$/)
    const prefix = join(tmp, 'prefix')
    // Dependencies come from npm's cache when `npm ci` has filled it, else from the registry.
    npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(tmp, tarball)], tmp)
    const kctl = join(prefix, 'bin', 'kctl')
    // As a user's shell has it: not vitest's NODE_ENV=test, which sends oclif looking for TypeScript sources.
    const env: NodeJS.ProcessEnv = {...process.env, NO_COLOR: '1'}
    delete env.NODE_ENV
    delete env.KCTL_DEBUG
    const version = spawnSync(kctl, ['--version'], {cwd: tmp, env, encoding: 'utf8'})
    expect(version.status).toBe(0)
    expect(version.stdout).toMatch(/^kctl\/\d+\.\d+\.\d+ /)
    const plan = spawnSync(kctl, ['plan', '-f', join(ROOT, 'examples', 'scale-down'), '--now', NOW, '-o', 'json'], {cwd: tmp, env, encoding: 'utf8'})
    expect(plan.stderr).toBe('')
    expect(plan.status).toBe(0)
    expect(JSON.parse(plan.stdout).summary).toMatchObject({controllers: 1, delete: 3})
    // The schemas the check rules use travel in the package too.
    const check = spawnSync(kctl, ['check', '-f', join(ROOT, 'examples', 'scale-down'), '-o', 'json'], {cwd: tmp, env, encoding: 'utf8'})
    expect(check.status).toBe(0)
  })
})
