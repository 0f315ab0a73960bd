// Cluster-scoped objects have no namespace: not in findings, not in messages, and -n does not
// give them one.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {renderCheckText} from '../../../src/render/check-text.js'
import {check} from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-check-scope-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

describe('cluster-scoped objects', () => {
  it('are reported without a namespace, whatever -n says', async () => {
    const file = join(tmp, 'cluster.yaml')
    writeFileSync(
      file,
      `apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {owner: b}}
---
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: ClusterRole
metadata: {name: reader}
rules: []
`,
    )
    const report = await check([file], {namespace: 'apps'})
    expect(report.findings.map((f) => [f.rule, f.kind, f.namespace, f.name])).toEqual([
      ['duplicate-object', 'Namespace', '', 'team-a'],
      ['deprecated-api', 'ClusterRole', '', 'reader'],
    ])
    expect(report.findings[0].message).toContain('Namespace team-a is already defined differently')
    const text = renderCheckText(report, {color: false})
    expect(text).toContain('Namespace team-a: ')
    expect(text).toContain('ClusterRole reader: ')
    expect(text).not.toContain('apps/')
  })
})
