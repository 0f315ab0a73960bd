// hpa-replicas-out-of-range and hpa-target-missing (src/controllers/hpa/rules.ts): a target the
// HPA resizes before it reads a metric (reconcileAutoscaler's range pre-check), and one whose scale
// it cannot read (scaleForResourceMappings: FailedGetScale). hpa-replicas-conflict: ../../check/rules.test.ts.
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
})
