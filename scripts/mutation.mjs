// npm run test:mutation — applies each mutant of test/mutation/mutants.mjs to a copy of the
// repository, one at a time, runs the planners' unit tests against it, and reports which were
// killed (a test failed) and which survived, with a score. The working tree is never touched.
//   node scripts/mutation.mjs [--only R01,D05] [--list]
import {spawnSync} from 'node:child_process'
import {cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {MUTANTS} from '../test/mutation/mutants.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The unit tests that exercise the planners directly (no built CLI: they see the mutated source). */
const TESTS = ['test/unit/reconcile', 'test/unit/controllers', 'test/unit/watch/incremental.test.ts']
/** A mutant that makes the tests loop past this counts as killed (a timeout). */
const TIMEOUT_MS = 180_000

const args = process.argv.slice(2)
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined
const mutants = MUTANTS.filter((m) => !only || only.has(m.id))
if (args.includes('--list')) {
  for (const m of mutants) console.log(`${m.id}  ${m.file}  ${m.rule}`)
  process.exit(0)
}

// Every mutant must still match the code exactly once: a stale list would score nothing.
for (const m of mutants) {
  const text = readFileSync(join(ROOT, 'src', m.file), 'utf8')
  const hits = text.split(m.from).length - 1
  if (hits !== 1) {
    console.error(`error: mutant ${m.id} (${m.file}): its text occurs ${hits} times, expected once; update test/mutation/mutants.mjs`)
    process.exit(1)
  }
}

const work = mkdtempSync(join(tmpdir(), 'kctl-mutation-'))
const cleanUp = () => rmSync(work, {recursive: true, force: true})
process.on('SIGINT', () => {
  cleanUp()
  process.exit(130)
})
for (const entry of ['src', 'test', 'examples', 'package.json', 'tsconfig.json', 'vitest.config.ts']) cpSync(join(ROOT, entry), join(work, entry), {recursive: true})
symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir')

function runTests() {
  const started = Date.now()
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'unit', '--bail', '1', '--reporter', 'dot', ...TESTS], {
    cwd: work,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    env: {...process.env, FORCE_COLOR: '0'},
  })
  const output = run.stdout + run.stderr
  // A mutant that does not even load would "kill" every test: that is a broken list entry, not a kill.
  const broken = /Transform failed|SyntaxError|Failed to load url|Cannot find module/.test(output)
  return {ok: run.status === 0, broken, timedOut: run.error?.code === 'ETIMEDOUT', seconds: (Date.now() - started) / 1000, output}
}

try {
  const baseline = runTests()
  if (!baseline.ok) {
    console.error(`error: the unit tests fail without any mutant; fix them first\n${baseline.output}`)
    process.exit(1)
  }
  console.log(`baseline: ${TESTS.join(' ')} pass in ${baseline.seconds.toFixed(1)} s; ${mutants.length} mutants\n`)
  const survived = []
  const broken = []
  let killed = 0
  const started = Date.now()
  for (const m of mutants) {
    const path = join(work, 'src', m.file)
    const original = readFileSync(path, 'utf8')
    writeFileSync(path, original.replace(m.from, () => m.to))
    const r = runTests()
    writeFileSync(path, original)
    const verdict = r.ok ? 'SURVIVED' : r.broken ? 'BROKEN MUTANT' : r.timedOut ? 'killed (timeout)' : 'killed'
    if (r.ok) survived.push(m)
    else if (r.broken) broken.push(m)
    else killed++
    console.log(`${m.id.padEnd(4)} ${verdict.padEnd(16)} ${r.seconds.toFixed(1).padStart(5)} s  ${m.file}: ${m.rule}`)
  }
  const score = mutants.length === 0 ? 100 : (100 * killed) / mutants.length
  console.log(`\nmutation score: ${killed} of ${mutants.length} killed (${score.toFixed(1)}%) in ${((Date.now() - started) / 60000).toFixed(1)} min`)
  for (const m of survived) console.log(`  survived ${m.id} ${m.file}: ${m.rule}\n    - ${m.from.trim()}\n    + ${m.to.trim()}`)
  if (broken.length > 0) {
    console.error(`error: ${broken.map((m) => m.id).join(', ')} do not load (not counted as killed); fix them in test/mutation/mutants.mjs`)
    process.exitCode = 1
  }
} finally {
  cleanUp()
}
