// Start-up: `kctl --help` and `kctl plan -f examples/scale-down -o json`, each against a bare
// `node -e 0` measured side by side in the same run (the runs interleaved, so load on the machine
// weighs on all three alike). Medians of --runs N processes each. Target: at most 2× `node -e 0`.
// kctl runs through V8's code cache (src/cli/script-cache.ts), here in a directory of the bench's
// own, filled by the warm-up runs; the first run on a machine, with no cache yet, is shown apart
// (a fresh cache directory for each of its runs), for information.
//
//   npm run bench:startup          (builds first)
//   node bench/startup.mjs [--runs N]
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const TARGET = 2

function args() {
  const o = {runs: 21}
  const a = process.argv.slice(2)
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--runs') o.runs = Number(a[++i])
    else throw new Error(`unknown argument ${a[i]}`)
  }
  return o
}

const cases = {
  'node -e 0': ['-e', '0'],
  'kctl --help': [join(root, 'bin/run.js'), '--help'],
  'kctl plan -f examples/scale-down -o json': [join(root, 'bin/run.js'), 'plan', '-f', join(root, 'examples/scale-down'), '-o', 'json'],
}

const cacheDir = mkdtempSync(join(tmpdir(), 'kctl-startup-'))
process.on('exit', () => rmSync(cacheDir, {recursive: true, force: true}))

function timed(argv, cache = cacheDir) {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, argv, {cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, KCTL_CACHE_DIR: cache}})
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited with ${r.status}: ${r.stderr}`)
  return Number(process.hrtime.bigint() - t0) / 1e6
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

const o = args()
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]))
for (const argv of Object.values(cases)) timed(argv) // warm the file cache
const firstRun = (argv) => {
  const fresh = mkdtempSync(join(cacheDir, 'first-'))
  return timed(argv, fresh)
}
const coldCases = Object.entries(cases).slice(1).map(([name, argv]) => [`${name}, first run`, argv])
for (const [name] of coldCases) times[name] = []
for (let i = 0; i < o.runs; i++) {
  for (const [name, argv] of Object.entries(cases)) times[name].push(timed(argv))
  for (const [name, argv] of coldCases) times[name].push(firstRun(argv))
}
const bare = median(times['node -e 0'])
const rows = Object.entries(times).map(([name, t]) => ({name, medianMs: median(t), ratio: median(t) / bare}))
console.log(`start-up, medians of ${o.runs} runs each, interleaved:`)
for (const r of rows) console.log(`  ${r.name.padEnd(53)} ${r.medianMs.toFixed(0).padStart(5)} ms  ${r.ratio.toFixed(2)}× node -e 0`)
const checks = rows.slice(1, Object.keys(cases).length).map((r) => ({what: `${r.name} <= ${TARGET}× node -e 0`, ok: r.ratio <= TARGET, value: `${r.ratio.toFixed(2)}×`}))
for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.what}: ${c.value}`)
mkdirSync(join(here, 'out'), {recursive: true})
writeFileSync(join(here, 'out', 'startup-results.json'), `${JSON.stringify({date: new Date().toISOString(), node: process.version, runs: o.runs, rows, checks}, null, 2)}\n`)
