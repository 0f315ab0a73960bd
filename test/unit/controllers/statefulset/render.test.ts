// The table lines of StatefulSet plans that the examples' goldens do not show: what an
// OrderedReady sync waits on.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {parseFeatureGates, plannerOptions} from '../../../../src/services/options.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-wl-table-'))
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

describe('StatefulSet tables', () => {
  it('an OrderedReady StatefulSet says which pod it waits on', async () => {
    const text = await table(
      'sts.yaml',
      `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, uid: u1}\nspec:\n  replicas: 2${TEMPLATE('web')}\n---\n` +
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  labels: {app: web, statefulset.kubernetes.io/pod-name: web-0}\n  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: u1, controller: true}]\nstatus: {phase: Pending}\n`,
    )
    expect(text).toContain('  … then waits: web-0 is not Running and Ready')
    expect(text).not.toContain('create pod web-1')
  })
})
