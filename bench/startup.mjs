// Start-up: `kctl --help`, `kctl plan -f examples/scale-down -o json` and `kctl check -f
// examples/scale-down`, each against a bare `node -e 0` measured side by side in the same run (the
// runs interleaved, so load on the machine weighs on all of them alike). Medians of --runs N
// processes each. Target: at most 2× `node -e 0`.
// kctl runs through V8's code cache (src/cli/script-cache.ts), here in a directory of the bench's
// own, filled by the warm-up runs; the first run on a machine, with no cache yet, is shown apart
// (a fresh cache directory for each of its runs), for information.
// A live run too, when Go (which builds the control plane) is on PATH: `kctl plan -n <empty> -o json`
// against a real kube-apiserver, an empty namespace, so what it costs is start-up, reading the
// kubeconfig and the (empty) lists. Wall and CPU seconds of each case are shown (CPU: user + system
// of the process). --baseline DIR adds the kctl cases of another built tree (bin/ and dist/, e.g.
// main's) to the same runs, for a before/after.
//
//   npm run bench:startup          (builds first)
//   node bench/startup.mjs [--runs N] [--baseline DIR] [--no-live]
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {childrenCpu} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const TARGET = 2

function args() {
  const o = {runs: 21, baseline: undefined, live: true}
  const a = process.argv.slice(2)
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--runs') o.runs = Number(a[++i])
    else if (a[i] === '--baseline') o.baseline = resolve(a[++i])
    else if (a[i] === '--no-live') o.live = false
    else throw new Error(`unknown argument ${a[i]}`)
  }
  return o
}

const o = args()
const bin = join(root, 'bin/run.js')
const cases = {
  'node -e 0': ['-e', '0'],
  'kctl --help': [bin, '--help'],
  'kctl plan -f examples/scale-down -o json': [bin, 'plan', '-f', join(root, 'examples/scale-down'), '-o', 'json'],
  'kctl check -f examples/scale-down': [bin, 'check', '-f', join(root, 'examples/scale-down')],
}
/** Cases shown for information, not held to the target. */
const extra = {}
if (o.baseline) {
  for (const [name, argv] of Object.entries(cases).slice(1)) extra[`${name} (baseline)`] = [join(o.baseline, 'bin/run.js'), ...argv.slice(1)]
}

const cacheDir = mkdtempSync(join(tmpdir(), 'kctl-startup-'))
process.on('exit', () => rmSync(cacheDir, {recursive: true, force: true}))

let liveEnv = {}
function timed(argv, cache = cacheDir) {
  const cpu0 = childrenCpu()
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, argv, {cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, ...liveEnv, KCTL_CACHE_DIR: cache}})
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited with ${r.status}: ${r.stderr}`)
  return {ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (childrenCpu() - cpu0) * 1000}
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/** A control plane with an empty namespace, for the live cases; undefined (saying why) without Go. */
async function startLive() {
  const go = spawnSync('go', ['version'], {encoding: 'utf8'})
  const minor = /go1\.(\d+)/.exec(go.stdout ?? '')
  if (go.status !== 0 || !minor || Number(minor[1]) < 26) {
    console.log('live cases skipped: Go >= 1.26 is not on PATH (it builds kube-apiserver)')
    return undefined
  }
  // controlplane/ is TypeScript: loaded through tsx.
  const {register} = await import('tsx/esm/api')
  register()
  const {startControlPlane} = await import('../controlplane/start.ts')
  const {request} = await import('../controlplane/http.ts')
  const cp = await startControlPlane({log: () => {}})
  const r = await request(`${cp.server}/api/v1/namespaces`, {method: 'POST', body: {metadata: {name: 'startup-empty'}}, token: cp.adminToken, ca: readFileSync(cp.caFile)})
  if (r.status !== 201) throw new Error(`create namespace: HTTP ${r.status}`)
  liveEnv = {KUBECONFIG: cp.adminKubeconfig}
  return cp
}

const cp = o.live ? await startLive() : undefined
try {
  if (cp) {
    const live = (b) => [b, 'plan', '-n', 'startup-empty', '-o', 'json']
    extra['kctl plan -n <empty namespace> -o json (live)'] = live(bin)
    if (o.baseline) extra['kctl plan -n <empty namespace> -o json (live, baseline)'] = live(join(o.baseline, 'bin/run.js'))
  }
  const all = {...cases, ...extra}
  const times = Object.fromEntries(Object.keys(all).map((k) => [k, []]))
  for (const argv of Object.values(all)) timed(argv) // warm the file cache
  const firstRun = (argv) => {
    const fresh = mkdtempSync(join(cacheDir, 'first-'))
    return timed(argv, fresh)
  }
  const coldCases = Object.entries(cases).slice(1).map(([name, argv]) => [`${name}, first run`, argv])
  for (const [name] of coldCases) times[name] = []
  for (let i = 0; i < o.runs; i++) {
    for (const [name, argv] of Object.entries(all)) times[name].push(timed(argv))
    for (const [name, argv] of coldCases) times[name].push(firstRun(argv))
  }
  const bare = median(times['node -e 0'].map((t) => t.ms))
  const rows = Object.entries(times).map(([name, t]) => {
    const ms = median(t.map((x) => x.ms))
    return {name, medianMs: ms, medianCpuMs: median(t.map((x) => x.cpuMs)), ratio: ms / bare}
  })
  console.log(`start-up, medians of ${o.runs} runs each, interleaved:`)
  console.log(`  ${'case'.padEnd(58)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)}`)
  for (const r of rows) console.log(`  ${r.name.padEnd(58)} ${`${r.medianMs.toFixed(0)} ms`.padStart(8)} ${`${r.medianCpuMs.toFixed(0)} ms`.padStart(8)}  ${r.ratio.toFixed(2)}× node -e 0`)
  const checks = rows.slice(1, Object.keys(cases).length).map((r) => ({what: `${r.name} <= ${TARGET}× node -e 0`, ok: r.ratio <= TARGET, value: `${r.ratio.toFixed(2)}×`}))
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.what}: ${c.value}`)
  mkdirSync(join(here, 'out'), {recursive: true})
  writeFileSync(join(here, 'out', 'startup-results.json'), `${JSON.stringify({date: new Date().toISOString(), node: process.version, runs: o.runs, rows, checks}, null, 2)}\n`)
} finally {
  await cp?.stop()
}
