// kctl's input benchmark: `kctl plan -o json` on 10,000 ReplicaSets and 150,000 pods, as YAML and
// as JSON, next to floors measured in the same run on the same files:
//   - JSON.parse of the JSON file alone (target: kctl plan at >= 50% of its throughput);
//   - the `yaml` package parsing the YAML alone (kctl's target on YAML: >= 20 MB/s);
//   - js-yaml 4 loadAll, for reference;
//   - the same objects as hand-written YAML (comments, flow maps, block scalars: the general YAML
//     path), planned and parsed by the floor, reported beside kubectl-style YAML;
// and the peak RSS of each process (target: <= 1 GiB). Every case runs in its own process; RSS is
// the process's own getrusage maximum, recorded at exit.
//
//   npm run bench                       (builds first; generates bench/out/ on the first run)
//   node bench/run.mjs [--repeat N] [--only yaml|yaml-styled|json] [--skip-floors] [--replicasets N --pods N]
// Results: a table on stdout and bench/out/results.json.
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {DEFAULTS, generate} from './generate.mjs'

const here = dirname(fileURLToPath(import.meta.url))
// The built CLI to measure: this checkout, or another tree with bin/ and dist/ (KCTL_BENCH_ROOT).
const root = resolve(process.env.KCTL_BENCH_ROOT ?? resolve(here, '..'))
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

const TARGETS = {yamlMBps: 20, jsonRatio: 0.5, rssMiB: 1024}

function parseArgs(argv) {
  const opts = {repeat: 1, only: undefined, floors: true, replicaSets: DEFAULTS.replicaSets, pods: DEFAULTS.pods}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--repeat') opts.repeat = Number(argv[++i])
    else if (a === '--only') opts.only = argv[++i]
    else if (a === '--skip-floors') opts.floors = false
    else if (a === '--replicasets') opts.replicaSets = Number(argv[++i])
    else if (a === '--pods') opts.pods = Number(argv[++i])
    else throw new Error(`unknown argument ${a}`)
  }
  return opts
}

async function ensureData(opts) {
  const manifestPath = join(out, 'manifest.json')
  // The generator's own text is part of the input's identity: a changed generator makes new files.
  const generator = createHash('sha256').update(readFileSync(join(here, 'generate.mjs'))).digest('hex').slice(0, 16)
  const want = {...DEFAULTS, replicaSets: opts.replicaSets, pods: opts.pods, generator}
  if (existsSync(manifestPath) && ['bench.yaml', 'bench-styled.yaml', 'bench.json'].every((f) => existsSync(join(out, f)))) {
    const have = JSON.parse(readFileSync(manifestPath, 'utf8')).params
    if (have.replicaSets === want.replicaSets && have.pods === want.pods && have.seed === want.seed && have.generator === want.generator) return
  }
  process.stderr.write(`generating ${want.replicaSets} ReplicaSets and ${want.pods} pods into ${out} ...\n`)
  await generate({out, replicaSets: want.replicaSets, pods: want.pods, seed: want.seed, generator})
}

/** Runs `node args...` in its own process; wall time, CPU time, peak RSS, stdout size, last JSON line. */
function measure(args, {stdoutToNull = false} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-bench-'))
  const rssFile = join(dir, 'rss')
  const env = {
    ...process.env,
    KCTL_BENCH_RSS_FILE: rssFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(join(here, 'rss-probe.mjs')).href}`.trim(),
  }
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, args, {cwd: root, env: {...env, KCTL_BENCH_ROOT: root}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdoutBytes = 0
    let tail = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdoutBytes += d.length
      if (!stdoutToNull) tail = (tail + d.toString()).slice(-4096)
    })
    child.stderr.on('data', (d) => (stderr = (stderr + d.toString()).slice(-4096)))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      let rssKiB
      try {
        rssKiB = Number(readFileSync(rssFile, 'utf8'))
      } catch {
        rssKiB = undefined
      }
      rmSync(dir, {recursive: true, force: true})
      if (code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited with ${code ?? signal}:\n${stderr}`))
        return
      }
      let inner
      const lastLine = tail.trim().split('\n').pop()
      try {
        inner = stdoutToNull ? undefined : JSON.parse(lastLine)
      } catch {
        inner = undefined
      }
      resolvePromise({wall, rssMiB: rssKiB === undefined ? undefined : rssKiB / 1024, stdoutBytes, inner})
    })
  })
}

/** The fastest of n runs, with the highest peak RSS of all of them (the memory limit holds for every run). */
async function best(n, fn) {
  let bestRun
  let peak = 0
  for (let i = 0; i < n; i++) {
    const r = await fn()
    peak = Math.max(peak, r.peakRssMiB ?? 0)
    if (!bestRun || r.seconds < bestRun.seconds) bestRun = r
  }
  return {...bestRun, peakRssMiB: peak}
}

