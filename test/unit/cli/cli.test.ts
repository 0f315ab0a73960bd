// The command line as scripts see it: what is on stdout, what is on stderr, the exit status.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'

import {calm, kctl, NOW, ROOT} from './run-cli.js'

/** A ReplicaSet with one Ready pod and a status that already says so: nothing to do. */
const IN_SYNC = calm(1)

const BROKEN_YAML = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: broken
  name: twice
`

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-cli-'))
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m)

describe('kctl plan', () => {
  it('-o json prints exactly one JSON document on stdout and nothing on stderr', () => {
    const run = kctl(['plan', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    const doc = JSON.parse(run.stdout)
    expect(doc).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'ReconcilePlan', now: NOW, source: {type: 'fixtures', paths: ['examples/scale-down']}})
    expect(run.stdout).toBe(`${JSON.stringify(doc, null, 2)}\n`)
  })

  it('defaults to JSON when stdout is not a terminal', () => {
    const run = kctl(['plan', '-f', 'examples/scale-down', '--now', NOW])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).kind).toBe('ReconcilePlan')
  })

  it('-o yaml prints the same document as YAML', () => {
    const json = JSON.parse(kctl(['plan', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW]).stdout)
    const run = kctl(['plan', '-f', 'examples/scale-down', '-o', 'yaml', '--now', NOW])
    expect(run.status).toBe(0)
    expect(parse(run.stdout, {version: '1.1'})).toEqual(json)
  })

  it('-o table has no colour when piped, even with --color unset', () => {
    const run = kctl(['plan', '-f', 'examples/scale-down', '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    expect(run.stdout).not.toMatch(/\u001B\[/)
    expect(run.stdout).toMatch(/^Plan: /m)
  })

  it('--color forces colour in the table; --no-color and NO_COLOR win over FORCE_COLOR', () => {
    const args = ['plan', '-f', 'examples/scale-down', '-o', 'table', '--now', NOW]
    expect(kctl([...args, '--color']).stdout).toMatch(/\u001B\[/)
    expect(kctl([...args, '--no-color'], {env: {FORCE_COLOR: '1'}}).stdout).not.toMatch(/\u001B\[/)
    expect(kctl(args, {env: {FORCE_COLOR: '1', NO_COLOR: '1'}}).stdout).not.toMatch(/\u001B\[/)
    expect(kctl([...args.slice(0, 4), '-o', 'json', '--now', NOW, '--color']).stdout).not.toMatch(/\u001B\[/)
  })

  it('--detailed-exitcode: 2 when a controller would act, 0 when all are in sync', () => {
    expect(kctl(['plan', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW, '--detailed-exitcode']).status).toBe(2)
    const calm = kctl(['plan', '-f', tempFile('calm.yaml', IN_SYNC), '-o', 'json', '--now', NOW, '--detailed-exitcode'])
    expect(calm.stderr).toBe('')
    expect(calm.status).toBe(0)
    expect(JSON.parse(calm.stdout).summary).toMatchObject({controllers: 1, inSync: 1})
  })

  it('without --detailed-exitcode, pending changes still exit 0', () => {
    expect(kctl(['plan', '-f', 'examples/scale-down', '-o', 'json', '--now', NOW]).status).toBe(0)
  })

  it('-f - reads stdin', () => {
    const run = kctl(['plan', '-f', '-', '-o', 'json', '--now', NOW, '--detailed-exitcode'], {input: IN_SYNC})
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).controllers.map((c: {name: string}) => c.name)).toEqual(['calm'])
  })

  it('--now defaults to the real clock', () => {
    const before = Date.now()
    const run = kctl(['plan', '-f', 'examples/scale-down', '-o', 'json'])
    const now = Date.parse(JSON.parse(run.stdout).now)
    expect(now).toBeGreaterThanOrEqual(before - 1000)
    expect(now).toBeLessThanOrEqual(Date.now() + 1000)
  })
})

describe('errors: exit 1, one line on stderr, no stack unless KCTL_DEBUG=1', () => {
  const cases: [string, string[], RegExp][] = [
    ['a file that does not exist', ['plan', '-f', 'examples/nope.yaml'], /examples\/nope\.yaml/],
    ['an invalid --now', ['plan', '-f', 'examples/scale-down', '--now', 'yesterday'], /--now "yesterday"/],
    ['an unknown feature gate', ['plan', '-f', 'examples/scale-down', '--feature-gates', 'Foo=true'], /unknown gate "Foo"/],
    ['an unknown flag', ['plan', '--frobnicate'], /frobnicate/],
    ['a bad -o value', ['plan', '-f', 'examples/scale-down', '-o', 'xml'], /xml/],
    ['an unknown command', ['frobnicate'], /frobnicate/],
  ]
  it.each(cases)('%s', (_what, args, message) => {
    for (const extra of [[], ['--detailed-exitcode']]) {
      const run = kctl(args[0] === 'plan' ? [...args, ...extra] : args)
      expect(run.status).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(run.stderr).toMatch(message)
      noStack(run.stderr)
    }
  })

  it('names file:line:col for broken YAML', () => {
    const file = tempFile('broken.yaml', BROKEN_YAML)
    const run = kctl(['plan', '-f', file, '-o', 'json', '--now', NOW])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain(`${file}:5:3`)
    noStack(run.stderr)
  })

  it('KCTL_DEBUG=1 adds the stack', () => {
    const run = kctl(['plan', '-f', tempFile('broken.yaml', BROKEN_YAML), '--now', NOW], {env: {KCTL_DEBUG: '1'}})
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^\s+at /m)
  })
})

describe('kctl list', () => {
  it('-o json is a ControllerList', () => {
    const run = kctl(['list', '-f', 'examples/adoption', '-o', 'json', '--now', NOW])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    const doc = JSON.parse(run.stdout)
    expect(doc.apiVersion).toBe('kctl/v1alpha1')
    expect(doc.kind).toBe('ControllerList')
    expect(doc.items.map((i: {name: string}) => i.name)).toEqual(['api', 'api-canary'])
  })

  it('-o table has one row per controller under a header, with the values -o json gives', () => {
    const run = kctl(['list', '-f', 'examples', '--apply-set', 'all', '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    // The controllers' table, then the Services' (below), then the HPAs'.
    const [controllers, services, hpas] = run.stdout.trimEnd().split('\n\n')
    expect(hpas.split('\n')).toEqual([
      expect.stringMatching(/^KIND\s+NAMESPACE\s+NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+DESIRED\s+IN SYNC$/),
      expect.stringMatching(/^HorizontalPodAutoscaler\s+autoscale\s+web\s+Deployment\/web\s+100%\s+2\s+10\s+3\s+6\s+no$/),
    ])
    const lines = controllers.split('\n')
    expect(lines[0]).toMatch(/^KIND\s+NAMESPACE\s+NAME\s+DESIRED\s+ACTIVE\s+UPDATED\s+READY\s+AVAILABLE\s+DIFF\s+IN SYNC\s+ROLLOUT$/)
    const all = JSON.parse(kctl(['list', '-f', 'examples', '--apply-set', 'all', '-o', 'json', '--now', NOW]).stdout).items
    const items = all.filter((i: {kind: string}) => i.kind !== 'Service' && i.kind !== 'HorizontalPodAutoscaler')
    const serviceLines = services.split('\n')
    expect(serviceLines[0]).toMatch(/^KIND\s+NAMESPACE\s+NAME\s+TYPE\s+PODS\s+ENDPOINTS\s+READY\s+SLICES\s+LOAD BALANCER\s+IN SYNC$/)
    expect(serviceLines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual(
      all
        .filter((i: {kind: string}) => i.kind === 'Service')
        .map((i: Record<string, any>) => [
          i.kind,
          i.namespace,
          i.name,
          i.serviceType,
          String(i.selectedPods),
          String(i.endpoints),
          String(i.readyEndpoints),
          String(i.slices),
          `${i.loadBalancer ?? '-'}${i.loadBalancerHosts === undefined ? '' : ` → ${i.loadBalancerHosts} host${i.loadBalancerHosts === 1 ? '' : 's'}`}`,
          i.inSync ? 'yes' : 'no',
        ]),
    )
    const signed = (n: number) => (n > 0 ? `+${n}` : String(n))
    const rows = lines.slice(1).map((l) => l.split(/\s{2,}/).map((cell) => cell.trim()))
    expect(rows.map((r) => r.slice(0, 10))).toEqual(
      items.map((i: Record<string, any>) => [i.kind, i.namespace, i.name, String(i.desired), String(i.active), i.updated === undefined ? '-' : String(i.updated), String(i.ready), String(i.available), signed(i.diff), i.inSync ? 'yes' : 'no']),
    )
    // The rollout column is filled for Deployments only.
    for (const [r, i] of rows.map((r, k) => [r, items[k]] as const)) expect(r[10] ?? '-').toBe(i.rolloutStep ?? '-')
    expect(rows.length).toBe(items.length)
  })
})

describe('help', () => {
  it('explains kctl and lists the commands', () => {
    const run = kctl(['--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/plan\s/)
    expect(run.stdout).toMatch(/list\s/)
  })

  it.each(['plan', 'list'])('%s --help shows examples', (cmd) => {
    const run = kctl([cmd, '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('EXAMPLES')
    expect(run.stdout).toContain(`kctl ${cmd} -f examples`)
  })
})

describe('oclif.manifest.json', () => {
  // In a child process without NODE_ENV: under vitest (NODE_ENV=test) oclif would load the
  // commands from src/ through tsx and record src/ paths.
  const fresh = () => {
    const env = {...process.env}
    delete env.NODE_ENV
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', "const {buildManifest} = await import('./scripts/manifest.mjs'); process.stdout.write(await buildManifest())"], {cwd: ROOT, env, encoding: 'utf8'})
    expect(run.stderr).toBe('')
    return run.stdout
  }

  it('as committed is what the current build generates (npm run manifest refreshes it; the build never writes it)', () => {
    const generated = fresh()
    expect(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).toBe(generated)
    // The comparison sees a stale manifest: one flag's summary changed is a difference.
    const doctored = generated.replace('"summary": "Exit 2 when any controller is not in sync', '"summary": "Exit 2 when anything is not in sync')
    expect(doctored).not.toBe(generated)
  })
})
