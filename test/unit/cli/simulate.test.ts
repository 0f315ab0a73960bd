// `kctl simulate` through the built CLI: the README's example against its golden, the document's
// shape, what-if flags (also on `plan`), and bad input.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {kctl, NOW, ROOT} from './run-cli.js'

const update = process.env.UPDATE_GOLDEN === '1'

function golden(example: string, file: string, stdout: string): void {
  const path = join(ROOT, 'test', 'golden', example, file)
  if (update || !existsSync(path)) {
    if (!update) throw new Error(`${path} is missing: run UPDATE_GOLDEN=1 npm run test:unit and review it`)
    mkdirSync(join(ROOT, 'test', 'golden', example), {recursive: true})
    writeFileSync(path, stdout)
  }
  expect(stdout).toBe(readFileSync(path, 'utf8'))
}

describe('kctl simulate', () => {
  it.each([
    {example: 'rollout', file: 'simulate.txt', args: ['-o', 'table']},
    {example: 'rollout', file: 'simulate.json', args: ['-o', 'json']},
    {example: 'manifests', file: 'simulate.txt', args: ['-o', 'table']},
  ])('examples/$example: $file', ({example, file, args}) => {
    const run = kctl(['simulate', '-f', `examples/${example}`, '--now', NOW, ...args])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    golden(example, file, run.stdout)
  })

  it('the README shows the rollout timeline exactly as printed', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const block = /simulate -f examples\/rollout --now 2026-11-22T10:00:00Z\n```\n\n```\n([\s\S]*?)```/.exec(readme)
    expect(block?.[1]).toBe(readFileSync(join(ROOT, 'test/golden/rollout/simulate.txt'), 'utf8'))
  })

  it('prints the same bytes twice', () => {
    const a = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'json'])
    const b = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'json'])
    expect(a.stdout).toBe(b.stdout)
  })

  it('a Simulation document: steps in time order, the rollout complete at the end', () => {
    const sim = JSON.parse(kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'json']).stdout)
    expect(sim).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'Simulation', start: NOW, summary: {endedBy: 'quiet'}})
    const times: number[] = sim.steps.map((s: {offsetSeconds: number}) => s.offsetSeconds)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    const web = sim.deployments[0]
    expect(web.final.replicaSets.map((r: {replicas: number}) => r.replicas)).toEqual([0, 0, 4])
    expect(web.observed.minAvailable).toBeGreaterThanOrEqual(web.bounds.minAvailable)
  })

  it('--set-image with --fail: the rollout stalls and the old pods stay', () => {
    const run = kctl(['simulate', '-f', 'examples/rollout', '-n', 'staging', '--now', NOW, '-o', 'json', '--set-image', 'deployment/web=web=registry.example.com/web:v4', '--fail', 'registry.example.com/web:v4'])
    expect(run.status).toBe(0)
    const sim = JSON.parse(run.stdout)
    expect(sim.changes).toEqual(['Deployment staging/web: container web image registry.example.com/web:v3 → registry.example.com/web:v4'])
    expect(sim.deployments[0].final.conditions).toContainEqual({type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded'})
    expect(sim.deployments[0].final.replicasStatus.available).toBe(3)
  })

  it('-o markdown: the summary table and the timeline', () => {
    const run = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'markdown'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('| staging/web | RollingUpdate |')
    expect(run.stdout).toContain('| t+10s | Deployment web | ~ scale ReplicaSet web-5d5b85dbd6 1→0 (availability) |')
  })

  it('--apply-manifests merges a new template onto the fixtures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-apply-'))
    const manifest = readFileSync(join(ROOT, 'examples/manifests/web.yaml'), 'utf8').replace('registry.example.com/web:v2', 'registry.example.com/web:v3')
    writeFileSync(join(dir, 'web.yaml'), manifest)
    const before = JSON.parse(kctl(['simulate', '-f', 'examples/manifests', '--now', NOW, '-o', 'json']).stdout)
    const after = JSON.parse(kctl(['simulate', '-f', 'examples/manifests', '--apply-manifests', dir, '--now', NOW, '-o', 'json']).stdout)
    expect(after.changes).toEqual([
      'Deployment default/web: spec changed',
      'Service web: left out (kctl simulates Deployments, ReplicaSets, ReplicationControllers, Jobs, CronJobs and Pods)',
    ])
    const name = (s: {deployments: Array<{name: string; final: {replicaSets: Array<{name: string}>}}>}) => s.deployments.find((d) => d.name === 'web')!.final.replicaSets.map((r) => r.name)
    expect(name(after)).not.toEqual(name(before))
  })

  it('kctl plan --scale plans the next sync after the change', () => {
    const run = kctl(['plan', '-f', 'examples/rollout', '-n', 'staging', '--now', NOW, '-o', 'json', '--scale', 'deployment/web=8'])
    expect(run.status).toBe(0)
    expect(run.stderr).toContain('changed: Deployment staging/web: replicas 4 → 8')
    const plan = JSON.parse(run.stdout)
    const web = plan.controllers.find((c: {kind: string}) => c.kind === 'Deployment')
    expect(web.actions.some((a: {type: string; rule?: string}) => a.type === 'scaleReplicaSet' && a.rule === 'proportional')).toBe(true)
  })

  it.each([
    [['--ready-after', 'soon'], 'invalid --ready-after "soon": expected a duration such as 10s, 1m30s or 500ms'],
    [['--scale', 'deployment/web'], 'invalid --scale "deployment/web": expected KIND/NAME=REPLICAS, e.g. deployment/web=10'],
    [['--scale', 'deployment/nope=3'], '--scale: no Deployment "nope" in namespace "default" was read'],
    [['--set-image', 'deployment/web=x=nginx', '-n', 'staging'], '--set-image: Deployment staging/web has no container "x"'],
  ])('bad input %j: one line, exit 1', (args, message) => {
    const run = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, ...args])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')[0]).toContain(message)
    expect(run.stderr).not.toContain('    at ')
  })
})
