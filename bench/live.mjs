// kctl against a live cluster at scale. A real control plane with kube-scheduler, kwok and 2,000 fake
// nodes runs 50,000 pods created through 500 Deployments (the deployment, replicaset, scheduler and kwok
// do all the work; nothing is written by hand). Then, on that server, in one run, each case in its own
// process, interleaved and repeated:
//   - the floor: bench/live-floor.mjs, the same four paginated lists over one keep-alive connection,
//     JSON.parse of each page, nothing else;
//   - kctl plan -A -o json and kctl list -A (the built CLI);
//   - kubectl get pods,rs,deploy -A -o json, with the kubectl built beside the control plane (same version).
// Reported: median wall and CPU seconds of each, and each as a multiple of the floor's, with the load
// average around the runs (the ratios are what compares across machines). Target: kctl plan within
// 1.2× the floor's wall time and 2× its CPU. Skipped, saying why, when Go (which builds the control plane) is
// missing. --profile also runs kctl plan once under `node --cpu-prof` and prints where its time went.
// --baseline DIR adds kctl plan and list from another built tree (bin/ and dist/, e.g. the previous
// commit) to the same runs, for a before/after on the same server.
//
//   npm run bench:live                  (builds first; runs under tsx to import controlplane/)
//   node --import tsx bench/live.mjs [--nodes N] [--pods N] [--deployments N] [--repeat N] [--profile] [--baseline DIR] [--no-kubectl] [--hold | --attach FILE]
// --hold keeps the populated cluster up after the runs (until Ctrl-C), its kubeconfig and the floor's
// environment written to bench/out/live-cluster.json; --attach that file measures again on it (e.g.
// after a rebuild), without starting or populating anything. --no-kubectl leaves kubectl out (it is
// the slowest case by far, and only there for comparison).
// Results: a table on stdout and bench/out/live.json.
import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {childrenCpu} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
/** kctl plan's wall and CPU, as multiples of the floor's. */
const TARGET = {wall: 1.2, cpu: 2.0}

function parseArgs(argv) {
  const o = {nodes: 2000, pods: 50_000, deployments: 500, repeat: 3, profile: false, hold: false, attach: undefined, waitMinutes: 20, baseline: undefined, kubectl: true}
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '')
    if (k === 'profile') o.profile = true
    else if (k === 'no-kubectl') o.kubectl = false
    else if (k === 'hold') o.hold = true
    else if (k === 'baseline') o.baseline = resolve(argv[++i])
    else if (k === 'attach') o.attach = resolve(argv[++i])
    else if (k === 'wait-minutes') o.waitMinutes = Number(argv[++i])
    else if (k in o) o[k] = Number(argv[++i])
    else throw new Error(`unknown argument ${argv[i]}`)
  }
  return o
}

const log = (s) => process.stderr.write(`[bench:live] ${s}\n`)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Runs one case to completion, its stdout discarded; wall and CPU seconds. */
function measure(name, cmd, args, env) {
  const cpu0 = childrenCpu()
  const t0 = performance.now()
  const r = spawnSync(cmd, args, {cwd: root, env: {...process.env, ...env}, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20})
  const wall = (performance.now() - t0) / 1000
  const cpu = childrenCpu() - cpu0
  if (r.status !== 0) throw new Error(`${name} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 2000)}`)
  return {wall, cpu}
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function haveGo() {
  const r = spawnSync('go', ['version'], {encoding: 'utf8'})
  return r.status === 0 && /go1\.(\d+)/.test(r.stdout) && Number(/go1\.(\d+)/.exec(r.stdout)[1]) >= 26
}

/** Creates namespaces and Deployments (pause-like pods, small requests) through the admin API, 8 at a time. */
async function populate(call, o) {
  const namespaces = Math.min(20, o.deployments)
  for (let n = 0; n < namespaces; n++) await call('POST', '/api/v1/namespaces', {metadata: {name: `live-${n}`}})
  const per = Math.floor(o.pods / o.deployments)
  let next = 0
  const worker = async () => {
    for (let d = next++; d < o.deployments; d = next++) {
      const app = `app-${d}`
      const r = await call('POST', `/apis/apps/v1/namespaces/live-${d % namespaces}/deployments`, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {name: app},
        spec: {
          replicas: per,
          selector: {matchLabels: {app}},
          template: {
            metadata: {labels: {app, tier: 'bench'}},
            spec: {containers: [{name: 'main', image: `registry.example.com/${app}:v1`, resources: {requests: {cpu: '10m', memory: '16Mi'}}}]},
          },
        },
      })
      if (r.status !== 201) throw new Error(`create deployment ${app}: HTTP ${r.status}: ${r.body.slice(0, 300)}`)
    }
  }
  await Promise.all(Array.from({length: 8}, worker))
  return per * o.deployments
}

