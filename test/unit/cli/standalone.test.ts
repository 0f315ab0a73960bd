// The repository stands on its own: nothing tracked names a path of a developer's machine or a
// document outside the repository, and every docs/ page the code and README point at exists, with
// the rule numbers they cite.
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from './run-cli.js'

const tracked = execFileSync('git', ['ls-files', '-z'], {cwd: ROOT, encoding: 'utf8'})
  .split('\0')
  .filter((f) => f !== '' && !f.endsWith('.gz') && existsSync(join(ROOT, f)))
const texts = tracked.map((file) => ({file, text: readFileSync(join(ROOT, file), 'utf8')}))

/** Every line of a tracked file that matches, as `file:line: text`. */
function hits(pattern: RegExp): string[] {
  const out: string[] = []
  for (const {file, text} of texts) {
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`)
    })
  }
  return out
}

describe('the repository stands on its own', () => {
  it('reads the tracked files', () => {
    expect(tracked).toContain('README.md')
    expect(tracked).toContain('docs/output.md')
  })

  it('names no absolute path of a machine (home directories, a workspace root)', () => {
    // Written in pieces so that this file does not match itself.
    const roots = ['wo' + 'rk', 'ro' + 'ot', 'ho' + 'me', 'Us' + 'ers', 'mn' + 't', 'op' + 't/ho' + 'me']
    const pattern = new RegExp(`(^|[\\s"'\`(=:])/(${roots.join('|')})/`)
    expect(pattern.test(' /' + 'home/alice/x')).toBe(true)
    expect(hits(pattern)).toEqual([])
  })

  it('cites no document that is not in the repository', () => {
    const outside = ['controller', 'deployment', 'services', 'workloads', 'batch'].map((w) => `${w}-seman` + 'tics').concat(['output-con' + 'tract', '\\.\\./sha' + 'red', '(?<!docs/|\\]\\(|\\[)architecture\\.md', 'control-plane\\.md', 'stack\\.md'])
    expect(hits(new RegExp(outside.join('|')))).toEqual([])
  })

  it('every docs/ page a file points at exists', () => {
    const cited = new Set(texts.flatMap(({text}) => [...text.matchAll(/docs\/([\w.-]+\.md)/g)].map((m) => m[1])))
    expect(cited.size).toBeGreaterThanOrEqual(3)
    for (const page of cited) expect(existsSync(join(ROOT, 'docs', page)), `docs/${page}`).toBe(true)
  })

  it('every § rule number the code and tests cite is a section or an item of docs/replicaset-controller.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'replicaset-controller.md'), 'utf8')
    const sections = new Set([...doc.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]))
    const cited = new Set(
      texts.filter(({file}) => file.startsWith('src/') || file.startsWith('test/')).flatMap(({text}) => [...text.matchAll(/§(\d+(?:\.\d+)*)/g)].map((m) => m[1])),
    )
    expect(cited.size).toBeGreaterThan(20)
    // §2.2.6 is item 6 of section 2.2: the section must exist (its items are numbered lists).
    const missing = [...cited].filter((id) => !sections.has(id.split('.').slice(0, 2).join('.')) && !sections.has(id.split('.')[0]))
    expect(missing).toEqual([])
  })
})
