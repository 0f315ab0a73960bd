// The rules about one object alone run as the input is read (engine.ts ObjectPass), file by file;
// the report must be the one they give over the whole input at once: templates skipped whole, a
// CustomResourceDefinition read after its custom resources still validating them, duplicates
// judged against what came before, and a file named twice judged as a whole.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {InternalError, type UserError} from '../../../src/errors.js'
import {runCheck} from '../../../src/services/check.js'
import {buildReport, effectiveRules, ObjectPass, type EngineInput} from '../../../src/check/engine.js'
import {readCheckObject} from '../../../src/check/read.js'
import {openSources, readDocuments} from '../../../src/sources/documents.js'
import {at, EMPTY_CWD, RULES_FX} from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'kctl-check-pass-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const gadget = file('gadget.yaml', 'apiVersion: other.example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: "3"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n')
const crd = file(
  'crd.yaml',
  'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.other.example.com}\nspec:\n  group: other.example.com\n  names: {kind: Gadget, plural: gadgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {type: object, properties: {size: {type: integer}}}\n',
)
const template = file('template.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t}\ndata: {a: 1}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: t}\nspec: {replicas: "${REPLICAS}"}\n')
const again = file('again.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: g}\ndata: {b: [1]}\n')

/** The report with the rules about one object alone run over the whole input at once (no ObjectPass). */
async function whole(paths: string[]): Promise<string> {
  const sources = await openSources(paths)
  const parseErrors: UserError[] = []
  const objects = [...readDocuments(sources, {onError: (e) => parseErrors.push(e)})].map((src) => readCheckObject(src, 'default'))
  const input: EngineInput = {files: sources.map((s) => s.name), objects, parseErrors, defaultNamespace: 'default', k8sMinor: 36, schemaMinor: 36}
  const rules = new Map()
  return JSON.stringify(buildReport(input, {rules, disabled: new Set(), options: {failOn: 'error', k8sVersion: '1.36'}}))
}

async function streamed(paths: string[]): Promise<string> {
  return JSON.stringify((await runCheck({filename: paths, cwd: EMPTY_CWD})).report)
}

describe('check: the rules about one object alone, as the input is read', () => {
  it('validate a custom resource read before its definition, and skip a template file whole', async () => {
    const paths = [gadget, template, crd]
    const report = JSON.parse(await streamed(paths))
    expect(report.findings.map((f: {file: string; rule: string; line: number; column: number}) => `${f.file.slice(dir.length + 1)} ${at(f as never)}`)).toEqual([
      'gadget.yaml invalid-type@4:14',
      'gadget.yaml invalid-type@9:11',
    ])
    expect(await streamed(paths)).toBe(await whole(paths))
  })

  it('judge a file named twice, and duplicates across files, as over the whole input', async () => {
    for (const paths of [
      [gadget, again, gadget, crd],
      [again, gadget, template, template],
    ]) {
      expect(await streamed(paths)).toBe(await whole(paths))
    }
  })

  it('give the same report as over the whole input on every rule fixture', async () => {
    expect(await streamed([RULES_FX])).toBe(await whole([RULES_FX]))
  })

  it('run the rules anew when the pass was made with other settings, or has given its drafts already', async () => {
    const paths = [gadget, again, crd]
    const expected = await whole(paths)
    const enabled = new Set(effectiveRules({rules: new Map(), disabled: new Set()}).filter((r) => r.enabled).map((r) => r.id))
    for (const variant of ['other version', 'finished'] as const) {
      const sources = await openSources(paths)
      const objects = [...readDocuments(sources)].map((src) => readCheckObject(src, 'default'))
      const pass = new ObjectPass({defaultNamespace: 'default', k8sMinor: variant === 'other version' ? 20 : 36, schemaMinor: 36, enabled})
      for (const o of objects) pass.add(o)
      if (variant === 'finished') pass.finish([])
      const input: EngineInput = {files: sources.map((s) => s.name), objects, parseErrors: [], defaultNamespace: 'default', k8sMinor: 36, schemaMinor: 36, objectPass: pass}
      expect(JSON.stringify(buildReport(input, {rules: new Map(), disabled: new Set(), options: {failOn: 'error', k8sVersion: '1.36'}}))).toBe(expected)
    }
  })

  it('let each object\'s parsed form go once its file is judged, but for what is read at the end, with the same report', async () => {
    const paths = [gadget, join(RULES_FX, 'hpa'), join(RULES_FX, 'service-target-port-undefined'), join(RULES_FX, 'publish-not-ready-without-probe'), crd]
    const enabled = new Set(effectiveRules({rules: new Map(), disabled: new Set()}).filter((r) => r.enabled).map((r) => r.id))
    const sources = await openSources(paths)
    const objects = [...readDocuments(sources)].map((src) => readCheckObject(src, 'default'))
    const pass = new ObjectPass({defaultNamespace: 'default', k8sMinor: 36, schemaMinor: 36, enabled, release: true})
    for (const o of objects) pass.add(o)
    const input: EngineInput = {files: sources.map((s) => s.name), objects, parseErrors: [], defaultNamespace: 'default', k8sMinor: 36, schemaMinor: 36, objectPass: pass}
    const report = JSON.stringify(buildReport(input, {rules: new Map(), disabled: new Set(), options: {failOn: 'error', k8sVersion: '1.36'}}))
    expect(report).toBe(await whole(paths))
    const rules = new Set(JSON.parse(report).findings.map((f: {rule: string}) => f.rule))
    for (const rule of ['hpa-missing-requests', 'service-target-port-undefined', 'publish-not-ready-without-probe', 'invalid-type']) expect(rules).toContain(rule)
    // Released: workloads, Services and HPAs (read at the end through their views: podSpec, service,
    // hpa) and a ConfigMap; kept: a custom resource validated at the end, and its definition.
    const raw = (kind: string) => objects.find((o) => o.kind === kind)!.src.raw
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'ConfigMap']) expect(() => raw(kind).spec).toThrow(InternalError)
    for (const kind of ['Gadget', 'CustomResourceDefinition']) expect(raw(kind).apiVersion).toBeTypeOf('string')
  })

  it('keep every parsed object when a file is named twice, or the objects are compared with a previous render', async () => {
    const hpa = join(RULES_FX, 'hpa')
    for (const req of [{filename: [hpa, hpa]}, {filename: [hpa], against: hpa}]) {
      const report = (await runCheck({...req, cwd: EMPTY_CWD})).report
      expect(report.summary.objects).toBeGreaterThan(0)
    }
  })
})
