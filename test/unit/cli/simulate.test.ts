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
    {example: 'rollout-statefulset', file: 'simulate.txt', args: ['-o', 'table']},
    {example: 'rollout-statefulset', file: 'simulate.json', args: ['-o', 'json']},
    {example: 'daemonset', file: 'simulate.txt', args: ['-o', 'table']},
  ])('examples/$example: $file', ({example, file, args}) => {
    const run = kctl(['simulate', '-f', `examples/${example}`, '--now', NOW, ...args])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    golden(example, file, run.stdout)
  })

  // examples/hpa under a stepped CPU load: up at the scale-up limit, to maxReplicas (ScalingLimited),
  // down once the demand has been low for the 300 s stabilization window.
  const HPA_LOAD = ['-n', 'autoscale', '--load', 'deployment/web=cpu:300m@0s,3000m@1m,200m@20m']
  it.each([
    {file: 'simulate-load.txt', args: ['-o', 'table']},
    {file: 'simulate-load.json', args: ['-o', 'json']},
    {file: 'simulate-load.md', args: ['-o', 'markdown']},
  ])('examples/hpa --load: $file', ({file, args}) => {
    const run = kctl(['simulate', '-f', 'examples/hpa', '--now', NOW, ...HPA_LOAD, ...args])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    golden('hpa', file, run.stdout)
  })

  // The same with the rise as a linear ramp over four minutes: the HPA follows the demand as it grows.
  it('examples/hpa under a ramped --load: simulate-load-ramp.txt', () => {
    const run = kctl(['simulate', '-f', 'examples/hpa', '--now', NOW, '-n', 'autoscale', '--load', 'deployment/web=cpu:300m@0s,3000m@1m~5m,200m@20m', '-o', 'table'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    golden('hpa', 'simulate-load-ramp.txt', run.stdout)
  })

  it('docs/hpa-controller.md shows the simulation of examples/hpa under load exactly as printed', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'hpa-controller.md'), 'utf8')
    const block = /\$ kctl simulate -f examples\/hpa --now 2026-11-22T10:00:00Z -n autoscale --load deployment\/web=cpu:300m@0s,3000m@1m,200m@20m -o table\n([\s\S]*?)```/.exec(doc)
    expect(block?.[1]).toBe(readFileSync(join(ROOT, 'test/golden/hpa/simulate-load.txt'), 'utf8'))
  })

  it('--load --max-unmet --detailed-exitcode exits 3 when demand went unmet longer, and says so last', () => {
    const run = kctl(['simulate', '-f', 'examples/hpa', '--now', NOW, ...HPA_LOAD, '--max-unmet', '5m', '--detailed-exitcode', '-o', 'table'])
    expect(run.status).toBe(3)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('HorizontalPodAutoscaler autoscale/web  demand unmet 19m (> --max-unmet 5m)')
    const bad = kctl(['simulate', '-f', 'examples/hpa', '--now', NOW, '-n', 'autoscale', '--load', 'deployment/web=cpu:1@5m,2@1m'])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toBe('error: invalid --load "deployment/web=cpu:1@5m,2@1m": metric "cpu": 2@1m is not after the point before it (offsets strictly increase)\n')
  })

  it.each(['rollout', 'rollout-statefulset'])('docs/simulate.md shows the timeline of examples/%s exactly as printed', (example) => {
    const readme = readFileSync(join(ROOT, 'docs', 'simulate.md'), 'utf8')
    const block = new RegExp(`\\$ kctl simulate -f examples/${example} --now 2026-11-22T10:00:00Z -o table\n([\\s\\S]*?)\`\`\``).exec(readme)
    expect(block?.[1]).toBe(readFileSync(join(ROOT, `test/golden/${example}/simulate.txt`), 'utf8'))
  })

  it('the README shows the timeline of examples/rollout exactly as printed', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const block = /\$ kctl simulate -f examples\/rollout --now 2026-11-22T10:00:00Z -o table\n([\s\S]*?)```/.exec(readme)
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
    expect(run.stdout).toContain('| t+10s | Deployment staging/web | ~ scale ReplicaSet web-5d5b85dbd6 1→0 (availability) |')
  })

  it('-o markdown: StatefulSets and DaemonSets in their own summary table', () => {
    const run = kctl(['simulate', '-f', 'examples/rollout-statefulset', '-f', 'examples/daemonset', '--now', NOW, '-o', 'markdown'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('| DaemonSet monitoring/node-agent | RollingUpdate |')
    expect(run.stdout).toMatch(/\| StatefulSet messaging\/queue \| RollingUpdate \| 13 \| 1m15s \| 2 \(≥ 2\) \| 3 \(≤ 3\) \|/)
    expect(run.stdout).toContain('| t+0s | StatefulSet messaging/queue | - delete pod queue-2 (not at the update revision) |')
  })

  it('--apply-manifests merges a new template onto the fixtures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-apply-'))
    const manifest = readFileSync(join(ROOT, 'examples/manifests/web.yaml'), 'utf8').replace('registry.example.com/web:v2', 'registry.example.com/web:v3')
    writeFileSync(join(dir, 'web.yaml'), manifest)
    const before = JSON.parse(kctl(['simulate', '-f', 'examples/manifests', '--now', NOW, '-o', 'json']).stdout)
    const after = JSON.parse(kctl(['simulate', '-f', 'examples/manifests', '--apply-manifests', dir, '--now', NOW, '-o', 'json']).stdout)
    expect(after.changes).toEqual([
      'Deployment default/web: spec changed (kubectl apply: two-way merge, no last-applied configuration)',
      'Service web: left out (kctl simulates Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs and Pods)',
    ])
    const name = (s: {deployments: Array<{name: string; final: {replicaSets: Array<{name: string}>}}>}) => s.deployments.find((d) => d.name === 'web')!.final.replicaSets.map((r) => r.name)
    expect(name(after)).not.toEqual(name(before))
  })

  it('--apply-manifests merges as kubectl apply: what the last apply set and the new manifest drops goes, what others set stays', () => {
    // Applied before: env A and B; since then someone added env X by hand.
    const applied = {apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name: 'api', namespace: 'default'}, spec: {replicas: 2, selector: {matchLabels: {app: 'api'}}, template: {metadata: {labels: {app: 'api'}}, spec: {containers: [{name: 'c', image: 'api:v1', env: [{name: 'A', value: '1'}, {name: 'B', value: '2'}]}]}}}}
    const lastApplied = JSON.stringify({...applied, metadata: {...applied.metadata, annotations: {}}})
    const stored = structuredClone(applied) as any
    stored.metadata = {...stored.metadata, uid: '33333333-0000-4000-8000-000000000001', resourceVersion: '9', generation: 1, annotations: {'kubectl.kubernetes.io/last-applied-configuration': lastApplied}}
    stored.spec.template.spec.containers[0].env.push({name: 'X', value: 'by-hand'})
    const dir = (name: string, object: object) => {
      const d = mkdtempSync(join(tmpdir(), `kctl-${name}-`))
      writeFileSync(join(d, 'api.json'), JSON.stringify(object))
      return d
    }
    const next = structuredClone(applied) as any
    next.spec.template.spec.containers[0] = {name: 'c', image: 'api:v2', env: [{name: 'A', value: '1'}]}
    const hash = (args: string[]) => {
      const run = kctl(['plan', '--now', NOW, '-o', 'json', ...args])
      expect(run.status).toBe(0)
      const api = JSON.parse(run.stdout).controllers.find((c: {kind: string; name: string}) => c.kind === 'Deployment' && c.name === 'api')
      return {hash: api.actions.find((a: {type: string}) => a.type === 'createReplicaSet')?.podTemplateHash, stderr: run.stderr}
    }
    const changed = hash(['-f', dir('current', stored), '--apply-manifests', dir('next', next)])
    expect(changed.stderr).toContain('changed: Deployment default/api: spec changed (kubectl apply: three-way merge with the last-applied configuration)')
    // The ReplicaSet planned is that of the template kubectl apply leaves: image v2, env A and X (B removed).
    const expected = structuredClone(stored)
    expected.spec.template.spec.containers[0] = {name: 'c', image: 'api:v2', env: [{name: 'A', value: '1'}, {name: 'X', value: 'by-hand'}]}
    expect(changed.hash).toBe(hash(['-f', dir('expected', expected)]).hash)
    // Not the template a merge that keeps B, nor one that drops X, would give.
    const keptB = structuredClone(expected)
    keptB.spec.template.spec.containers[0].env.push({name: 'B', value: '2'})
    expect(changed.hash).not.toBe(hash(['-f', dir('kept-b', keptB)]).hash)
  })

  it('--apply-manifests: a manifest kubectl apply would refuse is one line at its file and field', () => {
    const d = mkdtempSync(join(tmpdir(), 'kctl-bad-apply-'))
    const manifest = readFileSync(join(ROOT, 'examples/manifests/web.yaml'), 'utf8').replace('        - name: web\n          image: registry.example.com/web:v2', '        - image: registry.example.com/web:v3')
    writeFileSync(join(d, 'web.yaml'), manifest)
    const run = kctl(['plan', '-f', 'examples/manifests', '--apply-manifests', d, '--now', NOW])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')[0]).toMatch(/web\.yaml:\d+:\d+: --apply-manifests: Deployment default\/web: spec\.template\.spec\.containers\[0\]: this item has no "name"/)
    expect(run.stderr).not.toContain('    at ')
  })

  it('a StatefulSet rollout: every pod replaced from the highest ordinal down, the bounds kept, the claims kept', () => {
    const sim = JSON.parse(kctl(['simulate', '-f', 'examples/rollout-statefulset', '--now', NOW, '-o', 'json']).stdout)
    expect(sim.notSimulated).toEqual([])
    const deleted = sim.steps.flatMap((s: {actions: Array<{type: string; pod?: string}>}) => s.actions.filter((a) => a.type === 'deleteStatefulPod').map((a) => a.pod))
    expect(deleted).toEqual(['queue-2', 'queue-1', 'queue-0'])
    const queue = sim.statefulSets[0]
    expect(queue.final.currentRevision).toBe(queue.final.updateRevision)
    expect(queue.final.pods.every((p: {revision: string}) => p.revision === queue.final.updateRevision)).toBe(true)
    expect(queue.final.claims).toEqual(['data-queue-0', 'data-queue-1', 'data-queue-2'])
    expect(queue.observed.minAvailable).toBeGreaterThanOrEqual(queue.bounds.minAvailable)
    expect(queue.observed.maxInFlight).toBeLessThanOrEqual(queue.bounds.maxInFlight)
  })

  it('--fail with a StatefulSet revision name: the rolling update stops at its first pod', () => {
    const plan = JSON.parse(kctl(['plan', '-f', 'examples/rollout-statefulset', '--now', NOW, '-o', 'json']).stdout)
    const revision = plan.controllers[0].updateRevision.name
    const sim = JSON.parse(kctl(['simulate', '-f', 'examples/rollout-statefulset', '--now', NOW, '-o', 'json', '--fail', revision]).stdout)
    const queue = sim.statefulSets[0]
    expect(queue.final.pods.map((p: {name: string; revision: string; ready: boolean}) => [p.name, p.revision === revision, p.ready])).toEqual([
      ['queue-0', false, true],
      ['queue-1', false, true],
      ['queue-2', true, false],
    ])
  })

  describe('--detailed-exitcode and the verdicts', () => {
    const failing = ['-n', 'staging', '--set-image', 'deployment/web=web=registry.example.com/web:v4', '--fail', 'registry.example.com/web:v4']
    const simulateJson = (args: string[]) => {
      const run = kctl(['simulate', '--now', NOW, '-o', 'json', '--detailed-exitcode', ...args])
      return {status: run.status, sim: JSON.parse(run.stdout), stderr: run.stderr}
    }

    it('a complete rollout with changes: exit 2, complete when its status says so, the old pods gone later', () => {
      const {status, sim} = simulateJson(['-f', 'examples/rollout'])
      expect(status).toBe(2)
      expect(sim.summary.incomplete).toEqual([])
      expect(sim.deployments[0].verdict).toEqual({result: 'complete', completeAtSeconds: 10, podsGoneAtSeconds: 40, boundsBroken: [], text: 'complete at t+10s (pods gone at t+40s)'})
      // Without the flag the same run exits 0.
      expect(kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'json']).status).toBe(0)
    })

    it('a rollout that hits its progress deadline: exit 3, ProgressDeadlineExceeded when the Deployment reports it', () => {
      const {status, sim} = simulateJson(['-f', 'examples/rollout', ...failing])
      expect(status).toBe(3)
      expect(sim.summary.incomplete).toEqual(['Deployment staging/web'])
      expect(sim.deployments[0].verdict).toMatchObject({result: 'progressDeadlineExceeded', deadlineExceededAtSeconds: 601, text: 'ProgressDeadlineExceeded at t+10m1s: 2 of 4 updated, 3 available'})
    })

    it('a rollout stalled at --until: exit 3', () => {
      const {status, sim} = simulateJson(['-f', 'examples/rollout', ...failing, '--until', '1m'])
      expect(status).toBe(3)
      expect(sim.summary.endedBy).toBe('until')
      expect(sim.deployments[0].verdict).toEqual({result: 'stalled', boundsBroken: [], text: 'stalled at t+1m (--until): 2 of 4 updated, 3 available'})
    })

    it('a StatefulSet rollout stuck on a pod that never becomes Ready: stalled when nothing is left to happen, exit 3', () => {
      const plan = JSON.parse(kctl(['plan', '-f', 'examples/rollout-statefulset', '--now', NOW, '-o', 'json']).stdout)
      const {status, sim} = simulateJson(['-f', 'examples/rollout-statefulset', '--fail', plan.controllers[0].updateRevision.name])
      expect(status).toBe(3)
      expect(sim.statefulSets[0].verdict.result).toBe('stalled')
      expect(sim.statefulSets[0].verdict.text).toMatch(/^stalled at t\+\d+s \(nothing left to happen\): 1 of 3 updated, 2 ready$/)
      expect(sim.summary.incomplete).toEqual(['StatefulSet messaging/queue'])
    })

    it('complete rollouts and nothing to do: exit 0', () => {
      const {status, sim} = simulateJson(['-f', 'examples/hpa'])
      expect(sim.summary.steps).toBe(0)
      expect(sim.deployments[0].verdict).toEqual({result: 'complete', completeAtSeconds: 0, boundsBroken: [], text: 'complete at t+0s'})
      expect(status).toBe(0)
    })

    it('the table ends with one verdict line per workload', () => {
      const run = kctl(['simulate', '-f', 'examples/rollout', '-f', 'examples/daemonset', '-f', 'examples/rollout-statefulset', '--now', NOW, '-o', 'table', '--detailed-exitcode'])
      expect(run.status).toBe(2)
      expect(run.stdout.trimEnd().split('\n').slice(-4)).toEqual([
        '',
        'Deployment staging/web           complete at t+10s (pods gone at t+40s)',
        'StatefulSet messaging/queue      complete at t+1m10s',
        'DaemonSet monitoring/node-agent  complete at t+1m20s (pods gone at t+1m50s)',
      ])
    })

    it('-o markdown leads with the verdicts', () => {
      const run = kctl(['simulate', '-f', 'examples/rollout', ...failing, '--now', NOW, '-o', 'markdown'])
      expect(run.stdout).toContain('- ❌ **Deployment staging/web**: ProgressDeadlineExceeded at t+10m1s: 2 of 4 updated, 3 available\n')
    })
  })

  it('bounds read ≥ and ≤, namespaces are in the timeline, a scale to the same size is counted, not listed', () => {
    const run = kctl(['simulate', '-f', 'examples/rollout', '-n', 'staging', '--now', NOW, '-o', 'table', '--scale', 'deployment/web=6'])
    // Availability started below its bound (4 of 6 after the scale): held to where it started, so kept.
    expect(run.stdout).toContain('  min available 4 (≥ 5) = replicas - maxUnavailable 1; it started with 4\n')
    expect(run.stdout).toContain('  max pods 8 (≤ 8) = replicas + maxSurge 2; 9 with terminating pods\n')
    expect(run.stdout).toContain('t+0s   Deployment staging/web             scale ReplicaSet web-6bd894589f 3→5 (proportional)\n')
    expect(run.stdout).not.toMatch(/scale ReplicaSet \S+ (\d+)→\1 /)
    expect(run.stdout).toContain('(1 same-size ReplicaSet scale, 20 status writes that change no condition not listed; -o json has them)')
    const sim = JSON.parse(kctl(['simulate', '-f', 'examples/rollout', '-n', 'staging', '--now', NOW, '-o', 'json', '--scale', 'deployment/web=6']).stdout)
    const same = sim.steps.flatMap((s: {actions: Array<{type: string; from?: number; to?: number}>}) => s.actions.filter((a) => a.type === 'scaleReplicaSet' && a.from === a.to))
    expect(same).toHaveLength(1)
  })

  it('Services and HorizontalPodAutoscalers are named as not simulated, with what kctl plan plans for them now', () => {
    const plan = JSON.parse(kctl(['plan', '-f', 'examples/services', '--now', NOW, '-o', 'json']).stdout)
    const run = kctl(['simulate', '-f', 'examples/services', '--now', NOW, '-o', 'json'])
    const sim = JSON.parse(run.stdout)
    const expected = plan.controllers.map((c: {namespace: string; name: string; actions: unknown[]}) => `Service ${c.namespace}/${c.name}: ${c.actions.length} ${c.actions.length === 1 ? 'action' : 'actions'} planned now; the EndpointSlice, Endpoints and load-balancer controllers are not run in virtual time`)
    expect(sim.notSimulated).toEqual(expected)
    const table = kctl(['simulate', '-f', 'examples/services', '--now', NOW, '-o', 'table']).stdout
    expect(table).toContain('No simulated controller has anything to do.\n\nNot simulated (kctl plan shows their next sync):\n  Service shop/api: 5 actions planned now;')
    const hpa = JSON.parse(kctl(['simulate', '-f', 'examples/hpa', '--now', NOW, '-o', 'json']).stdout)
    expect(hpa.notSimulated).toEqual(['HorizontalPodAutoscaler autoscale/web: 2 actions planned now; no --load names its target: its metrics are read once, not modelled over time'])
  })

  describe('--out DIR', () => {
    it('writes the world at the end as fixtures: read back, it is that world, and a second what-if starts from it', () => {
      const out = join(mkdtempSync(join(tmpdir(), 'kctl-out-')), 'after')
      const first = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '-o', 'json', '--out', out])
      expect(first.status).toBe(0)
      expect(first.stderr).toMatch(/^wrote \d+ objects to .*after \(staging\.yaml\)\n$/)
      const end = JSON.parse(first.stdout).end
      expect(readFileSync(join(out, 'staging.yaml'), 'utf8').split('\n')[0]).toBe(`# The world at the end of kctl simulate (${end}): read it back with -f and --now ${end}.`)
      // Read back: the same pods and ReplicaSet sizes as the end of the first run, every controller in sync.
      const last = JSON.parse(first.stdout).steps.at(-1).counts
      const again = kctl(['simulate', '-f', out, '--now', end, '-o', 'json', '--detailed-exitcode'])
      expect(again.status).toBe(0)
      const sim = JSON.parse(again.stdout)
      expect(sim.steps).toEqual([])
      expect(sim.deployments[0].final.replicaSets.map((r: {name: string; replicas: number}) => [r.name, r.replicas])).toEqual(last.replicaSets.map((r: {name: string; replicas: number}) => [r.name, r.replicas]))
      expect(sim.deployments[0].verdict.text).toBe('complete at t+0s')
      const plan = kctl(['plan', '-f', out, '--now', end, '-o', 'json', '--detailed-exitcode'])
      expect(plan.status).toBe(0)
      // A second what-if from there.
      const next = kctl(['simulate', '-f', out, '--now', end, '-o', 'json', '--detailed-exitcode', '--set-image', 'deployment/web=web=registry.example.com/web:v4', '-n', 'staging'])
      expect(next.status).toBe(2)
      expect(JSON.parse(next.stdout).deployments[0].final.replicaSets.map((r: {replicas: number}) => r.replicas)).toEqual([0, 0, 0, 4])
    })

    it('refuses a directory that is not empty, before anything runs', () => {
      const dir = mkdtempSync(join(tmpdir(), 'kctl-out-'))
      writeFileSync(join(dir, 'old.yaml'), '')
      const run = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, '--out', dir])
      expect(run.status).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr.split('\n')[0]).toBe(`error: --out ${dir}: the directory is not empty (name a new or empty directory: every YAML file in it is read back by -f)`)
    })
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
    [['--scale', 'daemonset/node-agent=3'], 'invalid --scale "daemonset/node-agent=3": a DaemonSet has no replicas (it runs one pod per matching node)'],
  ])('bad input %j: one line, exit 1', (args, message) => {
    const run = kctl(['simulate', '-f', 'examples/rollout', '--now', NOW, ...args])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')[0]).toContain(message)
    expect(run.stderr).not.toContain('    at ')
  })
})
