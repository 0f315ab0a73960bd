// daemonset-no-eligible-node (src/controllers/daemonset/rules.ts).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {at, check, ofRule, RULES_FX} from '../../check/helpers.js'

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

describe('daemonset-no-eligible-node: where it points', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-ds-rules-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))
  it('the nodeSelector excludes one node and a taint the other: the finding points at the pod spec, not the nodeSelector', async () => {
    const path = join(dir, 'two-reasons.yaml')
    writeFileSync(path, `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {pool: z}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {pool: x}}
spec:
  taints: [{key: dedicated, value: db, effect: NoSchedule}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {pool: x}
      containers: [{name: a, image: agent:1}]
`)
    const found = ofRule(await check([path]), 'daemonset-no-eligible-node')
    expect(found.map((f) => f.field)).toEqual(['spec.template.spec'])
  })
})
