// hpa-replicas-out-of-range and hpa-target-missing (src/controllers/hpa/rules.ts): a target the
// HPA resizes before it reads a metric (reconcileAutoscaler's range pre-check), and one whose scale
// it cannot read (scaleForResourceMappings: FailedGetScale). hpa-replicas-conflict: ../../check/rules.test.ts.
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'
import {at, check, RULES_FX} from '../../check/helpers.js'

const fx = (file: string) => `${RULES_FX}/hpa/${file}`
const RULES = new Set(['hpa-replicas-out-of-range', 'hpa-target-missing'])

describe('hpa rules', () => {
  it('point at the target without spec.replicas, the missing target and the left-out apiVersion', async () => {
    const r = await check([fx('bad.yaml')])
    const found = r.findings.filter((f) => RULES.has(f.rule))
    expect(found.map((f) => `${at(f)} ${f.kind}/${f.name} ${f.field}`)).toEqual([
      'hpa-replicas-out-of-range@4:1 Deployment/web spec',
      'hpa-target-missing@22:65 HorizontalPodAutoscaler/api spec.scaleTargetRef.name',
      'hpa-target-missing@29:3 HorizontalPodAutoscaler/nogroup spec.scaleTargetRef.apiVersion',
    ])
    expect(found[0].message).toMatch(/stores 1, below minReplicas 3 of HorizontalPodAutoscaler shop\/web: its first sync scales this Deployment to 3/)
    expect(found[1].message).toMatch(/^no Deployment shop\/api is in the input: .*FailedGetScale/)
    expect(found[2].message).toMatch(/names the API group "", where no Deployment is served .*set apiVersion: apps\/v1/)
  })
  it('leave good ones alone (and an HPA of a kind the input holds none of)', async () => {
    expect((await check([fx('good.yaml')])).findings.filter((f) => RULES.has(f.rule))).toEqual([])
  })

  it('judge the range only against a target of the HPA\'s own apply set, and a conflict only in the group apiVersion names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-rules-'))
    const write = (file: string, text: string) => {
      mkdirSync(join(dir, file, '..'), {recursive: true})
      writeFileSync(join(dir, file), text)
    }
    const deployment = (name: string, replicas = '') =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\nspec:\n${replicas}  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}\n`
    const hpa = (name: string, apiVersion: string) =>
      `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: ${apiVersion}, kind: Deployment, name: ${name}}\n  minReplicas: 3\n  maxReplicas: 10\n`
    // Apart: the HPA in one folder, its target in another (two apply sets).
    write('a/hpa.yaml', hpa('apart', 'apps/v1'))
    write('b/web.yaml', deployment('apart'))
    // Together, with spec.replicas, named in another group: no conflict, a target missing.
    write('c/all.yaml', `${deployment('other', '  replicas: 3\n')}---\n${hpa('other', 'example.com/v1')}---\n${deployment('near')}---\n${hpa('near', 'apps/v1')}`)
    const r = await check([join(dir, 'a'), join(dir, 'b'), join(dir, 'c')])
    expect(r.findings.map((f) => `${f.rule} ${f.kind}/${f.name}`)).toEqual(['hpa-target-missing HorizontalPodAutoscaler/other', 'hpa-replicas-out-of-range Deployment/near'])
  })

  it('judge every copy of the target in the apply set: each without spec.replicas is resized, each with it conflicts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-copies-'))
    const deployment = (name: string, image: string, replicas = '') =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\nspec:\n${replicas}  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: ${image}, resources: {requests: {cpu: 100m}}}]}\n`
    const hpa = (name: string) =>
      `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}\n  minReplicas: 3\n  maxReplicas: 10\n`
    writeFileSync(join(dir, 'a.yaml'), `${deployment('unset', 'nginx:1')}---\n${deployment('set', 'nginx:1', '  replicas: 2\n')}`)
    writeFileSync(join(dir, 'b.yaml'), `${deployment('unset', 'nginx:2')}---\n${deployment('set', 'nginx:2', '  replicas: 4\n')}`)
    writeFileSync(join(dir, 'hpa.yaml'), `${hpa('unset')}---\n${hpa('set')}`)
    const r = await check([dir])
    expect(r.findings.filter((f) => f.rule.startsWith('hpa-')).map((f) => `${f.rule} ${f.name} ${f.file.slice(dir.length + 1)}:${f.line}`)).toEqual([
      'hpa-replicas-out-of-range unset a.yaml:4',
      'hpa-replicas-conflict set a.yaml:14',
      'hpa-replicas-out-of-range unset b.yaml:4',
      'hpa-replicas-conflict set b.yaml:14',
    ])
  })

  it('invalid-field: scaleTargetRef needs a kind and a name, each a non-empty string', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-ref-'))
    const hpa = (name: string, ref: string) =>
      `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  scaleTargetRef: ${ref}\n  maxReplicas: 10\n`
    const file = join(dir, 'hpa.yaml')
    writeFileSync(file, [hpa('nokind', '{apiVersion: apps/v1, name: web}'), hpa('noname', '{apiVersion: apps/v1, kind: Deployment, name: ""}'), hpa('numbers', '{apiVersion: apps/v1, kind: 3, name: 4}')].join('---\n'))
    const r = await check([file])
    expect(r.findings.filter((f) => f.rule === 'invalid-field').map((f) => `${f.name} ${f.message}`)).toEqual([
      'nokind spec.scaleTargetRef.kind: kind is required',
      'noname spec.scaleTargetRef.name: name is required',
      'numbers spec.scaleTargetRef.kind: expected a string, got 3 (quote the value to make it a string)',
      'numbers spec.scaleTargetRef.name: expected a string, got 4 (quote the value to make it a string)',
    ])
  })

  it('find a target by namespace, kind and name: workloads that share only the name are others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-hpa-names-'))
    const workload = (kind: string, namespace: string) =>
      `apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: web, namespace: ${namespace}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}\n`
    const hpa = (name: string, kind: string, namespace: string) =>
      `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: ${kind}, name: web}\n  minReplicas: 1\n  maxReplicas: 10\n`
    const file = join(dir, 'all.yaml')
    writeFileSync(file, [workload('StatefulSet', 'shop'), workload('Deployment', 'other'), workload('Deployment', 'shop'), hpa('deploy', 'Deployment', 'shop'), hpa('missing', 'Deployment', 'third')].join('---\n'))
    const r = await check([file])
    expect(r.findings.filter((f) => f.rule.startsWith('hpa-')).map((f) => `${f.rule} ${f.kind}/${f.namespace}/${f.name}`)).toEqual([
      'hpa-replicas-conflict Deployment/shop/web',
      'hpa-target-missing HorizontalPodAutoscaler/third/missing',
    ])
  })
})
