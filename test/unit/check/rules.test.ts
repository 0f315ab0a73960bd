// One positive and one negative fixture per rule (test/fixtures/check/rules/<rule>/), with every
// finding's position asserted exactly: line AND column of the field, not of the document.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {apiVerdict} from '../../../src/check/deprecations.js'

import {at, check, ofRule, RULES_FX} from './helpers.js'

const fx = (rule: string, file: string) => `${RULES_FX}/${rule}/${file}`

describe('selector-template-mismatch', () => {
  it('points at the first requirement the template fails, for every controller kind', async () => {
    const r = await check([fx('selector-template-mismatch', 'bad.yaml')])
    const found = ofRule(r, 'selector-template-mismatch')
    expect(found.map(at)).toEqual([
      'selector-template-mismatch@10:7', // Deployment: matchLabels tier
      'selector-template-mismatch@32:9', // StatefulSet: matchExpressions[0] NotIn
      'selector-template-mismatch@56:9', // DaemonSet: Exists
      'selector-template-mismatch@75:5', // RC map selector key
      'selector-template-mismatch@96:9', // ReplicaSet: DoesNotExist
      'selector-template-mismatch@112:7', // Job, manualSelector
      'selector-template-mismatch@129:7', // Job, hand-written selector
      'selector-template-mismatch@144:3', // contradictory requirements
    ])
    expect(found.map((f) => `${f.kind}/${f.name}`)).toEqual([
      'Deployment/web',
      'StatefulSet/db',
      'DaemonSet/agent',
      'ReplicationController/legacy',
      'ReplicaSet/rs',
      'Job/migrate',
      'Job/report',
      'Deployment/never',
    ])
    expect(found[0]).toMatchObject({severity: 'error', namespace: 'default', field: 'spec.selector.matchLabels.tier'})
    expect(found[0].message).toContain('requires tier=frontend, but the template has tier=backend')
    expect(found[1].message).toContain('requires env!=prod, but the template has env=prod')
    expect(found[2].message).toContain('requires a node-role label, but the template has none')
    expect(found[4].message).toContain('requires no canary label, but the template has canary=true')
    expect(found[6].message).toContain('leave the selector out and let it be generated')
    expect(found[7].message).toContain('can never match any pod')
  })

  it('accepts templates that satisfy In, NotIn, Exists and DoesNotExist, and generated Job selectors', async () => {
    const r = await check([fx('selector-template-mismatch', 'good.yaml')])
    expect(r.findings).toEqual([])
  })
})

describe('empty-selector', () => {
  it('reports missing and empty selectors where nothing defaults them', async () => {
    const r = await check([fx('empty-selector', 'bad.yaml')])
    expect(ofRule(r, 'empty-selector').map(at)).toEqual([
      'empty-selector@6:1', // Deployment without spec.selector: the spec key
      'empty-selector@19:3', // ReplicaSet selector: {}
      'empty-selector@32:3', // StatefulSet with empty matchLabels and matchExpressions
      'empty-selector@46:1', // RC without selector or template labels
      'empty-selector@56:1', // Job manualSelector without selector
    ])
    expect(ofRule(r, 'empty-selector')[0].message).toContain('the template\'s labels would do: app=web')
  })

  it('leaves generated, defaulted and Service selectors alone', async () => {
    const r = await check([fx('empty-selector', 'good.yaml')])
    expect(ofRule(r, 'empty-selector')).toEqual([])
  })
})

describe('invalid-selector', () => {
  it('reports each problem at the offending key or value', async () => {
    const r = await check([fx('invalid-selector', 'bad.yaml')])
    const found = ofRule(r, 'invalid-selector')
    expect(found.map(at)).toEqual([
      'invalid-selector@10:19', // operator: in
      'invalid-selector@28:17', // In with values: []
      'invalid-selector@31:17', // Exists with values
      'invalid-selector@46:7', // key with two slashes (at the key)
      'invalid-selector@61:14', // RC value yes → boolean
      'invalid-selector@75:10', // Service value with a space
    ])
    expect(found[0].message).toContain('operators are case-sensitive: use "In"')
    expect(found[4].message).toContain('YAML 1.1')
  })

  it('accepts valid selectors', async () => {
    expect((await check([fx('invalid-selector', 'good.yaml')])).findings).toEqual([])
  })
})

