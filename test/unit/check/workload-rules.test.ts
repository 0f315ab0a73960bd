// daemonset-no-eligible-node and immutable-claim-templates-change.
import {describe, expect, it} from 'vitest'

import {at, check, ofRule, RULES_FX} from './helpers.js'

const CLAIMS = 'test/fixtures/check/claim-templates'

describe('daemonset-no-eligible-node', () => {
  it('finds the DaemonSets no Node of the input would run, and says why node by node', async () => {
    const r = await check([`${RULES_FX}/references/daemonset-nodes.yaml`])
    const found = ofRule(r, 'daemonset-no-eligible-node')
    expect(found.map((f) => `${at(f)} ${f.name} ${f.field}`)).toEqual([
      'daemonset-no-eligible-node@28:7 gpu-agent spec.template.spec.nodeSelector',
      'daemonset-no-eligible-node@58:5 db-agent spec.template.spec',
    ])
    expect(found[0].message).toBe(
      'none of the 2 Nodes in the input would run its pod: the nodeSelector matches no node\'s labels (node-a, node-b); the DaemonSet would run no pods (desiredNumberScheduled 0)',
    )
    expect(found[1].message).toContain('an untolerated taint dedicated=db:NoSchedule (node-a); the required node affinity matches no node (node-b)')
  })

  it('says nothing when the input holds no Node', async () => {
    // The same DaemonSet that no node runs above, alone: the cluster's nodes are unknown.
    const r = await check([`${RULES_FX}/references/daemonset-without-nodes.yaml`])
    expect(r.findings.filter((f) => f.kind === 'DaemonSet')).toEqual([])
  })
})

describe('immutable-claim-templates-change', () => {
  it('a template that changes against the previous render is an error at spec.volumeClaimTemplates', async () => {
    const r = await check([`${CLAIMS}/current-bad`], {against: `${CLAIMS}/previous`})
    const [f] = ofRule(r, 'immutable-claim-templates-change')
    expect(`${at(f)} ${f.severity} ${f.field}`).toBe('immutable-claim-templates-change@16:3 error spec.volumeClaimTemplates')
    expect(f.message).toMatch(/^spec\.volumeClaimTemplates differ from the previous render \(.*db\.yaml\) \(template data changes\): they cannot be changed/)
    expect(f.related?.[0]).toMatchObject({line: 16})
  })

  it('the same templates as stored (defaults filled in, 1024Mi for 1Gi) are no change', async () => {
    const r = await check([`${CLAIMS}/current-good`], {against: `${CLAIMS}/previous`})
    expect(ofRule(r, 'immutable-claim-templates-change')).toEqual([])
  })

  it('without a previous version there is nothing to compare with', async () => {
    expect(ofRule(await check([`${CLAIMS}/current-bad`]), 'immutable-claim-templates-change')).toEqual([])
  })
})
