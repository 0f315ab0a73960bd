// ingress-backend-missing, statefulset-service-missing, pdb-selects-nothing, pdb-blocks-eviction,
// and the two opinions (no-readiness-probe, image-latest), which stay off unless enabled.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {at, check, RULES_FX} from './helpers.js'

const fx = (file: string) => `${RULES_FX}/references/${file}`
const RULES = new Set(['ingress-backend-missing', 'statefulset-service-missing', 'pdb-selects-nothing', 'pdb-blocks-eviction', 'no-readiness-probe', 'image-latest'])

describe('reference rules', () => {
  it('point at the reference that resolves to nothing', async () => {
    const r = await check([fx('bad.yaml')], {enable: ['no-readiness-probe,image-latest']})
    expect(r.findings.filter((f) => RULES.has(f.rule)).map((f) => `${at(f)} ${f.kind}/${f.name} ${f.field}`)).toEqual([
      'ingress-backend-missing@6:41 Ingress/shop spec.defaultBackend.service.port.number',
      'ingress-backend-missing@13:27 Ingress/shop spec.rules[0].http.paths[0].backend.service.name',
      'no-readiness-probe@31:7 Deployment/web spec.template.spec.containers',
      'image-latest@33:16 Deployment/web spec.template.spec.containers[0].image',
      'image-latest@36:16 Deployment/web spec.template.spec.initContainers[0].image',
      'statefulset-service-missing@42:16 StatefulSet/db spec.serviceName',
      'statefulset-service-missing@52:16 StatefulSet/cache spec.serviceName',
      'pdb-blocks-eviction@62:17 PodDisruptionBudget/web spec.minAvailable',
      'pdb-selects-nothing@70:3 PodDisruptionBudget/typo spec.selector',
      'pdb-blocks-eviction@76:19 PodDisruptionBudget/db spec.maxUnavailable',
    ])
    const [port] = r.findings
    expect(port.message).toBe('backend Service web has no port 8080 (its ports: 80 (http)): the Ingress would route to nothing (503)')
    expect(port.related?.[0]).toMatchObject({kind: 'Service', name: 'web', line: 20})
  })

  it('the opinions are off by default; the configuration turns them on', async () => {
    const r = await check([fx('bad.yaml')])
    expect(r.findings.some((f) => f.rule === 'no-readiness-probe' || f.rule === 'image-latest')).toBe(false)
    expect(r.findings.filter((f) => RULES.has(f.rule))).toHaveLength(7)
  })

  it('leave resolved references alone', async () => {
    expect((await check([fx('good.yaml')], {enable: ['no-readiness-probe', 'image-latest']})).findings).toEqual([])
  })

  it('judge a PodDisruptionBudget alone in its apply set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-check-pdb-'))
    const file = join(dir, 'app.yaml')
    writeFileSync(
      file,
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: web:1}]}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
`,
    )
    expect((await check([file])).findings.map((f) => `${at(f)} ${f.message}`)).toEqual([
      'pdb-blocks-eviction@13:17 minAvailable 2 is at least the 2 replicas it selects (Deployment default/web): every voluntary eviction is refused, so a node drain (a cluster upgrade) waits on these pods forever',
    ])
  })
})
