// The schema rules: every object of a built-in kind against the schema kube-apiserver 1.36 serves,
// custom resources against their CustomResourceDefinitions; positions asserted exactly.
import fc from 'fast-check'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {closest} from '../../../src/closest.js'
import {at, check, RULES_FX} from './helpers.js'

const fx = (file: string) => `${RULES_FX}/schema/${file}`
const SCHEMA_RULES = new Set(['unknown-field', 'invalid-type', 'missing-field', 'invalid-value', 'unknown-api-version'])
const tmp = mkdtempSync(join(tmpdir(), 'kctl-schema-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

describe('schema rules', () => {
  it('report misspelt and renamed fields, wrong types, values outside an enum, missing fields and unserved versions', async () => {
    const notes: string[] = []
    const r = await check([fx('bad.yaml')], {onNote: (n) => notes.push(n)})
    const found = r.findings.filter((f) => SCHEMA_RULES.has(f.rule))
    expect(found.map((f) => `${at(f)} ${f.kind}/${f.name}: ${f.message}`)).toEqual([
      'invalid-value@15:26 Deployment/web: "ifNotPresent" is not one of "Always", "IfNotPresent", "Never"',
      'invalid-type@17:26 Deployment/web: expected an integer, got the string "http"',
      'unknown-field@18:9 Deployment/web: unknown field "resoures": did you mean "resources"?',
      'unknown-field@26:3 Ingress/web: unknown field "backend": did you mean "defaultBackend"?',
      'unknown-api-version@39:13 StatefulSet/db: StatefulSet apps/v1beta3 is not known to Kubernetes 1.36: use apps/v1',
      'missing-field@68:1 Widget/w: required field "size" is missing',
      'unknown-field@69:3 Widget/w: unknown field "colour": did you mean "color"?',
    ])
    expect(found.find((f) => f.rule === 'invalid-type')?.field).toBe('spec.template.spec.containers[0].ports[0].containerPort')
    // What invalid-field says already (a container without a name, a lower-case protocol) is said once.
    expect(r.findings.filter((f) => f.line === 20 || f.line === 36).map((f) => f.rule)).toEqual(['invalid-field', 'invalid-field'])
    // A custom resource without its definition is counted once, not guessed at.
    expect(notes).toEqual(['1 object of 1 kind not validated (other.example.com/Gadget): no schema; put their CustomResourceDefinitions in the input or under --schemas DIR'])
  })

  it('accept valid objects: nulls are unset fields, int-or-string and quantities take both forms', async () => {
    expect((await check([fx('good.yaml')])).findings).toEqual([])
  })

  it('validate custom resources with definitions given by --schemas', async () => {
    const crd = join(tmp, 'crds.yaml')
    const cr = join(tmp, 'gadget.yaml')
    writeFileSync(
      crd,
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.other.example.com}\nspec:\n  group: other.example.com\n  names: {kind: Gadget, plural: gadgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {type: object, properties: {size: {type: integer}}}\n',
    )
    writeFileSync(cr, 'apiVersion: other.example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: "3"}\n')
    const notes: string[] = []
    const r = await check([cr], {schemas: crd, onNote: (n) => notes.push(n)})
    expect(r.findings.map((f) => `${at(f)} ${f.message}`)).toEqual(['invalid-type@4:14 expected an integer, got the string "3"'])
    expect(notes).toEqual([])
  })

  it('did-you-mean: another case, a swap of two letters, or at most two edits, never a far guess', () => {
    const fields = ['containers', 'initContainers', 'volumes', 'nodeName', 'restartPolicy']
    expect(closest('contianers', fields)).toBe('containers')
    expect(closest('Containers', fields)).toBe('containers')
    expect(closest('volume', fields)).toBe('volumes')
    expect(closest('nodename', fields)).toBe('nodeName')
    expect(closest('image', fields)).toBeUndefined()
    expect(closest('vol', fields)).toBeUndefined()
  })

  it('did-you-mean: the distance kept in three rows is that of the whole table (random names, short alphabet)', () => {
    // The full Damerau–Levenshtein table (adjacent swaps count once), and closest() as specified over it.
    const distance = (a: string, b: string): number => {
      const d = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
      return d[a.length][b.length]
    }
    const expected = (name: string, known: string[]): string | undefined => {
      const exact = known.find((k) => k.toLowerCase() === name.toLowerCase())
      if (exact !== undefined) return exact
      let best: string | undefined
      let bestDistance = Math.min(2, Math.floor(name.length / 3))
      for (const k of known) {
        const d = distance(name.toLowerCase(), k.toLowerCase())
        if (d <= bestDistance && (best === undefined || d < bestDistance)) [best, bestDistance] = [k, d]
      }
      return best
    }
    const word = fc.stringMatching(/^[abcAB]{0,9}$/)
    fc.assert(fc.property(word, fc.array(word, {maxLength: 6}), (name, known) => closest(name, known) === expected(name, known)), {numRuns: 3000})
  })
})
