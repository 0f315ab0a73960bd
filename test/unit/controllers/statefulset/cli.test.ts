// `kctl reconcile` of StatefulSets and DaemonSets on fixtures, through the built command line:
// saved plans (fresh, stale, --replan), dry runs, and --until-converged --out.
import {cpSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {kctl, NOW} from '../../cli/run-cli.js'

const EXAMPLES = ['-f', 'examples/statefulset', '-f', 'examples/daemonset']
const tmp = () => mkdtempSync(join(tmpdir(), 'kctl-wl-'))

describe('kctl reconcile: StatefulSets and DaemonSets (fixtures)', () => {
  it('a saved plan is carried out entry by entry, StatefulSet and DaemonSet writes included', () => {
    const dir = tmp()
    const planFile = join(dir, 'plan.json')
    writeFileSync(planFile, kctl(['plan', ...EXAMPLES, '-o', 'json', '--now', NOW]).stdout)
    const run = kctl(['reconcile', ...EXAMPLES, '--plan', planFile, '-o', 'json', '--now', NOW])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const doc = JSON.parse(run.stdout)
    expect(doc.plan.origin).toBe('saved')
    expect(doc.results.map((r: any) => `${r.controller.kind}:${r.action}:${r.outcome}`)).toEqual([
      'DaemonSet:createControllerRevision:ok',
      'DaemonSet:deleteDaemonPod:ok',
      'DaemonSet:updateStatus:ok',
      'StatefulSet:updateClaim:ok',
      'StatefulSet:deleteStatefulPod:ok',
      'StatefulSet:updateStatus:ok',
    ])
    expect(doc.summary.byAction.deleteStatefulPod).toEqual({planned: 1, ok: 1, failed: 0, skipped: 0})
  })

  it('a saved plan whose pod changed since is refused with exit 4, and nothing is done; --replan plans again', () => {
    const dir = tmp()
    cpSync('examples/statefulset', join(dir, 'ss'), {recursive: true})
    const file = join(dir, 'ss', 'statefulset.yaml')
    const planFile = join(dir, 'plan.json')
    writeFileSync(planFile, kctl(['plan', '-f', join(dir, 'ss'), '-o', 'json', '--now', NOW]).stdout)
    // db-3 (the pod the plan deletes) is written by someone else meanwhile.
    const text = readFileSync(file, 'utf8')
    const changed = text.replace(/(name: db-3\n(?:.*\n)*?\s+resourceVersion: )"(\d+)"/, (_m, head, rv) => `${head}"${Number(rv) + 1000}"`)
    expect(changed).not.toBe(text)
    writeFileSync(file, changed)
    const refused = kctl(['reconcile', '-f', join(dir, 'ss'), '--plan', planFile, '--apply', '-o', 'json', '--now', NOW])
    expect(refused.status).toBe(4)
    expect(refused.stderr).toMatch(/^error: saved plan is stale; run kctl plan again \(or pass --replan\): pod data\/db-3 \(to delete\) changed \(resourceVersion \d+ → \d+\)/)
    const doc = JSON.parse(refused.stdout)
    expect(doc).toMatchObject({outcome: 'refused', refusal: {reason: 'stale'}})
    expect(doc.results.every((r: any) => r.outcome === 'skipped')).toBe(true)
    const replanned = kctl(['reconcile', '-f', join(dir, 'ss'), '--plan', planFile, '--replan', '-o', 'json', '--now', NOW])
    expect(replanned.status).toBe(0)
    expect(JSON.parse(replanned.stdout).plan.replanned).toBe(true)
  })

  it('a dry run writes nothing: the files plan the same afterwards', () => {
    const before = kctl(['plan', ...EXAMPLES, '-o', 'json', '--now', NOW]).stdout
    const run = kctl(['reconcile', ...EXAMPLES, '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).mode).toBe('dry-run')
    expect(kctl(['plan', ...EXAMPLES, '-o', 'json', '--now', NOW]).stdout).toBe(before)
  })

  it('--until-converged --out: the world written is one kctl plan finds in sync', () => {
    const out = join(tmp(), 'after')
    const run = kctl(['reconcile', ...EXAMPLES, '--apply', '--until-converged', '--out', out, '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    const doc = JSON.parse(run.stdout)
    expect(doc.converged).toBe(true)
    const after = kctl(['plan', '-f', out, '--now', NOW, '--detailed-exitcode', '-o', 'json'])
    expect(after.status).toBe(0)
    const world = readFileSync(join(out, 'daemonset/daemonset.yaml'), 'utf8')
    expect(world).toContain('name: node-agent-745cd84b78')
    const ss = readFileSync(join(out, 'statefulset/statefulset.yaml'), 'utf8')
    expect(ss).toMatch(/kind: Pod\nmetadata:\n {2}name: db-2\n/)
    expect(ss).not.toMatch(/kind: Pod\nmetadata:\n {2}name: db-3\n/)
  })
})
