// kctl check's benchmark: 50,000 generated resources (10,000 applications of 5 resources, one file
// each, in 50 namespaces; see check-generate.mjs) checked by `kctl check`, with wall time, CPU time
// and peak RSS; and, when they are installed, the same files through kubeconform and kube-linter in
// the same run, as a ratio. Every tool runs in its own process under GNU time (/usr/bin/time), so
// all are measured the same way (peak RSS = the process's maximum resident set).
//
//   npm run build && [KCTL_BENCH_BASE=<checkout>] node bench/check.mjs [--apps N] [--repeat N] [--clean] [--no-shapes] [--schemas DIR] [--kubeconform BIN] [--kube-linter BIN]
// (--clean: the same input without the injected mistakes, in bench/out/check-clean; --no-shapes: the
// main input only.)
// Also two shapes that once made check quadratic (10,000 Deployments sharing a label; 5,000 copies
// of one object), reported in seconds per thousand objects against the main input's rate ("/k").
//
// kubeconform needs Kubernetes JSON schemas, which it would download from GitHub; offline, give it
// the ones the PyPI package kubernetes-validate ships ("local-strict" schemas, whose $refs point at
// a shared _definitions.json): this script turns the kinds the input uses into standalone schemas.
//   pip download --no-deps kubernetes-validate==1.37.0 -d /tmp/kv
//   unzip -q /tmp/kv/kubernetes_validate-*.whl 'kubernetes_validate/kubernetes-json-schema/v1.36.0-local-strict/*' -d /tmp/kv
//   node bench/check.mjs --schemas /tmp/kv/kubernetes_validate/kubernetes-json-schema/v1.36.0-local-strict
// Without --schemas, kubeconform is skipped (say so rather than compare against a run that
// validates nothing). kube-linter: `go install golang.stackrox.io/kube-linter/cmd/kube-linter@latest`.
// With KCTL_BENCH_BASE (another built checkout), its `kctl check` runs on the same input in the same
// alternation, its ratio to kubeconform is printed next to this tree's, and its JSON report must be
// byte-identical to this tree's (the run fails otherwise).
// Results: a table on stdout and bench/out/check/results.json.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {homedir, loadavg, tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {CHECK_DEFAULTS, GENERATOR_VERSION, generateCheckInput} from './check-generate.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(process.env.KCTL_BENCH_ROOT ?? resolve(here, '..'))
let out = join(here, 'out', 'check')

function parseArgs(argv) {
  const opts = {apps: CHECK_DEFAULTS.apps, repeat: 1, clean: false, shapes: true, schemas: undefined, kubeconform: undefined, kubeLinter: undefined}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--apps') opts.apps = Number(argv[++i])
    else if (a === '--repeat') opts.repeat = Number(argv[++i])
    else if (a === '--schemas') opts.schemas = argv[++i]
    else if (a === '--clean') opts.clean = true
    else if (a === '--no-shapes') opts.shapes = false
    else if (a === '--kubeconform') opts.kubeconform = argv[++i]
    else if (a === '--kube-linter') opts.kubeLinter = argv[++i]
    else throw new Error(`unknown argument ${a}`)
  }
  return opts
}

/** An executable on PATH or in ~/go/bin (where `go install` puts it). */
function findBinary(name, explicit) {
  if (explicit) return existsSync(explicit) ? explicit : undefined
  const which = spawnSync('sh', ['-c', `command -v ${name}`], {encoding: 'utf8'})
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim()
  const gobin = join(process.env.GOBIN ?? join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin'), name)
  return existsSync(gobin) ? gobin : undefined
}

function ensureData(apps, clean) {
  const manifestPath = join(out, 'manifest.json')
  if (existsSync(manifestPath)) {
    const have = JSON.parse(readFileSync(manifestPath, 'utf8'))
    if (have.params.apps === apps && have.params.seed === CHECK_DEFAULTS.seed && have.params.generator === GENERATOR_VERSION && Boolean(have.params.clean) === clean && existsSync(join(out, 'manifests'))) return have
  }
  process.stderr.write(`generating ${apps} applications (${apps * 5} resources${clean ? ', no faults' : ''}) into ${join(out, 'manifests')} ...\n`)
  mkdirSync(out, {recursive: true})
  return generateCheckInput({apps, clean, out})
}

/** Runs a command under GNU time: wall and CPU seconds, peak RSS (MiB), exit status, output. */
function measure(cmd, args, {cwd = root} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-check-bench-'))
  const timing = join(dir, 'time')
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', timing, cmd, ...args], {cwd, encoding: 'utf8', maxBuffer: 1 << 30})
  const [wall, user, sys, maxKiB] = readFileSync(timing, 'utf8').trim().split('\n').pop().split(' ').map(Number)
  rmSync(dir, {recursive: true, force: true})
  return {wall, cpu: user + sys, rssMiB: maxKiB / 1024, status: run.status, stdout: run.stdout, stderr: run.stderr}
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function repeat(n, fn) {
  const runs = Array.from({length: n}, fn)
  return {...runs[runs.length - 1], wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)), rssMiB: Math.max(...runs.map((r) => r.rssMiB)), runs: runs.map((r) => r.wall)}
}

