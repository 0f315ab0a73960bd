// The Service rules (src/controllers/service/rules.ts).
// One positive and one negative fixture per rule (test/fixtures/check/rules/<rule>/), with every
// finding's position asserted exactly: line AND column of the field, not of the document.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {at, check, ofRule, RULES_FX} from '../../check/helpers.js'

const fx = (rule: string, file: string) => `${RULES_FX}/${rule}/${file}`

describe('service-selects-nothing', () => {
  it('reports the Service selector and the closest template', async () => {
    const r = await check([fx('service-selects-nothing', 'bad.yaml')])
    const found = ofRule(r, 'service-selects-nothing')
    expect(found.map(at)).toEqual(['service-selects-nothing@17:3', 'service-selects-nothing@29:3'])
    expect(found[0].message).toContain('closest is the template of Deployment default/web, which has tier=backend, not tier=frontend')
    expect(found[1].message).toContain('in namespace prod: the input has none there')
  })

  it('selects only pods with every label, and names as closest the template with most labels in common, then the values most like the wanted ones', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-service-rules-')), 'closest.yaml')
    const pod = (ns: string, name: string, labels: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: ${ns}, labels: {${labels}}}\nspec: {containers: [{name: c, image: nginx}]}\n---\n`
    const service = (ns: string, selector: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: ${ns}}\nspec: {selector: {${selector}}, ports: [{port: 80}]}\n---\n`
    writeFileSync(
      file,
      // More labels in common beats values more alike; among equals, the values alike in every label count.
      pod('more', 'two', 'app: web, tier: backend, track: canary') +
        pod('more', 'alike', 'app: web, tier: backend-v2, track: stabl') +
        service('more', 'app: web, tier: backend, track: stable') +
        pod('like', 'w', 'app: w, tier: backend') +
        pod('like', 'we', 'app: we, tier: backend') +
        service('like', 'app: web, tier: backend') +
        // Looked for among the fewest (tier=backend), a pod must still carry every label.
        pod('all', 'w1', 'app: web') +
        pod('all', 'w2', 'app: web') +
        pod('all', 'other', 'app: other, tier: backend') +
        service('all', 'app: web, tier: backend'),
    )
    const found = ofRule(await check([file]), 'service-selects-nothing')
    expect(found.map((f) => f.message.replace(/^.*: (closest is [^;]*);.*$/, '$1'))).toEqual(['closest is pod two, which has track=canary, not track=stable', 'closest is pod we, which has app=we, not app=web', 'closest is pod other, which has app=other, not app=web'])
  })

  it('counts Deployments, CronJobs and bare Pods, and skips selector-less and ExternalName Services', async () => {
    expect((await check([fx('service-selects-nothing', 'good.yaml')])).findings).toEqual([])
  })
})

describe('service-target-port-undefined', () => {
  it('points at a named targetPort that no selected template defines for its protocol', async () => {
    const r = await check([fx('service-target-port-undefined', 'bad.yaml')])
    const found = ofRule(r, 'service-target-port-undefined')
    expect(found.map((f) => `${at(f)} ${f.name} ${f.field}`)).toEqual([
      'service-target-port-undefined@23:17 web spec.ports[0].targetPort',
      'service-target-port-undefined@48:58 dns spec.ports[1].targetPort',
    ])
    expect(found[0]).toMatchObject({severity: 'warning', kind: 'Service'})
    expect(found[0].message).toContain('targetPort web of port http (80/TCP) names no TCP container port of the pods it selects (Deployment default/web)')
    expect(found[0].message).toContain('name a container port web (protocol TCP), or give the number')
    expect(found[1].message).toContain('names no UDP container port')
  })

  it('finds ports on containers and sidecars, on any one selected template, and never looks numbers up', async () => {
    expect((await check([fx('service-target-port-undefined', 'good.yaml')])).findings).toEqual([])
  })
})

describe('publish-not-ready-without-probe', () => {
  it('points at publishNotReadyAddresses when a selected template has no readiness probe, and says why it matters', async () => {
    const r = await check([fx('publish-not-ready-without-probe', 'bad.yaml')])
    const found = ofRule(r, 'publish-not-ready-without-probe')
    expect(found.map((f) => `${at(f)} ${f.field}`)).toEqual(['publish-not-ready-without-probe@18:29 spec.publishNotReadyAddresses'])
    expect(found[0].message).toContain('StatefulSet default/db has no readiness probe')
    expect(found[0].message).toContain('starting and terminating ones too')
    expect(found[0].message).toContain('turns true as soon as the containers start')
  })

  it('is quiet with a readiness probe, or with publishNotReadyAddresses false', async () => {
    expect((await check([fx('publish-not-ready-without-probe', 'good.yaml')])).findings).toEqual([])
  })
})

describe('lb-local-selects-nothing', () => {
  it('points at externalTrafficPolicy of a Local LoadBalancer whose selector matches nothing, beside service-selects-nothing', async () => {
    const r = await check([fx('lb-local-selects-nothing', 'bad.yaml')])
    expect(r.findings.map((f) => `${at(f)} ${f.field}`)).toEqual([
      'lb-local-selects-nothing@17:26 spec.externalTrafficPolicy',
      'service-selects-nothing@18:3 spec.selector',
    ])
    expect(r.findings[0].message).toContain('every node fails it and the load balancer has no backend')
  })

  it('says nothing of a Local one with pods, and leaves a Cluster one to service-selects-nothing', async () => {
    const r = await check([fx('lb-local-selects-nothing', 'good.yaml')])
    expect(r.findings.map((f) => `${f.rule} ${f.name}`)).toEqual(['service-selects-nothing store'])
  })
})
