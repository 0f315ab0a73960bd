// The line reader for block-style YAML must find exactly what the full parser finds: every path
// of every YAML fixture and example (and paths that do not exist), compared where it answers.
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {load} from 'js-yaml'
import {describe, expect, it} from 'vitest'

import {splitYamlDocuments} from '../../../src/sources/documents.js'
import {locateInBlockYaml, locateInYamlAst, type Path} from '../../../src/sources/locate.js'

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, {withFileTypes: true})) {
    const full = join(dir, e.name)
    if (e.isDirectory()) yamlFiles(full, out)
    else if (/\.ya?ml$/.test(e.name)) out.push(full)
  }
  return out
}

/** Every path to a value in `v`, plus a missing key under each mapping. */
function paths(v: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix)
  if (out.length > 400) return out
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out))
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out)
    out.push([...prefix, 'noSuchField'])
  }
  return out
}

describe('locating fields in block-style YAML by lines', () => {
  it('agrees with the full parser on every path of every fixture', () => {
    let compared = 0
    let fastAnswers = 0
    let answered = 0
    for (const file of [...yamlFiles('examples'), ...yamlFiles('test/fixtures')]) {
      const buf = readFileSync(file)
      for (const [start, end] of splitYamlDocuments(buf)) {
        const text = buf.toString('utf8', start, end)
        let value: unknown
        try {
          value = load(text)
        } catch {
          continue
        }
        for (const path of paths(value)) {
          for (const wantKey of [false, true]) {
            const fast = locateInBlockYaml(text, path, wantKey)
            compared++
            if (!fast) continue // not sure: the full parser decides
            fastAnswers++
            const exact = locateInYamlAst(text, path, wantKey)
            if (fast.offset !== exact.offset || fast.depth !== exact.depth) {
              expect({file, path, wantKey, fast}).toEqual({file, path, wantKey, fast: exact})
            }
          }
        }
        answered++
      }
    }
    expect(answered).toBeGreaterThan(100)
    expect(compared).toBeGreaterThan(5000)
    // The line reader answers most of them (the fixtures are mostly block style).
    expect(fastAnswers / compared).toBeGreaterThan(0.5)
  })
})

describe('reading only the lines a search needs', () => {
  const agree = (text: string, path: Path, wantKey: boolean) => {
    const fast = locateInBlockYaml(text, path, wantKey)
    expect(fast).toBeDefined()
    expect(fast).toEqual(locateInYamlAst(text, path, wantKey))
  }

  it('answers for fields above a line it is not sure of, and gives that line to the full parser', () => {
    const text = 'a: 1\nb:\n  c: 2\nd: |\n  x\n  \ty\ne: 3\n'
    agree(text, ['a'], false)
    agree(text, ['b'], true)
    agree(text, ['b', 'c'], false)
    expect(locateInBlockYaml(text, ['e'], false)).toBeUndefined()
    expect(locateInBlockYaml(text, ['noSuchField'], false)).toBeUndefined()
    // The same text again, from its start: the first answers did not keep the unsure line.
    agree(text, ['b', 'c'], true)
  })

  it('grows its table of lines while a search goes on', () => {
    const text = Array.from({length: 600}, (_, i) => `k${i}:\n  v: ${i}`).join('\n') + '\n'
    agree(text, ['k599', 'v'], false)
    agree(text, ['k3'], false)
    agree(text, ['k598'], true)
  })

  it('tells a nested sequence from a scalar dash on an item line', () => {
    agree('xs:\n  - - a\n    - b\n', ['xs', 0, 1], false)
    agree('xs:\n  - -\n  - b\n', ['xs', 0], false)
    agree('xs:\n  - -\n  - b\n', ['xs', 1], false)
    agree('xs:\n  - a: 1\n    b: 2\n', ['xs', 0, 'b'], false)
  })
})