// ---------------------------------------------------------------------------------------------
// kubeconform's schemas, offline

/** The kinds the generated input uses, as kubeconform names their schema files. */
const SCHEMA_FILES = ['deployment-apps-v1', 'service-v1', 'configmap-v1', 'serviceaccount-v1', 'horizontalpodautoscaler-autoscaling-v2']

/**
 * kubernetes-validate's "local-strict" schemas refer to `/api/_definitions.json#/$defs/X`; kubeconform
 * wants one file per kind. Each kind's schema gets the definitions it reaches, as local $defs.
 */
function standaloneSchemas(localDir) {
  const target = join(out, 'schemas')
  mkdirSync(target, {recursive: true})
  const defs = JSON.parse(readFileSync(join(localDir, '_definitions.json'), 'utf8')).$defs
  const PREFIX = '/api/_definitions.json#/$defs/'
  for (const name of SCHEMA_FILES) {
    const file = join(localDir, `${name}.json`)
    if (!existsSync(file)) throw new Error(`${file}: not found; --schemas must be a kubernetes-validate vX.Y.Z-local-strict directory`)
    const schema = JSON.parse(readFileSync(file, 'utf8'))
    delete schema.$id
    const needed = new Set()
    const walk = (v) => {
      if (Array.isArray(v)) return v.forEach(walk)
      if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          const local = typeof x === 'string' && x.startsWith('#/$defs/') ? '#/$defs/'.length : -1
          if (k === '$ref' && typeof x === 'string' && (x.startsWith(PREFIX) || local > 0)) {
            const id = x.slice(local > 0 ? local : PREFIX.length)
            if (!needed.has(id)) {
              needed.add(id)
              walk(defs[id])
            }
          } else walk(x)
        }
      }
    }
    walk(schema)
    schema.$defs = Object.fromEntries([...needed].sort().map((id) => [id, defs[id]]))
    writeFileSync(join(target, `${name}.json`), JSON.stringify(schema).split(PREFIX).join('#/$defs/'))
  }
  return target
}

// ---------------------------------------------------------------------------------------------

/** 10,000 Deployments that share one selector (app=web), and 5,000 copies of one Deployment, in one file each. */
function shapeInputs() {
  const dir = join(out, 'shapes')
  mkdirSync(dir, {recursive: true})
  const deployment = (name, i) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, instance: ${name}}}
    spec: {containers: [{name: web, image: registry.local/web:1.${i % 50}, ports: [{containerPort: 8080}]}]}
