// `kctl watch` as scripts see it, on fixtures (the BUILT command line, `npm run build` first):
// NDJSON on stdout, re-planning when a file changes, --until-converged, --timeout, SIGINT, and
// the flags it refuses.
import {spawn} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {calm, kctl, NOW, ROOT} from '../cli/run-cli.js'


function start(args: string[]) {
  const child = spawn(process.execPath, ['bin/run.js', 'watch', ...args], {cwd: ROOT, env: {...process.env, NODE_ENV: undefined, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  const lines: any[] = []
  let stderr = ''
  let partial = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    partial += c
    for (let nl = partial.indexOf('\n'); nl >= 0; nl = partial.indexOf('\n')) {
      lines.push(JSON.parse(partial.slice(0, nl)))
      partial = partial.slice(nl + 1)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const until = async (pred: (l: any) => boolean, ms = 15_000) => {
    const deadline = Date.now() + ms
    while (!lines.some(pred)) {
      if (Date.now() > deadline) throw new Error(`no such line; got ${JSON.stringify(lines)}; stderr ${stderr}`)
      await new Promise((r) => setTimeout(r, 25))
    }
    return lines.find(pred)
  }
  return {child, lines, exited, until, get stderr() {
    return stderr
  }}
}

describe('kctl watch -f', () => {
  it('plans, then plans again when a file changes; --until-converged exits 0 once in sync', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-'))
    const file = join(dir, 'calm.yaml')
    writeFileSync(file, calm(3))
    const run = start(['-f', dir, '--now', NOW, '--until-converged', '--timeout', '30s'])
    expect(await run.until((l) => l.kind === 'WatchStatus' && l.status === 'synced')).toMatchObject({resource: 'files', controllers: 1})
    const initial = await run.until((l) => l.kind === 'PlanChange')
    expect(initial).toMatchObject({event: {type: 'INITIAL', kind: 'ReplicaSet', name: 'calm'}, inSync: false, now: NOW, controller: {desired: 3, active: 1, diff: -2}})
    // A plan of the same files is what `kctl plan` prints for them.
    const plan = JSON.parse(kctl(['plan', '-f', dir, '-o', 'json', '--now', NOW]).stdout)
    expect(initial.controller).toEqual(plan.controllers[0])

    writeFileSync(file, calm(1))
    expect(await run.exited).toBe(0)
    const change = run.lines.find((l) => l.kind === 'PlanChange' && l.event.type === 'FILE')
    expect(change).toMatchObject({event: {kind: 'File'}, inSync: true, controller: {desired: 1, diff: 0, actions: []}, changed: expect.arrayContaining(['desired', 'diff', 'actions'])})
    expect(change.event.name).toMatch(/calm\.yaml$/)
    expect(run.lines.at(-1)).toMatchObject({kind: 'WatchStatus', status: 'converged', controllers: 1, inSync: 1})
    expect(run.stderr).toBe('')
  })

  it('a Service is planned again when its pod turns Ready in the file: the endpoint change, then in sync', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-svc-'))
    const file = join(dir, 'web.yaml')
    const world = (ready: boolean, written: boolean) =>
      [
        'apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {topology.kubernetes.io/zone: z1}}',
        'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop, uid: u-web, creationTimestamp: "2026-11-01T00:00:00Z"}\nspec: {selector: {app: web}, clusterIP: 10.0.0.1, ipFamilies: [IPv4], ports: [{name: http, port: 80, targetPort: 8080}]}',
        `apiVersion: v1\nkind: Pod\nmetadata: {name: web-1, namespace: shop, uid: u-p1, labels: {app: web}}\nspec: {nodeName: n1, containers: [{name: c, image: x}]}\nstatus: {phase: Running, podIP: 10.1.0.1, podIPs: [{ip: 10.1.0.1}], conditions: [{type: Ready, status: "${ready ? 'True' : 'False'}"}]}`,
        ...(written
          ? [
              'apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: web-x, namespace: shop, uid: u-s, labels: {kubernetes.io/service-name: web, endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io}, ownerReferences: [{apiVersion: v1, kind: Service, name: web, uid: u-web, controller: true, blockOwnerDeletion: true}]}\naddressType: IPv4\nports: [{name: http, port: 8080, protocol: TCP}]\nendpoints: [{addresses: [10.1.0.1], conditions: {ready: true, serving: true, terminating: false}, nodeName: n1, zone: z1, targetRef: {kind: Pod, namespace: shop, name: web-1, uid: u-p1}}]',
              'apiVersion: v1\nkind: Endpoints\nmetadata: {name: web, namespace: shop, uid: u-e, labels: {endpoints.kubernetes.io/managed-by: endpoint-controller}}\nsubsets: [{addresses: [{ip: 10.1.0.1, nodeName: n1, targetRef: {kind: Pod, namespace: shop, name: web-1, uid: u-p1}}], ports: [{name: http, port: 8080, protocol: TCP}]}]',
            ]
          : []),
      ].join('\n---\n')
    writeFileSync(file, world(false, false))
    const run = start(['-f', dir, '--now', NOW, '--until-converged', '--timeout', '30s', '-o', 'json'])
    expect(await run.until((l) => l.kind === 'WatchStatus' && l.status === 'synced')).toMatchObject({controllers: 1})
    const initial = await run.until((l) => l.kind === 'PlanChange')
    expect(initial).toMatchObject({event: {type: 'INITIAL', kind: 'Service', name: 'web'}, inSync: false, controller: {status: {readyEndpoints: 0}}})
    writeFileSync(file, world(true, false))
    const ready = await run.until((l) => l.kind === 'PlanChange' && l.event.type === 'FILE')
    expect(ready.controller.status.readyEndpoints).toBe(1)
    expect(ready.controller.service.pods).toEqual([expect.objectContaining({pod: 'web-1', slice: expect.objectContaining({in: true, ready: true})})])
    expect(ready.changed).toEqual(expect.arrayContaining(['ready', 'actions']))
    // What the controllers would write, written: in sync, and the watch ends.
    writeFileSync(file, world(true, true))
    expect(await run.exited).toBe(0)
    expect(run.lines.at(-1)).toMatchObject({kind: 'WatchStatus', status: 'converged', controllers: 1, inSync: 1})
    expect(run.stderr).toBe('')
  })

  it('a file that stops parsing is reported and the last plans kept; --timeout then exits 1 naming what is pending', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-'))
    writeFileSync(join(dir, 'calm.yaml'), calm(2))
    // The timeout must outlast noticing the change on a loaded machine (fs.watch, debounce, re-read).
    const run = start(['-f', dir, '--now', NOW, '--timeout', '8s'])
    await run.until((l) => l.kind === 'PlanChange')
    writeFileSync(join(dir, 'broken.yaml'), 'kind: [\n')
    const error = await run.until((l) => l.kind === 'WatchStatus' && l.status === 'error')
    expect(error.message).toMatch(/broken\.yaml:2:1: /)
    expect(await run.exited).toBe(1)
    expect(run.stderr).toMatch(/^watch: .*broken\.yaml:2:1: /m)
    expect(run.stderr.trim().split('\n').at(-1)).toBe('error: timed out after 8s with 1 of 1 controllers not in sync: ReplicaSet default/calm (+1)')
    expect(run.lines.at(-1)).toMatchObject({kind: 'WatchStatus', status: 'timeout', pending: ['ReplicaSet/default/calm']})
  })

  it('--resync plans everything again on a timer; unchanged plans print nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-'))
    writeFileSync(join(dir, 'calm.yaml'), calm(1))
    const r = kctl(['watch', '-f', dir, '--now', NOW, '--resync', '300ms', '--timeout', '1100ms', '-o', 'json'])
    expect(r.status).toBe(0)
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.status === 'resync').length).toBeGreaterThanOrEqual(2)
    expect(lines.filter((l) => l.kind === 'PlanChange')).toHaveLength(1)
    expect(lines.at(-1)).toMatchObject({status: 'timeout', pending: []})
  })

  it('SIGINT exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-'))
    writeFileSync(join(dir, 'calm.yaml'), calm(1))
    const run = start(['-f', dir, '--now', NOW])
    await run.until((l) => l.kind === 'PlanChange')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
  })

  it('-o table on something that is not a terminal appends one line per change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-watch-'))
    writeFileSync(join(dir, 'calm.yaml'), calm(2))
    const r = kctl(['watch', '-f', dir, '--now', NOW, '-o', 'table', '--timeout', '1s'])
    expect(r.status).toBe(1)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+NAMESPACE\s+CONTROLLER\s+DESIRED\s+ACTIVE\s+READY\s+DIFF\s+NEXT$/)
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\s+INITIAL\s+default\s+rs\/calm\s+2\s+1\s+1\s+-1\s+\+1$/)
  })
})

describe('kctl watch refuses', () => {
  it.each([
    ['--now on a live cluster', ['watch', '--now', NOW], /--now cannot be used when watching a live cluster/],
    ['stdin', ['watch', '-f', '-'], /cannot watch stdin/],
    ['a bad --timeout', ['watch', '-f', 'examples', '--timeout', '5'], /invalid --timeout "5": expected a duration \(e\.g\. 30s, 5m, 1h30m\)/],
    ['a bad --resync', ['watch', '-f', 'examples', '--resync', '0s'], /invalid --resync "0s"/],
    ['-o yaml', ['watch', '-f', 'examples', '-o', 'yaml'], /yaml/],
  ])('%s: one line, exit 1', (_what, args, message) => {
    const r = kctl(args, {env: {KUBECONFIG: '/nonexistent'}})
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(message)
  })

  it('--help explains it, with examples', () => {
    const r = kctl(['watch', '--help'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('--until-converged')
    expect(r.stdout).toContain('EXAMPLES')
  })
})
