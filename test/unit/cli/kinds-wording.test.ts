// What kctl says it plans: the help texts and the empty results name every kind the registry's
// controllers plan, never the two kinds of kctl's first version alone.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {CONTROLLERS} from '../../../src/controllers/registry.js'
import {kctl, NOW} from './run-cli.js'

const KINDS = CONTROLLERS.flatMap((d) => d.kinds as readonly string[])
const tmp = mkdtempSync(join(tmpdir(), 'kctl-kinds-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

/** Help text as one line: oclif wraps it at the terminal's width. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('the kinds kctl plans, in words', () => {
  it('the registry plans nine kinds', () => {
    expect(KINDS).toHaveLength(9)
  })

  it.each([['--help'], ['list', '--help'], ['watch', '--help'], ['plan', '--help']])('kctl %s names every kind planned', (...args) => {
    const run = kctl(args, {env: {COLUMNS: '200'}})
    expect(run.status).toBe(0)
    const text = flat(run.stdout)
    // The command list of `kctl --help`: list's summary, up to the next command.
    const said = args[0] === '--help' ? / list (.*?) plan /.exec(text)![1] : text
    for (const kind of KINDS) expect(said, kind).toMatch(new RegExp(`\\b${kind}s?\\b`))
    expect(text).not.toContain('ReplicaSets and ReplicationControllers read')
  })

  it('an empty plan and an empty list name every kind kctl looked for', () => {
    const file = join(tmp, 'config.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\n')
    const words = `${KINDS.slice(0, -1).map((k) => `${k}s`).join(', ')} or ${KINDS.at(-1)}s`
    const plan = kctl(['plan', '-f', file, '-o', 'table', '--now', NOW])
    expect(plan.status).toBe(0)
    expect(plan.stdout.trimEnd().split('\n').at(-1)).toBe(`No ${words} found.`)
    const list = kctl(['list', '-f', file, '-o', 'table', '--now', NOW])
    expect(list.status).toBe(0)
    expect(list.stdout).toBe(`No ${words} found.\n`)
  })

  it('objects of a kind not planned are counted under the kinds that are', () => {
    const file = join(tmp, 'pdb.yaml')
    writeFileSync(file, 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: default}\nspec: {minAvailable: 1, selector: {matchLabels: {app: web}}}\n')
    const run = kctl(['plan', '-f', file, '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    const line = run.stdout.split('\n').find((l) => l.startsWith('Not planned'))
    expect(line).toBe(`Not planned (kctl plans ${KINDS.slice(0, -1).map((k) => `${k}s`).join(', ')} and ${KINDS.at(-1)}s): PodDisruptionBudget (1).`)
  })
})
