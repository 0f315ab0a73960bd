// Wall time and peak RSS of a command in its own process, for the benchmarks that compare kctl
// with a floor measured in the same run.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')

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
  const runs = Array.from({length: n}, () => measured(argv))
  return {seconds: Math.min(...runs.map((r) => r.seconds)), cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)), rssMiB: Math.max(...runs.map((r) => r.rssMiB))}
}

/**
 * `kctl plan -A -o json --now NOW -f file` against a process that only reads and JSON.parses the
 * same file (the floor), each the best of `repeat` runs: printed under `title`, and written with
 * `counts` to `outDir/<name>-results.json`.
 */
export function planAgainstJsonParse({name, file, repeat, now, counts, title, outDir}) {
  const floor = best(repeat, [join(here, 'cases', 'floor-json.mjs'), file])
  const plan = best(repeat, [join(root, 'bin/run.js'), 'plan', '-A', '-o', 'json', '--now', now, '-f', file])
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
  }
  writeFileSync(join(outDir, `${name}-results.json`), `${JSON.stringify(results, null, 2)}\n`)
  console.log(title)
  console.log(`  read + JSON.parse of the file (floor)  ${floor.seconds.toFixed(2)} s (CPU ${floor.cpuSeconds.toFixed(2)} s), peak RSS ${floor.rssMiB.toFixed(0)} MiB`)
  console.log(
    `  kctl plan                             ${plan.seconds.toFixed(2)} s (${(plan.seconds / floor.seconds).toFixed(2)}× the floor; CPU ${plan.cpuSeconds.toFixed(2)} s, ${(plan.cpuSeconds / floor.cpuSeconds).toFixed(2)}×), peak RSS ${plan.rssMiB.toFixed(0)} MiB`,
  )
  return results
}
