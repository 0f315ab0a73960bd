// npm run test:mutation — applies each mutant of test/mutation/mutants.mjs to a copy of the
// repository, one at a time, and reports which were killed (a test failed) and which survived,
// with a score per controller. The working tree is never touched.
//
// The copy is the working tree without node_modules, dist and anything git ignores, so a fresh
// clone after `npm ci` runs it as is: the copy is built once (the tests that spawn `bin/run.js`
// need dist/). A mutant runs its own controller's tests first, then all the planners' tests (they
// import the mutated sources); one they let through is built into the copy and the whole unit
// suite runs against it, so a bug that only a simulation, executor or CLI test catches counts as
// killed. The clean build is put back afterwards.
//   node scripts/mutation.mjs [--only R01,D05] [--list] [--dry-run] [--mutants FILE]
//   --dry-run  checks the list only (ids unique, every controller named, every mutant's text
//              found exactly once in its file) and prints the count per controller
import {spawnSync} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The tests that exercise the planners directly (they see the mutated source without a build). */
const FIRST = ['test/unit/reconcile', 'test/unit/controllers', 'test/unit/watch/incremental.test.ts']
/** Tried before FIRST: the tests of the mutant's own group, where most mutants die in seconds. */
const OWN = (group) => (group === 'shared' ? ['test/unit/reconcile'] : [`test/unit/controllers/${group}`])
/** Left out of the whole-suite run: it checks this list against the sources, which a mutant changes. */
const NOT_IN_SUITE = 'test/unit/mutation.test.ts'
/** A mutant that makes the tests loop past this counts as killed (a timeout). */
const FIRST_TIMEOUT_MS = 300_000
const SUITE_TIMEOUT_MS = 2_400_000
/** The groups a mutant belongs to: each controller kctl plans, and the machinery they share. */
export const GROUPS = ['shared', 'replicaset', 'deployment', 'daemonset', 'statefulset', 'job', 'cronjob', 'service', 'hpa']

function fail(message) {
  console.error(`error: ${message}`)
  process.exit(1)
}

const args = process.argv.slice(2)
const value = (flag) => {
  const i = args.indexOf(flag)
  if (i < 0) return undefined
  if (args[i + 1] === undefined || args[i + 1].startsWith('--')) fail(`${flag} needs a value`)
  return args[i + 1]
}
const listFile = value('--mutants')
const onlyText = value('--only')
const {MUTANTS} = await import(listFile ? pathToFileURL(resolve(listFile)).href : '../test/mutation/mutants.mjs').catch((e) =>
  fail(`cannot read the mutant list: ${e.message.split('\n')[0]}`),
)

// The list must be sound before anything runs: a stale entry would score nothing.
const seen = new Set()
for (const m of MUTANTS) {
  if (seen.has(m.id)) fail(`mutant id ${m.id} is used twice; ids must be unique`)
  seen.add(m.id)
  if (!GROUPS.includes(m.controller)) fail(`mutant ${m.id}: controller '${m.controller}' is not one of ${GROUPS.join(', ')}`)
  if (!m.rule) fail(`mutant ${m.id}: it needs the rule it breaks`)
  if (m.from === m.to) fail(`mutant ${m.id}: its text does not change anything`)
  const path = join(ROOT, 'src', m.file)
  if (!existsSync(path)) fail(`mutant ${m.id}: src/${m.file} does not exist; update test/mutation/mutants.mjs`)
  const hits = readFileSync(path, 'utf8').split(m.from).length - 1
  if (hits !== 1) fail(`mutant ${m.id} (src/${m.file}): its text occurs ${hits} times, expected once; update test/mutation/mutants.mjs`)
}
const only = onlyText ? new Set(onlyText.split(',')) : undefined
for (const id of only ?? []) if (!seen.has(id)) fail(`--only: no mutant ${id}`)
const mutants = MUTANTS.filter((m) => !only || only.has(m.id))

if (args.includes('--list')) {
  for (const m of mutants) console.log(`${m.id.padEnd(5)} ${m.controller.padEnd(11)} ${m.file}  ${m.rule}`)
  process.exit(0)
}
if (args.includes('--dry-run')) {
  console.log(`${mutants.length} mutants, each found exactly once in its file`)
  for (const g of GROUPS) console.log(`  ${g.padEnd(11)} ${mutants.filter((m) => m.controller === g).length}`)
  process.exit(0)
}

const work = mkdtempSync(join(tmpdir(), 'kctl-mutation-'))
const cleanUp = () => rmSync(work, {recursive: true, force: true})
// process.exit (a failed baseline) skips `finally`: the copy goes on every way out.
process.on('exit', cleanUp)
process.on('SIGINT', () => {
  cleanUp()
  process.exit(130)
})
process.on('SIGTERM', () => {
  cleanUp()
  process.exit(143)
})

// What a clone holds: the files git tracks or would track (untracked new tests included), or,
// outside git, everything but what is built or installed.
const TOP_SKIP = new Set(['.git', 'node_modules', 'dist', 'coverage', '.kctl-cache'])
function copyTree() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: ROOT, encoding: 'utf8'})
  if (listed.status === 0) {
    for (const file of listed.stdout.split('\0').filter(Boolean)) {
      if (!TOP_SKIP.has(file.split('/')[0]) && existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(work, file), {recursive: true})
    }
  } else {
    cpSync(ROOT, work, {recursive: true, filter: (src) => !TOP_SKIP.has(src.slice(ROOT.length).split('/')[0])})
  }
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir')
  // Some tests list the tracked files (git ls-files): the copy is a repository with everything staged.
  spawnSync('git', ['init', '-q'], {cwd: work})
  writeFileSync(join(work, '.git/info/exclude'), 'node_modules\ndist\n.dist-clean\n')
  spawnSync('git', ['add', '-A'], {cwd: work})
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
function build() {
  const run = spawnSync(npm, ['run', 'build'], {cwd: work, encoding: 'utf8', env: {...process.env, FORCE_COLOR: '0'}})
  return {ok: run.status === 0, output: run.stdout + run.stderr}
}

