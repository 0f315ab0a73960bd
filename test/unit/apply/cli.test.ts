// `kctl reconcile` on fixtures through the built command line: the document on stdout, the one
// line on stderr, the exit code.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {kctl, NOW} from '../cli/run-cli.js'

const outDir = () => join(mkdtempSync(join(tmpdir(), 'kctl-cli-out-')), 'after')

describe('kctl reconcile (fixtures)', () => {
  it('-o json: one ApplyReport document on stdout, nothing on stderr; exit 0 (2 with --detailed-exitcode)', () => {
    const run = kctl(['reconcile', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const doc = JSON.parse(run.stdout)
    expect(doc).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'ApplyReport', mode: 'dry-run', outcome: 'succeeded', changesPending: true})
    expect(doc.results.map((r: any) => [r.action, r.outcome])).toEqual([
      ['delete', 'ok'],
      ['delete', 'ok'],
      ['delete', 'ok'],
      ['updateStatus', 'ok'],
    ])
    // `predicted` is the plan's action exactly as `kctl plan -o json` prints it.
    const plan = JSON.parse(kctl(['plan', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW]).stdout)
    expect(doc.results.map((r: any) => r.predicted)).toEqual(plan.controllers[0].actions)
    expect(kctl(['reconcile', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW, '--detailed-exitcode']).status).toBe(2)
  })

  it('--apply --out writes a world that kctl plan finds in sync', () => {
    const out = outDir()
    const run = kctl(['reconcile', '-f', 'examples/adoption', '--apply', '--out', out, '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Applied to the fixtures (examples/adoption)')
    expect(run.stdout).toContain(`Wrote the resulting world to ${out}.`)
    const after = kctl(['plan', '-f', out, '--now', NOW, '--detailed-exitcode', '-o', 'json'])
    expect(after.status).toBe(0)
  })

  it('a guard refuses with exit 4 and one line', () => {
    const run = kctl(['reconcile', '-f', 'examples/scale-down', '--apply', '--max-delete', '1', '-o', 'json', '--now', NOW])
    expect(run.status).toBe(4)
    expect(run.stderr.trim().split('\n')).toEqual(['error: refusing to apply the plan: the plan deletes 3 pods, more than --max-delete 1'])
    expect(JSON.parse(run.stdout)).toMatchObject({outcome: 'refused', refusal: {reason: 'guard'}})
  })

  it('flag mistakes are exit 1 with one line', () => {
    const run = kctl(['reconcile', '-f', 'examples/scale-down', '--out', outDir()])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('error: --out needs --apply: a dry run changes nothing to write\n')
    expect(kctl(['reconcile', '-f', 'examples/scale-down', '--apply', '--until-converged', '--timeout', 'soon']).stderr).toMatch(/^error: invalid --timeout "soon"/)
  })

  it('--help shows examples', () => {
    const run = kctl(['reconcile', '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('EXAMPLES')
    expect(run.stdout).toContain('--apply')
  })
})