describe('overlapping-selectors', () => {
  it('reports real intersections with a label set both selectors match', async () => {
    const r = await check([fx('overlapping-selectors', 'bad.yaml')])
    const found = ofRule(r, 'overlapping-selectors')
    expect(found.map((f) => `${at(f)} ${f.name}`)).toEqual([
      'overlapping-selectors@20:3 web-canary',
      'overlapping-selectors@57:3 api-v2',
      'overlapping-selectors@88:3 cache',
      'overlapping-selectors@115:3 money-agent',
    ])
    // The template of the canary is a real pod both select; a hand-made pod does too.
    expect(found[0].message).toContain('its own pods (app=web,track=canary) match both; 1 pod in the input matches both')
    expect(found[0].related).toEqual([expect.objectContaining({name: 'web', line: 7, column: 3})])
    // In (api, api-v2) against api-v2.
    expect(found[1].message).toContain('selector of ReplicaSet default/api')
    // No real pod: a witness built from both selectors.
    expect(found[2].message).toContain('a pod labelled env=staging,team=a would match both')
    // Different keys, bridged by a template that carries both.
    expect(found[3].message).toContain('the pods of Deployment default/pay (app=pay,team=money) match both')
    expect(found.every((f) => f.severity === 'warning')).toBe(true)
  })

  it('leaves disjoint, owned, other-namespace and unrelated-key selectors alone', async () => {
    expect((await check([fx('overlapping-selectors', 'good.yaml')])).findings).toEqual([])
  })

  it('finds a pair through the one key it shares, beside a key that other controllers share', async () => {
    // k1 is constrained by a and b, k2 by a and c: as many controllers, a among both, different pairs.
    const deployment = (name: string, labels: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {${labels}}}\n  template:\n    metadata: {labels: {${labels}}}\n    spec: {containers: [{name: c, image: c:1}]}\n`
    const path = join(mkdtempSync(join(tmpdir(), 'kctl-overlap-keys-')), 'all.yaml')
    writeFileSync(path, [deployment('a', 'k1: "1", k2: "1"'), deployment('b', 'k1: "2"'), deployment('c', 'k2: "1", k3: "3"')].join('---\n'))
    const found = ofRule(await check([path]), 'overlapping-selectors')
    expect(found.map((f) => f.name)).toEqual(['c'])
    expect(found[0].message).toContain('selector of Deployment default/a: a pod labelled k1=1,k2=1,k3=3 would match both')
  })
})

describe('invalid-field', () => {
  it('reports types and ranges at the value, for the planner\'s kinds and the others', async () => {
    const r = await check([fx('invalid-field', 'bad.yaml')])
    const found = ofRule(r, 'invalid-field')
    expect(found.map((f) => `${at(f)} ${f.field}`)).toEqual([
      'invalid-field@6:13 spec.replicas',
      'invalid-field@17:13 spec.replicas',
      'invalid-field@30:24 spec.podManagementPolicy',
      'invalid-field@34:33 spec.template.metadata.labels.backup',
      'invalid-field@44:5 spec.template.spec.restartPolicy',
      'invalid-field@56:23 spec.strategy.rollingUpdate.maxUnavailable',
      'invalid-field@67:16 spec.minReplicas',
      'invalid-field@76:13 spec.ports[0].port',
    ])
    expect(found[0].message).toBe('spec.replicas: expected a non-negative integer, got -1')
    expect(found[1].message).toContain('(remove the quotes)') // the Normalizer's wording, as kctl plan says it
  })

  it('accepts valid fields', async () => {
    // Its HPA names a Deployment the fixture does not hold: that is hpa-target-missing's finding.
    expect((await check([fx('invalid-field', 'good.yaml')])).findings.filter((f) => f.rule !== 'hpa-target-missing')).toEqual([])
  })
})

describe('duplicate-object', () => {
  it('reports the second copy, in the same file or another, extensions and apps alike', async () => {
    const r = await check([fx('duplicate-object', 'bad.yaml'), fx('duplicate-object', 'bad-2.yaml')])
    const found = ofRule(r, 'duplicate-object')
    expect(found.map((f) => `${f.file.split('/').pop()} ${at(f)} ${f.kind}/${f.name}`)).toEqual([
      'bad.yaml duplicate-object@21:3 ConfigMap/settings',
      'bad-2.yaml duplicate-object@5:3 Deployment/web',
    ])
    expect(found[0].message).toContain('already defined differently earlier in this file')
    expect(found[1].related?.[0]).toMatchObject({file: fx('duplicate-object', 'bad.yaml'), line: 4, column: 3})
  })

  it('tells kinds and namespaces apart', async () => {
    expect((await check([fx('duplicate-object', 'good.yaml')])).findings).toEqual([])
  })

  it('finds a copy among several objects of one kind and name (other namespaces, groups, kinds)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-check-dup-'))
    const path = join(dir, 'many.yaml')
    const doc = (apiVersion: string, kind: string, namespace: string, v: number) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {namespace: "${namespace}", name: "c"}\ndata: {v: "${v}"}\n`
    const docs = [doc('v1', 'ConfigMap', 'a', 1), doc('v1', 'Secret', 'a', 2), doc('v1', 'ConfigMap', 'b', 3), doc('x.io/v1', 'ConfigMap', 'a', 4), doc('v1', 'ConfigMap', 'a', 5), doc('v1', 'ConfigMap', 'b', 6), doc('v1', 'ConfigMap', 'a', 7)]
    writeFileSync(path, docs.join('---\n'))
    const found = ofRule(await check([path]), 'duplicate-object')
    expect(found.map((f) => `${f.kind}/${f.namespace}/${f.related?.[0]?.line} ${f.message.includes('earlier in this file')}`)).toEqual(['ConfigMap/a/3 true', 'ConfigMap/b/13 true', 'ConfigMap/a/3 true'])
  })

  it('judges objects by their identity (group|kind|namespace|name), a `|` in a field included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-check-dup-'))
    const path = join(dir, 'odd.yaml')
    const cm = (namespace: string, name: string, v: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: "${namespace}", name: "${name}"}\ndata: {v: "${v}"}\n`
    // The last two read alike as identities (|ConfigMap|a|b|c); the first two share a name only.
    writeFileSync(path, [cm('a', 'c', 1), cm('b', 'c', 2), cm('a|b', 'c', 3), cm('a', 'b|c', 4)].join('---\n'))
    const found = ofRule(await check([path]), 'duplicate-object')
    expect(found.map((f) => `${at(f)} ${f.namespace}/${f.name}`)).toEqual(['duplicate-object@18:28 a/b|c'])
  })
})

describe('hpa-replicas-conflict', () => {
  it('points at spec.replicas of the workload an HPA scales', async () => {
    const r = await check([fx('hpa-replicas-conflict', 'bad.yaml')])
    const found = ofRule(r, 'hpa-replicas-conflict')
    expect(found.map((f) => `${at(f)} ${f.kind}/${f.name}`)).toEqual(['hpa-replicas-conflict@6:3 Deployment/web', 'hpa-replicas-conflict@31:3 StatefulSet/db'])
    expect(found[1].message).toContain('back to 20, outside its range 2–10,')
    expect(found[0].related?.[0]).toMatchObject({kind: 'HorizontalPodAutoscaler', name: 'web', line: 17, column: 3})
  })

  it('is quiet without spec.replicas or without an HPA in the same namespace', async () => {
    // The HPA of another namespace names a Deployment that is not there: hpa-target-missing's finding alone.
    expect((await check([fx('hpa-replicas-conflict', 'good.yaml')])).findings.map((f) => `${f.rule} ${f.kind}/${f.namespace}/${f.name}`)).toEqual(['hpa-target-missing HorizontalPodAutoscaler/other/api'])
  })
})

describe('deprecated-api', () => {
  it('reports removed apiVersions as errors and deprecated ones as warnings (default: 1.36)', async () => {
    const r = await check([fx('deprecated-api', 'bad.yaml')])
    const found = ofRule(r, 'deprecated-api')
    expect(found.map((f) => `${at(f)} ${f.severity} ${f.kind}`)).toEqual([
      'deprecated-api@1:13 error Deployment',
      'deprecated-api@11:13 error Ingress',
      'deprecated-api@18:13 error CronJob',
      'deprecated-api@31:13 error PodDisruptionBudget',
      'deprecated-api@39:13 error HorizontalPodAutoscaler',
      'deprecated-api@48:13 warning Endpoints',
    ])
    expect(found[2].message).toBe('CronJob batch/v1beta1 is no longer served since Kubernetes 1.25 (target 1.36): the API server rejects it; use batch/v1')
    expect(found[5].message).toContain('use EndpointSlice discovery.k8s.io/v1')
  })

  it('judges against the Kubernetes version (a live server may be older than any schema set)', () => {
    const kinds: Array<[string, string]> = [
      ['apps/v1beta2', 'Deployment'],
      ['extensions/v1beta1', 'Ingress'],
      ['batch/v1beta1', 'CronJob'],
      ['policy/v1beta1', 'PodDisruptionBudget'],
      ['autoscaling/v2beta2', 'HorizontalPodAutoscaler'],
      ['v1', 'Endpoints'],
    ]
    expect(kinds.map(([v, k]) => apiVerdict(v, k, 24)?.severity ?? 'none')).toEqual(['error', 'error', 'warning', 'warning', 'warning', 'none'])
    expect(['batch/v1 CronJob', 'policy/v1 PodDisruptionBudget', 'autoscaling/v2 HorizontalPodAutoscaler'].map((s) => apiVerdict(s.split(' ')[0], s.split(' ')[1], 20)?.message)).toEqual([
      'CronJob batch/v1 is not served by Kubernetes 1.20 yet (from 1.21 on): the API server rejects it',
      'PodDisruptionBudget policy/v1 is not served by Kubernetes 1.20 yet (from 1.21 on): the API server rejects it',
      'HorizontalPodAutoscaler autoscaling/v2 is not served by Kubernetes 1.20 yet (from 1.23 on): the API server rejects it',
    ])
  })

  it('judges against --k8s-version', async () => {
    const r = await check([fx('deprecated-api', 'bad.yaml')], {k8sVersion: 'v1.32.3'})
    expect(r.options.k8sVersion).toBe('1.32')
    expect(ofRule(r, 'deprecated-api').map((f) => `${f.severity} ${f.kind}`)).toEqual([
      'error Deployment',
      'error Ingress',
      'error CronJob',
      'error PodDisruptionBudget',
      'error HorizontalPodAutoscaler',
    ])
  })

  it('accepts current apiVersions', async () => {
    expect((await check([fx('deprecated-api', 'good.yaml')])).findings).toEqual([])
  })
})

describe('parse-error', () => {
  it('reports each unreadable input at the parser\'s position and still checks the rest', async () => {
    const r = await check([`${RULES_FX}/parse-error`])
    expect(r.findings.map((f) => `${f.file.split('/').pop()} ${at(f)}`)).toEqual([
      'bad.json parse-error@5:1',
      'bad.yaml parse-error@16:13',
      'bad.yaml parse-error@19:1',
    ])
    expect(r.findings[1].message).toBe('invalid YAML: bad indentation of a mapping entry')
    expect(r.findings[0]).toMatchObject({kind: '', namespace: '', name: ''})
    expect(r.summary).toMatchObject({files: 3, objects: 2, error: 3})
  })

  it('has nothing to say about readable input', async () => {
    expect((await check([fx('parse-error', 'good.yaml')])).findings).toEqual([])
  })
})

describe('kctl.io/ignore', () => {
  it('an ignore without a reason, or naming an unknown rule, is a finding and ignores nothing', async () => {
    const r = await check([fx('invalid-ignore', 'bad.yaml')])
    expect(r.findings.map(at)).toEqual(['invalid-ignore@7:21', 'invalid-ignore@19:21', 'overlapping-selectors@21:3'])
    expect(r.findings[0].message).toContain('is ignored without a reason')
    expect(r.findings[1].message).toContain('unknown rule "overlaping-selectors"')
  })

  it('an ignore with a reason silences the rule for that object (and for pairs it is part of)', async () => {
    const r = await check([fx('invalid-ignore', 'good.yaml')])
    expect(r.findings).toEqual([])
    expect(r.summary.suppressed).toBe(1)
  })
})

describe('positions in JSON input', () => {
  it('point at the same fields in a kubectl-style JSON List', async () => {
    const {mkdtempSync, readFileSync, writeFileSync} = await import('node:fs')
    const {tmpdir} = await import('node:os')
    const {join} = await import('node:path')
    const {parseAllDocuments} = await import('yaml')
    const items = parseAllDocuments(readFileSync(fx('selector-template-mismatch', 'bad.yaml'), 'utf8')).map((d) => d.toJS())
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-check-json-')), 'list.json')
    writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}, null, 2))
    const r = await check([file])
    const found = ofRule(r, 'selector-template-mismatch')
    expect(found.slice(0, 4).map(at)).toEqual([
      'selector-template-mismatch@15:13', // "tier": "frontend"
      'selector-template-mismatch@49:13', // the NotIn expression's "{"
      'selector-template-mismatch@92:13', // the Exists expression's "{"
      'selector-template-mismatch@124:11', // "version": "v2"
    ])
  })
})