function runTests(tests, timeout) {
  const started = Date.now()
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'unit', '--bail', '1', '--reporter', 'dot', ...tests], {
    cwd: work,
    encoding: 'utf8',
    timeout,
    maxBuffer: 256 * 1024 * 1024,
    env: {...process.env, FORCE_COLOR: '0', UPDATE_GOLDEN: undefined},
  })
  const output = (run.stdout ?? '') + (run.stderr ?? '')
  // A mutant that does not even load would "kill" every test: that is a broken list entry, not a kill.
  const broken = /Transform failed|SyntaxError|Failed to load url|Cannot find module/.test(output)
  return {ok: run.status === 0, broken, timedOut: run.error?.code === 'ETIMEDOUT', seconds: (Date.now() - started) / 1000, output}
}

const SUITE = ['--exclude', NOT_IN_SUITE]
const cleanDist = join(work, '.dist-clean')
let suiteChecked = false
/**
 * The whole unit suite against the copy built with the mutant; the clean build is put back after.
 * The first time, the suite runs once on the clean copy (the mutant's file restored meanwhile).
 */
function runSuite(path, original, mutated) {
  if (!suiteChecked) {
    writeFileSync(path, original)
    const baseline = runTests(SUITE, SUITE_TIMEOUT_MS)
    if (!baseline.ok) fail(`the whole unit suite fails without any mutant; fix it first\n${baseline.output}`)
    console.log(`  (the whole unit suite passes without a mutant in ${baseline.seconds.toFixed(1)} s)`)
    suiteChecked = true
    writeFileSync(path, mutated)
  }
  const started = Date.now()
  const built = build()
  let r
  if (!built.ok) r = {ok: false, broken: true, timedOut: false, output: built.output}
  else r = runTests(SUITE, SUITE_TIMEOUT_MS)
  rmSync(join(work, 'dist'), {recursive: true, force: true})
  cpSync(cleanDist, join(work, 'dist'), {recursive: true})
  return {...r, seconds: (Date.now() - started) / 1000}
}

try {
  copyTree()
  const built = build()
  if (!built.ok) fail(`the copy does not build\n${built.output}`)
  cpSync(join(work, 'dist'), cleanDist, {recursive: true})
  const baseline = runTests(FIRST, FIRST_TIMEOUT_MS)
  if (!baseline.ok) fail(`the unit tests fail without any mutant; fix them first\n${baseline.output}`)
  console.log(`baseline: ${FIRST.join(' ')} pass in ${baseline.seconds.toFixed(1)} s; ${mutants.length} mutants\n`)
  const results = []
  const started = Date.now()
  for (const m of mutants) {
    const path = join(work, 'src', m.file)
    const original = readFileSync(path, 'utf8')
    const mutated = original.replace(m.from, () => m.to)
    writeFileSync(path, mutated)
    const own = OWN(m.controller).filter((t) => existsSync(join(work, t)))
    let r = own.length > 0 ? runTests(own, FIRST_TIMEOUT_MS) : {ok: true}
    let by = 'own tests'
    if (r.ok) {
      r = runTests(FIRST, FIRST_TIMEOUT_MS)
      by = 'planner tests'
    }
    if (r.ok) {
      r = runSuite(path, original, mutated)
      by = 'whole suite'
    }
    writeFileSync(path, original)
    const verdict = r.ok ? 'SURVIVED' : r.broken ? 'BROKEN MUTANT' : r.timedOut ? `killed (timeout, ${by})` : `killed (${by})`
    results.push({m, killed: !r.ok && !r.broken, broken: r.broken && !r.ok, survived: r.ok})
    console.log(`${m.id.padEnd(5)} ${verdict.padEnd(26)} ${r.seconds.toFixed(1).padStart(6)} s  ${m.controller}  ${m.file}: ${m.rule}`)
  }
  const killed = results.filter((x) => x.killed).length
  const score = results.length === 0 ? 100 : (100 * killed) / results.length
  console.log(`\nmutation score: ${killed} of ${results.length} killed (${score.toFixed(1)}%) in ${((Date.now() - started) / 60000).toFixed(1)} min`)
  for (const g of GROUPS) {
    const mine = results.filter((x) => x.m.controller === g)
    if (mine.length > 0) console.log(`  ${g.padEnd(11)} ${mine.filter((x) => x.killed).length} of ${mine.length}`)
  }
  for (const {m} of results.filter((x) => x.survived)) console.log(`  survived ${m.id} ${m.file}: ${m.rule}\n    - ${m.from.trim()}\n    + ${m.to.trim()}`)
  const broken = results.filter((x) => x.broken).map((x) => x.m.id)
  if (broken.length > 0) {
    console.error(`error: ${broken.join(', ')} do not load or build (not counted as killed); fix them in test/mutation/mutants.mjs`)
    process.exitCode = 1
  }
} finally {
  cleanUp()
}
