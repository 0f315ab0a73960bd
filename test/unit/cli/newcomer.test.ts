// What a newcomer types first: a misspelt command, kubectl's --file, a missing file, two files
// joined without ---, shell completion. Asserted on behaviour (exit code, what is read), with the
// one line of error each gives.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {kctl, NOW} from './run-cli.js'

const home = mkdtempSync(join(tmpdir(), 'kctl-home-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))

const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1)

describe('a newcomer at the terminal', () => {
  it('a misspelt command names the one meant, exit 1', () => {
    const run = kctl(['plna', '-f', 'examples/tie'])
    expect(run.status).toBe(1)
    oneLine(run.stderr)
    expect(run.stderr).toContain('did you mean kctl plan?')
    expect(kctl(['frobnicate']).stderr).not.toContain('did you mean')
  })

  it('--file reads what --filename and -f read', () => {
    const a = kctl(['plan', '--file', 'examples/tie', '--now', NOW, '-o', 'json'])
    const b = kctl(['plan', '-f', 'examples/tie', '--now', NOW, '-o', 'json'])
    expect(a.status).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    expect(kctl(['check', '--file', 'examples/tie', '-o', 'json']).status).toBe(0)
  })

  it('a missing file is one line naming it, the same in every command', () => {
    const lines = ['plan', 'list', 'check'].map((cmd) => kctl([cmd, '-f', 'nope.yaml']))
    for (const run of lines) {
      expect(run.status).toBe(1)
      oneLine(run.stderr)
    }
    expect(new Set(lines.map((r) => r.stderr)).size).toBe(1)
  })

  it('two documents joined without --- are pointed out', () => {
    const joined = 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n'
    const run = kctl(['plan', '-f', '-'], {input: joined})
    expect(run.status).toBe(1)
    oneLine(run.stderr)
    expect(run.stderr).toContain('joined without a `---`')
  })

  it('shell completion is there: kctl autocomplete prints the setup for bash', () => {
    const run = kctl(['autocomplete', 'bash'], {env: {HOME: home, XDG_CACHE_HOME: join(home, '.cache')}})
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('kctl')
  })

  it('help usage lines stay on one line on an 80-column terminal', () => {
    for (const cmd of ['plan', 'list', 'watch', 'reconcile', 'check']) {
      const help = kctl([cmd, '--help'], {env: {COLUMNS: '80'}}).stdout.split('\n')
      const at = help.indexOf('USAGE')
      expect(help[at + 1]).toMatch(new RegExp(`^  \\$ kctl ${cmd} .*\\[FLAGS\\]$`))
      expect(help[at + 2]).toBe('')
    }
  })
})

describe('--now', () => {
  it('takes RFC 3339 with offsets within ±23:59, as time.Parse does, and names anything else', () => {
    const ok = kctl(['plan', '-f', 'examples/tie', '--now', '2026-11-22T12:30:00+02:30', '-o', 'json'])
    expect(ok.status).toBe(0)
    expect(JSON.parse(ok.stdout).now).toBe('2026-11-22T10:00:00Z')
    for (const bad of ['2026-11-22T10:00:00+99:00', '2026-11-22T10:00:00+05:60', '2026-02-30T10:00:00Z']) {
      const run = kctl(['plan', '-f', 'examples/tie', '--now', bad])
      expect(run.status, bad).toBe(1)
      expect(run.stderr).toBe(`error: invalid --now "${bad}": expected an RFC 3339 time (e.g. --now 2026-11-22T10:00:00Z)\n`)
    }
  })
})
