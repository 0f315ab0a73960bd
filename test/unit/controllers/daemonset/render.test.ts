// The table lines of DaemonSet plans that the examples' goldens do not show: long lists of
// nodes folded.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {parseFeatureGates, plannerOptions} from '../../../../src/services/options.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-ds-table-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

async function table(name: string, yaml: string): Promise<string> {
  const file = join(tmp, name)
  writeFileSync(file, yaml)
  const snapshot = await readFixtures({paths: [file]})
  return renderPlanTable(planSnapshot(snapshot, plannerOptions('2026-11-22T10:00:00Z', parseFeatureGates(undefined))))
}

const TEMPLATE = (app: string, spec = '') => `
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec: {containers: [{name: c, image: i}]${spec}}`

describe('DaemonSet tables', () => {
  it('a DaemonSet over many nodes lists ten it leaves out, then counts the rest', async () => {
    const nodes = Array.from({length: 12}, (_, i) => `apiVersion: v1\nkind: Node\nmetadata: {name: node-${String(i).padStart(2, '0')}, labels: {pool: b}}\n`).join('---\n')
    const text = await table('ds.yaml', `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:${TEMPLATE('agent', ', nodeSelector: {pool: a}')}\n---\n${nodes}`)
    expect(text.split('\n').filter((l) => l.startsWith('  · node '))).toHaveLength(10)
    expect(text).toContain('  · and 2 more nodes without the daemon pod (see nodes[] in -o json)')
  })
})
