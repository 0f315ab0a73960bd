// 3,000 mutated manifests through `plan` and `check` (in process, the services the commands
// call), with a fixed seed: truncations, type swaps, duplicated and dropped lines, odd unicode,
// YAML anchors and aliases, nulls where values were. Whatever the input, the outcome is a plan, a
// report, or one UserError of one line — never another exception (an internal error), and never a
// hang (each run is bounded by the test's timeout).
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {UserError} from '../../src/errors.js'
import {runCheck} from '../../src/services/check.js'
import {computePlan} from '../../src/services/plan.js'

const SEED = 20261124
const COUNT = 3000

function corpus(): string[] {
  const dirs = ['examples', 'test/fixtures/check/rules', 'test/fixtures/check/showcase']
  const files: string[] = []
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, {withFileTypes: true})) {
      const full = join(dir, e.name)
      if (e.isDirectory()) walk(full)
      else if (/\.ya?ml$/.test(e.name)) files.push(full)
    }
  }
  for (const d of dirs) walk(d)
  return files.sort().map((f) => readFileSync(f, 'utf8'))
}

type Mutation = (text: string, rnd: () => number) => string

const pickIndex = (n: number, rnd: () => number) => Math.floor(rnd() * n)
const lines = (t: string) => t.split('\n')
const ODD = ['\u0000', '\u200b', '\ufeff', '\u202e', '\ud83d\ude00', 'é', '\t', '\r', '\u2028', '\\', '"', "'", '{', '[', '&', '*', '!', '%', '@', '`', '|', '>']

const MUTATIONS: Record<string, Mutation> = {
  truncate: (t, r) => t.slice(0, pickIndex(t.length + 1, r)),
  duplicateLine: (t, r) => {
    const ls = lines(t)
    const i = pickIndex(ls.length, r)
    ls.splice(i, 0, ls[i])
    return ls.join('\n')
  },
  dropLine: (t, r) => {
    const ls = lines(t)
    ls.splice(pickIndex(ls.length, r), 1)
    return ls.join('\n')
  },
  swapType: (t, r) => {
    // A scalar value becomes a list, a mapping, a number, a bool or null, or the other way round.
    const ls = lines(t)
    const i = pickIndex(ls.length, r)
    const m = /^(\s*(?:- )?[\w.\/-]+:)\s*(.*)$/.exec(ls[i])
    const replacement = ['[]', '{}', '[1, 2]', '{a: b}', '42', '-1', '1e400', 'true', 'null', '~', '""', '"x"', '0x1F', '2147483648'][pickIndex(14, r)]
    if (m) ls[i] = `${m[1]} ${replacement}`
    return ls.join('\n')
  },
  oddUnicode: (t, r) => {
    const at = pickIndex(t.length + 1, r)
    return t.slice(0, at) + ODD[pickIndex(ODD.length, r)] + t.slice(at)
  },
  anchors: (t, r) => {
    // An anchor on one value and aliases to it elsewhere (nested a few times: no exponential blow-up).
    const ls = lines(t)
    const i = pickIndex(ls.length, r)
    const m = /^(\s*[\w.\/-]+:)\s*(\S.*)?$/.exec(ls[i])
    if (!m) return t
    ls[i] = `${m[1]} &a ${m[2] ?? '{}'}`
    const j = pickIndex(ls.length, r)
    const n = /^(\s*[\w.\/-]+:)/.exec(ls[j])
    if (n && j > i) ls[j] = `${n[1]} *a`
    return `${ls.join('\n')}\n---\nx: &l0 [a, a]\ny: &l1 [*l0, *l0, *l0]\nz: &l2 [*l1, *l1, *l1]\nw: [*l2, *l2, *l2]\n`
  },
  nullValue: (t, r) => {
    const ls = lines(t)
    const i = pickIndex(ls.length, r)
    ls[i] = ls[i].replace(/:\s+\S.*$/, ':')
    return ls.join('\n')
  },
  indent: (t, r) => {
    const ls = lines(t)
    const i = pickIndex(ls.length, r)
    ls[i] = (r() < 0.5 ? ' ' : '') + ls[i].replace(/^ /, r() < 0.5 ? '' : '   ')
    return ls.join('\n')
  },
  joinDocuments: (t) => t.replace(/^---\s*$/m, ''),
}
const NAMES = Object.keys(MUTATIONS)

function mutants(): Array<{name: string; text: string}> {
  const rnd = prng(SEED)
  const base = corpus()
  const out: Array<{name: string; text: string}> = []
  for (let i = 0; i < COUNT; i++) {
    let text = base[pickIndex(base.length, rnd)]
    const steps: string[] = []
    for (let k = 1 + pickIndex(3, rnd); k > 0; k--) {
      const name = NAMES[pickIndex(NAMES.length, rnd)]
      text = MUTATIONS[name](text, rnd)
      steps.push(name)
    }
    out.push({name: `#${i} ${steps.join('+')}`, text})
  }
  return out
}

/** The outcome, or the unexpected exception as a string. */
async function outcome(run: () => Promise<unknown>, tally?: {planned: number; refused: number}): Promise<string | undefined> {
  try {
    await run()
    if (tally) tally.planned++
    return undefined
  } catch (error) {
    if (!(error instanceof UserError)) return `not a UserError: ${(error as Error)?.stack ?? String(error)}`
    if (error.line.includes('\n')) return `a message of more than one line: ${JSON.stringify(error.line)}`
    if (tally) tally.refused++
    return undefined
  }
}

describe(`fuzz: ${COUNT} mutated manifests (seed ${SEED})`, () => {
  it('plan and check end in a plan, a report or one line of error', {timeout: 240_000}, async () => {
    const failures: string[] = []
    const tally = {planned: 0, refused: 0}
    const all = mutants()
    for (const m of all) {
      const readStdin = async () => m.text
      const planned = await outcome(() => computePlan({filename: ['-'], readStdin, now: '2026-11-22T10:00:00Z', allowEmpty: true}), tally)
      if (planned) failures.push(`plan ${m.name}: ${planned}\n--- input ---\n${m.text}`)
      const checked = await outcome(() => runCheck({filename: ['-'], readStdin, cwd: '/', allowEmpty: true}))
      if (checked) failures.push(`check ${m.name}: ${checked}\n--- input ---\n${m.text}`)
      if (failures.length >= 3) break
    }
    expect(failures.slice(0, 3).join('\n\n')).toBe('')
    // The mutants reach both outcomes (so the corpus and mutations keep exercising the planner).
    expect(tally.planned).toBeGreaterThan(COUNT / 10)
    expect(tally.refused).toBeGreaterThan(COUNT / 10)
    expect(all).toHaveLength(COUNT)
  })
})