/** Waits until the Deployments report `want` ready replicas in all; returns how many are ready and how long it took. */
async function waitReady(call, want, minutes) {
  const t0 = performance.now()
  const deadline = Date.now() + minutes * 60_000
  let ready = 0
  let lastLog = 0
  for (;;) {
    const r = await call('GET', '/apis/apps/v1/deployments')
    ready = (r.json?.items ?? []).reduce((n, d) => n + (d.status?.readyReplicas ?? 0), 0)
    const secs = (performance.now() - t0) / 1000
    if (ready >= want) return {ready, secs}
    if (Date.now() > deadline) {
      log(`only ${ready} of ${want} pods Ready after ${minutes} min: measuring what there is`)
      return {ready, secs}
    }
    if (secs - lastLog >= 15) {
      log(`${ready} of ${want} pods Running and Ready after ${secs.toFixed(0)} s`)
      lastLog = secs
    }
    await sleep(2000)
  }
}

/** Self time of a .cpuprofile, by function and by area (our code, a dependency, Node, GC). */
function summarizeProfile(file) {
  const p = JSON.parse(readFileSync(file, 'utf8'))
  const total = (p.endTime - p.startTime) / 1000
  const dt = new Map()
  for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000)
  const byFn = new Map()
  const byArea = new Map()
  for (const n of p.nodes) {
    const ms = dt.get(n.id) ?? 0
    if (!ms) continue
    const {functionName, url, lineNumber} = n.callFrame
    const file = url.replace(/^file:\/\//, '').replace(`${root}/`, '')
    const fn = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim()
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms)
    const area = !url
      ? functionName // (garbage collector), (program), (idle)
      : url.startsWith('node:')
        ? url.replace(/^node:(internal\/)?/, 'node:').split('/').slice(0, 2).join('/')
        : file.includes('node_modules/')
          ? `dep ${file.split('node_modules/').pop().split('/').slice(0, file.includes('node_modules/@') ? 2 : 1).join('/')}`
          : file.replace(/^dist\//, 'kctl ')
    byArea.set(area, (byArea.get(area) ?? 0) + ms)
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => ({what: k, ms: Math.round(ms), share: ms / total}))
  return {totalMs: Math.round(total), areas: top(byArea, 15), functions: top(byFn, 20)}
}

async function main() {
  const o = parseArgs(process.argv.slice(2))
  if (!haveGo()) {
    process.stdout.write('bench:live skipped: Go >= 1.26 is not on PATH (it builds kube-apiserver, kube-scheduler and kwok)\n')
    return
  }
  const {ensureKubectl} = await import('../controlplane/build.js')
  const kubectl = await ensureKubectl()
  if (o.attach) {
    // A cluster held by an earlier run: measure again on the same objects.
    const held = JSON.parse(readFileSync(o.attach, 'utf8'))
    measureAll(o, kubectl, held, held.size)
    return
  }
  const {startControlPlane} = await import('../controlplane/start.js')
  const {request} = await import('../controlplane/http.js')
  const t0 = performance.now()
  const cp = await startControlPlane({scheduler: true, kwok: {nodes: o.nodes, stages: 'fast'}, log})
  const startSecs = (performance.now() - t0) / 1000
  try {
    await cp.startControllerManager(['deployment', 'replicaset'])
    const ca = readFileSync(cp.caFile)
    const call = (method, path, body) => request(`${cp.server}${path}`, {method, body, token: cp.adminToken, ca, timeoutMs: 120_000})
    const t1 = performance.now()
    const want = await populate(call, o)
    const {ready, secs} = await waitReady(call, want, o.waitMinutes)
    const populateSecs = (performance.now() - t1) / 1000
    log(`${ready} pods Running and Ready on ${o.nodes} nodes, ${o.deployments} Deployments: ${populateSecs.toFixed(0)} s (control plane + nodes up in ${startSecs.toFixed(1)} s)`)
    // Let the controllers finish their status writes so every case reads the same objects.
    await cp.stopControllerManager()
    await cp.stopScheduler()
    const cluster = {KUBECONFIG: cp.adminKubeconfig, KCTL_BENCH_SERVER: cp.server, KCTL_BENCH_TOKEN: cp.adminToken, KCTL_BENCH_CA: cp.caFile}
    const size = {nodes: o.nodes, deployments: o.deployments, podsWanted: want, podsReady: ready, populateSeconds: Math.round(populateSecs), readySeconds: Math.round(secs)}
    if (o.hold) {
      const file = join(out, 'live-cluster.json')
      mkdirSync(out, {recursive: true})
      writeFileSync(file, `${JSON.stringify({...cluster, size}, null, 2)}\n`)
      log(`holding the cluster until Ctrl-C; measure on it again with --attach ${file}`)
    }
    measureAll(o, kubectl, cluster, size)
    if (o.hold) {
      // A timer keeps the process (and so the cluster) alive until a signal comes.
      const alive = setInterval(() => {}, 1 << 30)
      await new Promise((r) => {
        process.once('SIGINT', r)
        process.once('SIGTERM', r)
      })
      clearInterval(alive)
    }
  } finally {
    await cp.stop()
  }
}

