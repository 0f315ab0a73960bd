// Messages that should neither alarm nor flood: a planned 409 is worded as the normal behaviour it
// is; user input echoed in a message is cut at 200 characters; the bundled examples pass their
// own check.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {cutEchoes} from '../../../src/render/echo.js'
import {kctl, NOW} from './run-cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-messages-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

describe("a Deployment's planned 409", () => {
  it('is worded as what upstream does every time, without "!"', () => {
    const run = kctl(['plan', '-f', 'examples/deployment', '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    const block = run.stdout.split('\n\n')[0].split('\n')
    expect(block[0]).toMatch(/^Deployment /)
    const conflict = block.filter((l) => l.includes('409 Conflict'))
    expect(conflict).toHaveLength(1)
    expect(conflict[0]).toMatch(/^ {2}~ status .*  \(409 Conflict: the controller's own write conflicts here, as it always does; its next sync writes it\)$/)
    expect(block.filter((l) => /^ {2}! /.test(l))).toEqual([])
    expect(block).toContain('  · the sync stops at that write: a second write to the Deployment in this sync is sent with its old resourceVersion and conflicts')
    // The JSON still marks the write, for scripts.
    const json = JSON.parse(kctl(['plan', '-f', 'examples/deployment', '-o', 'json', '--now', NOW]).stdout)
    expect(json.controllers.find((c: {kind: string}) => c.kind === 'Deployment').actions.some((a: {conflict?: boolean}) => a.conflict)).toBe(true)
  })
})

describe('user input echoed in a message', () => {
  it('is cut at 200 characters, naming its length', () => {
    const long = 'x'.repeat(5000)
    expect(cutEchoes(`got string "${long}"`)).toBe(`got string "${'x'.repeat(200)}…" (5000 characters)`)
    expect(cutEchoes(`${long}.yaml: no such file`)).toBe(`${'x'.repeat(200)}… (5005 characters): no such file`)
    const short = `got "${'y'.repeat(200)}" in ${'z'.repeat(200)}`
    expect(cutEchoes(short)).toBe(short)
    // Escapes inside quotes are part of the string; a surrogate pair is never split.
    expect(cutEchoes(`"a\\"${'b'.repeat(300)}"`)).toBe(`"a\\"${'b'.repeat(197)}…" (303 characters)`)
    expect(cutEchoes(`"${'b'.repeat(199)}😀${'c'.repeat(10)}"`)).toBe(`"${'b'.repeat(199)}…" (211 characters)`)
  })

  it('a 5 MB file of one line: one short line on stderr, exit 1 (plan), one short finding (check)', () => {
    const file = join(tmp, 'one-line.yaml')
    writeFileSync(file, `${'x'.repeat(5_000_000)}\n`)
    const plan = kctl(['plan', '-f', file, '--now', NOW])
    expect(plan.status).toBe(1)
    expect(plan.stderr.split('\n')).toHaveLength(2)
    expect(plan.stderr.length).toBeLessThan(600)
    expect(plan.stderr).toContain(`got string "${'x'.repeat(200)}…" (5000000 characters)`)
    const check = kctl(['check', '-f', file, '-o', 'json'])
    expect(check.status).toBe(1)
    const [finding] = JSON.parse(check.stdout).findings
    expect(finding.rule).toBe('parse-error')
    expect(finding.message.length).toBeLessThan(400)
    // The same report read back as a baseline matches (the cut happens before the comparison).
    const baseline = join(tmp, 'baseline.json')
    writeFileSync(baseline, check.stdout)
    const again = kctl(['check', '-f', file, '-o', 'json', '--baseline', baseline])
    expect(JSON.parse(again.stdout).findings.map((f: {message: string}) => f.message)).toEqual([finding.message])
  })
})

describe('the bundled examples', () => {
  it('pass their own kctl check: exit 0, no error', () => {
    const run = kctl(['check', '-f', 'examples', '-o', 'json'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.summary.error).toBe(0)
    expect(report.summary.objects).toBeGreaterThan(100)
  })
})