const MB = 1e6
const fmt = (n, d = 2) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(d))

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  await ensureData(opts)
  const files = {yaml: join(out, 'bench.yaml'), 'yaml-styled': join(out, 'bench-styled.yaml'), json: join(out, 'bench.json')}
  const size = Object.fromEntries(Object.entries(files).map(([format, file]) => [format, statSync(file).size]))
  const haveFixtures = existsSync(join(root, 'dist/sources/fixtures.js'))
  const havePlan = existsSync(join(root, 'dist/commands/plan.js'))
  if (!haveFixtures) throw new Error('dist/sources/fixtures.js is missing: run `npm run build` first')
  const formats = opts.only ? [opts.only] : ['yaml', 'yaml-styled', 'json']
  const rows = []

  const add = (row) => {
    rows.push(row)
    process.stderr.write(`  ${row.name}: ${fmt(row.seconds)} s, ${fmt(row.mbps, 1)} MB/s, peak RSS ${fmt(row.peakRssMiB, 0)} MiB\n`)
  }

  for (const format of formats) {
    const file = files[format]
    const mb = size[format] / MB
    if (opts.floors) {
      const floorCase = format === 'json' ? 'floor-json.mjs' : 'floor-yaml.mjs'
      const label = format === 'json' ? 'JSON.parse (floor)' : 'yaml Parser+Composer (floor)'
      const r = await best(opts.repeat, async () => {
        const m = await measure([join(here, 'cases', floorCase), file])
        return {seconds: m.inner.ms / 1000, peakRssMiB: m.rssMiB}
      })
      add({format, name: label, kind: 'floor', sizeMB: mb, ...r, mbps: mb / r.seconds})
      if (format === 'yaml') {
        const j = await best(opts.repeat, async () => {
          const m = await measure([join(here, 'cases', 'floor-jsyaml.mjs'), file])
          return {seconds: m.inner.ms / 1000, peakRssMiB: m.rssMiB}
        })
        add({format, name: 'js-yaml loadAll (reference)', kind: 'reference', sizeMB: mb, ...j, mbps: mb / j.seconds})
      }
    }
    const rf = await best(opts.repeat, async () => {
      const m = await measure([join(here, 'cases', 'read-fixtures.mjs'), file])
      return {seconds: m.inner.ms / 1000, peakRssMiB: m.rssMiB}
    })
    add({format, name: 'kctl readFixtures (in process)', kind: 'kctl', sizeMB: mb, ...rf, mbps: mb / rf.seconds})
    if (havePlan) {
      const p = await best(opts.repeat, async () => {
        const m = await measure([join(root, 'bin/run.js'), 'plan', '-o', 'json', '--now', NOW, '-f', file], {stdoutToNull: true})
        return {seconds: m.wall, peakRssMiB: m.rssMiB, stdoutBytes: m.stdoutBytes}
      })
      add({format, name: 'kctl plan -o json (whole process)', kind: 'kctl-plan', sizeMB: mb, ...p, mbps: mb / p.seconds})
    }
  }

  // Ratios against the floors of the same format.
  const floorOf = (format) => rows.find((r) => r.format === format && r.kind === 'floor')
  for (const r of rows) {
    const floor = floorOf(r.format)
    r.vsFloor = floor && r !== floor ? r.mbps / floor.mbps : undefined
  }

  const checks = []
  for (const r of rows.filter((x) => x.kind === 'kctl-plan' || (!havePlan && x.kind === 'kctl'))) {
    if (r.format === 'yaml') checks.push({what: `YAML ${r.name} >= ${TARGETS.yamlMBps} MB/s`, ok: r.mbps >= TARGETS.yamlMBps, value: `${fmt(r.mbps, 1)} MB/s`})
    if (r.format === 'json' && r.vsFloor !== undefined) {
      checks.push({what: `JSON ${r.name} >= ${TARGETS.jsonRatio * 100}% of JSON.parse`, ok: r.vsFloor >= TARGETS.jsonRatio, value: `${fmt(r.vsFloor * 100, 0)}%`})
    }
    checks.push({what: `${r.format.toUpperCase()} ${r.name} peak RSS <= ${TARGETS.rssMiB} MiB`, ok: (r.peakRssMiB ?? Infinity) <= TARGETS.rssMiB, value: `${fmt(r.peakRssMiB, 0)} MiB`})
  }

  const header = ['format', 'case', 'size MB', 'time s', 'MB/s', 'vs floor', 'peak RSS MiB']
  const table = rows.map((r) => [r.format, r.name, fmt(r.sizeMB, 1), fmt(r.seconds), fmt(r.mbps, 1), r.vsFloor === undefined ? '' : `${fmt(r.vsFloor, 2)}x`, fmt(r.peakRssMiB, 0)])
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)))
  const line = (cells) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of table) console.log(line(row))
  console.log('')
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.what}: ${c.value}`)
  // Hand-written YAML beside kubectl's: the same objects, through the general YAML path.
  const styled = {}
  for (const kind of ['kctl-plan', 'floor']) {
    const a = rows.find((r) => r.format === 'yaml-styled' && r.kind === kind)
    const b = rows.find((r) => r.format === 'yaml' && r.kind === kind)
    if (a && b) styled[kind] = a.mbps / b.mbps
  }
  if (styled['kctl-plan'] !== undefined) {
    const a = rows.find((r) => r.format === 'yaml-styled' && r.kind === 'kctl-plan')
    console.log(`hand-written YAML (comments, flow maps, block scalars): kctl plan ${fmt(a.mbps, 1)} MB/s, ${fmt(styled['kctl-plan'])}x its speed on kubectl-style YAML` +
      (styled.floor === undefined ? '' : `; the yaml package ${fmt(styled.floor)}x`))
  }
  if (!havePlan) console.log('note: dist/commands/plan.js not found; only the reader was measured')

  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    data: {...manifest, yamlBytes: size.yaml, styledYamlBytes: size['yaml-styled'], jsonBytes: size.json},
    styledVsKubectlStyle: styled,
    targets: TARGETS,
    rows,
    checks,
  }
  writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 2) + '\n')
  console.log(`\nwrote ${join(out, 'results.json')}`)
}

await main()
