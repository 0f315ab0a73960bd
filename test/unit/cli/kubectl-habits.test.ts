// What kubectl users type: -h, kctl version and --version, -R, -f with -k, a kustomize that fails.
// Each asserted on what the built CLI prints and its exit status.
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {kustomizeFailure} from '../../../src/sources/kustomize.js'
import {kctl, NOW, ROOT} from './run-cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-habits-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const COMMANDS = ['plan', 'list', 'simulate', 'check', 'reconcile', 'watch', 'version']
const VERSION = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(ROOT, 'package.json'), 'utf8'))).version as string

describe('-h is --help', () => {
  it.each(COMMANDS)('kctl %s -h prints what --help prints, exit 0', (cmd) => {
    const short = kctl([cmd, '-h'])
    expect(short.status).toBe(0)
    expect(short.stderr).toBe('')
    expect(short.stdout).toContain('USAGE')
    expect(short.stdout).toBe(kctl([cmd, '--help']).stdout)
  })

  it('kctl -h is kctl --help', () => {
    const run = kctl(['-h'])
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(kctl(['--help']).stdout)
    expect(run.stdout).toMatch(/^ {2}version +Print kctl's version/m)
  })
})

describe('kctl version and --version', () => {
  it("name kctl's version and the Kubernetes version planned for, the same both ways", () => {
    const run = kctl(['version'])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(new RegExp(`^kctl/${VERSION.replace(/\./g, '\\.')} \\S+ node-v\\d+`))
    expect(lines[1]).toBe('Kubernetes v1.36.4 (the kube-controller-manager whose controllers kctl plans)')
    expect(kctl(['--version'])).toEqual(run)
  })

  it('-o json is a document for scripts', () => {
    const run = kctl(['version', '-o', 'json'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({kctl: VERSION, kubernetes: 'v1.36.4'})
    expect(kctl(['--version', '-o', 'json']).stdout).toBe(run.stdout)
  })
})

describe('-R/--recursive', () => {
  it.each(['-R', '--recursive'])('%s is accepted and changes nothing: directories are always read recursively', (flag) => {
    for (const cmd of ['plan', 'list']) {
      const plain = kctl([cmd, '-f', 'examples', '-o', 'json', '--now', NOW])
      const recursive = kctl([cmd, flag, '-f', 'examples', '-o', 'json', '--now', NOW])
      expect(recursive.status).toBe(0)
      expect(recursive.stdout).toBe(plain.stdout)
    }
    const check = kctl(['check', flag, '-f', 'examples'])
    expect(check.status).toBe(0)
    expect(check.stdout).toBe(kctl(['check', '-f', 'examples']).stdout)
  })
})

describe('-f with -k, refused in kubectl\'s words', () => {
  const dir = join(tmp, 'kust')
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources: []\n')

  it.each(['plan', 'list', 'check', 'simulate', 'reconcile', 'watch'])('kctl %s -f X -k Y: one line, exit 1, nothing read', (cmd) => {
    const run = kctl([cmd, '-f', 'examples/tie', '-k', dir, ...(cmd === 'check' ? [] : ['--now', NOW])])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe('error: only one of -f or -k can be specified\n')
  })

  it('-k with -R, and all three, as kubectl says them', () => {
    expect(kctl(['plan', '-k', dir, '-R', '--now', NOW]).stderr).toBe("error: the -k flag can't be used with -f or -R\n")
    const all = kctl(['check', '-f', 'examples/tie', '-k', dir, '-R'])
    expect(all.status).toBe(1)
    expect(all.stderr).toBe("error: [only one of -f or -k can be specified, the -k flag can't be used with -f or -R]\n")
  })
})

describe('a kustomize that fails', () => {
  const message = "accumulating resources: accumulation err='accumulating resources from 'missing.yaml': lstat /k/missing.yaml: no such file or directory'"

  it('newer kubectl logs it through klog: the err value is the message', () => {
    expect(kustomizeFailure(`E1127 11:23:21.891475   10464 run.go:72] "command failed" err=${JSON.stringify(message)}\n`)).toBe(message)
    expect(kustomizeFailure(`E1127 11:23:21.891475   10464 run.go:72] "command failed"\n`)).toBe('command failed')
  })

  it("kustomize's Error: and kubectl's error: prefixes go; the last line is the message", () => {
    expect(kustomizeFailure(`some progress\nError: ${message}\n\n`)).toBe(message)
    expect(kustomizeFailure(`error: ${message}\n`)).toBe(message)
    expect(kustomizeFailure('\n')).toBeUndefined()
  })

  it('through the CLI: one error: line naming the directory and the message, exit 1', () => {
    // A kustomize on PATH that fails the way kubectl v1.32's does.
    const bin = join(tmp, 'bin')
    mkdirSync(bin, {recursive: true})
    const fake = join(bin, 'kustomize')
    writeFileSync(fake, `#!/bin/sh\necho 'E1127 11:23:21.891475   10464 run.go:72] "command failed" err=${JSON.stringify(message).replace(/'/g, "'\\''")}' >&2\nexit 1\n`)
    chmodSync(fake, 0o755)
    const dir = join(tmp, 'broken')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [missing.yaml]\n')
    for (const cmd of ['plan', 'check']) {
      const run = kctl([cmd, '-k', dir, ...(cmd === 'plan' ? ['--now', NOW] : [])], {env: {PATH: `${bin}:${process.env.PATH}`}})
      expect(run.status).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe(`error: -k ${dir}: kustomize build failed: ${message}\n`)
    }
  })
})
