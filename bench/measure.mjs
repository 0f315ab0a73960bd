// Wall time and peak RSS of a command in its own process, for the benchmarks that compare kctl
// with a floor measured in the same run.
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')

/** Wall time and peak RSS (MiB) of `node argv...` in its own process. */
export function measured(argv) {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-bench-'))
  const rssFile = join(dir, 'rss')
  const env = {...process.env, KCTL_BENCH_RSS_FILE: rssFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(join(here, 'rss-probe.mjs')).href}`.trim()}
  const t0 = process.hrtime.bigint()
  execFileSync(process.execPath, argv, {cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30})
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  const rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024
  rmSync(dir, {recursive: true, force: true})
  return {seconds, rssMiB}
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

/** The fastest of n runs, with the highest peak RSS of all of them. */
export function best(n, argv) {
  const runs = Array.from({length: n}, () => measured(argv))
  return {seconds: Math.min(...runs.map((r) => r.seconds)), rssMiB: Math.max(...runs.map((r) => r.rssMiB))}
}