`
  const shapes = [
    {name: 'shared label', objects: 10_000, text: () => Array.from({length: 10_000}, (_, i) => deployment(`web-${i}`, i)).join('')},
    {name: 'copies', objects: 5_000, text: () => deployment('web', 0).repeat(5_000)},
  ]
  return shapes.map((s) => {
    const file = join(dir, `${s.name.replace(/ /g, '-')}.yaml`)
    writeFileSync(file, s.text())
    return {name: s.name, objects: s.objects, file}
  })
}

function main() {
  const opts = parseArgs(process.argv.slice(2))
  if (!existsSync(join(root, 'dist', 'commands', 'check.js'))) throw new Error('dist/ has no check command: run npm run build first')
  if (opts.clean) out = join(here, 'out', 'check-clean')
  const data = ensureData(opts.apps, opts.clean)
  const input = join(out, 'manifests')
  const mb = data.bytes / 1e6
  const rows = []
  const results = {input: data, machine: {node: process.version, cpus: (spawnSync('nproc', {encoding: 'utf8'}).stdout || '').trim()}, tools: {}}

  const report = join(out, 'report.json')
  const kubeconform = findBinary('kubeconform', opts.kubeconform)
  // kctl and kubeconform run in turn (kctl, kubeconform, kctl, …), so that the machine's load
  // weighs on both alike.
  const kubeconformArgs = kubeconform && opts.schemas ? ['-strict', '-summary', '-output', 'json', '-schema-location', `${standaloneSchemas(opts.schemas)}/{{ .ResourceKind }}{{ .KindSuffix }}.json`, input] : undefined
  const kubeconformRuns = []
  const baseTree = process.env.KCTL_BENCH_BASE ? resolve(process.env.KCTL_BENCH_BASE) : undefined
  const baseReport = join(out, 'report-base.json')
  const baseRuns = []
  const kctl = repeat(opts.repeat, () => {
    const run = measure(process.execPath, [join(root, 'bin', 'run.js'), 'check', '-f', input, '-o', `json=${report}`])
    if (kubeconformArgs) kubeconformRuns.push(measure(kubeconform, kubeconformArgs))
    if (baseTree) baseRuns.push(measure(process.execPath, [join(baseTree, 'bin', 'run.js'), 'check', '-f', input, '-o', `json=${baseReport}`]))
    return run
  })
  if (kctl.status !== 0 && kctl.status !== 3) throw new Error(`kctl check exited ${kctl.status}: ${kctl.stderr}`)
  let base
  if (baseTree) {
    let i = 0
    base = repeat(opts.repeat, () => baseRuns[i++])
    if (base.status !== kctl.status) throw new Error(`kctl check exited ${kctl.status}, the base's ${base.status}: ${base.stderr}`)
    if (readFileSync(baseReport, 'utf8') !== readFileSync(report, 'utf8')) throw new Error(`${report} and ${baseReport} differ`)
    results.tools.base = {tree: baseTree, wall: base.wall, cpu: base.cpu, rssMiB: base.rssMiB, runs: base.runs, exit: base.status}
  }
  const summary = JSON.parse(readFileSync(report, 'utf8')).summary
  const byRule = {}
  for (const f of JSON.parse(readFileSync(report, 'utf8')).findings) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1
  results.tools.kctl = {wall: kctl.wall, cpu: kctl.cpu, rssMiB: kctl.rssMiB, runs: kctl.runs, exit: kctl.status, objects: summary.objects, findings: byRule}
  rows.push(['kctl check', kctl, `${summary.objects} objects, ${summary.error + summary.warning + summary.info} findings`])
  if (base) rows.push(['kctl check (base)', base, `${baseTree}; same JSON report`])

  if (!kubeconform) {
    results.tools.kubeconform = {skipped: 'not installed (go install github.com/yannh/kubeconform/cmd/kubeconform@latest)'}
  } else if (!opts.schemas) {
    results.tools.kubeconform = {skipped: 'no schemas: kubeconform downloads them from GitHub, which is not reachable here; pass --schemas (see the header of this file)'}
  } else {
    let i = 0
    const run = repeat(opts.repeat, () => kubeconformRuns[i++])
    let summaryLine = ''
    try {
      const doc = JSON.parse(run.stdout)
      const s = doc.summary
      // Every object kubeconform rejects, and whether kctl reported it too (any rule).
      const flagged = new Set(JSON.parse(readFileSync(report, 'utf8')).findings.map((f) => `${f.file}|${f.kind}|${f.name}`))
      const rejected = (doc.resources ?? []).filter((r) => r.status !== 'statusValid' && r.status !== 'statusSkipped')
      // Both name a file as it was found under `input`.
      const missed = rejected.filter((r) => !flagged.has(`${r.filename}|${r.kind}|${r.name}`))
      summaryLine = `${s.valid} valid, ${s.invalid} invalid, ${s.errors} errors, ${s.skipped} skipped; kctl reports ${rejected.length - missed.length} of its ${rejected.length} rejected objects`
      results.tools.kubeconform = {wall: run.wall, cpu: run.cpu, rssMiB: run.rssMiB, runs: run.runs, exit: run.status, summary: s, rejected: rejected.length, missedByKctl: missed.map((r) => `${r.filename} ${r.kind}/${r.name}: ${r.msg}`).slice(0, 20)}
    } catch {
      results.tools.kubeconform = {wall: run.wall, cpu: run.cpu, rssMiB: run.rssMiB, runs: run.runs, exit: run.status, stderr: run.stderr.slice(0, 500)}
    }
    rows.push(['kubeconform -strict', run, summaryLine])
  }

  const kubeLinter = findBinary('kube-linter', opts.kubeLinter)
  if (!kubeLinter) {
    results.tools['kube-linter'] = {skipped: 'not installed (go install golang.stackrox.io/kube-linter/cmd/kube-linter@latest)'}
  } else {
    const run = repeat(opts.repeat, () => measure(kubeLinter, ['lint', '--format', 'json', input]))
    results.tools['kube-linter'] = {wall: run.wall, cpu: run.cpu, rssMiB: run.rssMiB, runs: run.runs, exit: run.status}
    rows.push(['kube-linter lint', run, ''])
  }

  // Shapes that once made check quadratic: many objects sharing one label, many copies of one
  // object. Each is timed like the main input and reported per thousand objects, next to the main
  // input's own rate in the same run.
  const shapes = opts.shapes ? shapeInputs() : []
  results.shapes = {}
  for (const shape of shapes) {
    const run = repeat(opts.repeat, () => measure(process.execPath, [join(root, 'bin', 'run.js'), 'check', '-f', shape.file, '-o', 'json']))
    if (run.status !== 0 && run.status !== 3) throw new Error(`kctl check (${shape.name}) exited ${run.status}: ${run.stderr}`)
    const findings = JSON.parse(run.stdout).findings.length
    results.shapes[shape.name] = {objects: shape.objects, wall: run.wall, cpu: run.cpu, rssMiB: run.rssMiB, findings, secondsPerThousand: run.wall / (shape.objects / 1000)}
    rows.push([`kctl check: ${shape.name}`, run, `${shape.objects} objects, ${findings} findings`])
  }

  const fmt = (n, d = 2) => n.toFixed(d)
  const lines = [
    `input: ${data.resources} resources in ${data.files} files, ${fmt(mb, 1)} MB (${Object.entries(data.faults).map(([k, v]) => `${v} ${k}`).join(', ') || 'no'} faults)`,
    `${'tool'.padEnd(22)}${'wall s'.padStart(8)}${'cpu s'.padStart(8)}${'RSS MiB'.padStart(9)}${'res/s'.padStart(9)}  ${'vs kctl'.padEnd(8)} notes`,
  ]
  const perThousand = kctl.wall / (summary.objects / 1000)
  for (const [name, r, note] of rows) {
    const shape = results.shapes[name.replace('kctl check: ', '')]
    const ratio = name === 'kctl check' ? '1.00' : shape ? `${fmt(shape.secondsPerThousand / perThousand)}/k` : fmt(r.wall / kctl.wall)
    lines.push(`${name.padEnd(22)}${fmt(r.wall).padStart(8)}${fmt(r.cpu).padStart(8)}${fmt(r.rssMiB, 0).padStart(9)}${fmt(data.resources / r.wall, 0).padStart(9)}  ${ratio.padEnd(8)} ${note}`)
  }
  for (const [name, t] of Object.entries(results.tools)) if (t.skipped) lines.push(`${name}: skipped: ${t.skipped}`)
  if (results.tools.kubeconform?.wall) {
    const kc = results.tools.kubeconform
    results.ratio = {kubeconformWallOverKctl: kc.wall / kctl.wall, kubeconformCpuOverKctl: kc.cpu / kctl.cpu, kubeconformRssOverKctl: kc.rssMiB / kctl.rssMiB}
    if (base) {
      results.ratio.kubeconformCpuOverBase = kc.cpu / base.cpu
      results.ratio.kubeconformWallOverBase = kc.wall / base.wall
      lines.push(`kubeconform -strict / base kctl check: CPU ${fmt(kc.cpu)} s / ${fmt(base.cpu)} s = ${fmt(results.ratio.kubeconformCpuOverBase)}×, wall ${fmt(results.ratio.kubeconformWallOverBase)}×`)
    }
    lines.push(
      `kubeconform -strict / kctl check: CPU ${fmt(kc.cpu)} s / ${fmt(kctl.cpu)} s = ${fmt(results.ratio.kubeconformCpuOverKctl)}×, wall ${fmt(kc.wall)} s / ${fmt(kctl.wall)} s = ${fmt(results.ratio.kubeconformWallOverKctl)}×, RSS ${fmt(results.ratio.kubeconformRssOverKctl)}×`,
    )
    // How kubeconform was run, so that the comparison can be judged: its default 4 workers, and each
    // kind's schema read from a local file and compiled on first use (kubeconform keeps them in memory).
    lines.push(`kubeconform ran with -strict, its default 4 workers, and local schemas (${SCHEMA_FILES.length} kinds, each read and compiled on first use, then kept in memory; no download)`)
  }
  results.machine.loadAverage = loadavg()
  lines.push(`load average ${loadavg().map((l) => fmt(l)).join(' ')} on ${results.machine.cpus} CPUs`)
  process.stdout.write(`${lines.join('\n')}\n`)
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
}

main()
