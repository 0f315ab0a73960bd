// Wall time and peak RSS of a command in its own process, for the benchmarks that compare kctl
// with a floor measured in the same run.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')

/** CPU seconds (user + system) of this process's reaped children so far: /proc/self/stat cutime + cstime. */
export function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[13]) + Number(f[14])) / 100
  } catch {
    return Number.NaN
  }
}

/** Wall time, CPU time (user and system) and peak RSS (MiB) of `node argv...` in its own process. */
export function measured(argv) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-bench-'))
  const rssFile = join(dir, 'rss')
  const cpuFile = join(dir, 'cpu')
  const env = {...process.env, KCTL_BENCH_RSS_FILE: rssFile, KCTL_BENCH_CPU_FILE: cpuFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(join(here, 'rss-probe.mjs')).href}`.trim()}
  const t0 = process.hrtime.bigint()
  execFileSync(process.execPath, argv, {cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30})
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  const rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024
  const cpuSeconds = Number(readFileSync(cpuFile, 'utf8'))
  rmSync(dir, {recursive: true, force: true})
  return {seconds, cpuSeconds, rssMiB}
}

/** Wall time of `node argv...` in its own process; its stdout is kept in `stdoutFile` when one is named. */
export function timed(argv, stdoutFile) {
  const t0 = process.hrtime.bigint()
  const stdout = execFileSync(process.execPath, argv, {cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30})
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  if (stdoutFile) writeFileSync(stdoutFile, stdout)
  return seconds
}

/** The lowest of n results of `fn`. */
export const fastest = (n, fn) => Math.min(...Array.from({length: n}, fn))

/** The fastest of n runs (wall and CPU time apart), with the highest peak RSS of all of them. */
export function best(n, argv) {
  return bestOf(Array.from({length: n}, () => measured(argv)))
}

/**
 * `kctl plan -A -o json --now NOW -f file` against a process that only reads and JSON.parses the
 * same file (the floor), each the best of `repeat` runs, taken in turn so that a change in the
 * machine's load touches both: printed under `title` with the ratios (CPU, wall, peak RSS) and the
 * load average, and written with `counts` to `outDir/<name>-results.json`. With KCTL_BENCH_BASE
 * set to another built tree (a checkout of main), its plan is measured in the same turns and
 * printed beside.
 */
export function planAgainstJsonParse({name, file, repeat, now, counts, title, outDir}) {
  const planArgs = (tree) => [join(tree, 'bin/run.js'), 'plan', '-A', '-o', 'json', '--now', now, '-f', file]
  const baseTree = process.env.KCTL_BENCH_BASE ? resolve(process.env.KCTL_BENCH_BASE) : undefined
  const runs = {floor: [], plan: [], base: []}
  const loadBefore = loadavg()
  for (let i = 0; i < repeat; i++) {
    runs.floor.push(measured([join(here, 'cases', 'floor-json.mjs'), file]))
    runs.plan.push(measured(planArgs(root)))
    if (baseTree) runs.base.push(measured(planArgs(baseTree)))
  }
  const loadAfter = loadavg()
  const floor = bestOf(runs.floor)
  const plan = bestOf(runs.plan)
  const base = baseTree ? bestOf(runs.base) : undefined
  const results = {
    ...counts,
    jsonParseSeconds: floor.seconds,
    planSeconds: plan.seconds,
    planVsJsonParse: plan.seconds / floor.seconds,
    jsonParseCpuSeconds: floor.cpuSeconds,
    planCpuSeconds: plan.cpuSeconds,
    planVsJsonParseCpu: plan.cpuSeconds / floor.cpuSeconds,
    planPeakRssMiB: plan.rssMiB,
    jsonParsePeakRssMiB: floor.rssMiB,
    planVsJsonParseRss: plan.rssMiB / floor.rssMiB,
    loadAverage: {before: loadBefore, after: loadAfter},
    ...(base ? {baseCpuSeconds: base.cpuSeconds, baseVsJsonParseCpu: base.cpuSeconds / floor.cpuSeconds, basePeakRssMiB: base.rssMiB, baseVsJsonParseRss: base.rssMiB / floor.rssMiB} : {}),
  }
  writeFileSync(join(outDir, `${name}-results.json`), `${JSON.stringify(results, null, 2)}\n`)
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ')
  const line = (label, r) =>
    `  ${label.padEnd(38)}${r.seconds.toFixed(2)} s (CPU ${r.cpuSeconds.toFixed(2)} s), peak RSS ${r.rssMiB.toFixed(0)} MiB; vs the floor: CPU ${(r.cpuSeconds / floor.cpuSeconds).toFixed(2)}×, wall ${(r.seconds / floor.seconds).toFixed(2)}×, peak RSS ${(r.rssMiB / floor.rssMiB).toFixed(2)}×`
  console.log(title)
  console.log(`  load average ${load(loadBefore)} before, ${load(loadAfter)} after; best of ${repeat}, taken in turn`)
  console.log(`  ${'read + JSON.parse of the file (floor)'.padEnd(38)}${floor.seconds.toFixed(2)} s (CPU ${floor.cpuSeconds.toFixed(2)} s), peak RSS ${floor.rssMiB.toFixed(0)} MiB`)
  console.log(line('kctl plan', plan))
  if (base) console.log(line(`kctl plan (${process.env.KCTL_BENCH_BASE})`, base))
  return results
}

const bestOf = (runs) => ({seconds: Math.min(...runs.map((r) => r.seconds)), cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)), rssMiB: Math.max(...runs.map((r) => r.rssMiB))})
