// `npm run test:mutation`'s list and its own checks (scripts/mutation.mjs): the run itself takes an
// hour and stays out of `npm test`, but a list that no longer matches the code, or that leaves a
// controller without mutants, is caught here.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {MUTANTS} from '../mutation/mutants.mjs'
import {ROOT} from './cli/run-cli.js'

const run = (args: string[]) => spawnSync(process.execPath, ['scripts/mutation.mjs', ...args], {cwd: ROOT, encoding: 'utf8', timeout: 60_000})
const dir = mkdtempSync(join(tmpdir(), 'kctl-mutants-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** A list of one mutant written to a file, for --mutants. */
function list(name: string, mutants: object[]): string {
  const path = join(dir, `${name}.mjs`)
  writeFileSync(path, `export const MUTANTS = ${JSON.stringify(mutants)}\n`)
  return path
}
const good = {id: 'X01', file: 'controllers/statefulset/sync.ts', controller: 'statefulset', rule: 'S3.6', from: 'if (set.revisionHistoryLimit < 0) return', to: 'if (set.revisionHistoryLimit <= 0) return'}

describe('the mutant list', () => {
  it('--dry-run: every mutant\'s text is found exactly once in its file; the count per controller', () => {
    const r = run(['--dry-run'])
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^${MUTANTS.length} mutants, each found exactly once in its file\n`))
  })

  it('covers every controller folder with a descriptor with at least ten mutants', () => {
    const controllers = readdirSync(join(ROOT, 'src/controllers'), {withFileTypes: true})
      .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'src/controllers', d.name, 'index.ts')))
      .map((d) => d.name)
    expect(controllers.length).toBeGreaterThanOrEqual(7)
    const short = controllers.filter((c) => MUTANTS.filter((m) => m.controller === c).length < 10)
    expect(short).toEqual([])
  })

  it('ids are unique and every mutant names its rule and changes its text', () => {
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length)
    for (const m of MUTANTS) {
      expect(m.rule, m.id).toBeTruthy()
      expect(m.from, m.id).not.toBe(m.to)
    }
  })
})

describe('the run refuses an unsound list before copying anything (one line, exit 1)', () => {
  it('a list that matches is accepted', () => {
    const r = run(['--dry-run', '--mutants', list('good', [good])])
    expect([r.status, r.stdout]).toEqual([0, expect.stringMatching(/^1 mutants, each found exactly once/)])
  })
  it('a mutant whose text moved away', () => {
    const r = run(['--dry-run', '--mutants', list('stale', [{...good, from: 'if (set.revisionHistoryLimit < 1) return'}])])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe('error: mutant X01 (src/controllers/statefulset/sync.ts): its text occurs 0 times, expected once; update test/mutation/mutants.mjs\n')
    expect(r.stdout).toBe('')
  })
  it('a mutant whose file moved away', () => {
    const r = run(['--dry-run', '--mutants', list('moved', [{...good, file: 'reconcile/statefulset.ts'}])])
    expect([r.status, r.stderr]).toEqual([1, 'error: mutant X01: src/reconcile/statefulset.ts does not exist; update test/mutation/mutants.mjs\n'])
  })
  it('text found twice', () => {
    const r = run(['--dry-run', '--mutants', list('twice', [{...good, from: 'return'}])])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^error: mutant X01 \(src\/controllers\/statefulset\/sync.ts\): its text occurs \d+ times, expected once/)
  })
  it('an id used twice, and a controller that is not one', () => {
    expect(run(['--dry-run', '--mutants', list('dup', [good, good])]).stderr).toBe('error: mutant id X01 is used twice; ids must be unique\n')
    expect(run(['--dry-run', '--mutants', list('who', [{...good, controller: 'autoscaler'}])]).stderr).toMatch(/^error: mutant X01: controller 'autoscaler' is not one of shared, replicaset/)
  })
  it('--only with an id the list lacks', () => {
    const r = run(['--dry-run', '--only', 'NOPE'])
    expect([r.status, r.stderr]).toEqual([1, 'error: --only: no mutant NOPE\n'])
  })
})
