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
