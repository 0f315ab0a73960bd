// Each bundled example, planned at a fixed clock through the built CLI, must print exactly the
// reviewed output in test/golden/<example>/ (plan.json, plan.txt; list.json and list.txt where the
// list has rows of its own, as a Service's). After a deliberate change:
// UPDATE_GOLDEN=1 npm run test:unit, then review the diff against docs/replicaset-controller.md.
import {existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {kctl, NOW, ROOT} from './run-cli.js'

const examples = readdirSync(join(ROOT, 'examples')).filter((e) => statSync(join(ROOT, 'examples', e)).isDirectory()).sort()
const update = process.env.UPDATE_GOLDEN === '1'

const outputs = [
  {file: 'plan.json', args: ['-o', 'json']},
  {file: 'plan.txt', args: ['-o', 'table']},
] as const

describe('golden plans of examples/', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(0)
  })

  describe.each(examples)('%s', (example) => {
    it.each(outputs)('$file', ({file, args}) => {
      const run = kctl(['plan', '-f', `examples/${example}`, ...args, '--now', NOW])
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      const golden = join(ROOT, 'test', 'golden', example, file)
      if (update || !existsSync(golden)) {
        if (!update) throw new Error(`${golden} is missing: run UPDATE_GOLDEN=1 npm run test:unit and review it`)
        mkdirSync(join(ROOT, 'test', 'golden', example), {recursive: true})
        writeFileSync(golden, run.stdout)
      }
      expect(run.stdout).toBe(readFileSync(golden, 'utf8'))
    })

    it('prints the same bytes twice', () => {
      const a = kctl(['plan', '-f', `examples/${example}`, '-o', 'json', '--now', NOW])
      const b = kctl(['plan', '-f', `examples/${example}`, '-o', 'json', '--now', NOW])
      expect(a.stdout).toBe(b.stdout)
    })
  })
})

/** Examples whose `kctl list` rows say more than the plan's header: their lists are golden too. */
const LISTED = ['services']

describe('golden lists of examples/', () => {
  describe.each(LISTED)('%s', (example) => {
    it.each([
      {file: 'list.json', args: ['-o', 'json']},
      {file: 'list.txt', args: ['-o', 'table']},
    ])('$file', ({file, args}) => {
      const run = kctl(['list', '-f', `examples/${example}`, ...args, '--now', NOW])
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      const golden = join(ROOT, 'test', 'golden', example, file)
      if (update) writeFileSync(golden, run.stdout)
      if (!existsSync(golden)) throw new Error(`${golden} is missing: run UPDATE_GOLDEN=1 npm run test:unit and review it`)
      expect(run.stdout).toBe(readFileSync(golden, 'utf8'))
    })
  })
})
