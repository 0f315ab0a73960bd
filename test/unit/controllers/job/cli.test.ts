// `kctl reconcile` of Jobs and CronJobs on fixtures, through the built command line: a saved plan
// carried out entry by entry, a stale one refused, --until-converged --out.
import {cpSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {kctl, NOW} from '../../cli/run-cli.js'

const EXAMPLES = ['-f', 'examples/job', '-f', 'examples/cronjob']
const tmp = () => mkdtempSync(join(tmpdir(), 'kctl-batch-'))

describe('kctl reconcile: Jobs and CronJobs (fixtures)', () => {
  it('a saved plan is carried out entry by entry, Job and CronJob writes included', () => {
    const planFile = join(tmp(), 'plan.json')
    writeFileSync(planFile, kctl(['plan', ...EXAMPLES, '-o', 'json', '--now', NOW]).stdout)
    const run = kctl(['reconcile', ...EXAMPLES, '--plan', planFile, '-o', 'json', '--now', NOW])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const doc = JSON.parse(run.stdout)
    expect(doc.plan.origin).toBe('saved')
    expect(doc.results.map((r: any) => `${r.controller.name}:${r.action}:${r.outcome}`)).toEqual([
      'hourly:deleteJob:ok',
      'hourly:deleteJob:ok',
      'hourly:createJob:ok',
      'hourly:updateStatus:ok',
      'migrate:updateStatus:ok',
      'migrate:removeFinalizer:ok',
      'migrate:updateStatus:ok',
      'render:createJobPod:ok',
      'render:updateStatus:ok',
      'render:removeFinalizer:ok',
    ])
    expect(doc.summary.byAction.deleteJob).toEqual({planned: 2, ok: 2, failed: 0, skipped: 0})
  })

  it('a saved plan whose pod changed since is refused with exit 4, and nothing is done', () => {
    const dir = tmp()
    cpSync('examples/job', join(dir, 'job'), {recursive: true})
    const file = join(dir, 'job', 'jobs.yaml')
    const planFile = join(dir, 'plan.json')
    writeFileSync(planFile, kctl(['plan', '-f', join(dir, 'job'), '-o', 'json', '--now', NOW]).stdout)
    const text = readFileSync(file, 'utf8')
    // migrate-p2r8d (whose finalizer the plan removes) is written by someone else meanwhile.
    const changed = text.replace(/(name: migrate-p2r8d\n(?:.*\n)*?\s+resourceVersion: )"(\d+)"/, (_m, head, rv) => `${head}"${Number(rv) + 1000}"`)
    expect(changed).not.toBe(text)
    writeFileSync(file, changed)
    const refused = kctl(['reconcile', '-f', join(dir, 'job'), '--plan', planFile, '--apply', '-o', 'json', '--now', NOW])
    expect(refused.status).toBe(4)
    expect(refused.stderr).toMatch(/^error: saved plan is stale; run kctl plan again \(or pass --replan\): pod batch\/migrate-p2r8d \(to remove the finalizer of\) changed \(resourceVersion \d+ → \d+\)/)
    expect(readFileSync(file, 'utf8')).toBe(changed)
  })

  it('--until-converged --out: the world written is one kctl plan finds in sync', () => {
    const out = join(tmp(), 'out')
    const run = kctl(['reconcile', ...EXAMPLES, '--apply', '--until-converged', '--out', out, '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).converged).toBe(true)
    const plan = JSON.parse(kctl(['plan', '-f', out, '-o', 'json', '--now', NOW]).stdout)
    expect(plan.controllers.filter((c: any) => !c.inSync)).toEqual([])
    expect(plan.controllers.map((c: any) => c.name)).toContain(`hourly-${Date.parse(NOW) / 60_000}`)
  })
})

describe('kctl reconcile -o table: Job and CronJob writes', () => {
  it('lists each write with its outcome', () => {
    const run = kctl(['reconcile', ...EXAMPLES, '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    const out = run.stdout
    expect(out).toContain('  - delete Job hourly-29922060  because: beyond the history limit  would succeed')
    expect(out).toContain('  + create Job hourly-29922360  (scheduled 2026-11-22T11:00:00+01:00)  would succeed')
    expect(out).toMatch(/ {2}\+ create pod render-1-\w{5} {2}\(index 1\) {2}would succeed {2}\(batch 1\)/)
    expect(out).toContain('  ~ remove finalizer of pod migrate-p2r8d  (counted failed)  would succeed')
    expect(out).toMatch(/~ status \(write 2\) failed 2→3, .*\+condition Failed=True \(BackoffLimitExceeded\) {2}would succeed/)
  })
})