/** Runs every case on the cluster, interleaved, `repeat` times; prints the table and writes bench/out/live.json. */
function measureAll(o, kubectl, cluster, size) {
  const kubeconfig = {KUBECONFIG: cluster.KUBECONFIG, NO_COLOR: '1'}
  const floorEnv = {KCTL_BENCH_SERVER: cluster.KCTL_BENCH_SERVER, KCTL_BENCH_TOKEN: cluster.KCTL_BENCH_TOKEN, KCTL_BENCH_CA: cluster.KCTL_BENCH_CA}
  const cases = [
    ['floor (paginated lists + JSON.parse)', process.execPath, [join(here, 'live-floor.mjs')], floorEnv],
    ['kctl plan -A -o json', process.execPath, [join(root, 'bin/run.js'), 'plan', '-A', '-o', 'json'], kubeconfig],
    ['kctl list -A', process.execPath, [join(root, 'bin/run.js'), 'list', '-A'], kubeconfig],
  ]
  if (o.baseline) {
    const bin = join(o.baseline, 'bin/run.js')
    cases.push(['kctl plan -A -o json (baseline)', process.execPath, [bin, 'plan', '-A', '-o', 'json'], kubeconfig])
    cases.push(['kctl list -A (baseline)', process.execPath, [bin, 'list', '-A'], kubeconfig])
  }
  if (o.kubectl) cases.push(['kubectl get pods,rs,deploy -A -o json', kubectl, ['get', 'pods,rs,deploy', '-A', '-o', 'json'], kubeconfig])
  const loadBefore = loadavg()
  const runs = new Map(cases.map(([name]) => [name, []]))
  for (let i = 0; i < o.repeat; i++) {
    for (const [name, cmd, args, env] of cases) {
      const m = measure(name, cmd, args, env)
      runs.get(name).push(m)
      log(`run ${i + 1}: ${name}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU`)
    }
  }
  const loadAfter = loadavg()
  const results = cases.map(([name]) => ({name, wall: median(runs.get(name).map((m) => m.wall)), cpu: median(runs.get(name).map((m) => m.cpu))}))
  const floor = results[0]
  let profile
  if (o.profile) {
    const dir = join(out, 'live-profile')
    rmSync(dir, {recursive: true, force: true})
    mkdirSync(dir, {recursive: true})
    measure('kctl plan (profiled)', process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(root, 'bin/run.js'), 'plan', '-A', '-o', 'json'], kubeconfig)
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    profile = {file: join(dir, file), ...summarizeProfile(join(dir, file))}
  }
  const report = {
    size,
    repeat: o.repeat,
    loadAverage: {before: loadBefore, after: loadAfter},
    results: results.map((r) => ({...r, wallVsFloor: r.wall / floor.wall, cpuVsFloor: r.cpu / floor.cpu})),
    target: TARGET,
    targetWallVsFloor: TARGET.wall,
    profile,
  }
  mkdirSync(out, {recursive: true})
  writeFileSync(join(out, 'live.json'), `${JSON.stringify(report, null, 2)}\n`)

  const load = (l) => l.map((x) => x.toFixed(2)).join(' ')
  const lines = [
    `bench:live — ${size.podsReady} Running pods from ${size.deployments} Deployments on ${size.nodes} fake nodes (ready in ${size.readySeconds} s); median of ${o.repeat}`,
    `load average ${load(loadBefore)} before the runs, ${load(loadAfter)} after (${cpus().length} CPUs)`,
    '',
    `${'case'.padEnd(40)} ${'wall s'.padStart(8)} ${'CPU s'.padStart(8)} ${'× floor wall'.padStart(13)} ${'× floor CPU'.padStart(12)}`,
    ...report.results.map(
      (r) => `${r.name.padEnd(40)} ${r.wall.toFixed(2).padStart(8)} ${r.cpu.toFixed(2).padStart(8)} ${r.wallVsFloor.toFixed(2).padStart(13)} ${r.cpuVsFloor.toFixed(2).padStart(12)}`,
    ),
  ]
  const plan = report.results[1]
  lines.push('', `kctl plan: ${plan.wallVsFloor.toFixed(2)}× the floor's wall (target ≤ ${TARGET.wall}×), ${plan.cpuVsFloor.toFixed(2)}× its CPU (target ≤ ${TARGET.cpu}×)`)
  if (profile) {
    lines.push('', `profile of kctl plan (${profile.totalMs} ms, self time): ${profile.file}`)
    for (const a of profile.areas) lines.push(`  ${String(a.ms).padStart(6)} ms ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.what}`)
    lines.push('  top functions:')
    for (const f of profile.functions.slice(0, 12)) lines.push(`  ${String(f.ms).padStart(6)} ms ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.what}`)
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`)
  process.exitCode = 1
})
