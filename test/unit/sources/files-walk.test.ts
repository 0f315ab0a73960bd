// A directory walk names each file as path.join(dir, entry) would, whatever the spelling of the
// directory -f names, and keeps the files whose extname is .yaml, .yml or .json in any case; a
// file's format is told by its extname.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {extname, join, relative} from 'node:path'

import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'

import {expandPaths, formatOf} from '../../../src/sources/files.js'

const root = mkdtempSync(join(tmpdir(), 'kctl-walk-'))
afterAll(() => rmSync(root, {recursive: true, force: true}))

const FILES = ['a.yaml', 'B.YML', 'c.Json', 'd.yaml.bak', 'e.', 'f', 'g.tar.yaml', 'h..json', 'sub/i.yaml', 'sub/deeper/j.json', '.hidden.yaml']
for (const f of FILES) {
  mkdirSync(join(root, f, '..'), {recursive: true})
  writeFileSync(join(root, f), 'apiVersion: v1\nkind: Pod\n')
}
const KEPT = ['B.YML', 'a.yaml', 'c.Json', 'g.tar.yaml', 'h..json', 'sub/deeper/j.json', 'sub/i.yaml']

describe('the directory walk', () => {
  const rel = relative(process.cwd(), root)
  it.each([root, `${root}/`, `${root}//`, `${root}/./`, `${root}/sub/..`, `${root}/sub/../`, rel, `./${rel}`, `${rel}/`])('names the files of %s as join() would', (dir) => {
    const names = expandPaths([dir]).map((e) => e.name)
    expect(names).toEqual(KEPT.map((f) => join(dir, f)))
    expect(expandPaths([dir]).map((e) => e.fsPath)).toEqual(names)
  })

  it('names the files of . and of a directory given as ..', () => {
    const cwd = process.cwd()
    try {
      process.chdir(join(root, 'sub'))
      expect(expandPaths(['.']).map((e) => e.name)).toEqual([join('deeper', 'j.json'), 'i.yaml'])
      process.chdir(join(root, 'sub', 'deeper'))
      expect(expandPaths(['..']).map((e) => e.name)).toEqual([join('..', 'deeper', 'j.json'), join('..', 'i.yaml')])
    } finally {
      process.chdir(cwd)
    }
  })
})

describe('formatOf', () => {
  it('is JSON exactly when extname is .json in any case (property)', () => {
    const name = fc.array(fc.constantFrom('a', '.', '/', '\\', 'j', 's', 'o', 'n', 'J', 'S', 'O', 'N', 'y'), {maxLength: 12}).map((cs) => cs.join(''))
    fc.assert(fc.property(name, (n) => formatOf(n) === (extname(n).toLowerCase() === '.json' ? 'json' : 'yaml')), {numRuns: 5000})
    for (const n of ['x.json', 'x.JSON', 'a/x.Json', 'x.json/', 'x.json//', '.json', 'a/.json', '..json', 'x.json.yaml', 'x.yaml', 'json', '']) {
      expect(formatOf(n), n).toBe(extname(n).toLowerCase() === '.json' ? 'json' : 'yaml')
    }
  })
})
